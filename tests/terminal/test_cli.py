"""The command line: `tafel games`, `tafel selfplay` and `tafel demo`."""

import json

import pytest

from controller.terminal.cli import main


def test_games_lists_each_game_with_its_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "klotz" in out and "2, 3, 4" in out


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_selfplay_json_summary_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    summary = run_json(capsys, "selfplay", "klotz", "--players", "3", "--games", "2", "--seed", "4", "--json")
    for key in ("game", "players", "games", "wins", "draws", "avg_plies", "actions_per_s"):
        assert key in summary
    assert summary["game"] == "klotz" and summary["players"] == 3 and summary["games"] == 2
    assert len(summary["wins"]) == 3
    assert sum(summary["wins"]) + summary["draws"] == 2


def test_selfplay_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = (
        "selfplay",
        "klotz",
        "--players",
        "4",
        "--games",
        "3",
        "--seed",
        "1",
        "--json",
        "--bot",
        "random",
        "-o",
        "max_plies=120",
    )
    first = run_json(capsys, *argv)
    second = run_json(capsys, *argv)
    first.pop("actions_per_s")
    second.pop("actions_per_s")
    assert first == second


def test_selfplay_max_plies_option_forces_draws(capsys: pytest.CaptureFixture[str]) -> None:
    summary = run_json(capsys, "selfplay", "klotz", "--games", "2", "--bot", "random", "-o", "max_plies=3", "--json")
    assert summary["draws"] == 2 and summary["avg_plies"] == 3


def test_bad_input_gets_a_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["selfplay", "klotz", "--players", "5"]) == 2
    assert "2, 3, 4 players, not 5" in capsys.readouterr().err
    assert main(["selfplay", "klotz", "-o", "max_turns=3"]) == 2
    assert "no option max_turns" in capsys.readouterr().err
    assert main(["selfplay", "klotz", "-o", "max_plies=-1"]) == 2
    assert "max_plies" in capsys.readouterr().err
    for command in ("selfplay", "demo", "play"):  # what a new game takes besides its options
        assert main([command, "zillo", "-o", "players=3"]) == 2
        assert "--option players: not a game option: --players chooses it" in capsys.readouterr().err
        assert main([command, "zillo", "-o", "seed=3"]) == 2
        assert "--option seed: not a game option" in capsys.readouterr().err


def test_play_on_the_simulated_board_uses_the_board_it_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "klotz", "--profile", "hex61"]) == 2
    assert "board hex61 cannot play Klotz" in capsys.readouterr().err


def test_a_file_that_cannot_be_read_or_written_is_said_in_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from controller.terminal import cli

    def missing(_args: object) -> int:
        raise FileNotFoundError(2, "No such file or directory", "/no/such/file.json")

    monkeypatch.setitem(cli.COMMANDS, "games", missing)
    assert main(["games"]) == 1
    err = capsys.readouterr().err
    assert err == "tafel: /no/such/file.json: no such file or directory\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "--seconds", "-1"], "argument --seconds: must be a number more than 0, not -1"),
        (["bench", "--seconds", "inf"], "argument --seconds: must be a number more than 0, not inf"),
        (["diagnose", "--seconds", "0"], "argument --seconds: must be a number more than 0, not 0"),
        (["run", "--max-seconds", "nan"], "argument --max-seconds: must be a number more than 0, not nan"),
        (["demo", "klotz", "--speed", "abc"], "argument --speed: 'abc' is not a number"),
        (["broker-config", "a", "--port", "99999"], "argument --port: a port is a whole number from 1 to 65535"),
        (["relay", "--http-port", "0"], "argument --http-port: a port is a whole number from 1 to 65535"),
    ],
)
def test_times_paces_and_ports_out_of_range_are_refused_in_words(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize("command", ["selfplay", "demo", "play"])
def test_no_players_is_no_number_of_players(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--players 0` was taken for the game's usual number."""
    assert main([command, "klotz", "--players", "0"]) == 2
    assert "Klotz is played by 2, 3, 4 players, not 0" in capsys.readouterr().err
