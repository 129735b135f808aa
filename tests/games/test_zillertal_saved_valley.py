"""A saved Zillertal table whose Gorge, Crosses or tokens lie outside the Valley is refused with a
message naming the field (ZT-3, ZT-4): loading it must never give a state that fails later."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from controller.games import load_game

GAME = load_game("zillertal")


def one_card_laid() -> dict[str, Any]:
    state = GAME.new_game(players=2, seed=3)
    place = next(a for a in state.legal_actions() if type(a).__name__ == "Place")
    return state.apply(place).to_json()


GOOD = one_card_laid()  # one card: columns 0 to 3, dotted lines 0 to 4


def damaged(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    data.update(changes)
    return data


def test_the_undamaged_table_loads() -> None:
    assert GAME.state_from_json(GOOD).to_json() == GOOD
    assert [p["at"] for p in GOOD["valley"]] == [0]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"gorge": 4}, "field 'gorge': column 4 is outside the Valley, which has columns 0 to 3"),
        ({"gorge": -1}, "field 'gorge': column -1 is outside the Valley"),
        ({"crosses": [5]}, "field 'crosses': dotted line 5 is outside the Valley, which has dotted lines 0 to 4"),
        ({"crosses": [2, 2]}, "both Crosses stand on dotted line 2"),
        ({"tokens": [{"icon": "bird", "column": 7, "time": 1, "blank": False}]}, "tokens[0]: column 7 is outside"),
        ({"tokens": [{"icon": "bird", "column": 1, "time": 3, "blank": False}]}, "tokens[0]: 'time' 3 must count"),
    ],
)
def test_parts_outside_the_valley_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("(", r"\(")):
        GAME.state_from_json(damaged(**changes))


def test_inside_the_valley_they_load_and_play_on() -> None:
    state = GAME.state_from_json(damaged(gorge=3, crosses=[0, 4]))
    assert state.legal_actions()  # nothing raises on a loaded state


def test_nothing_but_cards_before_the_first_card() -> None:
    empty = GAME.new_game(players=2, seed=3).to_json()
    with pytest.raises(ValueError, match="no columns yet"):
        GAME.state_from_json({**empty, "gorge": 0})
