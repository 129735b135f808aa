"""Whole games on hardware that fails mid-game in ways no hand can imitate: a multiplexer chip that
dies with every field on it, and a sensor that chatters. The board reports what failed, takes every
move as the hands made it (asked or declared where a failed field hides it), and the game ends."""

from __future__ import annotations

import pytest

import controller.terminal.physical as physical
from controller.games import load_game
from controller.terminal.physical import play_physical_game
from hal.profile import load_profile
from sim.mishaps import FaultOnset

MODELS = ["binary", "count", "signed"]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("kind", ["chip", "chatter"])
@pytest.mark.parametrize(("game", "players", "seed"), [("klotz", 4, 3), ("fillit", 2, 4), ("zillo", 2, 8)])
def test_games_on_failing_hardware_take_every_move_right_and_end(
    monkeypatch: pytest.MonkeyPatch, model: str, kind: str, game: str, players: int, seed: int
) -> None:
    """The chip dies (or the sensor starts chattering) a second in. In the Fillit game the chip
    takes the field the next pawn lands on and the one beside it, where the last stone stands: the
    player declares the move, the board names both fields, and the same declaration again takes
    it (before, the declaration was refused and the game stopped)."""
    monkeypatch.setattr(
        physical, "fault_onsets", lambda rate, cells, seed: [FaultOnset(1000, cells[len(cells) // 2], kind)]
    )
    rules = load_game(game)
    profile = load_profile(physical.default_profile(rules))
    stats, final = play_physical_game(rules, players, seed, "greedy", profile, model, "high")
    assert stats.behaviours[kind] == 1
    assert stats.wrong_commits == 0 and final.is_terminal(), (stats.wrong_commits, stats.missed)
