"""Zillertal property tests over random games: legality, round trips, invariants, hidden information."""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import IllegalAction
from controller.games.zillertal import (
    BONUS_EXCHANGE,
    BONUS_TOKENS,
    DONE,
    HAND_SIZE,
    BonusCross,
    BonusGorge,
    BonusTask,
    Claim,
    End,
    Place,
    PlaceToken,
    SecondCross,
    SetAside,
    Swap,
    ZillertalState,
)
from controller.games.zillertal.cards import ICONS
from tests.games.zillertal_helpers import GAME, scramble

SETTINGS = settings(max_examples=25, deadline=None)
BONUS_KINDS = (
    "Claim",
    "BonusTokens",
    "BonusGorge",
    "BonusCross",
    "BonusTask",
    "BonusExchange",
    "PlaceToken",
    "Swap",
    "SecondCross",
    "Done",
)


def walk(seed: int, players: int, steps: int = 400):
    """A random game that prefers claims and bonuses, so that they happen often."""
    rng = random.Random(seed)
    state = GAME.new_game(players=players, seed=seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        keen = [a for a in actions if type(a).__name__ in BONUS_KINDS]
        action = rng.choice(keen if keen and rng.random() < 0.8 else actions)
        yield state, action
        state = state.apply(action)
    yield state, None


def with_bonuses(seed: int, players: int) -> ZillertalState:
    """A position where player 0 has earned a bonus (two contracts done before this turn)."""
    state = GAME.new_game(players=players, seed=seed)
    data = state.to_json()
    pile = data["piles"][0]
    data["completed"][0] = [pile.pop(), pile.pop()]
    data["start_completed"] = 2
    return GAME.state_from_json(data)


def candidates(state: ZillertalState):
    lines = list(range(-8, 12))
    ids = list(state.card_set.valley)[:4]
    contracts = [h.id for h in state.position.contracts[state.current_player]] + ["K1-01"]
    out = [BONUS_TOKENS, BONUS_EXCHANGE, DONE, End(), End((1,)), End((2, 3))]
    out += [Place(card, at) for card in ids for at in lines[::3]] + [SetAside(card) for card in ids]
    out += [Claim(c, icon) for c in contracts for icon in ICONS] + [BonusTask(c, "cow") for c in contracts]
    out += [PlaceToken(icon, c, blank) for icon in ICONS[:2] for c in lines[::4] for blank in (False, True)]
    out += [BonusGorge(c) for c in lines[::5]] + [BonusCross(c) for c in lines[::5]] + [SecondCross(1)]
    out += [Swap(c) for c in (*ids, *contracts)]
    return out


games = st.tuples(st.integers(0, 10**6), st.integers(1, 4))


@SETTINGS
@given(games)
def test_every_legal_action_applies_and_others_are_refused_with_a_reason(params):
    seed, players = params
    rng = random.Random(seed)
    for state, _ in walk(seed, players, 150):
        legal = set(state.legal_actions())
        assert legal or state.is_terminal()
        for action in state.legal_actions():
            state.apply(action)
        for action in rng.sample(candidates(state), 15):
            if action not in legal:
                try:
                    state.apply(action)
                except IllegalAction as error:
                    assert error.reason
                else:
                    raise AssertionError(f"{action} applied though not legal")


@SETTINGS
@given(games)
def test_bonus_positions_apply_and_refuse_correctly(params):
    seed, players = params
    state = with_bonuses(seed, players)
    rng = random.Random(seed)
    for _ in range(60):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        for action in rng.sample(candidates(state), 10):
            if action not in legal:
                try:
                    state.apply(action)
                except IllegalAction as error:
                    assert error.reason
                else:
                    raise AssertionError(f"{action} applied though not legal")
        keen = [a for a in legal if type(a).__name__ in BONUS_KINDS]
        state = state.apply(rng.choice(keen or legal))


@SETTINGS
@given(games)
def test_json_and_notation_round_trip_exactly(params):
    seed, players = params
    for state, action in walk(seed, players):
        data = json.loads(json.dumps(state.to_json()))
        again = GAME.state_from_json(data)
        assert again == state and again.legal_actions() == state.legal_actions()
        for legal in state.legal_actions():
            assert state.parse_action(state.action_to_str(legal)) == legal
        if action is not None:
            assert again.apply(action) == state.apply(action)


@SETTINGS
@given(games)
def test_invariants(params):
    seed, players = params
    card_set = GAME.new_game(players=players, seed=seed).card_set
    for state, _ in walk(seed, players):
        t = state.position
        valley_cards = Counter(
            [*t.deck, *t.unused, *t.set_aside, *(c for h in t.hands for c in h), *(p.card for p in t.placed)]
        )
        assert valley_cards == Counter(card_set.deck())
        contracts = Counter(
            [
                *(c for p in t.piles for c in p),
                *(h.id for hs in t.contracts for h in hs),
                *(c for cs in t.completed for c in cs),
            ]
        )
        assert contracts == Counter(list(card_set.contracts))
        assert all(len(h) <= HAND_SIZE for h in t.hands)
        valley = state.valley
        if t.placed:  # the Valley is one piece: every column is covered by a card
            assert all(valley.top_card(c) for c in valley.columns())
        for counts in valley.zone_counts().values():
            assert all(n >= 0 for n in counts)
        assert t.gorges_used <= 2 and len(t.crosses) <= 2
        assert all(state.points(p) == sum(card_set.contracts[c].points for c in t.completed[p]) for p in range(players))


@SETTINGS
@given(games)
def test_observation_never_shows_another_hand_the_deck_or_the_pile_order(params):
    seed, players = params
    rng = random.Random(seed + 1)
    for index, (state, _) in enumerate(walk(seed, players)):
        if index % 4:
            continue
        for viewer in range(players):
            seen = state.observation(viewer)
            json.dumps(seen)
            assert scramble(state, viewer, rng).observation(viewer) == seen
            assert seen["hand"] == list(state.position.hands[viewer])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([1, 2, 3, 4]), physical=st.booleans())
def test_a_valley_worked_out_from_the_last_one_is_the_valley_built_from_scratch(
    seed: int, players: int, physical: bool
) -> None:
    """A laid card extends the previous position's Valley view (`Valley.laid`): every question it
    answers is answered as by a view built from the position alone, through Gorges, Crosses and
    tokens covered by later cards."""
    from controller.games.zillertal.valley import ZERO, Valley

    rng = random.Random(seed)
    state = GAME.new_game(players=players, seed=seed, hands="physical" if physical else "dealt")
    laid = 0
    while not state.is_terminal():
        t = state._position
        valley = state.valley
        fresh = Valley(state._set.valley, t.placed, t.gorge, t.crosses, t.tokens)
        assert (valley.first, valley.last, valley.placed, valley.gorge) == (
            fresh.first,
            fresh.last,
            fresh.placed,
            fresh.gorge,
        )
        assert [valley.column_counts(c) for c in valley.columns()] == [fresh.column_counts(c) for c in fresh.columns()]
        assert [valley.height(line) for line in valley.lines()] == [fresh.height(line) for line in fresh.lines()]
        assert [valley.top_card(c) for c in valley.columns()] == [fresh.top_card(c) for c in fresh.columns()]
        assert valley.zone_counts() == fresh.zone_counts()
        for name, columns in valley.zones().items():  # ZT-3: a zone counts what its columns show
            by_column = [valley.column_counts(c) for c in columns]
            assert valley.zone_counts()[name] == (tuple(map(sum, zip(*by_column, strict=True))) if columns else ZERO)
        for card in state._set.valley.values():
            assert valley.placements(card) == fresh.placements(card)
        action = rng.choice(state.legal_actions())
        laid += isinstance(action, Place)
        state = state.apply(action)
    assert laid > 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_a_valley_worked_out_card_by_card_through_gorges_crosses_and_tokens_is_the_one_built_from_scratch(
    seed: int,
) -> None:
    """The Valley alone, with Gorges, Crosses and tokens far more often than games reach them: each
    card laid on the last view (`Valley.laid`, its questions asked before or not) answers as a view
    built from the cards, and each zone counts what its columns show (ZT-2, ZT-3, ZT-4)."""
    from controller.games.zillertal.valley import ICON_INDEX, ZERO, Placed, Token, Valley

    rng = random.Random(seed)
    cards = GAME.new_game(players=2, seed=seed).card_set.valley
    valley = Valley(cards, ())
    for _ in range(14):
        placed, gorge, crosses, tokens = valley.placed, valley.gorge, valley.crosses, valley.tokens
        step = rng.choice(["card", "card", "card", "gorge", "crosses", "token"]) if placed else "card"
        if step == "card":
            if rng.random() < 0.5:  # the view was asked before the card came: it carries its answers over
                valley.zone_counts()
                valley.placements(cards[rng.choice(list(cards))])
            card = rng.choice(list(cards))
            lines = valley.placements(cards[card])
            if not lines:
                continue
            at = rng.choice(lines)
            covered = gorge is not None and at <= gorge < at + cards[card].width
            valley = valley.laid(Placed(card, at), None if covered else gorge)
        elif step == "gorge":
            valley = Valley(cards, placed, rng.choice(list(valley.columns())), crosses, tokens)
        elif step == "crosses":
            pair = tuple(sorted(rng.sample(list(valley.lines()), 2))) if len(valley.lines()) > 1 else ()
            valley = Valley(cards, placed, gorge, pair, tokens)
        else:
            column = rng.choice(valley.visible_columns() or (valley.first,))
            icon = rng.choice(ICONS)
            blank = valley.column_counts(column)[ICON_INDEX[icon]] > 0 and rng.random() < 0.5
            valley = Valley(cards, placed, gorge, crosses, (*tokens, Token(icon, column, len(placed), blank)))
        fresh = Valley(cards, valley.placed, valley.gorge, valley.crosses, valley.tokens)
        assert (valley.first, valley.last) == (fresh.first, fresh.last)
        assert [valley.column_counts(c) for c in valley.columns()] == [fresh.column_counts(c) for c in fresh.columns()]
        assert [valley.height(line) for line in valley.lines()] == [fresh.height(line) for line in fresh.lines()]
        assert valley.zone_counts() == fresh.zone_counts()
        assert all(valley.placements(card) == fresh.placements(card) for card in cards.values())
        for name, columns in valley.zones().items():
            shown = [fresh.column_counts(c) for c in columns]
            assert valley.zone_counts()[name] == (tuple(map(sum, zip(*shown, strict=True))) if shown else ZERO)
