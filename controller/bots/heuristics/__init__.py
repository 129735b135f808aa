"""Position evaluations for the greedy bot, one module per game, registered here by game name.

An evaluator may prepare per-position data once (`prepare`) and then score each candidate
successor cheaply (`score`), which keeps a one-ply search fast enough for long self-play runs.
"""

from __future__ import annotations

from typing import Any, Protocol

from controller.games import Action, State


class Evaluator(Protocol):
    def prepare(self, state: State) -> Any: ...

    def score(self, prepared: Any, action: Action, after: State, me: int) -> float:
        """Higher is better for `me`; `after` is the state `action` leads to (not terminal)."""
        ...


def _registry() -> dict[str, Evaluator]:
    from controller.bots.heuristics.fillit import FillitEvaluator
    from controller.bots.heuristics.klotz import KlotzEvaluator
    from controller.bots.heuristics.zillertal import ZillertalEvaluator
    from controller.bots.heuristics.zillo import ZilloEvaluator
    from controller.bots.heuristics.zodiac import ZodiacEvaluator

    return {
        "klotz": KlotzEvaluator(),
        "fillit": FillitEvaluator(),
        "zillo": ZilloEvaluator(),
        "zillertal": ZillertalEvaluator(),
        "zodiac": ZodiacEvaluator(),
    }


EVALUATORS: dict[str, Evaluator] = _registry()
