"""Zodiac with physical hands (option hands="physical", docs/games/zodiac.md "At the table"): one test
per decision ZO-E12 .. ZO-E15, and property tests over random physical games."""

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import IllegalAction
from controller.games.cards import UNSEEN
from controller.games.zodiac import DEALER, DECK_COUNTS, DRAWN, OPEN, OVER, PENALTY, SIGNS, TURN, PlayMoon, PlaySun
from tests.games.zodiac_helpers import GAME, SHOWN_SIX, legal, physical_position, play

SETTINGS = settings(max_examples=20, deadline=None)


def reason(state, text: str) -> str:
    with pytest.raises(IllegalAction) as error:
        state.apply(state.parse_action(text))
    return error.value.reason


# --- ZO-E12: the table deals --------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 5, 8])
def test_ZO_E12_physical_game_starts_with_the_dealer_and_the_first_discard(players):
    state = GAME.new_game(players=players, seed=3, hands="physical")
    assert state.physical and state.phase == DEALER and state.position.dealer_draws == ()
    assert legal(state) == {f"dealer {seat}" for seat in range(players)}
    assert all(hand == (UNSEEN,) * 6 for hand in state.position.hands)
    state = play(state, f"dealer {players - 1}")
    assert state.phase == OPEN and state.current_player == players - 1
    assert legal(state) == {f"open {sign}" for sign in SIGNS}
    state = play(state, "open leo")
    assert state.phase == TURN and state.current_player == 0  # the player left of the dealer starts
    assert state.position.discard == ("leo",)
    assert len(state.position.deck) == 100 - 6 * players - 1


def test_ZO_E12_the_first_discard_is_a_sign_ZO_1():
    state = play(GAME.new_game(players=3, hands="physical"), "dealer 1")
    assert "action cards turned up go back into the deck" in reason(state, "open sun")
    assert "name the dealer" in reason(GAME.new_game(players=3, hands="physical"), "draw")


# --- ZO-E13: what the controller knows -------------------------------------------------------------
def test_ZO_E13_a_card_becomes_known_when_shown_and_unseen_cards_stand_for_any():
    state = physical_position([("?",) * 6, ("?",) * 6], discard=("cap", "leo"))
    state = play(state, "take")
    assert Counter(state.position.hands[0]) == Counter({UNSEEN: 6, "leo": 1})
    # Any card the hand may hold can be moved face up: the known Leo first, otherwise an unseen card.
    state = play(state, "up leo", "up ari")
    assert state.position.up[0] == ("leo", "ari") and state.position.hands[0] == (UNSEEN,) * 5
    state = play(state, "discard moon")  # ZO-E13: the controller cannot see whether a sign is left
    assert state.position.hands[0] == (UNSEEN,) * 4 and state.position.discard[-1] == "moon"


def test_ZO_E13_a_card_whose_copies_were_all_seen_cannot_come_from_a_hand():
    up = [("pis",) * 6, ("pis",)]
    state = physical_position([("?",) * 6, ("?",) * 6], up=up, discard=("cap",), phase=DRAWN)
    assert "up pis" not in legal(state) and "discard pis" not in legal(state)
    assert "all 7 copies of Pisces have been seen elsewhere" in reason(state, "discard pis")


def test_ZO_E13_a_card_drawn_may_be_an_action_card_played_at_once():
    state = play(physical_position([("?",) * 6, ("?",) * 6], up=[(), ("ari",)]), "draw")
    assert state.position.fresh == UNSEEN and state.position.hands[0][-1] == UNSEEN
    assert {"moon", "sun ari@1"} <= legal(state)
    state = play(state, "moon")  # ZO-3: drawn and played at once, the turn ends
    assert state.current_player == 0 and state.skips == (0, 0)  # two players: the same player again
    assert state.position.hands[0] == (UNSEEN,) * 6


def test_ZO_E13_no_action_card_at_once_when_every_copy_was_seen():
    moons = ("moon",) * 8
    state = play(physical_position([("?",) * 6, ("?",) * 6], discard=("cap", *moons, "leo")), "draw")
    assert "moon" not in legal(state)
    assert "all 8 copies of Black Moon have been seen" in reason(state, "moon")


def test_ZO_E13_the_players_shuffle_an_empty_deck_and_its_cards_are_unseen_again():
    state = physical_position([("?",) * 6, ("?",) * 6], discard=("cap", "ari", "leo"), deck_size=1)
    state = play(state, "draw", "discard tau")
    assert state.position.deck == (UNSEEN, UNSEEN, UNSEEN) and state.position.discard == ("tau",)
    assert "the deck is empty: the discard pile is shuffled into a new deck" in state.events


# --- ZO-E14: where an action card comes from -----------------------------------------------------
def test_ZO_E14_an_action_card_face_up_is_played_with_faceup():
    state = physical_position([("?",) * 5, ("?",) * 6], up=[("sun",), ("ari",)])
    assert {"sun ari@1", "sun ari@1 faceup"} <= legal(state)
    after = play(state, "sun ari@1 faceup")
    assert after.position.up[0] == () and after.position.hands[0] == (*("?",) * 5, "ari")
    after = play(state, "sun ari@1")
    assert after.position.up[0] == ("sun",) and after.position.hands[0] == (*("?",) * 4, "ari")
    assert play(state, "sun ari@1 faceup").position.discard[-1] == "sun"


def test_ZO_E14_without_faceup_the_card_comes_from_the_hand():
    state = physical_position([("?",) * 6, ("?",) * 6], up=[("moon",), ()])
    assert state.parse_action("moon") == PlayMoon(area="hand")
    assert state.parse_action("moon faceup") == PlayMoon(area="up")
    assert "you show no Sun face up" in reason(state, "sun ari@1 faceup")
    assert "say where the Black Moon comes from" in state.why_illegal(PlayMoon())


def test_ZO_E14_with_dealt_hands_faceup_changes_nothing():
    state = GAME.new_game(players=3, seed=1)
    assert state.parse_action("sun leo@2 faceup") == PlaySun("leo", 2)


# --- ZO-E15: calling ZODIAC ----------------------------------------------------------------------
def zodiac_ready(mode: str = "referee", hand=("?",) * 6, up=SHOWN_SIX):
    return physical_position([hand, ("?",) * 6], up=[up, ()], discard=("cap", "leo"), phase=DRAWN, mode=mode)


def test_ZO_E15_the_referee_cannot_see_a_physical_zodiac_so_the_player_calls_it():
    state = zodiac_ready()
    assert "pass zodiac" in legal(state) and state.may_call()
    assert state.marks()[(0, 0)].kind == "call" and state.marks()[(0, 0)].colour == "white"
    after = play(state, "pass")
    assert after.phase == TURN and after.winner is None  # not called, not won
    won = play(state, "pass zodiac")
    assert won.phase == OVER and won.winner == 0 and won.returns() == (1.0, 0.0)
    assert "player 0 calls ZODIAC, shows their hand and wins" in won.events


def test_ZO_E15_a_call_the_shown_cards_rule_out_is_refused_by_the_referee():
    state = zodiac_ready(up=(*SHOWN_SIX[:5], "sun"))
    assert not state.may_call() and "pass zodiac" not in legal(state)
    assert "a Zodiac holds no action cards" in reason(state, "pass zodiac")
    state = zodiac_ready(hand=("?",) * 5 + ("lib",))
    assert "each sign once" in reason(state, "pass zodiac")
    gone = physical_position([("?",) * 6, ("?",) * 6], up=[SHOWN_SIX, ("ari",) * 6], discard=("ari",), phase=DRAWN)
    assert "every copy of Aries has been seen elsewhere" in reason(gone, "pass zodiac")


def test_ZO_E15_in_table_mode_a_provably_false_call_costs_two_signs():
    state = zodiac_ready(mode="table", up=(*SHOWN_SIX[:5], "sun"))
    after = play(state, "pass zodiac")
    assert after.phase == PENALTY and after.position.penalty.owed == 2 and after.current_player == 1
    assert "lose up lib" in legal(after) and "lose hand ari" in legal(after)


def test_ZO_E15_a_true_looking_call_in_table_mode_wins():
    assert play(zodiac_ready(mode="table"), "pass zodiac").winner == 0


def test_ZO_E6_physical_offender_without_signs_loses_nothing_more():
    # The offender's unseen cards may all be action cards: the chooser may say so.
    state = physical_position([("?", "moon"), ("?",) * 6], up=[("sun",), ()], phase=DRAWN, mode="table")
    after = play(state, "pass zodiac")
    assert after.phase == PENALTY and "lose nothing" in legal(after)
    done = play(after, "lose nothing")
    assert done.phase == TURN and done.current_player == 1 and not done.position.locked
    assert "player 0 shows no sign: nothing more is lost" in done.events
    known = physical_position([("leo", "moon"), ("?",) * 6], phase=DRAWN, mode="table")
    assert "lose nothing" not in legal(play(known, "pass zodiac"))


# --- take-back ---------------------------------------------------------------------------------------
def test_chance_count_grows_with_draws_reshuffles_and_hands_shown_only():
    state = physical_position([("?",) * 6, ("?",) * 6], discard=("cap", "leo"))
    assert state.chance_count() == 0
    assert play(state, "take", "up leo", "pass").chance_count() == 0
    assert play(state, "draw").chance_count() == 1
    dealt = GAME.new_game(players=3, seed=4)
    assert play(dealt, "draw").chance_count() == 1


# --- round trips and invariants over random physical games ----------------------------------------
def walk(seed: int, players: int, mode: str, steps: int):
    rng = random.Random(seed)
    state = GAME.new_game(players=players, seed=seed, mode=mode, hands="physical")
    for _ in range(steps):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        yield state, action
        state = state.apply(action)
    yield state, None


games = st.tuples(st.integers(0, 10**6), st.integers(2, 8), st.sampled_from(["referee", "table"]))


@SETTINGS
@given(games)
def test_physical_games_apply_every_legal_action_and_round_trip(params):
    seed, players, mode = params
    for state, _action in walk(seed, players, mode, 150):
        again = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
        assert again == state and again.legal_actions() == state.legal_actions()
        for legal_action in state.legal_actions():
            assert state.parse_action(state.action_to_str(legal_action)) == legal_action
            state.apply(legal_action)
        t = state.position
        everything = [*t.deck, *t.discard, *(c for h in t.hands for c in h), *(c for u in t.up for c in u)]
        counts = Counter(everything)
        assert len(everything) == 100 and UNSEEN not in (*t.discard, *(c for u in t.up for c in u))
        assert all(counts[card] <= DECK_COUNTS[card] for card in DECK_COUNTS)
        assert set(t.deck) <= {UNSEEN}


def test_physical_state_from_json_names_what_is_wrong():
    data = play(GAME.new_game(players=3, hands="physical"), "dealer 0", "open leo").to_json()
    with pytest.raises(ValueError, match="too many 6x leo"):
        GAME.state_from_json(dict(data, hands=[["leo"] * 6, ["leo"] * 6, ["?"] * 6]))
    with pytest.raises(ValueError, match="99 cards in all"):
        GAME.state_from_json(dict(data, deck=data["deck"][1:]))
    with pytest.raises(ValueError, match="cannot hold unseen cards"):
        GAME.state_from_json(dict(data, discard=["?"], deck=[*data["deck"][1:], "leo"]))
    with pytest.raises(ValueError, match="hands must be 'dealt' or 'physical'"):
        GAME.state_from_json(dict(data, hands_mode="magic"))
    with pytest.raises(ValueError, match="unknown card"):
        GAME.state_from_json(dict(data, hands_mode="dealt"))
