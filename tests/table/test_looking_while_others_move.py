"""The player who has just moved lifts their piece to look while the next player already moves: at a
real table nobody waits for the other to put the piece back. The piece in the air is no part of the
next move, and once it is back nothing happened; the next move is taken as it was made."""

from __future__ import annotations

from dataclasses import replace

import pytest

from controller.bots import make_bot
from controller.bots.seeds import bot_seed
from controller.games import load_game
from controller.terminal.physical import PhysicalTable, default_profile
from hal.profile import load_profile
from sim.backends import simulated
from sim.hands import CALM, HandStep


def test_a_piece_lifted_to_look_holds_up_only_a_move_on_its_field_and_a_knocked_piece_every_move() -> None:
    rules = load_game("klotz")
    mishaps = simulated(load_profile(default_profile(rules))).mishaps
    looked_at, knocked = (3, 3), (5, 5)
    assert not mishaps.holds_up({looked_at, (4, 4)})
    mishaps.add(100, [HandStep(0, "lift", looked_at, ()), HandStep(900, "place", looked_at, ())])
    assert mishaps.holds_up({looked_at, (4, 4)})
    assert not mishaps.holds_up({(4, 4), (4, 5)})
    mishaps.add(200, [HandStep(0, "lift", knocked, ()), HandStep(10, "place", (5, 6), ())], knock=True)
    assert mishaps.holds_up({(4, 4), (4, 5)})


@pytest.mark.parametrize("model", ["binary", "count", "signed"])
@pytest.mark.parametrize(("game", "players", "seed"), [("klotz", 2, 1), ("fillit", 2, 2), ("zillo", 3, 3)])
def test_moves_made_while_the_last_mover_holds_their_piece_up_are_taken_right(
    model: str, game: str, players: int, seed: int
) -> None:
    """Calm hands, except that after every move its player lifts the piece to look and puts it
    back 0.3-3 s later. The next player's hands are at work while it is up (checked), and every
    move is taken as meant."""
    rules = load_game(game)
    options = {"max_plies": 80} if game == "klotz" else {}  # a Klotz game drawn after 80 plies
    state = rules.new_game(players=players, seed=seed, **options)
    table = PhysicalTable(rules, state, load_profile(default_profile(rules)), model, "none", seed)
    table.backends.hands.style = replace(CALM, touch=1.0)
    overlapping = 0
    tick = table.tick

    def watched_tick():  # type: ignore[no-untyped-def]
        nonlocal overlapping
        looked_at = table.backends.mishaps.busy
        held = {cell for cell in looked_at if not table.sim.occupancy().get(cell)}
        moving = {
            cell
            for cell in set(table.sim.occupancy()) | set(table.state.occupancy())
            if cell not in looked_at and table.sim.occupancy().get(cell) != table.state.occupancy().get(cell)
        }
        overlapping += bool(held and moving)
        return tick()

    table.tick = watched_tick  # type: ignore[method-assign]
    table.settle()
    table.play([make_bot("greedy", bot_seed(seed, seat)) for seat in range(players)])
    assert table.backends.hands.counts["touch"] > 5
    assert overlapping > 0
    assert table.stats.wrong_commits == 0 and table.state.is_terminal()


@pytest.mark.parametrize("model", ["binary", "count", "signed"])
@pytest.mark.parametrize("carried_ms", [150, 1000])
@pytest.mark.parametrize("back_on", ["f10", "e11"])
def test_a_corrected_piece_lifted_again_while_the_next_player_moves_holds_the_next_move_until_it_is_down(
    model: str, carried_ms: int, back_on: str
) -> None:
    """Red lets go on e11 long enough for it to be taken, then moves the piece on to f10 (a
    correction, shown as made); Yellow starts d4-b4 at once, and Red lifts the piece off f10 again to
    look while Yellow's piece is in the air. Put back on f10: Red's correction, then Yellow's move
    (before: Yellow's move was taken alone while Red's piece was in the air, the lift of e11 set
    apart as an old change, and the piece back on f10 left the board asking for it on e11 for
    good; or, with Red's piece carried quickly, nothing was ever taken). Put on e11: no correction
    after all, and Yellow's move."""
    from tests.table.test_tracker_klotz import Table

    table = Table(model=model)
    table.carry("g12", "e11")
    table.run(1000)
    red = table.lift("e11")
    table.run(carried_ms)
    table.place("f10", red)
    table.run(100)
    yellow = table.lift("d4")
    table.run(100)
    red = table.lift("f10")
    table.run(1300)
    table.place("b4", yellow)
    table.run(600)
    assert [text for _, text in table.commits()] == ["g12-e11"]  # Red's piece is still in the air
    table.place(back_on, red)
    out = table.run(1500)
    made = ["g12-e11", "g12-f10", "d4-b4"] if back_on == "f10" else ["g12-e11", "d4-b4"]
    assert [text for _, text in table.commits()] == made and out.display.mode == "idle"
