"""Hot-seat play (`tafel play`) driven by scripted input: hidden hands, hand-overs, bots, errors."""

import io
import json

import pytest

from controller.games import load_game
from controller.games.zodiac import SIGNS
from controller.terminal.arguments import seats_from
from controller.terminal.cardview import render_view
from controller.terminal.cli import main
from controller.terminal.hotseat import HotSeat, run_hotseat
from tests.games import zillertal_helpers, zodiac_helpers


def run(game: str, lines: list[str], humans, players: int, seed: int = 3, **options):
    out = io.StringIO()
    state = run_hotseat(
        load_game(game), players, seed, humans, "greedy", io.StringIO("\n".join(lines) + "\n"), out, **options
    )
    return state, out.getvalue()


def test_zodiac_two_people_pass_the_screen_and_see_only_their_own_hand():
    start = load_game("zodiac").new_game(players=2, seed=3)
    first = start.current_player
    second = 1 - first
    # Each draws and discards a sign they were dealt; the screen goes from one to the other.
    sign = {seat: next(c for c in start.position.hands[seat] if c in SIGNS) for seat in (0, 1)}
    script = ["", "draw", f"discard {sign[first]}", "", "draw", f"discard {sign[second]}"]
    state, text = run("zodiac", script, {0, 1}, 2)
    names = {0: "Red", 1: "Blue"}
    handovers = text.split("Pass the screen to ")
    assert [h.split(" ")[0] for h in handovers[1:4]] == [names[first], names[second], names[first]]
    first_view, second_view = handovers[1], handovers[2]
    own = " ".join(sorted(start.position.hands[first], key=zodiac_helpers.ORDER.get))
    assert f"Your hand: {own}" in first_view
    other = " ".join(sorted(start.position.hands[second], key=zodiac_helpers.ORDER.get))
    assert f"Your hand: {other}" not in first_view
    assert "Since your last turn:" in second_view and f"{names[first]}: draw" in second_view
    assert "Game stopped." in text and state.turns == 2


def test_bots_take_their_seats_and_only_the_human_is_asked():
    state, text = run("zodiac", [], {0}, 3)
    assert "(bot):" in text and "Pass the screen" not in text
    assert state.current_player == 0 and not state.is_terminal()


def test_help_numbers_and_errors():
    _, text = run("zodiac", ["?", "1", "castle", "9999", "quit"], {0}, 2, seed=5)
    assert "1. draw" in text
    assert "Not possible: 'castle' is not a Zodiac action" in text
    assert "there is no action number 9999" in text
    assert "Game stopped." in text


def test_undo_takes_back_an_own_action_of_the_turn_but_not_a_draw():
    start = load_game("zodiac").new_game(players=2, seed=3)
    _, text = run("zodiac", ["undo", "draw", "undo", "quit"], {start.current_player}, 2, seed=3)
    assert text.count("Nothing to undo") == 2  # nothing yet; then a draw showed a hidden card


def test_help_lists_the_commands_and_a_move_of_the_game():
    _, text = run("zillertal", ["help", "quit"], {0}, 2, seed=2)
    assert "commands:" in text and "undo" in text and "a move of this game, for example: " in text


def test_an_all_bot_game_plays_to_the_end_and_prints_the_result():
    state, text = run("zillertal", [], set(), 2, seed=2)
    assert state.is_terminal() and "Zillertal is over: " in text
    assert text.count("(bot):") >= 20


def test_zillertal_view_draws_the_valley_with_land_line_icons_and_zone_counts():
    state = zillertal_helpers.position(
        [("FLAT1", "PEAK"), ("UP12",)],
        valley=[("FLAT1", 0), ("UP12", 4)],
        contracts=[("K1-1",), ("K2-1",)],
        gorge=6,
        gorges_used=1,
        crosses=(1, 5),
    )
    text = render_view(state, 0)
    assert "Valley: dotted lines 0 to 8 (Gorge over column 6; Crosses on lines 1 and 5)" in text
    assert " land   0  1  2" in text and "o--o--o" in text
    assert "##" in text  # the Gorge's column
    assert "  left" in text and "  right" in text and "  crosses" in text and "  valley" not in text
    assert "FLAT1: land 1-1-1-1-1; icons B1 | C1 | P1 | H1" in text
    assert "UP12:" not in text  # player 1's hand is not shown to player 0
    assert "K2-1 (2 pt)" in text  # contracts are public


def test_zodiac_view_hides_other_hands():
    state = zodiac_helpers.position([("ari", "tau"), ("pis", "pis", "pis")], discard=("leo",))
    text = render_view(state, 0)
    assert "Your hand: ari tau" in text
    assert "pis pis" not in text and "player 1: 3 in hand" in text


def test_seats_from_checks_the_seats():
    assert seats_from("1, 2", 3, "--bots") == {1, 2}
    assert seats_from(None, 3, "--bots") == frozenset()
    with pytest.raises(ValueError, match="--bots: '5' is not a seat"):
        seats_from("5", 3, "--bots")


def test_hotseat_object_can_be_driven_directly():
    state = load_game("zillertal").new_game(players=1, seed=1)
    out = io.StringIO()
    table = HotSeat(state, {0}, {}, io.StringIO("?\nquit\n"), out)
    assert table.run() is state
    assert "aside" in out.getvalue() or "@0" in out.getvalue()


def test_cli_play_with_bots_and_humans(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("draw\npass\n"))
    assert main(["play", "zodiac", "--players", "3", "--humans", "0", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "people: Red; bots: Blue, Yellow" in out
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "zillertal", "--players", "2", "--bots", "0,1", "--seed", "1"]) == 0
    assert "Zillertal is over: Blue wins." in capsys.readouterr().out


def test_cli_play_refuses_bad_seats_and_card_options_on_board_games(capsys):
    assert main(["play", "klotz", "--humans", "0"]) == 2
    assert "--humans is for the card games" in capsys.readouterr().err
    assert main(["play", "zodiac", "--players", "2", "--bots", "4"]) == 2
    assert "not a seat" in capsys.readouterr().err


@pytest.mark.parametrize(("game", "players"), [("zodiac", 2), ("zodiac", 8), ("zillertal", 1), ("zillertal", 4)])
def test_cli_selfplay_is_deterministic_for_the_card_games(capsys, game, players):
    argv = ["selfplay", game, "--players", str(players), "--games", "2", "--seed", "1", "--json"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    second = json.loads(capsys.readouterr().out)
    first.pop("actions_per_s")
    second.pop("actions_per_s")
    assert first == second and first["games"] == 2 and len(first["wins"]) == players
    assert sum(first["wins"]) + first["draws"] + first["losses"] == 2


@pytest.mark.parametrize("game", ["zodiac", "zillertal"])
def test_cli_demo_shows_card_games_in_text(capsys, game):
    assert main(["demo", game, "--players", "2", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Your hand:" in out and "over after" in out
