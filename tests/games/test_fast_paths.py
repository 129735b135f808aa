"""Every shortcut an engine takes for speed answers as the plain rule does, over random games: Klotz
moves kept by field whatever the position, Fillit's F-5 filter and hex tables, Zillertal's
placements and the Valley carried over, Zillo's card moves, legality by object and layout shortcuts, and the
games' quick table copies."""

from __future__ import annotations

import dataclasses
import random

import pytest

from controller.games import GAMES
from controller.games.fillit.state import FillitState
from controller.games.hexgrid import DIRECTIONS, HexGrid, step
from controller.games.klotz import KlotzState
from controller.games.klotz import model as klotz_model
from controller.games.records import replaced
from controller.games.zillertal.state import ZillertalState
from controller.games.zillertal.valley import Valley
from controller.games.zillo import Move, Shift
from controller.games.zillo.deck import CARDS, kind, moves_zillo
from controller.games.zillo.layout import AREA
from controller.games.zillo.movegen import targets
from controller.games.zillo.reach import Landing
from controller.games.zillo.state import ZilloState
from tests.games.test_action_reach import random_states


def fresh(state):  # the same position, worked out from nothing
    return state.game.state_from_json(state.to_json())


def test_klotz_moves_looked_up_are_the_moves_of_the_walked_paths_whatever_game_asked_before() -> None:
    """K-3's moves are kept by field whatever the position (`LAST_WORKED_OUT`): positions of games of
    2, 3 and 4 players, asked in a mixed order, each get exactly the moves of their walked paths, and
    the cylinder each seat's tile is on carried from move to move is the one on the board."""
    states = [state for players in (2, 3, 4) for state in random_states("klotz", players, {}, games=2, seed=21)]
    random.Random(21).shuffle(states)
    for state in states:
        assert isinstance(state, KlotzState)
        for player in range(state.players):
            walked = [
                klotz_model.Move(origin, target)
                for origin in sorted(state.blocks)
                if state.may_move(player, state.blocks[origin])
                for target in sorted(state.block_destinations(origin))
            ]
            assert list(state.moves_of(player)) == walked
        assert state.tiles() == fresh(state).tiles()


@pytest.mark.parametrize("players", [2, 4])
def test_fillit_f5_filter_is_can_slide_after_for_every_step(players: int) -> None:
    for state in random_states("fillit", players, {}, games=3, seed=22):
        assert isinstance(state, FillitState)
        if state.is_terminal():
            continue
        steps = state.stone_steps()
        assert state._freeing(steps) == tuple(s for s in steps if state.can_slide_after(s))


@pytest.mark.parametrize("radius", [3, 4])
def test_hex_neighbour_table_is_the_six_steps_on_the_board(radius: int) -> None:
    grid = HexGrid(radius)
    for cell in (*grid.cells(), (radius + 1, 0)):
        walked = tuple(n for n in (step(cell, d) for d in DIRECTIONS) if grid.contains(n))
        assert grid.neighbours(cell) == walked


def test_zillertal_placements_are_the_lines_why_not_allows_and_the_valley_carried_over_is_the_same() -> None:
    for state in random_states("zillertal", 2, {}, games=4, seed=23):
        assert isinstance(state, ZillertalState)
        t = state.position
        rebuilt = Valley(state._set.valley, t.placed, t.gorge, t.crosses, t.tokens)
        valley = state.valley
        assert valley.zone_counts() == rebuilt.zone_counts()
        assert [valley.column_counts(c) for c in valley.columns()] == [
            rebuilt.column_counts(c) for c in rebuilt.columns()
        ]
        for card in state._set.valley.values():
            plain = tuple(
                at
                for at in range(rebuilt.first - card.width - 1, rebuilt.last + 2)
                if rebuilt.why_not(card, at) is None
            )
            assert valley.placements(card) == plain, card.id


def test_zillo_an_equal_action_is_as_legal_as_the_states_own_and_an_illegal_one_is_not() -> None:
    for state in random_states("zillo", 4, {"hands": "physical"}, games=2, seed=24)[::5]:
        assert isinstance(state, ZilloState)
        for action in state.legal_actions():
            assert state.is_legal(action)
            if isinstance(action, Move | Shift):
                assert state.is_legal(dataclasses.replace(action))  # equal, another object
        for action in state.legal_actions()[:20]:
            if isinstance(action, Move):
                assert not state.is_legal(dataclasses.replace(action, target=(action.target[0], 20)))


def test_zillo_covers_is_whether_a_part_lies_on_the_field() -> None:
    for state in random_states("zillo", 3, {"hands": "dealt"}, games=2, seed=25)[::10]:
        layout = state.position.layout
        fields = layout.fields()
        for x in range(AREA.width):
            for y in range(AREA.height):
                assert layout.covers((x, y)) == ((x, y) in fields)


def test_replaced_is_dataclasses_replace_and_names_an_unknown_field() -> None:
    for name in ("zillo", "zillertal"):
        table = GAMES[name].new_game(players=2, seed=1).position
        quick, plain = replaced(table, current=1, players=3), dataclasses.replace(table, current=1, players=3)
        assert type(quick) is type(plain)
        for field in dataclasses.fields(table):
            assert getattr(quick, field.name) == getattr(plain, field.name), field.name
        with pytest.raises(TypeError, match="has no field 'colour'"):
            replaced(table, colour="red")


def test_replaced_handles_a_one_field_record_and_refuses_fields_init_does_not_take() -> None:
    @dataclasses.dataclass(frozen=True)
    class One:
        value: int

    @dataclasses.dataclass(frozen=True)
    class Derived:
        value: int
        double: int = dataclasses.field(init=False, default=0)

    assert replaced(One(1), value=2) == One(2)
    assert replaced(One(1)) == One(1)
    with pytest.raises(TypeError, match="fields its __init__ does not take"):
        replaced(Derived(1), value=2)


@pytest.mark.parametrize("players", [2, 4])
def test_zillo_card_moves_are_the_ends_each_path_reaches_and_the_capture_rules_allow(players: int) -> None:
    """A card's moves, found with every end reached at once where the parts cover all its paths, are
    the ends its paths reach one by one (`targets`) where the capture rules allow the landing."""
    for state in random_states("zillo", players, {"hands": "dealt"}, games=2, seed=26)[::3]:
        assert isinstance(state, ZilloState)
        if state.is_terminal() or state.position.caught is not None:
            continue
        t = state.position
        for card in CARDS:
            if kind(card) == "shift":
                continue
            if moves_zillo(card):
                starts = [(t.zillo, None)]
            else:
                own = sorted((cell, stack) for cell, stack in t.catchers.items() if stack.player == t.current)
                starts = [(cell, count) for cell, stack in own for count in range(1, stack.count + 1)]
            plain = [
                Move(card, origin, target, count)
                for origin, count in starts
                for target in targets(t.layout, card, origin)
                if isinstance(state.landing(t.current, origin, target, count), Landing)
            ]
            assert sorted(state.card_moves(card), key=str) == sorted(plain, key=str), card
