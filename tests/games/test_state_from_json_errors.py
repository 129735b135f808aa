"""A damaged saved Klotz game is refused with a ValueError that names what is wrong."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from controller.games.klotz import Klotz
from tests.games.klotz_positions import position_json

KLOTZ = Klotz()
GOOD = KLOTZ.new_game(3).to_json()


def damaged(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    change(data)
    return data


def block_index(data: dict[str, Any], field: str) -> int:
    return next(i for i, entry in enumerate(data["blocks"]) if entry["cell"] == field)


def set_block(field: str, **values: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["blocks"][block_index(data, field)].update(values)

    return change


def test_the_undamaged_state_loads() -> None:
    assert KLOTZ.state_from_json(GOOD) == KLOTZ.new_game(3)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "must be a JSON object, got list"),
        ("klotz", "must be a JSON object, got str"),
        (damaged(lambda d: d.update(game="zillo")), "of game 'zillo', not 'klotz'"),
        (damaged(lambda d: d.pop("game")), "of game None, not 'klotz'"),
        (damaged(lambda d: d.update(version=2)), "format version 2; expected 1"),
        (damaged(lambda d: d.pop("version")), "format version None"),
        (damaged(lambda d: d.pop("players")), "lacks the field 'players'"),
        (damaged(lambda d: d.update(players="3")), "field 'players' must be int, got '3'"),
        (damaged(lambda d: d.update(players=True)), "field 'players' must be int, got True"),
        (damaged(lambda d: d.update(players=5)), "2, 3, 4 players, not 5"),
        (damaged(lambda d: d.update(blocks={})), "field 'blocks' must be list"),
        (damaged(lambda d: d["blocks"].append(7)), r"blocks\[27\] must be an object"),
        (damaged(lambda d: d["blocks"][0].pop("cell")), r"blocks\[0\]: saved state lacks the field 'cell'"),
        (damaged(set_block("d4", cell="d44")), r"blocks\[\d+\]: 'd44' is not on this board"),
        (damaged(set_block("d4", cell="D4")), r"blocks\[\d+\]: 'D4' is not a field"),
        (damaged(set_block("d4", cell="d11")), r"blocks\[\d+\]: two blocks on d11"),
        (damaged(set_block("d4", size=4)), r"blocks\[\d+\]: a cylinder has size 1, 2 or 3, not 4"),
        (damaged(set_block("d4", size="2")), r"blocks\[\d+\]: field 'size' must be int"),
        (damaged(set_block("g8", size=3)), r"blocks\[\d+\]: a square has size 4 and belongs to a seat 0..2"),
        (damaged(set_block("g8", player=None)), r"a square has size 4 and belongs to a seat 0..2"),
        (damaged(set_block("g8", player=3)), r"a square has size 4 and belongs to a seat 0..2"),
        (damaged(set_block("d4", player=3)), r"blocks\[\d+\]: tile owner 3 is not a seat"),
        (damaged(set_block("d4", player="red")), r"field 'player' must be int or null"),
        (damaged(set_block("d4", kind="pyramid")), r"unknown block kind 'pyramid' \(square or cylinder\)"),
        (damaged(lambda d: d.update(current_player=3)), "current_player 3 is not a seat of a 3-player game"),
        (damaged(lambda d: d.update(current_player=-1)), "current_player -1 is not a seat"),
        (damaged(lambda d: d.update(winner=7)), "winner 7 is not a seat of a 3-player game"),
        (damaged(lambda d: d.update(ply=-1)), "ply must not be negative"),
        (damaged(lambda d: d.update(ply=1.0)), "field 'ply' must be int"),
        (damaged(lambda d: d.update(passes=-1)), r"passes must be 0..3"),
        (damaged(lambda d: d.update(passes=4)), r"passes must be 0..3"),
        (damaged(lambda d: d.update(max_plies=0)), "max_plies must be a positive whole number or None"),
        (damaged(lambda d: d.update(max_plies="600")), "field 'max_plies' must be int or null"),
        (damaged(lambda d: d.pop("max_plies")), "lacks the field 'max_plies'"),
    ],
)
def test_bad_saved_state_names_the_problem(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        KLOTZ.state_from_json(data)


def layout_error(players: int, layout: dict[str, str], **extra: Any) -> str:
    with pytest.raises(ValueError) as caught:
        KLOTZ.state_from_json(position_json(players, layout, **extra))
    return str(caught.value)


def test_every_seat_needs_exactly_one_square() -> None:
    assert "Yellow (seat 1) must have exactly one square, not 0" in layout_error(2, {"g8": "square0"})
    two = layout_error(2, {"g8": "square0", "h7": "square1", "c3": "square1"})
    assert "Yellow (seat 1) must have exactly one square, not 2" in two


def test_a_tile_is_on_at_most_one_cylinder() -> None:
    # K-4: every player has one tile.
    message = layout_error(2, {"g8": "square0", "h7": "square1", "d4": "cyl2@0", "k4": "cyl2@0"})
    assert "Red's one tile cannot be on several cylinders (d4, k4)" in message


def test_only_a_squares_own_start_field_may_hold_it() -> None:
    # K-3: nothing stops on an inner field, so only a square that never left (or was captured) is there.
    assert "h8 is an inner field; only Blue's square may stand there" in layout_error(
        2, {"h8": "square0", "h7": "square1"}
    )
    assert "g7 is an inner field; only Green's square may stand there" in layout_error(
        2, {"g8": "square0", "h7": "square1", "g7": "cyl1"}
    )


def test_a_corner_holds_nothing_but_the_winning_square() -> None:
    assert "a1 is a corner; only Green's winning square may stand there" in layout_error(
        2, {"g8": "square0", "h7": "square1", "a1": "cyl1"}
    )
    assert "a14 is a corner; only Red's winning square may stand there" in layout_error(
        2, {"a14": "square0", "h7": "square1"}
    )
    won = position_json(2, {"a14": "square0", "h7": "square1"}, winner=0)
    assert KLOTZ.state_from_json(won).is_terminal()


def test_a_winner_must_stand_on_their_corner() -> None:
    message = layout_error(2, {"g8": "square0", "h7": "square1"}, winner=1)
    assert "winner: Yellow won, so their square must stand on n1" in message
