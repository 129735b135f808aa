"""Kill the service with SIGKILL at random points of simulated games and start it again: no
confirmed move may be lost, and none may be counted twice.

"Confirmed" is what the service logged as confirmed: it logs a move only after the journal has it on
disk, and the LEDs show a move as done only after that. Each run is killed after a random number of
its log lines (so mid-move, right after a commit, right after a restart ...); the simulated board
keeps its pieces in the state directory as real pieces stay on a real board.
"""

from __future__ import annotations

import random
import re
import select
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.games import load_game
from controller.service.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
CONFIRMED = re.compile(r"confirmed move (\d+): (\S+) by .*\((\w+)\)$")
SILENT_S = 60
CYCLES_PER_GAME = 17  # three board games: 51 kill-and-restart cycles

GAMES = {
    "klotz": ("square14", 4, "max_plies = 2000"),
    "fillit": ("hex61", 2, "max_turns = 2000"),
    "zillo": ("square14", 3, "max_turns = 2000"),
}


def config_text(game: str, seed: int) -> str:
    profile, players, options = GAMES[game]
    return f"""
[board]
profile = "{profile}"
profile_dir = "{ROOT / "wiring"}"

[game]
name = "{game}"
players = {players}
seed = {seed}
options = {{ {options} }}

[sensors]
backend = "sim"

[leds]
backend = "sim"

[service]
state_dir = "state"
watchdog = false
log_level = "debug"

[sim]
noise = "low"
seed = {seed}
speed = 0
bots = true
bot = "random"

[web]
enabled = false
"""


def corrected(state: Path, number: int) -> bool:
    """Whether move `number` of the journal's game is a correction."""
    scratch = state.parent / "scratch-corrected"
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(state, scratch)
    journal = Journal(scratch)
    recovery = journal.recover()
    journal.close()
    entries = recovery.game.actions if recovery.game is not None else []
    return len(entries) >= number and entries[number - 1].get("via") == "correction"


def journal_game(state: Path, scratch: Path) -> tuple[dict | None, list[str]]:
    """The game in a copy of the state directory's journal (recovering writes to the copy only)."""
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(state, scratch)
    journal = Journal(scratch)
    recovery = journal.recover()
    journal.close()
    if recovery.game is None:
        return None, []
    return recovery.game.start, [entry["action"] for entry in recovery.game.actions]


def _lines(process: subprocess.Popen[str]) -> Iterator[str]:
    """The service's log lines; a service silent for SILENT_S fails the test instead of hanging it."""
    assert process.stdout is not None
    while True:
        ready, _, _ = select.select([process.stdout], [], [], SILENT_S)
        if not ready:
            process.kill()
            raise AssertionError(f"the service logged nothing for {SILENT_S} s")
        line = process.stdout.readline()
        if not line:
            return
        yield line


def run_and_kill(config: Path, lines_before_kill: int) -> list[tuple[int, str, str]]:
    """Start `tafel run`, read its log until `lines_before_kill` lines came, SIGKILL it; the moves
    it logged as confirmed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.terminal.cli", "run", "--config", str(config)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    confirmed: list[tuple[int, str]] = []
    assert process.stdout is not None
    for seen, line in enumerate(_lines(process), start=1):
        match = CONFIRMED.search(line)
        if match:
            confirmed.append((int(match.group(1)), match.group(2), match.group(3)))
        assert "Traceback" not in line, line
        if seen >= lines_before_kill:
            break
    process.send_signal(signal.SIGKILL)
    process.wait()
    # What the service logged before it died but the test had not read yet (the pipe holds it: the
    # service runs on while the test reads, so it may be several moves past the line it killed at).
    for line in process.stdout.read().splitlines():
        match = CONFIRMED.search(line)
        if match:
            confirmed.append((int(match.group(1)), match.group(2), match.group(3)))
    process.stdout.close()
    return confirmed


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_confirmed_move_is_lost_or_duplicated_across_kills(tmp_path: Path, game: str) -> None:
    rng = random.Random(f"kill/{game}")
    config = tmp_path / "config.toml"
    config.write_text(config_text(game, seed=rng.randrange(1000)))
    state = tmp_path / "state"
    confirmed_game: list[str] = []  # what the logs confirmed for the game in the journal
    current_start = None
    total_confirmed = 0
    for _ in range(CYCLES_PER_GAME):
        confirmed = run_and_kill(config, lines_before_kill=rng.randint(3, 30))
        start, actions = journal_game(state, tmp_path / "scratch")
        if start != current_start:  # the game ended and a new one began: compare afresh
            current_start, confirmed_game = start, []
        for number, text, via in confirmed:
            if via == "correction":  # the player corrected the last move: it replaces that one
                assert number == len(confirmed_game) and confirmed_game
                confirmed_game[-1] = text
                continue
            # Numbers continue the game without a gap or a repeat: nothing counted twice.
            assert number == len(confirmed_game) + 1 or (number == 1 and start is not None)
            if number == 1:
                confirmed_game = []
            confirmed_game.append(text)
            total_confirmed += 1
        # Everything confirmed is in the journal, in order; the journal may hold one move more (written
        # and fsynced, then killed before the log line), or a correction of the last one (the same).
        if confirmed_game and len(actions) >= len(confirmed_game) and corrected(state, len(confirmed_game)):
            confirmed_game[-1] = actions[len(confirmed_game) - 1]
        assert actions[: len(confirmed_game)] == confirmed_game
        assert len(actions) <= len(confirmed_game) + 1
        confirmed_game = list(actions)
        # The journal replays as a legal game.
        replayed = load_game(start["game"]).new_game(players=start["players"], seed=start["seed"], **start["options"])
        for text in actions:
            replayed = replayed.apply(replayed.parse_action(text))
    assert total_confirmed >= CYCLES_PER_GAME  # the games really went on between the kills
