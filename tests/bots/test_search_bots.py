"""Search bots (docs/bots.md): they plan on samples of what they cannot see and never peek, are
deterministic for a seed and a budget, and the levels are ordered and reachable by name."""

from __future__ import annotations

import json
import random

import pytest

from controller.bots import BOTS, SEARCH_LEVELS, make_bot
from controller.bots.heuristics import EVALUATORS
from controller.bots.search import WIN_SCORE, Leaf, SearchBot, SearchBudget
from controller.games import GAMES, State, load_game
from tests.games import zodiac_helpers

HIDDEN = ["zillo", "zodiac", "zillertal"]


def positions(name: str, players: int, plies: int, seed: int = 0) -> list[State]:
    """The positions of a random game, up to `plies` actions."""
    rng = random.Random(seed)
    state = load_game(name).new_game(seed=seed, players=players)
    found = [state]
    while not state.is_terminal() and len(found) < plies:
        state = state.apply(rng.choice(state.legal_actions()))
        found.append(state)
    return found


@pytest.mark.parametrize("name", HIDDEN)
@pytest.mark.parametrize("players", [2, 4])
def test_a_sample_is_a_state_the_seat_cannot_tell_from_the_real_one(name: str, players: int) -> None:
    for index, state in enumerate(positions(name, players, 60, seed=players)):
        for seat in range(players):
            sample = state.sample_unseen(seat, random.Random(index))
            assert sample.observation(seat) == state.observation(seat)
            if seat == state.current_player:
                assert sample.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("name", HIDDEN)
def test_a_sample_deals_the_hidden_cards_anew(name: str) -> None:
    """Other hands really change between samples: the bot does not plan on the real ones."""
    state = positions(name, 2, 3)[-1]
    other = 1 - state.current_player
    hands = {
        tuple(state.sample_unseen(state.current_player, random.Random(k)).to_json()["hands"][other]) for k in range(8)
    }
    assert len(hands) > 1


def test_a_sample_depends_on_nothing_the_seat_cannot_see() -> None:
    """Two Zodiac positions that differ only in which hidden card lies where give the same sample
    for the same random draws: the real places of hidden cards cannot leak into a plan."""
    game = load_game("zodiac")
    state = game.new_game(seed=3, players=2)
    data = state.to_json()
    data["hands"][1][0], data["deck"][0] = data["deck"][0], data["hands"][1][0]
    swapped = game.state_from_json(data)
    assert swapped.observation(0) == state.observation(0) and swapped.to_json() != state.to_json()
    assert state.sample_unseen(0, random.Random(5)).to_json() == swapped.sample_unseen(0, random.Random(5)).to_json()


def test_a_card_just_drawn_by_the_player_on_turn_does_not_show_in_another_seats_sample() -> None:
    """Zodiac: the card just drawn is seen by its drawer alone. A Sun drawn (playable at once) and a
    sign drawn give another seat the same sample: the sample once kept the real draw's "a Sun
    was drawn" while dealing the drawer a hand without it (a leak to a remote board's stand-in, and
    a Sun offered that could not be played)."""
    state, drew_sun = zodiac_helpers.drawn_sign_and_sun()
    assert drew_sun.observation(0) == state.observation(0) and drew_sun.observation(1) != state.observation(1)
    for draw in range(4):
        sample = drew_sun.sample_unseen(0, random.Random(draw))
        assert sample.to_json() == state.sample_unseen(0, random.Random(draw)).to_json()


@pytest.mark.parametrize("name", HIDDEN)
@pytest.mark.parametrize("players", [2, 3])
def test_every_action_legal_in_a_sample_can_be_played_there(name: str, players: int) -> None:
    """A sample for any seat, on turn or not, is a whole state: what it offers the player on turn
    applies."""
    for index, state in enumerate(positions(name, players, 80, seed=players + 7)):
        for seat in range(players):
            sample = state.sample_unseen(seat, random.Random(index))
            for action in sample.legal_actions():
                sample.apply(action)


@pytest.mark.parametrize("name", HIDDEN)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_sample_is_a_table_a_saved_game_could_hold(name: str, players: int) -> None:
    """A sample is built from the position directly (a search samples once per simulation), so
    nothing checks it on the way: read back from its saved form, with every check a saved game
    passes (card counts, hands, piles), it is the same table."""
    game = load_game(name)
    for index, state in enumerate(positions(name, players, 60, seed=players + 11)):
        seats: list[int | frozenset[int]] = [*range(players), frozenset({0, players - 1})]
        for seat in seats:
            sample = state.sample_unseen(seat, random.Random(index))
            assert game.state_from_json(sample.to_json()).to_json() == sample.to_json()


def test_the_zillertal_evaluator_reads_a_part_of_the_seats_observation() -> None:
    """What the evaluator reads of a position (`standing`) is what the seat's observation says."""
    for state in positions("zillertal", 3, 40, seed=4):
        for seat in range(3):
            observation = state.observation(seat)
            assert all(observation[key] == value for key, value in state.standing(seat).items())


@pytest.mark.parametrize("name", ["klotz", "fillit"])
def test_a_game_without_hidden_cards_is_its_own_only_sample(name: str) -> None:
    state = positions(name, 2, 5)[-1]
    assert state.sample_unseen(0, random.Random(1)) is state


@pytest.mark.parametrize("name", ["klotz", "fillit", "zillo", "zillertal", "zodiac"])
def test_a_search_is_deterministic_for_a_seed_and_budget(name: str) -> None:
    state = positions(name, 2, 4)[-1]
    budget = SearchBudget(simulations=12, rollout_plies=2)
    first = SearchBot(7, budget).choose(state)
    assert SearchBot(7, budget).choose(state) == first
    assert first in state.legal_actions()


@pytest.mark.parametrize("name", ["klotz", "fillit"])
def test_a_search_takes_a_winning_move(name: str) -> None:
    """The first position of a random game in which the seat on turn can win at once: it wins."""
    for seed in range(40):
        for state in positions(name, 2, 600, seed=seed):
            if state.is_terminal():
                continue
            me = state.current_player
            wins = [
                a for a in state.legal_actions() if state.apply(a).is_terminal() and state.apply(a).returns()[me] == 1
            ]
            if wins:
                assert SearchBot(0, SearchBudget(simulations=20)).choose(state) in wins
                return
    raise AssertionError("no position with a winning move in 40 random games")


def test_the_interrupted_search_answers_with_the_best_so_far() -> None:
    state = positions("fillit", 2, 3)[-1]
    bot = SearchBot(0, SearchBudget(simulations=100_000))
    calls = []
    bot.interrupt_when(lambda: calls.append(1) is None and len(calls) > 5)
    assert bot.choose(state) in state.legal_actions() and len(calls) == 6


def test_levels_are_named_weakest_first() -> None:
    assert list(BOTS) == ["random", "greedy", "search-1", "search-2"]
    for game in GAMES:
        weaker, stronger = (SEARCH_LEVELS[name].simulations[game] for name in ("search-1", "search-2"))
        assert 1 <= weaker < stronger, game
    assert make_bot("search-2", 1).name == "search-2"
    with pytest.raises(ValueError, match=r"unknown bot 'deep'.*search-2"):
        make_bot("deep", 0)


def test_a_budget_says_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="at least one simulation"):
        SearchBudget(simulations=0)


@pytest.mark.parametrize("name", HIDDEN)
def test_a_seat_that_did_not_choose_is_valued_by_the_position_alone(name: str) -> None:
    """The search values every seat where a simulation stops. What the mover knew when choosing (a
    draw's expectation, the contracts it hoped for) is the mover's: a seat that did not choose the
    last action stands as the position it now sees shows, whichever action led there."""
    evaluator = EVALUATORS[name]
    checked = 0
    for state in positions(name, 2, 300, seed=3):
        if state.is_terminal():
            continue
        other = 1 - state.current_player
        prepared = evaluator.prepare(state)
        actions = state.legal_actions()
        for action in actions:
            after = state.apply(action)
            if after.is_terminal():
                continue
            scores = {evaluator.score(prepared, named, after, other) for named in actions}
            assert len(scores) == 1, f"seat {other + 1} after {state.action_to_str(action)}"
            checked += 1
    assert checked > 100


def test_leaf_values_are_each_seats_lead_over_the_best_other() -> None:
    """Two seats share one game: one's lead is the other's deficit, so their values sum to one."""
    leaf = Leaf(EVALUATORS["zodiac"])
    for state in positions("zodiac", 2, 120, seed=5)[1:]:
        if state.is_terminal():
            break
        action = state.legal_actions()[0]
        values = leaf.value(state, action, state.apply(action))
        assert values[0] + values[1] == pytest.approx(1.0)
    assert any(abs(value - 0.5) > 0.05 for value in values)


@pytest.mark.parametrize("name", ["klotz", "zodiac"])
def test_a_level_runs_its_simulations_for_the_game_on_the_table(name: str) -> None:
    """A level is a think time: each game gets the simulations that fill it."""
    bot = make_bot("search-1", 0)
    assert isinstance(bot, SearchBot)
    state = next(state for state in positions(name, 2, 10) if bot.searches(state))
    asked: list[int] = []
    bot.interrupt_when(lambda: asked.append(1) is None and False)  # asked before every simulation but the first
    bot.choose(state)
    assert len(asked) + 1 == SEARCH_LEVELS["search-1"].simulations[name]


@pytest.mark.parametrize(
    ("name", "players"), [(name, count) for name, game in GAMES.items() for count in game.player_counts]
)
def test_every_level_plays_every_player_count(name: str, players: int) -> None:
    """Alone (solo Zillertal) or with a full table, a seat is valued by its lead over the others."""
    state = load_game(name).new_game(players=players, seed=1)
    bot = make_bot("search-1", 0)
    for _ in range(6):
        if state.is_terminal():
            break
        state = state.apply(bot.choose(state))


def test_zodiac_after_the_draw_plays_the_evaluators_choice_without_searching() -> None:
    """After the draw the rest of a Zodiac turn is the seat's own cards, which the evaluator values
    exactly (every rearrangement, discard and pass): the bot plays its first choice at once. A turn's
    start (draw, take, a Sun, a Black Moon) is searched."""
    bot = make_bot("search-2", 0)
    assert isinstance(bot, SearchBot)
    asked: list[int] = []
    bot.interrupt_when(lambda: asked.append(1) is None and False)
    drawn = started = 0
    for state in positions("zodiac", 2, 200, seed=2):
        if state.is_terminal() or len(state.legal_actions()) == 1:
            continue
        if state.phase == "drawn":
            assert not bot.searches(state)
            scores = evaluator_scores(state)
            assert scores[bot.choose(state)] == max(scores.values())
            assert not asked, state.action_to_str(bot.choose(state))
            drawn += 1
        elif state.phase == "turn" and started < 3:
            assert bot.searches(state)
            bot.choose(state)
            assert len(asked) + 1 == SEARCH_LEVELS["search-2"].simulations["zodiac"]
            asked.clear()
            started += 1
    assert drawn > 20 and started == 3


@pytest.mark.parametrize("name", list(GAMES))
def test_the_bench_times_positions_where_the_search_thinks(name: str) -> None:
    """A level's think time is measured where the bot thinks: for Zodiac a turn's start, not the
    steps after the draw that the evaluator settles; five positions from a greedy opening."""
    from controller.terminal.bench_search import opening_positions

    found = opening_positions(load_game(name), 5, seed=1)
    assert len(found) == 5 and all(SearchBot(0).searches(state) for state in found)
    assert len({json.dumps(state.to_json(), sort_keys=True) for state in found}) == 5  # spread, not one


def evaluator_scores(state: State) -> dict[object, float]:
    """The evaluator's score of each action for the seat on turn, as the greedy bot scores it (an
    action that ends the game by its outcome)."""
    evaluator = EVALUATORS[state.game.name]
    prepared = evaluator.prepare(state)
    me = state.current_player
    scores: dict[object, float] = {}
    for action in state.legal_actions():
        after = state.apply(action)
        ended = after.is_terminal()
        scores[action] = (
            WIN_SCORE * (after.returns()[me] - 0.5) if ended else evaluator.score(prepared, action, after, me)
        )
    return scores


def test_actions_scored_alike_come_in_a_seeded_random_order_best_first() -> None:
    """The search widens into the best actions first; among equals it draws (from its seed), so two
    searches do not walk into the same first move of a quiet position every time."""
    state = load_game("klotz").new_game(players=2, seed=0)
    scores = evaluator_scores(state)
    orders = [Leaf(EVALUATORS["klotz"], random.Random(seed)).ordered(state, state.legal_actions()) for seed in range(4)]
    for order in orders:
        assert sorted(order, key=str) == sorted(state.legal_actions(), key=str)
        assert [scores[action] for action in order] == sorted(scores.values(), reverse=True)
    assert len({tuple(order) for order in orders}) > 1
    again = Leaf(EVALUATORS["klotz"], random.Random(2)).ordered(state, state.legal_actions())
    assert again == orders[2]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_searches_at_klotz_do_not_shuffle_a_block_to_and_fro_until_the_draw(seed: int) -> None:
    """At the start both squares are walled in by the 1-blocks, and every quiet move scores alike:
    searches that took them in the engine's order pushed one 3-block to and fro for all 600 plies."""
    state = load_game("klotz").new_game(players=2, seed=seed)
    start = {cell: (block.kind, block.size) for cell, block in state.blocks.items()}
    bots = [SearchBot(seed * 2 + seat, SearchBudget(simulations=25)) for seat in range(2)]
    while not state.is_terminal() and state.ply < 40:
        state = state.apply(bots[state.current_player].choose(state))
    now = {cell: (block.kind, block.size) for cell, block in state.blocks.items()}
    moved = [kind for cell, kind in start.items() if now.get(cell) != kind]
    assert ("square", 4) in moved or ("cylinder", 1) in moved, moved
