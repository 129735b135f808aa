"""Building Zodiac positions for tests: name the cards that matter, the deck gets the rest."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from controller.games.rng import SeededRandom
from controller.games.zodiac import DECK_COUNTS, PENALTY, SIGNS, TURN, Position, Zodiac, ZodiacState

GAME = Zodiac()
ORDER = {card: i for i, card in enumerate((*SIGNS, "sun", "moon"))}


def position(
    hands: Sequence[Sequence[str]],
    up: Sequence[Sequence[str]] | None = None,
    discard: Sequence[str] = ("leo",),
    deck_top: Sequence[str] = (),
    deck_size: int | None = None,
    current: int = 0,
    phase: str = TURN,
    mode: str = "referee",
    **changes: Any,
) -> ZodiacState:
    """A position with these hands, face-up cards and discard pile (bottom to top).

    `deck_top` are the next cards drawn, first one first; the rest of the 100 cards lie under them
    (or, with `deck_size`, only that many cards stay in the deck and the others go under the discard
    pile's bottom card, so that every card is still somewhere).
    """
    players = len(hands)
    up = up if up is not None else [()] * players
    named = Counter(c for h in hands for c in h) + Counter(c for u in up for c in u)
    named += Counter(discard) + Counter(deck_top)
    rest = Counter(DECK_COUNTS)
    rest.subtract(named)
    assert all(n >= 0 for n in rest.values()), f"too many copies named: {-rest}"
    others = sorted(rest.elements(), key=lambda c: ORDER[c])
    discard = tuple(discard)
    if deck_size is not None:
        keep = deck_size - len(deck_top)
        discard = (*others[keep:], *discard)
        others = others[:keep]
    deck = (*others, *reversed(deck_top))
    table = Position(
        players=players,
        mode=mode,
        rearrange_before_draw=changes.pop("rearrange_before_draw", False),
        max_turns=changes.pop("max_turns", 1000),
        rng=SeededRandom(0),
        deck=deck,
        discard=discard,
        hands=tuple(tuple(h) for h in hands),
        up=tuple(tuple(u) for u in up),
        current=current,
        phase=phase,
        dealer=(current - 1) % players,
        dealer_draws=(),
        skips=changes.pop("skips", (0,) * players),
        **changes,
    )
    return ZodiacState(GAME, table)


def play(state: ZodiacState, *moves: str) -> ZodiacState:
    for text in moves:
        state = state.apply(state.parse_action(text))
    return state


def legal(state: ZodiacState) -> set[str]:
    return set(state.legal_action_strings())


# A complete Zodiac split six and six, and the same minus one sign.
HIDDEN_SIX = ("ari", "tau", "gem", "can", "leo", "vir")
SHOWN_SIX = ("lib", "sco", "sag", "cap", "aqu", "pis")


def scramble(state: ZodiacState, viewer: int, rng: random.Random) -> ZodiacState:
    """The same position with every card `viewer` cannot see dealt anew (deck order, other hands)."""
    data = state.to_json()
    t = state.position
    keep: dict[int, list[str]] = {}
    for seat in range(state.players):
        if seat == viewer:
            continue
        if state.phase == PENALTY and viewer == t.current and seat == t.penalty.offender:
            continue  # ZO-E6: shown to the chooser
        known = list(t.moved_down) if seat == t.current else []
        if seat == t.current and t.fresh:
            known.append(t.fresh)
        keep[seat] = known
    pool = list(t.deck)
    for seat, known in keep.items():
        rest = list(t.hands[seat])
        for card in known:
            rest.remove(card)
        pool += rest
    rng.shuffle(pool)
    for seat, known in keep.items():
        size = len(t.hands[seat]) - len(known)
        data["hands"][seat] = [*known, *pool[:size]]
        pool = pool[size:]
    data["deck"] = pool
    data["rng"] = {"seed": rng.randrange(10**6), "draws": 0}
    return GAME.state_from_json(data)


def physical_position(
    hands: Sequence[Sequence[str]],
    up: Sequence[Sequence[str]] | None = None,
    discard: Sequence[str] = ("leo",),
    deck_size: int | None = None,
    current: int = 0,
    phase: str = TURN,
    mode: str = "referee",
    **changes: Any,
) -> ZodiacState:
    """A position at a physical table: hands hold known cards and unseen ones ('?'); the deck is
    unseen and, unless `deck_size` says otherwise, makes the 100 cards complete."""
    players = len(hands)
    up = up if up is not None else [()] * players
    named = sum(len(h) for h in hands) + sum(len(u) for u in up) + len(discard)
    deck = ("?",) * (sum(DECK_COUNTS.values()) - named if deck_size is None else deck_size)
    table = Position(
        players=players,
        mode=mode,
        rearrange_before_draw=changes.pop("rearrange_before_draw", False),
        max_turns=changes.pop("max_turns", 1000),
        rng=SeededRandom(0),
        deck=deck,
        discard=tuple(discard),
        hands=tuple(tuple(h) for h in hands),
        up=tuple(tuple(u) for u in up),
        current=current,
        phase=phase,
        dealer=(current - 1) % players,
        dealer_draws=(),
        skips=changes.pop("skips", (0,) * players),
        hands_mode="physical",
        **changes,
    )
    return ZodiacState(GAME, table)


def drawn_sign_and_sun(seed: int = 1) -> tuple[ZodiacState, ZodiacState]:
    """Two two-player positions that player 0 cannot tell apart: player 1 has just drawn from the
    deck, a sign in the first and a Sun (playable at once) in the second."""
    rng = random.Random(seed)
    state = GAME.new_game(seed=seed, players=2)
    while True:
        data = state.to_json()
        if (
            state.phase == "drawn"
            and state.current_player == 1
            and not data["moved_down"]
            and data["fresh"] is None
            and "sun" in data["deck"]
            and data["hands"][1][-1] != "sun"
        ):
            break
        state = state.apply(rng.choice(state.legal_actions()))
    at = data["deck"].index("sun")
    data["deck"][at], data["hands"][1][-1] = data["hands"][1][-1], "sun"
    data["fresh"] = "sun"
    return state, GAME.state_from_json(data)
