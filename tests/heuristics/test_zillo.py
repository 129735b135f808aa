"""The Zillo bot: it catches when it can, guards against the next player's catch, uses only what the
mover may know, and self-play ends for every player count."""

from __future__ import annotations

import json

import pytest

from controller.bots import GreedyBot
from controller.bots.heuristics import EVALUATORS
from controller.bots.heuristics.zillo import ZilloEvaluator, chance_to_hold
from controller.games.zillo import NEW_GAME, Move, ZilloState
from controller.games.zillo.deck import CARDS
from controller.terminal.cli import main
from tests.games.zillo_helpers import GAME, position


def test_the_zillo_evaluator_is_registered() -> None:
    assert isinstance(EVALUATORS["zillo"], ZilloEvaluator)


def test_greedy_catches_the_zillo_when_it_can() -> None:
    state = position(hand=("S-1", "Z-N", "C-N"), catchers={"h8": (0, 1), "c12": (0, 2), "l3": (1, 3)}, zillo="h11")
    action = GreedyBot(0).choose(state)
    assert state.apply(action).winner == 0


def test_greedy_moves_the_zillo_out_of_the_next_players_reach() -> None:
    # Yellow stands 3 south of the Zillo: a straight C-N would catch it. Red holds only a Wild card.
    state = position(hand=("W-1",), others=("C-S",), catchers={"c12": (0, 3), "h5": (1, 3)}, zillo="h8")
    assert state.catching_cards(1)
    action = GreedyBot(0).choose(state)
    after = state.apply(action)
    assert isinstance(action, Move) and not set(after.catching_cards(1)) & set(after.unseen_by(0))


def test_chance_to_hold() -> None:
    assert chance_to_hold(0, 10, 3) == 0.0
    assert chance_to_hold(1, 10, 1) == pytest.approx(0.1)
    assert chance_to_hold(2, 4, 2) == pytest.approx(1 - 1 / 6)
    assert chance_to_hold(1, 3, 5) == 1.0


def test_the_evaluation_ignores_what_the_mover_cannot_see() -> None:
    base = dict(hand=("W-1",), catchers={"c12": (0, 3), "h5": (1, 3)}, zillo="h8")
    # Yellow holds the catching C-N in one world and not in the other; Red cannot tell them apart.
    holds = position(others=("C-N",), **base)
    lacks = position(others=("C-S",), **base)
    assert holds.observation(0) == lacks.observation(0)
    evaluator = ZilloEvaluator()
    for action in holds.legal_actions():
        assert evaluator.score(None, action, holds.apply(action), 0) == evaluator.score(
            None, action, lacks.apply(action), 0
        )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_selfplay_ends_for_every_player_count(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "zillo", "--players", str(players), "--games", "2", "--seed", "3", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "zillo" and len(summary["wins"]) == players
    assert sum(summary["wins"]) + summary["draws"] == 2


def test_selfplay_of_matches_and_physical_cards(capsys: pytest.CaptureFixture[str]) -> None:
    options = ["-o", "match=true", "-o", "hands=physical", "-o", "max_turns=150"]
    argv = ["selfplay", "zillo", "--players", "3", "--games", "2", "--bot", "random", "--json", *options]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert sum(summary["wins"]) + summary["draws"] == 2


def test_max_turns_bounds_selfplay(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "zillo", "--games", "2", "--bot", "random", "-o", "max_turns=3", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["avg_plies"] <= 3


def test_games_lists_zillo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    assert "zillo" in capsys.readouterr().out
    assert GAME.name == "zillo"


def test_the_evaluation_ignores_the_card_the_next_player_turns_up() -> None:
    def top_card_play(top: str) -> ZilloState:
        pile = [card for card in CARDS if card != top] + [top]
        return position(hand=(), others=(), current=1, catchers={"c12": (0, 3), "h5": (1, 3)}, zillo="h8",
                        phase="top", hand_sizes=[0, 0], pile=pile, pile_count=24)  # fmt: skip

    catching, harmless = top_card_play("C-N"), top_card_play("S-1")
    assert catching.face_up() == "C-N" and harmless.face_up() == "S-1"
    evaluator = ZilloEvaluator()
    assert evaluator.score(None, NEW_GAME, catching, 0) == evaluator.score(None, NEW_GAME, harmless, 0)
