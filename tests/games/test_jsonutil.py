"""JSON helpers: the header check and typed field access name exactly what is wrong."""

from __future__ import annotations

import json
from typing import Any

import pytest

from controller.games.jsonutil import cell_from_json, cell_to_json, check_header, dumps, field, header


def test_header_is_game_and_version() -> None:
    assert header("klotz", 1) == {"game": "klotz", "version": 1}
    data = {**header("klotz", 1), "x": 1}
    assert check_header(data, "klotz", 1) is data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a saved klotz state must be a JSON object, got list"),
        (None, "must be a JSON object, got NoneType"),
        ({"version": 1}, "this saved state is of game None, not 'klotz'"),
        ({"game": "fillit", "version": 1}, "of game 'fillit', not 'klotz'"),
        ({"game": "klotz"}, "saved klotz state has format version None; expected 1"),
        ({"game": "klotz", "version": "1"}, "format version '1'; expected 1"),
        ({"game": "klotz", "version": 2}, "format version 2; expected 1"),
    ],
)
def test_bad_headers_say_what_is_wrong(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_header(data, "klotz", 1)


def test_field_returns_a_value_of_the_right_type() -> None:
    data = {"n": 3, "s": "x", "none": None, "flag": True}
    assert field(data, "n", int) == 3
    assert field(data, "s", str) == "x"
    assert field(data, "none", (int, type(None))) is None
    assert field(data, "flag", bool) is True


def test_a_missing_field_is_named() -> None:
    with pytest.raises(ValueError, match="saved state lacks the field 'ply'"):
        field({}, "ply", int)


@pytest.mark.parametrize(
    ("value", "kind", "message"),
    [
        ("3", int, "field 'x' must be int, got '3'"),
        (3.0, int, "field 'x' must be int, got 3.0"),
        (True, int, "field 'x' must be int, got True"),
        (False, (int, type(None)), "field 'x' must be int or null, got False"),
        ([1], dict, r"field 'x' must be dict, got \[1\]"),
        (None, str, "field 'x' must be str, got None"),
    ],
)
def test_a_field_of_the_wrong_type_is_named_with_its_value(value: Any, kind: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        field({"x": value}, "x", kind)


def test_cells_round_trip_through_json() -> None:
    for cell in ((0, 0), (13, 2), (-3, 4)):
        assert cell_from_json(json.loads(json.dumps(cell_to_json(cell))), "here") == cell


@pytest.mark.parametrize("value", [None, 3, [1], [1, 2, 3], ["a", 1], [1.0, 2], [True, 1], {"x": 1}])
def test_a_bad_cell_names_where_it_is(value: Any) -> None:
    with pytest.raises(ValueError, match="pieces\\[2\\]: a cell must be a pair of integers"):
        cell_from_json(value, "pieces[2]")


def test_dumps_is_canonical() -> None:
    assert dumps({"b": 1, "a": [1, 2]}) == '{"a":[1,2],"b":1}'
    assert dumps({"a": 1, "b": 2}) == dumps({"b": 2, "a": 1})
