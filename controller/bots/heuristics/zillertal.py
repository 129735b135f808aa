"""Zillertal evaluation for the greedy bot, from what the mover may see only.

The greedy bot applies each action to the real state. Ending the turn draws a Valley card (and maybe
new contracts) and an exchange draws replacements: the mover cannot know those cards when choosing,
so such actions are scored from the position before them plus what the choice itself is worth. Every
other action reveals nothing new and is scored from `after.standing(me)` (the part of the mover's
observation that says how each seat stands).

A position is worth its points and claimed tasks, plus the tasks the mover can still claim this turn
(on the one contract claims are allowed on), plus how close the Valley's counts are to the mover's
open tasks, minus the tasks the Valley hands to the other players.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.bots.heuristics import Evaluator
from controller.games import Action, State
from controller.games.zillertal import BonusExchange, Done, End, Swap, ZillertalState
from controller.games.zillertal.cards import ICONS

POINT = 100.0  # each point from a completed contract
TASK = 20.0  # each task claimed on an open contract (also the tie-break)
CLAIMABLE = 18.0  # each task the mover can still claim this turn, on the best contract
NEAR = 2.0  # closeness of an open task's target to the Valley's best zone count
GIFT = -1.5  # each task of another player that the Valley now meets
BONUS = 4.0  # an earned bonus not yet used (so a bonus is spent only when it gains something)
SWAP_DEAD_CARD = 3.0  # exchanging a hand card that fits nowhere
ICON_INDEX = {icon: index for index, icon in enumerate(ICONS)}


@dataclass
class Prepared:
    me: int
    state: ZillertalState
    obs: dict[str, Any]


class ZillertalEvaluator(Evaluator):
    def prepare(self, state: State) -> Prepared:
        assert isinstance(state, ZillertalState)
        me = state.current_player
        return Prepared(me, state, state.standing(me))

    def score(self, prepared: Any, action: Action, after: State, me: int) -> float:
        assert isinstance(prepared, Prepared) and isinstance(after, ZillertalState)
        if me != prepared.me:
            # Another seat did not choose this action: it stands as its own view of `after` shows.
            return value(after, after.standing(me))
        if isinstance(action, End):
            # The card drawn and the contracts taken are unknown when choosing: score the choice only.
            before = value(prepared.state, prepared.obs, turn_over=True)
            return before + pile_value(prepared.obs, action.piles)
        if isinstance(action, Swap):
            return value(prepared.state, prepared.obs) + swap_value(prepared.state, prepared.obs, action.card)
        if isinstance(action, Done | BonusExchange):
            return value(prepared.state, prepared.obs)
        return value(after, after.standing(me))


def value(state: ZillertalState, obs: Mapping[str, Any], turn_over: bool = False) -> float:
    me = obs["player"]
    zones = list(obs["zones"].values())
    total: float = POINT * obs["points"][me] + TASK * obs["open_tasks"][me]
    my_turn = obs["current_player"] == me and not obs["terminal"] and not turn_over
    best_claimable = 0
    for held in obs["contracts"][me]:
        contract = state.contract(held["id"])
        claimable = 0
        for icon, target in contract.tasks:
            if icon in held["claimed"]:
                continue
            distance = _distance(zones, icon, target)
            total += NEAR / (1 + distance)
            if distance == 0 and obs["claim_on"] in (None, held["id"]):
                claimable += 1
        best_claimable = max(best_claimable, claimable)
    if my_turn and obs["played"]:
        total += CLAIMABLE * best_claimable
    for seat, contracts in enumerate(obs["contracts"]):
        if seat == me:
            continue
        for held in contracts:
            for icon, target in state.contract(held["id"]).tasks:
                if icon not in held["claimed"] and _distance(zones, icon, target) == 0:
                    total += GIFT
    if obs["bonus_entitled"] or (my_turn and obs["pending"] is not None):
        total += BONUS
    return total


def _distance(zones: list[list[int]], icon: str, target: int) -> int:
    index = ICON_INDEX[icon]
    if not zones:
        return target
    return min(abs(totals[index] - target) for totals in zones)


def pile_value(obs: Mapping[str, Any], piles: tuple[int, ...]) -> float:
    """A new contract is worth its points if there are turns enough left to complete its tasks."""
    players = obs["players"]
    in_hands = sum(h["count"] if isinstance(h, dict) else len(h) for h in obs["hands"])
    cards_left = obs["deck"]["count"] + in_hands
    turns_left = cards_left / players
    total = 0.0
    for points in piles:
        tasks = points + 1
        total += points * min(1.0, turns_left / (2 * tasks))
    return total


def swap_value(state: ZillertalState, obs: Mapping[str, Any], card: str) -> float:
    """Exchange a hand card that fits nowhere, or a contract with no claims whose targets are far off."""
    if card in state.card_set.valley:
        return SWAP_DEAD_CARD if not state.placements(card) else -1.0
    me = obs["player"]
    held = next(h for h in obs["contracts"][me] if h["id"] == card)
    if held["claimed"]:
        return -TASK * len(held["claimed"])
    zones = list(obs["zones"].values())
    tasks = state.contract(card).tasks
    mean = sum(_distance(zones, icon, target) for icon, target in tasks) / len(tasks)
    return mean - 4.0
