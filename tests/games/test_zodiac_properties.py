"""Zodiac property tests over random games: legality, round trips, invariants, hidden information."""

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import IllegalAction
from controller.games.zodiac import (
    DECK_COUNTS,
    DRAW,
    HAND_LIMIT,
    MOON,
    PENALTY,
    SIGNS,
    SUN,
    TAKE,
    UP_LIMIT,
    Discard,
    Down,
    Lose,
    Pass,
    PlayMoon,
    PlaySun,
    Up,
    over_limits,
)
from tests.games.zodiac_helpers import GAME, scramble

SETTINGS = settings(max_examples=25, deadline=None)
CARDS = (*SIGNS, SUN, MOON)


def walk(seed: int, players: int, mode: str, steps: int, **options):
    """States of a random game, each with the action taken from it (None at the end)."""
    rng = random.Random(seed)
    state = GAME.new_game(players=players, seed=seed, mode=mode, **options)
    for _ in range(steps):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        yield state, action
        state = state.apply(action)
    yield state, None


def candidates(players: int):
    """A broad set of actions, legal or not, to probe the refusals."""
    out = [DRAW, TAKE, Pass(), Pass(call=True), PlayMoon(), PlayMoon(call=True)]
    for card in CARDS:
        out += [
            Up(card),
            Down(card),
            Discard(card),
            Discard(card, call=True),
            Lose("up", card),
            Lose("hand", card),
        ]
        out += [PlaySun(card, seat) for seat in range(players)]
    return out


games = st.tuples(st.integers(0, 10**6), st.integers(2, 8), st.sampled_from(["referee", "table"]), st.booleans())


@SETTINGS
@given(games)
def test_every_legal_action_applies_and_others_are_refused_with_a_reason(params):
    seed, players, mode, before = params
    probe = candidates(players)
    rng = random.Random(seed)
    for state, _ in walk(seed, players, mode, 150, rearrange_before_draw=before):
        legal = set(state.legal_actions())
        assert legal or state.is_terminal()
        for action in state.legal_actions():
            state.apply(action)
        for action in rng.sample(probe, 12):
            if action not in legal:
                try:
                    state.apply(action)
                except IllegalAction as error:
                    assert error.reason
                else:
                    raise AssertionError(f"{action} applied though not legal")


@SETTINGS
@given(games)
def test_json_and_notation_round_trip_exactly(params):
    seed, players, mode, before = params
    for state, action in walk(seed, players, mode, 200, rearrange_before_draw=before):
        data = json.loads(json.dumps(state.to_json()))
        again = GAME.state_from_json(data)
        assert again == state and again.to_json() == state.to_json()
        assert again.legal_actions() == state.legal_actions()
        for legal in state.legal_actions():
            assert state.parse_action(state.action_to_str(legal)) == legal
        if action is not None:
            assert again.apply(action) == state.apply(action)  # the random state round-trips too


@SETTINGS
@given(games)
def test_invariants_cards_conserved_and_referee_limits_hold(params):
    seed, players, mode, _ = params
    for state, _ in walk(seed, players, mode, 250):
        t = state.position
        everything = Counter([*t.deck, *t.discard, *(c for h in t.hands for c in h), *(c for u in t.up for c in u)])
        assert everything == Counter(DECK_COUNTS)
        if mode == "referee":
            assert all(len(u) <= UP_LIMIT for u in t.up)
            if state.phase == "turn":
                assert not any(over_limits(h, u) for h, u in zip(t.hands, t.up, strict=True))
            assert state.phase != PENALTY
        if state.phase in ("turn", "penalty"):
            assert not t.moved_up and not t.moved_down and t.fresh is None  # fresh each turn (ZO-5)
        assert all(card in t.hands[t.current] for card in t.moved_down) or state.phase == "over"
        assert all(len(h) <= HAND_LIMIT or mode == "table" for seat, h in enumerate(t.hands) if seat != t.current)


@SETTINGS
@given(games)
def test_observation_never_shows_another_hand_or_the_deck_order(params):
    seed, players, mode, _ = params
    rng = random.Random(seed + 1)
    for index, (state, _) in enumerate(walk(seed, players, mode, 200)):
        if index % 5:
            continue
        for viewer in range(players):
            seen = state.observation(viewer)
            json.dumps(seen)
            assert scramble(state, viewer, rng).observation(viewer) == seen
            assert seen["hand"] == list(state.position.hands[viewer])
            assert "deck" not in seen or seen["deck"] == {"count": len(state.position.deck)}


def test_same_seed_and_actions_give_the_same_game():
    first = [s.to_json() for s, _ in walk(42, 5, "table", 300)]
    second = [s.to_json() for s, _ in walk(42, 5, "table", 300)]
    assert first == second


def test_state_from_json_names_what_is_wrong():
    data = GAME.new_game(players=3, seed=2).to_json()
    with pytest.raises(ValueError, match="'hands' needs one entry per seat"):
        GAME.state_from_json(dict(data, hands=data["hands"][:2]))
    with pytest.raises(ValueError, match="too many 1x leo"):
        GAME.state_from_json(dict(data, deck=[*data["deck"], "leo"]))
    with pytest.raises(ValueError, match="phase"):
        GAME.state_from_json(dict(data, phase="dancing"))
    with pytest.raises(ValueError, match="unknown card"):
        GAME.state_from_json(dict(data, discard=["dragon"]))
    with pytest.raises(ValueError, match="not 'zodiac'"):
        GAME.state_from_json(dict(data, game="klotz"))
