"""Virtual hands: carry out an action as the timed lift/place steps a person makes.

A plan is derived from the occupancy before and after the action (the same footprint the tracker
uses), then dressed with human habits, each drawn from a seeded generator: thinking time, lifting a
piece and putting it back, sliding over fields on the way, putting a piece on a wrong field first and
correcting it, and sending a captured piece home before or after the capturing piece lands.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from controller.games import Cell, Occupancy, Piece
from controller.games.footprint import footprint

Op = Literal["lift", "place"]


@dataclass(frozen=True)
class HandStep:
    at: int  # milliseconds after the hand starts
    op: Op
    cell: Cell
    pieces: tuple[Piece, ...]


@dataclass(frozen=True)
class HandStyle:
    think_ms: tuple[int, int] = (200, 800)
    travel_ms: tuple[int, int] = (150, 400)
    hesitate: float = 0.1  # lift a piece and put it back first
    slide: float = 0.3  # touch fields on the way
    slide_dwell_ms: tuple[int, int] = (15, 120)
    wrong_field: float = 0.1  # put the piece on a wrong field first, then correct it
    wrong_dwell_ms: tuple[int, int] = (60, 200)  # shorter than the tracker's settle time
    victim_first: float = 0.5  # a captured piece goes home before the capturing piece lands


CALM = HandStyle(hesitate=0.0, slide=0.0, wrong_field=0.0)


@dataclass
class _Group:
    pieces: tuple[Piece, ...]
    origin: Cell | None
    target: Cell | None


def square_neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The four fields beside `cell` on a square board (a slip of the hand lands on one of them)."""
    x, y = cell
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


class VirtualHands:
    def __init__(
        self,
        seed: int = 0,
        style: HandStyle | None = None,
        neighbours: Callable[[Cell], Iterable[Cell]] | None = None,
    ) -> None:
        self._neighbours = neighbours or square_neighbours
        self._rng = random.Random(seed)
        self.style = style or HandStyle()

    def _between(self, bounds: tuple[int, int]) -> int:
        return self._rng.randint(*bounds)

    def plan(self, before: Occupancy, after: Occupancy, is_field: Callable[[Cell], bool]) -> list[HandStep]:
        """The steps that turn `before` into `after` on the board."""
        moves = footprint(before, after).moves
        groups: list[_Group] = []
        for move in moves:
            last = groups[-1] if groups else None
            if last is not None and last.origin == move.origin and last.target == move.target:
                last.pieces = (*last.pieces, move.piece)
            else:
                groups.append(_Group((move.piece,), move.origin, move.target))
        # As in the footprint: a group is displaced when an earlier group lands on its field (a
        # captured or swapped piece); the others are movers. Swaps and chains have both kinds.
        movers: list[_Group] = []
        displaced: list[_Group] = []
        landed: set[Cell] = set()
        for group in groups:
            (displaced if group.origin is not None and group.origin in landed else movers).append(group)
            if group.target is not None:
                landed.add(group.target)
        occupied = {cell for cell, pieces in before.items() if pieces} | {c for c, p in after.items() if p}
        steps: list[HandStep] = []
        t = self._between(self.style.think_ms)
        in_hand: set[int] = set()  # ids of the groups lifted so far

        def add(op: Op, cell: Cell | None, pieces: tuple[Piece, ...], pause: int) -> None:
            nonlocal t
            if cell is not None:
                steps.append(HandStep(t, op, cell, pieces))
            t += pause

        def take(group: _Group, pause: int) -> None:
            if id(group) not in in_hand:
                in_hand.add(id(group))
                add("lift", group.origin, group.pieces, pause)

        def clear(cell: Cell | None) -> None:
            """Lift what still has to leave `cell` before anything is put there."""
            for group in groups:
                if cell is not None and group.origin == cell and id(group) not in in_hand:
                    take(group, self._between((80, 200)))

        origins = {g.origin for g in groups}
        if len(movers) > 1 or len(groups) > 2 or any(g.target in origins for g in displaced):
            return self._carry(groups, before, t)
        victim_first = (
            bool(displaced)
            and self._rng.random() < self.style.victim_first
            and all(g.target is None or g.target not in origins for g in displaced)
        )
        if movers and movers[0].origin is not None and self._rng.random() < self.style.hesitate:
            first = movers[0]
            add("lift", first.origin, first.pieces, self._between((100, 300)))
            add("place", first.origin, first.pieces, self._between((200, 500)))
        if victim_first:
            for group in displaced:
                take(group, self._between(self.style.travel_ms))
                add("place", group.target, group.pieces, self._between((100, 300)))
        for group in movers:
            take(group, self._between(self.style.travel_ms) // 2)
            if group.origin is not None and group.target is not None:
                for cell in self._path_touches(group.origin, group.target, occupied, is_field):
                    add("place", cell, group.pieces, self._between(self.style.slide_dwell_ms))
                    add("lift", cell, group.pieces, self._between((20, 60)))
                wrong = self._wrong_field(group.target, occupied, is_field)
                if wrong is not None:
                    add("place", wrong, group.pieces, self._between(self.style.wrong_dwell_ms))
                    add("lift", wrong, group.pieces, self._between((40, 120)))
            clear(group.target)
            add("place", group.target, group.pieces, self._between((100, 300)))
        if not victim_first:
            for group in displaced:
                if id(group) not in in_hand:  # a chain: nothing landed on this piece's field yet
                    take(group, self._between(self.style.travel_ms))
                clear(group.target)
                add("place", group.target, group.pieces, self._between((150, 400)))
        return steps

    def _carry(self, groups: list[_Group], before: Occupancy, t: int) -> list[HandStep]:
        """Many pieces at once (a board part shifted with its pieces, a chain of pieces sent home):
        everything that moves is picked up first, then put down, as a person carries a board part.

        Pieces landing where something still stands go down first: a sensor may not notice them, so
        the move is only complete once the visible ones are down.
        """
        steps: list[HandStep] = []
        for group in groups:
            if group.origin is not None:
                steps.append(HandStep(t, "lift", group.origin, group.pieces))
                t += self._between((30, 80))
        t += self._between(self.style.travel_ms)
        staying = {cell for cell, pieces in before.items() if pieces} - {g.origin for g in groups}
        for group in sorted(groups, key=lambda g: g.target not in staying):
            if group.target is not None:
                steps.append(HandStep(t, "place", group.target, group.pieces))
                t += self._between((30, 80))
        return steps

    def _path_touches(
        self, origin: Cell, target: Cell, occupied: set[Cell], is_field: Callable[[Cell], bool]
    ) -> list[Cell]:
        """Empty fields the piece brushes on its way (a straight or L-shaped line), when it slides."""
        if self._rng.random() >= self.style.slide:
            return []
        (x0, y0), (x1, y1) = origin, target
        cells = []
        x, y = x0, y0
        while (x, y) != (x1, y1):
            if x != x1:
                x += 1 if x1 > x else -1
            else:
                y += 1 if y1 > y else -1
            cells.append((x, y))
        touches = [c for c in cells[:-1] if c not in occupied and is_field(c)]
        return touches[: self._rng.randint(0, len(touches))] if touches else []

    def _wrong_field(self, target: Cell, occupied: set[Cell], is_field: Callable[[Cell], bool]) -> Cell | None:
        if self._rng.random() >= self.style.wrong_field:
            return None
        options = [c for c in self._neighbours(target) if c not in occupied and is_field(c)]
        return self._rng.choice(options) if options else None
