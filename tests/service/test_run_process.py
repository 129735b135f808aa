"""`tafel run --config` as systemd runs it: a separate process with NOTIFY_SOCKET and WATCHDOG_USEC set.

It must send READY=1, then watchdog pings, play the scripted game on the simulated board, and on
SIGTERM send STOPPING=1, switch every LED off and exit 0. Nothing here sleeps: the test waits on the
socket and on the process's output, with generous time limits.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

from tests.service.configs import ROOT, opening_moves, sim_config, write
from tests.service.notify import NotifyListener

LIMIT = 120.0  # seconds: generous, for a loaded machine


def read_lines(stream, into: queue.Queue) -> None:
    for line in stream:
        into.put(line.rstrip("\n"))
    into.put(None)


def wait_for_line(lines: queue.Queue, seen: list[str], prefix: str) -> str:
    while True:
        line = lines.get(timeout=LIMIT)
        assert line is not None, f"tafel run ended before {prefix!r}; output: {seen}"
        seen.append(line)
        if line.startswith(prefix):
            return line


def test_tafel_run_under_a_stand_in_for_systemd(tmp_path: Path) -> None:
    systemd = NotifyListener(tmp_path / "notify")
    moves = opening_moves(4)
    config = write(tmp_path, sim_config(max_plies=12, moves=moves))
    env = {**os.environ, "NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "200000", "PYTHONUNBUFFERED": "1"}
    env.pop("WATCHDOG_PID", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.terminal.cli", "run", "--config", str(config)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=read_lines, args=(process.stdout, lines), daemon=True).start()
    seen: list[str] = []
    try:
        systemd.wait_for("READY=1", LIMIT)
        systemd.wait_for("WATCHDOG=1", LIMIT)
        wait_for_line(lines, seen, "<6>game over after 12 moves")
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=LIMIT) == 0
        messages = systemd.wait_for("STOPPING=1", LIMIT)
        wait_for_line(lines, seen, "<6>stopped")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        systemd.close()
    assert process.stderr.read() == ""
    firsts = [message[0] for message in messages]
    assert firsts[0] == "READY=1" and firsts.index("WATCHDOG=1") > 0
    assert firsts[-1] == "STOPPING=1"
    played: list[str] = []
    for line in seen:  # a correction (a piece let go on a wrong field, then moved on) replaces the last
        if line.startswith("<6>confirmed move "):
            if line.endswith("(correction)"):
                played[-1] = line
            else:
                played.append(line)
    assert len(played) == 12
    for number, move in enumerate(moves, start=1):  # the script first, then the bots
        assert played[number - 1].startswith(f"<6>confirmed move {number}: {move} by ")
    assert "<6>virtual hands: 12 moves intended, 12 committed, 0 wrong commits" in seen
    assert seen[-3:] == ["<6>stopping: SIGTERM received", "<6>LEDs off (201 LEDs)", "<6>stopped"]
