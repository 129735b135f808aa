"""Where a hand may be at work that no sensor sees: the failed sensors' fields a move shown, asked
about or possible puts a piece on. A slide beside one of them is that hand's knock (knocks.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from controller.games import Cell, State
from controller.table.candidates import CandidateTable
from controller.table.decisions import Acknowledge, Ask, Idle, Shown


def hands_unseen(
    shown: Shown,
    state: State,
    candidates_of: Callable[[State], CandidateTable],
    channel_of: Mapping[Cell, int],
    masked: Mapping[int, int],
) -> frozenset[int]:
    """The failed sensors' fields (`masked`) where the move shown or asked about puts a piece, or
    with nothing shown, where a move no trusted sensor sees may be putting one: a hand may be at
    work there unseen, so a slide beside one is its knock."""
    if not isinstance(shown, Acknowledge | Ask | Idle):
        return frozenset()
    if isinstance(shown, Idle):
        candidates = candidates_of(state)
        prints = [candidates.footprint(action) for action in candidates.hidden(masked)]
    else:
        actions = shown.candidates if isinstance(shown, Ask) else (shown.action,)
        prints = [candidates_of(shown.played_in.get(a, state)).footprint(a) for a in actions]
    return frozenset(
        channel
        for footprint in prints
        for cell in footprint.targets | footprint.returns
        if (channel := channel_of.get(cell)) is not None and channel in masked
    )
