"""`tafel run` on a disk that fills up as the game goes: the kernel's own limit on the size of a file
(RLIMIT_FSIZE) refuses the journal's writes past a few moves, cutting records in half, as a full card
does. The game plays on to its end, the log says in words when the game is not being saved and when
it is again, and every move confirmed while the board was saving is on the disk afterwards
(docs/persistence.md, "When the disk fails")."""

from __future__ import annotations

import re
import resource
import subprocess
import sys
from pathlib import Path

from controller.service.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
CONFIRMED = re.compile(r"confirmed move (\d+): (\S+) by ")
SAVED_UP_TO = re.compile(r"saving again: the game is saved up to move (\d+)")
LIMIT_BYTES = 1500  # the journal's start and some twenty moves; the snapshot fits for a while


def config_text(state: Path) -> str:
    return f"""
[board]
profile = "square14"
profile_dir = "{ROOT / "wiring"}"

[game]
name = "klotz"
players = 2
seed = 5
options = {{ max_plies = 160 }}

[sensors]
backend = "sim"

[leds]
backend = "sim"

[service]
state_dir = "{state}"
watchdog = false
log_level = "info"

[sim]
noise = "low"
seed = 5
speed = 0
bots = true
bot = "random"

[web]
enabled = false
"""


def limit_file_size() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT_BYTES, hard))


def test_a_disk_filling_up_mid_game_loses_no_move_confirmed_while_saving(tmp_path: Path) -> None:
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text(config_text(state))
    result = subprocess.run(
        [sys.executable, "-m", "controller.terminal.cli", "run", "--config", str(config), "--until-game-over"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=limit_file_size,
    )
    log = result.stdout + result.stderr
    assert result.returncode == 0, log[-3000:]
    assert "Traceback" not in log and "Errno" not in log, log[-3000:]
    lines = log.splitlines()
    confirmed: list[str] = []
    saved = 0  # moves the board said were on the disk
    saving = True
    for line in lines:
        if match := CONFIRMED.search(line):
            number = int(match.group(1))
            del confirmed[number - 1 :]  # a correction replaces the last move
            confirmed.append(match.group(2))
            saving = saving and "not saved: the disk refused it" not in line
            if saving:
                saved = number
        elif "Not saving the game: the file has grown past the size this system allows" in line:
            saving = False
        elif match := SAVED_UP_TO.search(line):
            saving, saved = True, int(match.group(1))
    assert any("Not saving the game" in line for line in lines), log[-3000:]
    assert any(SAVED_UP_TO.search(line) for line in lines), log[-3000:]
    assert any("game over after" in line for line in lines), log[-3000:]
    journal = Journal(state)
    recovery = journal.recover()
    journal.close()
    assert recovery.game is not None
    on_disk = [entry["action"] for entry in recovery.game.actions]
    assert on_disk == confirmed[: len(on_disk)]  # what is on the disk is the game as it was played
    assert len(on_disk) >= saved > 0  # and it holds every move confirmed while the board was saving
