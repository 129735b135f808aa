"""Noise bursts (every scan wrong somewhere, scans lost in a row) never make the board commit a move
that was not made; the game goes on when the burst is over."""

from __future__ import annotations

import pytest

from controller.bots import make_bot
from controller.games import load_game
from controller.terminal.physical import PhysicalTable
from hal.profile import load_profile
from sim.noise import NoiseProfile

BURST = NoiseProfile(bounce_ms=30, flicker=1.0, drop=0.3)  # a wrong channel in every scan, 30 % lost
QUIET = NoiseProfile(bounce_ms=10, flicker=0.01, drop=0.005)


@pytest.mark.parametrize(("game", "players", "profile", "sensor"), [
    ("klotz", 4, "square14", "binary"),
    ("fillit", 2, "hex61", "signed"),
    ("zillo", 3, "square14", "count"),
])  # fmt: skip
def test_bursts_of_noise_commit_nothing_wrong(game: str, players: int, profile: str, sensor: str) -> None:
    rules = load_game(game)
    table = PhysicalTable(rules, rules.new_game(players=players, seed=4), load_profile(profile), sensor, "low", 4)
    table.settle()
    bots = [make_bot("greedy", seat) for seat in range(players)]
    for turn in range(24):
        if table.state.is_terminal():
            break
        table.sim.noise.profile = BURST if turn % 3 == 0 else QUIET
        state = table.state
        assert table.perform(bots[state.current_player].choose(state))
    assert table.stats.intended == table.stats.committed
    assert table.stats.wrong_commits == 0 and table.stats.missed == 0


def test_a_burst_on_an_idle_board_commits_nothing() -> None:
    klotz = load_game("klotz")
    table = PhysicalTable(klotz, klotz.new_game(players=2), load_profile("square14"), "binary", "none", 1)
    table.settle()
    table.sim.noise.profile = BURST
    table.run(5000)
    assert table.session.tracker.history == ()
