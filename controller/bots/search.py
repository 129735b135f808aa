"""Search bots: Monte Carlo tree search over the rules engine, information-set search where cards
are hidden.

One algorithm serves every game (single-observer information-set MCTS, which is plain UCT where
nothing is hidden): each simulation first deals what the searching seat cannot see anew
(`State.sample_unseen`, so the bot never peeks), then walks the tree by UCB among the actions
legal in that sample (the evaluator's best first, widening with the visits), adds one node, and
backs up one value per seat: the outcome, or the game's evaluator (the greedy bot's) where the
simulation stops (after `rollout_plies` random plies, none by default; long games are never played
out). Where the evaluator values every way of finishing the turn under way (Zodiac after the draw:
`Evaluator.finishes_turn`), the bot plays its choice without searching; a search over those steps
only chose among equals by the noise of its samples, and lost to the evaluator alone.
Deterministic for a seed and a budget of simulations; a time budget is also possible (then it
depends on the machine).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from controller.bots.heuristics import EVALUATORS, Evaluator
from controller.games import Action, State

EXPLORATION = 0.7  # UCB's exploration constant for values in [0, 1]
WIN_SCORE = 1_000_000.0  # a won game, above any evaluation (as the greedy bot scores it)


@dataclass(frozen=True)
class SearchBudget:
    """How long a search thinks: a number of simulations, or (if set) seconds of wall time."""

    simulations: int
    rollout_plies: int = 0
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.simulations < 1:
            raise ValueError(f"a search needs at least one simulation, not {self.simulations}")
        if self.rollout_plies < 0:
            raise ValueError(f"rollout plies must be 0 or more, not {self.rollout_plies}")


@dataclass
class Node:
    """A tree node: the action that led here, who chose it, and what it earned that seat."""

    action: Action | None
    mover: int
    visits: int = 0
    reward: float = 0.0  # summed value for `mover`
    available: int = 0  # how often the action was legal when its parent was visited
    children: dict[Action, Node] = field(default_factory=dict)
    order: list[Action] | None = None  # the actions here, most promising first (the evaluator's)

    def ucb(self, exploration: float) -> float:
        return self.reward / self.visits + exploration * math.sqrt(math.log(self.available) / self.visits)


class SearchBot:
    """Information-set Monte Carlo tree search with a budget (see the module's docstring)."""

    def __init__(
        self,
        seed: int = 0,
        budget: SearchBudget | None = None,
        name: str = "search",
        budgets: Mapping[str, SearchBudget] | None = None,
    ) -> None:
        """`budget` for every game, or `budgets` by game name (a level's; `budget` for the rest)."""
        self.name = name
        self.budget = budget or SearchBudget(200)
        self._budgets = budgets or {}
        self._rng = random.Random(seed)
        self._stop: Callable[[], bool] = lambda: False

    def interrupt_when(self, stop: Callable[[], bool]) -> None:
        """Think until `stop()` says so (a take-back, an abandoned game): the best action so far."""
        self._stop = stop

    def searches(self, state: State) -> bool:
        """Whether `choose` thinks here: a choice the evaluator does not settle by itself (see
        `Evaluator.finishes_turn`)."""
        if len(state.legal_actions()) == 1:
            return False
        evaluator = EVALUATORS.get(state.game.name)
        return evaluator is None or not evaluator.finishes_turn(state)

    def choose(self, state: State) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        leaf = Leaf(EVALUATORS.get(state.game.name), self._rng)
        if not self.searches(state):
            return leaf.ordered(state, actions)[0]
        me = state.current_player
        root = Node(None, -1)
        budget = self._budgets.get(state.game.name, self.budget)
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        done = 0
        while done < budget.simulations or deadline is not None:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if done and self._stop():
                break
            self._simulate(root, state.sample_unseen(me, self._rng), leaf, budget.rollout_plies)
            done += 1
        best = max(root.children.values(), key=lambda child: (child.visits, child.reward))
        assert best.action is not None
        return best.action

    def _simulate(self, root: Node, state: State, leaf: Leaf, rollout_plies: int) -> None:
        rng = self._rng
        path = [root]
        node = root
        before, last = state, None
        while not state.is_terminal():
            actions = self._widened(node, state, leaf)
            for action in actions:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            untried = [action for action in actions if action not in node.children]
            if untried:
                action = rng.choice(untried)
                child = Node(action, state.current_player, available=1)
                node.children[action] = child
                before, last, state = state, action, state.apply_legal(action)
                path.append(child)
                break
            node = max((node.children[action] for action in actions), key=lambda c: c.ucb(EXPLORATION))
            assert node.action is not None
            before, last, state = state, node.action, state.apply_legal(node.action)
            path.append(node)
        for _ in range(rollout_plies):
            if state.is_terminal():
                break
            before, last = state, rng.choice(state.legal_actions())
            state = state.apply_legal(last)
        values = leaf.value(before, last, state)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.reward += values[visited.mover]

    def _widened(self, node: Node, state: State, leaf: Leaf) -> list[Action]:
        """The actions the search considers here: the evaluator's best first, one more each time the
        node's visits pass a square (progressive widening), so a small budget searches deep among
        the moves worth it instead of wide among all."""
        legal = state.legal_actions()
        if node.order is None:
            node.order = leaf.ordered(state, legal)
        width = 1 + math.isqrt(node.visits)
        if len(legal) <= width:
            return list(legal)
        allowed = set(legal)
        chosen = [action for action in node.order if action in allowed][:width]
        return chosen or list(legal[:width])


class Leaf:
    """The value of a position where a simulation stops, one per seat in [0, 1]: the outcome when
    the game is over, else the evaluator's score for each seat squashed by a logistic whose scale
    is the typical size of the scores seen so far in this search (their mean absolute value, which
    a rare huge score, a win threat, does not swamp; so no game needs a tuned constant)."""

    def __init__(self, evaluator: Evaluator | None, rng: random.Random | None = None) -> None:
        """`rng` breaks ties between actions the evaluator scores alike (as the greedy bot does);
        without it they keep the engine's order."""
        self._evaluator = evaluator
        self._rng = rng
        self._sizes = 0.0
        self._seen = 0

    def ordered(self, state: State, actions: Sequence[Action]) -> list[Action]:
        """`actions` by the evaluator's score for the seat on turn, best first (a win before all).
        Equal scores come in a random order: in the engine's order the search would widen into the
        same first moves of a quiet position every time, and two searches repeat them until the game
        is drawn (Klotz: the squares walled in by the 1-blocks, a 3-block pushed to and fro)."""
        if self._evaluator is None:
            return list(actions)
        me = state.current_player
        prepared = self._evaluator.prepare(state)
        scored = []
        for index, action in enumerate(actions):
            after = state.apply_legal(action)
            score = (
                WIN_SCORE * (after.returns()[me] - 0.5)
                if after.is_terminal()
                else (self._evaluator.score(prepared, action, after, me))
            )
            scored.append((-score, index, action))
        scored.sort(key=lambda entry: (entry[0], entry[1]))
        if self._rng is None:
            return [action for _, _, action in scored]
        tied = [[action for _, _, action in group] for _, group in groupby(scored, key=lambda entry: entry[0])]
        for group in tied:
            if len(group) > 1:
                self._rng.shuffle(group)
        return [action for group in tied for action in group]

    def value(self, before: State, last: Action | None, state: State) -> tuple[float, ...]:
        if state.is_terminal():
            return state.returns()
        if self._evaluator is None or last is None:
            return (0.5,) * state.players
        prepared = self._evaluator.prepare(before)
        scores = [self._evaluator.score(prepared, last, state, seat) for seat in range(state.players)]
        # A seat's lead over the best other seat; a player alone (solo Zillertal) leads by its score.
        leads = [score - max(scores[:seat] + scores[seat + 1 :], default=0.0) for seat, score in enumerate(scores)]
        for lead in leads:
            self._sizes += abs(lead)
        self._seen += len(leads)
        scale = self._sizes / self._seen or 1.0
        return tuple(1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -lead / scale)))) for lead in leads)
