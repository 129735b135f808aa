"""Square-grid geometry: notation, directions and the bent-path search the square-board games share."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

import pytest

from controller.games.base import Cell, NotationError
from controller.games.grid import (
    EAST,
    NORTH,
    ORTHOGONAL,
    SOUTH,
    WEST,
    SquareGrid,
    bent_paths,
    destinations,
    manhattan,
    perpendicular,
    step,
    turn_left,
    turn_right,
)

GRID = SquareGrid(14, 14)
CENTRE = (6, 6)


def free(cell: Cell) -> bool:
    return GRID.contains(cell)


def all_paths(start: Cell, length: int, **kwargs: object) -> list[tuple[Cell, ...]]:
    can_pass, can_stop = kwargs.pop("can_pass", free), kwargs.pop("can_stop", free)
    return list(bent_paths(start, length, can_pass, can_stop, **kwargs))


def turns(start: Cell, path: Iterable[Cell]) -> int:
    cells = (start, *path)
    directions = [(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(cells)]
    return sum(1 for d, e in pairwise(directions) if d != e)


# --- notation ----------------------------------------------------------------------------------
def test_notation_round_trips_on_every_field() -> None:
    for cell in GRID.cells():
        assert GRID.parse_cell(GRID.format_cell(cell)) == cell


def test_notation_follows_the_rules_book() -> None:
    assert GRID.format_cell((0, 0)) == "a1"
    assert GRID.format_cell((13, 0)) == "n1"
    assert GRID.format_cell((0, 13)) == "a14"
    assert GRID.format_cell((13, 13)) == "n14"
    assert GRID.parse_cell("g12") == (6, 11)


@pytest.mark.parametrize("text", ["", "a", "1", "1a", "A1", "a-1", "a 1", "aa1", "a100", "a1 ", "a0", "a01"])
def test_text_that_is_no_field_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="is not a field"):
        GRID.parse_cell(text)


@pytest.mark.parametrize("text", ["a15", "o1", "z9", "n15", "a99"])
def test_fields_off_the_board_are_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match=r"is not on this board \(a1 to n14\)"):
        GRID.parse_cell(text)


@pytest.mark.parametrize("cell", [(-1, 0), (0, -1), (14, 0), (0, 14)])
def test_formatting_a_cell_off_the_board_is_an_error(cell: Cell) -> None:
    with pytest.raises(ValueError, match="is not on a 14x14 board"):
        GRID.format_cell(cell)


@pytest.mark.parametrize(("width", "height"), [(0, 5), (27, 5), (5, 0), (5, 100)])
def test_grid_size_limits(width: int, height: int) -> None:
    with pytest.raises(ValueError, match=r"1\.\.26 columns by 1\.\.99 rows"):
        SquareGrid(width, height)


def test_cells_are_listed_row_by_row_from_the_south_west() -> None:
    grid = SquareGrid(3, 2)
    assert grid.cells() == ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1))
    assert grid.contains((2, 1)) and not grid.contains((3, 1)) and not grid.contains((0, -1))
    assert SquareGrid(26, 99).format_cell((25, 98)) == "z99"


# --- directions --------------------------------------------------------------------------------
def test_compass_directions_are_board_fixed() -> None:
    assert step((3, 3), NORTH) == (3, 4) and step((3, 3), EAST) == (4, 3)
    assert step((3, 3), SOUTH, 2) == (3, 1) and step((3, 3), WEST, 3) == (0, 3)


def test_turning_right_and_left() -> None:
    assert turn_right(NORTH) == EAST and turn_left(NORTH) == WEST
    assert turn_right(EAST) == SOUTH and turn_left(SOUTH) == EAST
    for d in ORTHOGONAL:
        assert perpendicular(d) == (turn_right(d), turn_left(d))
        assert turn_left(turn_right(d)) == d


def test_manhattan_distance() -> None:
    assert manhattan((0, 0), (3, 4)) == 7 and manhattan((5, 2), (2, 5)) == 6
    assert manhattan((1, 1), (1, 1)) == 0


# --- bent paths ----------------------------------------------------------------------------------
def test_paths_have_exactly_the_length_and_reach_every_field_at_that_distance() -> None:
    for length in (1, 2, 3, 4):
        paths = all_paths(CENTRE, length)
        assert all(len(p) == length for p in paths)
        ends = {p[-1] for p in paths}
        assert ends == {c for c in GRID.cells() if manhattan(c, CENTRE) == length}


def test_paths_step_orthogonally_turn_at_most_once_and_never_reverse() -> None:
    for length in (2, 3, 4, 5):
        for path in all_paths(CENTRE, length):
            cells = (CENTRE, *path)
            assert all(manhattan(a, b) == 1 for a, b in pairwise(cells))
            assert turns(CENTRE, path) <= 1
            assert len(set(cells)) == len(cells)  # never back over a field
            assert manhattan(CENTRE, path[-1]) == length  # a reversal would end nearer


def test_number_of_paths_on_an_open_board() -> None:
    # 4 straight paths plus, per direction, (length - 1) turn fields times 2 sides.
    for length in (1, 2, 3, 4):
        assert len(all_paths(CENTRE, length)) == 4 + 4 * (length - 1) * 2


def test_straight_paths_come_first_for_each_direction() -> None:
    paths = all_paths(CENTRE, 3, first=(NORTH,))
    assert paths[0] == ((6, 7), (6, 8), (6, 9))
    assert paths[1:] == [
        ((6, 7), (7, 7), (8, 7)),
        ((6, 7), (5, 7), (4, 7)),
        ((6, 7), (6, 8), (7, 8)),
        ((6, 7), (6, 8), (5, 8)),
    ]


def test_max_turns_zero_gives_straight_paths_only() -> None:
    paths = all_paths(CENTRE, 3, max_turns=0)
    assert sorted(p[-1] for p in paths) == [(3, 6), (6, 3), (6, 9), (9, 6)]
    assert all(turns(CENTRE, p) == 0 for p in paths)


@pytest.mark.parametrize("bad", [-1, 2, 3])
def test_max_turns_other_than_zero_or_one_is_refused(bad: int) -> None:
    with pytest.raises(ValueError, match="max_turns"):
        all_paths(CENTRE, 3, max_turns=bad)


def test_first_limits_the_starting_directions() -> None:
    paths = all_paths(CENTRE, 2, first=(EAST,))
    assert {p[0] for p in paths} == {(7, 6)}
    assert {p[-1] for p in paths} == {(8, 6), (7, 5), (7, 7)}


def test_second_chooses_the_directions_after_the_turn() -> None:
    paths = all_paths(CENTRE, 2, first=(NORTH,), second=lambda d: (turn_right(d),))
    assert {p[-1] for p in paths} == {(6, 8), (7, 7)}


def test_path_length_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least one step, not 0"):
        all_paths(CENTRE, 0)


def test_can_pass_is_asked_for_every_field_but_the_last_including_the_turn_field() -> None:
    blocked = {(6, 7)}  # north of the centre

    def can_pass(cell: Cell) -> bool:
        return free(cell) and cell not in blocked

    paths = all_paths(CENTRE, 2, can_pass=can_pass)
    ends = {p[-1] for p in paths}
    assert (6, 8) not in ends  # straight through the block
    assert (5, 7) in ends and (7, 7) in ends  # still reached by turning first east or west
    assert all((6, 7) not in p[:-1] for p in paths)
    one_step = all_paths(CENTRE, 1, can_pass=can_pass)
    assert ((6, 7),) in one_step  # the last field is can_stop's business only


def test_can_stop_is_asked_only_for_the_last_field() -> None:
    asked: list[Cell] = []

    def can_stop(cell: Cell) -> bool:
        asked.append(cell)
        return cell != (6, 9)

    paths = all_paths(CENTRE, 3, can_stop=can_stop)
    assert (6, 9) not in {p[-1] for p in paths}
    assert set(asked) == {p[-1] for p in all_paths(CENTRE, 3)}
    assert all((6, 9) not in p for p in paths)


def test_no_path_leaves_the_board_when_can_pass_and_can_stop_say_so() -> None:
    paths = all_paths((0, 0), 3)
    assert {p[-1] for p in paths} == {(3, 0), (0, 3), (1, 2), (2, 1)}


def test_destinations_keep_the_first_path_to_each_field() -> None:
    paths = all_paths(CENTRE, 2)
    ends = destinations(paths)
    assert set(ends) == {p[-1] for p in paths}
    assert len(ends) == 8
    assert ends[(7, 7)] == next(p for p in paths if p[-1] == (7, 7))
    assert ends[(7, 7)] == ((6, 7), (7, 7))  # north first, then east
