"""Bots that choose actions through the public rules-engine API only.

Every bot is deterministic for a given seed: ties are broken by its own seeded generator, and
candidate actions come in the engine's deterministic order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from controller.bots.heuristics import EVALUATORS, Evaluator
from controller.bots.search import SearchBot, SearchBudget
from controller.games import Action, State

WIN_SCORE = 1_000_000.0


class Bot(Protocol):
    name: str

    def choose(self, state: State) -> Action: ...


class RandomBot:
    """Uniformly random legal actions: the baseline, and the fastest playout policy."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        return self._rng.choice(state.legal_actions())


class GreedyBot:
    """One-ply search: apply every legal action and keep the best by the game's evaluation.

    A win ends the search; a loss is avoided whenever anything else is possible. Games without an
    evaluator are played by terminal outcomes alone (random among equal actions).
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        me = state.current_player
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        evaluate = EVALUATORS.get(state.game.name)
        prepared = evaluate.prepare(state) if evaluate is not None else None
        best: list[Action] = []
        best_score = float("-inf")
        for action in actions:
            after = state.apply_legal(action)
            if after.is_terminal():
                score = WIN_SCORE * (after.returns()[me] - 0.5)
            elif evaluate is not None:
                score = evaluate.score(prepared, action, after, me)
            else:
                score = 0.0
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[0] if len(best) == 1 else self._rng.choice(best)


@dataclass(frozen=True)
class SearchLevel:
    """A search level: the simulations it runs per move in each game. A level is a think time, and a
    simulation costs each game a different time, so each game gets the simulations that fill it."""

    simulations: Mapping[str, int]

    def budgets(self) -> dict[str, SearchBudget]:
        return {game: SearchBudget(simulations=count) for game, count in self.simulations.items()}


# Search levels, weakest first. `search-2` is the strongest search a Pi Zero 2 W affords in about
# 3 s a move: a simulation's measured cost on the development machine (docs/bots.md, "Levels") times
# 25, the slow end of the Pi's factor for pure Python. `search-1` thinks about a fifth as long.
SEARCH_LEVELS: dict[str, SearchLevel] = {
    "search-1": SearchLevel({"klotz": 25, "fillit": 100, "zillo": 30, "zillertal": 64, "zodiac": 64}),
    "search-2": SearchLevel({"klotz": 180, "fillit": 500, "zillo": 240, "zillertal": 320, "zodiac": 320}),
}


def _search_bot(name: str) -> Callable[[int], Bot]:
    budgets = SEARCH_LEVELS[name].budgets()
    return lambda seed: SearchBot(seed, name=name, budgets=budgets)


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    **{name: _search_bot(name) for name in SEARCH_LEVELS},
}
"""Every bot level, weakest first. On the board's service the search levels think in a worker
process (thinking.py), so they never hold up the scan loop."""


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name, seeded; a clear error for an unknown name."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})") from None
    return factory(seed)


__all__ = [
    "BOTS",
    "SEARCH_LEVELS",
    "Bot",
    "Evaluator",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "SearchLevel",
    "make_bot",
]
