"""The Zillertal card data file: the built-in set (ZT-5, ZT-6), the format's checks, loading from a path."""

import copy
import json
from pathlib import Path

import pytest

from controller.games.zillertal import Zillertal
from controller.games.zillertal.cards import builtin_card_set, load_card_set, parse_card_set
from tests.games.zillertal_helpers import TEST_SET_DATA

BUILTIN = Path(__file__).resolve().parents[2] / "controller" / "games" / "data" / "zillertal.toml"


def test_ZT_5_builtin_valley_cards_match_the_ruling():
    cards = builtin_card_set()
    assert len(cards.valley) == 18 and sum(cards.copies.values()) == 36  # 18 distinct, printed twice
    v01 = cards.valley["V01"]
    assert v01.heights == (1, 0, 1, 2, 1)
    assert v01.columns == ((0, 0, 3, 0, 0), (1, 1, 0, 0, 0), (0, 0, 0, 2, 2), (0, 2, 0, 0, 0))
    assert cards.valley["V18"].heights == (3, 2, 3, 4, 3)
    assert cards.in_use == {1: 18, 2: 18, 3: 27, 4: 36}


def test_ZT_6_builtin_contracts_match_the_ruling():
    cards = builtin_card_set()
    assert [len(cards.pile(v)) for v in (1, 2, 3)] == [12, 12, 12]
    assert cards.contracts["K1-01"].tasks == (("person", 5), ("cow", 7))
    assert cards.contracts["K3-12"].tasks == (("tree", 7), ("person", 12), ("bird", 12), ("cow", 12))
    for contract in cards.contracts.values():
        assert len(contract.tasks) == contract.points + 1  # 2, 3 or 4 tasks for 1, 2 or 3 points
        assert len({icon for icon, _ in contract.tasks}) == len(contract.tasks)  # distinct icons


def test_ZT_4_builtin_tokens_three_of_each_icon_and_two_blanks():
    assert builtin_card_set().tokens == {"bird": 3, "cow": 3, "person": 3, "house": 3, "tree": 3, "blank": 2}


def test_the_data_file_ships_inside_the_package():
    assert BUILTIN.is_file()
    assert load_card_set(BUILTIN).to_data() == builtin_card_set().to_data()


def test_to_data_round_trips_and_is_json():
    for cards in (builtin_card_set(), parse_card_set(TEST_SET_DATA)):
        data = json.loads(json.dumps(cards.to_data()))
        assert parse_card_set(data).to_data() == data


def broken(change) -> dict:
    data = copy.deepcopy(TEST_SET_DATA)
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format=2), "format must be 1"),
        (lambda d: d.pop("deck"), r"missing table \[deck\]"),
        (lambda d: d["deck"]["in_use"].pop("3"), "lacks player count"),
        (lambda d: d["deck"]["in_use"].update({"4": 1000}), "has only"),
        (lambda d: d["tokens"].update(dragon=1), "not a token kind"),
        (lambda d: d["valley"][1].update(id="FLAT1"), "used twice"),
        (lambda d: d["valley"][0].update(id="bad id"), "id must be"),
        (lambda d: d["valley"][0].update(heights=[1, 1, 1]), "columns must give one icon string per column"),
        (lambda d: d["valley"][0].update(columns=["B1", "X2", "", ""]), "icon letter"),
        (lambda d: d["valley"][0].update(columns=["B1 B2", "", "", ""]), "appears twice"),
        (lambda d: d["valley"][0].update(heights=[1, -1, 1, 1, 1]), r"heights\[1\]"),
        (lambda d: d["contract"][0].update(points=4), "points must be 1, 2 or 3"),
        (lambda d: d["contract"][0]["tasks"].update(tree=3), "has 2 tasks, not 3"),
        (lambda d: d["contract"][0]["tasks"].update(dragon=3), "not an icon"),
        (lambda d: d.update(valley=[]), "no \\[\\[valley\\]\\] cards"),
    ],
)
def test_bad_card_data_is_refused_with_a_message_naming_the_entry(change, message):
    with pytest.raises(ValueError, match=message):
        parse_card_set(broken(change), "mine.toml")


def test_errors_name_the_file_and_the_card():
    with pytest.raises(ValueError, match=r"mine.toml: valley\[0\] \(FLAT1\)"):
        parse_card_set(broken(lambda d: d["valley"][0].update(columns=["Q1", "", "", ""])), "mine.toml")


def toml_text(data: dict) -> str:
    """A minimal TOML writer for the test set (the format the docs describe)."""
    lines = [f"format = {data['format']}", f'name = "{data["name"]}"', "", "[deck]"]
    lines.append(f"copies = {data['deck']['copies']}")
    lines.append("in_use = { " + ", ".join(f"{k} = {v}" for k, v in data["deck"]["in_use"].items()) + " }")
    lines += ["", "[tokens]", *(f"{k} = {v}" for k, v in data["tokens"].items())]
    for card in data["valley"]:
        columns = ", ".join(f'"{c}"' for c in card["columns"])
        lines += [
            "",
            "[[valley]]",
            f'id = "{card["id"]}"',
            f"heights = {card['heights']}",
            f"columns = [{columns}]",
        ]
    for contract in data["contract"]:
        tasks = ", ".join(f"{k} = {v}" for k, v in contract["tasks"].items())
        lines += [
            "",
            "[[contract]]",
            f'id = "{contract["id"]}"',
            f"points = {contract['points']}",
            f"tasks = {{ {tasks} }}",
        ]
    return "\n".join(lines) + "\n"


def test_a_game_with_cards_from_another_file_saves_them_with_the_state(tmp_path):
    path = tmp_path / "my-cards.toml"
    path.write_text(toml_text(TEST_SET_DATA))
    game = Zillertal()
    state = game.new_game(players=2, seed=3, cards=str(path))
    assert set(state.position.hands[0]) <= {"FLAT1", "FLAT2", "UP12", "DOWN21", "PEAK"}
    data = json.loads(json.dumps(state.to_json()))
    path.unlink()  # the saved game does not need the file any more
    assert game.state_from_json(data) == state
    assert game.new_game(players=2, seed=3).to_json()["cards"] is None  # the built-in set is not copied


def test_unreadable_or_invalid_card_files_give_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="cannot read the Zillertal card file"):
        load_card_set(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("format = [")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_card_set(bad)
    with pytest.raises(ValueError, match="cards must be the path"):
        Zillertal().new_game(players=2, cards=5)


def test_a_set_too_small_for_the_player_count_is_refused(tmp_path):
    small = broken(
        lambda d: d.update(
            contract=[c for c in d["contract"] if c["id"] not in ("K3-2", "K3-3", "K3-4", "K3-5", "K3-6")]
        )
    )
    path = tmp_path / "small.toml"
    path.write_text(toml_text(small))
    with pytest.raises(ValueError, match="need 4 contracts worth 3"):
        Zillertal().new_game(players=4, cards=str(path))
