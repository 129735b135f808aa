"""What goes wrong at a real table besides the move, each scripted with human timings on every sensor
model (docs/tracker.md, "The evidence model"):

1. knocked pieces: tests/table/test_knocks.py;
2. a sensor that dies or sticks never stops the game, and a healthy field is never blamed;
3. the player who has just moved lifts their piece to look and puts it back: nothing happens;
4. the next player's move that begins on the last move's fields (Zillo's shared Zillo moved on, a
   Shift that carries the Catcher just moved) is their move, never a correction of the last one;
5. a move moved on at once by the next player (Zillo's shared Zillo) is asked about, never merged,
   and two Shift cards played one after the other are both taken, never silently missed;
6. two hands at once: pieces swapped by hand are no move, and a move made while another piece stands
   lifted is that move.
"""

from __future__ import annotations

import pytest

from controller.games.klotz import Move
from tests.table.test_tracker_klotz import CELL, KLOTZ, MODELS, Table, capture_table

SLIDE = 10  # a knocked piece lands beside its field this fast


# --- 2. failing sensors ------------------------------------------------------------------------------
@pytest.mark.parametrize("model", MODELS)
def test_2_a_dead_sensor_under_a_standing_piece_does_not_stop_the_game(model: str) -> None:
    table = Table(model=model)
    start = table.now
    table.sim.stick(CELL("d4"), 0)  # the sensor under d4's piece dies: it looks lifted
    table.run(3000)
    assert table.texts(start) == []
    table.carry("g12", "e11", dwell=300)  # Red moves another piece meanwhile
    table.run(600)
    assert table.texts(start) == ["g12-e11"]  # the move is judged on its own fields
    out = table.run(11_000)
    assert [fault.cell for fault in out.display.faults] == [CELL("d4")]  # then the dead field is reported
    assert out.display.mode == "idle"
    after = table.state
    blue = next(a for a in after.legal_actions() if isinstance(a, Move) and a.origin == CELL("k11"))
    table.carry("k11", KLOTZ.format_cell(blue.target))  # the game goes on
    table.run(600)
    assert table.texts(start) == ["g12-e11", after.action_to_str(blue)]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("after_ms", [20, 100, 200])
def test_2_a_sensor_that_sticks_as_a_move_lands_does_not_hold_the_move_up(model: str, after_ms: int) -> None:
    """An empty field far away starts reading a piece just after a move lands, before it settles:
    no lift pairs with that arrival, so no hand made it. The move is taken on its own fields, the
    field is judged on its own (reported once it outlives the move), and the game goes on."""
    table = Table(model=model)
    start = table.now
    assert not table.sim.true_readings()[table.sim.channel_of[CELL("a14")]]
    table.carry("g12", "e11", dwell=300)
    table.run(after_ms)
    table.sim.stick(CELL("a14"), 1)
    table.run(600)
    assert table.texts(start) == ["g12-e11"]
    after = table.state
    blue = next(a for a in after.legal_actions() if isinstance(a, Move) and a.origin == CELL("k11"))
    table.carry("k11", KLOTZ.format_cell(blue.target))
    table.run(600)
    assert table.texts(start) == ["g12-e11", after.action_to_str(blue)]
    out = table.run(6000)
    assert [fault.cell for fault in out.display.faults] == [CELL("a14")] and out.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_2_a_sensor_that_sticks_between_a_move_and_its_fast_reply_holds_up_neither(model: str) -> None:
    """The same, with the next player replying at once: the move shown, a far field sticking on
    before it is taken, the reply landing. The stuck field's arrival pairs with no lift: both moves
    are taken on their own fields, one after the other, and the field is judged on its own."""
    table = Table(model=model)
    start = table.now
    table.carry("c7", "e6", dwell=200)
    table.run(150)
    table.sim.stick(CELL("a14"), 1)
    table.run(60)
    table.carry("h3", "g5", dwell=150)
    table.run(1500)
    assert table.texts(start) == ["c7-e6", "h3-g5"]
    out = table.run(6000)
    assert [fault.cell for fault in out.display.faults] == [CELL("a14")] and out.display.mode == "idle"


@pytest.mark.parametrize("model", ["binary", "count", "signed_count"])
def test_2_a_move_shown_and_put_back_beside_a_sensor_that_stuck_is_no_move(model: str) -> None:
    """Red's W-1:f9-d10 shown, a far field sticking on, the Zillo put back on f9: the board shows the
    position but for a piece no lift brought. Red's move and Yellow's W-2:d10-f9 after it would
    read the same, but two moves that undo each other are nothing: no move is taken."""
    from tests.games.zillo_helpers import position
    from tests.table.test_tracker_zillo import CELL as ZILLO_CELL
    from tests.table.test_tracker_zillo import Table as ZilloTable

    state = position(hand=["W-1"], others=["W-2"])
    table = ZilloTable(state, model)
    begin = table.now
    piece = table.lift("f9")
    table.run(200)
    table.place("d10", piece)
    table.run(100)  # W-1:f9-d10 shown
    table.sim.stick(ZILLO_CELL("a14"), 1)
    table.run(150)
    piece = table.lift("d10")
    table.run(150)
    table.place("f9", piece)
    out = table.run(7000)
    assert table.commits(begin) == [] and table.state == state
    assert [fault.cell for fault in out.display.faults] == [ZILLO_CELL("a14")]


@pytest.mark.parametrize("model", ["signed", "signed_count"])
@pytest.mark.parametrize(("stuck_after_ms", "asked"), [(60, True), (140, True), (400, False)])
def test_2_a_sensor_that_flips_just_after_a_captured_piece_went_home_there_is_a_fault(
    model: str, stuck_after_ms: int, asked: bool
) -> None:
    """The captured square goes home after the capturing piece landed, and its home field's sensor
    fails reading the other polarity a moment later. The changes before the square arrived (the
    capture itself) cannot explain the flip, so it is a fault at once; the capture is asked (its
    field is left out) and the game goes on, never stuck in guidance."""
    table = capture_table(model)  # Red played g8-g12
    table.carry("h7", "d7")  # Yellow
    table.run(400)
    table.carry("a5", "a4")  # Red
    table.run(400)
    start = table.now
    victim = table.lift("g12")  # Yellow captures from f12, and sends the square home to g8 last
    table.run(150)
    mover = table.lift("f12")
    table.run(100)
    table.place("g12", mover)
    table.run(150)
    table.place("g8", victim)
    table.run(stuck_after_ms)
    table.sim.stick(CELL("g8"), -victim[0].magnet)  # fails reading the other polarity
    out = table.run(1500)
    assert [fault.cell for fault in out.display.faults] == [CELL("g8")]
    if asked:  # failed before the capture settled: its home field is left out, so it is asked
        assert out.display.mode == "confirm" and table.texts(start) == []
        table.press("confirm")
        table.run(300)
    assert table.texts(start) == ["f12-g12"]
    after = table.state
    nxt = next(a for a in after.legal_actions() if isinstance(a, Move) and CELL("g8") not in (a.origin, a.target))
    table.carry(KLOTZ.format_cell(nxt.origin), KLOTZ.format_cell(nxt.target))
    out = table.run(800)
    assert table.texts(start) == ["f12-g12", after.action_to_str(nxt)] and out.display.mode == "idle"


@pytest.mark.parametrize("model", ["signed", "signed_count"])
def test_2_a_sensor_that_turns_polarity_at_once_is_a_fault_at_once(model: str) -> None:
    """No hand swaps a square for a cylinder faster than the debounce time: a signed field that
    reads the other polarity without reading empty between is a failed sensor, reported at once and
    left out, and the game goes on."""
    table = Table(model=model)
    start = table.now
    table.run(1000)  # mid-game: nothing else has changed for a while
    field = CELL("g7")
    reading = table.sim.true_readings()[table.sim.channel_of[field]]
    assert reading != 0
    table.sim.stick(field, -reading)
    out = table.run(200)
    assert [fault.cell for fault in out.display.faults] == [field] and out.display.mode == "idle"
    table.carry("g12", "e11", dwell=300)
    table.run(600)
    assert table.texts(start) == ["g12-e11"]


@pytest.mark.parametrize("model", MODELS)
def test_2_a_dead_sensor_on_the_target_is_taken_when_the_move_is_declared(model: str) -> None:
    table = Table(model=model)
    start = table.now
    table.sim.stick(CELL("e11"), 0)  # the sensor under e11 is dead: a piece put there is not seen
    table.carry("g12", "e11", dwell=300)
    out = table.run(3000)
    assert table.texts(start) == [] and out.display.mode in ("moving", "guidance")  # it looks held in the air
    out = table.declare("g12-e11")  # the player says what they did
    assert table.texts(start) == ["g12-e11"] and table.vias(start) == ["declare"]
    assert [fault.cell for fault in out.display.faults] == [CELL("e11")]  # the field that missed it, named
    out = table.run(500)
    assert out.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_2_a_declared_move_the_board_contradicts_elsewhere_is_refused(model: str) -> None:
    table = Table(model=model)
    table.carry("g12", "e11", dwell=300)
    table.run(100)
    out = table.declare("g12-e13")  # two fields disagree: no single failed sensor explains it
    assert out.happened.messages == ("g12-e13: the board does not show this move; make it on the board first",)


@pytest.mark.parametrize("model", MODELS)
def test_2_a_stuck_sensor_on_another_destination_is_not_the_move(model: str) -> None:
    """e13 reads a piece before g12 is even lifted: the piece from g12 cannot have landed there."""
    table = Table(model=model)
    start = table.now
    table.sim.stick(CELL("e13"), 1)
    table.run(630)
    pieces = table.lift("g12")
    out = table.run(500)
    assert table.texts(start) == [] and out.display.mode != "acknowledged"  # never g12-e13
    table.place("e11", pieces)
    out = table.run(600)
    assert table.texts(start) == ["g12-e11"]
    out = table.run(6000)
    assert [fault.cell for fault in out.display.faults] == [CELL("e13")]  # the stuck one, not e11
    assert out.display.mode == "idle"


# --- 3. the player who has just moved touches their piece ------------------------------------------
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("held_ms", [300, 1500, 3000])
def test_3_the_last_mover_lifts_their_piece_to_look_and_nothing_happens(model: str, held_ms: int) -> None:
    table = Table(model=model)
    start = table.now
    table.carry("g12", "e11", dwell=300)
    table.run(600)
    pieces = table.lift("e11")  # Red looks at the piece it has just moved
    out = table.run(held_ms)
    assert out.happened.took_back == 0 and table.took_back(start) == 0
    table.place("e11", pieces)
    out = table.run(1000)
    assert table.texts(start) == ["g12-e11"] and table.took_back(start) == 0 and out.display.mode == "idle"


@pytest.mark.parametrize("model", ["binary", "signed"])
@pytest.mark.parametrize("held_ms", [1000, 2500, 4000])
def test_3_a_catcher_moved_off_a_stack_and_lifted_again_to_look_is_no_takeback(model: str, held_ms: int) -> None:
    """Red moves one of its three Catchers c12-f12 (c12 still reads a piece), then lifts it again
    while Yellow thinks: the board shows the position before the move, by a piece taken off only.
    That is a take-back or a piece in the hand, so the board waits; the piece put back is nothing."""
    from tests.table.test_tracker_zillo import Table as ZilloTable
    from tests.table.test_tracker_zillo import start

    table = ZilloTable(start("C-E"), model)
    table.move("c12", "f12", 1)
    table.run(300)
    if table.output.display.mode == "confirm":  # the sensors cannot tell how many moved: Red says it
        table.declare("C-E:c12-f12/1")
    table.run(600)
    begin = table.now
    assert table.commits() == ["C-E:c12-f12/1"]
    looked = table.lift("f12")
    out = table.run(held_ms)
    assert table.took_back(begin) == 0 and out.display.mode == "takeback"  # asked, never done by itself
    table.place("f12", looked)
    out = table.run(800)
    assert table.took_back(begin) == 0 and table.commits() == ["C-E:c12-f12/1"] and out.display.mode == "idle"


# --- 6. two hands at once ------------------------------------------------------------------------
def test_6_two_pieces_swapped_by_hand_are_no_move_and_swapping_back_restores() -> None:
    """Signed sensors see a square (-1) and a cylinder (+1) change places: no legal move does that,
    so nothing is taken; the board guides them back."""
    table = Table(model="signed")
    start = table.now
    square = table.lift("g7")
    table.run(150)
    cylinder = table.lift("f7")
    table.run(150)
    table.place("f7", square)
    table.run(100)
    table.place("g7", cylinder)
    out = table.run(3000)
    assert table.texts(start) == [] and out.display.mode == "guidance"
    for field, piece in (("g7", table.lift("f7")), ("f7", table.lift("g7"))):
        table.run(100)
        table.place(field, piece)
    out = table.run(1000)
    assert table.texts(start) == [] and out.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_6_a_move_made_while_another_piece_stands_lifted_is_that_move(model: str) -> None:
    """Red lifts d4 to look, keeps it in the hand, and moves g12 with the other: the move is g12's;
    d4 put back changes nothing."""
    table = Table(model=model)
    start = table.now
    held = table.lift("d4")
    table.run(1500)
    table.carry("g12", "e11", dwell=300)
    table.run(800)
    assert table.texts(start) == ["g12-e11"]
    table.place("d4", held)
    out = table.run(1000)
    assert table.texts(start) == ["g12-e11"] and out.display.mode == "idle" and table.took_back(start) == 0


# --- 5. two moves that look like one -------------------------------------------------------------
@pytest.mark.parametrize("model", MODELS)
def test_5_a_move_made_before_the_last_one_landed_is_never_taken_as_its_reply(model: str) -> None:
    """Red's move was shown a moment ago, then put back; Red lifts the piece again, and while it is
    in the air Blue's piece moves and lands. When Red's piece lands, the board shows Red's move and
    Blue's, but not one after the other (Blue's began first): the board takes neither as Blue's
    reply. Blue putting the piece back leaves Red's move alone, and it is taken."""
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(200)
    table.place("e6", pieces)
    table.run(150)  # c7-e6 shown...
    pieces = table.lift("e6")
    table.run(200)
    table.place("c7", pieces)  # ...and put back
    table.run(1000)
    pieces = table.lift("c7")
    table.run(300)
    table.carry("h3", "g5", dwell=150)  # Blue's piece moves while Red's is in the air
    table.run(100)
    table.place("e6", pieces)
    table.run(1500)
    assert table.texts(start) == []
    back = table.lift("g5")
    table.run(200)
    table.place("h3", back)
    table.run(1000)
    assert table.texts(start) == ["c7-e6"]


@pytest.mark.parametrize("model", MODELS)
def test_5_a_reply_stays_a_reply_when_its_hand_bumps_the_piece_just_moved(model: str) -> None:
    """Red slides f7 to e7 (shown); Blue lifts h3, and on the way bumps Red's piece from e7 to e8,
    puts h3's piece on g5, and puts Red's piece back on e7 a second later. The piece put back makes
    e7's reading the newest on the board, but the board showed Red's move before Blue's began: both
    moves are taken, one after the other."""
    table = Table(model=model)
    start = table.now
    red = table.lift("f7")
    table.run(SLIDE)
    table.place("e7", red)
    table.run(300)
    blue = table.lift("h3")
    table.run(150)
    bumped = table.lift("e7")
    table.run(SLIDE)
    table.place("e8", bumped)
    table.run(150)
    table.place("g5", blue)
    table.run(1000)
    back = table.lift("e8")
    table.run(200)
    table.place("e7", back)
    table.run(1500)
    assert table.texts(start) == ["f7-e7", "h3-g5"]


@pytest.mark.parametrize("model", MODELS)
def test_5_the_capturing_piece_lifted_again_is_no_start_of_the_next_move(model: str) -> None:
    """Yellow's capture is shown (the square home, the capturing piece on g12), and Yellow lifts
    the capturing piece again. On sensors that cannot tell the pieces apart g12 read full before
    the capture and after it, but it is the capture's own field: the capture is not finished, so
    the lift is not the next player starting, and nothing is taken while the piece is in the air."""
    table = capture_table(model)  # Red played g8-g12
    table.carry("h7", "d7")  # Yellow
    table.run(400)
    table.carry("a5", "a4")  # Red
    table.run(400)
    start = table.now
    victim = table.lift("g12")
    table.run(150)
    table.place("g8", victim)  # the square home first
    table.run(150)
    mover = table.lift("f12")
    table.run(150)
    table.place("g12", mover)
    table.run(100)  # the capture shown...
    mover = table.lift("g12")  # ...and its piece lifted again
    out = table.run(600)
    assert table.texts(start) == [] and out.display.mode != "idle"
    table.place("g12", mover)
    table.run(800)
    assert table.texts(start) == ["f12-g12"]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("early_ms", [50, 150])
def test_5_a_reply_reached_for_before_the_last_move_landed_is_taken(model: str, early_ms: int) -> None:
    """Blue lifts a piece a moment before Red's lands and puts it down after: an eager reply, both
    moves in turn."""
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(300)
    reply = table.lift("h3")  # Blue reaches early...
    table.run(early_ms)
    table.place("e6", pieces)
    table.run(250)
    table.place("g5", reply)  # ...and moves once Red's piece is down
    table.run(1500)
    assert table.texts(start) == ["c7-e6", "h3-g5"]


@pytest.mark.parametrize("model", ["binary", "count", "signed_count"])
def test_5_the_zillo_moved_on_by_the_next_player_is_asked_never_merged(model: str) -> None:
    """Red plays W-1:f9-d10 and 210 ms later Yellow moves the same Zillo on with Z-S:d10-e8. The
    board shows f9 empty and e8 taken, which W-1:f9-e8 alone would also show: the board asks, and
    the answer takes both moves in order."""
    from tests.games.zillo_helpers import position
    from tests.table.test_tracker_zillo import Table as ZilloTable

    state = position(hand=["W-1"], others=["Z-S"])
    table = ZilloTable(state, model)
    begin = table.now
    piece = table.lift("f9")
    table.run(250)
    table.place("d10", piece)
    table.run(210)
    piece = table.lift("d10")
    table.run(250)
    table.place("e8", piece)
    out = table.run(1500)
    assert table.commits(begin) == [] and out.display.mode == "confirm"  # never W-1:f9-e8 by itself
    table.declare("Z-S:d10-e8")
    table.run(300)
    assert table.commits(begin) == ["W-1:f9-d10", "Z-S:d10-e8"]


@pytest.mark.parametrize("model", ["binary", "count", "signed_count"])
@pytest.mark.parametrize("gap_ms", [10, 100, 226, 600])
def test_5_two_shift_cards_one_after_the_other_are_both_taken(model: str, gap_ms: int) -> None:
    """Red twists part 1 with S-1 and Yellow, a moment later, moves the same part again with S-2.
    The board ends on a position two Shifts explain: both are taken, or the board asks; never
    nothing at all."""
    from tests.games.zillo_helpers import position
    from tests.table.test_tracker_zillo import Table as ZilloTable

    table = ZilloTable(position(hand=["S-1"], others=["S-2"]), model)
    begin = table.now
    first = table.state.parse_action("S-1:1r90@e12")
    by_hand(table, table.state, first)
    table.run(gap_ms)
    after = table.state if table.commits(begin) else table.state.apply(first)
    second = after.parse_action("S-2:1r90@g10")
    by_hand(table, after, second)
    out = table.run(2500)
    if out.display.mode == "confirm":
        assert "S-2:1r90@g10" in map(out.display.text_of, out.display.candidates)
        table.declare("S-2:1r90@g10")
        out = table.run(500)
    assert table.commits(begin) == ["S-1:1r90@e12", "S-2:1r90@g10"] and out.display.mode == "idle"


# --- 4. the next player's move on the last move's fields -----------------------------------------
@pytest.mark.parametrize("model", ["binary", "count", "signed_count"])
@pytest.mark.parametrize("gap_ms", [600, 2000, 5000])
def test_4_the_zillo_moved_on_after_the_commit_is_asked_with_the_reply_shown_first(model: str, gap_ms: int) -> None:
    """Red's W-1:f9-d10 is taken; Yellow then moves the same Zillo on (Z-S:d10-e8). A correction of
    Red's move to W-1:f9-e8 shows the same board, so the board asks, never rewriting Red's move by
    itself; the reply is the one shown, so confirm takes both moves, and a screen names each."""
    from controller.service.deciding import candidates_of
    from tests.games.zillo_helpers import position
    from tests.table.test_tracker_zillo import Table as ZilloTable

    table = ZilloTable(position(hand=["W-1"], others=["Z-S"]), model)
    begin = table.now
    table.move("f9", "d10")
    table.run(gap_ms)
    assert table.commits(begin) == ["W-1:f9-d10"]
    table.move("d10", "e8")
    out = table.run(1500)
    assert out.display.mode == "confirm" and table.commits(begin) == ["W-1:f9-d10"]
    assert out.display.text_of(out.display.previewed) == "Z-S:d10-e8"
    named = {(c.text, c.seat) for c in candidates_of(table.state, table.tracker.history, out)}
    assert named == {("Z-S:d10-e8", 1), ("W-1:f9-e8", 0)}
    table.press("confirm")
    table.run(500)
    assert table.commits(begin) == ["W-1:f9-d10", "Z-S:d10-e8"] and table.took_back(begin) == 0


@pytest.mark.parametrize("model", ["binary", "count", "signed_count"])
@pytest.mark.parametrize("out_ms", [70, 300, 900])
def test_4_a_lift_after_the_zillo_moved_on_does_not_answer_whose_move_it_was(model: str, out_ms: int) -> None:
    """As above, Red's W-1:f9-d10 is taken and the Zillo moved on to e8: a correction of Red's move,
    or Yellow's Z-S:d10-e8, so the board asks. Then a Catcher far away reads lifted for a moment
    (Yellow touching a piece, or a sensor dropping out under it) and again reads as before. That
    came after the Zillo moved on, so it cannot make that Yellow's move: the board still asks."""
    from controller.games.grid import manhattan
    from tests.games.zillo_helpers import position
    from tests.table.test_tracker_zillo import Table as ZilloTable

    table = ZilloTable(position(hand=["W-1"], others=["Z-S"]), model)
    begin = table.now
    table.move("f9", "d10")
    table.run(600)
    table.move("d10", "e8")
    out = table.run(1500)
    assert out.display.mode == "confirm" and table.commits(begin) == ["W-1:f9-d10"]
    near = [table.cell(field) for field in ("f9", "d10", "e8")]
    far = next(cell for cell in sorted(table.state.catchers) if min(manhattan(cell, c) for c in near) > 2)
    table.sim.stick(far, 0)
    table.run(out_ms)
    table.sim.unstick(far)
    out = table.run(1500)
    assert out.display.mode == "confirm" and table.commits(begin) == ["W-1:f9-d10"]
    assert set(out.display.candidates) == {
        table.state.parse_action("Z-S:d10-e8"),
        table.tracker.history[-1].parse_action("W-1:f9-e8"),
    }


@pytest.mark.parametrize("model", ["binary", "count", "signed_count"])
@pytest.mark.parametrize("gap_ms", [100, 600, 2000])
def test_4_a_shift_that_carries_the_catcher_just_moved_is_the_next_move(model: str, gap_ms: int) -> None:
    """Red moves its stack c12-f12; Yellow's Shift then turns the part under f12, lifting Red's
    Catchers with it, before or after Red's move was taken. Red holds no Shift, so only Red's move
    followed by Yellow's explains the board: both are taken, in order."""
    from tests.games.zillo_helpers import position
    from tests.table.test_tracker_zillo import Table as ZilloTable

    table = ZilloTable(position(hand=["C-E"], others=["S-1"]), model)
    begin = table.now
    table.move("c12", "f12")
    table.run(gap_ms)
    after = table.state if table.commits(begin) else table.state.apply(table.state.parse_action("C-E:c12-f12/3"))
    shift = after.parse_action("S-1:1r180@g8")
    assert after.game.parse_cell("f12") in by_hand(table, after, shift)  # the Catchers just moved go with it
    out = table.run(2500)
    assert table.commits(begin) == ["C-E:c12-f12/3", "S-1:1r180@g8"] and out.display.mode == "idle"


def by_hand(table, state, action, hold_ms: int = 300, gap_ms: int = 60) -> list:
    """Make `action` of `state` by hand: lift every piece of each field it changes, then after
    `hold_ms` put down what each field holds after it, one field every `gap_ms`. The fields changed."""
    before, after = state.occupancy(), state.occupancy_after(action)
    changed = sorted(
        cell for cell in set(before) | set(after) if tuple(before.get(cell, ())) != tuple(after.get(cell, ()))
    )
    for cell in changed:
        if before.get(cell):
            table.sim.lift(cell, len(table.sim.pieces.get(cell, ())))
    table.run(hold_ms)
    for cell in changed:
        if after.get(cell):
            table.sim.place(cell, list(after[cell]))
            table.run(gap_ms)
    return changed


def test_2_a_stuck_sensor_that_lights_as_the_last_mover_lifts_to_look_is_no_correction() -> None:
    """The evidence model's order of events: a piece carried to a field that is not beside its own
    lands after it is lifted, never before nor in the very scan; two changes first seen together
    after a scanner outage tell no order."""
    from controller.table.evidence import Dating, in_order

    expected = [1, 0, 0]  # channel 0 holds the piece; 1 is beside it, 2 is not
    beside = lambda one, other: {one, other} == {0, 1}  # noqa: E731 - a table of neighbours

    def dated(*since: int, unsure: tuple[int, ...] = (), until: tuple[int, ...] = ()) -> Dating:
        return Dating(since, until or since, unsure)

    # The far field lit 14 ms before the lift was dated: a sensor, not the piece.
    assert not in_order(frozenset({(0, 0), (2, 1)}), expected, dated(1000, 0, 986), beside)
    assert in_order(frozenset({(0, 0), (1, 1)}), expected, dated(1000, 986, 0), beside)  # a slide: bounce
    assert not in_order(frozenset({(0, 0), (2, 1)}), expected, dated(1000, 0, 1000), beside)  # no carry is that fast
    assert in_order(frozenset({(0, 0), (2, 1)}), expected, dated(1000, 0, 1000, unsure=(2,)), beside)  # an outage
    assert in_order(frozenset({(0, 0), (2, 1)}), expected, dated(1000, 0, 1150), beside)  # carried
    # A slide whose landing field flickered 50 ms before the piece came (one episode of readings):
    # it may have landed as late as the episode's last raw change.
    assert in_order(frozenset({(0, 0), (1, 1)}), expected, dated(1000, 960, 0, until=(1000, 1010, 0)), beside)
    assert not in_order(frozenset({(0, 0), (1, 1)}), expected, dated(1000, 960, 0), beside)


def test_5_a_move_that_ended_before_the_last_one_landed_is_not_its_follower() -> None:
    """The evidence model's "one move after the other", judged on the latest each field may have
    settled: a second move whose fields all settled well before the first landed did not follow
    it; one whose field's episode reaches past the landing may have."""
    from controller.table.evidence import Dating, one_after_other

    since = (1000, 1000, 900, 940)  # channels 0-1: the first move; 2-3: the second
    assert not one_after_other((0, 1), (2, 3), Dating(since, since))
    assert one_after_other((0, 1), (2, 3), Dating(since, (1000, 1000, 900, 990)))
    assert one_after_other((0, 1), (2, 3), Dating(since, since), landed_by=950)


def test_2_a_move_off_a_field_whose_sensor_failed_is_asked_never_taken_alone() -> None:
    """Nobody sees a piece leave a field whose sensor is left out; a piece knocked off it would look
    the same. A move from there is asked, and the players' confirm takes it."""
    table = Table(model="binary")
    start = table.now
    table.sim.stick(CELL("d4"), 0)  # the sensor under the free cylinder on d4 dies
    table.run(3000)
    table.carry("g12", "e11", dwell=300)
    table.run(600)
    out = table.run(11_000)
    assert [fault.cell for fault in out.display.faults] == [CELL("d4")]
    assert table.texts(start) == ["g12-e11"]
    moved = table.state.parse_action("d4-d6")
    assert moved in table.state.legal_actions()  # Blue may move the free cylinder
    table.carry("d4", "d6", dwell=300)
    out = table.run(1500)
    assert out.display.mode == "confirm" and table.texts(start) == ["g12-e11"]
    table.press("confirm")
    table.run(300)
    assert table.texts(start) == ["g12-e11", "d4-d6"]


def test_2_fields_that_flip_polarity_together_are_pieces_carried_on_a_part_not_failed_sensors() -> None:
    """A Zillo board part carried with its pieces slides them over the sensors, which may read one
    piece, then the next, with no empty reading between: many fields change together, so none is
    blamed. A lone flip is."""
    from controller.table.health import SensorHealth
    from controller.table.knocks import Change

    health = SensorHealth(stuck_after_ms=5000, mask=True)
    since = [0, 1000, 1010, 0]
    together = [Change(1, 1, -1, 1000), Change(2, -1, 1, 1010)]
    assert health.impossible(together, since) == () and health.masked == {}
    assert health.impossible([Change(3, 1, -1, 4000)], [0, 1000, 1010, 4000]) == (3,)
    assert health.masked == {3: -1}
    # Changes before the flipped reading began (the piece arriving there) do not excuse the flip.
    assert health.impossible([Change(0, -1, 1, 5140, before_since=5000)], [5140, 4990, 4980, 0]) == (0,)
    assert health.impossible([Change(0, -1, 1, 5140, before_since=5000)], [5140, 5010, 4980, 0]) == ()


@pytest.mark.parametrize("outage", [False, True])
def test_2_fields_first_seen_changed_together_after_a_scanner_outage_are_not_a_failed_chip(outage: bool) -> None:
    """Four fields read otherwise at one moment, beyond what two hands change at once: sensors that
    failed together, judged at once. Seen so only after the scanner was silent, the changes may have
    come at any moments of the silence (a move and a knock beside it): no failed chip, and nobody
    is blamed at once (before: a move's two fields and the knock's landing were masked, and the
    game stalled; two-player Klotz, hasty hands, rough noise)."""
    from controller.table.health import SensorHealth, Timing

    health = SensorHealth(stuck_after_ms=5000, mask=True)
    since = [0, 3000, 3000, 3000, 3000, 0]
    mismatch = frozenset({(1, 0), (2, 1), (3, 0), (4, 1)})
    timing = Timing(3100, 3000, since, {1, 2, 3, 4} if outage else ())
    faults = health.judge(mismatch, timing, [0, 1, 0, 1, 0, 0], {}, None, lambda _: None, lambda _: False)
    assert [fault.channel for fault in faults] == ([] if outage else [1, 2, 3, 4])


@pytest.mark.parametrize("blind_since", [None, 1_300])
def test_a_change_first_seen_after_an_outage_is_never_set_apart_from_an_older_one_it_may_follow(
    blind_since: int | None,
) -> None:
    """A field emptied at 1,000 ms and two changes first seen at 1,700 ms, after the scanner was
    silent from 1,300: they may have happened 300 ms after the first, too close to set it apart as
    an old change (an outage leaves any moment of its silence open); without the outage they are
    700 ms later, and the first is set apart."""
    from controller.table.evidence import older_apart

    since = [1_000, 1_700, 1_700]
    unsure = {1, 2} if blind_since is not None else set()

    def began(channel: int) -> int:
        return min(since[channel], blind_since) if channel in unsure and blind_since is not None else since[channel]

    old = older_apart({0: 0, 1: 1, 2: 0}, since, began)
    assert old == (frozenset() if blind_since is not None else frozenset({0}))
