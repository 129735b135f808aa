"""A failed sensor (stuck, dead or stuck with its whole chip, chattering) is reported and left out of
the matching, so the game goes on where it can; hands (two of them) never are."""

import pytest

from controller.games import GAMES
from controller.games.zillo import Shift
from controller.table.tracker import SensorFault
from controller.terminal.physical import default_profile
from hal.profile import load_profile
from tests.games.test_action_reach import random_states
from tests.table.scripted import ScriptedTable
from tests.table.test_tracker_klotz import CELL, MODELS, SQUARE14, Table, move


def stuck_table(model: str, field: str = "e5", value: int = 1) -> Table:
    table = Table(model=model)
    table.sim.stick(CELL(field), value)
    table.run(5200)  # past stuck_after_ms: reported and masked
    return table


@pytest.mark.parametrize("model", MODELS)
def test_moves_elsewhere_commit_while_a_sensor_is_stuck(model: str) -> None:
    table = stuck_table(model)
    assert table.output.display.mode == "idle"
    assert table.output.display.faults == (SensorFault(SQUARE14.channel_of("e5"), CELL("e5"), 1, 0),)
    start = table.now
    table.carry("c7", "c4")
    table.run(600)
    assert [text for _, text in table.commits(start)] == ["c7-c4"]
    assert table.output.display.faults  # still reported: the sensor has not come back


@pytest.mark.parametrize("model", MODELS)
def test_a_move_onto_the_stuck_field_asks_for_confirmation(model: str) -> None:
    """Lifting the 2-block from d4 looks exactly like d4-e5 when e5 cannot be seen: never guess."""
    table = stuck_table(model)
    start = table.now
    pieces = table.lift("d4")
    table.run(600)
    assert table.commits(start) == []
    assert table.output.display.mode == "confirm" and move("d4-e5") in table.output.display.candidates
    table.place("e5", pieces)
    table.run(300)
    assert table.commits(start) == []
    out = table.press("confirm")
    assert out.happened.committed == (move("d4-e5"),)


@pytest.mark.parametrize("model", MODELS)
def test_a_stuck_channel_comes_back_when_it_changes(model: str) -> None:
    table = stuck_table(model, "c5", 1)
    channel = SQUARE14.channel_of("c5")
    del table.sim.noise.stuck[channel]  # repaired: it reads the truth (empty) again
    table.run(200)
    assert table.output.display.faults == () and table.output.display.mode == "idle"
    start = table.now
    table.carry("c7", "c4")
    table.run(600)
    assert [text for _, text in table.commits(start)] == ["c7-c4"]


def test_masking_can_be_switched_off() -> None:
    from controller.table.tracker import TrackerConfig

    table = Table(config=TrackerConfig(mask_stuck=False))
    table.sim.stick(CELL("e5"), 1)
    table.run(5200)
    assert table.output.display.mode == "guidance" and table.output.display.faults


@pytest.mark.parametrize("model", MODELS)
def test_two_sensors_that_stick_one_after_the_other_are_both_reported(model: str) -> None:
    """Pieces do not come from nowhere: two fields that show a piece while no field lost one are
    no move (no hand can be making one), however far apart in time they stuck. The second used to
    stick just before the first was due, and then neither was ever reported: the game stopped."""
    table = Table(model=model)
    table.sim.stick(CELL("e5"), 1)
    table.run(4500)  # not yet reported: a lone wrong field is judged after stuck_after_ms
    assert table.output.display.faults == ()
    table.sim.stick(CELL("j5"), 1)
    table.run(5200)
    assert {fault.cell for fault in table.output.display.faults} == {CELL("e5"), CELL("j5")}
    assert table.output.display.mode == "idle"
    start = table.now
    table.carry("c7", "c4")
    table.run(600)
    assert [text for _, text in table.commits(start)] == ["c7-c4"]


@pytest.mark.parametrize("model", MODELS)
def test_an_illegal_move_is_guided_back_and_blames_no_sensor(model: str) -> None:
    """A field emptied and another filled is a piece moved, even when the move is not legal and
    the player waits: the board guides, it does not take the fields for failed sensors."""
    table = Table(model=model)
    start = table.now
    table.carry("c7", "m13")  # no piece of Klotz's start goes there in one move
    table.run(15_000)
    assert table.commits(start) == [] and table.output.display.faults == ()
    assert table.output.display.mode == "guidance"


@pytest.mark.parametrize("model", MODELS)
def test_a_move_made_while_two_sensors_stick_is_taken_when_declared(model: str) -> None:
    """Two sensors stick on within seconds and a move is made before either is judged: the board
    cannot match the move (two phantom pieces stand beside it) nor judge the sensors (a move is
    under way). The person declares the move: the board shows it on every field of its own, and
    the fields that differ besides show pieces that came from nowhere, which no move explains. So
    the move is taken, and those fields are judged on their own."""
    table = Table(model=model)
    table.sim.stick(CELL("e5"), 1)
    table.run(1500)
    table.sim.stick(CELL("j5"), 1)
    table.run(1500)
    start = table.now
    table.carry("c7", "c4")
    table.run(3000)
    assert table.commits(start) == []  # the two phantoms stand beside the move: nothing fits
    out = table.declare("c7-c4")
    assert out.happened.committed == (move("c7-c4"),)
    table.run(6000)
    assert {fault.cell for fault in table.output.display.faults} == {CELL("e5"), CELL("j5")}
    assert table.output.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_a_move_made_while_two_sensors_under_pieces_die_is_taken_when_declared(model: str) -> None:
    """Two sensors under standing pieces die within seconds (two pieces look lifted) and a move is
    made meanwhile. Every field of the declared move shows it, so it was made: it is taken, and the
    two fields beside it are judged on their own."""
    table = Table(model=model)
    table.sim.stick(CELL("l7"), 0)
    table.run(1500)
    table.sim.stick(CELL("l8"), 0)
    table.run(1500)
    start = table.now
    table.carry("c7", "c4")
    table.run(3000)
    out = table.declare("c7-c4")
    assert [text for _, text in table.commits(start)] == ["c7-c4"], out.happened.messages
    table.run(15_000)
    assert {fault.cell for fault in table.output.display.faults} == {CELL("l7"), CELL("l8")}


@pytest.mark.parametrize("model", MODELS)
def test_a_declared_move_whose_piece_came_from_elsewhere_is_refused(model: str) -> None:
    """The piece on c4 came from d4, not from c7: c7 still shows its piece and d4 lost one, so the
    board does not take c7's sensor for a failed one."""
    table = Table(model=model)
    start = table.now
    table.carry("d4", "c4")  # no legal move
    table.run(3000)
    out = table.declare("c7-c4")
    assert out.happened.committed == () and table.commits(start) == []
    assert out.happened.messages == ("c7-c4: the board does not show this move; make it on the board first",)


@pytest.mark.parametrize("model", MODELS)
def test_a_declared_move_onto_a_dead_field_is_taken_beside_a_stuck_one(model: str) -> None:
    """Two faults at once: the move's landing field is dead (one field of the move off: its sensor
    missed the move) and a sensor elsewhere stuck on (a piece from nowhere, no part of any move).
    The declared move is taken with the dead field left out; the stuck one is judged on its own."""
    table = Table(model=model)
    table.sim.stick(CELL("c4"), 0)
    table.sim.stick(CELL("j5"), 1)
    table.run(1000)
    start = table.now
    table.carry("c7", "c4")
    table.run(3000)
    out = table.declare("c7-c4")
    assert out.happened.committed == (move("c7-c4"),)
    assert [text for _, text in table.commits(start)] == ["c7-c4"]
    table.run(6000)
    assert CELL("j5") in {fault.cell for fault in table.output.display.faults}


@pytest.mark.parametrize("model", MODELS)
def test_a_capture_declared_while_its_piece_is_in_the_hand_answers_the_boards_question(model: str) -> None:
    """Yellow sends Red's square home and holds the capturing piece: the board shows the position
    before Red's move, or the capture beginning, and asks. Yellow declares the capture: that answers
    the question (the person says what they are doing). The piece then put down changes nothing: no
    second move, no sensor blamed."""
    from tests.table.test_tracker_klotz import capture_table

    table = capture_table(model)
    start = table.now
    victim = table.lift("g12")
    table.run(150)
    table.place("g8", victim)  # the square home first
    table.run(150)
    mover = table.lift("f12")  # the capturing piece in the hand
    out = table.run(300)
    assert out.display.mode != "idle" and table.texts(start) == []
    table.declare("f12-g12")
    table.run(600)
    assert table.texts(start) == ["f12-g12"]
    table.place("g12", mover)
    out = table.run(6000)
    assert table.texts(start) == ["f12-g12"] and out.display.mode == "idle" and not out.display.faults


MULTIPLEXER = range(80, 96)  # one 16-channel chip of square14: k6 to l7, six pieces on it at the start


@pytest.mark.parametrize("reading", [0, 1])
@pytest.mark.parametrize("model", MODELS)
def test_a_failed_multiplexer_is_reported_field_by_field_and_the_game_goes_on(model: str, reading: int) -> None:
    """Sixteen channels read the same at once (dead: empty; stuck on: one magnet, north up, which
    flips a signed field under a piece south up): more fields changed at one moment than two hands
    can change. Each field that reads wrong is reported at once (never a healthy one), and moves
    elsewhere are taken. Before, the board asked for the pieces to be put back (or taken off) until
    somebody moved."""
    table = Table(model=model)
    board = table.tracker.board
    wrong = {board.cell_of_channel[ch] for ch in MULTIPLEXER if table.tracker.expected_readings[ch] != reading}
    assert len(wrong) >= 6
    for channel in MULTIPLEXER:
        table.sim.stick(board.cell_of_channel[channel], reading)
    table.run(100)  # the debounce time and a scan
    assert {fault.cell for fault in table.output.display.faults} == wrong
    assert table.output.display.mode == "idle"
    start = table.now
    table.carry("c8", "a9")
    table.run(600)
    assert [text for _, text in table.commits(start)] == ["c8-a9"]


@pytest.mark.parametrize("model", MODELS)
def test_pieces_two_hands_hold_in_the_air_are_never_a_fault(model: str) -> None:
    """The player on turn may hold two pieces (one in each hand) as long as they like."""
    table = Table(model=model)
    table.lift("c8")
    table.lift("c7")
    table.run(12_000)
    assert table.output.display.faults == ()


@pytest.mark.parametrize("model", MODELS)
def test_a_multiplexer_that_dies_while_a_piece_is_in_the_hand_blames_only_its_own_fields(model: str) -> None:
    """The fields that emptied at one moment are the chip's; the piece lifted before is the hand's,
    and its move is taken when it lands."""
    table = Table(model=model)
    pieces = table.lift("c8")
    table.run(700)
    cells = [table.tracker.board.cell_of_channel[channel] for channel in MULTIPLEXER]
    occupied = {cell for cell in cells if table.sim.pieces.get(cell)}
    for cell in cells:
        table.sim.stick(cell, 0)
    table.run(100)
    assert {fault.cell for fault in table.output.display.faults} == occupied
    start = table.now
    table.place("a9", pieces)
    table.run(600)
    assert [text for _, text in table.commits(start)] == ["c8-a9"]


def chatter(table: Table, field: str, ms: int, period: int = 80) -> None:
    """The sensor under `field` reads a piece and nothing by turns, `period` ms each, for `ms`."""
    cell, end = CELL(field), table.now + ms
    while table.now < end:
        if table.sim.channel_of[cell] in table.sim.noise.stuck:
            table.sim.unstick(cell)
        else:
            table.sim.stick(cell, 1)
        table.run(period)
    table.sim.unstick(cell)


@pytest.mark.parametrize("model", MODELS)
def test_a_chattering_sensor_is_reported_and_never_holds_a_move_back(model: str) -> None:
    """No hand lifts and puts down a piece on one field every 80 ms: the sensor chatters. Before, the
    board never settled while it did, and a move made meanwhile was acknowledged and never taken."""
    table = Table(model=model)
    chatter(table, "a14", 1000)
    assert [fault.cell for fault in table.output.display.faults] == [CELL("a14")]
    start = table.now
    pieces = table.lift("c8")
    chatter(table, "a14", 200)
    table.place("a9", pieces)
    placed = table.now
    chatter(table, "a14", 2000)
    assert [(at - placed < 400, text) for at, text in table.commits(start)] == [(True, "c8-a9")]


@pytest.mark.parametrize("model", MODELS)
def test_a_sensor_that_stopped_chattering_is_trusted_again_once_calm(model: str) -> None:
    table = Table(model=model)
    chatter(table, "a14", 1000)
    assert table.output.display.faults
    table.run(5200)
    table.carry("c8", "a9")
    table.run(600)
    assert table.output.display.faults == () and table.output.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_a_piece_lifted_and_put_back_twice_to_look_is_no_chatter(model: str) -> None:
    table = Table(model=model)
    for _ in range(2):
        pieces = table.lift("c8")
        table.run(300)
        table.place("c8", pieces)
        table.run(300)
    table.run(300)
    assert table.output.display.faults == () and table.output.display.mode == "idle"


def test_a_zillo_part_lifted_with_its_pieces_is_one_hand_not_a_fault() -> None:
    """A shift carries a part with its pieces: every field of it empties in one scan, and the
    player may hold it as long as they like. One legal move empties those fields together, so one
    hand may have done it (hands are two)."""
    game = GAMES["zillo"]
    profile = load_profile(default_profile(game))
    tried = 0
    for seed in range(6):
        for state in random_states("zillo", 2, {"hands": "dealt"}, games=1, seed=seed)[::5]:
            if state.is_terminal():
                continue
            occ = state.occupancy()
            for action in state.legal_actions():
                if not isinstance(action, Shift):
                    continue
                after = state.occupancy_after(action)
                origins = [c for c in occ if occ[c] and after.get(c, ()) != occ[c]]
                if len(origins) < 3:
                    continue
                table = ScriptedTable(game, state, profile, "count")
                table.run(500)
                held = {c: table.sim.lift(c, len(table.sim.pieces.get(c, ()))) for c in origins}
                table.run(6500)
                assert table.output.display.faults == (), (state.action_to_str(action), table.output.display.faults)
                for c in origins:
                    table.sim.place(c, held[c])
                table.run(600)
                assert table.output.display.faults == ()
                tried += 1
                break
    assert tried


@pytest.mark.parametrize("model", MODELS)
def test_a_declared_move_whose_landing_and_a_field_beside_read_empty_is_taken_when_said_twice(model: str) -> None:
    """The piece left c8 and landed on a9, whose sensor died with b9's under a piece that stands
    (one chip): the move's own departure shows it, and the only other field that differs lost a
    piece, so neither can be where the piece went or came from. The board names both fields, and
    the same declaration again takes the move; b9 is judged on its own afterwards."""
    table = Table(model=model)
    table.sim.stick(CELL("a9"), 0)
    table.sim.stick(CELL("c7"), 0)
    table.run(300)
    start = table.now
    table.carry("c8", "a9")
    table.run(3000)
    assert table.commits(start) == []
    out = table.declare("c8-a9")
    assert out.happened.messages == (
        "c8-a9: a9 does not show this move and c7 lost a piece; if their sensors have failed, declare c8-a9 again",
    )
    out = table.declare("c8-a9")
    assert [text for _, text in table.commits(start)] == ["c8-a9"]
    table.run(10_000)  # c7 may be a piece in a hand: reported once it outlived the move and lasted 10 s
    assert {fault.cell for fault in table.output.display.faults} == {CELL("a9"), CELL("c7")}


@pytest.mark.parametrize("model", MODELS)
def test_a_declared_move_whose_landing_reads_empty_while_a_piece_arrived_elsewhere_is_refused(model: str) -> None:
    """The piece went to b9 (it shows there), not to a9: no failed sensor explains that."""
    table = Table(model=model)
    table.sim.stick(CELL("c7"), 0)
    start = table.now
    table.carry("c8", "b9")
    table.run(3000)
    table.declare("c8-a9")
    out = table.declare("c8-a9")
    assert out.happened.messages == ("c8-a9: the board does not show this move; make it on the board first",)
    assert table.commits(start) == [] or [text for _, text in table.commits(start)] == ["c8-b9"]


@pytest.mark.parametrize("model", MODELS)
def test_a_field_changing_again_and_again_while_hands_move_pieces_beside_it_is_no_chatter(model: str) -> None:
    """Pieces carried across one field move after move (a blitz) change it as often as a chattering
    sensor, but each time with the move's other fields: hands at work, not a failed sensor."""
    table = Table(model=model)
    cell = CELL("c5")
    for _ in range(5):
        pieces = table.lift("c8")
        table.run(100)
        table.sim.place(cell, pieces)  # the piece touches c5 on its way...
        table.run(100)
        table.sim.lift(cell)
        table.run(100)
        table.place("c8", pieces)  # ...and goes back where it stood (the player changed their mind)
        table.run(100)
    table.run(300)
    assert table.output.display.faults == () and table.output.display.mode == "idle"
