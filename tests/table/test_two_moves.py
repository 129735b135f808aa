"""Two moves on the board before the board has taken the first (docs/tracker.md, "The evidence
model"): a move whose lift no sensor saw (a Catcher taken off a stack under a presence sensor: only
its landing shows), then the next player's move on fields of its own. The landing is no stray piece
and no old change to set apart: a legal move explains it, so the board shows two moves, and never
takes the second for the first player's move."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import controller.terminal.physical as physical
from controller.games import GAMES, State
from controller.table.corrections import ThenMove
from hal.profile import load_profile
from tests.table.scripted import ScriptedTable
from tests.table.test_loose_contact import changes, reached
from tests.table.test_tracker_klotz import Table as KlotzTable

ZILLO = GAMES["zillo"]
CELL = ZILLO.parse_cell


def opening(seed: int) -> State:
    return ZILLO.new_game(players=2, seed=seed)


def test_the_opening_has_the_moves_the_scenes_play() -> None:
    state = opening(27957)
    assert "C-E:c12-f12/1" in [state.action_to_str(a) for a in state.legal_actions()]
    after = state.apply(state.parse_action("C-E:c12-f12/1"))
    assert "Z-W:f9-c9" in [after.action_to_str(a) for a in after.legal_actions()]
    assert len(state.occupancy()[CELL("c12")]) > 1  # a stack: one Catcher off it leaves the field full


@pytest.mark.parametrize("model", ["binary", "signed", "count"])
@pytest.mark.parametrize("reply_ms", [40, 300, 600])
def test_a_move_seen_only_by_its_landing_then_the_next_players_move_is_two_moves(model: str, reply_ms: int) -> None:
    """Red takes one Catcher off the stack on c12 and puts it on f12; `reply_ms` later Yellow moves
    the Zillo from f9 to c9. The Zillo's move alone, by Red with a Wild card, would leave f12's
    Catcher unexplained: never taken. Where the sensors cannot tell how many Catchers left c12,
    the board asks; the players' answers take both moves, in turn."""
    state = opening(27957)
    table = ScriptedTable(ZILLO, state, load_profile(physical.default_profile(ZILLO)), model)
    begin = table.now
    table.run(300)
    catcher = table.sim.lift(CELL("c12"), 1)
    table.run(200)
    table.sim.place(CELL("f12"), catcher)
    table.run(reply_ms)
    zillo = table.sim.lift(CELL("f9"), 1)
    table.run(200)
    table.sim.place(CELL("c9"), zillo)
    out = table.run(3000)
    wanted = ["C-E:c12-f12/1", "Z-W:f9-c9"]
    for text in wanted:
        assert table.texts(begin) == wanted[: len(table.texts(begin))]  # never another move
        if text not in table.texts(begin):
            assert out.display.mode == "confirm"  # asked, not guided back
            table.declare(text)
            out = table.run(1000)
    assert table.texts(begin) == wanted and out.display.mode == "idle" and not out.display.faults
    first = state.apply(state.parse_action(wanted[0]))
    assert table.state == first.apply(first.parse_action(wanted[1]))


def test_naming_the_first_of_two_moves_asked_blames_no_sensor() -> None:
    """Red turns a board part with a Shift card, carrying a stack of Catchers to a11, and 120 ms
    after the last piece is down Yellow moves that stack on to d11. The board asks; Red names the
    Shift. a11 reads empty where the Shift alone puts the stack: not a sensor that missed the move
    but Yellow's move after it, which the board then takes as the rest (asked, named in turn)."""
    state = reached("zillo", 26536, 5)
    shift = state.parse_action("S-2:1r180@a11")
    after = state.apply(shift)
    reply = after.parse_action("C-E:a11-d11/2")
    table = ScriptedTable(ZILLO, state, load_profile(physical.default_profile(ZILLO)), "binary")
    begin = table.now
    table.run(300)
    for before, later in ((state, after), (after, after.apply(reply))):
        moved = changes(before.occupancy(), later.occupancy())
        for cell in moved:
            table.sim.lift(cell, len(table.sim.pieces.get(cell, ())))
        table.run(100)
        for cell in moved:
            if later.occupancy().get(cell):
                table.sim.place(cell, list(later.occupancy()[cell]))
                table.run(120)
    out = table.run(3000)
    assert table.texts(begin) == [] and out.display.mode == "confirm"
    for text in ("S-2:1r180@a11", "C-E:a11-d11/2"):
        if text not in table.texts(begin):
            table.declare(text)
            out = table.run(1000)
    assert table.texts(begin) == ["S-2:1r180@a11", "C-E:a11-d11/2"]
    assert out.display.mode == "idle" and not out.display.faults


@pytest.mark.parametrize("model", ["binary", "signed"])
@pytest.mark.parametrize("reply_ms", [40, 200, 500])
def test_a_move_asked_about_then_moved_on_by_the_next_player_is_never_merged(model: str, reply_ms: int) -> None:
    """Red moves the Zillo from f9 to d10; Red holds two cards that allow it, so the board asks
    which. Before anyone answers, Yellow moves the Zillo on from d10 to e8. Red's Wild card also
    allows f9 to e8 in one move: that reading and Red's move then Yellow's both fit, so the board
    asks, and never takes the one move alone; named in turn, both moves are taken."""
    state = reached("zillo", 253, 0)
    assert {"Z-N:f9-d10", "W-3:f9-d10", "W-3:f9-e8"} <= {state.action_to_str(a) for a in state.legal_actions()}
    table = ScriptedTable(ZILLO, state, load_profile(physical.default_profile(ZILLO)), model)
    begin = table.now
    table.run(300)
    zillo = table.sim.lift(CELL("f9"), 1)
    table.run(100)
    table.sim.place(CELL("d10"), zillo)
    table.run(120 + reply_ms)
    zillo = table.sim.lift(CELL("d10"), 1)
    table.run(100)
    table.sim.place(CELL("e8"), zillo)
    out = table.run(3000)
    assert table.texts(begin) == [] and out.display.mode == "confirm"
    wanted = ["Z-N:f9-d10", "Z-S:d10-e8"]
    for text in wanted:
        if text not in table.texts(begin):
            table.declare(text)
            out = table.run(1000)
    assert table.texts(begin) == wanted and out.display.mode == "idle" and not out.display.faults


@pytest.mark.parametrize("model", ["binary", "signed"])
def test_a_move_asked_about_and_undone_is_no_first_move_any_more(model: str) -> None:
    """Red puts the Zillo on d10 (asked: which card), takes it back to f9, and the board shows the
    position again: no move asked about was made. Then Red moves it from f9 to e8 with the Wild
    card. That is the one reading (the piece left f9, not d10), taken without a question."""
    state = reached("zillo", 253, 0)
    table = ScriptedTable(ZILLO, state, load_profile(physical.default_profile(ZILLO)), model)
    begin = table.now
    table.run(300)
    for origin, target, then_ms in (("f9", "d10", 600), ("d10", "f9", 1500), ("f9", "e8", 2000)):
        zillo = table.sim.lift(CELL(origin), 1)
        table.run(150)
        table.sim.place(CELL(target), zillo)
        out = table.run(then_ms)
        if target == "d10":
            assert out.display.mode == "confirm"
        elif target == "f9":
            assert out.display.mode == "idle" and table.texts(begin) == []
    assert table.texts(begin) == ["W-3:f9-e8"] and out.display.mode == "idle"


def _by_hand(table: ScriptedTable, before: State, after: State, start: int, hold_ms: int) -> list[tuple]:
    """The steps of a hand making the move from `before` to `after`: at `start` the pieces leaving
    each field it changes are lifted (a stack's top ones only), `hold_ms` later each field's new
    pieces are put down, 120 ms apart; with when the last one is down."""
    was, becomes = before.occupancy(), after.occupancy()
    steps: list[tuple] = []
    for cell in changes(was, becomes):
        old, new = tuple(was.get(cell, ())), tuple(becomes.get(cell, ()))
        if old:
            kept = len(new) if new and len(new) < len(old) and old[: len(new)] == new else 0
            steps.append((start, 0, "lift", cell, len(old) - kept))
    placed = start + hold_ms
    for cell in changes(was, becomes):
        if becomes.get(cell):
            steps.append((placed, 1, "place", cell, tuple(becomes[cell])))
            placed += 120
    return [*steps, (placed - 120, 2, "done", None, None)]


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_in_every_game_a_move_and_the_next_players_made_by_hand_are_both_taken(data: st.DataObject) -> None:
    """Any action of a Klotz, Fillit or Zillo position, made by hand, and 40-700 ms after its last
    piece is down any action of the next player (its piece perhaps the one just moved), on any
    sensor model that sees both (an action no sensor sees is declared by its player). The board
    never takes a move that was not made; what it cannot tell it asks, and named in turn both
    moves are taken, the board idle and no sensor blamed."""
    name = data.draw(st.sampled_from(["klotz", "fillit", "zillo"]), label="game")
    model = data.draw(st.sampled_from(["binary", "count", "signed", "signed_count"]), label="model")
    state = reached(name, data.draw(st.integers(0, 10**6), label="seed"), data.draw(st.integers(0, 30), label="plies"))

    def moving(position: State) -> list:
        was = position.occupancy()
        legal = [] if position.is_terminal() else position.legal_actions()
        return [action for action in legal if position.occupancy_after(action) != was]

    assume(moving(state))
    first = data.draw(st.sampled_from(moving(state)), label="move")
    between = state.apply(first)
    assume(moving(between))
    second = data.draw(st.sampled_from(moving(between)), label="reply")
    end = between.apply(second)
    table = ScriptedTable(state.game, state, load_profile(physical.default_profile(state.game)), model)
    seen = table.tracker.candidates_of
    assume(seen(state).mismatch(first) and seen(between).mismatch(second))  # (one no sensor sees is declared)
    begin = table.now
    steps = _by_hand(table, state, between, begin + 300, data.draw(st.integers(100, 500), label="held for"))
    reply_at = steps[-1][0] + data.draw(st.integers(40, 700), label="reply after")
    steps += _by_hand(table, between, end, reply_at, data.draw(st.integers(100, 500), label="reply held for"))
    for at, _, step, cell, what in sorted(steps, key=lambda s: (s[0], s[1])):
        if step == "done":
            continue
        table.run(max(10, at - table.now))
        if step == "lift":
            table.sim.lift(cell, what)
        else:
            there = list(table.sim.pieces.get(cell, ()))
            table.sim.place(cell, list(what[len(there) :]) if list(what[: len(there)]) == there else list(what))
    out = table.run(3000)
    wanted = [state.action_to_str(first), between.action_to_str(second)]
    assert table.texts(begin) == wanted[: len(table.texts(begin))]  # never a move that was not made
    for text in wanted:
        if text not in table.texts(begin):
            table.declare(text)
            out = table.run(1000)
    assert table.texts(begin) == wanted and table.state == end
    assert out.display.mode == "idle" and not out.display.faults


@pytest.mark.parametrize("model", ["binary", "signed", "count"])
def test_a_declared_move_the_board_asked_about_only_after_another_move_is_taken_alone(model: str) -> None:
    """The board asks about Red's slide i9-i10 followed by Blue's c7-e6 (both pieces are anyone's
    in Klotz), and nothing else, though the words c7-e6 are a move of Red's too. Red declares c7-e6:
    a declaration names one move, and the slide before it was never shown as made, so c7-e6 is
    taken as Red's move alone (before: the slide was taken as Red's and c7-e6 as Blue's, and the
    game parted from the board; two-player Klotz, a capture and a knock hidden by a scanner
    outage)."""
    table = KlotzTable(model=model)
    start = table.now
    red = table.state
    slide = red.parse_action("i9-i10")
    pieces = table.lift("c7")
    table.run(200)
    table.place("e6", pieces)
    knocked = table.lift("i9")
    table.run(10)
    table.place("i10", knocked)
    table.run(100)
    table.tracker._choice.ask([ThenMove(slide, red.apply(slide).parse_action("c7-e6"))])  # (that game's question)
    table.physical.backends.inputs.push("declare", "c7-e6")
    table.run(10)
    taken = [(before.current_player, before.action_to_str(action)) for _, out in table.since(start)
             for before, action, _ in out.happened.transitions]  # fmt: skip
    assert taken[:1] == [(0, "c7-e6")]


@pytest.mark.parametrize("model", ["binary", "signed", "count"])
@pytest.mark.parametrize("back_ms", [0, 10, 30])
@pytest.mark.parametrize("put_back", [True, False])
def test_a_move_shown_as_made_stands_before_a_declared_move_only_while_the_sensors_show_it(
    model: str, back_ms: int, put_back: bool
) -> None:
    """A piece slides i9-i10 (a move of Red's: the board shows it as made), then c7 goes to e6,
    and the board asks about Red's i9-i10 followed by Blue's c7-e6. Where the slid piece is then
    put back (`back_ms` between its lift and its landing: a knocked piece, quickly) and c7-e6 is
    declared, the sensors read c7-e6 alone: it is Red's move, and the slide was none (before: the
    slide was taken as Red's move, c7-e6 as Blue's, and the board then showed i9 full against a
    game that had moved it; three-player Klotz, a piece knocked on the mover's way during a scanner
    outage). Where the slid piece stays, the board's question stands: Red's i9-i10, then Blue's
    c7-e6."""
    table = KlotzTable(model=model)
    start = table.now
    knocked = table.lift("i9")
    table.run(10)
    table.place("i10", knocked)
    table.run(300)
    pieces = table.lift("c7")
    table.run(200)
    table.place("e6", pieces)
    table.run(400)
    assert table.tracker._choice.asking and table.output.display.mode == "confirm"
    if put_back:
        knocked = table.lift("i10")
        table.run(back_ms)
        table.place("i9", knocked)
    table.run(60)
    table.physical.backends.inputs.push("declare", "c7-e6")
    table.run(2000)
    taken = [(before.current_player, before.action_to_str(action)) for _, out in table.since(start)
             for before, action, _ in out.happened.transitions]  # fmt: skip
    assert taken == ([(0, "c7-e6")] if put_back else [(0, "i9-i10"), (1, "c7-e6")])
    assert table.output.display.mode == "idle"


@pytest.mark.parametrize("model", ["binary", "signed", "count"])
@pytest.mark.parametrize("seat", [0, 1, None])
def test_a_declaration_that_says_whose_it_is_takes_that_seats_move(model: str, seat: int | None) -> None:
    """The board shows i9-i10 as Red's move, then c7-e6, and asks about Red's i9-i10 followed by
    Blue's c7-e6. Red says c7-e6 on its own page (`seat` 0): Red's word about Red's move, taken
    alone, and the slide is never taken as Blue's move meanwhile (it is asked about later, if it
    stays). Blue says it (seat 1), or a screen that does not know who speaks (None): the question's
    two moves."""
    table = KlotzTable(model=model)
    start = table.now
    knocked = table.lift("i9")
    table.run(10)
    table.place("i10", knocked)
    table.run(300)
    pieces = table.lift("c7")
    table.run(200)
    table.place("e6", pieces)
    table.run(400)
    assert table.output.display.mode == "confirm"
    table.physical.backends.inputs.push("declare", "c7-e6", seat)
    table.run(2000)
    taken = [(before.current_player, before.action_to_str(action)) for _, out in table.since(start)
             for before, action, _ in out.happened.transitions]  # fmt: skip
    assert taken == ([(0, "c7-e6")] if seat == 0 else [(0, "i9-i10"), (1, "c7-e6")])


def test_a_seat_not_on_turn_is_told_whose_move_it_is() -> None:
    """A move said on Blue's page while Red is to move (nothing asked) is not Red's move, nor taken
    as one; the board says whose move it is."""
    table = KlotzTable()
    table.physical.backends.inputs.push("declare", "c7-e6", 1)
    out = table.run(10)
    assert out.happened.messages == ("c7-e6: it is Red's move now",) and not out.happened.transitions
