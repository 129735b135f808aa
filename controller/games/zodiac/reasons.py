"""Why a Zodiac action is illegal, in words a player understands."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from controller.games.base import (
    Action,
)
from controller.games.cards import UNSEEN, Card
from controller.games.zodiac.actions import (
    FACE_UP_WORD,
    Dealer,
    Discard,
    Down,
    Draw,
    Lose,
    Open,
    Pass,
    PlayMoon,
    PlaySun,
    Spare,
    Take,
    Up,
    calls_zodiac,
)
from controller.games.zodiac.cards import DECK_COUNTS, HAND_LIMIT, MOON, SUN, TOTAL_LIMIT, UP_LIMIT, card_name, is_sign
from controller.games.zodiac.model import DEALER, DRAWN, OPEN, OVER, PENALTY, _why_no_zodiac
from controller.games.zodiac.turns import ending

if TYPE_CHECKING:
    from controller.games.zodiac.state import ZodiacState


def _not_held(state: ZodiacState, seat: int, card: Card) -> str:
    """Why `seat` cannot play or move `card` from the hand."""
    if not state.physical:
        return f"there is no {card_name(card)} in {'your' if seat == state._position.current else 'their'} hand"
    if UNSEEN not in state._position.hands[seat]:
        return f"every card in that hand has been seen, and none is a {card_name(card)}"
    return f"all {DECK_COUNTS[card]} copies of {card_name(card)} have been seen elsewhere (ZO-E13)"


def why_illegal(state: ZodiacState, action: Action) -> str:
    t = state._position
    if t.phase == OVER:
        return "the game is over"
    me = t.current
    hand, up = t.hands[me], t.up[me]
    kinds = (Dealer, Open, Draw, Take, PlaySun, PlayMoon, Up, Down, Discard, Pass, Lose, Spare)
    if not isinstance(action, kinds):
        return f"{action!r} is not a Zodiac action"
    if t.phase == DEALER:
        if isinstance(action, Dealer):
            return f"player {action.seat} is not at this table (seats 0 to {t.players - 1})"
        return "first name the dealer (dealer SEAT): the player who drew the first action card (ZO-E12)"
    if t.phase == OPEN:
        if isinstance(action, Open):
            return "the discard pile starts with a sign: action cards turned up go back into the deck (ZO-1)"
        return "name the sign the dealer turned up to start the discard pile (open SIGN) (ZO-E12)"
    if isinstance(action, Dealer | Open):
        return "the dealer and the first discard are named only before the first turn, at a physical table"
    if t.phase == PENALTY:
        assert t.penalty is not None
        off = t.penalty.offender
        if isinstance(action, Spare):
            if not state.physical:
                return "the controller sees the cards: it knows whether a sign is left to lose"
            return f"player {off} still holds a sign to lose"
        if not isinstance(action, Lose):
            return f"player {me} must first choose the sign player {off} loses (lose up|hand SIGN)"
        if not is_sign(action.card):
            return "a penalty costs signs, not action cards (rule text)"
        if action.area == "up":
            return f"player {off} shows no {card_name(action.card)} face up"
        return _not_held(state, off, action.card)
    if isinstance(action, Lose | Spare):
        return "no penalty is being paid"
    if calls_zodiac(action):
        if t.mode != "table" and not state.physical:
            return "ZODIAC is called only in table mode; the referee detects a completed Zodiac itself (ZO-4)"
        fresh_sun = t.phase == DRAWN and isinstance(action, PlaySun)
        if not fresh_sun and replace(action, call=False) in state.legal_actions():
            reason = _why_no_zodiac(ending(state, action), me)
            return f"that ZODIAC call cannot be true: {reason} (ZO-E15)"
    drawn = t.phase == DRAWN
    if isinstance(action, Draw | Take):
        if drawn:
            return "you have already drawn this turn"
        if isinstance(action, Draw):
            return "the deck is empty"
        if not t.discard:
            return "the discard pile is empty"
        if t.locked:
            return "the top discard was lost to a penalty: the next player may not take it (ZO-4)"
        return (
            f"{card_name(t.discard[-1])} is an action card: action cards are never taken from the discard pile (ZO-1)"
        )
    if isinstance(action, PlaySun | PlayMoon):
        card = SUN if isinstance(action, PlaySun) else MOON
        name = card_name(card)
        if drawn:
            if t.fresh not in (card, UNSEEN):
                return f"after drawing, only a {name} just drawn may be played, and only at once (ZO-2, ZO-3)"
            if t.fresh == UNSEEN and state._unaccounted(card) == 0:
                return f"all {DECK_COUNTS[card]} copies of {name} have been seen: the card you drew is not one"
            if action.area not in (None, "hand"):
                return f"only the {name} just drawn may be played now, from your hand (ZO-2, ZO-3)"
        elif action.area not in state._areas(card):
            if state.physical and action.area is None:
                return (
                    f"at a physical table say where the {name} comes from: from the hand, or from the "
                    f"face-up area with '{FACE_UP_WORD}' (ZO-E14)"
                )
            if action.area == "up":
                return f"you show no {name} face up"
            if action.area == "hand":
                return _not_held(state, me, card)
            return f"you hold no {name}"
        if isinstance(action, PlaySun):
            if not drawn and not state._can_play(SUN, action.area):
                return (
                    "your Sun lies face up and your hand is full: the sign taken would be a 7th card "
                    "in your hand (ZO-2, ZO-4)"
                )
            if drawn and action.call:
                return "a Sun played at once does not end the turn: call ZODIAC when you end it"
            if not state.sun_targets():
                return "no player shows a sign you are missing: the Sun cannot be used now (rule text)"
            if action.seat == me or not 0 <= action.seat < t.players:
                return f"player {action.seat} is not an opponent"
            if action.card not in state._missing(me):
                return f"you already have {card_name(action.card)}: a Sun takes a missing sign (ZO-2)"
            return f"player {action.seat} shows no {card_name(action.card)} face up"
        return "you cannot play that now"
    if isinstance(action, Up | Down):
        if not drawn and not t.rearrange_before_draw:
            return "cards are rearranged only after drawing (ZO-5)"
        if isinstance(action, Up) and not state._may_hold(me, action.card):
            return _not_held(state, me, action.card)
        if isinstance(action, Down) and action.card not in up:
            return f"there is no {card_name(action.card)} in your face-up cards"
        if isinstance(action, Up) and t.mode == "referee" and len(up) >= UP_LIMIT:
            return f"you already show {UP_LIMIT} cards face up, the most allowed"
        return f"that {card_name(action.card)} has already moved this turn (ZO-5: each card moves once)"
    if isinstance(action, Discard | Pass):
        if not drawn:
            if isinstance(action, Pass):
                return "you can still draw, take or play an action card: pass only after drawing"
            return "draw or take a card first: a discard ends a draw turn"
        if isinstance(action, Pass):
            return (
                f"you hold {len(hand)} in hand and {len(up)} face up: at most {HAND_LIMIT} in hand "
                f"and {TOTAL_LIMIT} in all at the end of a turn, so discard one"
            )
        if not state._may_hold(me, action.card):
            return _not_held(state, me, action.card)
        if not is_sign(action.card) and not state.physical:
            return "action cards are played, not discarded, while you hold a sign and the card can be played (ZO-E2)"
        return (
            f"after that discard you would still hold {len(hand) - 1} in hand and {len(up)} face up: "
            "more than the limits allow"
        )
    return "you cannot do that now"
