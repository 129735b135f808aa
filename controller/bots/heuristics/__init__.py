"""Position evaluations for the greedy bot, one module per game, registered here by game name.

An evaluator may prepare per-position data once (`prepare`) and then score each candidate
successor cheaply (`score`), which keeps a one-ply search fast enough for long self-play runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from controller.games import Action, State
from controller.games.registry import LazyRegistry


class Evaluator(Protocol):
    def prepare(self, state: State) -> Any: ...

    def score(self, prepared: Any, action: Action, after: State, me: int) -> float:
        """Higher is better for `me`; `after` is the state `action` leads to (not terminal). `me` is
        the seat that chose `action` (prepared in the state before) for the greedy bot; the search
        also asks for every other seat, which is valued by the position it sees in `after` alone."""
        ...

    def finishes_turn(self, state: State) -> bool:
        """Whether the seat on turn is in the middle of a turn whose every way of finishing the
        evaluator values exactly (from what the seat sees): its first choice is then the move, and
        a search over these steps would only choose among equals by the noise of its samples.
        Default: no (every action is a choice the search weighs)."""
        return False


def _klotz() -> Evaluator:
    from controller.bots.heuristics.klotz import KlotzEvaluator

    return KlotzEvaluator()


def _fillit() -> Evaluator:
    from controller.bots.heuristics.fillit import FillitEvaluator

    return FillitEvaluator()


def _zillo() -> Evaluator:
    from controller.bots.heuristics.zillo import ZilloEvaluator

    return ZilloEvaluator()


def _zillertal() -> Evaluator:
    from controller.bots.heuristics.zillertal import ZillertalEvaluator

    return ZillertalEvaluator()


def _zodiac() -> Evaluator:
    from controller.bots.heuristics.zodiac import ZodiacEvaluator

    return ZodiacEvaluator()


# Each game's evaluator is made (and its game imported) when a bot first plays that game.
EVALUATORS: Mapping[str, Evaluator] = LazyRegistry(
    {"klotz": _klotz, "fillit": _fillit, "zillo": _zillo, "zillertal": _zillertal, "zodiac": _zodiac}
)
