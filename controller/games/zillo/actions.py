"""Zillo's actions and their notation (zillo.md, Notation).

ZE-4: one action is one turn, the card played and what it does, so a declared card (Z-6) and the
move it allows are validated together.

- Catcher card: `C-ES:c12-e11/2` (card, from, to, number of Catchers moved).
- Zillo or Wild card: `Z-N:f9-f12`, `W-2:f9-f10`.
- Shift card: `S-3:1r90@c7` (part, clockwise turn in degrees, where the part's start field lies after).
- Discard when nothing is playable (Z-4): `discard:C-N`.
- Between two games of a match: `new-game`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from controller.games.base import Action, Cell, NotationError
from controller.games.cards import Card
from controller.games.zillo.deck import CARD_INDEX, CARDS, kind
from controller.games.zillo.layout import AREA, PARTS, ROTATIONS


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """Play a Catcher, Zillo or Wild card: move `count` Catchers (None: the Zillo) from `origin`."""

    card: Card
    origin: Cell
    target: Cell
    count: int | None = None

    def __str__(self) -> str:
        return action_to_str(self)


@dataclass(frozen=True, slots=True, order=True)
class Shift:
    """Play a Shift card (Z-3): turn `part` by `turn` degrees clockwise and lay it with its start field
    on `anchor` (ZE-5: the turn is this card's, not the part's orientation)."""

    card: Card
    part: int
    turn: int
    anchor: Cell

    def __str__(self) -> str:
        return action_to_str(self)


@dataclass(frozen=True, slots=True, order=True)
class Discard:
    """Z-4: lay a card away without a move, allowed only when nothing is playable."""

    card: Card

    def __str__(self) -> str:
        return action_to_str(self)


@dataclass(frozen=True, slots=True)
class NewGame:
    """Z-7: in a match, reset the board and deal again after a catch."""

    def __str__(self) -> str:
        return NEW_GAME_TEXT


ZilloAction = Move | Shift | Discard | NewGame
"""Every Zillo action prints its notation (`str`); `parse_action` reads it back."""

NEW_GAME = NewGame()
NEW_GAME_TEXT = "new-game"

_CARD = r"[CZWS]-[NESW1-4]{1,2}"
_MOVE_TEXT = re.compile(rf"({_CARD}):([a-z][0-9]+)-([a-z][0-9]+)(?:/([0-9]+))?")
_SHIFT_TEXT = re.compile(rf"({_CARD}):([0-9]+)r([0-9]+)@([a-z][0-9]+)")
_DISCARD_TEXT = re.compile(rf"discard:({_CARD})")
_HELP = "e.g. C-ES:c12-e11/2, Z-N:f9-f12, S-3:1r90@c7, discard:C-N or new-game"


def card_of(action: Action) -> Card | None:
    """The card an action plays or discards (None for `new-game`)."""
    if isinstance(action, Move | Shift | Discard):
        return action.card
    return None


def action_to_str(action: Action) -> str:
    """The action's notation; NotationError for a value that no text could name (a Shift card given
    a piece move, a fourth Catcher, a field off the board, ...), so every text round-trips."""
    if isinstance(action, Move):
        _check_card(action.card)
        if kind(action.card) == "shift":
            raise NotationError(f"{action.card} moves a board part, not a piece")
        if (action.count is None) != (kind(action.card) != "catcher"):
            raise NotationError(f"{action!r}: a Catcher move has a count 1..3, a Zillo move none")
        if action.count is not None and not 1 <= action.count <= 3:
            raise NotationError(f"{action!r}: 1, 2 or 3 Catchers move together")
        text = f"{action.card}:{_field(action.origin)}-{_field(action.target)}"
        return text if action.count is None else f"{text}/{action.count}"
    if isinstance(action, Shift):
        _check_card(action.card)
        if kind(action.card) != "shift" or action.part not in PARTS or action.turn not in ROTATIONS:
            raise NotationError(f"{action!r} is not a shift: a Shift card, part 1..4, turn 0/90/180/270")
        return f"{action.card}:{action.part}r{action.turn}@{_field(action.anchor)}"
    if isinstance(action, Discard):
        _check_card(action.card)
        return f"discard:{action.card}"
    if isinstance(action, NewGame):
        return NEW_GAME_TEXT
    raise NotationError(f"{action!r} is not a Zillo action")


def _check_card(card: object) -> None:
    if not isinstance(card, str) or card not in CARD_INDEX:
        raise NotationError(f"{card!r} is not a Zillo card")


def _field(cell: Cell) -> str:
    if not AREA.contains(cell):
        raise NotationError(f"{cell} is not a field of the 14x14 board")
    return AREA.format_cell(cell)


def parse_action(text: str) -> ZilloAction:
    """Inverse of `action_to_str`; checks the spelling, not whether the action is legal now."""
    text = text.strip()
    if text == NEW_GAME_TEXT:
        return NEW_GAME
    if match := _DISCARD_TEXT.fullmatch(text):
        return Discard(_card(match.group(1)))
    if match := _SHIFT_TEXT.fullmatch(text):
        card = _card(match.group(1))
        if kind(card) != "shift":
            raise NotationError(f"{text!r}: only a Shift card moves a board part, {card} is not one")
        part, turn = int(match.group(2)), int(match.group(3))
        if part not in PARTS or match.group(2) != str(part):
            raise NotationError(f"{text!r}: the board parts are numbered 1 to 4")
        if turn not in ROTATIONS or match.group(3) != str(turn):
            raise NotationError(f"{text!r}: a part turns by 0, 90, 180 or 270 degrees")
        return Shift(card, part, turn, AREA.parse_cell(match.group(4)))
    if match := _MOVE_TEXT.fullmatch(text):
        card = _card(match.group(1))
        origin, target = AREA.parse_cell(match.group(2)), AREA.parse_cell(match.group(3))
        count_text = match.group(4)
        if kind(card) == "shift":
            raise NotationError(f"{text!r}: a Shift card is written like S-3:1r90@c7 (part, turn, field)")
        if kind(card) == "catcher":
            if count_text is None:
                raise NotationError(f"{text!r}: a Catcher move names how many Catchers move, e.g. /1")
            count = int(count_text)
            if count_text != str(count) or not 1 <= count <= 3:
                raise NotationError(f"{text!r}: 1, 2 or 3 Catchers move together")
            return Move(card, origin, target, count)
        if count_text is not None:
            raise NotationError(f"{text!r}: {card} moves the Zillo, so there is no Catcher count")
        return Move(card, origin, target, None)
    raise NotationError(f"{text!r} is not a Zillo action ({_HELP})")


def _card(text: str) -> Card:
    if text not in CARD_INDEX:
        raise NotationError(f"{text!r} is not a Zillo card (cards: {', '.join(CARDS)})")
    return text
