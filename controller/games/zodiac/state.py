"""A Zodiac position: whose turn and phase, what a physical table may hold (ZO-E13) and the legal actions.

Applying actions, the reasons of illegal ones, notation and views are functions of the state in
turns.py, reasons.py, actions.py and views.py; this class calls them.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from controller.games import cards
from controller.games.base import Action, Cell, Mark, Occupancy, State
from controller.games.cards import UNSEEN, Card, Hand, take_card
from controller.games.zodiac import actions, reasons, turns, unseen, views
from controller.games.zodiac.actions import (
    DRAW,
    SPARE,
    TAKE,
    Dealer,
    Discard,
    Down,
    Ending,
    Lose,
    Open,
    Pass,
    PlayMoon,
    PlaySun,
    Up,
    calls_zodiac,
)
from controller.games.zodiac.cards import (
    _ORDER,
    DECK_COUNTS,
    HAND_LIMIT,
    MOON,
    SIGN_SET,
    SIGNS,
    SUN,
    UP_LIMIT,
    _distinct,
    _distinct_signs,
    is_sign,
    over_limits,
)
from controller.games.zodiac.model import DEALER, DRAWN, OPEN, OVER, PENALTY, PHYSICAL, TURN, Position, _zodiac_possible

if TYPE_CHECKING:
    from controller.games.zodiac.game import Zodiac


class ZodiacState(State):
    __slots__ = ("_game", "_legal", "_position", "_seen")

    def __init__(self, game: Zodiac, table: Position) -> None:
        self._game = game
        self._position = table
        self._legal: tuple[Action, ...] | None = None
        self._seen: dict[Card, int] | None = None

    def sample_unseen(self, player: int | frozenset[int], rng: random.Random) -> ZodiacState:
        return unseen.sample_unseen(self, player, rng)

    def forget_derived(self) -> None:
        self._legal = self._seen = None

    # --- description -------------------------------------------------------------------------
    @property
    def game(self) -> Zodiac:
        return self._game

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
    def phase(self) -> str:
        return self._position.phase

    @property
    def mode(self) -> str:
        return self._position.mode

    @property
    def winner(self) -> int | None:
        return self._position.winner

    @property
    def turns(self) -> int:
        return self._position.turns

    @property
    def ply(self) -> int:
        return self._position.turns

    @property
    def events(self) -> tuple[str, ...]:
        """What happened in the last step besides the action itself, in words; all public."""
        return self._position.events

    @property
    def hands_mode(self) -> str:
        return self._position.hands_mode

    @property
    def physical(self) -> bool:
        """ZO-E12: real cards at a table; the controller does not know the hands."""
        return self._position.hands_mode == PHYSICAL

    @property
    def skips(self) -> tuple[int, ...]:
        """ZO-3: the turns each seat will skip (public)."""
        return self._position.skips

    def face_up(self, seat: int) -> Hand:
        return self._position.up[seat]

    def hand_size(self, seat: int) -> int:
        return len(self._position.hands[seat])

    def chance_count(self) -> int:
        """How many times hidden cards were shown (draws, reshuffles, hands shown to a player): an
        action across which this count changes cannot be taken back."""
        return self._position.revealed

    def source_of(self, card: Card) -> str | None:
        """ZO-E9 (dealt hands): where the player on turn would play action card `card` from."""
        return self._source(card)

    def is_terminal(self) -> bool:
        return self._position.phase == OVER

    def returns(self) -> tuple[float, ...]:
        t = self._position
        if t.phase != OVER:
            return (0.0,) * t.players
        if t.winner is None:
            return (0.5,) * t.players  # ZO-6, ZO-E11: a game stopped by max_turns is a draw
        return tuple(1.0 if p == t.winner else 0.0 for p in range(t.players))

    # --- what a physical table may hold (ZO-E13) -----------------------------------------------
    def _unaccounted(self, card: Card) -> int:
        """Copies of `card` the controller has not seen anywhere: they may be in any unseen card."""
        seen = self._seen
        if seen is None:
            t = self._position
            seen = cards.count_by_id((*t.discard, *(c for u in t.up for c in u), *(c for h in t.hands for c in h)))
            seen.pop(UNSEEN, None)
            self._seen = seen
        return DECK_COUNTS[card] - seen.get(card, 0)

    def _may_hold(self, seat: int, card: Card) -> bool:
        """Whether `seat`'s hand may hold `card`: a known copy, or an unseen card that may be one."""
        hand = self._position.hands[seat]
        return card in hand or (UNSEEN in hand and self._unaccounted(card) > 0)

    def _hand_choices(self, seat: int) -> list[Card]:
        """The distinct cards `seat` may hold in the hand, in card order (all of them, when dealt)."""
        hand = self._position.hands[seat]
        if UNSEEN not in hand:
            return _distinct(hand)
        return [c for c in _ORDER if c in hand or self._unaccounted(c) > 0]

    # --- legality ----------------------------------------------------------------------------
    def _missing(self, seat: int) -> frozenset[Card]:
        """ZO-2: the signs a player has neither in hand nor face up."""
        t = self._position
        return SIGN_SET - set(t.hands[seat]) - set(t.up[seat])

    def sun_targets(self) -> tuple[tuple[Card, int], ...]:
        """ZO-2: (sign, seat) pairs the player on turn could take with a Sun, in seat then sign order."""
        t = self._position
        missing = self._missing(t.current)
        targets = []
        for seat in range(t.players):
            if seat == t.current:
                continue
            for card in SIGNS:
                if card in missing and card in t.up[seat]:
                    targets.append((card, seat))
        return tuple(targets)

    def can_take(self) -> bool:
        """ZO-1 and ZO-4: the top discard can be taken if it is a sign and not a penalty card."""
        t = self._position
        return bool(t.discard) and is_sign(t.discard[-1]) and not t.locked

    def _source(self, card: Card) -> str | None:
        """ZO-E9: where an action card is played from: the hand if it holds one, else the face-up area."""
        t = self._position
        if card in t.hands[t.current]:
            return "hand"
        return "up" if card in t.up[t.current] else None

    def _areas(self, card: Card) -> list[str | None]:
        """The `area` values of the plays of action card `card` open to the player on turn.

        Dealt hands: one play, from where ZO-E9 says. Physical hands (ZO-E14): from the hand if it may
        hold one, and from the face-up area if one lies there.
        """
        t = self._position
        if not self.physical:
            return [None] if self._source(card) is not None else []
        areas: list[str | None] = []
        if self._may_hold(t.current, card):
            areas.append("hand")
        if card in t.up[t.current]:
            areas.append("up")
        return areas

    def _area_of(self, card: Card, area: str | None) -> str | None:
        """Where a play with this `area` takes the card from (ZO-E9 when dealt)."""
        return self._source(card) if area is None else area

    def _can_play(self, card: Card, area: str | None) -> bool:
        """Whether an action card may be played from `area` as the turn (before drawing)."""
        t = self._position
        if area not in self._areas(card):
            return False
        if card == SUN and self._area_of(card, area) == "up" and t.mode == "referee":
            # ZO-2: the sign taken goes into the hand; the referee refuses a 7th card in hand (ZO-4).
            return len(t.hands[t.current]) < HAND_LIMIT
        return True

    def _movable_up(self) -> list[Card]:
        t = self._position
        hand, up = t.hands[t.current], t.up[t.current]
        if t.mode == "referee" and len(up) >= UP_LIMIT:
            return []  # ZO-E8: the referee never lets the face-up area exceed 6
        # ZO-5: each card moves at most once per turn; a card moved down stays in the hand.
        unseen = UNSEEN in hand
        return [
            c
            for c in self._hand_choices(t.current)
            if hand.count(c) > t.moved_down.count(c) or (unseen and self._unaccounted(c) > 0)
        ]

    def _movable_down(self) -> list[Card]:
        t = self._position
        up = t.up[t.current]
        return [c for c in _distinct(up) if up.count(c) > t.moved_up.count(c)]

    def _discardable(self) -> list[Card]:
        """ZO-E2: a discard is a sign from the hand; an action card only when the hand holds no sign,
        or when it cannot be played (a Sun while no opponent shows a sign the player is missing), so a
        player one sign short of a Zodiac is never forced to break it.

        ZO-E13: with physical hands the controller cannot see whether the hand holds a sign, so any
        card the hand may hold is accepted (the table checks, as it would without the controller).
        """
        choices = self._hand_choices(self._position.current)
        if self.physical:
            return choices
        signs = [c for c in choices if is_sign(c)]
        if not signs:
            return choices
        if SUN in choices and not self.sun_targets():
            signs.append(SUN)  # a Sun with nothing to take
        return signs

    def _ends(self, base: list[Ending]) -> list[Action]:
        """Turn-ending actions, with their ZODIAC-call variants in table mode (ZO-E7) and, with
        physical hands, in referee mode where the call may be true (ZO-E15)."""
        t = self._position
        if t.mode != "table" and not self.physical:
            return list(base)
        out: list[Action] = []
        for action in base:
            out.append(action)
            called = replace(action, call=True)
            if t.mode == "table" or self._call_possible(called):
                out.append(called)
        return out

    def _call_possible(self, action: Action) -> bool:
        """ZO-E15: whether the cards after this turn-ending action may make a Zodiac."""
        return _zodiac_possible(turns.ending(self, action), self._position.current)

    def may_call(self) -> bool:
        """ZO-E15 (physical hands): the player on turn may end the turn with a true ZODIAC call, as
        far as the controller can tell from what was shown (so showing it reveals nothing)."""
        if not self.physical or self._position.phase not in (TURN, DRAWN):
            return False
        return any(calls_zodiac(a) and self._call_possible(a) for a in self.legal_actions())

    def legal_actions(self) -> tuple[Action, ...]:
        legal = self._legal  # read once: another thread may make the state forget it (forget_derived)
        if legal is None:
            legal = self._legal = tuple(self._compute_legal())
        return legal

    def _compute_legal(self) -> list[Action]:
        t = self._position
        if t.phase == OVER:
            return []
        me = t.current
        hand, up = t.hands[me], t.up[me]
        if t.phase == DEALER:
            return [Dealer(seat) for seat in range(t.players)]
        if t.phase == OPEN:
            return [Open(sign) for sign in SIGNS]
        if t.phase == PENALTY:
            assert t.penalty is not None
            off = t.penalty.offender
            loses: list[Action] = [Lose("up", c) for c in _distinct_signs(t.up[off])]
            loses.extend(Lose("hand", c) for c in self._hand_choices(off) if is_sign(c))
            if self.physical and not _distinct_signs(t.up[off]) and turns.may_lack_signs(self, off):
                loses.append(SPARE)  # ZO-E6: the chooser sees no sign in the cards shown
            return loses
        actions: list[Action] = []
        if t.phase == TURN:
            starts: list[Action] = []
            if t.deck:
                starts.append(DRAW)
            if self.can_take():
                starts.append(TAKE)
            actions.extend(starts)
            for area in self._areas(SUN):
                if self._can_play(SUN, area):
                    # Rule text: played from the player's own cards, a Sun is the whole turn (ZO-2).
                    actions.extend(self._ends([PlaySun(c, s, area=area) for c, s in self.sun_targets()]))
            for area in self._areas(MOON):
                actions.extend(self._ends([PlayMoon(area=area)]))
            if not actions:
                actions.extend(self._ends([Pass()]))  # ZO-E4: nothing possible, the turn passes
            if t.rearrange_before_draw:  # ZO-5 option: the English text allows it before drawing
                actions.extend(Up(c) for c in self._movable_up())
                actions.extend(Down(c) for c in self._movable_down())
            return actions
        # DRAWN
        fresh_area = "hand" if self.physical else None
        if t.fresh == SUN or (t.fresh == UNSEEN and self._unaccounted(SUN) > 0):
            # ZO-2: at once, the turn goes on. ZO-E13: an unseen card just drawn may be a Sun.
            actions.extend(PlaySun(c, s, area=fresh_area) for c, s in self.sun_targets())
        if t.fresh == MOON or (t.fresh == UNSEEN and self._unaccounted(MOON) > 0):
            actions.extend(self._ends([PlayMoon(area=fresh_area)]))  # ZO-3: at once, ends the turn
        actions.extend(Up(c) for c in self._movable_up())
        actions.extend(Down(c) for c in self._movable_down())
        referee = t.mode == "referee"
        discards: list[Ending] = []
        for card in self._discardable():
            rest = take_card(hand, card)
            if not referee or not over_limits(rest, up):
                discards.append(Discard(card))
        actions.extend(self._ends(discards))
        if not referee or not over_limits(hand, up):
            actions.extend(self._ends([Pass()]))
        return actions

    # --- turns, reasons, notation and views (turns.py, reasons.py, actions.py, views.py) -------
    def apply_legal(self, action: Action) -> ZodiacState:
        return turns.apply_legal(self, action)

    def why_illegal(self, action: Action) -> str:
        return reasons.why_illegal(self, action)

    def action_to_str(self, action: Action) -> str:
        return actions.action_to_str(self, action)

    def parse_action(self, text: str) -> Action:
        return actions.parse_action(self, text)

    def to_json(self) -> dict[str, Any]:
        return views.to_json(self)

    def observation(self, player: int) -> dict[str, Any]:
        return views.observation(self, player)

    def occupancy(self) -> Occupancy:
        return views.occupancy(self)

    def marks(self) -> dict[Cell, Mark]:
        return views.marks(self)

    def __repr__(self) -> str:
        return f"<ZodiacState turn={self._position.turns} player={self._position.current} phase={self._position.phase}>"
