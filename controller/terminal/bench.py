"""`tafel bench`: the performance budget of docs/architecture.md, measured on this machine.

Timings are measured here and only printed; no test asserts them. The tracker's step time is split
into unchanged scans (nothing new for the tracker: its hot path), quiet scans that work ahead (nothing
new, but a little of the next changed scan's work done now: `Tracker._work_ahead`) and changed scans
(a reading settled after debounce, a timer fired such as a commit, or an input arrived). The tracker
builds its candidate tables inside its own steps, as on the board: the virtual hands never use them
(sim/sight.py). Latencies are in the virtual time of the simulated board, so they show the
tracker's own delays (debounce, settle).
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.games import GAMES
from controller.service.memory import CollectionPacer
from controller.table.tracker_types import TrackerConfig
from controller.terminal.bench_playouts import ROUNDS, playout_speeds
from controller.terminal.bench_search import format_think_times, think_times
from controller.terminal.bench_service import RUNS, PauseLog, format_service, service_bench
from controller.terminal.physical import collect_physical
from hal.sensors import MODEL_NAMES
from sim.stats import percentile


@dataclass(frozen=True)
class BenchCase:
    """One board game on the simulated board: a game, its options, and whether the virtual players
    show each card to the reader before its move (Zillo with physical cards)."""

    label: str
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    show_cards: bool = False

    @property
    def players(self) -> int:
        return max(GAMES[self.game].player_counts)


CASES = (
    BenchCase("klotz", "klotz"),
    BenchCase("fillit", "fillit"),
    BenchCase("zillertal", "zillertal"),
    BenchCase("zodiac", "zodiac"),
    BenchCase("zillo dealt", "zillo", {"hands": "dealt"}),
    BenchCase("zillo physical", "zillo", {"hands": "physical"}, show_cards=True),
)
SENSOR_MODELS = tuple(model for model in MODEL_NAMES if model != "signed_count")  # one per kind of reading


def _cases(only: str | None) -> tuple[BenchCase, ...]:
    if only is None:
        return CASES
    chosen = tuple(case for case in CASES if case.game == only)
    if not chosen:
        raise ValueError(f"no board game {only!r} to bench: choose one of {', '.join(sorted(GAMES))}")
    return chosen


def _steps(values: list[float], prefix: str) -> dict[str, float]:
    return {
        f"{prefix}_p50_ms": round(percentile(values, 50), 4),
        f"{prefix}_p99_ms": round(percentile(values, 99), 4),
        f"{prefix}_max_ms": round(max(values, default=0.0), 4),
    }


def physical_case(
    case: BenchCase, model: str, games: int, seed: int, noise: str, on_game: Callable[[], None] | None = None
) -> dict[str, Any]:
    """One game and sensor model: tracker steps and latencies over `games` physical games, with
    collections paced between scans as the service paces them."""
    collector = CollectionPacer()
    pauses = PauseLog()
    collector.settle()
    gc.callbacks.append(pauses)
    try:
        run = collect_physical(
            GAMES[case.game],
            case.players,
            games,
            seed,
            "greedy",
            model,
            noise,
            show_cards=case.show_cards,
            on_game=on_game,
            collector=collector,
            **case.options,
        )
    finally:
        gc.callbacks.remove(pauses)
        collector.release()
    stats = run.stats
    return {
        "case": case.label,
        "sensor": model,
        "moves": stats.committed,
        "wrong_commits": stats.wrong_commits,
        "scans": len(stats.step_ms),
        **_steps(stats.unchanged_step_ms, "unchanged"),
        **_steps(stats.ahead_step_ms, "ahead"),
        **_steps(stats.changed_step_ms, "changed"),
        **_steps(stats.first_after_commit_ms, "first_after_commit"),
        **_steps(stats.first_lift_ms, "first_lift"),
        "gc_max_pause_ms": round(pauses.pauses.largest, 3),
        "ack_ms_p50": percentile(stats.ack_ms, 50),
        "ack_ms_p99": percentile(stats.ack_ms, 99),
        "commit_ms_p50": percentile(stats.commit_ms, 50),
        "commit_ms_p99": percentile(stats.commit_ms, 99),
    }


def run_bench(
    games: int = 4,
    seed: int = 1,
    noise: str = "low",
    playout_seconds: float = 1.0,
    only: str | None = None,
    service: bool = True,
    on_step: Callable[[], None] | None = None,
    search_positions: int = 5,
) -> dict[str, Any]:
    """Every figure of the bench; `only` one game; `service`: the whole-game service runs too
    (bench_service.py); `on_step` after each physical game, playout measurement, game's search think
    times and service run (a progress bar: see `bench_steps`)."""
    cases = _cases(only)
    tracker = [physical_case(case, model, games, seed, noise, on_step) for case in cases for model in SENSOR_MODELS]
    playouts = playout_speeds(GAMES, playout_seconds, seed, on_step)
    search = think_times(search_positions, seed, on_step)
    runs = _service_runs(cases) if service else []
    service_results = service_bench(runs, on_run=on_step) if runs else []
    gpio = gpio_scan_costs()
    if on_step is not None:
        on_step()
    return {
        "games": games,
        "noise": noise,
        "settle_ms": TrackerConfig().settle_ms,
        "tracker": tracker,
        "playout_actions_per_s": {name: round(speed, 1) for name, speed in playouts.speeds.items()},
        "python_chess_actions_per_s": round(playouts.chess, 1) if playouts.chess is not None else None,
        "playout_vs_python_chess": {name: round(ratio, 3) for name, ratio in playouts.ratios.items()},
        "search_think_time": search,
        "service": service_results,
        "gpio_scan": gpio,
    }


def _service_runs(cases: tuple[BenchCase, ...]) -> list[str]:
    games = {case.game for case in cases}
    return [name for name, settings in RUNS.items() if settings["game"] in games]


def gpio_scan_costs() -> list[dict[str, Any]] | str:
    """The GPIO section (bench_gpio.py), or why it cannot run here."""
    try:
        import gpiozero  # noqa: F401
    except ImportError:
        return "gpiozero is not installed (pip install 'tafel[pi]'): no GPIO scan costs"
    from controller.terminal.bench_gpio import run_gpio_bench

    return run_gpio_bench()


def bench_steps(games: int, only: str | None = None, service: bool = True) -> int:
    """How many times `run_bench` calls `on_step`; a ValueError says what is wrong with the figures."""
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    cases = _cases(only)
    runs = len(_service_runs(cases)) if service else 0
    return len(cases) * len(SENSOR_MODELS) * games + ROUNDS + len(GAMES) + 1 + runs


def format_bench(result: dict[str, Any]) -> str:
    lines = [
        f"tafel bench: {result['games']} physical games per game and sensor model, noise {result['noise']}, "
        "bots greedy, most players",
        "",
        "tracker step (ms)          unchanged     ahead     changed             first after commit  first lift",
        "  game            sensor   p50   p99     p99   max   p50   p99   max     p99     max         p99     max",
    ]
    for row in result["tracker"]:
        lines.append(
            f"  {row['case']:<15} {row['sensor']:<7}{row['unchanged_p50_ms']:>5.3f} {row['unchanged_p99_ms']:>5.3f}  "
            f"{row['ahead_p99_ms']:>5.2f} {row['ahead_max_ms']:>5.2f}  "
            f"{row['changed_p50_ms']:>4.2f} {row['changed_p99_ms']:>5.2f} {row['changed_max_ms']:>5.2f}  "
            f"{row['first_after_commit_p99_ms']:>6.2f} {row['first_after_commit_max_ms']:>7.2f}      "
            f"{row['first_lift_p99_ms']:>6.2f} {row['first_lift_max_ms']:>7.2f}"
        )
    lines += [
        "",
        "moves and latency (ms, virtual)   moves  wrong  place-to-LED p50  p99  place-to-commit p50  p99  GC max pause",
    ]
    for row in result["tracker"]:
        lines.append(
            f"  {row['case']:<15} {row['sensor']:<7} {row['moves']:>13} {row['wrong_commits']:>6} "
            f"{row['ack_ms_p50']:>17.0f} {row['ack_ms_p99']:>4.0f} {row['commit_ms_p50']:>20.0f} "
            f"{row['commit_ms_p99']:>4.0f} {row['gc_max_pause_ms']:>10.2f} ms"
        )
    chess_speed = result["python_chess_actions_per_s"]
    lines += ["", "random playouts (actions/s)" + ("    vs python-chess" if chess_speed else "")]
    for name, speed in result["playout_actions_per_s"].items():
        ratio = f"   {result['playout_vs_python_chess'][name]:>6.2f}x" if chess_speed else ""
        lines.append(f"  {name:<18} {speed:>12,.0f}{ratio}")
    lines.append(f"  {'python-chess':<18} {chess_speed:>12,.0f}" if chess_speed else "  python-chess: not installed")
    lines += ["", format_think_times(result["search_think_time"])]
    if result["service"]:
        lines += ["", format_service(result["service"])]
    gpio = result.get("gpio_scan")
    if isinstance(gpio, list):
        from controller.terminal.bench_gpio import format_gpio_bench

        lines += ["", format_gpio_bench(gpio)]
    elif gpio:
        lines += ["", gpio]
    return "\n".join(lines)
