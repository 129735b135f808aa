"""The search levels' think time per game (`tafel bench`): what each level's simulations cost here,
and that times the Pi Zero 2 W's factor, which is how the levels' budgets were chosen (docs/bots.md)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from controller.bots import SEARCH_LEVELS, GreedyBot, SearchBot
from controller.bots.search import SearchBudget
from controller.games import GAMES, Game, State

PI_FACTOR = 25  # the slow end of a Pi Zero 2 W's factor for pure Python (architecture.md)
OPENING_PLIES = 40  # the positions timed come from this many plies of a greedy game


def opening_positions(game: Game, count: int, seed: int) -> list[State]:
    """`count` positions where a search thinks, spread over the opening of a two-player greedy game."""
    state = game.new_game(players=2, seed=seed)
    bots = [GreedyBot(seed + seat) for seat in range(2)]
    search = SearchBot(seed)
    searched: list[State] = []
    for _ in range(OPENING_PLIES):
        if state.is_terminal():
            break
        if search.searches(state):
            searched.append(state)
        state = state.apply(bots[state.current_player].choose(state))
    step = max(1, len(searched) // count)
    return searched[::step][:count]


def think_times(positions: int = 5, seed: int = 1, on_step: Callable[[], None] | None = None) -> dict[str, Any]:
    """Each game's mean think time a move for each search level, and per simulation."""
    rows: dict[str, Any] = {}
    for name, game in GAMES.items():
        states = opening_positions(game, positions, seed)
        levels: dict[str, Any] = {}
        per_simulation: list[float] = []
        for level, budgets in SEARCH_LEVELS.items():
            simulations = budgets.simulations[name]
            elapsed = []
            for state in states:
                started = time.perf_counter()
                SearchBot(seed, SearchBudget(simulations)).choose(state)
                elapsed.append(time.perf_counter() - started)
            mean_ms = 1000 * sum(elapsed) / len(elapsed)
            per_simulation.append(mean_ms / simulations)
            levels[level] = {
                "simulations": simulations,
                "move_ms": round(mean_ms, 1),
                "pi_estimate_s": round(mean_ms * PI_FACTOR / 1000, 2),
            }
        rows[name] = {"positions": len(states), "ms_per_simulation": round(min(per_simulation), 3), "levels": levels}
        if on_step is not None:
            on_step()
    return rows


def format_think_times(rows: dict[str, Any]) -> str:
    levels = list(SEARCH_LEVELS)
    header = "".join(f"{level:>26}" for level in levels)
    lines = [
        f"search think time (a move, mean over opening positions; Pi Zero 2 W estimated at x{PI_FACTOR})",
        f"  {'game':<10} {'ms/simulation':>13}{header}",
    ]
    for name, row in rows.items():
        cells = "".join(
            f"{row['levels'][level]['simulations']:>8} sims {row['levels'][level]['move_ms']:>6.0f} ms"
            f" {row['levels'][level]['pi_estimate_s']:>4.1f} s"
            for level in levels
        )
        lines.append(f"  {name:<10} {row['ms_per_simulation']:>13.3f}{cells}")
    return "\n".join(lines)
