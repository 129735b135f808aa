"""Boards with pieces for the remote tests: whole `tafel run` services on simulated boards, in this
process, joined through a real Mosquitto; their virtual hands make every move, the remote ones too."""

from __future__ import annotations

import logging
import time
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
    config = load_config(path)
    assert config.remote is not None
    service = Service(config, log=logging.getLogger(f"board-{config.remote[0].board}"))
    service.start()
    return service


def scan_until(services: list[Service], done, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the boards did not get there in time"
        for service in services:
            service._scan()
        time.sleep(0.001)  # the broker's threads deliver between two rounds of scans


def host_moves(service: Service) -> list[str]:
    return [move.public for move in service.table.moves]


def over_everywhere(services: list[Service]) -> bool:
    host = services[0]
    assert host.table.remote_play is not None
    ply = host.table.remote_play.role.ply
    return (
        host.session is not None
        and host.session.state.is_terminal()
        and all(
            s.remote_play is not None
            and s.remote_play.role.ply == ply
            and s.session is not None
            and s.session.tracker.state.is_terminal()
            for s in services[1:]
        )
    )
