"""Two boards in two `tafel run` processes play a whole game of each game through a real Mosquitto,
their virtual hands making every move (the other board's too, as its LEDs show it), with the broker
restarted once and the guest board killed (SIGKILL) and started again once: both end with the same
moves, none lost or counted twice (docs/remote.md, rule 7)."""

from __future__ import annotations

import json
import queue
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from controller.service.journal import Journal
from tests.remote.broker import Broker
from tests.remote.services import board_config
from tests.service.configs import ROOT

LIMIT_S = 180.0
CONFIRMED = re.compile(r"confirmed move (\d+):")


class Board:
    """One `tafel run` process and the lines it logs."""

    def __init__(self, config: Path) -> None:
        self.config = config
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "controller.terminal.cli", "run", "--config", str(config), "--until-game-over"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_for_move(self, number: int) -> None:
        while True:
            line = self.lines.get(timeout=LIMIT_S)
            assert line is not None, f"the board stopped before move {number}: {self.seen[-15:]}"
            self.seen.append(line)
            found = CONFIRMED.search(line)
            if found and int(found.group(1)) >= number:
                return

    def finish(self, limit_s: float = LIMIT_S) -> None:
        """Wait for the board to end its game (killed if it has not within `limit_s`), and read all
        it said."""
        try:
            self.process.wait(limit_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        while (line := self.lines.get(timeout=10)) is not None:
            self.seen.append(line)


def finish(boards: list[Board]) -> None:
    """Every board ends its game; where one does not, what each board said last is the report."""
    for board in boards:
        board.finish(LIMIT_S if board is boards[0] else 10)
    report = "\n".join(
        f"board {index} (exit {board.process.returncode}):\n  " + "\n  ".join(board.seen[-25:])
        for index, board in enumerate(boards)
    )
    assert all(board.process.returncode == 0 for board in boards), report


@pytest.mark.parametrize("game", ["klotz", "fillit", "zillo", "zillertal", "zodiac"])
def test_two_board_processes_play_a_whole_game_across_a_broker_restart_and_a_kill(
    broker: Broker, tmp_path: Path, game: str
) -> None:
    configs = [board_config(game, 2, name, broker.port, tmp_path / name) for name in ("h", "g1")]
    host, guest = Board(configs[0]), Board(configs[1])
    try:
        host.wait_for_move(4)
        broker.restart()
        host.wait_for_move(8)
        guest.process.send_signal(signal.SIGKILL)
        guest.process.wait(10)
        guest = Board(configs[1])
        finish([host, guest])
    finally:
        for board in (host, guest):
            if board.process.poll() is None:
                board.process.kill()
    recovery = Journal(tmp_path / "h" / "state").recover()
    assert recovery.game is not None
    _, states = recovery.game.replay()
    assert states[-1].is_terminal()
    public = [
        s.public_action_to_str(s.parse_action(e["action"])) for s, e in zip(states, recovery.game.actions, strict=False)
    ]
    kept = json.loads((tmp_path / "g1" / "state" / "remote-t1.json").read_text())
    mine = {1}
    expected = [
        entry["action"] if seat in mine else text
        for entry, text, seat in zip(recovery.game.actions, public, kept["movers"], strict=True)
    ]
    assert kept["moves"] == expected
    for board in (host, guest):
        assert any("game over" in line for line in board.seen)
        hands = [line for line in board.seen if "virtual hands:" in line and "committed" in line]
        assert any(re.search(r"committed, 0 wrong commits", line) for line in hands), hands


@pytest.mark.parametrize("game", ["klotz", "fillit", "zillo", "zillertal", "zodiac"])
def test_four_board_processes_play_a_whole_game_with_a_guest_killed_and_restarted(
    broker: Broker, tmp_path: Path, game: str
) -> None:
    names = ("h", "g1", "g2", "g3")
    configs = [board_config(game, 4, name, broker.port, tmp_path / name) for name in names]
    boards = [Board(config) for config in configs]
    try:
        boards[0].wait_for_move(6)
        boards[2].process.send_signal(signal.SIGKILL)
        boards[2].process.wait(10)
        boards[2] = Board(configs[2])
        finish(boards)
    finally:
        for board in boards:
            if board.process.poll() is None:
                board.process.kill()
    recovery = Journal(tmp_path / "h" / "state").recover()
    assert recovery.game is not None
    _, states = recovery.game.replay()
    assert states[-1].is_terminal()
    for index, name in enumerate(names[1:], start=1):
        kept = json.loads((tmp_path / name / "state" / "remote-t1.json").read_text())
        public = [
            s.public_action_to_str(s.parse_action(e["action"]))
            for s, e in zip(states, recovery.game.actions, strict=False)
        ]
        expected = [
            entry["action"] if seat == index else text
            for entry, text, seat in zip(recovery.game.actions, public, kept["movers"], strict=True)
        ]
        assert kept["moves"] == expected, name
    for board in boards:
        hands = [line for line in board.seen if "virtual hands:" in line and "committed" in line]
        assert any(re.search(r"committed, 0 wrong commits", line) for line in hands), hands
