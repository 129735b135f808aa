"""Zodiac evaluation for the greedy bot, from what the mover may see only.

The greedy bot applies each action to the real state. For a draw from the deck that state holds the
card drawn, which the mover could not know when choosing, so a draw is scored by its expectation over
the cards the mover has not seen (deck and other hands together); every other action reveals nothing
and is scored from `after.observation(me)`.

A position is valued by the best way the mover can still end the current turn (rearranging freely
except for cards already moved, then discarding one card or passing): distinct signs count most,
duplicates clog the limits, a Sun is nearly a sign while another player shows a sign the holder
lacks (so giving up a sign another player shows can pay: the Sun takes it back next turn), and unique
signs shown face up can be stolen by a Sun.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from controller.bots.heuristics import Evaluator
from controller.games import Action, State
from controller.games.zodiac import (
    DECK_COUNTS,
    DRAWN,
    HAND_LIMIT,
    MOON,
    SIGN_SET,
    SUN,
    TOTAL_LIMIT,
    UP_LIMIT,
    Draw,
    Lose,
    PlayMoon,
    ZodiacState,
)

Cards = tuple[str, ...]

SIGN = 10.0  # each distinct sign held
DUPLICATE = -0.6  # each extra copy of a sign: it must be discarded before winning
SUN_VALUE = 7.0  # a Sun is nearly a sign while someone shows one the holder misses
SUN_IDLE = 2.0  # a Sun nobody can be robbed with yet
MOON_VALUE = 1.5  # a Black Moon sheds a card and costs the next player a turn
MOON_TEMPO = 2.0  # playing a Black Moon: the next player skips
EXPOSED = -0.8  # a unique sign face up can be taken by another player's Sun
SUN_UP = -1.0  # a Sun face up cannot be played while the hand is full (ZO-2, ZO-4)
MOVE = -0.01  # prefer fewer rearranging steps to the same end
WIN = 500.0  # the Zodiac can be completed by ending this turn well
OWED = -12.0  # each sign owed to a penalty (table mode)
SKIP = -6.0  # each turn the mover will skip


@dataclass
class Prepared:
    """The position before the mover acts, seen by the mover; the draw's expectation on demand."""

    me: int
    obs: dict[str, Any]
    _draw: float | None = field(default=None)


class ZodiacEvaluator(Evaluator):
    def finishes_turn(self, state: State) -> bool:
        # After the draw (or take) the turn's rest is the seat's own cards: `best_end` values every
        # rearrangement (each card once, ZO-5), discard (ZO-E2) and pass from there exactly.
        return isinstance(state, ZodiacState) and state.phase == DRAWN

    def prepare(self, state: State) -> Prepared:
        me = state.current_player
        return Prepared(me, state.observation(me))

    def score(self, prepared: Any, action: Action, after: State, me: int) -> float:
        assert isinstance(prepared, Prepared)
        if me != prepared.me:
            # Another seat did not choose this action: it stands as its own view of `after` shows.
            return position_value(after.observation(me))
        if isinstance(action, Draw):
            if prepared._draw is None:
                prepared._draw = expected_draw(prepared.obs)
            return prepared._draw
        if isinstance(action, Lose):
            return lose_score(prepared.obs, action)
        obs = after.observation(me)
        value = position_value(obs)
        if isinstance(action, PlayMoon):
            value += MOON_TEMPO
        return value


def position_value(obs: Mapping[str, Any]) -> float:
    """The mover's value of a position: the best end of the turn if it goes on, else the cards held."""
    me = obs["player"]
    hand, up = obs["hand"], obs["up"][me]
    shown = others_show(obs)
    if obs["current_player"] == me and obs["phase"] == "drawn":
        best = best_end(hand, up, obs["moved_up"], obs["moved_down"], shown)
        moves = len(obs["moved_up"]) + len(obs["moved_down"])
        return (best if best is not None else cards_value(hand, up, shown)) + MOVE * moves
    value = cards_value(hand, up, shown)
    penalty = obs.get("penalty")
    if penalty is not None and penalty["offender"] == me:
        value += OWED * penalty["owed"]
    skips: int = obs["skips"][me]
    return value + SKIP * skips


def others_show(obs: Mapping[str, Any]) -> frozenset[str]:
    """The signs the other players show face up: what a Sun could take (ZO-2)."""
    me = obs["player"]
    return frozenset(c for seat, cards_up in enumerate(obs["up"]) if seat != me for c in cards_up) & SIGN_SET


def cards_value(hand: Iterable[str], up: Iterable[str], shown: frozenset[str]) -> float:
    """The value of the cards as they lie (hand and face-up area)."""
    hand, up = list(hand), list(up)
    counts = Counter(hand) + Counter(up)
    up_counts = Counter(up)
    exposed = sum(1 for card, n in counts.items() if n == 1 and card in SIGN_SET and up_counts[card])
    return base_value(counts, shown) + EXPOSED * exposed + SUN_UP * up_counts[SUN]


def sun_worth(counts: Mapping[str, int], shown: frozenset[str]) -> float:
    """A Sun's worth to a player holding `counts`: high while another player shows a sign they lack."""
    return SUN_VALUE if any(counts.get(card, 0) <= 0 for card in shown) else SUN_IDLE


def base_value(counts: Counter[str], shown: frozenset[str]) -> float:
    signs = [card for card in counts if card in SIGN_SET and counts[card] > 0]
    duplicates = sum(counts[card] - 1 for card in signs)
    value = SIGN * len(signs) + DUPLICATE * duplicates
    value += sun_worth(counts, shown) * counts[SUN] + MOON_VALUE * counts[MOON]
    if len(signs) == len(SIGN_SET) and sum(counts.values()) == TOTAL_LIMIT:
        value += WIN
    return value


def best_end(
    hand: Sequence[str],
    up: Sequence[str],
    moved_up: Sequence[str],
    moved_down: Sequence[str],
    shown: frozenset[str],
) -> float | None:
    """The best value reachable by ending this turn: rearrange (moved cards stay), discard one or none.

    None when no end within the limits is reachable (the caller falls back to the cards as they lie).
    """
    return _best_end(_key(hand), _key(up), _key(moved_up), _key(moved_down), shown)


def _key(cards: Iterable[str]) -> Cards:
    return tuple(sorted(cards))


@lru_cache(maxsize=65536)
def _best_end(hand: Cards, up: Cards, moved_up: Cards, moved_down: Cards, shown: frozenset[str]) -> float | None:
    hand_c, up_c = _count(hand), _count(up)
    fixed_up = {c: min(n, up_c.get(c, 0)) for c, n in _count(moved_up).items()}
    fixed_down = {c: min(n, hand_c.get(c, 0)) for c, n in _count(moved_down).items()}
    counts = dict(hand_c)
    for card, n in up_c.items():
        counts[card] = counts.get(card, 0) + n
    best = _layout_value(counts, fixed_up, fixed_down, shown)
    # A discard comes from the hand: a card held there, or a face-up card not yet moved (moved down first).
    kinds = [c for c in counts if hand_c.get(c, 0) or up_c.get(c, 0) > fixed_up.get(c, 0)]
    signs = [c for c in kinds if c in SIGN_SET]
    for card in signs or kinds:  # ZO-E2: action cards are discarded only without a sign to discard
        rest = dict(counts)
        rest[card] -= 1
        down = fixed_down
        free_copies = hand_c.get(card, 0) - fixed_down.get(card, 0)
        free_copies += up_c.get(card, 0) - fixed_up.get(card, 0)
        if free_copies <= 0:
            down = dict(fixed_down)  # only a copy moved down can go: it leaves the moved cards
            down[card] -= 1
        value = _layout_value(rest, fixed_up, down, shown)
        if value is not None and (best is None or value > best):
            best = value
    return best


def _count(cards: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts


def _layout_value(
    counts: Mapping[str, int],
    fixed_up: Mapping[str, int],
    fixed_down: Mapping[str, int],
    shown: frozenset[str],
) -> float | None:
    """The value of ending the turn holding `counts`, laid out as well as the moved cards allow."""
    total = sum(counts.values())
    n_down = sum(fixed_down.values())
    n_up = sum(fixed_up.values())
    hand_slots = HAND_LIMIT - n_down
    if total > TOTAL_LIMIT or hand_slots < 0 or n_up > UP_LIMIT:
        return None
    distinct = duplicates = exposed = free_uniques = 0
    for card, n in counts.items():
        if n <= 0 or card not in SIGN_SET:
            continue
        distinct += 1
        duplicates += n - 1
        if n == 1:
            if fixed_up.get(card, 0):
                exposed += 1
            elif not fixed_down.get(card, 0):
                free_uniques += 1
    suns = counts.get(SUN, 0)
    free_suns = suns - fixed_up.get(SUN, 0) - fixed_down.get(SUN, 0)
    # Hand slots go to Suns first (playable only from a hand with room), then to unique signs.
    suns_in_hand = min(free_suns, hand_slots)
    suns_up = suns - fixed_down.get(SUN, 0) - suns_in_hand
    exposed += max(0, free_uniques - (hand_slots - suns_in_hand))
    value = SIGN * distinct + DUPLICATE * duplicates + MOON_VALUE * counts.get(MOON, 0)
    value += sun_worth(counts, shown) * suns + EXPOSED * exposed + SUN_UP * suns_up
    if distinct == len(SIGN_SET) and total == TOTAL_LIMIT:
        value += WIN
    return value


def unseen(obs: Mapping[str, Any]) -> Counter[str]:
    """The cards the mover has not seen: the deck and the other hands, as a multiset."""
    seen = Counter(obs["hand"]) + Counter(obs["discard"])
    for shown in obs["up"]:
        seen += Counter(shown)
    return Counter(DECK_COUNTS) - seen


def expected_draw(obs: Mapping[str, Any]) -> float:
    """The expected best end of the turn after drawing a card the mover cannot know in advance."""
    me = obs["player"]
    hand, up = list(obs["hand"]), list(obs["up"][me])
    pool = unseen(obs)
    total = sum(pool.values())
    shown = others_show(obs)
    if total == 0:
        return cards_value(hand, up, shown)
    moved_up, moved_down = obs["moved_up"], obs["moved_down"]
    targets = sorted((SIGN_SET - set(hand) - set(up)) & shown)
    expected = 0.0
    for card, copies in pool.items():
        if copies <= 0:
            continue
        value = best_end([*hand, card], up, moved_up, moved_down, shown)
        if value is None:
            value = cards_value([*hand, card], up, shown)
        if card == SUN and targets:
            # Played at once, the Sun becomes the missing sign it takes (ZO-2).
            taken = best_end([*hand, targets[0]], up, moved_up, moved_down, shown)
            value = max(value, taken if taken is not None else value)
        elif card == MOON:
            value = max(value, cards_value(hand, up, shown) + MOON_TEMPO)
        expected += copies * value
    return expected / total


def lose_score(obs: Mapping[str, Any], action: Lose) -> float:
    """The chooser of a penalty takes the sign that hurts the offender most (ZO-E6: their cards are shown)."""
    penalty = obs["penalty"]
    offender = penalty["offender"]
    held = Counter(penalty.get("shown", [])) + Counter(obs["up"][offender])
    unique = held[action.card] == 1
    return (SIGN if unique else 0.0) + (0.1 if action.area == "up" else 0.0)
