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
