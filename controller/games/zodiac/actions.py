"""Zodiac's actions (draw, take, play Sun or Black Moon, rearrange, discard, pass, lose) and their notation."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeGuard

from controller.games.base import (
    Action,
    NotationError,
)
from controller.games.cards import Card
from controller.games.zodiac.cards import parse_card

if TYPE_CHECKING:
    from controller.games.zodiac.state import ZodiacState


# --- actions ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the deck."""


@dataclass(frozen=True, slots=True)
class Take:
    """Take the top card of the discard pile (ZO-1: only a sign, never a locked card)."""


@dataclass(frozen=True, slots=True)
class PlaySun:
    """ZO-2: play a Sun to take `card` from `seat`'s face-up cards into the hand.

    `area` is where the Sun comes from: None with dealt hands (ZO-E9 decides), "hand" or "up" with
    physical hands, where the table sees it and the controller cannot decide (ZO-E14).
    """

    card: Card
    seat: int
    call: bool = False
    area: str | None = None


@dataclass(frozen=True, slots=True)
class PlayMoon:
    """ZO-3: lay a Black Moon on the discard pile; the next player skips a turn (`area` as for PlaySun)."""

    call: bool = False
    area: str | None = None


@dataclass(frozen=True, slots=True)
class Spare:
    """ZO-E6 with physical hands: the offender's cards, shown to the chooser, hold no sign to lose."""


@dataclass(frozen=True, slots=True)
class Dealer:
    """ZO-E12: at a physical table, the seat that deals (found by the players' own draw)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Open:
    """ZO-E12: at a physical table, the sign the dealer turned up to start the discard pile."""

    card: Card


@dataclass(frozen=True, slots=True)
class Up:
    """ZO-5: move one card from the hand to the face-up area."""

    card: Card


@dataclass(frozen=True, slots=True)
class Down:
    """ZO-5: move one card from the face-up area to the hand."""

    card: Card


@dataclass(frozen=True, slots=True)
class Discard:
    """Lay a card from the hand on the discard pile; ends the turn."""

    card: Card
    call: bool = False


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without discarding ("PASS")."""

    call: bool = False


@dataclass(frozen=True, slots=True)
class Lose:
    """ZO-4: the chooser names a sign the offender loses, from `area` ("hand" or "up")."""

    area: str
    card: Card


DRAW = Draw()


TAKE = Take()


SPARE = Spare()


Ending = PlaySun | PlayMoon | Discard | Pass
"""The actions that end a turn, and may carry a ZODIAC call."""


def calls_zodiac(action: Action) -> TypeGuard[Ending]:
    """Whether the action ends the turn with a ZODIAC call (only the turn-ending actions may: ZO-E7,
    and at a physical table ZO-E15)."""
    return isinstance(action, Ending) and action.call


def from_face_up(action: Action) -> bool:
    """ZO-E14: an action card played from the face-up area (physical hands)."""
    return isinstance(action, PlaySun | PlayMoon) and action.area == "up"


_SUN_TEXT = re.compile(r"sun\s+([a-z ]+?)\s*@\s*([0-9]+)")


FACE_UP_WORD = "faceup"  # ZO-E14: suffix of an action card played from the face-up area (physical hands)


def _action_text(action: Action) -> str:
    if isinstance(action, Dealer):
        return f"dealer {action.seat}"
    if isinstance(action, Open):
        return f"open {action.card}"
    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, Take):
        return "take"
    face_up = f" {FACE_UP_WORD}" if from_face_up(action) else ""
    if isinstance(action, PlaySun):
        return f"sun {action.card}@{action.seat}{face_up}"
    if isinstance(action, PlayMoon):
        return f"moon{face_up}"
    if isinstance(action, Up):
        return f"up {action.card}"
    if isinstance(action, Down):
        return f"down {action.card}"
    if isinstance(action, Discard):
        return f"discard {action.card}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Lose):
        return f"lose {action.area} {action.card}"
    if isinstance(action, Spare):
        return "lose nothing"
    raise NotationError(f"{action!r} is not a Zodiac action")


def action_to_str(state: ZodiacState, action: Action) -> str:
    text = _action_text(action)
    return f"{text} zodiac" if calls_zodiac(action) else text


def parse_action(state: ZodiacState, text: str) -> Action:
    raw = " ".join(text.strip().lower().split())
    call = False
    if raw.endswith(" zodiac") or raw == "zodiac":
        call, raw = True, raw.removesuffix("zodiac").strip() or "pass"
    # ZO-E14: with physical hands an action card comes from the hand unless `faceup` says otherwise;
    # with dealt hands the engine knows where it is (ZO-E9), so the word changes nothing.
    area: str | None = "hand" if state.physical else None
    if raw.endswith(f" {FACE_UP_WORD}") and raw.split(" ")[0] in ("sun", "moon"):
        raw = raw.removesuffix(FACE_UP_WORD).strip()
        area = "up" if state.physical else None
    word, _, rest = raw.partition(" ")
    action: Action
    if word == "dealer" and rest.isdigit():
        action = Dealer(int(rest))
    elif word == "open" and rest:
        action = Open(parse_card(rest))
    elif word == "draw" and not rest:
        action = DRAW
    elif word == "take" and not rest:
        action = TAKE
    elif word == "moon" and not rest:
        action = PlayMoon(area=area)
    elif word == "pass" and not rest:
        action = Pass()
    elif word in ("up", "down") and rest:
        action = Up(parse_card(rest)) if word == "up" else Down(parse_card(rest))
    elif word == "discard" and rest:
        action = Discard(parse_card(rest))
    elif word == "lose" and rest == "nothing":
        action = SPARE
    elif word == "lose" and rest.partition(" ")[0] in ("up", "hand") and rest.partition(" ")[2]:
        area, _, card = rest.partition(" ")
        action = Lose(area, parse_card(card))
    elif word == "sun" and (match := _SUN_TEXT.fullmatch(raw)):
        action = PlaySun(parse_card(match.group(1)), int(match.group(2)), area=area)
    else:
        raise NotationError(
            f"{text!r} is not a Zodiac action (draw, take, sun SIGN@SEAT, moon, up SIGN, down SIGN, "
            "discard CARD, pass, lose up|hand SIGN; add 'zodiac' to call; at a physical table also "
            f"'{FACE_UP_WORD}' after sun/moon, dealer SEAT, open SIGN)"
        )
    if call:
        if not isinstance(action, Ending):
            raise NotationError(f"{text!r}: ZODIAC is called only with an action that ends the turn")
        action = replace(action, call=True)
    return action
