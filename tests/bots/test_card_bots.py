"""The card-game bots judge only what the mover may see: their choice never depends on hidden cards."""

import random

import pytest

from controller.bots import GreedyBot
from controller.bots.heuristics import EVALUATORS
from controller.bots.heuristics.zodiac import expected_draw
from controller.games import load_game
from controller.games.zodiac import DRAW
from controller.terminal.selfplay import play_game
from tests.games import zillertal_helpers, zodiac_helpers


def positions(game_name: str, players: int, seed: int, every: int = 3):
    """States along a greedy game, every `every`-th one."""
    game = load_game(game_name)
    state = game.new_game(players=players, seed=seed)
    bots = [GreedyBot(seed + seat) for seat in range(players)]
    index = 0
    while not state.is_terminal() and index < 240:
        if index % every == 0:
            yield state
        state = state.apply(bots[state.current_player].choose(state))
        index += 1


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (7, 3)])
def test_zodiac_greedy_choice_ignores_other_hands_and_the_deck_order(players, seed):
    rng = random.Random(seed)
    for state in positions("zodiac", players, seed):
        me = state.current_player
        other = zodiac_helpers.scramble(state, me, rng)
        assert other.observation(me) == state.observation(me)
        assert GreedyBot(5).choose(other) == GreedyBot(5).choose(state)


@pytest.mark.parametrize(("players", "seed"), [(1, 1), (2, 2), (4, 3)])
def test_zillertal_greedy_choice_ignores_other_hands_the_deck_and_pile_order(players, seed):
    rng = random.Random(seed)
    for state in positions("zillertal", players, seed, every=2):
        me = state.current_player
        other = zillertal_helpers.scramble(state, me, rng)
        assert other.observation(me) == state.observation(me)
        assert GreedyBot(5).choose(other) == GreedyBot(5).choose(state)


def test_zodiac_a_draw_is_scored_by_its_expectation_not_by_the_card_on_top():
    sign_on_top = zodiac_helpers.position([("ari", "tau"), ("gem",)], deck_top=("leo",))
    moon_on_top = zodiac_helpers.position([("ari", "tau"), ("gem",)], deck_top=("moon",))
    evaluator = EVALUATORS["zodiac"]
    scores = [evaluator.score(evaluator.prepare(s), DRAW, s.apply(DRAW), 0) for s in (sign_on_top, moon_on_top)]
    assert scores[0] == scores[1] == expected_draw(sign_on_top.observation(0))


def test_zodiac_greedy_takes_a_missing_sign_from_the_discard_pile():
    state = zodiac_helpers.position([("ari", "tau", "gem"), ("gem",)], discard=("can", "leo"))
    assert state.action_to_str(GreedyBot(1).choose(state)) == "take"


def test_zodiac_greedy_completes_the_zodiac_when_it_can():
    state = zodiac_helpers.position(
        [zodiac_helpers.HIDDEN_SIX, ("gem",)], up=[zodiac_helpers.SHOWN_SIX[:5], ()], discard=("pis",)
    )
    bot = GreedyBot(1)
    while not state.is_terminal() and state.current_player == 0:
        state = state.apply(bot.choose(state))
    assert state.winner == 0


def test_zillertal_greedy_claims_what_the_valley_shows():
    state = zillertal_helpers.position(
        [("FLAT1",), ("FLAT2",)], contracts=[("K1-1",), ()], played=True, valley=[("FLAT1", 0)]
    )
    assert state.action_to_str(GreedyBot(1).choose(state)).startswith("claim K1-1")


def test_zillertal_end_is_scored_without_the_card_drawn():
    evaluator = EVALUATORS["zillertal"]
    scores = set()
    for top in ("FLAT1", "PEAK", "UP12"):
        state = zillertal_helpers.position(
            [("FLAT1",), ("FLAT2",)],
            contracts=[("K1-3",), ()],
            played=True,
            valley=[("FLAT1", 0)],
            deck_top=(top,),
        )
        end = state.legal_actions()[-1]
        scores.add(evaluator.score(evaluator.prepare(state), end, state.apply(end), 0))
    assert len(scores) == 1


@pytest.mark.parametrize(("game", "players"), [("zodiac", 3), ("zillertal", 2), ("zillertal", 1)])
def test_bot_games_end_and_are_reproducible(game, players):
    first = play_game(load_game(game), players, 9, "greedy")
    second = play_game(load_game(game), players, 9, "greedy")
    assert first == second and first.plies > 0
    assert all(value in (0.0, 0.5, 1.0) for value in first.returns)
