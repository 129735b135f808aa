"""Building Zillo positions for tests: start from a real game and change only what a test names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.games.zillo import Zillo, ZilloState
from controller.games.zillo.deck import CARDS

GAME = Zillo()

Stacks = Mapping[str, tuple[int, int]]
"""Field -> (seat, number of Catchers): every Catcher of every seat must be placed."""


def position(
    *,
    players: int = 2,
    catchers: Stacks | None = None,
    zillo: str | None = None,
    hand: Sequence[str] = (),
    others: Sequence[str] | None = None,
    current: int = 0,
    layout: Sequence[tuple[str, int]] | None = None,
    match: bool = False,
    scores: Sequence[int] | None = None,
    hands_mode: str = "dealt",
    **changes: Any,
) -> ZilloState:
    """A position of a real game with the named parts changed.

    The player on turn holds exactly `hand`; every other seat holds `others` (by default as many
    cards as `hand`, taken from the rest), and the remaining cards are the pile. `layout` gives each
    part's corner and rotation, parts 1 to 4 in order.
    """
    data = GAME.new_game(players=players, seed=1, match=match, hands=hands_mode).to_json()
    if catchers is not None:
        data["catchers"] = [{"cell": cell, "player": p, "count": n} for cell, (p, n) in catchers.items()]
    if zillo is not None:
        data["zillo"] = zillo
    if layout is not None:
        data["layout"] = [
            {"part": part, "corner": corner, "rotation": rotation}
            for part, (corner, rotation) in enumerate(layout, start=1)
        ]
    if scores is not None:
        data["scores"] = list(scores)
    data["current_player"] = current
    if hands_mode == "dealt":
        rest = [card for card in CARDS if card not in hand]
        hands: list[list[str]] = []
        for seat in range(players):
            if seat == current:
                hands.append(list(hand))
                continue
            mine = list(others) if others is not None else rest[: len(hand)]
            rest = [card for card in rest if card not in mine]
            hands.append(mine)
        data.update(hands=hands, hand_sizes=[len(h) for h in hands], pile=rest, pile_count=len(rest))
    data.update(changes)
    return GAME.state_from_json(data)


def strings(state: ZilloState, card: str | None = None) -> set[str]:
    """The legal actions in notation, optionally only those of one card."""
    found = set(state.legal_action_strings())
    return found if card is None else {text for text in found if text.startswith(f"{card}:")}


def targets(state: ZilloState, card: str, origin: str, count: int | None = None) -> set[str]:
    """The fields `card` may take the piece on `origin` to (Catchers: `count` of them)."""
    suffix = "" if count is None else f"/{count}"
    found = set()
    for text in strings(state, card):
        move = text.split(":", 1)[1]
        start, _, rest = move.partition("-")
        if start == origin and rest.endswith(suffix) and (count is not None or "/" not in rest):
            found.add(rest.removesuffix(suffix))
    return found


def catchers_of(state: ZilloState) -> dict[str, tuple[int, int]]:
    return {GAME.format_cell(cell): (s.player, s.count) for cell, s in state.catchers.items()}
