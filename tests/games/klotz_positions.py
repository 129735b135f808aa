"""Custom Klotz positions for tests, built through the public `Klotz().state_from_json`.

A position is written as `{field: token}`: `"square0"` is seat 0's square, `"cyl3"` a free 3-block,
`"cyl2@1"` a 2-block carrying seat 1's tile. Seats are in turn order (K-1): with 2 players seat 0 is
Red and seat 1 Yellow; with 3 Red, Blue, Yellow; with 4 Red, Blue, Yellow, Green.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from controller.games.klotz import GRID, Klotz, KlotzState

KLOTZ = Klotz()

_TOKEN = re.compile(r"square(\d)|cyl([123])(?:@(\d))?")

HOMES = {"red": "g8", "blue": "h8", "yellow": "h7", "green": "g7"}
CORNER_FIELDS = {"red": "a14", "blue": "n14", "yellow": "n1", "green": "a1"}
SEAT_COLOURS = {2: ("red", "yellow"), 3: ("red", "blue", "yellow"), 4: ("red", "blue", "yellow", "green")}


def block_json(field: str, token: str) -> dict[str, Any]:
    match = _TOKEN.fullmatch(token)
    if match is None:
        raise ValueError(f"bad test token {token!r} (square<seat>, cyl<size> or cyl<size>@<seat>)")
    if match.group(1) is not None:
        return {"cell": field, "kind": "square", "size": 4, "player": int(match.group(1))}
    owner = match.group(3)
    return {
        "cell": field,
        "kind": "cylinder",
        "size": int(match.group(2)),
        "player": None if owner is None else int(owner),
    }


def position_json(
    players: int,
    layout: Mapping[str, str],
    current: int = 0,
    *,
    ply: int = 0,
    passes: int = 0,
    winner: int | None = None,
    max_plies: int | None = 600,
) -> dict[str, Any]:
    """The saved-state JSON of a custom position."""
    return {
        "game": "klotz",
        "version": 1,
        "players": players,
        "current_player": current,
        "ply": ply,
        "passes": passes,
        "winner": winner,
        "max_plies": max_plies,
        "blocks": [block_json(field, token) for field, token in layout.items()],
    }


def position(players: int, layout: Mapping[str, str], current: int = 0, **extra: Any) -> KlotzState:
    """A custom position; every seat's square must be in `layout`."""
    return KLOTZ.state_from_json(position_json(players, layout, current, **extra))


def full_board(players: int, overrides: Mapping[str, str | None] | None = None) -> dict[str, str]:
    """Every field filled with free 1-blocks except corners and inner fields; squares at home.

    `overrides` replaces fields (`None` leaves a field empty). Such a board is jammed: no block can
    move unless the overrides open a gap.
    """
    colours = SEAT_COLOURS[players]
    specials = set(CORNER_FIELDS.values()) | set(HOMES.values())
    layout = {GRID.format_cell(cell): "cyl1" for cell in GRID.cells()}
    for field in specials:
        del layout[field]
    for seat, colour in enumerate(colours):
        layout[HOMES[colour]] = f"square{seat}"
    for field, token in (overrides or {}).items():
        if token is None:
            layout.pop(field, None)
        else:
            layout[field] = token
    return layout


def cell(text: str) -> tuple[int, int]:
    return GRID.parse_cell(text)
