"""Zillertal: one test per rule sentence of shared/rules/seeds/zillertal.txt, per ruling ZT-1..ZT-8 and
per engine decision ZT-E1.. (docs/games/zillertal.md). The Valley cases use the small test card set
of zillertal_helpers (FLAT1: land 1-1-1-1-1, icons B1 | C1 | P1 | H1)."""

from collections import Counter

import pytest

from controller.games import IllegalAction, NotationError, load_game
from controller.games.zillertal import BonusGorge, BonusTask, Claim, End, Place, PlaceToken, SetAside
from controller.games.zillertal.cards import builtin_card_set
from tests.games.zillertal_helpers import GAME, TEST_SET, counts, legal, play, position

FLAT = [("FLAT1", 0)]
TWO_FLAT = [("FLAT1", 0), ("FLAT1", 4)]  # columns 0..7: B C P H B C P H


# --- set-up -----------------------------------------------------------------------------------------
def test_registered_for_1_to_4_players():
    assert load_game("zillertal").player_counts == (1, 2, 3, 4)


@pytest.mark.parametrize(("players", "in_use"), [(1, 18), (2, 18), (3, 27), (4, 36)])
def test_cards_in_use_by_player_count_the_rest_set_aside(players, in_use):
    state = GAME.new_game(players=players, seed=4)
    t = state.position
    assert len(t.deck) + sum(len(h) for h in t.hands) == in_use
    assert len(t.unused) == 36 - in_use
    assert Counter([*t.deck, *t.unused, *(c for h in t.hands for c in h)]) == Counter(builtin_card_set().deck())


def test_two_hand_cards_each_and_one_contract_from_each_pile():
    state = GAME.new_game(players=3, seed=1)
    assert [len(h) for h in state.position.hands] == [2, 2, 2]
    for seat in range(3):
        assert sorted(state.contract(h.id).points for h in state.position.contracts[seat]) == [1, 2, 3]
    assert [len(p) for p in state.position.piles] == [9, 9, 9]


def test_solo_deals_six_contracts_two_from_each_pile_twelve_points():
    state = GAME.new_game(players=1, seed=1)
    held = state.position.contracts[0]
    assert sorted(state.contract(h.id).points for h in held) == [1, 1, 2, 2, 3, 3]
    assert sum(state.contract(h.id).points for h in held) == 12


def test_ZT_E2_the_first_player_starts_the_valley_at_line_0():
    state = position([("FLAT1", "UP12"), ("FLAT2",)])
    assert legal(state) >= {"FLAT1@0", "UP12@0"} and not any(a.endswith("@4") for a in legal(state))
    with pytest.raises(IllegalAction, match="starts the Valley at line 0"):
        state.apply(Place("FLAT1", 3))


# --- placing (ZT-1, ZT-2) ---------------------------------------------------------------------------
def test_ZT_2_placement_to_the_right():
    state = position([("UP12",), ()], valley=FLAT)
    after = play(state, "UP12@4")
    assert after.valley.lines() == range(0, 9) and after.valley.height(8) == 2


def test_ZT_2_placement_to_the_left():
    state = position([("DOWN21",), ()], valley=FLAT)
    assert "DOWN21@-4" in legal(state)
    after = play(state, "DOWN21@-4")
    assert after.valley.first == -4 and after.valley.height(-4) == 2


def test_ZT_2_placement_on_top_overlapping_any_amount():
    state = position([("FLAT1", "PEAK"), ()], valley=TWO_FLAT)
    assert {"FLAT1@1", "FLAT1@2", "FLAT1@3", "PEAK@2", "PEAK@4"} <= legal(state)
    after = play(state, "PEAK@2")
    assert after.valley.height(4) == 4 and after.valley.top_card(3).card == "PEAK"


def test_ZT_2_land_line_must_meet_at_both_edges():
    state = position([("FLAT2", "UP12"), ()], valley=TWO_FLAT)
    assert not any(a.startswith("FLAT2@") for a in legal(state))  # height 2 meets 1 nowhere
    with pytest.raises(IllegalAction, match="land line does not meet"):
        state.apply(Place("FLAT2", 8))
    # UP12 (land 1 ... 2) fits only where its right edge sticks out past the right end.
    assert {a for a in legal(state) if a.startswith("UP12@")} == {"UP12@5", "UP12@6", "UP12@7", "UP12@8"}


def test_ZT_2_a_gap_is_refused():
    state = position([("FLAT1",), ()], valley=FLAT)
    for at in (5, -5):
        with pytest.raises(IllegalAction, match="leaves a gap"):
            state.apply(Place("FLAT1", at))
    assert "FLAT1@4" in legal(state) and "FLAT1@-4" in legal(state)


def test_ZT_2_covered_icons_are_not_counted():
    before = position([("PEAK",), ()], valley=TWO_FLAT)
    assert counts(before) == {"bird": 2, "cow": 2, "person": 2, "house": 2, "tree": 0}
    peak = play(before, "PEAK@2")  # four birds over columns 2..5 (P H B C)
    assert counts(peak) == {"bird": 5, "cow": 1, "person": 1, "house": 1, "tree": 0}


def test_ZT_1_cards_are_four_units_wide_with_five_dotted_lines():
    for card in builtin_card_set().valley.values():
        assert card.width == 4 and len(card.heights) == 5 and all(0 <= h <= 4 for h in card.heights)


def test_you_must_play_a_card_each_turn_before_claiming_or_ending():
    state = position([("FLAT1", "FLAT1"), ()], valley=FLAT, contracts=[("K1-1",), ()])
    assert not any(a.startswith(("claim", "end")) for a in legal(state))
    with pytest.raises(IllegalAction, match="only after laying your card"):
        state.apply(Claim("K1-1", "bird"))
    with pytest.raises(IllegalAction, match="lay a card before ending"):
        state.apply(End())


def test_ZT_E1_a_hand_that_fits_nowhere_sets_one_card_aside_as_the_play():
    state = position([("FLAT2", "FLAT2"), ()], valley=FLAT, contracts=[("K1-1",), ()])
    assert legal(state) == {"aside FLAT2"}
    after = play(state, "aside FLAT2")
    assert after.position.set_aside == ("FLAT2",) and "claim K1-1 bird" in legal(after)
    with pytest.raises(IllegalAction, match="only when no hand card fits"):
        position([("FLAT1", "FLAT2"), ()], valley=FLAT).apply(SetAside("FLAT2"))


# --- claiming (ZT-7) ---------------------------------------------------------------------------------
def test_a_task_is_met_by_exactly_that_many_icons_visible():
    state = play(position([("FLAT1",), ()], valley=FLAT, contracts=[("K1-2", "K1-1"), ()]), "FLAT1@4")
    # Valley: bird 2, cow 2, house 2. K1-2 asks bird 2 and house 2; K1-1 asks bird 1 and cow 1.
    assert {a for a in legal(state) if a.startswith("claim")} == {"claim K1-2 bird", "claim K1-2 house"}
    with pytest.raises(IllegalAction, match="exactly 1 bird"):
        state.apply(Claim("K1-1", "bird"))


def test_several_tasks_of_one_contract_in_a_turn_complete_it_for_its_points():
    state = play(position([("FLAT1",), ()], valley=FLAT, contracts=[("K1-2", "K2-1"), ()]), "FLAT1@4")
    state = play(state, "claim K1-2 bird", "claim K1-2 house")
    assert state.points(0) == 1 and state.position.completed[0] == ("K1-2",)
    assert [h.id for h in state.position.contracts[0]] == ["K2-1"]


def test_ZT_7_only_one_contract_per_turn():
    state = play(position([("FLAT1",), ()], valley=[], contracts=[("K1-1", "K3-1"), ()]), "FLAT1@0")
    assert {"claim K1-1 bird", "claim K3-1 bird"} <= legal(state)
    state = play(state, "claim K3-1 bird")
    assert not any(a.startswith("claim K1-1") for a in legal(state))
    with pytest.raises(IllegalAction, match="one contract per turn"):
        state.apply(Claim("K1-1", "bird"))
    assert "claim K3-1 cow" in legal(state)


def test_ZT_7_claims_over_several_turns_and_they_stay_claimed():
    state = play(position([("FLAT1", "FLAT1"), ("FLAT1",)], contracts=[("K1-1",), ()]), "FLAT1@0", "claim K1-1 bird")
    state = play(state, "end", "FLAT1@4", "end")  # player 1 doubles every icon
    assert state.position.contracts[0][0].claimed == ("bird",)  # claimed for good, though 2 birds show now
    state = play(state, "FLAT1@-4")
    assert "claim K1-1 cow" not in legal(state)  # checked when claiming: 3 cows are not 1


def test_ZT_E7_completed_contracts_are_replaced_at_the_end_of_the_turn_from_a_chosen_pile():
    state = play(position([("FLAT1",), ()], valley=FLAT, contracts=[("K1-2",), ()]), "FLAT1@4")
    state = play(state, "claim K1-2 bird", "claim K1-2 house")
    assert {"end 1", "end 2", "end 3"} == {a for a in legal(state) if a.startswith("end")}
    after = play(state, "end 3")
    assert [state.contract(h.id).points for h in after.position.contracts[0]] == [3]


def test_a_claim_completing_a_contract_may_be_followed_by_no_other_contract_but_a_free_task():
    state = play(
        position(
            [("FLAT1",), ()],
            valley=FLAT,
            contracts=[("K1-2", "K2-1"), ()],
            completed=[("K1-3", "K1-4"), ()],
            start_completed=2,
        ),
        "FLAT1@4",
        "claim K1-2 bird",
        "claim K1-2 house",
    )
    assert not any(a.startswith("claim") for a in legal(state))
    assert "bonus task K2-1 person" in legal(state)
    after = play(state, "bonus task K2-1 person", "end 1")
    assert sorted(state.contract(h.id).points for h in after.position.contracts[0]) == [1, 2]


def test_draw_back_to_two_at_the_end_of_the_turn():
    state = play(position([("FLAT1", "UP12"), ("FLAT2",)], deck_top=("PEAK",)), "FLAT1@0", "end")
    assert sorted(state.position.hands[0]) == ["PEAK", "UP12"] and state.current_player == 1


def test_end_choices_follow_the_piles_left():
    state = play(
        position([("FLAT1",), ()], valley=FLAT, contracts=[("K1-2",), ()], piles=((), ("K2-1",), ())),
        "FLAT1@4",
        "claim K1-2 bird",
        "claim K1-2 house",
    )
    assert {a for a in legal(state) if a.startswith("end")} == {"end 2"}
    with pytest.raises(IllegalAction, match="pile value"):
        state.apply(End((1,)))


# --- the end ------------------------------------------------------------------------------------------
def test_with_the_deck_empty_players_play_out_their_hands_then_the_game_ends():
    state = position([("FLAT1", "FLAT1"), ("FLAT1",)], deck_size=0)
    state = play(state, "FLAT1@0", "end")
    assert state.current_player == 1 and state.position.hands[0] == ("FLAT1",)
    state = play(state, "FLAT1@4", "end")
    assert state.current_player == 0  # player 1 has no card left: passed over
    state = play(state, "FLAT1@8", "end")
    assert state.is_terminal()


def test_most_points_wins():
    state = position([("FLAT1",), ()], deck_size=0, completed=[("K2-1",), ("K1-1",)])
    over = play(state, "FLAT1@0", "end")
    assert over.is_terminal() and over.returns() == (1.0, 0.0)


def test_tie_goes_to_more_completed_tasks_on_uncompleted_contracts():
    state = position(
        [("FLAT1",), ()],
        deck_size=0,
        completed=[("K1-1",), ("K1-2",)],
        contracts=[(("K2-1", ["bird"]),), (("K2-2", ["bird", "tree"]),)],
    )
    over = play(state, "FLAT1@0", "end")
    assert over.returns() == (0.0, 1.0)


def test_ZT_E6_a_full_tie_is_shared_as_a_draw():
    state = position([("FLAT1",), (), ()], deck_size=0, completed=[("K1-1",), ("K1-2",), ()])
    assert play(state, "FLAT1@0", "end").returns() == (0.5, 0.5, 0.0)


# --- solo --------------------------------------------------------------------------------------------
def test_ZT_E8_solo_win_by_completing_every_contract():
    state = position([("FLAT1", "FLAT1")], contracts=[("K1-1",)], completed=[("K1-2", "K1-3", "K2-1", "K2-2", "K3-2")])
    won = play(state, "FLAT1@0", "claim K1-1 bird", "claim K1-1 cow")
    assert won.is_terminal() and won.returns() == (1.0,) and won.solo_won()


def test_solo_loss_when_the_cards_run_out():
    state = position([("FLAT1",)], contracts=[("K3-2",)], deck_size=0)
    lost = play(state, "FLAT1@0", "end")
    assert lost.is_terminal() and lost.returns() == (0.0,)


def test_solo_contracts_are_not_replaced():
    state = play(
        position([("FLAT1", "FLAT1")], contracts=[("K1-1", "K3-2")]),
        "FLAT1@0",
        "claim K1-1 bird",
        "claim K1-1 cow",
    )
    assert {a for a in legal(state) if a.startswith("end")} == {"end"}
    assert [h.id for h in play(state, "end").position.contracts[0]] == ["K3-2"]


def test_solo_bonus_after_the_third_contract():
    two = position([("FLAT1", "FLAT1")], contracts=[("K3-2",)], completed=[("K1-1", "K1-2")], start_completed=2)
    assert not two.bonus_entitled()
    three = position(
        [("FLAT1", "FLAT1")], contracts=[("K3-2",)], completed=[("K1-1", "K1-2", "K1-3")], start_completed=3
    )
    assert three.bonus_entitled()
    assert not position(
        [("FLAT1", "FLAT1")],
        contracts=[("K3-2",)],
        completed=[("K1-1", "K1-2", "K1-3")],
        start_completed=3,
        taken=(1,),
    ).bonus_entitled()


def test_solo_without_bonuses_option():
    state = position(
        [("FLAT1", "FLAT1")],
        contracts=[("K3-2",)],
        completed=[("K1-1", "K1-2", "K1-3")],
        start_completed=3,
        bonuses=False,
    )
    assert not state.bonus_entitled() and not any(a.startswith("bonus") for a in legal(state))
    assert GAME.new_game(players=1, bonuses=False).position.bonuses is False


# --- bonuses ------------------------------------------------------------------------------------------
def entitled(hands=(("FLAT1", "FLAT1"), ("FLAT1",)), valley=TWO_FLAT, **changes):
    """Player 0 has completed two contracts before this turn: one bonus earned."""
    changes.setdefault("contracts", [("K2-1", "K3-2"), ("K1-5",)])
    changes.setdefault("completed", [("K1-3", "K1-4"), ()])
    changes.setdefault("start_completed", 2)
    return position(list(hands), valley=valley, **changes)


def test_a_bonus_is_earned_after_the_second_contract_from_the_next_turn_on():
    state = play(
        position([("FLAT1",), ("FLAT1",)], valley=FLAT, contracts=[("K1-2",), ()], completed=[("K1-3",), ()]),
        "FLAT1@4",
        "claim K1-2 bird",
        "claim K1-2 house",
    )
    assert state.position.completed[0] == ("K1-3", "K1-2") and not state.bonus_entitled()  # not this turn
    assert entitled().bonus_entitled()


def test_a_second_bonus_after_the_fourth_contract():
    four = ("K1-3", "K1-4", "K1-7", "K1-8")
    assert entitled(completed=[four, ()], start_completed=4, taken=(1, 0)).bonus_entitled()
    assert not entitled(completed=[four[:3], ()], start_completed=3, taken=(1, 0)).bonus_entitled()
    assert not entitled(completed=[four, ()], start_completed=4, taken=(2, 0)).bonus_entitled()


def test_bonuses_may_be_used_at_any_point_of_the_turn():
    state = entitled()
    assert "bonus tokens" in legal(state)  # before laying the card
    assert "bonus tokens" in legal(play(state, "FLAT1@8"))  # and after it


def test_ZT_E5_bonus_three_tokens_adds_icons_blanks_cover_them():
    state = play(entitled(), "bonus tokens")
    assert state.position.pending == "tokens" and state.position.tokens_left == 3
    assert not any(a.startswith(("FLAT1@", "end")) for a in legal(state))
    state = play(state, "token tree@0", "token tree@5", "blank cow@1")
    assert state.position.pending is None
    assert counts(state) == {"bird": 2, "cow": 1, "person": 2, "house": 2, "tree": 2}
    assert state.observation(1)["token_supply"] == {
        "bird": 3,
        "cow": 3,
        "person": 3,
        "house": 3,
        "tree": 1,
        "blank": 1,
    }


def test_ZT_4_a_blank_covers_only_a_visible_icon():
    state = play(entitled(), "bonus tokens")
    assert "blank tree@0" not in legal(state) and "blank bird@0" in legal(state)
    with pytest.raises(IllegalAction, match="no visible tree"):
        state.apply(PlaceToken("tree", 0, blank=True))


def test_ZT_4_tokens_are_hidden_when_their_column_is_covered():
    state = entitled(tokens=[("tree", 6, 2, False), ("bird", 0, 2, True)])
    assert counts(state)["tree"] == 1 and counts(state)["bird"] == 1
    covered = play(state, "FLAT1@4")  # a card over columns 4..7 hides the tree token
    assert counts(covered)["tree"] == 0 and counts(covered)["bird"] == 1  # the blank on column 0 still covers


def test_bonus_complete_a_single_task_whatever_the_valley_shows():
    state = entitled()
    assert "bonus task K3-2 bird" in legal(state)  # K3-2 asks 9 birds; the Valley has 2
    after = play(state, "bonus task K3-2 bird")
    assert after.position.contracts[0][1].claimed == ("bird",) and after.position.claim_on is None


def test_ZT_E4_bonus_exchange_hand_cards_and_contracts():
    state = play(entitled(deck_top=("PEAK", "UP12")), "bonus exchange")
    assert {"swap FLAT1", "swap K2-1", "swap K3-2", "done"} <= legal(state)
    state = play(state, "swap FLAT1")
    assert sorted(state.position.hands[0]) == ["FLAT1", "PEAK"] and state.position.deck[0] == "FLAT1"  # old one under
    state = play(state, "swap K3-2")
    assert [state.contract(h.id).points for h in state.position.contracts[0]] == [2, 3]  # ZT-E4: same pile
    assert state.position.piles[2][0] == "K3-2"
    assert "swap PEAK" not in legal(state)  # cards received are not exchanged again
    state = play(state, "done")
    assert state.position.pending is None and "FLAT1@8" in legal(state)


def test_each_bonus_is_used_once_per_game():
    state = play(entitled(), "bonus task K3-2 bird")
    assert "task" in state.position.used
    again = entitled(used=("task",))
    assert not any(a.startswith("bonus task") for a in legal(again))
    with pytest.raises(IllegalAction, match="already been used"):
        again.apply(BonusTask("K3-2", "bird"))


def test_bonus_gorge_splits_the_valley_and_ends_whole_valley_scoring():
    state = play(entitled(), "bonus gorge@3")
    zones = state.valley.zone_counts()
    assert set(zones) == {"left", "right"}
    assert counts(state, "left") == {"bird": 1, "cow": 1, "person": 1, "house": 0, "tree": 0}
    assert counts(state, "right") == {"bird": 1, "cow": 1, "person": 1, "house": 1, "tree": 0}


def test_the_gorge_affects_every_player_and_its_land_line_need_not_match():
    state = play(entitled(), "bonus gorge@3", "FLAT1@8", "end")
    assert state.current_player == 1 and set(state.valley.zones()) == {"left", "right"}


def test_ZT_3_a_valley_card_over_the_gorge_removes_it_and_it_may_be_claimed_again():
    state = play(entitled(), "bonus gorge@3", "FLAT1@2")
    assert state.position.gorge is None and "valley" in state.valley.zones()
    assert state.position.gorges_used == 1
    again = entitled(gorges_used=1)
    assert "bonus gorge@3" in legal(again)


def test_the_gorge_is_used_twice_at_most_and_never_two_at_once():
    assert not any(a.startswith("bonus gorge") for a in legal(entitled(gorges_used=2)))
    with pytest.raises(IllegalAction, match="both Gorges"):
        entitled(gorges_used=2).apply(BonusGorge(3))
    assert not any(a.startswith("bonus gorge") for a in legal(entitled(gorge=5, gorges_used=1)))


def test_bonus_crosses_add_the_zone_between_them():
    state = play(entitled(), "bonus cross@1")
    assert state.position.pending == "cross" and legal(state) == {f"cross@{line}" for line in range(0, 9) if line != 1}
    state = play(state, "cross@6")
    assert state.position.crosses == (1, 6)
    assert counts(state, "crosses") == {"bird": 1, "cow": 2, "person": 1, "house": 1, "tree": 0}
    assert "valley" in state.valley.zones()  # a second option besides the whole Valley


def test_ZT_3_crosses_count_across_a_gorge():
    state = entitled(gorge=3, gorges_used=1, crosses=(1, 6))
    assert set(state.valley.zones()) == {"left", "right", "crosses"}
    assert counts(state, "crosses") == {"bird": 1, "cow": 2, "person": 1, "house": 0, "tree": 0}


def test_crosses_stay_until_the_game_ends():
    state = play(entitled(crosses=(1, 6), used=("crosses",)), "FLAT1@2", "end")
    assert state.position.crosses == (1, 6)


@pytest.mark.parametrize(
    ("zone", "valley", "extra", "claim"),
    [
        ("valley", FLAT, {}, "claim K1-1 bird"),
        ("left", TWO_FLAT, {"gorge": 4, "gorges_used": 1}, "claim K1-1 bird"),
        (
            "right",
            [("FLAT1", 0), ("FLAT1", 4), ("FLAT1", 8)],
            {"gorge": 7, "gorges_used": 1},
            "claim K1-1 cow",
        ),
        ("crosses", TWO_FLAT, {"crosses": (1, 3)}, "claim K1-1 cow"),
    ],
)
def test_ZT_3_a_task_can_be_claimed_in_each_zone(zone, valley, extra, claim):
    # K1-1 asks exactly 1 bird and 1 cow.
    state = position([("FLAT1",), ()], valley=valley, contracts=[("K1-1",), ()], played=True, **extra)
    if zone != "valley":
        assert zone in state.valley.zones()
    assert claim in legal(state)
    assert zone in state.valley.meets(claim.split()[-1], 1)


# --- notation and errors --------------------------------------------------------------------------------
def test_notation_round_trip_and_case_insensitive_ids():
    state = entitled()
    for text in (
        "FLAT1@-4",
        "aside FLAT1",
        "claim K2-1 bird",
        "bonus tokens",
        "token cow@3",
        "blank cow@3",
        "bonus task K2-1 cow",
        "bonus exchange",
        "swap K2-1",
        "done",
        "bonus gorge@3",
        "bonus cross@2",
        "cross@5",
        "end",
        "end 1,3",
    ):
        assert state.action_to_str(state.parse_action(text)) == text
    assert state.parse_action("flat1 @ -4") == Place("FLAT1", -4)
    assert state.parse_action("claim k2-1 B") == Claim("K2-1", "bird")
    assert state.parse_action("end 3, 1") == End((1, 3))


@pytest.mark.parametrize("text", ["", "FLAT9@0", "claim K2-1 dragon", "end 4", "bonus dance", "token cow", "V01"])
def test_bad_notation_is_a_notation_error(text):
    with pytest.raises(NotationError):
        entitled().parse_action(text)


def test_illegal_actions_say_why():
    state = entitled()
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply(Place("PEAK", 8))
    with pytest.raises(IllegalAction, match="not a Zillertal action"):
        state.apply("jump")
    with pytest.raises(IllegalAction, match="bonus that is not being used"):
        state.apply(PlaceToken("cow", 1))


def test_ZT_8_observation_shows_only_the_own_hand():
    state = position([("FLAT1", "PEAK"), ("UP12", "DOWN21")], valley=FLAT)
    seen = state.observation(0)
    assert seen["hand"] == ["FLAT1", "PEAK"] and seen["hands"][1] == {"count": 2}
    assert seen["deck"] == {"count": len(state.position.deck)} and "UP12" not in str(seen["hands"])


def test_cells_are_the_valley_lines_and_marks_show_gorge_and_crosses():
    state = entitled(gorge=3, gorges_used=1, crosses=(1, 6))
    assert GAME.cells(state) == tuple((line, 0) for line in range(0, 9))
    assert GAME.parse_cell(GAME.format_cell((-4, 0))) == (-4, 0)
    marks = state.marks()
    assert marks[(3, 0)].kind == "gorge" and marks[(1, 0)].kind == "cross"
    assert state.occupancy() == {}


def test_test_card_set_is_the_one_in_use():
    assert entitled().card_set is TEST_SET


def test_ZT_E3_a_player_owed_two_bonuses_may_use_both_in_one_turn():
    four = ("K1-3", "K1-4", "K1-7", "K1-8")
    state = play(entitled(completed=[four, ()], start_completed=4), "bonus task K3-2 bird", "bonus gorge@3")
    assert state.position.taken[0] == 2 and state.position.gorge == 3 and not state.bonus_entitled()


def test_ZT_E5_the_second_cross_follows_at_once():
    state = play(entitled(), "bonus cross@2")
    assert all(a.startswith("cross@") for a in legal(state))
    with pytest.raises(IllegalAction, match="second Cross first"):
        state.apply(Place("FLAT1", 8))


def test_ZT_E9_the_gorge_may_go_over_any_column_even_at_an_end():
    state = entitled()
    assert {f"bonus gorge@{c}" for c in range(0, 8)} <= legal(state)
    at_end = play(state, "bonus gorge@0")
    assert at_end.valley.zones()["left"] == () and len(at_end.valley.zones()["right"]) == 7


def test_a_successor_that_leaves_the_valley_as_it_was_shares_its_view() -> None:
    """The Valley's view is worked out once per Valley, not once per state: an action that lays no
    card, token, Gorge or Cross (ending the turn) hands it on; laying a card makes a new one."""
    state = GAME.new_game(players=2, seed=3)
    placed = state.apply(next(a for a in state.legal_actions() if isinstance(a, Place)))
    view = placed.valley
    ended = placed.apply(next(a for a in placed.legal_actions() if isinstance(a, End)))
    assert ended.valley is view
    assert ended.apply(next(a for a in ended.legal_actions() if isinstance(a, Place))).valley is not view
