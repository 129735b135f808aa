"""A newcomer's first hour, scripted: the README's commands, `play` for every game with a move, a bad
move, garbage, `undo` and the end of input, every game in `demo` and `selfplay` (Zodiac with eight
players through the physical stack), bad arguments, Ctrl-C and a closed pipe.

Each runs as a real process, as a person would start it. No output may show a traceback, a Python
exception name or an internal `(x, y)` coordinate.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.games import load_game

ROOT = Path(__file__).resolve().parent.parent
LEAKS = re.compile(r"Traceback|\b[A-Z][A-Za-z]*(?:Error|Exception)\b|KeyboardInterrupt|\(\s*-?\d+,\s*-?\d+\s*\)")
ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}
SHORT = {  # keep every game short
    "klotz": ["-o", "max_plies=16"],
    "fillit": ["-o", "max_turns=4"],
    "zillo": ["-o", "max_turns=6"],
    "zillertal": [],
    "zodiac": ["-o", "max_turns=30"],
}


def tafel(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller.terminal.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ENV,
        timeout=timeout,
    )


def assert_clean(result: subprocess.CompletedProcess[str], *codes: int) -> str:
    text = result.stdout + result.stderr
    leak = LEAKS.search(text)
    assert leak is None, f"{result.args[3:]} printed {leak.group(0)!r}:\n{text[-3000:]}"
    assert result.returncode in (codes or (0,)), f"{result.args[3:]} exited {result.returncode}:\n{text[-2000:]}"
    return text


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["games"],
        *(["games", name] for name in SHORT),
        *(
            [command, "--help"]
            for command in ("games", "selfplay", "demo", "play", "companion", "bench", "run", "diagnose", "calibrate")
        ),
        ["selfplay", "klotz", "--players", "4", "--games", "3", "--seed", "1", "--json"],
        ["demo", "klotz", "--players", "4", "--seed", "7", "--sensor", "signed", "--noise", "high", *SHORT["klotz"]],
        ["run", "--config", "wiring/examples/sim.toml", "--check"],
        ["bench", "--games", "1", "--seconds", "0.05", "--only", "fillit", "--no-service"],
        ["companion", "zillertal", "--players", "3"],
        ["companion", "zodiac", "--players", "5"],
        ["play", "zodiac", "--players", "4", "--bots", "1,2"],
    ],
    ids=lambda args: " ".join(args),
)
def test_readme_and_help_commands(args: list[str]) -> None:
    text = assert_clean(tafel(*args))
    if args[-1] == "--help":
        # Every option and argument has its help text: on its own line, or argparse's next line.
        lines = text.splitlines()
        bare = []
        for index, line in enumerate(lines):
            if not re.match(r"  -", line) or "show this help message" in line:
                continue
            own = re.split(r"\s{2,}", line.strip(), maxsplit=1)
            following = lines[index + 1] if index + 1 < len(lines) else ""
            if len(own) < 2 and not following.startswith(" " * 10):
                bare.append(line)
        assert not bare, bare


@pytest.mark.parametrize("game", sorted(SHORT))
def test_demo_and_selfplay_of_every_game(game: str) -> None:
    text = assert_clean(tafel("demo", game, "--seed", "2", *SHORT[game]))
    assert " over" in text
    assert_clean(tafel("selfplay", game, "--games", "2", "--seed", "3", *SHORT[game]))


def test_zodiac_with_eight_players_through_the_physical_stack() -> None:
    text = assert_clean(
        tafel("selfplay", "zodiac", "--players", "8", "--physical", "--games", "1", "-o", "max_turns=40")
    )
    assert "wrong_commits: 0" in text


@pytest.mark.parametrize("game", sorted(SHORT))
def test_play_with_a_move_a_bad_move_garbage_undo_and_the_end_of_input(game: str) -> None:
    state = load_game(game).new_game(seed=4)
    move = state.action_to_str(state.legal_actions()[0])
    script = f"help\n{move}\nz9-z10 x\nfoo bar\nlift\nundo\nmoves\n"  # then the input ends (Ctrl-D)
    text = assert_clean(tafel("play", game, "--seed", "4", "--plain", *SHORT[game], stdin=script))
    assert "commands:" in text and "a move of this game, for example:" in text


def test_bad_arguments_get_messages_in_the_players_terms() -> None:
    for args, expected in (
        (["selfplay", "chess"], "unknown game"),
        (["demo", "klotz", "--profile", "hex61"], "board hex61 cannot play Klotz"),
        (["run", "--config", "/nonexistent/tafel.toml"], "wiring/examples/sim.toml"),
        (["play", "klotz", "--bots", "7"], "'7' is not a seat"),
        (["play", "klotz", "--bots", "search-2"], "chosen with --bot"),
        (["selfplay", "klotz", "-o", "nonsense"], "NAME=VALUE"),
    ):
        text = assert_clean(tafel(*args), 1, 2)
        assert expected in text, (args, text)


def test_ctrl_c_stops_quietly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.terminal.cli", "play", "klotz", "--plain"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=ENV,
        # As from a terminal: a test run started in the background (CI) ignores Ctrl-C, and a
        # program inherits that, so the person's Ctrl-C is given its default meaning back.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None
    for line in process.stdout:  # wait until the game waits for the person
        if "to move" in line:
            break
    time.sleep(0.2)  # let it reach the prompt (a process test: the only sleep, not a timing assertion)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert "stopped (Ctrl-C)" in err
    assert LEAKS.search(out + err) is None, err


def test_a_closed_pipe_ends_quietly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.terminal.cli", "demo", "zodiac", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # `| head -1`
    err = process.stderr.read().decode()
    process.wait(timeout=60)
    assert process.returncode == 0
    assert LEAKS.search(err) is None, err
