"""The physical commands of the command line: demo, play, selfplay --physical and bench."""

import dataclasses
import io
import json

import pytest

from controller.games import GAMES, load_game
from controller.terminal import bench
from controller.terminal.bench import CASES, bench_steps, format_bench, run_bench
from controller.terminal.bench_gpio import run_gpio_bench
from controller.terminal.bench_service import PauseLog, format_service, service_bench
from controller.terminal.cli import main
from controller.terminal.play import play_terminal


def test_demo_plays_a_whole_game_through_the_simulated_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "klotz", "--players", "2", "--seed", "3", "--plain", "-o", "max_plies=12"]) == 0
    out = capsys.readouterr().out
    assert "simulated square14 board" in out
    assert out.count("LED answer ") == 12 and out.count("board commits ") == 12
    assert "hand lifts" in out and "hand puts down" in out and "legend:" in out
    assert "Wrong commits: 0" in out and "Klotz over after 12 moves: Draw." in out


def test_demo_draws_fillit_on_the_hex_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "fillit", "--seed", "2", "--plain", "-o", "max_turns=3"]) == 0
    out = capsys.readouterr().out
    assert "simulated hex61 board" in out and "Wrong commits: 0" in out


def test_selfplay_physical_reports_the_tracker_figures(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "selfplay",
        "klotz",
        "--physical",
        "--players",
        "3",
        "--games",
        "2",
        "--seed",
        "5",
        "--sensor",
        "count",
        "--noise",
        "high",
        "--json",
        "-o",
        "max_plies=30",
    ]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    for key in (
        "intended",
        "committed",
        "wrong_commits",
        "confirmations",
        "takebacks",
        "guidance_episodes",
        "step_ms_mean",
        "step_ms_p99",
    ):
        assert key in summary
    assert summary["sensor"] == "count" and summary["noise"] == "high"
    assert summary["intended"] == summary["committed"] == 60
    assert summary["wrong_commits"] == 0


def test_play_lifts_places_and_moves_with_bots_on_the_other_seats() -> None:
    lines: list[str] = []
    commands = io.StringIO("lift c7\nplace c4\nl7-l4\nmoves\nfoo\nquit\n")
    play_terminal(load_game("klotz"), 2, 0, bots=[1], lines=commands, ansi=False, out=lines.append)
    text = "\n".join(lines)
    assert "Yellow plays" in text  # the bot answered the hand-made move c7-c4
    assert "'foo' is neither a command nor a move" in text  # `foo` is refused, naming the commands


def test_play_refuses_an_illegal_move_with_the_reason() -> None:
    lines: list[str] = []
    play_terminal(load_game("klotz"), 2, 0, bots=[1], lines=io.StringIO("c7-c5\nquit\n"), ansi=False, out=lines.append)
    assert any("cannot reach c5" in line for line in lines)


def test_play_rejects_a_bot_seat_outside_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "klotz", "--players", "2", "--bots", "5"]) == 2
    assert "'5' is not a seat (0 to 1)" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["klotz", "zodiac"])
def test_play_names_a_level_given_as_bot_seats(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A level where seats belong (`--bots search-2` for `--bot search-2`) is refused in words, on
    the board games' path as on the card games'."""
    assert main(["play", game, "--bots", "search-2"]) == 2
    err = capsys.readouterr().err
    assert "'search-2' is not a seat" in err and "chosen with --bot" in err
    assert "invalid literal" not in err


SHORT = {"klotz": {"max_plies": 40}, "zillo": {"max_turns": 40}}  # long games measure nothing more here


def test_bench_measures_every_board_game_and_sensor_model_with_the_tables_built_inside_the_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    short = tuple(dataclasses.replace(case, options={**case.options, **SHORT.get(case.game, {})}) for case in CASES)
    monkeypatch.setattr(bench, "CASES", short)
    steps: list[int] = []
    result = run_bench(
        games=1, playout_seconds=0.05, service=False, on_step=lambda: steps.append(1), search_positions=1
    )
    assert len(steps) == bench_steps(1, service=False)  # the progress bar ends full
    rows = {(row["case"], row["sensor"]): row for row in result["tracker"]}
    assert set(rows) == {(case.label, model) for case in CASES for model in ("binary", "count", "signed")}
    assert {case.label for case in CASES} >= {"klotz", "fillit", "zillertal", "zodiac", "zillo dealt", "zillo physical"}
    for row in rows.values():
        assert row["wrong_commits"] == 0 and row["moves"] > 0
        # The first step of each position is timed apart, and so is the first lift where the sensors see
        # the moves (Zillertal's and Zodiac's cards are read or declared, not sensed).
        assert row["first_after_commit_max_ms"] > 0
        assert (row["first_lift_max_ms"] > 0) == (row["case"] not in ("zillertal", "zodiac"))
        assert row["changed_max_ms"] >= max(row["first_lift_max_ms"], row["first_after_commit_max_ms"])
    assert set(result["playout_actions_per_s"]) == set(result["playout_vs_python_chess"]) == set(GAMES)
    assert all(speed > 0 for speed in result["playout_actions_per_s"].values())
    for name, row in result["search_think_time"].items():
        weaker, stronger = (row["levels"][level] for level in ("search-1", "search-2"))
        assert row["positions"] == 1 and 0 < weaker["simulations"] < stronger["simulations"], name
        assert weaker["move_ms"] > 0 and row["ms_per_simulation"] > 0
    assert result["service"] == []
    text = format_bench(result)
    assert "first lift" in text and "place-to-LED" in text and "python-chess" in text and "zillo physical" in text
    assert "search think time" in text
    assert "GPIO scan cost per backend" in text and "not measured on a Pi" in text
    json.dumps(result)  # --json keeps every figure


def test_the_service_bench_runs_the_service_in_its_own_process_and_reports_memory_and_pauses() -> None:
    (row,) = service_bench(["klotz 600 moves"], max_scans=3000)
    assert row["run"] == "klotz 600 moves" and row["scans"] > 3000 and row["moves"] > 0  # start-up scans once too
    assert 10 < row["peak_rss_mb"] < 200 and row["end_rss_mb"] <= row["peak_rss_mb"]
    assert set(row["split"]) == {"scan", "tracker", "journal", "leds"}
    per_scan = row["service_per_unchanged_scan"]
    assert 0 < per_scan["p50_us"] <= per_scan["p99_us"] and per_scan["mean_us"] > 0
    assert row["gc"]["collections"] >= 1  # the loop paced its own collections
    assert row["gc"]["start_up_ms"] > 0  # the one collection before start-up is frozen, kept apart
    text = format_service([row])
    assert "klotz 600 moves" in text and "peak RSS" in text


def test_collections_before_the_loop_runs_are_start_up_not_stalls_of_the_loop() -> None:
    looping = False
    log = PauseLog(in_loop=lambda: looping)
    for _ in range(2):
        log("start", {"generation": 2})
        log("stop", {"generation": 2})
    assert log.pauses.count == 0 and log.full == 0 and log.take() == 0.0 and log.start_up_ms > 0
    looping = True
    log("start", {"generation": 0})
    log("stop", {"generation": 0})
    assert log.pauses.count == 1 and log.take() > 0
    looping = False  # the loop has ended: what follows still counts as the loop's
    log("start", {"generation": 2})
    log("stop", {"generation": 2})
    assert log.pauses.count == 2 and log.full == 1


def test_bench_says_what_is_wrong_with_its_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "chess"]) == 2
    assert "no board game 'chess' to bench: choose one of fillit, klotz" in capsys.readouterr().err
    assert main(["bench", "--games", "0"]) == 2
    assert "--games must be at least 1, not 0" in capsys.readouterr().err


def test_bench_counts_the_library_calls_of_each_gpio_backend() -> None:
    """Calls per scan are what a Pi would make (gpiozero's real factories over the lgpio stand-in):
    the mux steps the select lines in Gray code, the chain over GPIO pulses the clock per bit, over
    SPI it is one transfer, the ADC one transfer per field. Times are only reported."""
    rows = {(row["backend"], row["library"]): row for row in run_gpio_bench(scans=2)}
    assert rows["mux (13 x 74HC4067)", "lgpio"]["calls_per_scan"] == {"gpio_write": 19, "gpio_read": 196}
    assert rows["mux (13 x 74HC4067)", "rpigpio"]["calls_per_scan"] == {"output": 19, "input": 196}
    shift_gpio = rows["shift over GPIO (25 x 74HC165)", "lgpio"]
    assert shift_gpio["calls_per_scan"] == {"gpio_write": 2 + 400, "gpio_read": 196}
    assert rows["shift over SPI0 (25 x 74HC165)", "lgpio"]["calls_per_scan"] == {"gpio_write": 2, "spi_read": 1}
    analog = rows["analog (4 x 74HC4067, MCP3008)", "lgpio"]
    assert analog["calls_per_scan"]["gpio_write"] == 19 and analog["calls_per_scan"]["spi_xfer"] == analog["channels"]
    for row in rows.values():
        for pi, estimate in row["estimate_us"].items():
            assert (estimate > 0 and row["estimate_max_hz"][pi] == int(1e6 / estimate)) or estimate == round(estimate)


@pytest.mark.parametrize("style", ["slow", "knocky", "quick"])
def test_selfplay_physical_plays_with_the_hands_named(style: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--hands` puts the named habits on the virtual players: the summary names them, the habits
    show in its counts, and the board still takes every move right."""
    argv = ["selfplay", "klotz", "--physical", "--games", "2", "--seed", "3", "--noise", "high", "--hands", style]
    assert main([*argv, "--json", "-o", "max_plies=60"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["hands"] == style and summary["intended"] == summary["committed"] > 0
    assert summary["wrong_commits"] == 0 and summary["missed"] == 0 and summary["unfinished"] == 0
    if style == "knocky":
        assert summary["behaviours"]["knock"] * 20 >= summary["intended"]  # 3 in 10 where a piece stands beside
    if style == "quick":
        assert summary["fast_replies"] >= summary["intended"] // 4


def test_selfplay_names_the_hands_of_the_noise_level(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "klotz", "--physical", "--games", "1", "--json", "-o", "max_plies=4"]
    for noise, hands in (("none", "calm"), ("low", "human"), ("high", "clumsy")):
        assert main([*argv, "--noise", noise]) == 0
        assert json.loads(capsys.readouterr().out)["hands"] == hands


def test_selfplay_physical_with_cards_shown_first_needs_fewer_confirmations(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "zillo", "--physical", "--players", "2", "--games", "3", "--seed", "1", "--sensor", "count",
            "--json"]  # fmt: skip
    assert main(argv) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*argv, "--show-cards"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["show_cards"] is True and "show_cards" not in plain
    assert shown["wrong_commits"] == plain["wrong_commits"] == 0
    assert shown["confirmations"] < plain["confirmations"]
