"""Zillo's four board parts: where each lies on the 14x14 play area, how it turns, and which board
field is which printed field.

Z-1: every part is 5x5 and always an axis-parallel square, so a part's place is the south-west field
of its square (`corner`) plus how far it is turned (`rotation`, degrees clockwise, seen from above,
from its printed orientation). All four parts carry the same print: in the part's own frame
(`u` = column from the west, `v` = row from the south, as part 1 lies at the start) the big start field
is the outer corner `(0, 4)` and the small Zillo field is `(3, 1)`, the inner corner's diagonal
neighbour. Part 1 is Red, 2 Blue, 3 Yellow, 4 Green.

Z-3: a layout is valid when every field lies inside the play area, no two parts overlap and the parts
form one group connected by full field edges (corner contact does not connect).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from controller.games.base import Cell
from controller.games.grid import SquareGrid

T = TypeVar("T")

AREA = SquareGrid(14, 14)
PART_SIZE = 5
PARTS: tuple[int, ...] = (1, 2, 3, 4)
PART_COLOURS: dict[int, str] = {1: "red", 2: "blue", 3: "yellow", 4: "green"}
PART_OF_COLOUR: dict[str, int] = {colour: part for part, colour in PART_COLOURS.items()}
ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)

START_FIELD: Cell = (0, 4)  # Z-1: the big start field, the part's outer corner
ZILLO_FIELD: Cell = (3, 1)  # Z-1: the small Zillo field, next to the part's inner corner
PRINTED_KINDS: dict[Cell, str] = {START_FIELD: "start", ZILLO_FIELD: "zillo_field"}

_LAST = PART_SIZE - 1
_MAX_CORNER = AREA.width - PART_SIZE  # the largest corner coordinate that keeps a part inside


def rotate(local: Cell, rotation: int) -> Cell:
    """Where the printed field `local` lies in the part's square after turning it `rotation` degrees
    clockwise about its centre (a quarter turn clockwise maps (u, v) to (v, 4 - u))."""
    u, v = local
    for _ in range((rotation // 90) % 4):
        u, v = v, _LAST - u
    return (u, v)


@dataclass(frozen=True, slots=True, order=True)
class Placement:
    """Where one part lies: the south-west field of its square and its clockwise rotation."""

    corner: Cell
    rotation: int

    def cell(self, local: Cell) -> Cell:
        """The board field under the printed field `local`."""
        du, dv = _OFFSET_OF[self.rotation][local]
        return (self.corner[0] + du, self.corner[1] + dv)

    def local(self, cell: Cell) -> Cell | None:
        """The printed field at board field `cell`, or None if the part does not cover it."""
        return _PRINTED_AT[self.rotation].get((cell[0] - self.corner[0], cell[1] - self.corner[1]))

    def cells(self) -> tuple[Cell, ...]:
        x0, y0 = self.corner
        return tuple((x0 + dx, y0 + dy) for dy in range(PART_SIZE) for dx in range(PART_SIZE))

    @property
    def start(self) -> Cell:
        return self.cell(START_FIELD)

    @property
    def zillo_field(self) -> Cell:
        return self.cell(ZILLO_FIELD)

    def inside(self) -> bool:
        x0, y0 = self.corner
        return 0 <= x0 <= _MAX_CORNER and 0 <= y0 <= _MAX_CORNER


def corner_for_anchor(anchor: Cell, rotation: int) -> Cell:
    """The corner of a part turned `rotation` whose start field lies on `anchor` (Z-3 notation)."""
    du, dv = rotate(START_FIELD, rotation)
    return (anchor[0] - du, anchor[1] - dv)


def overlap(a: Cell, b: Cell) -> bool:
    """Whether the squares with corners `a` and `b` share a field."""
    return abs(a[0] - b[0]) < PART_SIZE and abs(a[1] - b[1]) < PART_SIZE


def edge_contact(a: Cell, b: Cell) -> bool:
    """Whether the squares with corners `a` and `b` share at least one full field edge (Z-3)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dx == PART_SIZE and dy < PART_SIZE) or (dy == PART_SIZE and dx < PART_SIZE)


def _groups(corners: tuple[Cell, ...]) -> list[list[Cell]]:
    """The squares at `corners` in groups joined along full field edges (Z-3)."""
    groups: list[list[Cell]] = []
    left = list(corners)
    while left:
        group = [left.pop()]
        frontier = list(group)
        while frontier:
            here = frontier.pop()
            joined = [other for other in left if edge_contact(here, other)]
            for other in joined:
                left.remove(other)
            group += joined
            frontier += joined
        groups.append(group)
    return groups


def _connected(corners: tuple[Cell, ...]) -> bool:
    return len(_groups(corners)) <= 1


@dataclass(frozen=True, slots=True)
class Field:
    """What is printed on one board field: its part, the field in the part's own frame, its kind
    ("start", "zillo_field" or "plain") and its part's colour."""

    part: int
    printed: Cell
    kind: str
    colour: str


@dataclass(frozen=True, slots=True)
class Layout:
    """The placements of parts 1..4 (index 0 is part 1). What it works out (its fields, where each
    part may shift to) it keeps, for as long as it lives."""

    placements: tuple[Placement, ...]
    _known: dict[object, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def placement(self, part: int) -> Placement:
        return self.placements[part - 1]

    def remember(self, key: object, work_out: Callable[[], T]) -> T:
        """What `work_out` says of this layout, worked out the first time `key` is asked for. Only
        what follows from the layout alone may be kept this way."""
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = work_out()
        return known

    def fields(self) -> dict[Cell, Field]:
        """Every board field covered by a part (kept by the layout; do not mutate the result)."""
        fields = self._known.get("fields")
        if fields is None:
            fields = self._known["fields"] = _fields(self)
        return fields

    def covers(self, cell: Cell) -> bool:
        """Whether a part lies on `cell`: each part is a square from its corner (no need to lay out
        every field of a layout that is asked only this)."""
        x, y = cell
        for placement in self.placements:
            cx, cy = placement.corner
            if 0 <= x - cx < PART_SIZE and 0 <= y - cy < PART_SIZE:
                return True
        return False

    def part_at(self, cell: Cell) -> int | None:
        printed = self.fields().get(cell)
        return None if printed is None else printed.part

    def start_of(self, colour: str) -> Cell:
        """The big start field of `colour`, wherever its part lies now."""
        return self.placement(PART_OF_COLOUR[colour]).start

    def zillo_field_of(self, colour: str) -> Cell:
        return self.placement(PART_OF_COLOUR[colour]).zillo_field

    def moved(self, part: int, placement: Placement) -> Layout:
        placements = list(self.placements)
        placements[part - 1] = placement
        layout = Layout(tuple(placements))
        # Where `part` may lie depends on the other parts only, which did not move.
        corners = self._known.get(("corners", part))
        if corners is not None:
            layout._known["corners", part] = corners
        return layout

    def problem(self) -> str | None:
        """Why this layout breaks Z-3, or None if it is valid."""
        for part, placement in zip(PARTS, self.placements, strict=True):
            if placement.rotation not in ROTATIONS:
                return f"part {part} has rotation {placement.rotation}; rotations are 0, 90, 180 or 270"
            if not placement.inside():
                return f"part {part} would reach outside the 14x14 play area"
        corners = tuple(p.corner for p in self.placements)
        for i, a in enumerate(corners):
            for j in range(i + 1, len(corners)):
                if overlap(a, corners[j]):
                    return f"parts {i + 1} and {j + 1} would overlap"
        if not _connected(corners):
            return "the parts would not form one group joined along full field edges"
        return None

    def shift_problem(self, part: int, placement: Placement) -> str | None:
        """Why moving `part` to `placement` breaks Z-3, or None if the shift is allowed."""
        if placement == self.placement(part):
            return f"part {part} would not move: a Shift card must twist or shift it"
        if placement.rotation not in ROTATIONS:
            return f"rotation {placement.rotation} is not 0, 90, 180 or 270"
        if not placement.inside():
            return f"part {part} would reach outside the 14x14 play area"
        others = [(p, self.placement(p).corner) for p in PARTS if p != part]
        for other, corner in others:
            if overlap(placement.corner, corner):
                return f"part {part} would overlap part {other}"
        if not any(edge_contact(placement.corner, corner) for _, corner in others):
            return f"part {part} would touch no other part along a full field edge (a corner is not enough)"
        if not self.moved(part, placement).connected():
            return "the parts would fall apart into separate groups"
        return None

    def connected(self) -> bool:
        return _connected(tuple(p.corner for p in self.placements))

    def shift_corners(self, part: int) -> tuple[Cell, ...]:
        """Every corner `part` may lie at after a shift, its own included (twisting in place).

        Z-3: validity does not depend on the rotation, since a turned part covers the same square.
        """
        return self.remember(
            ("corners", part), lambda: _free_corners(tuple(self.placement(p).corner for p in PARTS if p != part))
        )

    def shifts(self, part: int) -> Iterator[Placement]:
        """Every placement a Shift card may give `part`, sorted by corner then rotation."""
        current = self.placement(part)
        for corner in self.shift_corners(part):
            for rotation in ROTATIONS:
                placement = Placement(corner, rotation)
                if placement != current:
                    yield placement


_SQUARE: tuple[Cell, ...] = tuple((u, v) for v in range(PART_SIZE) for u in range(PART_SIZE))
# For each rotation: which printed field lies at each offset in the part's square.
_PRINTED_AT: dict[int, dict[Cell, Cell]] = {
    rotation: {rotate(local, rotation): local for local in _SQUARE} for rotation in ROTATIONS
}
# For each rotation: where each printed field lies in the part's square (`rotate`, as a table).
_OFFSET_OF: dict[int, dict[Cell, Cell]] = {
    rotation: {local: rotate(local, rotation) for local in _SQUARE} for rotation in ROTATIONS
}
# For each rotation, where the start field lies in the part's square.
_START_OFFSETS: tuple[tuple[int, Cell], ...] = tuple(
    (rotation, rotate(START_FIELD, rotation)) for rotation in ROTATIONS
)
# For each part and rotation: every (offset in the square, printed field) pair, made once.
_PART_FIELDS: dict[tuple[int, int], tuple[tuple[Cell, Field], ...]] = {
    (part, rotation): tuple(
        (offset, Field(part, printed, PRINTED_KINDS.get(printed, "plain"), PART_COLOURS[part]))
        for offset, printed in sorted(_PRINTED_AT[rotation].items())
    )
    for part in PARTS
    for rotation in ROTATIONS
}


def _fields(layout: Layout) -> dict[Cell, Field]:
    fields: dict[Cell, Field] = {}
    for part, placement in zip(PARTS, layout.placements, strict=True):
        x0, y0 = placement.corner
        for (dx, dy), printed in _PART_FIELDS[(part, placement.rotation)]:
            fields[(x0 + dx, y0 + dy)] = printed
    return fields


# Every corner a part may lie at inside the play area, in sorted order, and for each of them as bit
# masks over that order: the corners whose square shares a field with its square, and those whose
# square touches it along a full field edge (Z-3).
_CORNERS: tuple[Cell, ...] = tuple((x, y) for x in range(_MAX_CORNER + 1) for y in range(_MAX_CORNER + 1))
_OVERLAPPING: dict[Cell, int] = {
    a: sum(1 << index for index, b in enumerate(_CORNERS) if overlap(a, b)) for a in _CORNERS
}
_TOUCHING: dict[Cell, int] = {
    a: sum(1 << index for index, b in enumerate(_CORNERS) if edge_contact(a, b)) for a in _CORNERS
}


# Where the start field of a part lies, by its corner and rotation; and a Shift card's clockwise
# turn from each rotation to each other (ZE-5).
_ANCHORS: dict[Cell, tuple[tuple[int, Cell], ...]] = {
    (x, y): tuple((rotation, (x + dx, y + dy)) for rotation, (dx, dy) in _START_OFFSETS) for x, y in _CORNERS
}
_TURNS: dict[int, dict[int, int]] = {now: {then: (then - now) % 360 for then in ROTATIONS} for now in ROTATIONS}


def turns_at(current: Placement, corner: Cell) -> tuple[tuple[int, Cell], ...]:
    """A part lying at `current` laid at `corner` as a Shift card names it: (clockwise turn, where
    its start field goes) for every rotation, but the one that leaves it where it is."""
    turns = _TURNS[current.rotation]
    same = corner == current.corner
    return tuple(
        (turns[rotation], anchor)
        for rotation, anchor in _ANCHORS[corner]
        if not (same and rotation == current.rotation)
    )


@lru_cache(maxsize=1 << 14)
def _free_corners(others: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """Z-3: where a part may lie beside parts at the corners `others`: where it overlaps none of them
    and joins them all into one group, touching along a full edge a part of every group they make
    without it. Kept for the most recent layouts: it depends on the corners alone, which a random
    game visits again and again (parts mostly twist in place)."""
    free = ~0
    for corner in others:
        free &= ~_OVERLAPPING[corner]
    for group in _groups(others):
        touching = 0
        for corner in group:
            touching |= _TOUCHING[corner]
        free &= touching
    found = []
    while free:
        lowest = free & -free
        found.append(_CORNERS[lowest.bit_length() - 1])
        free ^= lowest
    return tuple(found)


# Z-1: the parts at the start of every game form a 10x10 square in the middle (c3..l12); part 1 lies
# as printed and each further part is turned a quarter more, so every start field is an outer corner.
INITIAL_LAYOUT = Layout(
    (
        Placement((2, 7), 0),
        Placement((7, 7), 90),
        Placement((7, 2), 180),
        Placement((2, 2), 270),
    )
)
