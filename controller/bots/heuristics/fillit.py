"""Fillit evaluation for the greedy bot."""

from __future__ import annotations

from typing import Any

from controller.bots.heuristics import Evaluator
from controller.games import Action, State
from controller.games.fillit import PHASE_STONE_MOVED, FillitState


class FillitEvaluator(Evaluator):
    """Fewer chips in hand than the best rival, long slides for me, short ones for the next rival.

    The score is in chips: the supply difference now, plus the best slide still open to me this turn
    (a stone step first is judged by the slide it leaves), minus half of what the next rival could
    gain on their slide (chips laid plus my chips sent back), plus a little for my pawn's mobility.
    Only the pawns' six rays are searched, so a one-ply search stays fast.
    """

    PENDING = 1.0  # my slide after a stone step is certain to come this turn
    THREAT = 0.5  # the next rival's best slide, if they take it
    LATER = 0.25  # my own best slide on my next turn (the board will have changed)
    MOBILITY = 0.1

    def prepare(self, state: State) -> None:
        return None

    def score(self, prepared: Any, action: Action, after: State, me: int) -> float:
        assert isinstance(after, FillitState)
        side = after.side_of(me)
        supply = after.supply
        rivals = [left for other, left in enumerate(supply) if other != side]
        score = float(min(rivals) - supply[side])
        mine = after.slide_paths(me)
        score += self.MOBILITY * len(mine)
        on_turn = after.current_player
        if after.side_of(on_turn) == side:
            if on_turn == me and after.phase == PHASE_STONE_MOVED:
                score += self.PENDING * self._best_gain(after, mine.values(), side, side)
            return score
        threats = after.slide_paths(on_turn).values()
        score -= self.THREAT * self._best_gain(after, threats, after.side_of(on_turn), side)
        score += self.LATER * self._best_gain(after, mine.values(), side, side)
        return score

    @staticmethod
    def _best_gain(state: FillitState, paths: Any, mover: int, victim: int) -> float:
        """The best slide's chips laid by `mover`, counting `victim`'s chips sent back twice."""
        chips = state.chips
        best = 0.0
        for path in paths:
            gain = 0.0
            for cell in path:
                owner = chips.get(cell)
                if owner == mover:
                    continue
                gain += 2.0 if owner == victim and victim != mover else 1.0
            best = max(best, min(gain, float(state.supply[mover]) + 1.0))
        return best
