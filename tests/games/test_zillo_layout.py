"""Zillo board parts: geometry (Z-1), layout validation and the Shift card (Z-3)."""

from __future__ import annotations

import pytest

from controller.games import IllegalAction, Mark
from controller.games.grid import destinations
from controller.games.zillo import INITIAL_LAYOUT, Layout, Placement, Shift, movegen
from controller.games.zillo.deck import RELATIVE_PATHS, card_paths
from controller.games.zillo.layout import AREA, edge_contact, overlap, rotate
from tests.games.test_action_reach import random_states
from tests.games.zillo_helpers import GAME, catchers_of, position, strings


def cells(*texts: str) -> set[tuple[int, int]]:
    return {AREA.parse_cell(text) for text in texts}


def box(first: str, last: str) -> set[tuple[int, int]]:
    (x0, y0), (x1, y1) = AREA.parse_cell(first), AREA.parse_cell(last)
    return {(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}


# --- Z-1 geometry ----------------------------------------------------------------------------------


def test_Z1_each_part_is_5x5_and_the_parts_form_c3_to_l12_at_the_start() -> None:
    expected = {1: box("c8", "g12"), 2: box("h8", "l12"), 3: box("h3", "l7"), 4: box("c3", "g7")}
    for part, fields in expected.items():
        assert set(INITIAL_LAYOUT.placement(part).cells()) == fields
    assert set(INITIAL_LAYOUT.fields()) == box("c3", "l12")


def test_Z1_start_and_zillo_fields_of_each_colour() -> None:
    starts = {
        colour: AREA.format_cell(INITIAL_LAYOUT.start_of(colour)) for colour in ("red", "blue", "yellow", "green")
    }
    zillos = {
        colour: AREA.format_cell(INITIAL_LAYOUT.zillo_field_of(colour)) for colour in ("red", "blue", "yellow", "green")
    }
    assert starts == {"red": "c12", "blue": "l12", "yellow": "l3", "green": "c3"}
    assert zillos == {"red": "f9", "blue": "i9", "yellow": "i6", "green": "f6"}


def test_Z1_play_area_is_the_whole_14x14_board() -> None:
    state = GAME.new_game(players=2)
    assert len(GAME.cells(state)) == 196
    assert GAME.parse_cell("n14") == (13, 13) and GAME.format_cell((0, 0)) == "a1"


def test_Z1_a_quarter_turn_is_clockwise_about_the_centre() -> None:
    assert rotate((0, 4), 90) == (4, 4)  # north-west corner goes to north-east
    assert rotate((2, 2), 90) == (2, 2)
    assert all(rotate(rotate((1, 3), r), 360 - r) == (1, 3) for r in (90, 180, 270))


def test_Z1_field_layout_names_part_printed_field_and_kind() -> None:
    state = GAME.new_game(players=4)
    fields = state.field_layout()
    start = fields[AREA.parse_cell("l12")]
    assert (start.part, start.kind, start.colour) == (2, "start", "blue")
    small = fields[AREA.parse_cell("i6")]
    assert (small.part, small.kind, small.colour) == (3, "zillo_field", "yellow")
    plain = fields[AREA.parse_cell("e5")]
    assert (plain.part, plain.kind) == (4, "plain")
    # All four parts carry the same print: the same printed field is the start field on each.
    assert {fields[AREA.parse_cell(c)].printed for c in ("c12", "l12", "l3", "c3")} == {(0, 4)}
    assert AREA.parse_cell("a1") not in fields


# --- Z-3 layout validation --------------------------------------------------------------------------

# Part 4 in the middle (e5..i9), part 1 above it to the west (a10..e14), part 3 to the east (j1..n5),
# part 2 east of part 4 (j6..n10). Moved to j10..n14, part 2 would touch part 4 at a corner only.
CORNER = Layout((Placement((0, 9), 0), Placement((9, 5), 0), Placement((9, 0), 0), Placement((4, 4), 0)))
# A chain 4 - 1 - 2 - 3: part 4 a1..e5, part 1 a6..e10, part 2 f6..j10, part 3 j1..n5.
CHAIN = Layout((Placement((0, 5), 0), Placement((5, 5), 0), Placement((9, 0), 0), Placement((0, 0), 0)))


def test_Z3_overlap_is_refused() -> None:
    problem = INITIAL_LAYOUT.shift_problem(1, Placement((3, 7), 0))
    assert problem == "part 1 would overlap part 2"


def test_Z3_corner_only_contact_is_refused() -> None:
    assert CORNER.problem() is None
    problem = CORNER.shift_problem(2, Placement((9, 9), 0))
    assert problem is not None and "a corner is not enough" in problem
    assert overlap((0, 0), (4, 4)) and not overlap((0, 0), (5, 0))
    assert edge_contact((0, 0), (5, 4)) and not edge_contact((0, 0), (5, 5))


def test_Z3_a_part_cut_off_from_the_rest_is_refused() -> None:
    assert CHAIN.problem() is None
    # Part 2 links part 3 to the others; moved to touch part 1 only, part 3 would be cut off.
    problem = CHAIN.shift_problem(2, Placement((5, 9), 0))
    assert problem == "the parts would fall apart into separate groups"


def test_Z3_a_field_outside_the_play_area_is_refused() -> None:
    assert INITIAL_LAYOUT.shift_problem(2, Placement((10, 7), 90)) == "part 2 would reach outside the 14x14 play area"
    assert Layout((Placement((-1, 7), 0), *INITIAL_LAYOUT.placements[1:])).problem() is not None


def test_Z3_rotation_in_place_is_allowed_for_every_part_and_turn() -> None:
    for layout in (INITIAL_LAYOUT, CORNER, CHAIN):
        for part in (1, 2, 3, 4):
            here = layout.placement(part)
            for rotation in (0, 90, 180, 270):
                if rotation != here.rotation:
                    assert layout.shift_problem(part, Placement(here.corner, rotation)) is None


def test_Z3_a_shift_that_changes_nothing_is_refused() -> None:
    state = position(hand=("S-1",))
    assert "S-1:1r0@c12" not in strings(state)
    with pytest.raises(IllegalAction, match="must twist or shift"):
        state.apply(Shift("S-1", 1, 0, AREA.parse_cell("c12")))


def test_Z3_shift_actions_are_exactly_the_valid_layouts() -> None:
    state = position(hand=("S-2",))
    shifts = [a for a in state.legal_actions() if isinstance(a, Shift)]
    assert len(shifts) == len(set(shifts))
    for part in (1, 2, 3, 4):
        valid = {
            (x, y)
            for x in range(10)
            for y in range(10)
            if INITIAL_LAYOUT.moved(part, Placement((x, y), 0)).problem() is None
        }
        assert set(INITIAL_LAYOUT.shift_corners(part)) == valid
        mine = [a for a in shifts if a.part == part]
        assert len(mine) == 4 * len(valid) - 1  # every corner in every rotation, less "no change"


# --- Shift card in play ----------------------------------------------------------------------------


def test_rule_shift_card_twists_a_part_and_the_pieces_stay_on_their_fields() -> None:
    state = position(hand=("S-1",), zillo="f9")
    after = state.apply(state.parse_action("S-1:1r90@g12"))
    # Part 1 turned a quarter clockwise in place: its start field (with Red's Catchers) is now g12,
    # its Zillo field (with the Zillo) d9.
    assert after.start_of(0) == AREA.parse_cell("g12")
    assert catchers_of(after)["g12"] == (0, 3)
    assert after.zillo == AREA.parse_cell("d9")
    assert set(after.layout.placement(1).cells()) == box("c8", "g12")


def test_rule_shift_card_shifts_a_part_with_its_pieces_and_fields() -> None:
    state = position(hand=("S-1",), zillo="i9", players=4, current=1)
    # Blue's part 2 moves one field north (no twist): everything on it moves along.
    after = state.apply(state.parse_action("S-1:2r0@l13"))
    assert after.start_of(1) == AREA.parse_cell("l13")
    assert catchers_of(after)["l13"] == (1, 3)
    assert after.zillo == AREA.parse_cell("i10")
    assert after.field_layout()[AREA.parse_cell("i10")].kind == "zillo_field"
    assert AREA.parse_cell("h8") not in after.field_layout()  # a gap row opened under part 2


CORNER_PARTS = [("a10", 0), ("j6", 0), ("j1", 0), ("e5", 0)]
CORNER_PIECES = {"a14": (0, 3), "j5": (1, 3)}  # Red's start field (part 1) and Yellow's (part 3)


def test_rule_shift_card_must_connect_the_shifted_part() -> None:
    state = position(hand=("S-1",), layout=CORNER_PARTS, catchers=CORNER_PIECES, zillo="h6")
    assert "S-1:2r0@j14" not in strings(state)  # part 2 on j10..n14: a corner touch only
    with pytest.raises(IllegalAction, match="a corner is not enough"):
        state.apply(state.parse_action("S-1:2r0@j14"))
    assert "S-1:2r0@j13" in strings(state)  # one field lower it shares an edge with part 4


def test_Z3_shift_outside_the_area_is_illegal_in_play() -> None:
    state = position(hand=("S-1",))
    with pytest.raises(IllegalAction, match="outside the 14x14 play area"):
        state.apply(state.parse_action("S-1:2r180@k8"))


def test_Z3_shift_card_is_always_playable() -> None:
    state = position(hand=("S-4",), layout=CORNER_PARTS, catchers=CORNER_PIECES, zillo="h6")
    assert {"S-4:1r90@e14", "S-4:1r180@e10", "S-4:1r270@a10"} <= strings(state, "S-4")


# --- marks and occupancy follow the parts ----------------------------------------------------------


def test_marks_show_part_fields_start_fields_and_zillo_fields() -> None:
    state = GAME.new_game(players=2)
    marks = state.marks()
    assert set(marks) == box("c3", "l12")
    assert marks[AREA.parse_cell("c12")] == Mark("start", "red", 0)
    assert marks[AREA.parse_cell("l3")] == Mark("start", "yellow", 1)
    assert marks[AREA.parse_cell("l12")] == Mark("start", "blue", None)  # Blue does not play
    assert marks[AREA.parse_cell("f9")] == Mark("zillo_field", "red", 0)
    assert marks[AREA.parse_cell("e5")] == Mark("part", "white", None)


def test_marks_move_with_a_shifted_part() -> None:
    state = position(hand=("S-1",))
    after = state.apply(state.parse_action("S-1:1r90@g12"))
    marks = after.marks()
    assert marks[AREA.parse_cell("g12")] == Mark("start", "red", 0)
    assert marks[AREA.parse_cell("c12")] == Mark("part", "white", None)
    assert marks[AREA.parse_cell("d9")].kind == "zillo_field"


def test_Z3_shift_corners_are_exactly_the_valid_layouts_in_random_games() -> None:
    """The corner masks agree with Z-3 checked field by field (`Layout.problem`) in every layout a
    random game reaches, parts cut off from the rest included."""
    layouts = {state.position.layout for state in random_states("zillo", 4, {"hands": "physical"}, games=4, seed=9)}
    assert len(layouts) > 10
    for layout in layouts:
        for part in (1, 2, 3, 4):
            valid = [
                (x, y)
                for x in range(10)
                for y in range(10)
                if layout.moved(part, Placement((x, y), 0)).problem() is None
            ]
            assert list(layout.shift_corners(part)) == valid


def test_Z2_card_targets_are_the_ends_of_the_paths_over_board_parts_in_random_games() -> None:
    """A layout's card targets agree with walking each card's paths over the board parts."""
    for state in random_states("zillo", 3, {"hands": "physical"}, games=2, seed=4)[::9]:
        on_part = state.position.layout.fields().__contains__
        for card in RELATIVE_PATHS:
            for origin in {*state.position.catchers, state.position.zillo}:
                walked = sorted(destinations(card_paths(card, origin, on_part, on_part)))
                assert movegen.targets(state.position.layout, card, origin) == walked, (card, origin)
