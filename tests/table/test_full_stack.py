"""Full-stack simulated games (docs/architecture.md, "One scan, end to end"): bots choose, virtual
hands move the pieces on a noisy simulated board, and the tracker must commit exactly the intended
actions."""

from __future__ import annotations

from dataclasses import asdict, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.bots import make_bot
from controller.bots.seeds import bot_seed
from controller.games import Action, State
from controller.games.klotz import PASS, Move
from controller.table.tracker import TrackerConfig
from controller.terminal.physical import SCAN_MS, PhysicalTable, play_physical_game, run_physical_selfplay
from hal.profile import FieldWiring, load_profile
from sim.stats import MACHINE_TIMES
from tests.table.klotz_positions import KLOTZ, blocked_position

SQUARE14 = load_profile("square14")
CELL = KLOTZ.parse_cell
MODELS = ["binary", "count", "signed", "signed_count"]


def play(
    state: State, players: int, seed: int, bot: str, model: str, noise: str
) -> tuple[PhysicalTable, list[Action], list[Action]]:
    """A whole game through the physical stack; the intended and the committed actions."""
    table = PhysicalTable(KLOTZ, state, SQUARE14, model, noise, seed)
    committed: list[Action] = []

    def keep(before, action, after, via) -> None:
        if via == "correction":  # a piece let go on a wrong field, then moved on: one move
            committed.pop()
        committed.append(action)

    table.session.on_record.append(keep)
    assert table.settle().display.mode == "idle"
    bots = [make_bot(bot, bot_seed(seed, seat)) for seat in range(players)]
    intended: list[Action] = []
    expected = state
    while not table.state.is_terminal():
        action = bots[table.state.current_player].choose(table.state)
        intended.append(action)
        assert table.perform(action), f"{table.state.action_to_str(action)} was never committed"
        expected = expected.apply(action)
        assert table.state == expected
    return table, intended, committed


@settings(max_examples=40, deadline=None, derandomize=True)  # the same games on every run
@given(
    seed=st.integers(0, 1_000_000),
    players=st.sampled_from([2, 3, 4]),
    model=st.sampled_from(MODELS),
    noise=st.sampled_from(["low", "high", "rough"]),
    bot=st.sampled_from(["random", "greedy"]),
)
def test_physical_games_commit_exactly_the_intended_actions(
    seed: int, players: int, model: str, noise: str, bot: str
) -> None:
    state = KLOTZ.new_game(players=players, seed=seed, max_plies=16)
    table, intended, committed = play(state, players, seed, bot, model, noise)
    stats = table.stats
    assert committed == intended
    assert stats.wrong_commits == 0 and stats.missed == 0 and stats.takebacks == 0
    assert stats.intended == stats.committed == len(intended) == table.state.ply


@pytest.mark.parametrize(("model", "noise"), [("binary", "high"), ("signed", "low"), ("count", "rough")])
def test_a_greedy_game_with_captures_commits_every_capture(model: str, noise: str) -> None:
    state = KLOTZ.new_game(players=2, seed=5, max_plies=30)
    table, intended, committed = play(state, 2, 5, "greedy", model, noise)
    replayed = state
    captures = 0
    for action in intended:
        block = replayed.block_at(action.target) if isinstance(action, Move) else None
        captures += block is not None and block.is_square
        replayed = replayed.apply(action)
    assert captures >= 3
    assert committed == intended and table.stats.wrong_commits == 0 and table.stats.missed == 0


def test_physical_games_are_deterministic_per_seed() -> None:
    runs = []
    for _ in range(2):
        stats, final = play_physical_game(KLOTZ, 3, 9, "random", SQUARE14, "signed", "high", None, max_plies=12)
        data = asdict(stats)
        for timing in MACHINE_TIMES:  # measured on this machine's clock
            data.pop(timing)
        runs.append((data, final.to_json()))
    assert runs[0] == runs[1]


def test_an_invisible_action_is_declared_by_the_table() -> None:
    table = PhysicalTable(KLOTZ, blocked_position(), SQUARE14)
    table.settle()
    assert table.perform(PASS) and table.perform(PASS)
    assert table.state.is_terminal() and table.stats.declared == 2 and table.stats.committed == 2


def shared_channel_profile():
    """square14 rewired so one sensor sits under both e9 and f10: f9-e9 and f9-f10 read the same."""
    fields = dict(SQUARE14.fields)
    fields["e9"] = FieldWiring(SQUARE14.channel_of("f10"), SQUARE14.led_of("e9"))
    return replace(SQUARE14, fields=fields)


@pytest.mark.parametrize("target", ["e9", "f10"])
def test_the_table_answers_a_confirmation_request(target: str) -> None:
    state = KLOTZ.new_game(players=4)
    table = PhysicalTable(KLOTZ, state, shared_channel_profile(), calm_hands=True)
    table.settle()
    action = Move(CELL("f9"), CELL(target))
    assert table.perform(action)
    assert table.state == state.apply(action)
    assert table.stats.confirmations == 1 and table.stats.wrong_commits == 0


def test_run_scans_for_the_given_virtual_time() -> None:
    table = PhysicalTable(KLOTZ, KLOTZ.new_game(players=2), SQUARE14)
    table.run(100)
    assert table.now == 100 and table.sim.scans == 100 // SCAN_MS
    table.run(0)
    assert table.now == 110 and table.sim.scans == 11


def test_a_slow_config_still_commits_the_intended_moves() -> None:
    config = TrackerConfig(debounce_ms=60, settle_ms=400)
    stats, final = play_physical_game(KLOTZ, 2, 2, "random", SQUARE14, "binary", "high", config, max_plies=6)
    assert stats.intended == stats.committed == final.ply == 6 and stats.wrong_commits == 0
    assert final.is_terminal()


# --- the physical self-play summary ----------------------------------------------------------------
SUMMARY_KEYS = {
    "game", "players", "games", "seed", "bot", "physical", "sensor", "noise", "hands", "wins", "draws",
    "unfinished", "avg_plies", "intended", "committed", "wrong_commits", "missed", "confirmations",
    "corrected", "fast_replies", "behaviours",
    "declared", "takebacks", "guidance_episodes", "ack_ms_p99", "commit_ms_p99", "step_ms_mean",
    "step_ms_p99", "changed_step_ms_p99", "actions_per_s",
}  # fmt: skip
TIMING_KEYS = {"step_ms_mean", "step_ms_p99", "changed_step_ms_p99", "actions_per_s"}  # measured on the machine's clock


def test_physical_selfplay_summary_has_the_documented_keys() -> None:
    summary = run_physical_selfplay(KLOTZ, 3, 2, 5, "random", None, "high", max_plies=8)
    assert set(summary) == SUMMARY_KEYS
    assert summary["game"] == "klotz" and summary["players"] == 3 and summary["games"] == 2
    assert summary["physical"] is True and summary["sensor"] == "binary" and summary["noise"] == "high"
    assert len(summary["wins"]) == 3 and sum(summary["wins"]) + summary["draws"] + summary["unfinished"] == 2
    assert summary["intended"] == summary["committed"] == 16 and summary["avg_plies"] == 8
    assert summary["wrong_commits"] == 0 and summary["missed"] == 0
    # Virtual times: acknowledgement within debounce plus a few scans, commit within settle plus a few.
    assert 0 < summary["ack_ms_p99"] <= TrackerConfig().debounce_ms + 4 * SCAN_MS
    assert 0 < summary["commit_ms_p99"] <= TrackerConfig().settle_ms + 4 * SCAN_MS


def test_a_move_asked_about_as_its_piece_is_lifted_counts_as_answered_when_the_hand_lets_go() -> None:
    """Zillo on presence sensors: a Catcher moved onto the player's own stack lands where no sensor
    sees it, so the board asks about the move as soon as the piece is lifted. The question is on the
    LEDs when the hand lets go: that is the acknowledgement (before: measured only once the player
    had answered it, 400-600 ms later, which is the person's time, not the board's)."""
    from controller.games import load_game

    zillo = load_game("zillo")
    profile = load_profile("square14")
    stats, final = play_physical_game(zillo, 4, 100_003, "greedy", profile, "binary", "low", hands="dealt")
    assert final.is_terminal() and stats.wrong_commits == 0
    assert max(stats.ack_ms) <= TrackerConfig().debounce_ms + 4 * SCAN_MS


def test_physical_selfplay_is_deterministic_apart_from_timings() -> None:
    first = run_physical_selfplay(KLOTZ, 2, 1, 3, "greedy", "count", "low", max_plies=6)
    second = run_physical_selfplay(KLOTZ, 2, 1, 3, "greedy", "count", "low", max_plies=6)
    for key in TIMING_KEYS:
        first.pop(key)
        second.pop(key)
    assert first == second and first["sensor"] == "count"


def test_physical_selfplay_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="--games must be at least 1, not 0"):
        run_physical_selfplay(KLOTZ, 2, 0, 0, "random", None, "none")
    with pytest.raises(ValueError, match="Klotz is played by 2, 3, 4 players, not 5"):
        run_physical_selfplay(KLOTZ, 5, 1, 0, "random", None, "none")
    with pytest.raises(ValueError, match="unknown sensor model 'hall'"):
        run_physical_selfplay(KLOTZ, 2, 1, 0, "random", "hall", "none", max_plies=2)
    with pytest.raises(ValueError, match="unknown noise level 'loud'"):
        run_physical_selfplay(KLOTZ, 2, 1, 0, "random", None, "loud", max_plies=2)
