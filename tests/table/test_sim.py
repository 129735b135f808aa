"""The simulated board: readings per sensor model, seeded noise, stuck sensors, captured frames,
input queue, and virtual hands whose plans carry out exactly the intended action."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import Piece
from controller.games.footprint import footprint
from controller.games.klotz import Move
from hal.profile import load_profile
from hal.protocols import InputEvent, InputSource, PixelSink, SensorSource
from sim.board import SimBoard, SimInputs, SimPixels
from sim.hands import CALM, HandStep, HandStyle, VirtualHands
from sim.noise import NOISE_LEVELS, Noise, NoiseProfile, noise_profile
from tests.table.klotz_positions import CAPTURE_SETUP, KLOTZ, position, random_position

SQUARE14 = load_profile("square14")
CELL = KLOTZ.parse_cell
CYL = Piece("cylinder1", None, 1)
SQUARE = Piece("square", 0, -1)
STONE = Piece("stone", None, -1)


def channel(cell: str) -> int:
    return SQUARE14.channel_of(cell)


# --- readings --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("model", "want"),
    [
        ("binary", {"a1": 1, "b1": 1, "c1": 1, "d1": 0}),
        ("count", {"a1": 1, "b1": 1, "c1": 2, "d1": 0}),
        ("signed", {"a1": 1, "b1": -1, "c1": -1, "d1": 0}),
        ("signed_count", {"a1": 1, "b1": -1, "c1": -2, "d1": 0}),
    ],
)
def test_readings_follow_the_sensor_model(model: str, want: dict[str, int]) -> None:
    board = SimBoard(SQUARE14, model)
    board.place(CELL("a1"), [CYL])
    board.place(CELL("b1"), [SQUARE])
    board.place(CELL("c1"), [STONE, CYL])
    readings = board.scan()
    assert readings == board.true_readings()
    assert {field: readings[channel(field)] for field in want} == want
    assert sum(1 for value in readings if value) == 3


def test_the_profile_model_is_the_default() -> None:
    assert SimBoard(SQUARE14).model_name == "binary"


def test_lift_takes_the_top_pieces_and_lift_piece_a_particular_one() -> None:
    board = SimBoard(SQUARE14, "signed")
    board.place(CELL("e5"), [SQUARE, CYL])
    assert board.lift(CELL("e5")) == [CYL]
    assert board.scan()[channel("e5")] == -1
    board.place(CELL("e5"), [CYL])
    assert board.lift_piece(CELL("e5"), SQUARE) == SQUARE
    assert board.occupancy() == {CELL("e5"): (CYL,)}
    assert board.scan()[channel("e5")] == 1
    board.lift(CELL("e5"))
    assert board.occupancy() == {} and board.scan()[channel("e5")] == 0


def test_board_errors_are_clear() -> None:
    board = SimBoard(SQUARE14)
    with pytest.raises(ValueError, match="nothing to lift on e5: the field is empty"):
        board.lift(CELL("e5"))
    with pytest.raises(ValueError, match="no square on"):
        board.lift_piece(CELL("e5"), SQUARE)
    with pytest.raises(ValueError, match="o1 is not a field of board square14"):
        board.place((14, 0), [CYL])


def test_load_puts_a_whole_position_down_without_bounce() -> None:
    board = SimBoard(SQUARE14, "signed", "high", seed=3)
    board.noise = Noise(NoiseProfile(bounce_ms=50, flicker=0.0, drop=0.0), 3)
    state = KLOTZ.new_game(players=4)
    board.place(CELL("a2"), [CYL])
    board.load(state.occupancy())
    assert board.occupancy() == state.occupancy()
    expected = [0] * 196
    for cell, pieces in state.occupancy().items():
        expected[SQUARE14.channel_of(KLOTZ.format_cell(cell))] = pieces[0].magnet
    assert board.scan() == tuple(expected)


def test_the_sim_implements_the_hal_protocols() -> None:
    board = SimBoard(SQUARE14)
    assert isinstance(board, SensorSource) and board.channels == 196
    assert isinstance(SimPixels(201, board), PixelSink)
    assert isinstance(SimInputs(), InputSource)


# --- noise -----------------------------------------------------------------------------------------
def scans(level: str, seed: int, count: int = 400) -> list:
    board = SimBoard(SQUARE14, "binary", level, seed)
    board.load(KLOTZ.new_game(players=4).occupancy())
    out = []
    for now in range(0, count * 10, 10):
        board.now = now
        if now % 500 == 0:  # a piece goes up and down now and then, so bounce happens too
            field = CELL("e5")
            board.lift(field) if field in board.pieces else board.place(field, [CYL])
        out.append(board.scan())
    return out


@pytest.mark.parametrize("level", ["none", "low", "high", "rough"])
def test_noise_is_deterministic_per_seed(level: str) -> None:
    assert scans(level, 5) == scans(level, 5)


def test_noise_levels_differ_and_depend_on_the_seed() -> None:
    clean = scans("none", 5)
    assert all(scan is not None for scan in clean)
    assert scans("high", 5) != clean
    assert scans("high", 5) != scans("high", 6)


def test_no_noise_reads_the_truth_every_scan() -> None:
    board = SimBoard(SQUARE14, "count")
    board.place(CELL("e5"), [CYL, CYL])
    for now in range(0, 200, 10):
        board.now = now
        assert board.scan() == board.true_readings()


def test_high_noise_drops_and_flickers_at_about_its_rates() -> None:
    board = SimBoard(SQUARE14, "binary", "high", seed=11)
    truth = board.true_readings()
    results = []
    for now in range(0, 20_000, 10):
        board.now = now
        results.append(board.scan())
    dropped = sum(1 for scan in results if scan is None)
    flickered = sum(1 for scan in results if scan is not None and scan != truth)
    assert 0.01 * len(results) < dropped < 0.04 * len(results)
    assert 0.03 * len(results) < flickered < 0.08 * len(results)
    assert all(sum(scan) <= 1 for scan in results if scan is not None)  # one channel per flicker


def test_bounce_toggles_between_old_and_new_only_inside_the_window() -> None:
    board = SimBoard(SQUARE14, "binary", seed=2)
    board.noise = Noise(NoiseProfile(bounce_ms=30, flicker=0.0, drop=0.0), 2)
    board.now = 1000
    board.place(CELL("e5"), [CYL])
    seen = []
    for now in range(1000, 1100, 2):
        board.now = now
        seen.append((now, board.scan()[channel("e5")]))
    assert all(value in (0, 1) for _, value in seen)
    assert all(value == 1 for now, value in seen if now >= 1030)


def test_a_rough_board_goes_silent_for_whole_outages() -> None:
    """The rough mix is the high one plus scanner outages: runs of lost scans 100-600 ms long, about
    one every five seconds, where the high mix loses single scans only."""

    def silences(level: str) -> list[int]:
        board = SimBoard(SQUARE14, "binary", level, seed=4)
        runs, run = [], 0
        for now in range(0, 60_000, 10):
            board.now = now
            if board.scan() is None:
                run += 10
            elif run:
                runs.append(run)
                run = 0
        return runs

    rough, high = silences("rough"), silences("high")
    outages = [run for run in rough if run >= 100]
    assert 5 <= len(outages) <= 25 and max(outages) <= 620
    assert max(high) < 100


def test_noise_profiles_by_name() -> None:
    assert noise_profile("none") == NoiseProfile(0, 0.0, 0.0)
    assert set(NOISE_LEVELS) == {"none", "low", "high", "rough"}
    with pytest.raises(ValueError, match=r"unknown noise level 'loud' \(levels: none, low, high, rough\)"):
        SimBoard(SQUARE14, noise="loud")


def test_flicker_turns_a_reading_on_or_off() -> None:
    assert Noise.flickered(0) == 1 and Noise.flickered(1) == 0 and Noise.flickered(-1) == 0


def test_a_stuck_channel_reads_its_value_whatever_stands_there() -> None:
    board = SimBoard(SQUARE14, "binary")
    board.stick(CELL("e5"), 1)
    assert board.scan()[channel("e5")] == 1 and board.true_readings()[channel("e5")] == 0
    board.place(CELL("e6"), [CYL])
    board.stick(CELL("e6"), 0)
    assert board.scan()[channel("e6")] == 0


# --- pixels and inputs -----------------------------------------------------------------------------
def test_sim_pixels_check_the_frame_size_and_keep_every_frame_with_its_time() -> None:
    board = SimBoard(SQUARE14)
    pixels = SimPixels(201, board)
    assert pixels.size == 201 and pixels.last is None
    with pytest.raises(ValueError, match="frame has 200 colours; the strip has 201 LEDs"):
        pixels.show([(0, 0, 0)] * 200)
    board.now = 70
    pixels.show([(1, 2, 3)] * 201)
    assert pixels.frames == [(70, ((1, 2, 3),) * 201)] and pixels.last == ((1, 2, 3),) * 201


def test_sim_inputs_queue_events_in_order() -> None:
    inputs = SimInputs()
    assert inputs.poll() == []
    inputs.push("button", "confirm")
    inputs.push("declare", "g12-f10")
    assert inputs.poll() == [InputEvent("button", "confirm"), InputEvent("declare", "g12-f10")]
    assert inputs.poll() == []


def test_input_events_are_validated() -> None:
    with pytest.raises(ValueError, match="unknown input event kind 'knob'"):
        InputEvent("knob", "1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a button event needs a non-empty text value"):
        InputEvent("button", " ")
    for seat in (-1, True, "1"):
        with pytest.raises(ValueError, match="a declare event's seat is a seat number"):
            InputEvent("declare", "g12-f10", seat)  # type: ignore[arg-type]
    assert InputEvent("declare", "g12-f10", 2).seat == 2 and InputEvent("card", "C-E").seat is None


# --- virtual hands ---------------------------------------------------------------------------------
def replay(before: dict, steps: list[HandStep], supply: Counter | None = None, leaving: Counter | None = None) -> dict:
    """Carry out the steps on a plain board: every lifted piece must be there, every placed piece held
    (or arriving from `supply`, off the board), the steps go forward in time, and the hand ends
    holding just the pieces `leaving` the board."""
    board = {cell: list(pieces) for cell, pieces in before.items()}
    hand = Counter(supply or {})
    last = 0
    for step in steps:
        assert step.at >= last, "steps go forward in time"
        last = step.at
        for piece in step.pieces:
            if step.op == "lift":
                stack = board[step.cell]
                del stack[len(stack) - 1 - stack[::-1].index(piece)]  # the topmost such piece
                hand[piece] += 1
            else:
                assert hand[piece] > 0, f"{piece} placed on {step.cell} without being held"
                hand[piece] -= 1
                board.setdefault(step.cell, []).append(piece)
    assert +hand == Counter(leaving or {}), "the hand ends holding only the pieces that leave the board"
    return {cell: tuple(stack) for cell, stack in board.items() if stack}


def on_board(cell: tuple[int, int]) -> bool:
    return 0 <= cell[0] < 14 and 0 <= cell[1] < 14


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from([2, 3, 4]),
    plies=st.integers(0, 40),
    pick=st.integers(0, 10_000),
    hand_seed=st.integers(0, 10_000),
)
def test_hands_turn_before_into_after_for_random_klotz_moves(
    seed: int, players: int, plies: int, pick: int, hand_seed: int
) -> None:
    state = random_position(seed, players, plies)
    if state.is_terminal():
        return
    action = state.legal_actions()[pick % len(state.legal_actions())]
    before, after = state.occupancy(), state.apply(action).occupancy()
    steps = VirtualHands(hand_seed).plan(before, after, on_board)
    assert replay(before, steps) == after
    if isinstance(action, Move):
        assert steps, "a visible move needs hands"


@pytest.mark.parametrize("hand_seed", range(8))
@pytest.mark.parametrize("victim_first", [0.0, 1.0])
def test_hands_carry_out_a_capture_with_the_victim_home_first_or_last(hand_seed: int, victim_first: float) -> None:
    red_moved = position(2, 0, CAPTURE_SETUP).apply(Move(CELL("g8"), CELL("g12")))
    capture = Move(CELL("f12"), CELL("g12"))
    before, after = red_moved.occupancy(), red_moved.apply(capture).occupancy()
    style = HandStyle(victim_first=victim_first)
    steps = VirtualHands(hand_seed, style).plan(before, after, on_board)
    assert replay(before, steps) == after
    home = [i for i, step in enumerate(steps) if step.op == "place" and step.cell == CELL("g8")]
    lands = [i for i, step in enumerate(steps) if step.op == "place" and step.cell == CELL("g12")]
    assert len(home) == 1
    if victim_first:
        assert home[0] < lands[-1]
    else:
        assert home[0] > lands[-1]


def test_calm_hands_only_lift_and_place() -> None:
    state = KLOTZ.new_game(players=4)
    move = Move(CELL("g12"), CELL("f10"))
    for seed in range(20):
        steps = VirtualHands(seed, CALM).plan(state.occupancy(), state.apply(move).occupancy(), on_board)
        assert [(step.op, KLOTZ.format_cell(step.cell)) for step in steps] == [("lift", "g12"), ("place", "f10")]
        assert steps[0].at >= CALM.think_ms[0]


def test_hands_are_deterministic_per_seed() -> None:
    state = KLOTZ.new_game(players=4)
    move = Move(CELL("g12"), CELL("f10"))
    before, after = state.occupancy(), state.apply(move).occupancy()
    plans = [VirtualHands(seed).plan(before, after, on_board) for seed in (4, 4, 5)]
    assert plans[0] == plans[1]
    assert any(VirtualHands(seed).plan(before, after, on_board) != plans[0] for seed in range(5, 30))


def test_habits_show_up_across_seeds() -> None:
    state = KLOTZ.new_game(players=4)
    move = Move(CELL("g12"), CELL("f10"))
    before, after = state.occupancy(), state.apply(move).occupancy()
    habits = Counter()
    for seed in range(200):
        steps = VirtualHands(seed).plan(before, after, on_board)
        cells = [KLOTZ.format_cell(step.cell) for step in steps if step.op == "place"]
        habits["hesitate"] += cells[0] == "g12"
        habits["other field"] += any(cell not in ("g12", "f10") for cell in cells)
        assert cells[-1] == "f10"
    assert habits["hesitate"] > 0 and habits["other field"] > 0


PIECES = [Piece("a", 0), Piece("b", 1, -1), Piece("c", 2), Piece("d", None)]
FIELDS = [(x, 0) for x in range(5)]


@st.composite
def rearrangements(draw: st.DrawFn) -> tuple[dict, dict]:
    """Distinct pieces on a few fields before and after: moves, swaps, chains, cycles, stacks,
    pieces entering or leaving the board."""
    count = draw(st.integers(1, len(PIECES)))
    pieces = PIECES[:count]
    spots = st.sampled_from([*FIELDS, None])
    before: dict = {}
    after: dict = {}
    for piece in pieces:
        start, end = draw(spots), draw(spots)
        if start is not None:
            before.setdefault(start, []).append(piece)
        if end is not None:
            after.setdefault(end, []).append(piece)
    return ({c: tuple(p) for c, p in before.items()}, {c: tuple(p) for c, p in after.items()})


@settings(max_examples=150, deadline=None)
@given(case=rearrangements(), hand_seed=st.integers(0, 1000))
def test_hands_turn_any_rearrangement_into_the_after_position(case: tuple[dict, dict], hand_seed: int) -> None:
    before, after = case
    moves = footprint(before, after).moves
    arriving = Counter(move.piece for move in moves if move.origin is None)
    leaving = Counter(move.piece for move in moves if move.target is None)
    steps = VirtualHands(hand_seed).plan(before, after, lambda cell: cell in FIELDS)
    result = replay(before, steps, arriving, leaving)
    assert {c: Counter(p) for c, p in result.items()} == {c: Counter(p) for c, p in after.items()}


def test_on_a_hex_board_a_slip_of_the_hand_lands_on_one_of_the_six_neighbours() -> None:
    from controller.games.hexgrid import HexGrid
    from sim.backends import board_neighbours
    from sim.hands import HandStyle

    grid = HexGrid(4)
    neighbours = board_neighbours(load_profile("hex61"))
    assert neighbours is not None and board_neighbours(load_profile("square14")) is None
    pawn = Piece("pawn", 0, 1)
    before = {(0, -4): (pawn,)}
    after = {(0, -1): (pawn,)}
    always_slip = HandStyle(hesitate=0.0, slide=0.0, wrong_field=1.0)
    wrong = set()
    for seed in range(40):
        steps = VirtualHands(seed, always_slip, neighbours).plan(before, after, grid.contains)
        wrong |= {step.cell for step in steps if step.op == "place" and step.cell != (0, -1)}
    assert wrong <= set(grid.neighbours((0, -1)))
    assert len(wrong) > 4  # more than a square board's four directions are used
