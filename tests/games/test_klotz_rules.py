"""Klotz: one test per sentence of the rule text (`test_text_...`) and per ruling K-1..K-6 (`test_K<n>_...`).

Rule text: shared/rules/seeds/klotz.txt; rulings: shared/rules/klotz.md; as implemented:
docs/games/klotz.md. Positions are built with `position(players, {field: token})` (see klotz_positions).
"""

from __future__ import annotations

import json
from itertools import pairwise

import pytest

from controller.games import IllegalAction, Mark, NotationError, Piece, load_game
from controller.games.grid import manhattan
from controller.games.klotz import GRID, PASS, Klotz, KlotzState, Move, Pass
from tests.games.klotz_positions import (
    CORNER_FIELDS,
    HOMES,
    SEAT_COLOURS,
    cell,
    full_board,
    position,
)

KLOTZ = Klotz()
ONE_BLOCKS = {"f6", "g6", "h6", "i6", "f7", "i7", "f8", "i8", "f9", "g9", "h9", "i9"}
TWO_BLOCKS = {"d4", "k4", "d11", "k11"}
THREE_BLOCKS = {"g3", "h3", "c7", "c8", "l7", "l8", "g12", "h12"}
# Two players (Red seat 0, Yellow seat 1), both squares at home: the blue and green inner fields
# (h8, g7) are empty and every test block below stays well away from them unless a test says so.
AT_HOME_2P = {"g8": "square0", "h7": "square1"}


# --- helpers -------------------------------------------------------------------------------------
def mv(origin: str, target: str) -> Move:
    return Move.parse(f"{origin}-{target}")


def name(c: tuple[int, int]) -> str:
    return GRID.format_cell(c)


def targets(state: KlotzState, origin: str) -> set[str]:
    """Where the player on turn may move the block on `origin` (legal actions only)."""
    return {name(a.target) for a in state.legal_actions() if isinstance(a, Move) and a.origin == cell(origin)}


def ring(origin: str, distance: int) -> set[str]:
    """Every field exactly `distance` orthogonal steps away (Manhattan distance)."""
    return {name(c) for c in GRID.cells() if manhattan(c, cell(origin)) == distance}


def layout(state: KlotzState) -> dict[str, str]:
    """The position as test tokens (inverse of `position`)."""
    tokens = {}
    for c, block in state.blocks.items():
        if block.is_square:
            tokens[name(c)] = f"square{block.player}"
        else:
            tokens[name(c)] = f"cyl{block.size}" + ("" if block.player is None else f"@{block.player}")
    return tokens


def reason(state: KlotzState, action: object) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    assert state.to_json() == before
    assert caught.value.reason
    return caught.value.reason


def play(state: KlotzState, *moves: str) -> KlotzState:
    for text in moves:
        state = state.apply(state.parse_action(text))
    return state


# --- game contents and set-up (rule text, K-1, K-2) ----------------------------------------------
def test_text_board_is_a_14_by_14_square_grid() -> None:
    state = KLOTZ.new_game(4)
    cells = KLOTZ.cells(state)
    assert len(cells) == 196 and len(set(cells)) == 196
    assert {name(c) for c in cells} >= {"a1", "n1", "a14", "n14"}
    assert all(0 <= x < 14 and 0 <= y < 14 for x, y in cells)


def test_text_contents_twelve_1_blocks_four_2_blocks_eight_3_blocks() -> None:
    for players in (2, 3, 4):
        sizes = [b.size for b in KLOTZ.new_game(players).blocks.values() if not b.is_square]
        assert (sizes.count(1), sizes.count(2), sizes.count(3), len(sizes)) == (12, 4, 8, 24)


def test_text_one_square_block_per_player_in_their_colour() -> None:
    for players in (2, 3, 4):
        state = KLOTZ.new_game(players)
        squares = {b.player: c for c, b in state.blocks.items() if b.is_square}
        assert sorted(squares) == list(range(players))
        assert state.seats == SEAT_COLOURS[players]


def test_text_squares_start_on_their_coloured_inner_fields() -> None:
    for players in (2, 3, 4):
        state = KLOTZ.new_game(players)
        marks = state.marks()
        for c, block in state.blocks.items():
            if block.is_square:
                assert marks[c] == Mark("inner", state.seats[block.player], block.player)


def test_K1_corner_fields_by_colour() -> None:
    marks = KLOTZ.new_game(4).marks()
    corners = {m.colour: name(c) for c, m in marks.items() if m.kind == "corner"}
    assert corners == {"red": "a14", "blue": "n14", "yellow": "n1", "green": "a1"}


def test_K1_inner_fields_are_the_central_two_by_two() -> None:
    marks = KLOTZ.new_game(4).marks()
    inner = {m.colour: name(c) for c, m in marks.items() if m.kind == "inner"}
    assert inner == {"red": "g8", "blue": "h8", "yellow": "h7", "green": "g7"}


def test_K1_each_square_starts_on_the_inner_field_nearest_its_corner() -> None:
    state = KLOTZ.new_game(4)
    assert layout(state)["g8"] == "square0"  # Red
    assert layout(state)["h8"] == "square1"  # Blue
    assert layout(state)["h7"] == "square2"  # Yellow
    assert layout(state)["g7"] == "square3"  # Green
    for colour, home in HOMES.items():
        corner = cell(CORNER_FIELDS[colour])
        nearest = min(HOMES.values(), key=lambda field: manhattan(cell(field), corner))
        assert nearest == home


def test_K1_start_fields_share_their_corners_parity_and_the_race_is_three_moves() -> None:
    for colour, home in HOMES.items():
        corner = CORNER_FIELDS[colour]
        assert sum(cell(home)) % 2 == sum(cell(corner)) % 2
        assert manhattan(cell(home), cell(corner)) == 12  # three square moves of four fields


def test_K1_seats_by_player_count() -> None:
    assert KLOTZ.new_game(2).seats == ("red", "yellow")
    assert KLOTZ.new_game(3).seats == ("red", "blue", "yellow")
    assert KLOTZ.new_game(4).seats == ("red", "blue", "yellow", "green")
    assert KLOTZ.default_players == 2
    with pytest.raises(ValueError, match="2, 3, 4 players, not 5"):
        KLOTZ.new_game(5)
    with pytest.raises(ValueError, match="not 1"):
        KLOTZ.new_game(1)


def test_K1_turn_order_red_blue_yellow_green_and_red_starts() -> None:
    state = KLOTZ.new_game(4)
    seen = []
    for _ in range(8):
        seen.append(state.seats[state.current_player])
        state = state.apply(state.legal_actions()[0])
    assert seen == ["red", "blue", "yellow", "green"] * 2


def test_K1_two_player_turns_alternate_red_yellow() -> None:
    state = KLOTZ.new_game(2)
    seen = []
    for _ in range(4):
        seen.append(state.seats[state.current_player])
        state = state.apply(state.legal_actions()[-1])
    assert seen == ["red", "yellow", "red", "yellow"]


def test_K1_tiles_start_off_the_board() -> None:
    # Rule text: "The four small colored tiles are placed on the four board corners" (beside them).
    for players in (2, 3, 4):
        state = KLOTZ.new_game(players)
        assert all(b.player is None for b in state.blocks.values() if not b.is_square)
        assert not [m for m in state.marks().values() if m.kind == "tile"]
        assert not set(state.occupancy()) & {cell(f) for f in CORNER_FIELDS.values()}


def test_K2_cylinder_set_up_is_exactly_the_diagram() -> None:
    for players in (2, 3, 4):
        cylinders = {name(c): b.size for c, b in KLOTZ.new_game(players).blocks.items() if not b.is_square}
        assert {f for f, size in cylinders.items() if size == 1} == ONE_BLOCKS
        assert {f for f, size in cylinders.items() if size == 2} == TWO_BLOCKS
        assert {f for f, size in cylinders.items() if size == 3} == THREE_BLOCKS


def test_K2_set_up_is_symmetric_under_a_quarter_turn() -> None:
    cylinders = {c: b.size for c, b in KLOTZ.new_game(4).blocks.items() if not b.is_square}
    turned = {(13 - y, x): size for (x, y), size in cylinders.items()}
    assert turned == cylinders


def test_K2_squares_start_boxed_in() -> None:
    for players in (2, 3, 4):
        state = KLOTZ.new_game(players)
        for seat in range(players):
            assert state.block_destinations(state.home_of(seat)) == {}


def test_text_absent_colours_inner_fields_are_empty_at_the_start() -> None:
    assert {"h8", "g7"}.isdisjoint(layout(KLOTZ.new_game(2)))
    assert "g7" not in layout(KLOTZ.new_game(3))
    assert set(HOMES.values()) <= set(layout(KLOTZ.new_game(4)))


def test_text_absent_colours_inner_fields_stay_empty() -> None:
    # f7 and i8 are 1-blocks next to the empty green (g7) and blue (h8) fields of a 2-player game.
    state = KLOTZ.new_game(2)
    assert "g7" not in targets(state, "f7") and "h8" not in targets(state, "i8")
    assert "inner field" in reason(state, mv("f7", "g7"))
    for _ in range(60):
        assert all(a.target not in {cell("g7"), cell("h8")} for a in state.legal_actions())
        state = state.apply(state.legal_actions()[len(state.legal_actions()) // 3])
        assert {"h8", "g7"}.isdisjoint(layout(state))


# --- movement (rule text, K-3) -------------------------------------------------------------------
def test_text_cylinders_move_exactly_their_size() -> None:
    for size in (1, 2, 3):
        state = position(2, {**AT_HOME_2P, "d4": f"cyl{size}"})
        assert targets(state, "d4") == ring("d4", size)


def test_text_square_moves_exactly_four_fields() -> None:
    state = position(2, {"e4": "square0", "h7": "square1"})  # Red's square, clear of corners
    assert targets(state, "e4") == ring("e4", 4)
    assert len(ring("e4", 4)) == 15  # e0 is off the board


def test_text_blocks_must_move_their_full_number_of_fields() -> None:
    state = position(2, {"e2": "square0", "h7": "square1", "d4": "cyl3"})
    for short in ("d5", "d6", "e4", "f4", "e5"):
        assert "exactly 3" in reason(state, mv("d4", short))
    assert "exactly 4" in reason(state, mv("e2", "e4"))
    assert "exactly 4" in reason(state, mv("e2", "e8"))  # five fields is not four either


def test_text_no_diagonal_moves() -> None:
    state = position(2, {**AT_HOME_2P, "d4": "cyl1"})
    assert targets(state, "d4") == {"d5", "e4", "d3", "c4"}
    for diagonal in ("e5", "e3", "c3", "c5"):
        assert "orthogonally" in reason(state, mv("d4", diagonal))


def test_text_moves_are_horizontal_or_vertical_steps_only() -> None:
    state = position(2, {**AT_HOME_2P, "d4": "cyl2", "k4": "cyl3"})
    for origin in ("d4", "k4"):
        for path in state.block_paths(cell(origin)):
            cells = (cell(origin), *path)
            assert all(manhattan(a, b) == 1 for a, b in pairwise(cells))


def test_text_direction_may_turn_90_degrees_once_per_turn() -> None:
    state = position(2, {**AT_HOME_2P, "d4": "cyl2"})
    assert {"e5", "c5", "e3", "c3"} <= targets(state, "d4")  # one step, a quarter turn, one step
    square = position(2, {"e4": "square0", "h7": "square1"})
    assert "g6" in targets(square, "e4")  # two east, turn, two north


def test_text_at_most_one_turn_per_move() -> None:
    # e4 -> g6 without turning twice goes through g4 or e6; both are blocked. Free zig-zags remain
    # (f4 f5 f6 g6, e5 f5 g5 g6) but they turn twice.
    state = position(2, {"e4": "square0", "h7": "square1", "g4": "cyl1", "e6": "cyl1"})
    assert "g6" not in targets(state, "e4")
    assert "at most one 90-degree turn" in reason(state, mv("e4", "g6"))
    opened = position(2, {"e4": "square0", "h7": "square1", "g4": "cyl1"})
    assert "g6" in targets(opened, "e4")


def test_text_no_back_and_forth_in_one_move() -> None:
    # d5 and d6 are free: north, north, back south would end on d5; a 3-block may not do that.
    state = position(2, {**AT_HOME_2P, "d4": "cyl3", "c5": "cyl1", "e5": "cyl1", "c6": "cyl1", "e6": "cyl1"})
    assert "d5" not in targets(state, "d4")
    assert reason(state, mv("d4", "d5"))
    assert all(manhattan(cell("d4"), a.target) == 3 for a in state.legal_actions() if a.origin == cell("d4"))


def test_text_no_jumping_over_blocks() -> None:
    state = position(2, {"e2": "square0", "h7": "square1", "d4": "cyl3", "d5": "cyl1", "e3": "cyl2"})
    assert "d7" not in targets(state, "d4")
    assert "d7" in reason(state, mv("d4", "d7"))
    assert "e6" not in targets(state, "e2")  # the square would jump the 2-block on e3
    assert reason(state, mv("e2", "e6"))


def test_text_cylinder_ending_on_a_square_captures_it() -> None:
    state = position(2, {"d9": "square0", "h7": "square1", "c9": "cyl1"}, current=1)
    after = state.apply(mv("c9", "d9"))
    assert layout(after) == {"g8": "square0", "h7": "square1", "d9": "cyl1@1"}


def test_text_captured_square_returns_to_its_start_field() -> None:
    # Yellow's square, far from home, captured by Red's 3-block; it goes back to h7.
    state = position(2, {"g8": "square0", "l3": "square1", "l6": "cyl3"})
    after = state.apply(mv("l6", "l3"))
    assert layout(after) == {"g8": "square0", "h7": "square1", "l3": "cyl3@0"}
    assert after.occupancy()[cell("h7")] == (Piece("square", 1, -1),)


def test_text_own_square_may_be_captured_too() -> None:
    # The text says "a square block": see docs/games/klotz.md.
    state = position(2, {"d9": "square0", "h7": "square1", "c9": "cyl1"})
    assert "d9" in targets(state, "c9")
    after = state.apply(mv("c9", "d9"))
    assert layout(after) == {"g8": "square0", "h7": "square1", "d9": "cyl1@0"}
    assert not after.is_terminal()


def test_text_cylinders_cannot_be_captured() -> None:
    state = position(2, {**AT_HOME_2P, "d4": "cyl1", "d5": "cyl2", "d7": "cyl2@0"})
    assert "d5" not in targets(state, "d4") and "d5" not in targets(state, "d7")
    assert "cylinders cannot be captured" in reason(state, mv("d4", "d5"))
    assert "cylinders cannot be captured" in reason(state, mv("d7", "d5"))


def test_text_squares_cannot_capture_each_other() -> None:
    state = position(2, {"e4": "square0", "e8": "square1"})
    assert "e8" not in targets(state, "e4")
    assert "squares cannot capture" in reason(state, mv("e4", "e8"))


def test_text_squares_cannot_capture_cylinders() -> None:
    state = position(2, {"e4": "square0", "h7": "square1", "i4": "cyl1"})
    assert "i4" not in targets(state, "e4")
    assert "squares cannot capture" in reason(state, mv("e4", "i4"))


def test_text_there_is_no_obligation_to_capture() -> None:
    state = position(2, {"d9": "square0", "h7": "square1", "c9": "cyl1", "k2": "cyl1"}, current=1)
    assert targets(state, "c9") == {"c10", "d9", "b9", "c8"}
    quiet = state.apply(mv("c9", "c10"))
    assert layout(quiet)["d9"] == "square0"
    assert layout(state.apply(mv("k2", "k3")))["d9"] == "square0"


def test_text_turn_is_a_square_move_or_a_cylinder_move() -> None:
    state = position(2, {"e4": "square0", "l9": "square1", "k4": "cyl2", "c12": "cyl3@0", "j12": "cyl1@1"})
    expected = {Move(cell("e4"), t) for t in state.block_destinations(cell("e4"))}
    expected |= {Move(cell("k4"), t) for t in state.block_destinations(cell("k4"))}
    expected |= {Move(cell("c12"), t) for t in state.block_destinations(cell("c12"))}
    assert set(state.legal_actions()) == expected
    assert len(state.legal_actions()) == len(expected)  # every move listed once


def test_text_player_may_not_move_another_players_square() -> None:
    state = position(2, {"e4": "square0", "l9": "square1"})
    assert targets(state, "l9") == set()
    assert "only move their own square" in reason(state, mv("l9", "l5"))


def test_text_tile_is_placed_on_the_moved_cylinder() -> None:
    state = KLOTZ.new_game(4)
    after = state.apply(mv("d4", "d2"))
    assert layout(after)["d2"] == "cyl2@0"
    assert after.marks()[cell("d2")] == Mark("tile", "red", 0)


def test_text_tile_stays_and_only_its_owner_may_move_that_block() -> None:
    state = play(KLOTZ.new_game(4), "d4-d2")  # Red's tile now on the 2-block
    for seat in (1, 2, 3):  # Blue, Yellow, Green may not move it
        assert state.current_player == seat
        assert targets(state, "d2") == set()
        assert "carries Red's tile; only Red may move it" in reason(state, mv("d2", "d4"))
        state = state.apply(state.legal_actions()[-1])
    assert state.current_player == 0
    assert "d4" in targets(state, "d2")


def test_text_owner_may_move_owned_block_again_on_a_later_turn() -> None:
    state = play(KLOTZ.new_game(2), "d4-d2", "k11-k13", "d2-b2")
    assert layout(state)["b2"] == "cyl2@0" and "d2" not in layout(state)


def test_text_owner_may_move_tile_to_another_free_cylinder() -> None:
    state = play(KLOTZ.new_game(2), "d4-d2", "k11-k13", "h12-k12")
    assert layout(state)["k12"] == "cyl3@0"
    assert layout(state)["d2"] == "cyl2"  # the tile left the 2-block: it is free again
    assert layout(state)["k13"] == "cyl2@1"


def test_text_owner_may_move_their_square_and_the_tile_stays() -> None:
    state = position(2, {"e4": "square0", "h7": "square1", "k4": "cyl2@0"})
    after = state.apply(mv("e4", "i4"))
    assert layout(after)["k4"] == "cyl2@0"


def test_text_owned_block_stays_owned_until_the_tile_is_removed() -> None:
    # Red, Blue, Yellow: two rounds with Red moving its owned block, then Red takes the tile away.
    state = play(KLOTZ.new_game(3), "d4-d2", "k4-k2", "k11-k13", "d2-b2", "k2-m2", "k13-k11")
    assert layout(state)["b2"] == "cyl2@0"
    state = play(state, "c7-c4")
    assert layout(state)["b2"] == "cyl2" and layout(state)["c4"] == "cyl3@0"


def test_text_corner_fields_may_not_be_occupied() -> None:
    state = position(2, {**AT_HOME_2P, "a13": "cyl1", "m1": "cyl1", "a11": "cyl3"})
    assert "a14" not in targets(state, "a13") and "n1" not in targets(state, "m1")
    assert "a14" not in targets(state, "a11")
    for action in (mv("a13", "a14"), mv("m1", "n1"), mv("a11", "a14")):
        assert "is a corner field" in reason(state, action)


def test_text_corner_fields_may_not_be_traversed() -> None:
    # a12 -> b14: round the corner (a13 a14 b14) is the only way once b12 is blocked.
    state = position(2, {**AT_HOME_2P, "a12": "cyl3", "b12": "cyl1"})
    assert "b14" not in targets(state, "a12")
    assert reason(state, mv("a12", "b14"))
    assert "b14" in targets(position(2, {**AT_HOME_2P, "a12": "cyl3"}), "a12")  # via b12 b13


def test_text_inner_fields_may_not_be_occupied() -> None:
    state = position(2, {"g12": "square0", "h7": "square1", "f8": "cyl1", "j8": "cyl2"})
    assert "g8" not in targets(state, "f8")
    assert "g8" not in targets(state, "g12")  # not even Red's own square on its own start field
    assert "h8" not in targets(state, "j8")
    for action in (mv("f8", "g8"), mv("g12", "g8"), mv("j8", "h8")):
        assert "inner field" in reason(state, action)


def test_text_inner_fields_may_be_traversed() -> None:
    # f8 -> g9 is E,N through the empty g8 or N,E through f9; f9 is blocked.
    state = position(2, {"d9": "square0", "h7": "square1", "f8": "cyl2", "f9": "cyl1"})
    assert "g9" in targets(state, "f8")


def test_text_win_by_moving_the_square_into_its_own_corner() -> None:
    state = position(2, {"a10": "square0", "h7": "square1"})
    after = state.apply(mv("a10", "a14"))
    assert after.is_terminal() and after.winner == 0
    assert after.returns() == (1.0, 0.0)
    assert after.occupancy()[cell("a14")] == (Piece("square", 0, -1),)


def test_text_win_must_be_direct_exactly_four_fields_into_the_corner() -> None:
    near = position(2, {"a12": "square0", "h7": "square1"})
    assert "a14" not in targets(near, "a12")
    assert "cannot reach its corner a14 in exactly 4 steps" in reason(near, mv("a12", "a14"))
    far = position(2, {"a8": "square0", "h7": "square1"})
    assert "a14" not in targets(far, "a8")
    assert layout(far.apply(mv("a8", "a12")))["a12"] == "square0"  # passing close by is no win
    assert not far.apply(mv("a8", "a12")).is_terminal()


def test_text_game_ends_at_once_when_a_player_wins() -> None:
    state = position(3, {"a10": "square0", "h8": "square1", "h7": "square2", "c3": "cyl1"})
    after = state.apply(mv("a10", "a14"))
    assert after.is_terminal()
    assert after.legal_actions() == ()
    assert after.returns() == (1.0, 0.0, 0.0)
    assert "the game is over" in reason(after, mv("c3", "c4"))
    assert "the game is over" in reason(after, PASS)


def test_text_four_player_win_by_the_last_seat() -> None:
    state = position(4, {"g8": "square0", "h8": "square1", "h7": "square2", "e1": "square3"}, current=3)
    after = state.apply(mv("e1", "a1"))
    assert after.winner == 3 and after.returns() == (0.0, 0.0, 0.0, 1.0)


# --- K-3 movement details ------------------------------------------------------------------------
def test_K3_path_must_not_pass_an_occupied_field() -> None:
    # The 2-block loses exactly the fields whose every path crosses d5 or e4 (turn fields included):
    # d6 and f4 straight on, e5 round either corner. c5 and e3 stay reachable round the other side.
    state = position(2, {"e4": "square0", "h7": "square1", "d4": "cyl2", "d5": "cyl1"})
    assert targets(state, "d4") == ring("d4", 2) - {"d6", "f4", "e5"}
    assert "cannot reach e5" in reason(state, mv("d4", "e5"))


def test_K3_only_the_last_field_of_a_cylinder_path_may_hold_a_square() -> None:
    through = position(2, {"d9": "square0", "h7": "square1", "c9": "cyl2"}, current=1)
    assert "e9" not in targets(through, "c9")
    assert "cannot reach e9" in reason(through, mv("c9", "e9"))
    onto = position(2, {"d9": "square0", "h7": "square1", "b9": "cyl2"}, current=1)
    assert "d9" in targets(onto, "b9")


def test_K3_nothing_may_stop_on_an_inner_field() -> None:
    # By length the 3-block could end on the empty blue field h8, the square on its own start g8
    # and the 1-block on g8 too; none may.
    state = position(2, {"g12": "square0", "h7": "square1", "k8": "cyl3", "f8": "cyl1"})
    assert "h8" not in targets(state, "k8") and "g8" not in targets(state, "g12")
    assert "g8" not in targets(state, "f8")


def test_K3_cylinders_may_pass_over_empty_inner_fields() -> None:
    # Red's square is out, so g8 (Red) and h8 (Blue, absent) are empty; f9 and i9 force the paths.
    state = position(2, {"d9": "square0", "h7": "square1", "e8": "cyl3", "j8": "cyl3", "f9": "cyl1", "i9": "cyl1"})
    assert "g9" in targets(state, "e8")  # f8, g8, turn north to g9
    assert "h9" in targets(state, "j8")  # i8, h8, turn north to h9
    straight = position(2, {"d9": "square0", "h7": "square1", "f8": "cyl3"})
    assert "i8" in targets(straight, "f8")  # over both g8 and h8


def test_K3_an_occupied_inner_field_blocks_like_any_block() -> None:
    state = position(4, {"g8": "square0", "h8": "square1", "h7": "square2", "g7": "square3", "f8": "cyl3"})
    assert "i8" not in targets(state, "f8")


def test_K3_square_may_cross_its_own_empty_start_field() -> None:
    # d8 -> g9: E,E,E,N turns on g8 (Red's own empty start field); N,E,E,E is blocked at e9.
    state = position(2, {"d8": "square0", "h7": "square1", "e9": "cyl1"})
    assert "g9" in targets(state, "d8")
    assert state.apply(mv("d8", "g9")).block_at(cell("g9")).is_square


def test_K3_square_may_cross_another_colours_empty_inner_field() -> None:
    # h11 -> i8: S,S,S,E turns on h8 (Blue's field, empty with two players); E,S,S,S is blocked.
    state = position(2, {"h11": "square0", "h7": "square1", "i10": "cyl1"})
    assert "i8" in targets(state, "h11")


def test_K3_no_block_may_enter_a_corner() -> None:
    state = position(2, {**AT_HOME_2P, "a13": "cyl1", "c14": "cyl2", "n4": "cyl3"})
    assert targets(state, "a13") == {"a12", "b13"}
    assert "a14" not in targets(state, "c14")
    assert "n1" not in targets(state, "n4")


def test_K3_a_square_may_not_enter_another_colours_corner() -> None:
    # Yellow's square has the parity of Red's corner a14 and stands four fields from it.
    state = position(2, {"g8": "square0", "a10": "square1"}, current=1)
    assert "a14" not in targets(state, "a10")
    assert "a14 is a corner field" in reason(state, mv("a10", "a14"))


def test_K3_no_block_may_pass_a_corner() -> None:
    # A 2-block from b14 to a13 turns on a14 or on b13; with b13 held only the corner is left.
    state = position(2, {**AT_HOME_2P, "b14": "cyl2", "b13": "cyl1"})
    assert "a13" not in targets(state, "b14")
    assert "cannot reach a13" in reason(state, mv("b14", "a13"))
    assert "a13" in targets(position(2, {**AT_HOME_2P, "b14": "cyl2"}), "b14")


def test_K3_not_even_a_square_may_pass_its_own_corner() -> None:
    # Red's square a12 -> c14: N,N,E,E turns on a14; E,E,N,N is blocked at b12.
    state = position(2, {"a12": "square0", "h7": "square1", "b12": "cyl1"})
    assert "c14" not in targets(state, "a12")
    assert reason(state, mv("a12", "c14"))
    assert "c14" in targets(position(2, {"a12": "square0", "h7": "square1"}), "a12")


def test_K3_square_may_enter_its_own_corner_as_the_last_field_and_wins() -> None:
    # c12 -> a14: west first is blocked at b12, so north to c14, turn, west into the corner.
    state = position(2, {"c12": "square0", "h7": "square1", "b12": "cyl1"})
    assert "a14" in targets(state, "c12")
    after = state.apply(mv("c12", "a14"))
    assert after.winner == 0 and after.is_terminal()


def test_K3_square_on_its_inner_field_cannot_be_captured() -> None:
    state = KLOTZ.new_game(4)  # the 1-blocks around the centre touch all four squares
    for one_block, home in (("f8", "g8"), ("g9", "g8"), ("h9", "h8"), ("i7", "h7"), ("g6", "g7")):
        assert home not in targets(state, one_block)
        assert "inner field" in reason(state, mv(one_block, home))


def test_K3_different_paths_to_the_same_field_are_one_move() -> None:
    state = position(2, {**AT_HOME_2P, "d4": "cyl2"})
    paths = [p for p in state.block_paths(cell("d4")) if p[-1] == cell("e5")]
    assert len(paths) == 2  # north then east, east then north
    assert [a for a in state.legal_actions() if a == mv("d4", "e5")] == [mv("d4", "e5")]
    assert len(set(state.legal_actions())) == len(state.legal_actions())


# --- K-4 tiles ------------------------------------------------------------------------------------
def test_K4_a_cylinder_without_a_tile_is_free_for_every_player() -> None:
    for seat in range(3):
        state = position(3, {"g8": "square0", "h8": "square1", "h7": "square2", "d4": "cyl2"}, current=seat)
        assert targets(state, "d4") == ring("d4", 2)


def test_K4_moving_a_free_cylinder_puts_the_movers_tile_on_it() -> None:
    state = position(3, {"g8": "square0", "h8": "square1", "h7": "square2", "d4": "cyl2"}, current=1)
    assert layout(state.apply(mv("d4", "d6")))["d6"] == "cyl2@1"


def test_K4_the_tile_is_taken_from_where_it_was() -> None:
    state = position(2, {**AT_HOME_2P, "d4": "cyl2@0", "k11": "cyl2@1", "c12": "cyl3"})
    after = state.apply(mv("c12", "c9"))
    assert layout(after) == {**AT_HOME_2P, "d4": "cyl2", "k11": "cyl2@1", "c9": "cyl3@0"}
    assert after.marks().get(cell("d4")) is None
    assert after.marks()[cell("c9")] == Mark("tile", "red", 0)


def test_K4_moving_your_own_owned_cylinder_keeps_the_tile_on_it() -> None:
    state = position(2, {**AT_HOME_2P, "d4": "cyl2@0", "k11": "cyl2"})
    assert layout(state.apply(mv("d4", "f4"))) == {**AT_HOME_2P, "f4": "cyl2@0", "k11": "cyl2"}


def test_K4_a_cylinder_with_another_players_tile_cannot_be_moved() -> None:
    base = {"g8": "square0", "h8": "square1", "h7": "square2", "d4": "cyl2@1"}
    for seat, allowed in ((0, False), (1, True), (2, False)):
        state = position(3, base, current=seat)
        assert bool(targets(state, "d4")) is allowed
    yellow = position(3, base, current=2)
    assert "carries Blue's tile; only Blue may move it" in reason(yellow, mv("d4", "d6"))


def test_K4_tiles_are_invisible_to_sensors_and_shown_in_the_owners_colour() -> None:
    before = position(3, {"g8": "square0", "h8": "square1", "h7": "square2", "d4": "cyl2", "k4": "cyl3@2"})
    after = before.apply(mv("d4", "d6"))
    assert after.occupancy()[cell("d6")] == (Piece("cylinder2", None, 1),)  # no tile in the reading
    assert after.occupancy()[cell("k4")] == (Piece("cylinder3", None, 1),)
    assert after.marks()[cell("d6")] == Mark("tile", "red", 0)
    assert after.marks()[cell("k4")] == Mark("tile", "yellow", 2)


# --- K-5 passing -----------------------------------------------------------------------------------
def test_K5_a_player_with_no_legal_move_passes() -> None:
    state = position(2, full_board(2))
    assert state.legal_actions() == (PASS,)
    after = state.apply(PASS)
    assert after.current_player == 1 and not after.is_terminal()
    assert layout(after) == layout(state)


def test_K5_pass_only_when_there_is_no_legal_move() -> None:
    state = KLOTZ.new_game(4)
    assert PASS not in state.legal_actions()
    assert "only pass when you have no legal move" in reason(state, PASS)
    assert state.parse_action("pass") == PASS and state.action_to_str(PASS) == "pass"


def test_K5_every_player_passing_in_a_row_is_a_draw() -> None:
    for players in (2, 3, 4):
        state = position(players, full_board(players))
        for _ in range(players):
            assert not state.is_terminal()
            state = state.apply(PASS)
        assert state.is_terminal() and state.winner is None
        assert state.returns() == (0.5,) * players
        assert state.legal_actions() == ()


def test_K5_passes_not_in_a_row_do_not_end_the_game() -> None:
    # Three players, one gap at b14. Only Blue's own 1-block on b13 can use it (the 2-blocks around
    # cannot stop there), so Red and Yellow must pass while Blue shuffles back and forth.
    gap = full_board(3, {"b14": None, "b13": "cyl1@1", "c14": "cyl2", "a13": "cyl2", "c13": "cyl2", "b12": "cyl2"})
    state = position(3, gap)
    assert state.legal_actions() == (PASS,)
    state = state.apply(PASS)
    assert state.legal_actions() == (mv("b13", "b14"),)
    state = play(state, "b13-b14", "pass", "pass")  # passes by Red, Yellow, Red: three, not in a row
    assert not state.is_terminal()
    assert state.legal_actions() == (mv("b14", "b13"),)
    state = play(state, "b14-b13", "pass", "pass")
    assert not state.is_terminal() and state.current_player == 1  # Blue's move broke the row again


# --- K-6 endless games -------------------------------------------------------------------------------
def test_K6_max_plies_defaults_to_600() -> None:
    assert {o.name: o.default for o in KLOTZ.options} == {"max_plies": 600}
    assert KLOTZ.new_game(2).to_json()["max_plies"] == 600


def test_K6_game_is_a_draw_after_max_plies() -> None:
    state = KLOTZ.new_game(3, max_plies=3)
    for _ in range(3):
        assert not state.is_terminal()
        state = state.apply(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == (0.5, 0.5, 0.5)
    assert state.legal_actions() == ()
    assert "the game is over" in reason(state, mv("d4", "d2"))


def test_K6_passes_count_as_plies() -> None:
    gap = full_board(3, {"b14": None, "b13": "cyl1@1", "c14": "cyl2", "a13": "cyl2", "c13": "cyl2", "b12": "cyl2"})
    state = position(3, gap, ply=598)
    state = state.apply(PASS)
    assert not state.is_terminal()
    state = state.apply(mv("b13", "b14"))
    assert state.ply == 600 and state.is_terminal() and state.returns() == (0.5, 0.5, 0.5)


def test_K6_a_win_on_the_last_ply_is_a_win() -> None:
    state = position(2, {"a10": "square0", "h7": "square1"}, ply=599)
    after = state.apply(mv("a10", "a14"))
    assert after.ply == 600 and after.returns() == (1.0, 0.0)


def test_K6_max_plies_none_switches_it_off() -> None:
    state = position(2, {**AT_HOME_2P, "d4": "cyl1"}, ply=1_000_000, max_plies=None)
    assert not state.is_terminal()
    assert not state.apply(mv("d4", "d5")).is_terminal()
    assert KLOTZ.new_game(2, max_plies=None).to_json()["max_plies"] is None


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "600"])
def test_K6_max_plies_must_be_a_positive_whole_number_or_none(bad: object) -> None:
    with pytest.raises(ValueError, match="max_plies"):
        KLOTZ.new_game(2, max_plies=bad)


def test_unknown_options_are_rejected() -> None:
    with pytest.raises(ValueError, match="no option max_turns"):
        KLOTZ.new_game(2, max_turns=3)


# --- derived fact ---------------------------------------------------------------------------------
def test_derived_a_square_keeps_the_parity_of_its_field() -> None:
    state = position(2, {"e4": "square0", "h7": "square1"})
    assert all(sum(a.target) % 2 == sum(cell("e4")) % 2 for a in state.legal_actions())


# --- returns, notation, views ---------------------------------------------------------------------
def test_returns_are_zero_while_the_game_goes_on() -> None:
    for players in (2, 3, 4):
        state = KLOTZ.new_game(players)
        assert state.returns() == (0.0,) * players and not state.is_terminal()


def test_notation_is_from_dash_to_and_round_trips() -> None:
    state = KLOTZ.new_game(4)
    assert state.parse_action("g12-g9") == Move((6, 11), (6, 8))
    assert state.action_to_str(Move((6, 11), (6, 8))) == "g12-g9"
    assert state.parse_action("  d4-d2 ") == mv("d4", "d2")
    for players in (2, 3, 4):
        state = KLOTZ.new_game(players)
        for action in state.legal_actions():
            assert state.parse_action(state.action_to_str(action)) == action
    assert state.parse_action("pass") == PASS and isinstance(state.parse_action("pass"), Pass)


@pytest.mark.parametrize(
    "text",
    ["g12g9", "g12-", "-g9", "g12 - g9", "PASS", "pass g1", "z1-a1", "a15-a1", "a0-a1", "a1-o1", "", "G1-G9"],
)
def test_bad_notation_raises_notation_error_with_a_message(text: str) -> None:
    state = KLOTZ.new_game(2)
    with pytest.raises(NotationError) as caught:
        state.parse_action(text)
    assert caught.value.reason and isinstance(caught.value, IllegalAction)


def test_bad_notation_message_names_the_text_and_the_form() -> None:
    expected = r"'g12g9' is not a Klotz move \(write from-to, e.g. g12-g9, or pass\)"
    with pytest.raises(NotationError, match=expected):
        KLOTZ.new_game(2).parse_action("g12g9")
    with pytest.raises(NotationError, match="'a15' is not on this board"):
        KLOTZ.new_game(2).parse_action("a15-a1")


def test_well_formed_notation_of_an_illegal_move_parses_but_does_not_apply() -> None:
    state = KLOTZ.new_game(2)
    action = state.parse_action("a1-a2")
    assert "there is no block on a1" in reason(state, action)
    assert "is not a Klotz move" in reason(state, "d4-d2")


def test_action_to_str_rejects_what_is_not_a_klotz_action() -> None:
    with pytest.raises(NotationError):
        KLOTZ.new_game(2).action_to_str("d4-d2")


def test_occupancy_kinds_owners_and_magnets() -> None:
    occupancy = KLOTZ.new_game(4).occupancy()
    assert len(occupancy) == 28
    for seat, colour in enumerate(SEAT_COLOURS[4]):
        assert occupancy[cell(HOMES[colour])] == (Piece("square", seat, -1),)
    for fields, size in ((ONE_BLOCKS, 1), (TWO_BLOCKS, 2), (THREE_BLOCKS, 3)):
        for field in fields:
            assert occupancy[cell(field)] == (Piece(f"cylinder{size}", None, 1),)


def test_marks_show_corners_and_inner_fields_in_colours_even_for_absent_seats() -> None:
    marks = KLOTZ.new_game(2).marks()
    assert marks == {
        cell("a14"): Mark("corner", "red", 0),
        cell("n14"): Mark("corner", "blue", None),
        cell("n1"): Mark("corner", "yellow", 1),
        cell("a1"): Mark("corner", "green", None),
        cell("g8"): Mark("inner", "red", 0),
        cell("h8"): Mark("inner", "blue", None),
        cell("h7"): Mark("inner", "yellow", 1),
        cell("g7"): Mark("inner", "green", None),
    }


def test_observation_is_the_whole_position_for_every_player() -> None:
    state = play(KLOTZ.new_game(3), "d4-d2")
    for seat in range(3):
        seen = state.observation(seat)
        assert json.loads(json.dumps(seen)) == seen
        assert seen["player"] == seat
        assert seen["colours"] == ["red", "blue", "yellow"]
        assert seen["terminal"] is False and seen["returns"] == [0.0, 0.0, 0.0]
        rest = {k: v for k, v in seen.items() if k not in ("player", "colours", "terminal", "returns")}
        assert rest == state.to_json()


def test_apply_returns_a_new_state_and_leaves_the_old_one_alone() -> None:
    state = KLOTZ.new_game(2)
    before = state.to_json()
    after = state.apply(mv("d4", "d2"))
    assert state.to_json() == before and after is not state
    state.blocks.clear()  # `blocks` is a copy
    assert state.to_json() == before


def test_legal_actions_are_in_a_deterministic_order() -> None:
    first, second = KLOTZ.new_game(4).legal_actions(), KLOTZ.new_game(4).legal_actions()
    assert first == second and list(first) == sorted(first)


def test_load_game_finds_klotz() -> None:
    assert isinstance(load_game(" Klotz "), Klotz)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        load_game("chess")
