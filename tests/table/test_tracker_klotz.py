"""Move inference on Klotz (docs/tracker.md), scripted lift/place scenarios on every sensor model.

Time is virtual: the simulated board is scanned every 10 ms and the tracker only ever sees those
scans, so every time asserted here is a scan time, never a wall-clock time.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from controller.games import Action, Piece, State
from controller.games.klotz import PASS, KlotzState, Move
from controller.table.board import BoardMap, board_map
from controller.table.tracker import SensorFault, Tracker, TrackerConfig, TrackerOutput
from controller.terminal.physical import SCAN_MS
from hal.profile import load_profile
from hal.protocols import InputEvent
from tests.table.klotz_positions import CAPTURE_SETUP, KLOTZ, blocked_position, position
from tests.table.scripted import ScriptedTable

SQUARE14 = load_profile("square14")
CELL = KLOTZ.parse_cell
MODELS = ["binary", "count", "signed"]
FOUR = KLOTZ.new_game(players=4)
DEFAULT = TrackerConfig()


move = Move.parse  # the notation, as the move prints it


def fields(hints: dict) -> dict[str, str]:
    return {KLOTZ.format_cell(cell): kind for cell, kind in hints.items()}


class Table(ScriptedTable):
    """The square14 board with Klotz on it, driven by the test."""

    def __init__(
        self,
        state: State = FOUR,
        model: str = "binary",
        config: TrackerConfig | None = None,
        set_up: bool = True,
        noise: str = "none",
    ) -> None:
        super().__init__(KLOTZ, state, SQUARE14, model, config, set_up, noise)

    def lift(self, field: str) -> list[Piece]:
        return self.sim.lift(CELL(field))

    def carry(self, origin: str, *targets: str, dwell: int = 100) -> None:
        """Lift the piece on `origin` and put it on each target in turn, `dwell` ms on each but the last."""
        pieces = self.lift(origin)
        self.run(dwell)
        for index, target in enumerate(targets):
            self.place(target, pieces)
            if index < len(targets) - 1:
                self.run(dwell)
                pieces = self.lift(target)
                self.run(dwell)

    def commits(self, start: int = 0) -> list[tuple[int, str]]:
        return self.timed_commits(start)


def capture_table(model: str) -> Table:
    """Red has just moved its square g8-g12 (committed); Yellow may capture it from f12."""
    table = Table(position(2, 0, CAPTURE_SETUP), model)
    table.carry("g8", "g12")
    table.run(400)
    assert [text for _, text in table.commits()] == ["g8-g12"]
    return table


# --- plain moves -----------------------------------------------------------------------------------
@pytest.mark.parametrize("model", MODELS)
def test_plain_move_commits_exactly_once_after_settle(model: str) -> None:
    table = Table(model=model)
    pieces = table.lift("g12")
    table.run(200)
    placed = table.now
    table.place("f10", pieces)
    table.run(1500)
    assert table.commits() == [(placed + DEFAULT.settle_ms, "g12-f10")]
    assert table.state.block_at(CELL("f10")).player == 0  # K-4: Red's tile on the moved block
    assert table.state.current_player == 1 and table.state.ply == 1
    assert table.output.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_acknowledgement_appears_as_soon_as_the_position_is_debounced(model: str) -> None:
    table = Table(model=model)
    table.carry("g12", "f10")
    placed = table.now
    table.run(300)
    before = [out for at, out in table.since(placed) if at < placed + DEFAULT.debounce_ms]
    assert before and all(out.display.mode == "moving" and out.display.acknowledged is None for out in before)
    acks = [(at, out) for at, out in table.since(placed) if out.display.mode == "acknowledged"]
    first_at, first = acks[0]
    assert first_at == placed + DEFAULT.debounce_ms
    assert first.display.acknowledged == move("g12-f10")
    assert fields(first.display.hints) == {"f10": "destination"}
    assert first.display.shown.block_at(CELL("f10")) is not None and first.display.state is FOUR  # provisional only
    assert all(out.happened.committed == () for _, out in acks)
    assert acks[-1][0] == placed + DEFAULT.settle_ms - SCAN_MS


@pytest.mark.parametrize("model", MODELS)
def test_a_piece_with_a_single_destination_commits_after_the_settle_time(model: str) -> None:
    # The 1-block on f7 can only go to e7; still, a piece touched down may be lifted again (a graze),
    # so the board commits only once it was left alone for the settle time.
    table = Table(model=model)
    table.carry("f7", "e7")
    placed = table.now
    table.run(500)
    assert table.commits() == [(placed + DEFAULT.settle_ms, "f7-e7")]


@pytest.mark.parametrize("model", MODELS)
def test_lift_and_put_back_commits_nothing(model: str) -> None:
    table = Table(model=model)
    start = table.now
    pieces = table.lift("g12")
    out = table.run(500)
    assert out.display.mode == "moving" and fields(out.display.hints)["g12"] == "origin"
    table.place("g12", pieces)
    out = table.run(3000)
    assert out.display.mode == "idle" and out.display.hints == {}
    assert table.commits() == [] and table.state is FOUR
    assert table.modes(start) == ["idle", "moving", "idle"]


@pytest.mark.parametrize("model", MODELS)
def test_sliding_across_fields_commits_only_the_final_move(model: str) -> None:
    # f9 may go to f10 or e9; the hand brushes f10 (a legal destination), then e10, and ends on e9.
    table = Table(model=model)
    start = table.now
    table.carry("f9", "f10", "e10", "e9", dwell=100)
    table.run(1000)
    assert [text for _, text in table.commits()] == ["f9-e9"]
    acknowledged = [out.display.acknowledged for _, out in table.since(start) if out.display.acknowledged is not None]
    assert acknowledged[0] == move("f9-f10") and acknowledged[-1] == move("f9-e9")  # the ack follows the piece


@pytest.mark.parametrize("model", MODELS)
def test_wrong_field_then_correction_commits_the_correction(model: str) -> None:
    table = Table(model=model)
    table.carry("g12", "g10", "f10", dwell=150)  # g10 is two fields away: not a move of the 3-block
    table.run(1000)
    assert [text for _, text in table.commits()] == ["g12-f10"]


@pytest.mark.parametrize("model", MODELS)
def test_a_legal_wrong_field_left_before_settle_is_not_committed(model: str) -> None:
    table = Table(model=model)
    table.carry("g12", "e11", "f10", dwell=150)  # e11 is a legal destination, left after 150 ms
    table.run(1000)
    assert [text for _, text in table.commits()] == ["g12-f10"]
    assert move("g12-e11") in {out.display.acknowledged for _, out in table.log}


# --- captures --------------------------------------------------------------------------------------
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("victim_first", [True, False], ids=["victim-home-first", "victim-home-last"])
def test_capture_commits_whichever_piece_moves_first(model: str, victim_first: bool) -> None:
    table = capture_table(model)
    start = table.now
    if victim_first:
        # Red's square back on g8 and g12 empty is the position before Red's move: no take-back.
        table.carry("g12", "g8")
        table.run(300)
        table.carry("f12", "g12")
    else:
        cylinder = table.lift("f12")
        table.run(100)
        square = table.lift("g12")
        table.run(50)
        table.place("g12", cylinder)
        table.run(300)
        table.place("g8", square)
    table.run(3000)
    assert [text for _, text in table.commits(start)] == ["f12-g12"]
    assert table.took_back() == 0
    assert ("takeback" in table.modes(start)) is victim_first  # passed through, never taken
    final = table.state
    assert final.ply == 2 and final.block_at(CELL("g12")).player == 1
    assert final.block_at(CELL("g8")).is_square and final.block_at(CELL("g8")).player == 0


@pytest.mark.parametrize("model", MODELS)
def test_lifted_hints_show_origin_destinations_and_capture(model: str) -> None:
    table = capture_table(model)
    table.lift("f12")
    out = table.run(100)
    assert out.display.mode == "moving"
    assert fields(out.display.hints) == {
        "f12": "origin",
        "e12": "destination",
        "f11": "destination",
        "f13": "destination",
        "g12": "capture",
    }


@pytest.mark.parametrize("model", MODELS)
def test_lifted_hints_match_the_legal_destinations(model: str) -> None:
    table = Table(model=model)
    table.lift("c7")
    hints = fields(table.run(100).display.hints)
    destinations = {KLOTZ.format_cell(cell) for cell in FOUR.block_destinations(CELL("c7"))}
    assert hints == {"c7": "origin", **{field: "destination" for field in destinations}}


@pytest.mark.parametrize("model", MODELS)
def test_lifting_a_piece_the_player_may_not_move_lights_nothing(model: str) -> None:
    table = Table(model=model)
    table.lift("h8")  # Blue's square; Red is on turn
    out = table.run(100)
    assert out.display.mode == "moving" and out.display.hints == {}


# --- guidance --------------------------------------------------------------------------------------
@pytest.mark.parametrize("model", MODELS)
def test_an_illegal_move_gets_guidance_and_no_commit(model: str) -> None:
    table = Table(model=model)
    table.carry("g12", "g10")
    placed = table.now
    table.run(3000)
    moving = [out for at, out in table.since(placed) if at < placed + DEFAULT.guide_after_ms]
    guidance = [(at, out) for at, out in table.since(placed) if out.display.mode == "guidance"]
    assert all(out.display.mode == "moving" for out in moving)
    assert guidance[0][0] == placed + DEFAULT.guide_after_ms
    assert fields(guidance[0][1].display.hints) == {"g10": "remove", "g12": "place"}
    assert table.commits() == []
    table.carry("g10", "g12")
    assert table.run(200).display.mode == "idle" and table.state is FOUR


@pytest.mark.parametrize("model", MODELS)
def test_guidance_leads_to_the_nearest_legal_position(model: str) -> None:
    # A legal move was made, but a bystander was knocked off d4 too: put d4 back, keep the move.
    table = Table(model=model)
    table.carry("g12", "f10")
    table.lift("d4")
    out = table.run(3000)
    assert out.display.mode == "guidance" and fields(out.display.hints) == {"d4": "place"}
    assert table.commits() == []


@pytest.mark.parametrize("model", MODELS)
def test_two_pieces_lifted_light_both_and_commit_nothing(model: str) -> None:
    table = Table(model=model)
    table.lift("g12")
    table.lift("d4")
    out = table.run(200)
    hints = fields(out.display.hints)
    assert out.display.mode == "moving"
    assert hints["g12"] == "origin" and hints["d4"] == "origin"
    assert hints["f10"] == "destination" and hints["b4"] == "destination"
    table.run(3000)
    assert table.commits() == []


# --- take-back -------------------------------------------------------------------------------------
def moved_and_put_back(model: str, takeback: str) -> tuple[Table, int]:
    table = Table(model=model, config=TrackerConfig(takeback=takeback))
    table.carry("g12", "f10")
    table.run(400)
    assert [text for _, text in table.commits()] == ["g12-f10"]
    table.carry("f10", "g12")
    return table, table.now


@pytest.mark.parametrize("model", MODELS)
def test_takeback_auto_after_takeback_ms(model: str) -> None:
    table, back = moved_and_put_back(model, "auto")
    table.run(3000)
    offered = [out for at, out in table.since(back) if out.display.mode == "takeback"]
    assert offered and fields(offered[0].display.hints) == {"f10": "confirm", "g12": "confirm"}
    assert offered[0].display.shown is FOUR
    taken = [at for at, out in table.since(back) if out.happened.took_back]
    assert taken == [back + DEFAULT.takeback_ms]
    assert table.state is FOUR and table.output.display.mode == "idle"
    assert table.physical.session.tracker.history == ()


@pytest.mark.parametrize("model", MODELS)
def test_takeback_offer_waits_for_the_confirm_button(model: str) -> None:
    table, _ = moved_and_put_back(model, "offer")
    out = table.run(6000)
    assert out.display.mode == "takeback" and table.took_back() == 0 and table.state.ply == 1
    out = table.press("confirm")
    assert out.happened.took_back == 1 and table.state is FOUR
    assert table.run(100).display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_takeback_off_never_takes_back(model: str) -> None:
    table, back = moved_and_put_back(model, "off")
    out = table.run(6000)
    assert table.took_back() == 0 and table.state.ply == 1
    assert "takeback" not in table.modes(back)
    assert out.display.mode == "guidance" and fields(out.display.hints) == {"f10": "place", "g12": "remove"}


@pytest.mark.parametrize("model", MODELS)
def test_undo_button_then_restore_guidance(model: str) -> None:
    table = Table(model=model)
    table.carry("g12", "f10")
    table.run(400)
    out = table.press("undo")
    assert out.happened.took_back == 1 and table.state is FOUR
    assert out.display.mode == "restore" and fields(out.display.hints) == {"f10": "remove", "g12": "place"}
    out = table.run(5000)
    assert out.display.mode == "restore" and table.commits(table.now - 5000) == []  # no move is inferred meanwhile
    table.carry("f10", "g12")
    assert table.run(100).display.mode == "idle"
    assert table.press("undo").happened.messages == ("undo: no move to take back",)


class _DrawnKlotz(KlotzState):
    """A Klotz position that claims one hidden random event more than its successors (as a card
    draw would), to check that nothing is taken back across such an event."""

    def chance_count(self) -> int:
        return 1


@pytest.mark.parametrize("takeback", ["auto", "offer"])
def test_no_takeback_across_a_hidden_random_event(takeback: str) -> None:
    drawn = _DrawnKlotz(KLOTZ, 4, dict(FOUR.blocks), current=0, ply=0, passes=0, winner=None, max_plies=None)
    table = Table(drawn, config=TrackerConfig(takeback=takeback))
    table.carry("g12", "f10")
    table.run(400)
    assert [text for _, text in table.commits()] == ["g12-f10"]
    back = table.now
    table.carry("f10", "g12")
    out = table.run(3000)
    assert "takeback" not in table.modes(back) and table.took_back() == 0 and out.display.mode == "guidance"
    out = table.press("undo")
    assert out.happened.messages == ("undo: the last move revealed hidden information and cannot be taken back",)
    assert out.happened.took_back == 0 and table.state.ply == 1


# --- set-up ----------------------------------------------------------------------------------------
START_FIELDS = {
    "g8", "h8", "h7", "g7",
    "f6", "g6", "h6", "i6", "f7", "i7", "f8", "i8", "f9", "g9", "h9", "i9",
    "d4", "k4", "d11", "k11",
    "g3", "h3", "c7", "c8", "l7", "l8", "g12", "h12",
}  # fmt: skip


@pytest.mark.parametrize("model", MODELS)
def test_setup_guidance_from_an_empty_board(model: str) -> None:
    table = Table(model=model, set_up=False)
    out = table.output
    assert out.display.mode == "setup"
    assert fields(out.display.hints) == dict.fromkeys(START_FIELDS, "place")
    table.place("g12", [Piece("cylinder3", None, 1)])
    out = table.run(100)
    assert out.display.mode == "setup" and "g12" not in fields(out.display.hints)
    table.place("e5", [Piece("cylinder1", None, 1)])
    out = table.run(100)
    assert fields(out.display.hints)["e5"] == "remove"
    table.lift("e5")
    table.sim.load(FOUR.occupancy())
    out = table.run(100)
    assert out.display.mode == "idle" and out.display.hints == {} and table.commits() == []


def test_setup_does_not_infer_moves_before_the_board_first_matches() -> None:
    # A set-up one move away from the start position is still set-up, not that move.
    table = Table(FOUR, set_up=False)
    table.sim.load(FOUR.apply(move("g12-f10")).occupancy())
    out = table.run(1000)
    assert out.display.mode == "setup" and fields(out.display.hints) == {"f10": "remove", "g12": "place"}
    assert table.commits() == []


# --- noise -----------------------------------------------------------------------------------------
def scanner(
    state: State = FOUR, model: str = "binary", config: TrackerConfig | None = None, board: BoardMap | None = None
):
    """A tracker fed with hand-built readings: returns (tracker, board map, readings-of function)."""
    board = board or board_map(SQUARE14, KLOTZ, state, model)
    tracker = Tracker(board, state, config)
    base = board.expected(state.occupancy())

    def readings(**fields_: int) -> tuple[int, ...]:
        values = list(base)
        for field, value in fields_.items():
            values[board.channel_of[CELL(field)]] = value
        return tuple(values)

    return tracker, board, readings


def feed(tracker: Tracker, start: int, end: int, readings, events=()) -> list[tuple[int, TrackerOutput]]:
    outs = []
    for now in range(start, end, SCAN_MS):
        outs.append((now, tracker.step(now, readings, events if now == start else ())))
    return outs


@pytest.mark.parametrize("model", MODELS)
def test_a_single_scan_matching_a_legal_move_never_commits(model: str) -> None:
    tracker, _, readings = scanner(model=model)
    feed(tracker, 0, 100, readings())
    flicker = tracker.step(100, readings(f7=0, e7=1))  # exactly f7-e7, whose commit needs no settling
    assert flicker.display.mode == "idle"
    outs = feed(tracker, 110, 3000, readings())
    assert all(out.display.mode == "idle" and not out.happened.committed for _, out in outs)
    assert tracker.state is FOUR


@pytest.mark.parametrize("model", MODELS)
def test_a_noisy_scan_followed_by_dropped_scans_never_commits(model: str) -> None:
    tracker, _, readings = scanner(model=model)
    feed(tracker, 0, 100, readings())
    feed(tracker, 100, 200, readings(f7=0))  # the 1-block on f7 is in the hand
    tracker.step(200, readings(f7=0, e7=1))  # one noisy scan ...
    outs = feed(tracker, 210, 300, None)  # ... and then the link drops scans for a while
    outs += feed(tracker, 300, 1000, readings(f7=0))
    assert not any(out.happened.committed for _, out in outs)
    assert tracker.state is FOUR


@pytest.mark.parametrize("model", MODELS)
def test_bounce_is_debounced_and_settles_from_the_last_change(model: str) -> None:
    tracker, _, readings = scanner(model=model)
    feed(tracker, 0, 100, readings())
    feed(tracker, 100, 200, readings(g12=0))
    outs = []
    for index, now in enumerate(range(200, 230, SCAN_MS)):  # the reed contact chatters for 30 ms
        outs.append((now, tracker.step(now, readings(g12=0, f10=1 if index % 2 == 0 else 0))))
    outs += feed(tracker, 230, 1000, readings(g12=0, f10=1))
    committed = [(now, out.happened.committed) for now, out in outs if out.happened.committed]
    assert committed == [(220 + DEFAULT.settle_ms, (move("g12-f10"),))]  # the last change came at 220


@pytest.mark.parametrize("model", MODELS)
def test_dropped_scans_are_harmless(model: str) -> None:
    tracker, _, readings = scanner(model=model)
    outs = []
    scans = {100: readings(g12=0), 200: readings(g12=0, f10=1)}
    current = readings()
    for now in range(0, 1500, SCAN_MS):
        current = scans.get(now, current)
        outs.append((now, tracker.step(now, None if (now // SCAN_MS) % 3 == 1 else current)))
    committed = [(now, out.happened.committed) for now, out in outs if out.happened.committed]
    assert len(committed) == 1 and committed[0][1] == (move("g12-f10"),)
    assert 200 + DEFAULT.settle_ms <= committed[0][0] <= 200 + DEFAULT.settle_ms + 2 * SCAN_MS


def test_a_dropped_first_scan_is_idle_until_the_board_is_seen() -> None:
    tracker, _, readings = scanner()
    assert tracker.step(0, None).display.mode == "idle"
    assert tracker.step(10, readings()).display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("noise", ["low", "high"])
def test_noisy_sensors_still_commit_the_move_once(model: str, noise: str) -> None:
    table = Table(model=model, noise=noise)
    table.carry("g12", "f10")
    table.run(1000)
    assert [text for _, text in table.commits()] == ["g12-f10"]


# --- sensor faults ---------------------------------------------------------------------------------
@pytest.mark.parametrize("model", MODELS)
def test_a_stuck_sensor_is_reported_after_stuck_after_ms(model: str) -> None:
    table = Table(model=model)
    stuck_at = table.now
    table.sim.stick(CELL("e5"), 1)
    table.run(6000)
    fault = SensorFault(SQUARE14.channel_of("e5"), CELL("e5"), 1, 0)
    reported = [at for at, out in table.since(stuck_at) if out.display.faults == (fault,)]
    assert reported and reported[0] == stuck_at + DEFAULT.stuck_after_ms
    assert all(out.display.faults == () for at, out in table.since(stuck_at) if at < reported[0])
    assert table.commits() == []


@pytest.mark.parametrize("model", MODELS)
def test_a_sensor_stuck_at_start_up_is_reported_during_setup(model: str) -> None:
    table = Table(model=model, set_up=False, config=TrackerConfig(mask_stuck=False))
    table.sim.stick(CELL("e5"), 1)
    table.sim.load(FOUR.occupancy())
    out = table.run(6000)
    assert out.display.mode == "setup" and fields(out.display.hints) == {"e5": "remove"}
    assert out.display.faults == (SensorFault(SQUARE14.channel_of("e5"), CELL("e5"), 1, 0),)


@pytest.mark.parametrize("model", MODELS)
def test_a_sensor_stuck_at_start_up_is_left_out_so_setup_completes(model: str) -> None:
    table = Table(model=model, set_up=False)
    table.sim.stick(CELL("e5"), 1)
    table.sim.load(FOUR.occupancy())
    out = table.run(6000)
    assert out.display.mode == "idle"
    assert out.display.faults == (SensorFault(SQUARE14.channel_of("e5"), CELL("e5"), 1, 0),)


# --- declared actions ------------------------------------------------------------------------------
@pytest.mark.parametrize("model", MODELS)
def test_a_declared_move_is_accepted_only_when_the_board_shows_it(model: str) -> None:
    table = Table(model=model)
    out = table.declare("g12-f10")
    assert out.happened.messages == ("g12-f10: the board does not show this move; make it on the board first",)
    assert out.happened.committed == () and table.state is FOUR
    table.carry("g12", "f10")
    table.run(100)  # acknowledged, not yet settled
    assert table.output.display.mode == "acknowledged"
    out = table.declare("g12-f10")
    assert out.happened.committed == (move("g12-f10"),) and out.happened.messages == ()
    table.run(1000)
    assert [text for _, text in table.commits()] == ["g12-f10"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("g12-g9", "g12-g9: g9 holds a cylinder; cylinders cannot be captured"),
        ("h8-h12", "h8-h12: Red may only move their own square; the square on h8 is not theirs"),
        ("pass", "pass: you may only pass when you have no legal move (K-5)"),
        ("hello", "hello: 'hello' is not a Klotz move (write from-to, e.g. g12-g9, or pass)"),
        ("z1-a1", "z1-a1: 'z1' is not on this board (a1 to n14)"),
    ],
)
def test_an_illegal_declaration_is_rejected_with_the_rules_reason(text: str, reason: str) -> None:
    table = Table()
    out = table.declare(text)
    assert out.happened.messages == (reason,) and out.happened.committed == () and table.state is FOUR


def test_an_invisible_action_is_declared_on_an_unchanged_board() -> None:
    state = blocked_position()
    assert state.legal_actions() == (PASS,)
    table = Table(state)
    assert table.physical.session.tracker.is_invisible(PASS)
    out = table.run(3000)
    assert out.display.mode == "idle" and table.commits() == []
    out = table.declare("pass")
    assert out.happened.committed == (PASS,) and table.state.current_player == 1
    table.declare("pass")
    assert table.state.is_terminal()  # K-5: everybody passed
    assert table.declare("pass").happened.messages == ("pass: the game is over",)


# --- confirmation when sensors cannot tell actions apart -------------------------------------------
def shared_channel_board(model: str) -> BoardMap:
    """square14 with one sensor under both f10 and e9, so f9-f10 and f9-e9 read the same."""
    board = board_map(SQUARE14, KLOTZ, FOUR, model)
    channel_of = dict(board.channel_of)
    channel_of[CELL("e9")] = channel_of[CELL("f10")]
    return replace(board, channel_of=channel_of, cell_of_channel={ch: cell for cell, ch in channel_of.items()})


def ambiguous(model: str, preview_ms: int = 800):
    tracker, _, readings = scanner(
        model=model, config=TrackerConfig(preview_ms=preview_ms), board=shared_channel_board(model)
    )
    feed(tracker, 0, 100, readings())
    feed(tracker, 100, 200, readings(f9=0))
    outs = feed(tracker, 200, 300, readings(f9=0, f10=1))
    return tracker, readings, outs


CANDIDATES = (move("f9-e9"), move("f9-f10"))


@pytest.mark.parametrize("model", MODELS)
def test_indistinguishable_actions_ask_for_confirmation(model: str) -> None:
    tracker, readings, outs = ambiguous(model)
    asking = [(now, out) for now, out in outs if out.display.mode == "confirm"]
    assert asking[0][0] == 200 + DEFAULT.debounce_ms
    out = asking[0][1]
    assert out.display.candidates == CANDIDATES and out.display.previewed == CANDIDATES[0]
    assert out.display.shown == FOUR.apply(CANDIDATES[0]) and out.display.acknowledged is None
    assert fields(out.display.hints)["e9"] == "destination" and fields(out.display.hints)["f9"] == "confirm"
    later = feed(tracker, 300, 10_000, readings(f9=0, f10=1))
    assert all(out.display.mode == "confirm" and not out.happened.committed for _, out in later)  # never guesses


@pytest.mark.parametrize("model", MODELS)
def test_confirmation_previews_each_candidate_in_turn(model: str) -> None:
    tracker, readings, outs = ambiguous(model, preview_ms=500)
    outs += feed(tracker, 300, 2200, readings(f9=0, f10=1))
    previews = {now: out.display.previewed for now, out in outs if out.display.mode == "confirm"}
    settled = 200  # the position dates from its last raw change
    assert previews[settled + 490] == CANDIDATES[0]
    assert previews[settled + 500] == CANDIDATES[1]
    assert previews[settled + 990] == CANDIDATES[1]
    assert previews[settled + 1000] == CANDIDATES[0]
    assert fields(dict(outs)[settled + 500].display.hints)["f10"] == "destination"


@pytest.mark.parametrize("model", MODELS)
def test_menu_advances_the_preview_and_confirm_chooses_it(model: str) -> None:
    tracker, readings, _ = ambiguous(model)
    board = readings(f9=0, f10=1)
    out = tracker.step(300, board, [InputEvent("button", "menu")])
    assert out.display.previewed == CANDIDATES[1] and out.happened.committed == ()
    out = tracker.step(310, board, [InputEvent("button", "menu")])
    assert out.display.previewed == CANDIDATES[0]
    tracker.step(320, board, [InputEvent("button", "menu")])
    out = tracker.step(330, board, [InputEvent("button", "confirm")])
    assert out.happened.committed == (CANDIDATES[1],) and tracker.state == FOUR.apply(CANDIDATES[1])
    assert tracker.step(340, board).display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_a_declaration_chooses_among_the_candidates(model: str) -> None:
    tracker, readings, _ = ambiguous(model)
    board = readings(f9=0, f10=1)
    out = tracker.step(300, board, [InputEvent("declare", "g12-f10")])
    assert out.display.mode == "confirm" and out.happened.committed == ()
    assert out.happened.messages == ("g12-f10: the board does not show this move; make it on the board first",)
    out = tracker.step(310, board, [InputEvent("declare", "f9-f10")])
    assert out.happened.committed == (move("f9-f10"),)


def test_buttons_with_nothing_to_choose_say_so() -> None:
    tracker, _, readings = scanner()
    tracker.step(0, readings())
    out = tracker.step(10, readings(), [InputEvent("button", "confirm"), InputEvent("button", "menu")])
    assert out.happened.messages == ("nothing to confirm", "menu: nothing to choose")
    assert tracker.step(20, readings(), [InputEvent("button", "power")]).happened.messages == (
        "unknown button 'power'",
    )
    assert tracker.step(30, readings()).happened.messages == ()


def test_the_display_stays_the_same_object_until_the_picture_changes() -> None:
    """What the board shows is handed out once per picture, so the LEDs and the web app can tell
    "nothing new" by identity; what happened comes apart, and is one shared empty value when quiet."""
    tracker, _, readings = scanner()
    feed(tracker, 0, 100, readings())
    idle = tracker.step(100, readings())
    said = tracker.step(110, readings(), [InputEvent("button", "undo")])
    assert said.happened.messages == ("undo: no move to take back",)
    assert said.display is idle.display  # something happened, but the picture is the same
    quiet = tracker.step(120, readings())
    assert quiet.display is idle.display and quiet.happened is idle.happened and not quiet.happened
    moving = feed(tracker, 130, 300, readings(f7=0))[-1][1]
    assert moving.display.mode == "moving" and moving.display is not idle.display


def test_confirm_commits_an_acknowledged_move_before_it_settles() -> None:
    tracker, _, readings = scanner()
    feed(tracker, 0, 100, readings())
    feed(tracker, 100, 200, readings(g12=0))
    outs = feed(tracker, 200, 250, readings(g12=0, f10=1))
    assert outs[-1][1].display.mode == "acknowledged"
    out = tracker.step(250, readings(g12=0, f10=1), [InputEvent("button", "confirm")])
    assert out.happened.committed == (move("g12-f10"),)


# --- the tracker's contract ------------------------------------------------------------------------
def test_an_unchanged_scan_returns_the_same_output() -> None:
    tracker, _, readings = scanner()
    first = tracker.step(0, readings())
    assert tracker.step(10, readings()) is first


def test_a_scan_with_the_wrong_channel_count_is_an_error() -> None:
    tracker, _, readings = scanner()
    with pytest.raises(ValueError, match="scan has 195 channels; the board has 196"):
        tracker.step(0, readings()[:-1])


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"debounce_ms": -1}, "debounce_ms must be a whole number of milliseconds >= 0"),
        ({"settle_ms": 2.5}, "settle_ms must be a whole number"),
        ({"guide_after_ms": True}, "guide_after_ms must be a whole number"),
        ({"preview_ms": -1}, "preview_ms must be a whole number"),
        ({"confirm_grace_ms": -1}, "confirm_grace_ms must be a whole number"),
        ({"takeback": "maybe"}, "takeback must be one of auto, offer, off"),
    ],
)
def test_tracker_config_is_validated(change: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        TrackerConfig(**change)


def test_commits_report_transitions_and_reach_session_hooks() -> None:
    table = Table()
    seen: list[tuple[State, Action, State]] = []
    taken: list[State] = []
    table.physical.session.on_commit.append(lambda before, action, after: seen.append((before, action, after)))
    table.physical.session.on_takeback.append(taken.append)
    table.carry("g12", "f10")
    table.run(400)
    assert seen == [(FOUR, move("g12-f10"), FOUR.apply(move("g12-f10")))]
    table.press("undo")
    assert taken == [FOUR]
