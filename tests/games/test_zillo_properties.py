"""Property tests over random Zillo games (both card modes, single games and matches): every legal
action applies, anything else raises IllegalAction with a reason, JSON and notation round-trip, the
invariants hold, and observations depend only on what their player may see."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.bots.heuristics.zillo import ZilloEvaluator
from controller.games import IllegalAction
from controller.games.zillo import NEW_GAME, Discard, Move, Shift, ZilloState
from controller.games.zillo import actions as zillo_actions
from controller.games.zillo.deck import CARDS
from controller.games.zillo.layout import AREA
from tests.games.zillo_helpers import GAME

games = st.fixed_dictionaries(
    {
        "players": st.sampled_from((2, 3, 4)),
        "seed": st.integers(0, 10_000),
        "hands": st.sampled_from(("dealt", "physical")),
        "match": st.booleans(),
        "start_player": st.integers(0, 1),
        "max_turns": st.sampled_from((None, 20, 400)),
    }
)
cells = st.tuples(st.integers(-1, 14), st.integers(-1, 14))
actions = st.one_of(
    st.builds(Move, st.sampled_from(CARDS), cells, cells, st.sampled_from((None, 1, 2, 3, 4))),
    st.builds(Shift, st.sampled_from(CARDS), st.integers(0, 5), st.sampled_from((0, 45, 90, 180, 270)), cells),
    st.builds(Discard, st.sampled_from(CARDS)),
    st.just(NEW_GAME),
)


def play(setup: dict, steps: int, choices: random.Random) -> list[ZilloState]:
    options = dict(setup)
    players = options.pop("players")
    state = GAME.new_game(players=players, **options)
    states = [state]
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(choices.choice(state.legal_actions()))
        states.append(state)
    return states


def check_invariants(state: ZilloState) -> None:
    fields = state.layout.fields()
    assert state.layout.problem() is None
    per_player = Counter()
    for cell, stack in state.catchers.items():
        assert cell in fields and 1 <= stack.count <= 3
        per_player[stack.player] += stack.count
    assert per_player == {seat: 3 for seat in range(state.players)}
    assert state.zillo in fields
    if state.caught is None:
        assert state.zillo not in state.catchers  # the Zillo only shares a field once caught
    table = state.position
    total = sum(table.hand_sizes) + table.pile_count + len(table.played)
    assert total == 24 and len({e.card for e in table.played}) == len(table.played)
    if table.hands is not None:
        assert Counter(c for h in table.hands for c in h) + Counter(table.pile) + Counter(
            e.card for e in table.played
        ) == Counter(CARDS)
    assert max(table.hand_sizes) - min(table.hand_sizes) <= 1  # one card per turn keeps hands level
    if state.phase == "top":
        assert not any(table.hand_sizes)
    assert len(state.occupancy()) == len(state.catchers) + (state.zillo not in state.catchers)


def hidden_twin(state: ZilloState, player: int, shuffle: random.Random) -> ZilloState:
    """The same position as `player` sees it, with everything hidden from them dealt differently."""
    data = state.to_json()
    if data["hands"] is None:
        return state
    keep_top = 1 if data["phase"] == "top" and data["pile"] else 0
    hidden = [c for seat, hand in enumerate(data["hands"]) if seat != player for c in hand]
    hidden += data["pile"][: len(data["pile"]) - keep_top]
    shuffle.shuffle(hidden)
    for seat, hand in enumerate(data["hands"]):
        if seat != player:
            data["hands"][seat], hidden = sorted(hidden[: len(hand)]), hidden[len(hand) :]
    data["pile"] = hidden + data["pile"][len(data["pile"]) - keep_top :]
    data["random"] = {"seed": 999, "draws": 0}
    return GAME.state_from_json(data)


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(1, 80))
def test_random_games_keep_the_rules_invariants_and_round_trip(setup: dict, seed: int, steps: int) -> None:
    choices = random.Random(seed)
    for state in play(setup, steps, choices):
        check_invariants(state)
        assert GAME.state_from_json(state.to_json()) == state
        legal = state.legal_actions()
        assert legal == GAME.state_from_json(state.to_json()).legal_actions()  # deterministic order
        assert len(set(legal)) == len(legal)
        assert state.is_terminal() or legal
        for action in legal:
            assert state.parse_action(state.action_to_str(action)) == action
            # The value prints and parses its own notation, as the state does.
            assert str(action) == state.action_to_str(action) and zillo_actions.parse_action(str(action)) == action
        for action in choices.sample(legal, min(2, len(legal))):
            # The cheap previews the tracker uses agree with the real successor.
            after = state.apply(action)
            assert state.occupancy_after(action) == after.occupancy()
            assert state.layout_after(action) == after.layout


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(0, 60), st.lists(actions, min_size=1, max_size=8))
def test_actions_outside_the_legal_set_raise_with_a_reason(setup: dict, seed: int, steps: int, attempts: list) -> None:
    state = play(setup, steps, random.Random(seed))[-1]
    legal = set(state.legal_actions())
    for action in attempts:
        if action in legal:
            state.apply(action)
            continue
        try:
            state.apply(action)
        except IllegalAction as error:
            assert error.reason and "not legal here" not in error.reason
        else:
            raise AssertionError(f"{action!r} was applied although it is not legal")
        try:
            text = state.action_to_str(action)
        except IllegalAction:
            continue
        assert state.parse_action(text) == action


def _cells(action: object) -> list[tuple[int, int]]:
    if isinstance(action, Move):
        return [action.origin, action.target]
    if isinstance(action, Shift):
        return [action.anchor]
    return []


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(0, 80))
def test_observations_never_show_other_hands_or_the_pile_order(setup: dict, seed: int, steps: int) -> None:
    state = play(setup, steps, random.Random(seed))[-1]
    evaluator = ZilloEvaluator()
    for player in range(state.players):
        twin = hidden_twin(state, player, random.Random(seed + player))
        seen = state.observation(player)
        assert twin.observation(player) == seen
        assert "hands" not in seen and "pile" not in seen and "random" not in seen
        assert seen["hand"] == (None if state.hand(player) is None else list(state.hand(player)))
        if not state.is_terminal():
            # The bot's evaluation is a function of what `player` may see, too.
            assert evaluator.score(None, NEW_GAME, twin, player) == evaluator.score(None, NEW_GAME, state, player)


def test_cells_of_actions_stay_on_the_board() -> None:
    state = GAME.new_game(players=4, seed=1)
    for action in state.legal_actions():
        assert all(AREA.contains(cell) for cell in _cells(action))
