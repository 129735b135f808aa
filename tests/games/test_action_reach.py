"""Every game's `action_reach` names every field an action changes, `occupancy_after` is what
playing the action leaves, `occupancy_changes` names exactly what changes, and actions with one
`action_effect` leave the same board: over random games of every game, for every legal action of
every state.

The board weighs only actions that reach the fields it saw change (controller/table/candidates.py),
so a reach that missed a field would make a legal move invisible to the board."""

from __future__ import annotations

import random

import pytest

from controller.games import GAMES, State
from controller.games.footprint import footprint

CASES = [
    ("klotz", 2, {}),
    ("klotz", 4, {}),
    ("fillit", 2, {}),
    ("fillit", 4, {}),
    ("zillertal", 2, {}),
    ("zodiac", 4, {}),
    ("zillo", 2, {"hands": "dealt"}),
    ("zillo", 4, {"hands": "dealt", "match": True}),
    ("zillo", 3, {"hands": "physical"}),
    ("zillo", 4, {"hands": "physical", "match": True}),
]


def random_states(name: str, players: int, options: dict, games: int, seed: int) -> list[State]:
    game = GAMES[name]
    rng = random.Random(seed)
    states = []
    for number in range(games):
        state = game.new_game(players=players, seed=seed + number, **options)
        while not state.is_terminal() and len(states) < 150 * (number + 1):
            states.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
    return states


def changed_fields(before: dict, after: dict) -> set:
    return {cell for cell in before.keys() | after.keys() if before.get(cell) != after.get(cell)}


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_the_reach_of_every_legal_action_covers_every_field_it_changes(name: str, players: int, options: dict) -> None:
    checked = 0
    for state in random_states(name, players, options, games=3, seed=11):
        before = state.occupancy()
        by_effect: dict = {}
        for action in state.legal_actions():
            after = state.apply(action).occupancy()
            assert state.occupancy_after(action) == after, state.action_to_str(action)
            # The changed fields alone, with what stands on them after, tell the same story.
            changes = state.occupancy_changes(action)
            assert {cell: pieces for cell, pieces in changes.items() if before.get(cell, ()) != pieces} == {
                cell: after.get(cell, ()) for cell in changed_fields(before, after)
            }, state.action_to_str(action)
            before_changes = {cell: before[cell] for cell in changes if cell in before}
            assert footprint(before_changes, changes) == footprint(before, after), state.action_to_str(action)
            # Actions with one effect leave the same pieces on the same fields.
            assert by_effect.setdefault(state.action_effect(action), after) == after, state.action_to_str(action)
            reach = state.action_reach(action)
            if reach is None:
                continue
            missed = changed_fields(before, after) - set(reach)
            assert not missed, f"{state.action_to_str(action)} changes {sorted(missed)} outside its reach"
            checked += 1
    if name in ("klotz", "fillit", "zillo"):
        assert checked > 500  # these games name their reach: the test weighed real actions


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_a_state_that_forgets_what_it_derived_works_it_out_again_the_same(
    name: str, players: int, options: dict
) -> None:
    """A long game's history keeps its states without their legal actions (forget_derived): asked
    again, a state answers exactly as before, for its actions, their legality and where they lead."""
    for state in random_states(name, players, options, games=1, seed=5)[::7]:
        legal = state.legal_actions()
        after = [state.apply(action).to_json() for action in legal[:20]]
        notation = [state.action_to_str(action) for action in legal]
        state.forget_derived()
        assert state.legal_actions() == legal
        state.forget_derived()
        assert [state.apply(action).to_json() for action in legal[:20]] == after
        assert [state.action_to_str(action) for action in state.legal_actions()] == notation
