"""A Zillertal position: whose turn, the Valley, contracts and bonuses, and the legal actions.

Applying actions, the reasons of illegal ones, notation and views are functions of the state in
turns.py, reasons.py, actions.py and views.py; this class calls them.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any

from controller.games.base import Action, Cell, Mark, Occupancy, State
from controller.games.cards import UNSEEN
from controller.games.zillertal import actions, reasons, turns, unseen, views
from controller.games.zillertal.actions import (
    BONUS_EXCHANGE,
    BONUS_TOKENS,
    DONE,
    BonusCross,
    BonusGorge,
    BonusTask,
    Claim,
    End,
    NewContract,
    Place,
    PlaceToken,
    SecondCross,
    SetAside,
    Swap,
)
from controller.games.zillertal.cards import (
    BLANK,
    CONTRACT_VALUES,
    ICONS,
    CardSet,
    Contract,
)
from controller.games.zillertal.model import (
    BONUS_AT,
    CROSS,
    DEAL,
    DRAW,
    EXCHANGE,
    GORGE_CARDS,
    PHYSICAL,
    REDRAW,
    SOLO_BONUS_AT,
    TOKENS,
    Position,
    _distinct,
    token_supply,
)
from controller.games.zillertal.valley import ICON_INDEX, Valley

if TYPE_CHECKING:
    from controller.games.zillertal.game import Zillertal


class ZillertalState(State):
    __slots__ = ("_custom", "_game", "_legal", "_position", "_set", "_valley")

    def __init__(self, game: Zillertal, card_set: CardSet, custom: bool, table: Position) -> None:
        self._game = game
        self._set = card_set
        self._custom = custom
        self._position = table
        self._legal: tuple[Action, ...] | None = None
        self._valley: Valley | None = None

    def sample_unseen(self, player: int | frozenset[int], rng: random.Random) -> ZillertalState:
        return unseen.sample_unseen(self, player, rng)

    def forget_derived(self) -> None:
        self._legal = self._valley = None

    # --- description -------------------------------------------------------------------------
    @property
    def game(self) -> Zillertal:
        return self._game

    @property
    def card_set(self) -> CardSet:
        return self._set

    @property
    def position(self) -> Position:
        """The whole table, hidden cards included: for the engine, tests and saving, never for a player."""
        return self._position

    @property
    def players(self) -> int:
        return self._position.players

    @property
    def current_player(self) -> int:
        return self._position.current

    @property
    def turns(self) -> int:
        return self._position.turns

    @property
    def ply(self) -> int:
        return self._position.turns

    @property
    def solo(self) -> bool:
        return self._position.players == 1

    @property
    def events(self) -> tuple[str, ...]:
        return self._position.events

    @property
    def valley(self) -> Valley:
        valley = self._valley
        if valley is None:
            t = self._position
            valley = self._valley = Valley(self._set.valley, t.placed, t.gorge, t.crosses, t.tokens)
        return valley

    def contract(self, contract_id: str) -> Contract:
        return self._set.contracts[contract_id]

    def points(self, seat: int) -> int:
        """Points from completed contracts."""
        return sum(self._set.contracts[c].points for c in self._position.completed[seat])

    def open_tasks(self, seat: int) -> int:
        """Tie-break: tasks claimed on contracts not yet completed."""
        return sum(len(h.claimed) for h in self._position.contracts[seat])

    def solo_won(self) -> bool:
        t = self._position
        return self.solo and not t.contracts[0] and bool(t.completed[0])

    def is_terminal(self) -> bool:
        return self._position.over

    def returns(self) -> tuple[float, ...]:
        t = self._position
        if not t.over:
            return (0.0,) * t.players
        if self.solo:
            return (1.0 if self.solo_won() else 0.0,)
        # Rule text: most points wins; a tie goes to more tasks on uncompleted contracts. ZT-E6: players
        # still tied share the win as a draw (0.5 each).
        keys = [(self.points(p), self.open_tasks(p)) for p in range(t.players)]
        best = max(keys)
        winners = [p for p, key in enumerate(keys) if key == best]
        share = 1.0 if len(winners) == 1 else 0.5
        return tuple(share if p in winners else 0.0 for p in range(t.players))

    def bonus_thresholds(self) -> tuple[int, ...]:
        return SOLO_BONUS_AT if self.solo else BONUS_AT

    def bonus_entitled(self) -> bool:
        """Rule text: a bonus after the 2nd and the 4th contract (solo: the 3rd), from the next turn on.

        ZT-E3: a bonus claimed is used at once; a player owed two may use both in one turn.
        """
        t = self._position
        if not t.bonuses or t.pending is not None:
            return False
        earned = sum(1 for n in self.bonus_thresholds() if t.start_completed >= n)
        return t.taken[t.current] < earned

    def placements(self, card: str) -> tuple[int, ...]:
        """ZT-2: every dotted line where `card`'s left edge may go now."""
        return self.valley.placements(self._set.valley[card])

    @property
    def hands_mode(self) -> str:
        return self._position.hands_mode

    @property
    def physical(self) -> bool:
        """ZT-E10: real cards at a table; the controller does not know the hands."""
        return self._position.hands_mode == PHYSICAL

    @property
    def pending(self) -> str | None:
        """The step under way inside a turn (a bonus, or entering a contract drawn), or None."""
        return self._position.pending

    @property
    def to_draw(self) -> tuple[int, ...]:
        """ZT-E11: pile values of contracts drawn but not yet entered."""
        return self._position.to_draw

    def hand_size(self, seat: int) -> int:
        return len(self._position.hands[seat])

    def chance_count(self) -> int:
        """How many draws of hidden cards happened so far: no take-back across one."""
        return self._position.revealed

    def unaccounted(self, card: str) -> int:
        """ZT-E10: copies of Valley card `card` not laid or set aside: one may be in a hand."""
        t = self._position
        laid = sum(1 for p in t.placed if p.card == card) + t.set_aside.count(card)
        return self._set.copies[card] - laid

    def playable_cards(self) -> tuple[str, ...]:
        """The distinct Valley cards the player on turn may lay: their hand, or with physical hands
        every card of which a copy may still be in a hand (ZT-E10), in card-set order."""
        t = self._position
        hand = t.hands[t.current]
        if UNSEEN not in hand:
            return tuple(_distinct(hand))
        return tuple(c for c in self._set.valley if self.unaccounted(c) > 0)

    # --- legality ----------------------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        legal = self._legal  # read once: another thread may make the state forget it (forget_derived)
        if legal is None:
            legal = self._legal = tuple(self._compute_legal())
        return legal

    def _compute_legal(self) -> list[Action]:
        t = self._position
        if t.over:
            return []
        me = t.current
        hand = t.hands[me]
        valley = self.valley
        if t.pending == TOKENS:
            return self._token_actions()
        if t.pending in (DEAL, DRAW, REDRAW):
            return self._contract_entries()
        if t.pending == EXCHANGE:
            actions: list[Action] = []
            if t.deck and UNSEEN in hand:
                # ZT-E12: any card the hand may hold; at most as many swaps as unseen hand cards.
                if hand.count(UNSEEN) > t.received.count(UNSEEN):
                    actions.extend(Swap(c) for c in self.playable_cards())
            elif t.deck:
                actions.extend(Swap(c) for c in _distinct(hand) if hand.count(c) > t.received.count(c))
            for held in t.contracts[me]:
                if held.id not in t.received and t.piles[self._set.contracts[held.id].points - 1]:
                    actions.append(Swap(held.id))
            actions.append(DONE)
            return actions
        if t.pending == CROSS:
            return [SecondCross(line) for line in valley.lines() if line not in t.crosses]
        actions = []
        if not t.played and UNSEEN in hand:
            # ZT-E10: any card a hand may hold is laid where it fits; ZT-E1 with physical hands: one
            # that fits nowhere may be set aside (the controller cannot see the other hand card).
            for card in self.playable_cards():
                found = self.placements(card)
                actions.extend(Place(card, at) for at in found)
                if not found:
                    actions.append(SetAside(card))
        elif not t.played:
            for card in _distinct(hand):
                actions.extend(Place(card, at) for at in self.placements(card))
            if not actions:
                actions.extend(SetAside(card) for card in _distinct(hand))  # ZT-E1
        else:
            actions.extend(self._claims())
        if self.bonus_entitled():
            actions.extend(self._bonus_actions())
        if t.played:
            actions.extend(self._ends())
        return actions

    def _contract_entries(self) -> list[Action]:
        """ZT-E11: the contracts that may have been drawn: any left in a pile of a value still owed.
        ZT-E12: in a redraw the contract just slid under its pile is not the one drawn."""
        t = self._position
        entries: list[Action] = []
        for value in sorted(set(t.to_draw)):
            pile = t.piles[value - 1]
            candidates = pile[1:] if t.pending == REDRAW else pile
            entries.extend(NewContract(c) for c in dict.fromkeys(candidates))
        return entries

    def _claims(self) -> list[Action]:
        t = self._position
        shown = self.valley.shown_tasks()
        actions: list[Action] = []
        for held in t.contracts[t.current]:
            if t.claim_on not in (None, held.id):
                continue  # ZT-7: tasks on one contract per turn
            for task in self._set.contracts[held.id].tasks:
                if task in shown and task[0] not in held.claimed:
                    actions.append(Claim(held.id, task[0]))
        return actions

    def _bonus_actions(self) -> list[Action]:
        t = self._position
        valley = self.valley
        actions: list[Action] = []
        if "tokens" not in t.used and any(token_supply(self._set, t.tokens).values()) and not valley.empty:
            actions.append(BONUS_TOKENS)
        if "task" not in t.used:
            for held in t.contracts[t.current]:
                actions.extend(
                    BonusTask(held.id, icon)
                    for icon, _ in self._set.contracts[held.id].tasks
                    if icon not in held.claimed
                )
        if "exchange" not in t.used:
            actions.append(BONUS_EXCHANGE)
        if t.gorge is None and t.gorges_used < GORGE_CARDS and not valley.empty:
            actions.extend(BonusGorge(c) for c in valley.columns())
        if "crosses" not in t.used and not valley.empty:
            actions.extend(BonusCross(line) for line in valley.lines())
        return actions

    def _token_actions(self) -> list[Action]:
        t = self._position
        valley = self.valley
        supply = token_supply(self._set, t.tokens)
        actions: list[Action] = []
        columns = valley.visible_columns()
        for icon in ICONS:
            if supply[icon] > 0:
                actions.extend(PlaceToken(icon, c) for c in columns)
        if supply[BLANK] > 0:
            for icon in ICONS:
                index = ICON_INDEX[icon]
                actions.extend(PlaceToken(icon, c, blank=True) for c in columns if valley.column_counts(c)[index] > 0)
        return actions

    def _ends(self) -> list[Action]:
        """ZT-E7: one pile value per contract completed this turn, from piles that still hold cards."""
        t = self._position
        if self.solo:
            return [End()]  # solo: completed contracts are not replaced
        if not t.replacements:
            return [End()]  # ZT-E7: nothing completed this turn, nothing to replace
        sizes = {v: len(t.piles[v - 1]) for v in CONTRACT_VALUES}
        wanted = min(t.replacements, sum(sizes.values()))
        available = [v for v in CONTRACT_VALUES if sizes[v]]
        ends: list[Action] = []
        for combo in combinations_with_replacement(available, wanted):
            if all(combo.count(v) <= sizes[v] for v in available):
                ends.append(End(combo))
        return ends

    # --- turns, reasons, notation and views (turns.py, reasons.py, actions.py, views.py) -------
    def apply_legal(self, action: Action) -> ZillertalState:
        return turns.apply_legal(self, action)

    def why_illegal(self, action: Action) -> str:
        return reasons.why_illegal(self, action)

    def action_to_str(self, action: Action) -> str:
        return actions.action_to_str(self, action)

    def card_id(self, text: str) -> str:
        return actions.card_id(self, text)

    def parse_action(self, text: str) -> Action:
        return actions.parse_action(self, text)

    def to_json(self) -> dict[str, Any]:
        return views.to_json(self)

    def observation(self, player: int) -> dict[str, Any]:
        return views.observation(self, player)

    def standing(self, player: int) -> dict[str, Any]:
        """How each seat stands, as `player` sees it: a part of `observation(player)`."""
        return views.standing(self, player)

    def occupancy(self) -> Occupancy:
        return views.occupancy(self)

    def marks(self) -> dict[Cell, Mark]:
        return views.marks(self)

    def __repr__(self) -> str:
        return f"<ZillertalState turn={self._position.turns} player={self._position.current}>"
