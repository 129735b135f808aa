"""`tafel bench`: the performance budget of docs/architecture.md, measured on this machine.

Timings are measured here and only printed; no test asserts them. The tracker's step time is split
into unchanged scans (nothing new for the tracker: its hot path) and changed scans (a reading
settled after debounce, a timer fired such as a commit, or an input arrived). The tracker builds its
candidate tables inside its own steps, as on the board: the virtual hands never use them
(sim/sight.py). Latencies are in the
virtual time of the simulated board, so they show the tracker's own delays (debounce, settle).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from controller.games import GAMES, Game
from controller.terminal.physical import collect_physical
from hal.sensors import MODEL_NAMES
from sim.driver import percentile


def playout_speed(game: Game, seconds: float, seed: int = 0) -> float:
    """Random playouts for about `seconds`: actions per second."""
    rng = random.Random(seed)
    actions = 0
    started = time.perf_counter()
    games = 0
    while time.perf_counter() - started < seconds:
        state = game.new_game(seed=seed + games)
        games += 1
        while not state.is_terminal():
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
    elapsed = time.perf_counter() - started
    return actions / elapsed


def chess_playout_speed(seconds: float, seed: int = 0) -> float | None:
    """python-chess random playouts on the same machine, as a reference (None if not installed)."""
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(seed)
    actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.ply() < 300:
            board.push(rng.choice(list(board.legal_moves)))
            actions += 1
    return actions / (time.perf_counter() - started)


def run_bench(
    games: int = 4,
    seed: int = 1,
    noise: str = "low",
    playout_seconds: float = 1.0,
    game_name: str = "klotz",
    players: int = 4,
    on_step: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Every figure of the bench; `on_step` is called after each physical game and each playout
    measurement (a progress bar: see `bench_steps`)."""
    game = GAMES[game_name]
    tracker: dict[str, Any] = {}
    latency: dict[str, Any] = {}
    for model in MODEL_NAMES:
        if model == "signed_count":
            continue
        run = collect_physical(game, players, games, seed, "greedy", model, noise, on_game=on_step)
        stats = run.stats
        latency[model] = {
            "ack_ms_p50": percentile(stats.ack_ms, 50),
            "ack_ms_p99": percentile(stats.ack_ms, 99),
            "commit_ms_p50": percentile(stats.commit_ms, 50),
            "commit_ms_p99": percentile(stats.commit_ms, 99),
            "moves": stats.committed,
            "wrong_commits": stats.wrong_commits,
        }
        tracker[model] = {
            "unchanged_p50_ms": round(percentile(stats.unchanged_step_ms, 50), 4),
            "unchanged_p99_ms": round(percentile(stats.unchanged_step_ms, 99), 4),
            "changed_p50_ms": round(percentile(stats.changed_step_ms, 50), 4),
            "changed_p99_ms": round(percentile(stats.changed_step_ms, 99), 4),
            "changed_max_ms": round(max(stats.changed_step_ms, default=0.0), 4),
            "scans": len(stats.step_ms),
        }
    playouts = {}
    for name, other in GAMES.items():
        playouts[name] = round(playout_speed(other, playout_seconds, seed), 1)
        if on_step is not None:
            on_step()
    chess_speed = chess_playout_speed(playout_seconds, seed)
    if on_step is not None:
        on_step()
    gpio = gpio_scan_costs()
    if on_step is not None:
        on_step()
    return {
        "game": game_name,
        "players": players,
        "games": games,
        "noise": noise,
        "settle_ms": 250,
        "tracker_step": tracker,
        "latency": latency,
        "playout_actions_per_s": playouts,
        "python_chess_actions_per_s": round(chess_speed, 1) if chess_speed is not None else None,
        "gpio_scan": gpio,
    }


def gpio_scan_costs() -> list[dict[str, Any]] | str:
    """The GPIO section (bench_gpio.py), or why it cannot run here."""
    try:
        import gpiozero  # noqa: F401
    except ImportError:
        return "gpiozero is not installed (pip install 'tafel[pi]'): no GPIO scan costs"
    from controller.terminal.bench_gpio import run_gpio_bench

    return run_gpio_bench()


def bench_steps(games: int) -> int:
    """How many times `run_bench` calls `on_step`."""
    models = [model for model in MODEL_NAMES if model != "signed_count"]
    return len(models) * games + len(GAMES) + 2


def format_bench(result: dict[str, Any]) -> str:
    lines = [
        f"tafel bench: {result['game']}, {result['players']} players, {result['games']} physical games per "
        f"sensor model, noise {result['noise']}",
        "",
        "tracker step (ms)     unchanged p50  unchanged p99  changed p50  changed p99  changed max",
    ]
    for model, row in result["tracker_step"].items():
        lines.append(
            f"  {model:<18} {row['unchanged_p50_ms']:>13.4f}  {row['unchanged_p99_ms']:>13.4f}  "
            f"{row['changed_p50_ms']:>11.4f}  {row['changed_p99_ms']:>11.4f}  {row['changed_max_ms']:>11.4f}"
        )
    lines += ["", "latency (ms, virtual) place-to-LED p50  p99   place-to-commit p50  p99"]
    for model, row in result["latency"].items():
        lines.append(
            f"  {model:<18} {row['ack_ms_p50']:>18.0f} {row['ack_ms_p99']:>4.0f} "
            f"{row['commit_ms_p50']:>20.0f} {row['commit_ms_p99']:>4.0f}"
        )
    lines += ["", "random playouts (actions/s)"]
    for name, speed in result["playout_actions_per_s"].items():
        lines.append(f"  {name:<18} {speed:>12,.0f}")
    chess_speed = result["python_chess_actions_per_s"]
    lines.append(f"  {'python-chess':<18} {chess_speed:>12,.0f}" if chess_speed else "  python-chess: not installed")
    gpio = result.get("gpio_scan")
    if isinstance(gpio, list):
        from controller.terminal.bench_gpio import format_gpio_bench

        lines += ["", format_gpio_bench(gpio)]
    elif gpio:
        lines += ["", gpio]
    return "\n".join(lines)
