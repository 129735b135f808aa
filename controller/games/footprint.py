"""Which pieces an action moves, derived from the occupancy before and after it.

Pairing the pieces that leave fields with the pieces that arrive on fields gives every physical
move of an action (the mover, a captured piece going home, a swapped piece) without any
game-specific code. The tracker lights hints from it and the virtual hands carry it out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.games import Cell, Occupancy, Piece


@dataclass(frozen=True, slots=True)
class PieceMove:
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


def _multiset_minus(a: tuple[Piece, ...], b: tuple[Piece, ...]) -> list[Piece]:
    rest = list(b)
    out = []
    for piece in a:
        if piece in rest:
            rest.remove(piece)
        else:
            out.append(piece)
    return out


def footprint(before: Occupancy, after: Occupancy) -> Footprint:
    lost: list[tuple[Piece, Cell]] = []
    gained: list[tuple[Piece, Cell]] = []
    for cell in sorted(before.keys() | after.keys()):
        old, new = before.get(cell, ()), after.get(cell, ())
        if old == new:
            continue
        if not new or not old:  # emptied or filled: no pieces in common
            lost.extend((piece, cell) for piece in old)
            gained.extend((piece, cell) for piece in new)
            continue
        lost.extend((piece, cell) for piece in _multiset_minus(old, new))
        gained.extend((piece, cell) for piece in _multiset_minus(new, old))
    gained_cells = {cell for _, cell in gained}
    lost_cells = {cell for _, cell in lost}
    # Movers first: pieces leaving a field nothing else lands on; then pieces displaced by a lander.
    lost.sort(key=lambda item: item[1] in gained_cells)
    # Each lost piece lands on the first still open field where a like piece arrives.
    open_by_piece: dict[Piece, list[int]] = {}
    for number, (piece, _) in reversed(list(enumerate(gained))):
        open_by_piece.setdefault(piece, []).append(number)
    paired: set[int] = set()
    moves: list[PieceMove] = []
    for piece, origin in lost:
        waiting = open_by_piece.get(piece)
        if waiting:
            number = waiting.pop()
            paired.add(number)
            moves.append(PieceMove(piece, origin, gained[number][1]))
        else:
            moves.append(PieceMove(piece, origin, None))
    unpaired = (item for number, item in enumerate(gained) if number not in paired)
    moves.extend(PieceMove(piece, None, target) for piece, target in unpaired)
    # A piece lifted from where an earlier mover lands was displaced (captured, swapped): its target
    # is a return field.
    landed: set[Cell] = set()
    origins: set[Cell] = set()
    returns: set[Cell] = set()
    for move in moves:
        if move.origin is not None and move.origin in landed:
            if move.target is not None:
                returns.add(move.target)
        elif move.origin is not None:
            origins.add(move.origin)
        if move.target is not None:
            landed.add(move.target)
    targets = gained_cells - returns
    return Footprint(
        tuple(moves), frozenset(origins), frozenset(targets), frozenset(targets & lost_cells), frozenset(returns)
    )


def occupancy_magnets(occupancy: Mapping[Cell, tuple[Piece, ...]], cell: Cell) -> list[int]:
    return [piece.magnet for piece in occupancy.get(cell, ())]
