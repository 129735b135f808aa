"""Bots play Fillit: `tafel selfplay fillit` terminates for every table, and greedy plays sensibly."""

import json

import pytest

from controller.bots import GreedyBot, RandomBot
from controller.bots.heuristics import EVALUATORS
from controller.bots.heuristics.fillit import FillitEvaluator
from controller.games import load_game
from controller.terminal.cli import main


def selfplay(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["selfplay", "fillit", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_fillit_has_an_evaluator() -> None:
    assert isinstance(EVALUATORS["fillit"], FillitEvaluator)


@pytest.mark.parametrize(
    ("argv", "players"),
    [
        (("--players", "2"), 2),
        (("--players", "3", "-o", "board=mini"), 3),
        (("--players", "4", "-o", "setup=B"), 4),
    ],
)
def test_greedy_selfplay_finishes_every_game(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], players: int
) -> None:
    summary = selfplay(capsys, "--games", "2", "--seed", "3", *argv)
    assert summary["players"] == players and len(summary["wins"]) == players
    if players == 4:
        # Team play: both members of the winning team are credited.
        assert summary["wins"][0] == summary["wins"][2] and summary["wins"][1] == summary["wins"][3]
        assert summary["wins"][0] + summary["wins"][1] + summary["draws"] == 2
    else:
        assert sum(summary["wins"]) + summary["draws"] >= 2


def test_max_turns_ends_selfplay_games(capsys: pytest.CaptureFixture[str]) -> None:
    summary = selfplay(capsys, "--games", "3", "--bot", "random", "-o", "max_turns=3", "--players", "3")
    # F-8: three turns of one or two actions each; nobody can lay 17 chips that fast.
    assert 3 <= summary["avg_plies"] <= 6


def test_selfplay_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("--games", "2", "--seed", "5", "--players", "4")
    first, second = selfplay(capsys, *argv), selfplay(capsys, *argv)
    first.pop("actions_per_s")
    second.pop("actions_per_s")
    assert first == second


def test_greedy_beats_random() -> None:
    game = load_game("fillit")
    greedy_score = 0.0
    for index in range(4):
        state = game.new_game(players=2, setup="AB"[index % 2])
        greedy_seat = index % 2
        bots = {greedy_seat: GreedyBot(index), 1 - greedy_seat: RandomBot(index)}
        while not state.is_terminal():
            state = state.apply(bots[state.current_player].choose(state))
        greedy_score += state.returns()[greedy_seat]
    assert greedy_score >= 3
