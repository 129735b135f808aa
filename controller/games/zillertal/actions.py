"""Zillertal's actions (lay, set aside, claim, bonuses, new contracts, end of turn) and their notation."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.games.base import (
    Action,
    NotationError,
)
from controller.games.zillertal.cards import (
    CONTRACT_VALUES,
    ICONS,
    LETTERS,
)

if TYPE_CHECKING:
    from controller.games.zillertal.state import ZillertalState


# --- actions ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Place:
    """Lay hand card `card` into the Valley with its left edge on dotted line `at` (ZT-2)."""

    card: str
    at: int


@dataclass(frozen=True, slots=True)
class SetAside:
    """ZT-E1: no hand card fits anywhere: set one aside, face up, as this turn's card."""

    card: str


@dataclass(frozen=True, slots=True)
class Claim:
    """ZT-7: put a Z token on the task for `icon` of contract `contract`."""

    contract: str
    icon: str


@dataclass(frozen=True, slots=True)
class BonusTokens:
    """Bonus: place three icon tokens (ZT-4), one action each."""


@dataclass(frozen=True, slots=True)
class PlaceToken:
    """ZT-4: an icon token adds one `icon` on `column`; a blank covers one visible `icon` there."""

    icon: str
    column: int
    blank: bool = False


@dataclass(frozen=True, slots=True)
class BonusTask:
    """Bonus: complete one task of any of your contracts, whatever the Valley shows."""

    contract: str
    icon: str


@dataclass(frozen=True, slots=True)
class BonusExchange:
    """Bonus: exchange any of your hand cards and contracts, one `swap` action each, then `done`."""


@dataclass(frozen=True, slots=True)
class Swap:
    """ZT-E4: exchange a hand card or a contract for the top card of its deck or pile."""

    card: str


@dataclass(frozen=True, slots=True)
class Done:
    """End the exchange bonus."""


@dataclass(frozen=True, slots=True)
class BonusGorge:
    """Bonus: lay the Gorge over `column` (ZT-3)."""

    column: int


@dataclass(frozen=True, slots=True)
class BonusCross:
    """Bonus: lay the first Cross on dotted line `line`; the second follows (ZT-3)."""

    line: int


@dataclass(frozen=True, slots=True)
class SecondCross:
    """The second Cross of the Crosses bonus, on dotted line `line`."""

    line: int


@dataclass(frozen=True, slots=True)
class NewContract:
    """ZT-E11: with physical hands, the contract a player drew from a pile (or was dealt)."""

    contract: str


@dataclass(frozen=True, slots=True)
class End:
    """End the turn: draw back to two; `piles` are the values of the piles replacing completed contracts."""

    piles: tuple[int, ...] = ()


BONUS_TOKENS = BonusTokens()


BONUS_EXCHANGE = BonusExchange()


DONE = Done()


_PLACE_TEXT = re.compile(r"([A-Za-z0-9][A-Za-z0-9_.-]*)\s*@\s*(-?[0-9]+)")


_AT_TEXT = re.compile(r"([a-z]+)\s*@\s*(-?[0-9]+)")


def parse_icon(text: str) -> str:
    word = text.strip().lower()
    if word in ICONS:
        return word
    if word.upper() in LETTERS:
        return LETTERS[word.upper()]
    if word.endswith("s") and word[:-1] in ICONS:
        return word[:-1]
    raise NotationError(f"{text!r} is not an icon ({', '.join(ICONS)})")


def action_to_str(state: ZillertalState, action: Action) -> str:
    if isinstance(action, Place):
        return f"{action.card}@{action.at}"
    if isinstance(action, SetAside):
        return f"aside {action.card}"
    if isinstance(action, Claim):
        return f"claim {action.contract} {action.icon}"
    if isinstance(action, BonusTokens):
        return "bonus tokens"
    if isinstance(action, PlaceToken):
        return f"{'blank' if action.blank else 'token'} {action.icon}@{action.column}"
    if isinstance(action, BonusTask):
        return f"bonus task {action.contract} {action.icon}"
    if isinstance(action, BonusExchange):
        return "bonus exchange"
    if isinstance(action, Swap):
        return f"swap {action.card}"
    if isinstance(action, Done):
        return "done"
    if isinstance(action, BonusGorge):
        return f"bonus gorge@{action.column}"
    if isinstance(action, BonusCross):
        return f"bonus cross@{action.line}"
    if isinstance(action, SecondCross):
        return f"cross@{action.line}"
    if isinstance(action, End):
        return "end" + (f" {','.join(map(str, action.piles))}" if action.piles else "")
    if isinstance(action, NewContract):
        return f"contract {action.contract}"
    raise NotationError(f"{action!r} is not a Zillertal action")


def card_id(state: ZillertalState, text: str) -> str:
    """A card or contract id from text, without regard to case."""
    lowered = text.strip().lower()
    for known in (*state._set.valley, *state._set.contracts):
        if known.lower() == lowered:
            return known
    raise NotationError(f"{text!r} is not a Valley card or contract of this card set")


def parse_action(state: ZillertalState, text: str) -> Action:
    raw = " ".join(text.strip().split())
    low = raw.lower()
    words = low.split(" ")
    try:
        if low == "bonus tokens":
            return BONUS_TOKENS
        if low == "bonus exchange":
            return BONUS_EXCHANGE
        if low == "done":
            return DONE
        if words[0] == "end":
            piles = tuple(int(v) for v in "".join(words[1:]).split(",") if v) if len(words) > 1 else ()
            if any(v not in CONTRACT_VALUES for v in piles):
                raise NotationError(f"{text!r}: pile values are 1, 2 and 3")
            return End(tuple(sorted(piles)))
        if words[0] == "aside" and len(words) == 2:
            return SetAside(card_id(state, words[1]))
        if words[0] == "swap" and len(words) == 2:
            return Swap(card_id(state, words[1]))
        if words[0] == "contract" and len(words) == 2:
            return NewContract(card_id(state, words[1]))
        if words[0] == "claim" and len(words) == 3:
            return Claim(card_id(state, words[1]), parse_icon(words[2]))
        if words[:2] == ["bonus", "task"] and len(words) == 4:
            return BonusTask(card_id(state, words[2]), parse_icon(words[3]))
        if words[0] in ("token", "blank") and (m := _AT_TEXT.fullmatch(" ".join(words[1:]))):
            return PlaceToken(parse_icon(m.group(1)), int(m.group(2)), blank=words[0] == "blank")
        if words[0] == "bonus" and (m := _AT_TEXT.fullmatch(" ".join(words[1:]))):
            if m.group(1) == "gorge":
                return BonusGorge(int(m.group(2)))
            if m.group(1) == "cross":
                return BonusCross(int(m.group(2)))
        if (m := _AT_TEXT.fullmatch(low)) and m.group(1) == "cross":
            return SecondCross(int(m.group(2)))
        if m := _PLACE_TEXT.fullmatch(raw):
            return Place(card_id(state, m.group(1)), int(m.group(2)))
    except ValueError as error:
        if isinstance(error, NotationError):
            raise
        raise NotationError(f"{text!r}: {error}") from None
    raise NotationError(
        f"{text!r} is not a Zillertal action (CARD@LINE, aside CARD, claim CONTRACT ICON, end [1,2,3], "
        "bonus tokens|task CONTRACT ICON|exchange|gorge@COLUMN|cross@LINE, token ICON@COLUMN, "
        "blank ICON@COLUMN, swap CARD, done, cross@LINE, contract CONTRACT)"
    )
