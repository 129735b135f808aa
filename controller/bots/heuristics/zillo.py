"""Zillo evaluation for the greedy bot.

It scores a position only from what the mover may know: the board, the scores, the hand sizes, the
mover's own hand and the cards shown since the last shuffle (`ZilloState.unseen_by`). It never looks
at other hands or the pile order, nor at the card the next player turns up in top-card play after the
move.
"""

from __future__ import annotations

from math import comb
from typing import Any

from controller.bots.heuristics import Evaluator
from controller.games import Action, State
from controller.games.grid import manhattan
from controller.games.zillo import ZilloState
from controller.games.zillo.deck import MOVE_LENGTH
from controller.games.zillo.model import TOP

CATCH_SCORE = 1_000.0  # a catch that does not end the match (the bot's own, or an opponent's)
THREAT = 12.0  # an opponent who may catch before the mover's next turn
CHANCE = 5.0  # the mover's own catch waiting for their next turn
NEXT_WEIGHT = 1.0  # the player on turn after this move
LATER_WEIGHT = 0.4  # players further round the table (more can change before they move)
DISTANCE = 0.3  # how far a player's nearest Catchers are from the ideal 3 fields to the Zillo


def chance_to_hold(matching: int, unseen: int, hand: int) -> float:
    """Probability that `hand` cards drawn from `unseen` unknown cards include one of `matching`."""
    if matching <= 0 or hand <= 0:
        return 0.0
    if hand >= unseen or matching >= unseen:
        return 1.0
    return 1.0 - comb(unseen - matching, hand) / comb(unseen, hand)


class ZilloEvaluator(Evaluator):
    """Catch the Zillo when you can; otherwise keep the next players from catching it, keep a catch
    ready for your own next turn, and keep your Catchers 3 fields from the Zillo."""

    def prepare(self, state: State) -> None:
        return None

    def score(self, prepared: Any, action: Action, after: State, me: int) -> float:
        assert isinstance(after, ZilloState)
        caught = after.caught
        if caught is not None:
            # A catch in a match that goes on (a catch that ends the game is scored as a win).
            return CATCH_SCORE * caught.points * (1 if caught.player == me else -1)
        unseen = after.unseen_by(me)
        turned = after.face_up()
        if turned is not None:
            # The next player turned this card up only after the move: it was unknown when choosing.
            unseen = (*unseen, turned)
        own = after.hand(me)
        top_play = after.phase == TOP
        score = 0.0
        for player in range(after.players):
            options = after.catching_cards(player)
            if player == me and own is not None and not top_play:
                held = [points for card, points in options.items() if card in own]
                chance, points = (1.0, max(held)) if held else (0.0, 0)
            else:
                hand = 1 if top_play else after.hand_sizes[player]
                matching = [points for card, points in options.items() if card in unseen]
                chance = chance_to_hold(len(matching), len(unseen), hand)
                points = max(matching, default=0)
            value = chance * (points if after.position.match else min(points, 1))
            if player == me:
                score += CHANCE * value - DISTANCE * self._distance(after, player)
            else:
                ahead = (player - after.current_player) % after.players
                weight = NEXT_WEIGHT if ahead == 0 else LATER_WEIGHT
                score -= THREAT * weight * value - DISTANCE * weight * self._distance(after, player)
        return score

    @staticmethod
    def _distance(state: ZilloState, player: int) -> int:
        """How far `player`'s nearest Catchers are from being exactly 3 fields from the Zillo."""
        return min(
            abs(manhattan(cell, state.zillo) - MOVE_LENGTH)
            for cell, stack in state.catchers.items()
            if stack.player == player
        )
