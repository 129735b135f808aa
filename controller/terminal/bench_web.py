"""`tafel bench --web`: what the web app costs the board, measured on this machine.

Runs of the same service on the simulated board (Klotz, four random bots, whose quick choices keep
the loop's own jitter low so the web app's share shows; 100 scans per second, paced in real time),
each in a fresh process, alternating: without the web app, and serving it with `pages` WebSocket
pages connected from another process (as phones are other devices). Reported (medians over the
runs):

- the scan loop's period jitter (how far each scan's start is from its due time), p99, in both runs;
- the service's resident memory at the end of each run (the difference is the web app with its pages);
- how long a confirmed move takes to reach every page (commit to the last page's receipt), p50/max;
- with a browser at hand (Chromium and chromedriver, as the tests use), how long the table view takes
  to be interactive and to draw the board.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from controller.games import Action, State
from controller.service.config import load_config
from controller.service.loop import Limits, Service

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """
[board]
profile = "square14"
profile_dir = "{wiring}"

[game]
name = "klotz"
players = 4
seed = 11
options = {{ max_plies = 100000 }}

[sensors]
backend = "sim"

[leds]
backend = "sim"

[sim]
noise = "low"
seed = 11
hands = "calm"
speed = 1
bots = true
bot = "{bot}"

[service]
state_dir = "state"
scan_hz = 100
watchdog = false
log_level = "warning"

[web]
enabled = {web}
listen = "127.0.0.1"
port = {port}
pin = "1234"
"""


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _p(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def worker(seconds: float, pages: int, port: int, bot: str = "random") -> dict[str, Any]:
    """One measured run in this process (see the module docstring)."""
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "config.toml"
        path.write_text(CONFIG.format(wiring=ROOT / "wiring", web="true" if pages else "false", port=port, bot=bot))
        service = Service(load_config(path))
        starts: list[float] = []
        commits: dict[int, float] = {}
        original_scan = service._scan

        def timed_scan() -> None:
            starts.append(time.perf_counter())
            original_scan()

        service._scan = timed_scan  # type: ignore[method-assign]
        stop_web = None
        client = None
        if pages:
            from controller.web.server import start_web

            stop_web = start_web(service)
        thread = threading.Thread(target=service.run, args=(Limits(max_seconds=seconds),))
        thread.start()
        while service.session is None:
            time.sleep(0.01)

        def committed(before: State, action: Action, after: State, via: str) -> None:
            commits.setdefault(len(service.table.moves), time.monotonic())

        service.session.on_record.append(committed)
        if pages:
            client = subprocess.Popen(
                [sys.executable, "-m", "controller.terminal.bench_web", "--pages", str(pages), "--port", str(port)],
                stdout=subprocess.PIPE,
                text=True,
            )
        thread.join()
        rss = _rss_mb()
        received: dict[str, list[float]] = {}
        if client is not None:
            client.terminate()
            output, _ = client.communicate(timeout=30)
            received = json.loads(output or "{}")
        if stop_web is not None:
            stop_web()
    periods = [
        (b - a) * 1000 for a, b in zip(starts[len(starts) // 10 :], starts[len(starts) // 10 + 1 :], strict=False)
    ]
    jitter = [abs(period - 10.0) for period in periods]
    delays = []
    for number, seen in received.items():
        commit_time = commits.get(int(number))
        if commit_time is not None and len(seen) == pages:
            delays.append((max(seen) - commit_time) * 1000)
    return {
        "pages": pages,
        "scans": len(starts),
        "jitter_ms_p99": round(_p(jitter, 99), 3),
        "jitter_ms_p50": round(_p(jitter, 50), 3),
        "rss_mb": round(rss, 1),
        "commit_to_pages_ms_p50": round(statistics.median(delays), 2) if delays else None,
        "commit_to_pages_ms_max": round(max(delays), 2) if delays else None,
        "moves_seen": len(delays),
        "moves": len(commits),
    }


def pages_client(pages: int, port: int) -> None:
    """`pages` table views on one event loop; on SIGTERM, print when each saw each move (monotonic)."""
    import asyncio
    import signal

    import websockets

    seen: dict[int, list[float]] = {}

    async def page() -> None:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as socket:
            known = -1
            async for message in socket:
                now = time.monotonic()
                text = message.decode() if isinstance(message, bytes) else message
                # Counted, not parsed: a phone's work is not this machine's, so the pages stay light.
                moves = text.count('"number": ')
                if moves != known:
                    known = moves
                    seen.setdefault(moves, []).append(now)

    async def main() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        tasks = [asyncio.create_task(page()) for _ in range(pages)]
        await stop.wait()
        for task in tasks:
            task.cancel()

    asyncio.run(main())
    print(json.dumps(seen))


def page_load(port: int) -> dict[str, Any] | None:
    """The table view in headless Chromium, if one is installed: interactive and board drawn, in ms."""
    from controller.terminal.browser import browser_problem, headless_chromium

    if browser_problem() is not None:
        return None
    from selenium.webdriver.support.ui import WebDriverWait

    with headless_chromium() as driver:
        times = []
        for _ in range(5):
            driver.get(f"http://127.0.0.1:{port}/")
            WebDriverWait(driver, 30).until(lambda d: d.execute_script("return window.tafelDrawn || null"))
            times.append(
                driver.execute_script(
                    "const t = performance.getEntriesByType('navigation')[0];"
                    "return [t.domInteractive, window.tafelDrawn];"
                )
            )
    return {
        "interactive_ms_max": round(max(t[0] for t in times), 1),
        "board_drawn_ms_max": round(max(t[1] for t in times), 1),
        "loads": len(times),
    }


def bench_web(seconds: float = 30.0, pages: int = 8, rounds: int = 2) -> dict[str, Any]:
    """`rounds` runs of each kind in fresh processes, alternating, and the page load; the figures."""
    port = 18000 + os.getpid() % 1000
    runs: dict[int, list[dict[str, Any]]] = {0: [], pages: []}
    for _ in range(rounds):
        for count in (0, pages):
            done = subprocess.run(
                [
                    *(sys.executable, "-m", "controller.terminal.bench_web", "--worker", "--seconds", str(seconds)),
                    *("--pages", str(count), "--port", str(port)),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            runs[count].append(json.loads(done.stdout.strip().splitlines()[-1]))
    without, with_pages = _median_run(runs[0]), _median_run(runs[pages])
    result: dict[str, Any] = {"without_web": without, "with_pages": with_pages, "runs": runs[0] + runs[pages]}
    result["jitter_p99_growth_ms"] = round(with_pages["jitter_ms_p99"] - without["jitter_ms_p99"], 3)
    result["rss_growth_mb"] = round(with_pages["rss_mb"] - without["rss_mb"], 1)
    result["page_load"] = _page_load_run(port)
    return result


def bench_thinking(seconds: float = 30.0, rounds: int = 2, level: str = "search-2") -> dict[str, Any]:
    """The scan loop's jitter with four random bots and with four bots of `level` thinking in their
    workers (docs/bots.md, "Never in the board's way"): `rounds` runs of each in fresh processes."""
    runs: dict[str, list[dict[str, Any]]] = {"random": [], level: []}
    for _ in range(rounds):
        for bot in runs:
            done = subprocess.run(
                [
                    *(sys.executable, "-m", "controller.terminal.bench_web", "--worker", "--seconds", str(seconds)),
                    *("--pages", "0", "--bot", bot),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            runs[bot].append(json.loads(done.stdout.strip().splitlines()[-1]))
    instant, thinking = _median_run(runs["random"]), _median_run(runs[level])
    return {
        "level": level,
        "random_bots": instant,
        "thinking_bots": thinking,
        "jitter_p99_growth_ms": round(thinking["jitter_ms_p99"] - instant["jitter_ms_p99"], 3),
    }


def format_thinking(result: dict[str, Any]) -> str:
    a, b = result["random_bots"], result["thinking_bots"]
    return (
        f"bots thinking (Klotz, four bots, {b['scans']} scans at 100/s each way; medians of the runs):\n"
        f"  scan period jitter p99: {a['jitter_ms_p99']:.3f} ms with random bots, {b['jitter_ms_p99']:.3f} ms with"
        f" {result['level']} bots thinking (+{result['jitter_p99_growth_ms']:.3f} ms; budget +2 ms);"
        f" {b['moves']} moves in a run"
    )


def _median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The runs' figures, each the median over the runs (the worst commit delay: the maximum)."""
    merged = dict(runs[0])
    for key in ("jitter_ms_p99", "jitter_ms_p50", "rss_mb", "commit_to_pages_ms_p50"):
        values = [run[key] for run in runs if run[key] is not None]
        merged[key] = round(statistics.median(values), 3) if values else None
    delays = [run["commit_to_pages_ms_max"] for run in runs if run["commit_to_pages_ms_max"] is not None]
    merged["commit_to_pages_ms_max"] = max(delays) if delays else None
    merged["moves_seen"] = sum(run["moves_seen"] for run in runs)
    merged["scans"] = sum(run["scans"] for run in runs)
    return merged


def _page_load_run(port: int) -> dict[str, Any] | None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "config.toml"
        path.write_text(CONFIG.format(wiring=ROOT / "wiring", web="true", port=port, bot="random"))
        service = Service(load_config(path))
        from controller.web.server import start_web

        stop_web = start_web(service)
        thread = threading.Thread(target=service.run, args=(Limits(max_seconds=120),))
        thread.start()
        try:
            while service.session is None:
                time.sleep(0.01)
            return page_load(port)
        finally:
            service.request_stop("measured")
            thread.join()
            if stop_web is not None:
                stop_web()


def format_web(result: dict[str, Any]) -> str:
    a, b = result["without_web"], result["with_pages"]
    lines = [
        f"web app ({b['pages']} pages connected; {b['scans']} scans at 100/s in each configuration, Klotz with four"
        " random bots; medians of the runs):",
        f"  scan period jitter p99: {a['jitter_ms_p99']:.3f} ms without the web app,"
        f" {b['jitter_ms_p99']:.3f} ms with it (+{result['jitter_p99_growth_ms']:.3f} ms; budget +2 ms)",
        f"  resident memory: {a['rss_mb']:.1f} MB without, {b['rss_mb']:.1f} MB with"
        f" (+{result['rss_growth_mb']:.1f} MB; budget +15 MB)",
        f"  commit to every page: median {b['commit_to_pages_ms_p50']} ms, max {b['commit_to_pages_ms_max']} ms over"
        f" {b['moves_seen']} moves (budget 100 ms)",
    ]
    load = result.get("page_load")
    if load is None:
        lines.append("  page load: not measured (no Chromium and chromedriver here)")
    else:
        lines.append(
            f"  table view in headless Chromium: interactive after {load['interactive_ms_max']} ms, board drawn after"
            f" {load['board_drawn_ms_max']} ms (worst of {load['loads']} loads; budget 1000 ms)"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m controller.terminal.bench_web")
    parser.add_argument("--worker", action="store_true")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pages", type=int, default=8)
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--bot", default="random")
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.seconds, args.pages, args.port, args.bot)))
    else:
        pages_client(args.pages, args.port)


if __name__ == "__main__":
    main(sys.argv[1:])
