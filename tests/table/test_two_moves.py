"""Two moves on the board before the board has taken the first (docs/tracker.md, "The evidence
model"): a move whose lift no sensor saw (a Catcher taken off a stack under a presence sensor: only
its landing shows), then the next player's move on fields of its own. The landing is no stray piece
and no old change to set apart: a legal move explains it, so the board shows two moves, and never
takes the second for the first player's move."""

from __future__ import annotations

import pytest

import controller.terminal.physical as physical
from controller.games import GAMES, State
from hal.profile import load_profile
from tests.table.scripted import ScriptedTable
from tests.table.test_loose_contact import changes, reached

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
