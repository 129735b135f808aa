"""Klotz properties over random games: every legal action applies, illegal ones are refused with a
reason, saved states and notation round-trip exactly, and the game's invariants hold at every ply.

The games are random but biased towards square moves (half the time a square moves when it can), so
squares leave home, get captured and win often enough for the invariants to meet those events.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import IllegalAction
from controller.games.klotz import CORNERS, GRID, INNER, PASS, Klotz, KlotzState, Move
from controller.games.klotz import model as klotz_model

KLOTZ = Klotz()
PROPERTY_SETTINGS = settings(max_examples=25, deadline=None)

players = st.sampled_from((2, 3, 4))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
lengths = st.integers(min_value=1, max_value=160)


def random_game(count: int, seed: int, plies: int) -> Iterator[tuple[KlotzState, random.Random]]:
    """Every state of one random game (up to `plies` actions), with the generator that chose them."""
    rng = random.Random(seed)
    state = KLOTZ.new_game(count, seed=seed)
    for _ in range(plies + 1):
        yield state, rng
        if state.is_terminal():
            return
        actions = state.legal_actions()
        squares = [a for a in actions if isinstance(a, Move) and state.block_at(a.origin).is_square]
        state = state.apply(rng.choice(squares if squares and rng.random() < 0.5 else actions))


def random_move(state: KlotzState, rng: random.Random) -> Move:
    """A move from an occupied field (mostly) or anywhere, to anywhere on the board."""
    cells = GRID.cells()
    origin = rng.choice(sorted(state.blocks)) if rng.random() < 0.8 else rng.choice(cells)
    return Move(origin, rng.choice(cells))


@PROPERTY_SETTINGS
@given(players, seeds, lengths)
def test_every_legal_action_applies(count: int, seed: int, plies: int) -> None:
    for state, _ in random_game(count, seed, plies):
        actions = state.legal_actions()
        assert len(set(actions)) == len(actions)
        assert (actions == ()) == state.is_terminal()
        # The moves kept from the position before are those a position read afresh works out, in order.
        assert actions == KLOTZ.state_from_json(state.to_json()).legal_actions()
        for action in actions:
            after = state.apply(action)
            assert after.ply == state.ply + 1
            assert after.is_terminal() or after.current_player == (state.current_player + 1) % count


@PROPERTY_SETTINGS
@given(players, seeds, lengths)
def test_an_action_outside_legal_actions_is_refused_with_a_reason_and_changes_nothing(
    count: int, seed: int, plies: int
) -> None:
    for state, rng in random_game(count, seed, plies):
        before = state.to_json()
        legal = state.legal_actions()
        candidates = [random_move(state, rng) for _ in range(5)] + [PASS]
        for action in candidates:
            if action in legal:
                continue
            try:
                state.apply(action)
            except IllegalAction as error:
                assert error.reason.strip()
            else:
                raise AssertionError(f"{action} was applied although not legal")
            assert state.to_json() == before and state.legal_actions() == legal


@PROPERTY_SETTINGS
@given(players, seeds, lengths)
def test_saved_states_and_notation_round_trip_exactly(count: int, seed: int, plies: int) -> None:
    for state, _ in random_game(count, seed, plies):
        data = state.to_json()
        text = json.dumps(data)
        again = KLOTZ.state_from_json(json.loads(text))
        assert again == state
        assert json.dumps(again.to_json()) == text
        assert again.is_terminal() == state.is_terminal() and again.returns() == state.returns()
        assert again.current_player == state.current_player
        for action in state.legal_actions():
            written = state.action_to_str(action)
            assert state.parse_action(written) == action
            assert state.action_to_str(state.parse_action(written)) == written
            # The value prints and parses its own notation, as the state does.
            assert str(action) == written and klotz_model.parse_action(written) == action


@PROPERTY_SETTINGS
@given(players, seeds, lengths)
def test_invariants_hold_at_every_ply(count: int, seed: int, plies: int) -> None:
    for state, _ in random_game(count, seed, plies):
        check_invariants(state)


def check_invariants(state: KlotzState) -> None:
    blocks = state.blocks
    squares = {b.player: c for c, b in blocks.items() if b.is_square}
    assert sorted(squares) == list(range(state.players))
    for player, where in squares.items():
        # Derived fact: a square moves four fields, so it keeps the parity of its start field.
        assert sum(where) % 2 == sum(state.home_of(player)) % 2, f"square {player} changed parity"
    for corner in CORNERS.values():
        if corner in blocks:  # K-3: only a square that has just won stands on a corner
            block = blocks[corner]
            assert block.is_square and state.corner_of(block.player) == corner
            assert state.is_terminal() and state.winner == block.player
    for inner in INNER.values():
        if inner in blocks:  # K-3: nothing stops on an inner field; a square at home stands there
            block = blocks[inner]
            assert block.is_square and state.home_of(block.player) == inner
    sizes = [b.size for b in blocks.values() if not b.is_square]
    assert (sizes.count(1), sizes.count(2), sizes.count(3)) == (12, 4, 8)
    owners = [b.player for b in blocks.values() if not b.is_square and b.player is not None]
    assert len(owners) == len(set(owners)), "a tile is on two cylinders"  # K-4: one tile each
    assert len(state.occupancy()) == len(blocks)
    assert sum(1 for m in state.marks().values() if m.kind == "tile") == len(owners)


@PROPERTY_SETTINGS
@given(players, seeds, lengths)
def test_the_path_tables_give_every_block_exactly_the_ends_of_its_walked_paths(
    count: int, seed: int, plies: int
) -> None:
    """K-3 by the path tables (`block_moves`) and by walking every bent path (`block_destinations`)
    agree for every block of every position, whoever may move it."""
    for state, _ in random_game(count, seed, plies):
        for origin in state.blocks:
            assert [move.target for move in state.block_moves(origin)] == sorted(state.block_destinations(origin))
