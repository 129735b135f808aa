"""The service bench of `tafel bench`: what a running board costs, over whole games.

Each run is `tafel run` on the simulated board in a fresh process (as on the Pi: start-up frozen,
then the loop), in board time as fast as this machine allows, with bots and virtual hands playing:

- a long Klotz game (600 moves, K-6's draw) and a Zillo match (Z-7, up to 4 points), so memory is
  seen over a whole game and a whole match;
- the service's own cost per scan (leaving out the simulated board's hands), for unchanged scans
  and all scans, split into reading the sensors, the tracker, recording moves (the journal) and the
  LEDs; the rest is the service's own reporting;
- every garbage collection's pause, and the loop iterations longer than 10 ms that one fell in;
- resident memory: the peak over the run (VmHWM) and at the end.

Times are this machine's; the board time shown is how long the game took at the table.
"""

from __future__ import annotations

import gc
import json
import math
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from controller.service.config import load_config
from controller.service.loop import Limits, Service

ROOT = Path(__file__).resolve().parents[2]
STALL_MS = 10.0  # a loop iteration longer than this is a stall a player could notice
SCAN_HZ = 100

# The runs, each with the seed of a game that goes the whole way (the random bots of seed 2 play
# Klotz to K-6's draw at 600 moves rather than to an early win).
RUNS: dict[str, dict[str, Any]] = {
    "klotz 600 moves": {
        "game": "klotz",
        "players": 4,
        "options": "{ max_plies = 600 }",
        "profile": "square14",
        "seed": 2,
    },
    "zillo match": {
        "game": "zillo",
        "players": 4,
        "options": '{ match = true, hands = "dealt" }',
        "profile": "square14",
        "seed": 1,
    },
}

CONFIG = """
[board]
profile = "{profile}"
profile_dir = "{wiring}"

[game]
name = "{game}"
players = {players}
seed = {seed}
options = {options}

[sensors]
backend = "sim"

[leds]
backend = "sim"

[sim]
noise = "low"
seed = {seed}
speed = 0
bots = true
bot = "random"

[service]
state_dir = "state"
scan_hz = {hz}
watchdog = false
log_level = "warning"

[web]
enabled = false
"""


def _memory_mb() -> tuple[float, float]:
    """This process's peak and present resident memory, from one read of /proc (0 where there is none).

    The kernel updates the peak (VmHWM) from counters it folds in lazily, so one read can show the
    present figure a little above it; the peak is never less than what is resident now.
    """
    try:
        lines = Path("/proc/self/status").read_text().splitlines()
    except OSError:
        return 0.0, 0.0
    figures = {}
    for line in lines:
        key, _, rest = line.partition(":")
        if key in ("VmHWM", "VmRSS"):
            figures[key] = int(rest.split()[0]) / 1024
    now = figures.get("VmRSS", 0.0)
    return max(figures.get("VmHWM", 0.0), now), now


class Spread:
    """Times in a log-scale histogram (1 % wide bins): a run of millions of scans measured in a few
    kilobytes, so that the bench's own figures do not weigh on the memory it measures."""

    STEP = math.log(1.01)

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.largest = 0.0
        self._bins: dict[int, int] = {}

    def add(self, ms: float) -> None:
        self.count += 1
        self.total += ms
        if ms > self.largest:
            self.largest = ms
        index = math.floor(math.log(ms) / self.STEP) if ms > 1e-6 else -1400
        self._bins[index] = self._bins.get(index, 0) + 1

    def percentile(self, q: float) -> float:
        """The value below which `q` % of the times fall (to 1 %)."""
        if not self.count:
            return 0.0
        rank = q / 100 * self.count
        seen = 0
        for index in sorted(self._bins):
            seen += self._bins[index]
            if seen >= rank:
                return min(math.exp((index + 1) * self.STEP), self.largest)
        return self.largest

    def summary(self) -> dict[str, float]:
        return {
            "mean_us": round(1000 * self.total / max(self.count, 1), 2),
            "p50_us": round(1000 * self.percentile(50), 2),
            "p99_us": round(1000 * self.percentile(99), 2),
            "max_ms": round(self.largest, 3),
        }


class PauseLog:
    """Every garbage collection's pause, as a `gc.callbacks` entry. With `in_loop`, the pauses
    before it first holds (the service coming up, and its one collection before freezing start-up)
    are kept apart in `start_up_ms`: no scan loop runs yet, so no scan waits for them."""

    def __init__(self, in_loop: Callable[[], bool] | None = None) -> None:
        self.pauses = Spread()
        self.full = 0  # collections of the oldest generation
        self.since_taken = 0.0  # milliseconds of pauses since `take` was last called
        self.start_up_ms = 0.0
        self.in_loop = in_loop
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause = (time.perf_counter() - self._started) * 1000
        if self.in_loop is not None and not self.in_loop():
            self.start_up_ms += pause
            return
        if self.in_loop is not None:
            self.in_loop = None  # the loop runs from now on
        self.pauses.add(pause)
        self.full += info["generation"] == 2
        self.since_taken += pause

    def take(self) -> float:
        """The pauses since the last call, in milliseconds."""
        taken, self.since_taken = self.since_taken, 0.0
        return taken


class ScanLog:
    """Per-scan costs and collection pauses, gathered while the service runs.

    A loop iteration is the service's work for one scan (leaving out the simulated board's hands)
    plus the collections since the previous one: the loop collects right after a quiet scan."""

    def __init__(self) -> None:
        self.total = Spread()
        self.unchanged = Spread()
        self.parts = {part: Spread() for part in ("scan", "tracker", "journal", "leds")}
        self.collections = PauseLog()
        self.iterations_over = 0  # loop iterations longer than STALL_MS
        self.stalls_with_gc = 0  # ... of which a collection fell in

    def on_scan(self, service: Service) -> None:
        session = service.session
        assert session is not None
        cost = service.last_scan_ms - session.last_scan_ms  # the sensors' read is the board's
        self.total.add(cost)
        if not session.tracker.last_evaluated:  # nothing new (a commit is always an evaluated step)
            self.unchanged.add(cost)
        self.parts["scan"].add(session.last_scan_ms)
        self.parts["tracker"].add(session.last_step_ms)
        self.parts["journal"].add(session.last_record_ms)
        self.parts["leds"].add(session.last_leds_ms)
        collecting = self.collections.take()
        if service.last_scan_ms + collecting > STALL_MS:
            self.iterations_over += 1
            self.stalls_with_gc += collecting > 0


def run_once(name: str, max_scans: int | None = None) -> dict[str, Any]:
    """One run in this process (call it in a fresh one: see `service_bench`); `max_scans` cuts it
    short (a test)."""
    settings = RUNS[name]
    log = ScanLog()
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "config.toml"
        path.write_text(CONFIG.format(wiring=ROOT / "wiring", hz=SCAN_HZ, **settings))
        service = Service(load_config(path))
        service.settle_memory = True  # as `tafel run` does
        service.scan_observer = log.on_scan
        log.collections.in_loop = lambda: service.collector.active
        gc.callbacks.append(log.collections)
        started = time.perf_counter()
        try:
            status = service.run(Limits(until_game_over=True, max_scans=max_scans or 4 * 3600 * SCAN_HZ))
        finally:
            gc.callbacks.remove(log.collections)
        elapsed = time.perf_counter() - started
        moves = len(service.table.moves)
    if status != 0:
        raise RuntimeError(f"the {name} run failed: {service.failure}")

    peak_mb, end_mb = _memory_mb()
    return {
        "run": name,
        "moves": moves,
        "scans": log.total.count,
        "board_minutes": round(log.total.count / SCAN_HZ / 60, 1),
        "seconds": round(elapsed, 1),
        "service_per_scan": log.total.summary(),
        "service_per_unchanged_scan": log.unchanged.summary(),
        "split": {part: spread.summary() for part, spread in log.parts.items()},
        "gc": {
            "collections": log.collections.pauses.count,
            "full": log.collections.full,
            "max_pause_ms": round(log.collections.pauses.largest, 3),
            "p99_pause_ms": round(log.collections.pauses.percentile(99), 3),
            "stalls_over_10ms_with_gc": log.stalls_with_gc,
            "start_up_ms": round(log.collections.start_up_ms, 3),
        },
        "loop_iterations_over_10ms": log.iterations_over,
        "peak_rss_mb": round(peak_mb, 1),
        "end_rss_mb": round(end_mb, 1),
    }


def service_bench(
    names: Iterable[str] = RUNS, max_scans: int | None = None, on_run: Callable[[], None] | None = None
) -> list[dict[str, Any]]:
    """The runs, each in a fresh process (its memory is the run's alone); `on_run` after each."""
    results = []
    for name in names:
        command = [sys.executable, "-m", "controller.terminal.bench_service", name]
        if max_scans is not None:
            command.append(str(max_scans))
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
        if done.returncode != 0:
            raise RuntimeError(f"the service bench ({name}) failed: {done.stderr.strip()[-400:]}")
        results.append(json.loads(done.stdout))
        if on_run is not None:
            on_run()
    return results


def format_service(results: list[dict[str, Any]]) -> str:
    lines = [
        "service over whole games (this machine; board time as fast as it goes)",
        "  run               moves  board min  per unchanged scan mean/p99 (us)  per scan mean  "
        "peak RSS  GC max pause  stalls>10ms (GC)",
    ]
    for row in results:
        quiet, every, gcs = row["service_per_unchanged_scan"], row["service_per_scan"], row["gc"]
        lines.append(
            f"  {row['run']:<17} {row['moves']:>5}  {row['board_minutes']:>9}  "
            f"{quiet['mean_us']:>14.1f} / {quiet['p99_us']:<14.1f}  {every['mean_us']:>10.1f} us  "
            f"{row['peak_rss_mb']:>6.1f} MB  {gcs['max_pause_ms']:>9.2f} ms  "
            f"{row['loop_iterations_over_10ms']} ({gcs['stalls_over_10ms_with_gc']})"
        )
    lines.append("  split per scan, mean (us)  sensors  tracker  journal  LEDs")
    for row in results:
        split = row["split"]
        lines.append(
            f"  {row['run']:<25} {split['scan']['mean_us']:>7.1f}  {split['tracker']['mean_us']:>7.1f}  "
            f"{split['journal']['mean_us']:>7.1f}  {split['leds']['mean_us']:>5.1f}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(json.dumps(run_once(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None)))
