"""Which pieces an action moves, derived from the occupancy before and after it.

Pairing the pieces that leave fields with the pieces that arrive on fields gives every physical
move of an action (the mover, a captured piece going home, a swapped piece) without any
game-specific code. The tracker lights hints from it and the virtual hands carry it out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from controller.games import Cell, Occupancy, Piece


class PieceMove(NamedTuple):
    """One piece's part of an action (a named tuple: a shift of a part makes one per piece)."""

    piece: Piece
    origin: Cell | None  # None: the piece comes from off the board
    target: Cell | None  # None: the piece leaves the board


@dataclass(frozen=True)
class Footprint:
    """The physical side of one action.

    `origins` are fields pieces are lifted from, `targets` where the moving pieces land, `captures`
    the targets where a piece is taken, and `returns` where taken or displaced pieces go.
    """

    moves: tuple[PieceMove, ...]
    origins: frozenset[Cell]
    targets: frozenset[Cell]
    captures: frozenset[Cell]
    returns: frozenset[Cell]

    @property
    def changed(self) -> frozenset[Cell]:
        return self.origins | self.targets | self.returns


_NONE: frozenset[Cell] = frozenset()


def _multiset_minus(a: tuple[Piece, ...], b: tuple[Piece, ...]) -> tuple[Piece, ...]:
    rest = list(b)
    out: list[Piece] = []
    for piece in a:
        if piece in rest:
            rest.remove(piece)
        else:
            out.append(piece)
    return tuple(out)


def footprint(before: Occupancy, after: Occupancy) -> Footprint:
    lost: list[tuple[Piece, Cell]] = []
    gained: list[tuple[Piece, Cell]] = []
    changed = [cell for cell in before.keys() | after.keys() if before.get(cell, ()) != after.get(cell, ())]
    for cell in sorted(changed):  # in board order; only the changed fields are sorted
        old, new = before.get(cell, ()), after.get(cell, ())
        if new and old:  # some pieces stay: only the difference moves
            old, new = _multiset_minus(old, new), _multiset_minus(new, old)
        for piece in old:
            lost.append((piece, cell))
        for piece in new:
            gained.append((piece, cell))
    gained_cells = {cell for _, cell in gained}
    lost_cells = {cell for _, cell in lost}
    if not lost_cells.isdisjoint(gained_cells):
        # Movers first: pieces leaving a field nothing else lands on; then pieces displaced by a lander.
        lost.sort(key=lambda item: item[1] in gained_cells)
    # Each lost piece lands on the first still open field where a like piece arrives.
    moves: list[PieceMove] = []
    open_gains = list(gained)
    for piece, origin in lost:
        for number, (arriving, target) in enumerate(open_gains):
            if arriving is piece or arriving == piece:
                del open_gains[number]
                moves.append(PieceMove(piece, origin, target))
                break
        else:
            moves.append(PieceMove(piece, origin, None))
    for piece, target in open_gains:
        moves.append(PieceMove(piece, None, target))
    if lost_cells.isdisjoint(gained_cells):  # no piece lands where one leaves: nothing is displaced
        return Footprint(tuple(moves), frozenset(lost_cells), frozenset(gained_cells), _NONE, _NONE)
    # A piece lifted from where an earlier mover lands was displaced (captured, swapped): its target
    # is a return field.
    landed: set[Cell] = set()
    origins: set[Cell] = set()
    returns: set[Cell] = set()
    for _, source, destination in moves:
        if source is not None:
            if source in landed:
                if destination is not None:
                    returns.add(destination)
            else:
                origins.add(source)
        if destination is not None:
            landed.add(destination)
    targets = gained_cells - returns
    return Footprint(
        tuple(moves), frozenset(origins), frozenset(targets), frozenset(targets & lost_cells), frozenset(returns)
    )


def occupancy_magnets(occupancy: Mapping[Cell, tuple[Piece, ...]], cell: Cell) -> list[int]:
    return [piece.magnet for piece in occupancy.get(cell, ())]
