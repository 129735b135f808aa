"""Fillit: one test per sentence of the rule text (shared/rules/seeds/fillit.txt) and per ruling F-1..F-8."""

from __future__ import annotations

import json

import pytest

from controller.games import GAMES, IllegalAction, Mark, NotationError, Piece, load_game
from controller.games.fillit import (
    CHIPS,
    PHASE_PAWN_MOVED,
    PHASE_START,
    PHASE_STONE_MOVED,
    SETUPS,
    STONES,
    FillitState,
    Slide,
    StoneStep,
)
from controller.games.hexgrid import CENTRE, DIRECTIONS, negate, rotate120
from tests.games.fillit_positions import (
    GAME,
    RED_STONES,
    YELLOW_STONES,
    cell,
    chips_by_text,
    open_position,
    play,
    position,
)

CONFIGS = [("large", 2), ("large", 3), ("large", 4), ("mini", 2), ("mini", 3)]


def new(players: int = 2, board: str = "large", setup: str = "A", **options: object) -> FillitState:
    state = GAME.new_game(players=players, board=board, setup=setup, **options)
    assert isinstance(state, FillitState)
    return state


def slides(state: FillitState) -> set[str]:
    return {text for text in state.legal_action_strings() if text.startswith("p:")}


def steps(state: FillitState) -> set[str]:
    return {text for text in state.legal_action_strings() if text.startswith("s:")}


def reason(state: FillitState, text: str) -> str:
    with pytest.raises(IllegalAction) as caught:
        state.apply(state.parse_action(text))
    return caught.value.reason


# --- registry and options ----------------------------------------------------------------------
def test_fillit_is_registered() -> None:
    assert load_game("Fillit") is GAMES["fillit"]
    assert GAMES["fillit"].player_counts == (2, 3, 4)


def test_new_game_state_belongs_to_the_registered_game() -> None:
    assert new().game is GAMES["fillit"]


def test_four_players_play_on_the_large_board_only() -> None:
    with pytest.raises(ValueError, match="mini board is played by 2, 3 players, not 4"):
        new(4, "mini")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"board": "huge"}, 'board must be "large" or "mini"'),
        ({"setup": "C"}, 'setup must be "A" or "B"'),
        ({"max_turns": 0}, "max_turns must be a positive whole number"),
        ({"max_turns": True}, "max_turns must be a positive whole number"),
        ({"colours": 2}, "no option colours"),
    ],
)
def test_bad_options_are_clear_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAME.new_game(players=2, **options)


def test_option_values_are_case_insensitive() -> None:
    state = GAME.new_game(players=2, board="Mini", setup="b")
    assert isinstance(state, FillitState)
    assert (state.board, state.setup) == ("mini", "B")


# --- Components and Preparation -----------------------------------------------------------------
@pytest.mark.parametrize(("board", "players"), CONFIGS)
def test_each_player_takes_their_pawn(board: str, players: int) -> None:
    state = new(players, board)
    assert len(state.pawns) == players and len(set(state.pawns)) == players
    assert {p.owner for c, (p,) in state.occupancy().items() if p.kind == "pawn"} == set(range(players))


@pytest.mark.parametrize(
    ("board", "players", "chips"),
    [("large", 2, 25), ("large", 3, 18), ("large", 4, 25), ("mini", 2, 14), ("mini", 3, 11)],
)
def test_preparation_chip_counts_per_player_or_team(board: str, players: int, chips: int) -> None:
    # Rule text: 2p 25, 3p 18, 4p 25 per team, 2p mini 14, 3p mini 11 (F-2: the chip under the pawn counts).
    state = new(players, board)
    assert state.total_chips == CHIPS[(board, players)] == chips
    for side in range(state.side_count):
        assert state.supply[side] + state.chips_on_board(side) == chips


@pytest.mark.parametrize(
    ("board", "players", "in_hand"),
    [("large", 2, 24), ("large", 3, 17), ("mini", 2, 13), ("mini", 3, 10), ("large", 4, 23)],
)
def test_F2_supply_in_hand_is_the_english_edition_count(board: str, players: int, in_hand: int) -> None:
    # F-2: the English edition lists the chips kept in hand: the total less the chip under each pawn.
    assert set(new(players, board).supply) == {in_hand}


@pytest.mark.parametrize(("board", "players"), CONFIGS)
def test_F2_one_chip_of_the_players_colour_lies_under_each_pawn(board: str, players: int) -> None:
    state = new(players, board)
    assert state.chips == {pawn: state.side_of(seat) for seat, pawn in enumerate(state.pawns)}


def test_preparation_red_chips_for_red_yellow_team_blue_chips_for_blue_green_team() -> None:
    state = new(4)
    colours = [state.marks()[pawn].colour for pawn in state.pawns]
    assert state.seats == ("red", "blue", "yellow", "green")
    assert colours == ["red", "blue", "red", "blue"]


@pytest.mark.parametrize(("board", "players"), CONFIGS)
def test_F3_stones_per_player_or_team(board: str, players: int) -> None:
    state = new(players, board)
    expected = {("large", 2): 4, ("large", 3): 2, ("large", 4): 4, ("mini", 2): 4, ("mini", 3): 1}
    for side in range(state.side_count):
        assert sum(1 for owner in state.stones.values() if owner == side) == expected[(board, players)]
        assert STONES[(board, players)] == expected[(board, players)]


@pytest.mark.parametrize(("board", "players", "letter"), sorted(SETUPS))
def test_F4_setup_passes_the_checks(board: str, players: int, letter: str) -> None:
    # F-4: no overlaps, nothing on the centre, every pawn has at least 2 legal slides.
    state = new(players, board, letter)
    pieces = [*state.pawns, *state.stones]
    assert len(pieces) == len(set(pieces))
    assert CENTRE not in pieces
    assert all(state.grid.contains(c) for c in pieces)
    for seat in range(players):
        assert len(state.slide_paths(seat)) >= 2, f"seat {seat} has fewer than 2 slides"


@pytest.mark.parametrize(("board", "letter"), [("large", "A"), ("large", "B"), ("mini", "A"), ("mini", "B")])
def test_F4_two_player_setups_are_negated(board: str, letter: str) -> None:
    setup = SETUPS[(board, 2, letter)]
    assert setup.pawns[1] == negate(setup.pawns[0])
    assert setup.stones[1] == tuple(negate(c) for c in setup.stones[0])


@pytest.mark.parametrize(("board", "letter"), [("large", "A"), ("large", "B"), ("mini", "A"), ("mini", "B")])
def test_F4_three_player_setups_are_rotated(board: str, letter: str) -> None:
    setup = SETUPS[(board, 3, letter)]
    for seat in (1, 2):
        assert setup.pawns[seat] == rotate120(setup.pawns[seat - 1])
        assert setup.stones[seat] == tuple(rotate120(c) for c in setup.stones[seat - 1])


def test_F4_table_coordinates() -> None:
    assert SETUPS[("large", 2, "A")].pawns == ((0, -4), (0, 4))
    assert SETUPS[("large", 4, "B")].pawns == ((-2, -2), (4, -2), (2, 2), (-4, 2))
    assert SETUPS[("large", 4, "A")].stones[1] == ((3, -1), (-3, 1), (-2, 3), (2, -3))
    assert SETUPS[("mini", 2, "B")].stones[0] == ((-3, 2), (-1, -1), (0, -2), (-2, 3))
    assert SETUPS[("mini", 3, "B")].pawns[0] == (-1, -2)


def test_choose_setup_A_or_B() -> None:
    assert new(setup="A").pawns != new(setup="B").pawns
    assert new(setup="B").setup == "B"


# --- Play procedure ----------------------------------------------------------------------------
def test_seat_zero_is_the_start_player_and_seats_follow_the_colour_subset() -> None:
    assert new().current_player == 0
    assert new(2).seats == ("red", "yellow")
    assert new(3).seats == ("red", "blue", "yellow")


def test_players_take_turns_in_seat_order_red_blue_yellow_green_with_four() -> None:
    state = new(4)
    order = []
    for _ in range(5):
        order.append(state.current_player)
        turn = state.turn
        while state.turn == turn:
            state = state.apply(state.legal_actions()[0])
    assert order == [0, 1, 2, 3, 0]


def test_four_players_are_two_teams_red_yellow_against_blue_green() -> None:
    state = new(4)
    assert [state.side_of(p) for p in range(4)] == [0, 1, 0, 1]
    assert state.members(0) == (0, 2) and state.members(1) == (1, 3)


# --- Player's turn (F-5) -----------------------------------------------------------------------
def test_F5_must_move_both_pawn_and_stone_by_the_same_player() -> None:
    state = open_position()
    after_slide = play(state, "p:e3-e1")
    assert after_slide.current_player == 0 and after_slide.phase == PHASE_PAWN_MOVED
    assert slides(after_slide) == set() and steps(after_slide)
    done = play(after_slide, "s:a5-a4")
    assert done.current_player == 1 and done.phase == PHASE_START and done.turn == 1


def test_F5_either_order_is_ok() -> None:
    state = open_position()
    pawn_first = play(state, "p:e3-e1", "s:a5-a4")
    stone_first = play(state, "s:a5-a4", "p:e3-e1")
    assert pawn_first == stone_first
    assert play(state, "s:a5-a4").phase == PHASE_STONE_MOVED


def test_F5_after_the_stone_step_only_the_slide_remains() -> None:
    state = play(open_position(), "s:a5-a4")
    assert state.current_player == 0
    assert steps(state) == set() and slides(state)
    assert "already moved a stone" in reason(state, "s:a4-a3")


def test_F5_after_the_slide_any_stone_step_is_legal() -> None:
    # Once the pawn has slid, even a step that would have blocked it is allowed.
    state = position(("a1", "e9"), (("a3", "i1", "i2", "i3"), ("b1", "b2", "h6", "i5")), {"a1": 0, "e9": 1})
    after = play(state, "p:a1-a2")
    assert after.legal_actions() == after.stone_steps()
    assert "already slid" in reason(after, "p:a2-a1")


def test_F5_if_you_can_move_your_pawn_you_must_no_blocking_yourself() -> None:
    # Red's pawn on the corner a1 can slide only east (b1 and b2 hold stones). Stepping the stone on a3
    # to a2 would leave it unable to slide, so that step is illegal.
    state = position(("a1", "e9"), (("a3", "i1", "i2", "i3"), ("b1", "b2", "h6", "i5")), {"a1": 0, "e9": 1})
    assert slides(state) == {"p:a1-a2"}
    assert "s:a3-a2" not in steps(state)
    assert {"s:a3-a4", "s:a3-b3", "s:a3-b4", "s:i1-h1"} <= steps(state)
    assert "if you can move your pawn, you must (F-5)" in reason(state, "s:a3-a2")


def test_F5_if_no_order_allows_a_slide_move_only_your_stone() -> None:
    # Red's pawn on a1 is walled in by Yellow's stones and no Red stone can reach it.
    state = position(("a1", "e9"), (("h1", "i1", "i2", "i3"), ("a2", "b1", "b2", "i5")), {"a1": 0, "e9": 1})
    assert slides(state) == set()
    assert state.legal_actions() == state.stone_steps()
    after = play(state, "s:h1-g1")
    assert after.current_player == 1 and after.phase == PHASE_START and after.turn == 1
    assert "cannot move E" in reason(state, "p:a1-a2")


def test_F5_a_stone_step_that_frees_the_pawn_must_come_first() -> None:
    # Red's pawn on a1 is blocked by its own stone on a2 and Yellow's on b1, b2. Only steps of the a2
    # stone that leave the pawn a way out are legal, swapping with the pawn itself included.
    state = position(("a1", "e9"), (("a2", "i1", "i2", "i3"), ("b1", "b2", "h6", "i5")), {"a1": 0, "e9": 1})
    assert set(state.legal_action_strings()) == {"s:a2-a1", "s:a2-a3", "s:a2-b3"}
    assert "F-5" in reason(state, "s:a2-b2")  # swapping with Yellow's stone keeps a2 blocked
    swapped = play(state, "s:a2-a1")
    assert swapped.pawns[0] == cell(swapped, "a2") and swapped.phase == PHASE_STONE_MOVED
    assert slides(swapped) == {"p:a2-a5", "p:a2-g6"}


def test_F5_turn_is_two_decisions_by_the_same_current_player() -> None:
    state = open_position()
    first = play(state, "s:d8-d7")
    assert first.current_player == state.current_player == 0
    assert first.turn == 0 and first.ply == state.ply + 1


def test_game_ends_immediately_when_the_end_condition_is_met() -> None:
    # Red slides first with 2 chips left: the game is over before the stone step.
    state = open_position(supply={0: 2}, keep_clear=("d2", "c1"))
    after = play(state, "p:e3-c1")
    assert after.supply[0] == 0
    assert after.is_terminal() and after.legal_actions() == ()
    assert after.returns() == (1.0, 0.0)
    assert reason(after, "s:a5-a4") == "the game is over"


# --- Move pawn (F-6) ---------------------------------------------------------------------------
def test_pawn_moves_in_a_straight_line_in_any_of_the_6_directions() -> None:
    state = open_position()
    assert slides(state) == {"p:e3-e4", "p:e3-e1", "p:e3-a3", "p:e3-c1", "p:e3-g1", "p:e3-i3"}
    assert len(slides(state)) == len(DIRECTIONS)
    assert "straight line" in reason(state, "p:e3-d4")


def test_pawn_moves_until_the_edge_and_cannot_stop_mid_way() -> None:
    state = open_position()
    assert "cannot stop part-way: sliding NE from e3 it goes on to a3 (F-6)" in reason(state, "p:e3-b3")
    after = play(state, "p:e3-i3")
    assert after.pawns[0] == cell(after, "i3")


def test_F6_obstacle_the_centre_hex() -> None:
    state = open_position()
    assert "p:e3-e4" in slides(state)
    assert "stops on e4" in reason(state, "p:e3-e6")


@pytest.mark.parametrize("owner", [0, 1])
def test_F6_obstacle_a_stone_of_any_colour(owner: int) -> None:
    red = ("e3", "a5", "b6", "c7") if owner == 0 else RED_STONES
    yellow = ("e3", "g7", "h6", "i5") if owner == 1 else YELLOW_STONES
    state = position(("e1", "e9"), (red, yellow), {"e1": 0, "e9": 1})
    assert "p:e1-e2" in slides(state)
    assert "stops on e2" in reason(state, "p:e1-e4")


def test_F6_obstacle_another_pawn() -> None:
    state = position(("e1", "e4"), (RED_STONES, YELLOW_STONES), {"e1": 0, "e4": 1})
    assert "p:e1-e3" in slides(state)


def test_colour_chips_are_not_obstacles() -> None:
    state = position(("e1", "e9"), (RED_STONES, YELLOW_STONES), {"e1": 0, "e9": 1, "e2": 1, "e3": 0})
    assert "p:e1-e4" in slides(state)


def test_F6_a_pawn_that_cannot_move_one_hex_has_no_slide() -> None:
    state = position(("a1", "e9"), (("h1", "i1", "i2", "i3"), ("a2", "b1", "b2", "i5")), {"a1": 0, "e9": 1})
    assert state.slide_paths() == {}
    assert "at least one hex (F-6)" in reason(open_position(), "p:e3-e3")


def test_place_chips_on_all_hexes_passed_including_the_stop() -> None:
    state = open_position()
    after = play(state, "p:e3-a3")
    assert chips_by_text(after) == {"e3": 0, "e9": 1, "d3": 0, "c3": 0, "b3": 0, "a3": 0}
    assert after.supply == (state.supply[0] - 4, state.supply[1])


def test_F6_the_start_hex_gets_no_chip() -> None:
    state = open_position(chips={"e9": 1})  # no chip under Red's pawn
    after = play(state, "p:e3-c1")
    assert "e3" not in chips_by_text(after)
    assert chips_by_text(after)["c1"] == 0


def test_passed_opponent_chips_are_returned_to_their_owner() -> None:
    state = open_position(chips={"e3": 0, "e9": 1, "c3": 1, "b3": 1})
    after = play(state, "p:e3-a3")
    assert after.supply == (state.supply[0] - 4, state.supply[1] + 2)
    assert all(chips_by_text(after)[c] == 0 for c in ("d3", "c3", "b3", "a3"))


def test_F6_own_chips_on_the_path_stay() -> None:
    state = open_position(chips={"e3": 0, "e9": 1, "d3": 0, "c3": 0})
    after = play(state, "p:e3-a3")
    assert after.supply[0] == state.supply[0] - 2


def four_player_position(current: int) -> FillitState:
    # Yellow's pawn on e3; a Blue-team chip on c3.
    return position(
        ("i1", "e9", "e3", "i5"),
        (RED_STONES, ("f8", "g7", "h6", "h5")),
        {"i1": 0, "e9": 1, "e3": 0, "i5": 1, "c3": 1},
        players=4,
        current=current,
    )


def test_teams_use_the_teams_colour() -> None:
    state = four_player_position(current=2)
    after = play(state, "p:e3-a3")
    assert all(chips_by_text(after)[c] == 0 for c in ("d3", "c3", "b3", "a3"))
    assert after.supply == (state.supply[0] - 4, state.supply[1] + 1)
    assert after.marks()[cell(after, "a3")] == Mark("chip", "red", 0)


def test_F2_game_ends_when_the_supply_runs_out_part_way_along_a_slide() -> None:
    state = open_position(chips={"e3": 0, "e9": 1, "b3": 1}, supply={0: 2}, keep_clear=("d3", "c3", "a3"))
    after = play(state, "p:e3-a3")
    chips = chips_by_text(after)
    assert chips["d3"] == 0 and chips["c3"] == 0
    assert chips["b3"] == 1 and "a3" not in chips  # placing stopped when the supply ran out
    assert after.supply == (0, state.supply[1])
    assert after.pawns[0] == cell(after, "a3")  # the pawn still stands where its slide ended
    assert after.is_terminal() and after.returns() == (1.0, 0.0)


def test_F2_end_after_a_stone_first_turn() -> None:
    state = open_position(supply={0: 1}, keep_clear=("e4",))
    after = play(state, "s:a5-a4", "p:e3-e4")
    assert after.is_terminal() and after.returns() == (1.0, 0.0)


def test_end_the_player_who_used_up_all_chips_has_won_with_their_team() -> None:
    state = position(
        ("i1", "e9", "e3", "i5"),
        (RED_STONES, ("f8", "g7", "h6", "h5")),
        {"i1": 0, "e9": 1, "e3": 0, "i5": 1},
        players=4,
        current=2,
        supply={0: 1},
        keep_clear=("e4",),
    )
    after = play(state, "p:e3-e4")
    assert after.returns() == (1.0, 0.0, 1.0, 0.0)


# --- Move stone (F-7) --------------------------------------------------------------------------
def test_stone_moves_one_step_to_a_neighbouring_hex() -> None:
    state = open_position()
    assert {t for t in steps(state) if t.startswith("s:d8-")} == {"s:d8-d7", "s:d8-c7", "s:d8-e8", "s:d8-e9"}
    assert "not next to d8" in reason(state, "s:d8-d6")


def test_stone_onto_an_empty_hex_just_moves() -> None:
    after = play(open_position(), "s:d8-d7")
    assert after.stones[cell(after, "d7")] == 0 and cell(after, "d8") not in after.stones


def test_stone_swaps_with_a_stone_of_any_colour() -> None:
    state = open_position(stones=(RED_STONES, ("e8", "g7", "h6", "i5")))
    after = play(state, "s:d8-e8")
    assert after.stones[cell(after, "e8")] == 0 and after.stones[cell(after, "d8")] == 1


def test_stone_swaps_with_an_own_stone_leaving_the_position_as_it_was() -> None:
    state = open_position()
    after = play(state, "s:d8-c7")
    assert after.stones == state.stones and after.phase == PHASE_STONE_MOVED


def test_stone_swaps_with_a_pawn() -> None:
    state = open_position(chips={"e3": 0})  # Yellow's pawn on e9 without a chip
    after = play(state, "s:d8-e9")
    assert after.pawns[1] == cell(after, "d8") and after.stones[cell(after, "e9")] == 0
    assert cell(after, "d8") not in after.chips


def test_stone_swaps_with_a_chip() -> None:
    state = open_position(chips={"e3": 0, "e9": 1, "d7": 1})
    after = play(state, "s:d8-d7")
    assert after.chips[cell(after, "d8")] == 1 and cell(after, "d7") not in after.chips


def test_stone_swaps_with_a_pawn_and_its_chip() -> None:
    after = play(open_position(), "s:d8-e9")
    assert after.pawns[1] == cell(after, "d8") and after.chips[cell(after, "d8")] == 1
    assert cell(after, "e9") not in after.chips and after.stones[cell(after, "e9")] == 0


def test_stone_swap_with_the_movers_own_pawn_moves_the_slide_start() -> None:
    state = position(("b6", "e9"), (("a5", "c7", "d8", "i1"), YELLOW_STONES), {"b6": 0, "e9": 1})
    after = play(state, "s:a5-b6")
    assert after.pawns[0] == cell(after, "a5") and after.chips[cell(after, "a5")] == 0
    assert slides(after) == {"p:a5-a1", "p:a5-d5"}


def test_F7_a_stone_never_enters_the_centre() -> None:
    state = open_position(stones=(("d4", "a5", "b6", "c7"), YELLOW_STONES))
    assert "s:d4-e5" not in steps(state)
    assert "blocked centre e5 (F-1)" in reason(state, "s:d4-e5")


def test_a_player_moves_only_their_own_stones() -> None:
    state = open_position()
    assert "the stone on f8 is Yellow's" in reason(state, "s:f8-f7")
    assert "there is no stone on d1" in reason(state, "s:d1-d2")


def test_teams_move_the_team_stone() -> None:
    yellow = four_player_position(current=2)
    assert {"s:a5-a4", "s:d8-d7"} <= steps(yellow)
    assert "Blue and Green's" in reason(yellow, "s:f8-f7")
    green = four_player_position(current=3)
    assert "s:f8-f7" in steps(green) and "s:a5-a4" not in steps(green)


def test_F7_a_stone_never_shares_a_hex_with_a_chip() -> None:
    state = open_position(chips={"e3": 0, "e9": 1, "d7": 1})
    for action in state.stone_steps():
        after = state.apply(action)
        assert not set(after.stones) & set(after.chips)


# --- F-1: coordinates and notation --------------------------------------------------------------
def test_F1_cells_of_both_boards() -> None:
    assert len(GAME.cells(new())) == 61
    assert len(GAME.cells(new(board="mini"))) == 37


def test_F1_notation_of_each_board() -> None:
    mini = new(board="mini")
    assert GAME.format_cell(CENTRE) == "e5"
    assert mini.game.format_cell(CENTRE) == "d4"
    assert mini.game.parse_cell("g4") == (0, 3)
    assert mini.action_to_str(Slide((0, -3), (3, -3))) == "p:a1-a4"
    assert new().action_to_str(Slide((0, -4), (4, -4))) == "p:a1-a5"


def test_F1_nothing_ever_enters_the_centre() -> None:
    state = open_position()
    for action in state.legal_actions():
        assert CENTRE not in state.apply(action).occupancy()


# --- Notation ----------------------------------------------------------------------------------
def test_action_notation() -> None:
    state = open_position()
    assert state.action_to_str(StoneStep(cell(state, "d8"), cell(state, "d7"))) == "s:d8-d7"
    assert state.parse_action(" p:e3-a3 ") == Slide(cell(state, "e3"), cell(state, "a3"))


@pytest.mark.parametrize("text", ["e3-a3", "x:e3-a3", "p:e3", "p:e3-j3", "s:d8-d7-d6", "P:e3-a3"])
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        open_position().parse_action(text)


def test_foreign_values_are_neither_notation_nor_legal() -> None:
    with pytest.raises(NotationError):
        open_position().action_to_str("pass")
    with pytest.raises(IllegalAction, match="'pass' is not a Fillit action"):
        open_position().apply("pass")


# --- F-8: endless games ------------------------------------------------------------------------
def test_F8_max_turns_counts_whole_turns_and_the_fewest_chips_wins() -> None:
    state = new(max_turns=1)
    state = play(state, "p:a1-a3")
    assert not state.is_terminal()
    state = state.apply(state.legal_actions()[0])
    assert state.is_terminal() and state.turn == 1
    assert state.supply[0] < state.supply[1] and state.returns() == (1.0, 0.0)


def test_F8_equal_supplies_draw() -> None:
    state = open_position(turn=300)
    assert state.is_terminal() and state.returns() == (0.5, 0.5) and state.legal_actions() == ()


def test_F8_three_players_tied_for_fewest_share_the_draw() -> None:
    state = position(
        ("a1", "i1", "e9"),
        (("d2", "b4"), ("h1", "f4"), ("e6", "g7")),
        {"a1": 0, "i1": 1, "e9": 2, "c3": 0, "g3": 1},
        players=3,
        turn=300,
    )
    assert state.supply == (16, 16, 17)
    assert state.returns() == (0.5, 0.5, 0.0)


def test_F8_team_with_fewest_chips_wins_at_the_limit() -> None:
    state = position(
        ("i1", "e9", "e3", "i5"),
        (RED_STONES, ("f8", "g7", "h6", "h5")),
        {"i1": 0, "e9": 1, "e3": 0, "i5": 1, "c3": 1},
        players=4,
        turn=300,
    )
    assert state.returns() == (0.0, 1.0, 0.0, 1.0)


def test_F8_max_turns_none_switches_the_limit_off() -> None:
    state = open_position(turn=10_000, max_turns=None)
    assert not state.is_terminal()
    assert new(max_turns=None).to_json()["max_turns"] is None


# --- Physical view -----------------------------------------------------------------------------
def test_occupancy_pawns_plus_stones_minus_and_no_chips() -> None:
    state = new()
    occupancy = state.occupancy()
    assert occupancy[state.pawns[0]] == (Piece("pawn", 0, 1),)
    assert occupancy[cell(state, "d1")] == (Piece("stone", 0, -1),)
    assert len(occupancy) == 2 + 8


def test_a_signed_sensor_sees_a_stone_pawn_swap() -> None:
    state = open_position()
    after = play(state, "s:d8-e9")
    sign = {c: pieces[0].magnet for c, pieces in state.occupancy().items()}
    sign_after = {c: pieces[0].magnet for c, pieces in after.occupancy().items()}
    d8, e9 = cell(state, "d8"), cell(state, "e9")
    assert (sign[d8], sign[e9]) == (-1, 1) and (sign_after[d8], sign_after[e9]) == (1, -1)


def test_four_player_team_stones_are_owned_by_the_team_colours_seat() -> None:
    state = new(4)
    owners = {p.owner for pieces in state.occupancy().values() for p in pieces if p.kind == "stone"}
    assert owners == {0, 1}


def test_marks_show_chips_in_their_owners_colours_and_the_blocked_centre() -> None:
    state = play(new(3), "p:a1-a5")
    marks = state.marks()
    assert marks[CENTRE] == Mark("blocked", "white")
    assert marks[cell(state, "a5")] == Mark("chip", "red", 0)
    assert marks[state.pawns[1]] == Mark("chip", "blue", 1)
    assert marks[state.pawns[2]] == Mark("chip", "yellow", 2)
    assert set(marks) == {CENTRE, *state.chips}


def test_observation_is_json_and_hides_nothing() -> None:
    state = new(4)
    seen = state.observation(3)
    json.dumps(seen)
    assert seen["player"] == 3 and seen["side"] == 1 and seen["side_colours"] == ["red", "blue"]
    assert seen["chips"] == state.to_json()["chips"] and seen["terminal"] is False


# --- Saved states ------------------------------------------------------------------------------
@pytest.mark.parametrize(("board", "players"), CONFIGS)
def test_json_round_trip_of_new_games(board: str, players: int) -> None:
    state = new(players, board, "B")
    again = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.to_json() == state.to_json()
    assert again.game is state.game


def damaged(**changes: object) -> dict[str, object]:
    data = new().to_json()
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (damaged(game="klotz"), "not 'fillit'"),
        (damaged(pawns=["e5", "i5"]), r"pawns\[0\]: nothing may stand on the centre e5"),
        (damaged(pawns=["a1"]), "one hex per player"),
        (damaged(pawns=["a1", "z9"]), r"pawns\[1\]"),
        (damaged(supply=[24, 23]), r"supply\[1\] is 23 with 1 chips on the board; they must add up to 25"),
        (damaged(current_player=2), "not a seat"),
        (damaged(phase="middle"), "phase must be one of"),
        (damaged(max_turns=-3), "max_turns"),
        (damaged(board="mini"), r"pawns\[1\]"),
        (damaged(players=4), "one hex per player"),
        (damaged(stones=[{"cell": "d1", "owner": 0}]), "side 0 has 1 stones; F-3 gives it 4"),
        (damaged(stones=[{"cell": "d1", "owner": 5}]), r"stones\[0\]: owner 5"),
        (
            damaged(chips=[{"cell": "a1", "owner": 0}, {"cell": "i5", "owner": 1}, {"cell": "d1", "owner": 0}]),
            "a chip under the stone on d1",
        ),
        (damaged(chips=[{"cell": "a1"}]), r"chips\[0\]: saved state lacks the field 'owner'"),
    ],
)
def test_damaged_json_gives_a_clear_error(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAME.state_from_json(data)


def test_json_rejects_a_stone_moved_phase_whose_pawn_cannot_slide() -> None:
    walled = position(("a1", "e9"), (("h1", "i1", "i2", "i3"), ("a2", "b1", "b2", "i5")), {"a1": 0, "e9": 1})
    data = walled.to_json()
    data["phase"] = "stone-moved"
    with pytest.raises(ValueError, match="cannot slide"):
        GAME.state_from_json(data)


def test_mini_json_restores_mini_notation() -> None:
    state = play(new(3, "mini"), "p:a1-a4")
    again = GAME.state_from_json(state.to_json())
    assert again.game.format_cell(CENTRE) == "d4" and again == state
