"""Fillit property tests over random games: legality, round trips and the game's invariants."""

from __future__ import annotations

import json
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import IllegalAction
from controller.games.fillit import (
    PHASE_PAWN_MOVED,
    PHASE_START,
    PHASE_STONE_MOVED,
    SETUPS,
    STONES,
    FillitState,
    Slide,
    StoneStep,
)
from controller.games.hexgrid import CENTRE
from tests.games.fillit_positions import GAME

CASES = sorted(SETUPS)
PROPERTY_SETTINGS = settings(max_examples=30, deadline=None)


def random_game(case: tuple[str, int, str], choices: list[int]) -> list[FillitState]:
    """The states of a game played by `choices` (indices into the legal actions), start included."""
    board, players, letter = case
    state = GAME.new_game(players=players, board=board, setup=letter, max_turns=40)
    assert isinstance(state, FillitState)
    states = [state]
    for choice in choices:
        actions = state.legal_actions()
        if not actions:
            break
        after = state.apply(actions[choice % len(actions)])
        assert isinstance(after, FillitState)
        states.append(after)
        state = after
    return states


def check_invariants(state: FillitState) -> None:
    grid = state.grid
    pawns, stones, chips = state.pawns, state.stones, state.chips
    # Pieces stay on the board, off the centre (F-1), never share a hex; no chip under a stone (F-7).
    for where in (*pawns, *stones, *chips):
        assert grid.contains(where) and where != CENTRE
    assert len(set(pawns)) == len(pawns) and not set(pawns) & set(stones)
    assert not set(stones) & set(chips)
    # F-2: chips are conserved; F-3: stones are neither made nor lost.
    for side in range(state.side_count):
        assert state.supply[side] + state.chips_on_board(side) == state.total_chips
        assert state.supply[side] >= 0
        assert sum(1 for owner in stones.values() if owner == side) == STONES[(state.board, state.players)]
    if state.winning_side() is None:
        # A pawn always stands on a chip of its side (set-up, slides end on one, swaps carry it along).
        for seat, pawn in enumerate(pawns):
            assert chips.get(pawn) == state.side_of(seat)
    assert state.is_terminal() == (state.legal_actions() == ())
    if state.phase == PHASE_STONE_MOVED and not state.is_terminal():
        assert all(isinstance(a, Slide) for a in state.legal_actions())
    if state.phase == PHASE_PAWN_MOVED and not state.is_terminal():
        assert state.legal_actions() == state.stone_steps()


@PROPERTY_SETTINGS
@given(st.sampled_from(CASES), st.lists(st.integers(0, 10_000), max_size=60))
def test_random_games_keep_the_invariants(case: tuple[str, int, str], choices: list[int]) -> None:
    states = random_game(case, choices)
    for before, after in pairwise(states):
        check_invariants(after)
        # One turn is one or two actions by the same player (F-5).
        if after.turn == before.turn:
            assert after.current_player == before.current_player
        else:
            assert after.turn == before.turn + 1 and after.phase == PHASE_START
            assert after.current_player == (before.current_player + 1) % before.players
    check_invariants(states[0])


@PROPERTY_SETTINGS
@given(st.sampled_from(CASES), st.lists(st.integers(0, 10_000), max_size=60))
def test_json_and_notation_round_trip(case: tuple[str, int, str], choices: list[int]) -> None:
    for state in random_game(case, choices):
        text = json.dumps(state.to_json())
        again = GAME.state_from_json(json.loads(text))
        assert again == state and json.dumps(again.to_json()) == text
        assert again.legal_actions() == state.legal_actions()
        json.dumps(state.observation(state.current_player))
        for action in state.legal_actions():
            written = state.action_to_str(action)
            assert state.parse_action(written) == action
            assert again.action_to_str(again.parse_action(written)) == written


@PROPERTY_SETTINGS
@given(
    st.sampled_from(CASES),
    st.lists(st.integers(0, 10_000), max_size=40),
    st.lists(st.tuples(st.booleans(), st.integers(0, 60), st.integers(0, 60)), min_size=1, max_size=12),
)
def test_actions_outside_the_legal_set_raise_with_a_reason(
    case: tuple[str, int, str], choices: list[int], probes: list[tuple[bool, int, int]]
) -> None:
    state = random_game(case, choices)[-1]
    cells = state.grid.cells()
    legal = set(state.legal_actions())
    for is_slide, a, b in probes:
        origin, target = cells[a % len(cells)], cells[b % len(cells)]
        action = Slide(origin, target) if is_slide else StoneStep(origin, target)
        if action in legal:
            assert isinstance(state.apply(action), FillitState)
            continue
        try:
            state.apply(action)
        except IllegalAction as error:
            assert error.reason
        else:
            raise AssertionError(f"{state.action_to_str(action)} applied though not legal")


@PROPERTY_SETTINGS
@given(st.sampled_from(CASES), st.lists(st.integers(0, 10_000), max_size=60))
def test_F5_no_legal_stone_step_blocks_a_pawn_that_could_slide(case: tuple[str, int, str], choices: list[int]) -> None:
    for state in random_game(case, choices):
        if state.is_terminal() or state.phase != PHASE_START:
            continue
        me = state.current_player
        step_results = [state.apply(a) for a in state.legal_actions() if isinstance(a, StoneStep)]
        slide_follows = [after.current_player == me for after in step_results]
        some_order_slides = bool(state.slide_paths()) or any(slide_follows)
        if some_order_slides:
            # F-5: every stone step offered first leaves a slide to make.
            assert all(slide_follows)
        else:
            # F-5: no order allows a slide: every stone step is legal and is the whole turn.
            assert len(step_results) == len(state.stone_steps())
