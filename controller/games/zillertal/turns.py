"""Applying a Zillertal action: lay a card, claim tasks, use bonuses, draw new contracts, end the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.games import cards
from controller.games.base import (
    Action,
)
from controller.games.cards import UNSEEN, take_card
from controller.games.records import replaced
from controller.games.seats import with_seat
from controller.games.zillertal.actions import (
    BonusCross,
    BonusExchange,
    BonusGorge,
    BonusTask,
    BonusTokens,
    Claim,
    Done,
    End,
    NewContract,
    Place,
    PlaceToken,
    SecondCross,
    SetAside,
    Swap,
)
from controller.games.zillertal.model import (
    CROSS,
    DEAL,
    DRAW,
    EXCHANGE,
    HAND_SIZE,
    PHYSICAL,
    REDRAW,
    TOKENS,
    TOKENS_PER_BONUS,
    Held,
    Position,
    _starting_values,
    token_supply,
)
from controller.games.zillertal.valley import Placed, Token

if TYPE_CHECKING:
    from controller.games.zillertal.state import ZillertalState


def apply_legal(state: ZillertalState, action: Action) -> ZillertalState:
    t = state._position
    me = t.current
    hand = t.hands[me]
    if isinstance(action, Place):
        card = state._set.valley[action.card]
        gorge, events = t.gorge, []
        if gorge is not None and action.at <= gorge < action.at + card.width:
            # ZT-3: a Valley card over the Gorge removes it; the second Gorge may be claimed.
            gorge = None
            events.append("the Gorge is covered: the whole Valley scores again")
        return successor(
            state,
            replaced(
                t,
                hands=with_seat(t.hands, me, take_card(hand, action.card)),
                placed=(*t.placed, Placed(action.card, action.at)),
                gorge=gorge,
                played=True,
                events=tuple(events),
            ),
        )
    if isinstance(action, SetAside):
        if t.hands_mode == PHYSICAL:
            event = f"player {me} sets aside {action.card}, which fits nowhere in the Valley"
        else:
            event = f"player {me} cannot lay {action.card} or the other hand card anywhere and sets it aside"
        return successor(
            state,
            replaced(
                t,
                hands=with_seat(t.hands, me, take_card(hand, action.card)),
                set_aside=(*t.set_aside, action.card),
                played=True,
                events=(event,),
            ),
        )
    if isinstance(action, Claim):
        return _claim(state, replaced(t, claim_on=action.contract, events=()), action.contract, action.icon)
    if isinstance(action, BonusTask):
        return _claim(state, replaced(_take_bonus(state, t, "task"), events=()), action.contract, action.icon)
    if isinstance(action, BonusTokens):
        # ZT-E5: the three tokens are placed one action each, before anything else happens.
        left = min(TOKENS_PER_BONUS, sum(token_supply(state._set, t.tokens).values()))
        after = replaced(_take_bonus(state, t, "tokens"), pending=TOKENS, tokens_left=left, events=())
        placing = successor(state, after)
        return placing if placing._token_actions() else successor(state, replaced(after, pending=None, tokens_left=0))
    if isinstance(action, PlaceToken):
        token = Token(action.icon, action.column, len(t.placed), action.blank)
        after = replaced(t, tokens=(*t.tokens, token), tokens_left=t.tokens_left - 1, events=())
        placing = successor(state, after)
        if after.tokens_left == 0 or not placing._token_actions():
            return successor(state, replaced(after, pending=None, tokens_left=0))
        return placing
    if isinstance(action, BonusExchange):
        return successor(state, replaced(_take_bonus(state, t, "exchange"), pending=EXCHANGE, received=(), events=()))
    if isinstance(action, Swap):
        return _swap(state, action.card)
    if isinstance(action, NewContract):
        return _new_contract(state, action.contract)
    if isinstance(action, Done):
        return successor(state, replaced(t, pending=None, events=()))
    if isinstance(action, BonusGorge):
        after = _take_bonus(state, t, "gorge")
        return successor(state, replaced(after, gorge=action.column, gorges_used=t.gorges_used + 1, events=()))
    if isinstance(action, BonusCross):  # ZT-E5: the second Cross follows as its own action
        bonus = _take_bonus(state, t, "crosses")
        return successor(state, replaced(bonus, crosses=(action.line,), pending=CROSS, events=()))
    if isinstance(action, SecondCross):
        return successor(state, replaced(t, crosses=tuple(sorted((*t.crosses, action.line))), pending=None, events=()))
    assert isinstance(action, End)
    return _end_turn(state, action.piles)


def successor(state: ZillertalState, table: Position) -> ZillertalState:
    """The state after `state` whose position is `table` (the Valley's view carried over where it can be)."""
    following = type(state)(state._game, state._set, state._custom, table)
    t = state._position
    valley = state._valley
    if valley is None or table.crosses != t.crosses or table.tokens != t.tokens:
        return following
    if (table.placed, table.gorge) == (t.placed, t.gorge):
        following._valley = valley  # the Valley is unchanged: its view (an immutable one) carries over
    elif table.placed[:-1] == t.placed and table.gorge in (t.gorge, None):
        following._valley = valley.laid(table.placed[-1], table.gorge)  # one card laid on top
    return following


def _take_bonus(state: ZillertalState, t: Position, bonus: str) -> Position:
    """A player claims a bonus: it is used up (the Gorge counts separately) and counts for the player."""
    used = t.used if bonus == "gorge" else (*t.used, bonus)
    return replaced(t, used=used, taken=with_seat(t.taken, t.current, t.taken[t.current] + 1))


def _claim(state: ZillertalState, t: Position, contract_id: str, icon: str) -> ZillertalState:
    me = t.current
    contracts = list(t.contracts[me])
    index = next(i for i, h in enumerate(contracts) if h.id == contract_id)
    held = Held(contract_id, (*contracts[index].claimed, icon))
    contract = state._set.contracts[contract_id]
    events = list(t.events)
    events.append(f"player {me} claims {icon} {contract.target(icon)} on {contract_id}")
    if len(held.claimed) < len(contract.tasks):
        contracts[index] = held
        held_now = with_seat(t.contracts, me, tuple(contracts))
        return successor(state, replaced(t, contracts=held_now, events=tuple(events)))
    # All tasks claimed: the contract is complete and scores its points.
    del contracts[index]
    completed = (*t.completed[me], contract_id)
    events.append(f"player {me} completes {contract_id} for {contract.points} point(s)")
    after = replaced(
        t,
        contracts=with_seat(t.contracts, me, tuple(contracts)),
        completed=with_seat(t.completed, me, completed),
        replacements=t.replacements + (0 if state.solo else 1),
        events=tuple(events),
    )
    if state.solo and not contracts:  # ZT-E8: the solo game is won the moment the last one is done
        events.append("all contracts are complete: the solo game is won")
        after = replaced(after, over=True, turns=t.turns + 1, events=tuple(events))
    return successor(state, after)


def _swap(state: ZillertalState, card: str) -> ZillertalState:
    """ZT-E4: the new card comes from the top, the old one goes under its deck or pile."""
    t = state._position
    me = t.current
    revealed = t.revealed + 1
    if card in state._set.valley:
        (new,), deck = cards.draw(t.deck)
        # ZT-E12: a card given back into a physical deck is unseen again.
        back = UNSEEN if t.hands_mode == PHYSICAL else card
        hand = (*take_card(t.hands[me], card), new)
        return successor(
            state,
            replaced(
                t,
                hands=with_seat(t.hands, me, hand),
                deck=cards.put_under(deck, back),
                received=(*t.received, new),
                revealed=revealed,
                events=(f"player {me} exchanges a hand card",),
            ),
        )
    value = state._set.contracts[card].points
    if t.hands_mode == PHYSICAL:
        # ZT-E12: the contract drawn for it is entered next.
        contracts = tuple(h for h in t.contracts[me] if h.id != card)
        return successor(
            state,
            replaced(
                t,
                contracts=with_seat(t.contracts, me, contracts),
                piles=with_seat(t.piles, value - 1, cards.put_under(t.piles[value - 1], card)),
                pending=REDRAW,
                to_draw=(value,),
                revealed=revealed,
                events=(f"player {me} exchanges {card}: enter the contract drawn from pile {value}",),
            ),
        )
    (new,), pile = cards.draw(t.piles[value - 1])
    contracts = tuple(Held(new) if h.id == card else h for h in t.contracts[me])
    piles = with_seat(t.piles, value - 1, cards.put_under(pile, card))
    return successor(
        state,
        replaced(
            t,
            contracts=with_seat(t.contracts, me, contracts),
            piles=piles,
            received=(*t.received, new),
            revealed=revealed,
            events=(f"player {me} exchanges {card} for {new}",),
        ),
    )


def _new_contract(state: ZillertalState, contract_id: str) -> ZillertalState:
    """ZT-E11: a contract drawn (or dealt) at a physical table is entered."""
    t = state._position
    me = t.current
    value = state._set.contracts[contract_id].points
    piles = with_seat(t.piles, value - 1, cards.remove_card(t.piles[value - 1], contract_id))
    contracts = with_seat(t.contracts, me, (*t.contracts[me], Held(contract_id)))
    owed = list(t.to_draw)
    owed.remove(value)
    event = f"player {me} takes contract {contract_id} (worth {value})"
    after = replaced(t, piles=piles, contracts=contracts, to_draw=tuple(owed), events=(event,))
    if owed:
        return successor(state, after)
    if t.pending == DEAL:
        if me + 1 < t.players:
            events = (event, f"enter the contracts dealt to player {me + 1}")
            return successor(state, replaced(after, current=me + 1, to_draw=_starting_values(t.players), events=events))
        return successor(state, replaced(after, current=0, pending=None, events=(event, "player 0 starts")))
    if t.pending == REDRAW:
        return successor(state, replaced(after, pending=EXCHANGE, received=(*t.received, contract_id)))
    return _pass_turn(state, after, after.events, {"pending": None})


def _end_turn(state: ZillertalState, chosen: tuple[int, ...]) -> ZillertalState:
    t = state._position
    me = t.current
    hand, deck = cards.refill(t.hands[me], t.deck, HAND_SIZE)
    drew = len(hand) > len(t.hands[me]) or bool(chosen)
    ended: dict[str, Any] = {
        "hands": with_seat(t.hands, me, hand),
        "deck": deck,
        "turns": t.turns + 1,
        "revealed": t.revealed + (1 if drew else 0),
    }
    if t.hands_mode == PHYSICAL and chosen:
        # ZT-E11: the player draws from the chosen piles; each contract drawn is entered next.
        named = " and ".join(str(v) for v in chosen)
        event = f"player {me} draws {len(chosen)} contract(s) from pile(s) {named}: enter them (contract ID)"
        return successor(state, replaced(t, **ended, pending=DRAW, to_draw=chosen, events=(event,)))
    events = []
    if chosen:
        contracts = list(t.contracts[me])
        piles = list(t.piles)
        for value in chosen:
            (new,), piles[value - 1] = cards.draw(piles[value - 1])
            contracts.append(Held(new))
            events.append(f"player {me} takes a new contract worth {value}: {new}")
        ended.update(piles=tuple(piles), contracts=with_seat(t.contracts, me, tuple(contracts)))
    return _pass_turn(state, t, tuple(events), ended)


def _pass_turn(state: ZillertalState, t: Position, events: tuple[str, ...], ended: dict[str, Any]) -> ZillertalState:
    """The turn of the player on turn is over, with `ended` the changes to `t` it made last (made
    into the next position at once: random playouts end millions of turns): the next player with
    cards plays."""
    me = t.current
    hands = ended.get("hands", t.hands)
    # Rule text: with the deck empty, players play out their hands; a player without cards is passed.
    for step in range(1, t.players + 1):
        seat = (me + step) % t.players
        if hands[seat]:
            following = {
                **ended,
                "current": seat,
                "played": False,
                "claim_on": None,
                "pending": None,
                "tokens_left": 0,
                "received": (),
                "start_completed": len(t.completed[seat]),
                "replacements": 0,
                "events": events,
            }
            return successor(state, replaced(t, **following))
    events = (*events, "no cards are left to play: the game is over")
    over = {**ended, "over": True, "played": False, "claim_on": None, "replacements": 0, "events": events}
    return successor(state, replaced(t, **over))
