"""Boards with pieces for the remote tests: whole `tafel run` services on simulated boards, in this
process, joined through a real Mosquitto; their virtual hands make every move, the remote ones too."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from controller.games import GAMES
from controller.service.config import load_config
from controller.service.loop import Service
from tests.remote.conftest import PASSWORDS
from tests.service.configs import ROOT

NAMES = ("h", "g1", "g2", "g3")


def board_config(game: str, players: int, board: str, port: int, directory: Path, noise: str = "low") -> Path:
    """The configuration of board `board` in a game hosted by board h, seats in board order."""
    profile = GAMES[game].capabilities.board_profile
    # Long games prove nothing more than short ones here: Klotz and Zillo end after 40 plies or turns.
    options = {"klotz": "options = { max_plies = 40 }", "zillo": "options = { max_turns = 40 }"}.get(game, "")
    seats = ", ".join(f'"{name}"' for name in NAMES[:players])
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "config.toml"
    path.write_text(
        f"""
[board]
profile = "{profile}"
profile_dir = "{ROOT / "wiring"}"

[game]
name = "{game}"
players = {players}
seed = 3
{options}

[sensors]
backend = "sim"

[leds]
backend = "sim"

[sim]
noise = "{noise}"
seed = {5 + NAMES.index(board)}
speed = 0

[service]
state_dir = "{directory / "state"}"

[web]
enabled = false

[remote]
board = "{board}"
broker = "127.0.0.1"
port = {port}
password = "{PASSWORDS[board]}"
game = "t1"
host = "h"
seats = [{seats}]
""",
        encoding="utf-8",
    )
    return path


def start(path: Path) -> Service:
    """A board's service in this process, started. The tests scan several boards in turn on one
    thread, so a board waiting for another does not pace itself in real time (it would hold up the
    other): each of them stands for a process of its own."""
    config = load_config(path)
    name = config.remote[0].board if config.remote else path.parent.name
    service = Service(config, sleep=lambda seconds: None, log=logging.getLogger(f"board-{name}"))
    service.start()
    return service


def scan_until(services: list[Service], done: Callable[[], bool], seconds: float = 60.0) -> None:
    """Scan every board in turn until `done()`, or fail after `seconds` of wall-clock time."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the boards did not get there in time"
        for service in services:
            service._scan()
        time.sleep(0.001)  # the broker's threads deliver between two rounds of scans
