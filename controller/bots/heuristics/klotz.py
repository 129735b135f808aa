"""Klotz evaluation for the greedy bot."""

from __future__ import annotations

from typing import Any

from controller.bots.heuristics import Evaluator
from controller.games import Action, State
from controller.games.grid import manhattan
from controller.games.klotz import KlotzState, Move


class KlotzEvaluator(Evaluator):
    """Race your square to its corner; never leave the next player a winning move.

    For every square: distance to its corner, mobility, and whether it can win in one move. Only
    squares near the moved block (within a square's reach) are searched again for each candidate.
    """

    REACH = 4

    def prepare(self, state: State) -> dict[int, tuple[tuple[int, int], tuple[float, bool]]]:
        assert isinstance(state, KlotzState)
        return {p: self._square_features(state, p) for p in range(state.players)}

    def _square_features(self, state: KlotzState, player: int) -> tuple[tuple[int, int], tuple[float, bool]]:
        square = next(cell for cell, b in state.blocks.items() if b.is_square and b.player == player)
        corner = state.corner_of(player)
        reachable = {move.target for move in state.block_moves(square)}
        progress = -manhattan(square, corner) + 0.25 * len(reachable)
        return square, (progress, corner in reachable)

    def score(self, prepared: Any, action: Action, after: State, me: int) -> float:
        assert isinstance(after, KlotzState)
        features: dict[int, tuple[float, bool]] = {}
        for player, (square, cached) in prepared.items():
            moved = isinstance(action, Move) and (
                action.origin == square
                or manhattan(action.origin, square) <= self.REACH
                or manhattan(action.target, square) <= self.REACH
            )
            features[player] = self._square_features(after, player)[1] if moved else cached
        on_turn = after.current_player
        score = features[me][0]
        if features[me][1]:
            score += 20.0
        rivals = [p for p in features if p != me]
        score -= max(features[p][0] for p in rivals)
        for player in rivals:
            if features[player][1]:
                score -= 10_000.0 if player == on_turn else 40.0
        return score
