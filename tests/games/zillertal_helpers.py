"""Building Zillertal positions for tests, with a small card set whose cards are easy to reason about."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from controller.games.rng import SeededRandom
from controller.games.zillertal import CONTRACT_VALUES, Held, Position, Zillertal, ZillertalState
from controller.games.zillertal.cards import CardSet, builtin_card_set, parse_card_set
from controller.games.zillertal.valley import Placed, Token

GAME = Zillertal()

# Test cards (4 columns each). Letters: B bird, C cow, P person, H house, T tree.
#   FLAT1  land 1-1-1-1-1   B1 | C1 | P1 | H1
#   FLAT2  land 2-2-2-2-2   T1 | T1 | T1 | T1
#   UP12   land 1-1-2-2-2   B2 | -  | C2 | -
#   DOWN21 land 2-2-1-1-1   H1 | H1 | -  | P3
#   PEAK   land 1-3-4-3-1   B1 | B1 | B1 | B1
TEST_SET_DATA: dict[str, Any] = {
    "format": 1,
    "name": "test cards",
    "deck": {"copies": 6, "in_use": {"1": 10, "2": 10, "3": 12, "4": 16}},
    "tokens": {"bird": 3, "cow": 3, "person": 3, "house": 3, "tree": 3, "blank": 2},
    "valley": [
        {"id": "FLAT1", "heights": [1, 1, 1, 1, 1], "columns": ["B1", "C1", "P1", "H1"]},
        {"id": "FLAT2", "heights": [2, 2, 2, 2, 2], "columns": ["T1", "T1", "T1", "T1"]},
        {"id": "UP12", "heights": [1, 1, 2, 2, 2], "columns": ["B2", "", "C2", ""]},
        {"id": "DOWN21", "heights": [2, 2, 1, 1, 1], "columns": ["H1", "H1", "", "P3"]},
        {"id": "PEAK", "heights": [1, 3, 4, 3, 1], "columns": ["B1", "B1", "B1", "B1"]},
    ],
    "contract": [
        {"id": "K1-1", "points": 1, "tasks": {"bird": 1, "cow": 1}},
        {"id": "K1-2", "points": 1, "tasks": {"bird": 2, "house": 2}},
        {"id": "K1-3", "points": 1, "tasks": {"tree": 4, "cow": 2}},
        {"id": "K1-4", "points": 1, "tasks": {"person": 3, "tree": 1}},
        {"id": "K1-5", "points": 1, "tasks": {"bird": 5, "house": 1}},
        {"id": "K1-6", "points": 1, "tasks": {"cow": 3, "person": 1}},
        {"id": "K1-7", "points": 1, "tasks": {"tree": 2, "bird": 3}},
        {"id": "K1-8", "points": 1, "tasks": {"house": 3, "cow": 4}},
        {"id": "K2-1", "points": 2, "tasks": {"bird": 1, "cow": 1, "person": 1}},
        {"id": "K2-2", "points": 2, "tasks": {"bird": 4, "tree": 4, "house": 2}},
        {"id": "K2-3", "points": 2, "tasks": {"cow": 2, "person": 2, "house": 2}},
        {"id": "K2-4", "points": 2, "tasks": {"tree": 8, "bird": 6, "cow": 5}},
        {"id": "K2-5", "points": 2, "tasks": {"person": 4, "house": 4, "tree": 3}},
        {"id": "K2-6", "points": 2, "tasks": {"bird": 7, "cow": 6, "person": 5}},
        {"id": "K2-7", "points": 2, "tasks": {"house": 5, "tree": 5, "bird": 8}},
        {"id": "K2-8", "points": 2, "tasks": {"cow": 7, "person": 6, "house": 6}},
        {"id": "K3-1", "points": 3, "tasks": {"bird": 1, "cow": 1, "person": 1, "house": 1}},
        {"id": "K3-2", "points": 3, "tasks": {"bird": 9, "cow": 9, "person": 9, "house": 9}},
        {"id": "K3-3", "points": 3, "tasks": {"tree": 9, "cow": 8, "person": 8, "house": 8}},
        {"id": "K3-4", "points": 3, "tasks": {"bird": 10, "tree": 10, "person": 7, "house": 7}},
        {"id": "K3-5", "points": 3, "tasks": {"cow": 10, "tree": 6, "bird": 11, "person": 10}},
        {"id": "K3-6", "points": 3, "tasks": {"house": 10, "bird": 12, "cow": 11, "tree": 7}},
        {"id": "K3-7", "points": 3, "tasks": {"person": 11, "house": 11, "tree": 11, "cow": 12}},
        {"id": "K3-8", "points": 3, "tasks": {"bird": 13, "cow": 13, "person": 12, "house": 12}},
    ],
}
TEST_SET: CardSet = parse_card_set(TEST_SET_DATA, "test cards")


def position(
    hands: Sequence[Sequence[str]],
    valley: Sequence[tuple[str, int]] = (),
    contracts: Sequence[Sequence[str | tuple[str, Sequence[str]]]] | None = None,
    completed: Sequence[Sequence[str]] | None = None,
    deck_top: Sequence[str] = (),
    deck_size: int | None = None,
    card_set: CardSet = TEST_SET,
    **changes: Any,
) -> ZillertalState:
    """A position: hands, Valley placements (card, line) in order, contracts (ids, or (id, claimed)).

    The deck holds `deck_top` (next cards first) over the rest of the Valley cards, or with
    `deck_size` only that many (the others are unused); the piles hold the contracts nobody holds.
    """
    players = len(hands)
    contracts = contracts if contracts is not None else [()] * players
    completed = completed if completed is not None else [()] * players
    held = tuple(tuple(Held(c) if isinstance(c, str) else Held(c[0], tuple(c[1])) for c in seat) for seat in contracts)
    rest = Counter(dict(card_set.copies))
    rest.subtract(Counter([*(c for h in hands for c in h), *(c for c, _ in valley), *deck_top]))
    assert all(n >= 0 for n in rest.values()), f"too many copies named: {-rest}"
    others = [c for c in card_set.valley for _ in range(rest[c])]
    unused: tuple[str, ...] = ()
    if deck_size is not None:
        keep = deck_size - len(deck_top)
        unused, others = tuple(others[keep:]), others[:keep]
    taken = {h.id for seat in held for h in seat} | {c for seat in completed for c in seat}
    piles = tuple(tuple(c for c in card_set.pile(v) if c not in taken) for v in CONTRACT_VALUES)
    table = Position(
        players=players,
        bonuses=changes.pop("bonuses", True),
        rng=SeededRandom(0),
        deck=(*others, *reversed(deck_top)),
        unused=unused,
        piles=changes.pop("piles", piles),
        hands=tuple(tuple(h) for h in hands),
        contracts=held,
        completed=tuple(tuple(c) for c in completed),
        placed=tuple(Placed(card, at) for card, at in valley),
        tokens=tuple(Token(*t) for t in changes.pop("tokens", ())),
        taken=changes.pop("taken", (0,) * players),
        **changes,
    )
    return ZillertalState(GAME, card_set, card_set is not builtin_card_set(), table)


def play(state: ZillertalState, *moves: str) -> ZillertalState:
    for text in moves:
        state = state.apply(state.parse_action(text))
    return state


def legal(state: ZillertalState) -> set[str]:
    return set(state.legal_action_strings())


def counts(state: ZillertalState, zone: str = "valley") -> dict[str, int]:
    totals = state.valley.zone_counts()[zone]
    return dict(zip(("bird", "cow", "person", "house", "tree"), totals, strict=True))


def scramble(state: ZillertalState, viewer: int, rng: random.Random) -> ZillertalState:
    """The same position with the cards `viewer` cannot see dealt anew (deck, unused, other hands, piles)."""
    data = state.to_json()
    t = state.position
    others = [seat for seat in range(state.players) if seat != viewer]
    pool = [*t.deck, *t.unused]
    received = list(t.received) if t.current != viewer else []
    for seat in others:
        rest = list(t.hands[seat])
        if seat == t.current:
            for card in received:
                if card in rest:
                    rest.remove(card)
        pool += rest
    rng.shuffle(pool)
    for seat in others:
        kept = [c for c in received if seat == t.current and c in t.hands[seat]]
        size = len(t.hands[seat]) - len(kept)
        data["hands"][seat] = [*kept, *pool[:size]]
        pool = pool[size:]
    data["deck"], data["unused"] = pool[: len(t.deck)], pool[len(t.deck) :]
    for index, pile in enumerate(data["piles"]):
        rng.shuffle(pile)
        data["piles"][index] = pile
    data["rng"] = {"seed": rng.randrange(10**6), "draws": 0}
    return GAME.state_from_json(data)


def physical(state: ZillertalState) -> ZillertalState:
    """The same position at a physical table: hands, deck and unused cards become unseen ('?')."""
    data = state.to_json()
    data["hands_mode"] = "physical"
    for key in ("deck", "unused"):
        data[key] = ["?"] * len(data[key])
    data["hands"] = [["?"] * len(hand) for hand in data["hands"]]
    data["received"] = ["?" if c in state.card_set.valley else c for c in data["received"]]
    return GAME.state_from_json(data)
