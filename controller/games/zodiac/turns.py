"""Applying a Zodiac action: the steps of a turn, its end (ZO-2 the call, ZO-4 penalties) and the next seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.games import cards
from controller.games.base import (
    Action,
)
from controller.games.cards import UNSEEN, take_card
from controller.games.records import replaced
from controller.games.zodiac.actions import (
    Dealer,
    Discard,
    Down,
    Draw,
    Ending,
    Lose,
    Open,
    Pass,
    PlayMoon,
    PlaySun,
    Spare,
    Take,
    Up,
)
from controller.games.zodiac.cards import ACTION_CARDS, MOON, SUN, _order, card_name, has_zodiac, is_sign, over_limits
from controller.games.zodiac.model import (
    DRAWN,
    OPEN,
    OVER,
    PENALTY,
    PHYSICAL,
    TURN,
    Penalty,
    Position,
    _with_seat,
    _zodiac_possible,
)

if TYPE_CHECKING:
    from controller.games.zodiac.state import ZodiacState


def apply_legal(state: ZodiacState, action: Action) -> ZodiacState:
    t = state._position
    me = t.current
    hand, up = t.hands[me], t.up[me]
    if isinstance(action, Dealer):
        # ZO-E12: the dealer turns up the card that starts the discard pile.
        event = f"player {action.seat} deals; name the sign turned up to start the discard pile (open SIGN)"
        return _next(state, replaced(t, dealer=action.seat, current=action.seat, phase=OPEN, events=(event,)))
    if isinstance(action, Open):
        first = (t.dealer + 1) % t.players
        event = f"{card_name(action.card)} starts the discard pile; player {first} starts"
        return _next(
            state,
            replaced(
                t,
                deck=t.deck[1:],
                discard=(action.card,),
                current=first,
                phase=TURN,
                events=(event,),
            ),
        )
    if isinstance(action, Lose):
        return _lose(state, action)
    if isinstance(action, Spare):
        assert t.penalty is not None
        off = t.penalty.offender
        event = f"player {off} shows no sign: nothing more is lost"
        after = replaced(t, penalty=None, events=(event,))
        return _pass_turn(state, after, off, lock=t.penalty.lost > 0)
    if isinstance(action, Draw):
        (card,), deck = cards.draw(t.deck)
        # ZO-E13: a physical draw is unseen; whatever it is may be played at once if an action card.
        fresh = UNSEEN if card == UNSEEN else card if card in ACTION_CARDS else None
        return _next(
            state,
            replaced(
                t,
                deck=deck,
                hands=_with_seat(t.hands, me, (*hand, card)),
                phase=DRAWN,
                fresh=fresh,
                revealed=t.revealed + 1,
                events=(),
            ),
        )
    if isinstance(action, Take):
        card = t.discard[-1]
        return _next(
            state,
            replaced(
                t,
                discard=t.discard[:-1],
                hands=_with_seat(t.hands, me, (*hand, card)),
                phase=DRAWN,
                fresh=None,
                events=(),
            ),
        )
    if isinstance(action, Up):
        # ZO-5: a card moved down this turn stays in the hand, so another copy (maybe unseen) moves.
        if hand.count(action.card) > t.moved_down.count(action.card):
            rest = cards.remove_card(hand, action.card)
        else:
            rest = cards.remove_card(hand, UNSEEN)
        return _next(
            state,
            replaced(
                t,
                hands=_with_seat(t.hands, me, rest),
                up=_with_seat(t.up, me, (*up, action.card)),
                moved_up=(*t.moved_up, action.card),
                fresh=None,
                events=(),
            ),
        )
    if isinstance(action, Down):
        return _next(
            state,
            replaced(
                t,
                up=_with_seat(t.up, me, cards.remove_card(up, action.card)),
                hands=_with_seat(t.hands, me, (*hand, action.card)),
                moved_down=(*t.moved_down, action.card),
                fresh=None,
                events=(),
            ),
        )
    if isinstance(action, PlaySun) and t.phase == DRAWN:
        return _next(state, ending(state, action))  # ZO-2: drawn and played at once, the draw turn goes on
    assert isinstance(action, Ending)
    return _end_turn(state, ending(state, action), action.call)


def ending(state: ZodiacState, action: Action) -> Position:
    """The table after the cards of a Sun, Black Moon, discard or pass have moved, before the end
    of the turn is settled (calls, limits, the next player)."""
    t = state._position
    me = t.current
    hand, up = t.hands[me], t.up[me]
    if isinstance(action, PlaySun):
        if state._area_of(SUN, action.area) == "hand":
            hands = _with_seat(t.hands, me, (*take_card(hand, SUN), action.card))
            ups = t.up
        else:
            hands = _with_seat(t.hands, me, (*hand, action.card))
            ups = _with_seat(t.up, me, cards.remove_card(up, SUN))
        ups = _with_seat(ups, action.seat, cards.remove_card(ups[action.seat], action.card))
        event = f"player {me} plays a Sun and takes {card_name(action.card)} from player {action.seat}"
        return replaced(t, hands=hands, up=ups, discard=(*t.discard, SUN), fresh=None, events=(event,))
    if isinstance(action, PlayMoon):
        skips = list(t.skips)
        skips[(me + 1) % t.players] += 1  # ZO-3: skips accumulate on the next player
        event = f"player {me} plays a Black Moon: player {(me + 1) % t.players} skips a turn"
        if state._area_of(MOON, action.area) == "hand":
            hands, ups = _with_seat(t.hands, me, take_card(hand, MOON)), t.up
        else:
            hands, ups = t.hands, _with_seat(t.up, me, cards.remove_card(up, MOON))
        return replaced(
            t,
            hands=hands,
            up=ups,
            discard=(*t.discard, MOON),
            skips=tuple(skips),
            fresh=None,
            events=(event,),
        )
    if isinstance(action, Discard):
        return replaced(
            t,
            hands=_with_seat(t.hands, me, take_card(hand, action.card)),
            discard=(*t.discard, action.card),
            events=(),
        )
    assert isinstance(action, Pass)
    return replaced(t, events=())


def _next(state: ZodiacState, table: Position) -> ZodiacState:
    return type(state)(state._game, table)


def _end_turn(state: ZodiacState, t: Position, call: bool) -> ZodiacState:
    """The end of a turn: the call or the referee's check, penalties, then the turn passes."""
    me = t.current
    hand, up = t.hands[me], t.up[me]
    events = list(t.events)
    owed = 0
    skips = list(t.skips)
    physical = t.hands_mode == PHYSICAL
    revealed = t.revealed
    if t.mode == "referee" and not physical and has_zodiac(hand, up):
        # ZO-4: the referee detects a completed Zodiac itself.
        events.append(f"player {me} completes the Zodiac and wins")
        return _next(state, replaced(t, phase=OVER, winner=me, turns=t.turns + 1, events=tuple(events)))
    if call:
        # ZO-E7: the hand is shown to everyone. ZO-E15: with physical hands the controller accepts a
        # call that may be true; the table sees the cards.
        revealed += 1
        shown = "their hand" if physical else " ".join(sorted(hand, key=_order))
        if _zodiac_possible(t, me) if physical else has_zodiac(hand, up):
            events.append(f"player {me} calls ZODIAC, shows {shown} and wins")
            return _next(
                state, replaced(t, phase=OVER, winner=me, turns=t.turns + 1, revealed=revealed, events=tuple(events))
            )
        events.append(f"player {me} calls ZODIAC and shows {shown or 'no cards'}: a false call costs two signs")
        owed += 2  # rule text: a false call costs two signs chosen by an opponent
    if t.mode == "table" and over_limits(hand, up):
        events.append(
            f"player {me} ends the turn over the limits ({len(hand)} in hand, "
            f"{len(up)} face up): one sign lost and a turn skipped"
        )
        owed += 1  # rule text: one sign chosen by another player, and a skipped turn
        skips[me] += 1
    t = replaced(t, skips=tuple(skips), revealed=revealed, events=tuple(events))
    if owed and _loseable(type(state)(state._game, t), me):
        # ZO-E6: without signs nothing more is lost; the offender shows the cards to the chooser.
        chooser = (me + 1) % t.players  # ZO-4: the next player chooses
        events.append(f"player {chooser} chooses the sign(s) player {me} loses")
        return _next(
            state,
            replaced(
                t,
                phase=PENALTY,
                penalty=Penalty(me, owed),
                current=chooser,
                fresh=None,
                moved_up=(),
                moved_down=(),
                revealed=t.revealed + (0 if call else 1),
                events=tuple(events),
            ),
        )
    if owed:
        events.append(f"player {me} has no sign to lose")
        t = replaced(t, events=tuple(events))
    return _pass_turn(state, t, me, lock=False)


def _lose(state: ZodiacState, action: Lose) -> ZodiacState:
    t = state._position
    assert t.penalty is not None
    off = t.penalty.offender
    if action.area == "up":
        ups = _with_seat(t.up, off, cards.remove_card(t.up[off], action.card))
        hands = t.hands
    else:
        hands = _with_seat(t.hands, off, take_card(t.hands[off], action.card))
        ups = t.up
    where = "face up" if action.area == "up" else "from the hand"
    event = f"player {off} loses {card_name(action.card)} ({where})"
    owed = t.penalty.owed - 1
    after = replaced(t, hands=hands, up=ups, discard=(*t.discard, action.card), events=(event,))
    if owed and _loseable(type(state)(state._game, after), off):
        return _next(state, replaced(after, penalty=Penalty(off, owed, t.penalty.lost + 1)))
    # ZO-4: a card lost to a penalty cannot be drawn by the next player; ZO-E10: it stays locked
    # until the end of the next turn played.
    return _pass_turn(state, replaced(after, penalty=None), off, lock=True)


def may_lack_signs(state: ZodiacState, seat: int) -> bool:
    """Whether `seat`'s hand may hold no sign: its known cards are action cards and its unseen
    cards may all be action cards too."""
    hand = state._position.hands[seat]
    if any(is_sign(c) for c in hand):
        return False
    return hand.count(UNSEEN) <= state._unaccounted(SUN) + state._unaccounted(MOON)


def _loseable(state: ZodiacState, seat: int) -> bool:
    """Whether `seat` may still hold a sign to lose (ZO-E6)."""
    return any(is_sign(c) for c in state._position.up[seat]) or any(is_sign(c) for c in state._hand_choices(seat))


def _pass_turn(state: ZodiacState, t: Position, ended: int, lock: bool) -> ZodiacState:
    """The turn of `ended` is over: recycle the deck if needed, then find the next player."""
    events = list(t.events)
    deck, discard, rng, revealed = t.deck, t.discard, t.rng, t.revealed
    if not deck and len(discard) >= 2:
        # Rule text and ZO-E5: the discard pile but its top card becomes the new deck. ZO-E13: at a
        # physical table the players shuffle it; its cards are unseen again.
        if t.hands_mode == PHYSICAL:
            deck, discard = (UNSEEN,) * (len(discard) - 1), discard[-1:]
        else:
            deck, discard, rng = cards.recycle(discard, rng, keep_top=1)
        revealed += 1
        events.append("the deck is empty: the discard pile is shuffled into a new deck")
    turns = t.turns + 1
    common: dict[str, Any] = dict(
        deck=deck,
        discard=discard,
        rng=rng,
        turns=turns,
        fresh=None,
        moved_up=(),
        moved_down=(),
        penalty=None,
        locked=lock,
        revealed=revealed,
    )
    if t.max_turns is not None and turns >= t.max_turns:
        events.append(f"{turns} turns played: the game ends in a draw (ZO-6)")
        return _next(state, replaced(t, phase=OVER, events=tuple(events), **common))
    skips = list(t.skips)
    seat = (ended + 1) % t.players
    while skips[seat] > 0:  # ZO-3: a skipped player is passed over, one skip per pass
        skips[seat] -= 1
        events.append(f"player {seat} skips a turn")
        seat = (seat + 1) % t.players
    return _next(state, replaced(t, phase=TURN, current=seat, skips=tuple(skips), events=tuple(events), **common))
