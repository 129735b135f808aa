"""Zillertal with physical hands (option hands="physical", docs/games/zillertal.md "At the table"): one
test per decision ZT-E10 .. ZT-E12, and property tests over random physical games."""

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import IllegalAction
from controller.games.cards import UNSEEN
from controller.games.zillertal import DEAL, DRAW, EXCHANGE, REDRAW, NewContract, Place, SetAside
from tests.games.zillertal_helpers import GAME, TEST_SET, legal, physical, play, position

SETTINGS = settings(max_examples=15, deadline=None)
FLAT = [("FLAT1", 0)]


def reason(state, text: str) -> str:
    with pytest.raises(IllegalAction) as error:
        state.apply(state.parse_action(text))
    return error.value.reason


def at_table(hands=(("FLAT1", "FLAT2"), ("FLAT1", "FLAT1")), valley=FLAT, **changes):
    changes.setdefault("contracts", [("K1-1",), ("K1-2",)])
    return physical(position(list(hands), valley=valley, **changes))


# --- ZT-E10: unseen hands ------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "deck"), [(1, 16), (2, 14), (3, 21), (4, 28)])
def test_ZT_E10_the_table_deals_and_the_controller_counts(players, deck):
    state = GAME.new_game(players=players, seed=5, hands="physical")
    t = state.position
    assert state.physical and t.hands == ((UNSEEN, UNSEEN),) * players
    assert len(t.deck) == deck and set(t.deck) == {UNSEEN}
    assert len(t.deck) + len(t.unused) + 2 * players == 36


def test_ZT_E10_any_card_with_a_copy_left_may_be_laid_where_it_fits():
    state = at_table()
    assert state.playable_cards() == ("FLAT1", "FLAT2", "UP12", "DOWN21", "PEAK")
    assert {"FLAT1@-4", "FLAT1@4", "PEAK@2", "UP12@4"} <= legal(state)
    after = play(state, "PEAK@2")
    assert after.position.hands[0] == (UNSEEN,) and after.position.placed[-1].card == "PEAK"
    assert "the land line does not meet" in reason(state, "UP12@-4")


def test_ZT_E10_a_card_whose_copies_are_all_laid_is_refused():
    state = at_table(hands=(("FLAT1", "FLAT2"), ("FLAT2",)), valley=[("PEAK", at) for at in range(0, 24, 4)])
    assert state.unaccounted("PEAK") == 0 and "PEAK" not in state.playable_cards()
    assert "all 6 copies of PEAK are already in the Valley or set aside" in reason(state, "PEAK@24")


def test_ZT_E1_at_a_physical_table_a_card_that_fits_nowhere_may_be_set_aside():
    state = at_table()
    assert "aside FLAT2" in legal(state) and "aside FLAT1" not in legal(state)
    assert "FLAT1 fits in the Valley (left edge on line -4, -3" in reason(state, "aside FLAT1")
    after = play(state, "aside FLAT2")
    assert after.position.set_aside == ("FLAT2",) and after.position.hands[0] == (UNSEEN,)
    assert "player 0 sets aside FLAT2, which fits nowhere in the Valley" in after.events


# --- ZT-E11: contracts are entered as they are drawn ------------------------------------------------
def test_ZT_E11_starting_contracts_are_entered_seat_by_seat():
    state = GAME.new_game(players=2, seed=1, hands="physical")
    assert state.pending == DEAL and state.to_draw == (1, 2, 3) and state.current_player == 0
    assert all(a.contract.startswith("K") for a in state.legal_actions())
    state = play(state, "contract K2-05", "contract K1-01")
    assert state.to_draw == (3,) and "worth 2: the contract now comes from pile 3" in reason(state, "contract K2-06")
    state = play(state, "contract K3-12")
    assert state.current_player == 1 and state.to_draw == (1, 2, 3)
    assert "already player 0's contract" in reason(state, "contract K1-01")
    state = play(state, "contract K1-02", "contract K2-01", "contract K3-01")
    assert state.pending is None and state.current_player == 0 and state.turns == 0
    assert [h.id for h in state.position.contracts[0]] == ["K2-05", "K1-01", "K3-12"]
    assert len(state.position.piles[0]) == 10


def test_ZT_E11_solo_enters_two_contracts_from_each_pile():
    state = GAME.new_game(players=1, hands="physical")
    assert state.to_draw == (1, 1, 2, 2, 3, 3)


def test_ZT_E11_laying_waits_for_the_contracts():
    state = GAME.new_game(players=2, hands="physical")
    assert "first enter the contract dealt to player 0 from pile 1 or 2 or 3" in reason(state, "V01@0")
    assert "entered only when one is dealt or drawn" in at_table().why_illegal(NewContract("K1-3"))


def test_ZT_E11_the_end_of_a_turn_waits_for_the_contracts_drawn():
    state = at_table(contracts=[(("K1-1", ("bird",)),), ("K1-2",)])
    state = play(state, "PEAK@4", "claim K1-1 cow")  # completes K1-1
    assert state.position.completed[0] == ("K1-1",)
    state = play(state, "end 2")
    assert state.pending == DRAW and state.to_draw == (2,) and state.current_player == 0
    assert state.position.hands[0] == (UNSEEN, UNSEEN)  # the hand is drawn back to two at once
    state = play(state, "contract K2-3")
    assert state.pending is None and state.current_player == 1
    assert [h.id for h in state.position.contracts[0]] == ["K2-3"]


def test_ZT_E12_an_exchanged_contract_is_replaced_by_the_one_drawn_and_hand_cards_by_unseen_ones():
    state = at_table(
        hands=(("FLAT1", "FLAT1"), ("FLAT1",)),
        contracts=[("K2-1", "K3-2"), ("K1-5",)],
        completed=[("K1-3", "K1-4"), ()],
        start_completed=2,
    )
    state = play(state, "bonus exchange", "swap K3-2")
    assert state.pending == REDRAW and state.to_draw == (3,)
    assert "K3-2 was just exchanged" in reason(state, "contract K3-2")
    state = play(state, "contract K3-5")
    assert state.pending == EXCHANGE and [h.id for h in state.position.contracts[0]] == ["K2-1", "K3-5"]
    assert "swap K3-5" not in legal(state)  # cards received are not exchanged again
    state = play(state, "swap FLAT1", "swap PEAK")  # any card the hand may hold, one per unseen card
    assert state.position.hands[0] == (UNSEEN, UNSEEN) and state.position.deck[:2] == (UNSEEN, UNSEEN)
    assert not any(text.startswith("swap") and not text.startswith("swap K") for text in legal(state))
    assert "both hand cards have been exchanged already" in reason(state, "swap FLAT1")
    assert play(state, "done").pending is None


# --- take-back ------------------------------------------------------------------------------------
def test_chance_count_grows_with_draws_only():
    state = at_table(contracts=[(("K1-1", ("bird",)),), ("K1-2",)])
    laid = play(state, "PEAK@4", "claim K1-1 cow")
    assert laid.chance_count() == 0
    ended = play(laid, "end 2")
    assert ended.chance_count() == 1 and play(ended, "contract K2-3").chance_count() == 1
    assert play(GAME.new_game(players=2, hands="physical"), "contract K1-01").chance_count() == 0


# --- round trips and invariants over random physical games ----------------------------------------
def walk(seed: int, players: int, steps: int):
    rng = random.Random(seed)
    state = GAME.new_game(players=players, seed=seed, hands="physical")
    for _ in range(steps):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        yield state, action
        state = state.apply(action)
    yield state, None


@SETTINGS
@given(st.tuples(st.integers(0, 10**6), st.integers(1, 4)))
def test_physical_games_apply_every_legal_action_and_round_trip(params):
    seed, players = params
    copies = dict(GAME.new_game(players=players).card_set.copies)
    for state, _ in walk(seed, players, 400):
        again = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
        assert again == state and again.legal_actions() == state.legal_actions()
        for action in state.legal_actions():
            assert state.parse_action(state.action_to_str(action)) == action
            state.apply(action)
        t = state.position
        known = Counter([*t.set_aside, *(p.card for p in t.placed)])
        assert all(known[card] <= copies[card] for card in known)
        assert set(t.deck) | set(t.unused) | {c for h in t.hands for c in h} <= {UNSEEN}
        assert len(t.deck) + len(t.unused) + sum(map(len, t.hands)) + sum(known.values()) == 36
    assert state.is_terminal()


def test_physical_state_from_json_names_what_is_wrong():
    data = at_table().to_json()
    with pytest.raises(ValueError, match="too many 1x FLAT1"):
        GAME.state_from_json(dict(data, set_aside=["FLAT1"] * 6))
    with pytest.raises(ValueError, match="29 cards in all"):
        GAME.state_from_json(dict(data, deck=data["deck"][1:]))
    with pytest.raises(ValueError, match="exactly while one is being entered"):
        GAME.state_from_json(dict(data, to_draw=[2]))
    with pytest.raises(ValueError, match="hands_mode"):
        GAME.state_from_json(dict(data, hands_mode="magic"))


def test_set_aside_and_place_keep_their_notation():
    state = at_table()
    assert state.parse_action("aside FLAT2") == SetAside("FLAT2")
    assert state.parse_action("contract k1-3") == NewContract("K1-3")
    assert state.action_to_str(Place("PEAK", -2)) == "PEAK@-2"
    assert TEST_SET.copies["PEAK"] == 6
