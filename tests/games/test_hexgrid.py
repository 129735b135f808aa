"""Hex geometry (controller/games/hexgrid.py): the board shapes, directions and notation of F-1."""

import pytest

from controller.games.base import NotationError
from controller.games.hexgrid import (
    CENTRE,
    DIRECTIONS,
    EAST,
    NORTH_EAST,
    NORTH_WEST,
    SOUTH_EAST,
    SOUTH_WEST,
    WEST,
    HexGrid,
    direction_between,
    distance,
    negate,
    ring,
    rotate,
    rotate60,
    rotate120,
    step,
)

LARGE = HexGrid(4)
MINI = HexGrid(3)


def test_F1_board_sizes_are_61_and_37_hexes() -> None:
    assert len(LARGE.cells()) == LARGE.size == 61
    assert len(MINI.cells()) == MINI.size == 37
    assert len(set(LARGE.cells())) == 61


def test_F1_board_is_every_hex_within_radius() -> None:
    for q in range(-6, 7):
        for r in range(-6, 7):
            assert LARGE.contains((q, r)) == (max(abs(q), abs(r), abs(q + r)) <= 4)


def test_F1_directions_in_axial_coordinates() -> None:
    assert DIRECTIONS == (EAST, NORTH_EAST, NORTH_WEST, WEST, SOUTH_WEST, SOUTH_EAST)
    assert (EAST, NORTH_EAST, NORTH_WEST, WEST, SOUTH_WEST, SOUTH_EAST) == (
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, 1),
        (0, 1),
    )


def test_F1_notation_rows_from_the_north_numbered_from_the_west() -> None:
    assert LARGE.format_cell(CENTRE) == "e5"
    assert MINI.format_cell(CENTRE) == "d4"
    assert LARGE.parse_cell("a1") == (0, -4)  # north row, west end
    assert LARGE.parse_cell("a5") == (4, -4)
    assert LARGE.parse_cell("e1") == (-4, 0)
    assert LARGE.parse_cell("e9") == (4, 0)
    assert LARGE.parse_cell("i1") == (-4, 4)
    assert LARGE.parse_cell("i5") == (0, 4)
    assert MINI.parse_cell("a1") == (0, -3)
    assert MINI.parse_cell("g4") == (0, 3)


@pytest.mark.parametrize("grid", [LARGE, MINI])
def test_notation_round_trips_for_every_hex(grid: HexGrid) -> None:
    texts = [grid.format_cell(cell) for cell in grid.cells()]
    assert len(set(texts)) == grid.size
    assert all(grid.parse_cell(text) == cell for text, cell in zip(texts, grid.cells(), strict=True))


@pytest.mark.parametrize("text", ["j1", "a6", "e0", "e10", "E5", "e05", "5e", "", "h7"])
def test_text_that_names_no_hex_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        LARGE.parse_cell(text)


def test_mini_notation_rejects_large_only_hexes() -> None:
    with pytest.raises(NotationError, match="rows a to g"):
        MINI.parse_cell("h1")
    with pytest.raises(NotationError, match="row d has 7 hexes"):
        MINI.parse_cell("d8")


def test_format_cell_off_the_board_is_an_error() -> None:
    with pytest.raises(ValueError):
        MINI.format_cell((4, 0))


def test_cells_run_row_by_row_from_the_north_west() -> None:
    cells = LARGE.cells()
    assert cells[0] == (0, -4) and cells[4] == (4, -4) and cells[-1] == (0, 4)


def test_neighbours_of_centre_edge_and_corner() -> None:
    assert len(LARGE.neighbours(CENTRE)) == 6
    assert set(LARGE.neighbours((0, -4))) == {(1, -4), (-1, -3), (0, -3)}  # a corner has three
    assert len(LARGE.neighbours((2, -4))) == 4  # an edge hex has four
    assert all(distance(CENTRE, n) == 1 for n in LARGE.neighbours(CENTRE))


def test_ray_stops_at_the_edge_or_before_a_blocked_hex() -> None:
    assert LARGE.ray((-2, 0), EAST, lambda cell: cell == CENTRE) == ((-1, 0),)
    assert LARGE.ray((-2, 0), WEST, lambda cell: False) == ((-3, 0), (-4, 0))
    assert LARGE.ray((-4, 0), WEST, lambda cell: False) == ()
    assert LARGE.ray((0, -4), SOUTH_EAST, lambda cell: cell == (0, -1)) == ((0, -3), (0, -2))


def test_rotations() -> None:
    assert rotate60(EAST) == NORTH_EAST
    assert rotate120(EAST) == NORTH_WEST
    for cell in LARGE.cells():
        assert rotate(cell, 6) == cell
        assert rotate(cell, 2) == rotate120(cell)
        assert rotate(cell, 3) == negate(cell)
        assert rotate(cell, -1) == rotate(cell, 5)
        assert ring(rotate60(cell)) == ring(cell)  # turning keeps a hex on the board


def test_distance_and_ring() -> None:
    assert ring((0, -4)) == 4 and ring(CENTRE) == 0
    assert distance((0, -4), (0, 4)) == 8
    assert distance((-4, 0), (4, -4)) == 8
    assert distance(step((1, 1), SOUTH_WEST, 3), (1, 1)) == 3


def test_direction_between_cells_in_line() -> None:
    assert direction_between((0, 0), (3, 0)) == EAST
    assert direction_between((0, 0), (2, -2)) == NORTH_EAST
    assert direction_between((1, 1), (1, -2)) == NORTH_WEST
    assert direction_between((0, 0), (2, -1)) is None  # not in line
    assert direction_between((0, 0), (0, 0)) is None


def test_radius_out_of_range_is_an_error() -> None:
    with pytest.raises(ValueError):
        HexGrid(0)
