"""A loose sensor contact: a sensor under a standing piece that reads an empty field for moments, now
and then (docs/tracker.md, "What sensors do when they fail"). Each dropout reads as the piece lifted
and put back, so nothing happens; the game goes on, and no move is taken on a dropout's account."""

from __future__ import annotations

import pytest

import controller.terminal.physical as physical
from controller.games import load_game
from controller.terminal.physical import PhysicalTable, play_physical_game
from hal.profile import load_profile
from sim.mishaps import LOOSE_DROP_MS, LOOSE_GAP_MS, FaultOnset
from tests.table.test_tracker_klotz import CELL, KLOTZ, MODELS, SQUARE14

SCAN_MS = 10


def test_a_loose_contact_drops_out_under_a_piece_for_moments_again_and_again() -> None:
    table = PhysicalTable(KLOTZ, KLOTZ.new_game(players=2), SQUARE14, calm_hands=True)
    table.settle()
    mishaps = table.backends.mishaps
    mishaps.faults = [FaultOnset(table.now + 1000, CELL("a1"), "loose")]  # a1 holds nothing: another field
    out: list[bool] = []
    for _ in range(60_000 // SCAN_MS):
        table.tick()
        contact = mishaps.loose[0] if mishaps.loose else None
        out.append(contact is not None and table.sim.channel_of[contact.cell] in table.sim.noise.stuck)
    (contact,) = mishaps.loose
    assert table.sim.pieces.get(contact.cell)  # under a piece, where a dropout shows
    assert table.backends.hands.counts["loose"] == 1
    runs: list[tuple[bool, int]] = []
    for value in out:
        if runs and runs[-1][0] == value:
            runs[-1] = (value, runs[-1][1] + 1)
        else:
            runs.append((value, 1))
    drops = [length * SCAN_MS for value, length in runs[1:-1] if value]
    gaps = [length * SCAN_MS for value, length in runs[2:-1] if not value]
    assert len(drops) >= 60_000 // (LOOSE_GAP_MS[1] + LOOSE_DROP_MS[1])
    assert all(LOOSE_DROP_MS[0] - SCAN_MS <= ms <= LOOSE_DROP_MS[1] + SCAN_MS for ms in drops)
    assert all(LOOSE_GAP_MS[0] - SCAN_MS <= ms <= LOOSE_GAP_MS[1] + SCAN_MS for ms in gaps)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("game", "players", "seed"), [("klotz", 2, 1), ("klotz", 2, 11), ("zillo", 2, 8)])
def test_games_with_a_loose_contact_take_every_move_right(
    monkeypatch: pytest.MonkeyPatch, model: str, game: str, players: int, seed: int
) -> None:
    """Whole games with the high mix's hands, a contact coming loose a second in: every move is
    taken as the hands made it, and the game is played to its end."""
    monkeypatch.setattr(physical, "fault_onsets", lambda rate, cells, seed: [FaultOnset(1000, cells[0], "loose")])
    rules = load_game(game)
    profile = load_profile(physical.default_profile(rules))
    stats, final = play_physical_game(rules, players, seed, "greedy", profile, model, "high")
    assert stats.behaviours["loose"] == 1
    assert stats.wrong_commits == 0 and final.is_terminal()
