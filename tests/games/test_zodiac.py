"""Zodiac: one test per rule sentence of shared/rules/seeds/zodiac.txt, per ruling ZO-1..ZO-6 and per
engine decision ZO-E1.. (docs/games/zodiac.md)."""

from collections import Counter

import pytest

from controller.games import IllegalAction, NotationError, load_game
from controller.games.zodiac import (
    DECK_COUNTS,
    DRAWN,
    OVER,
    PENALTY,
    SIGNS,
    TURN,
    Discard,
    Draw,
    Pass,
    PlayMoon,
    PlaySun,
    Up,
    over_limits,
)
from tests.games.zodiac_helpers import GAME, HIDDEN_SIX, SHOWN_SIX, legal, play, position


def all_cards(state):
    t = state.position
    return Counter([*t.deck, *t.discard, *(c for h in t.hands for c in h), *(c for u in t.up for c in u)])


# --- set-up ---------------------------------------------------------------------------------------
def test_registered_for_2_to_8_players():
    assert load_game("zodiac") is not None
    assert GAME.player_counts == (2, 3, 4, 5, 6, 7, 8)
    with pytest.raises(ValueError, match="not 9"):
        GAME.new_game(players=9)


def test_deck_is_100_cards_seven_of_each_sign_eight_suns_eight_moons():
    assert sum(DECK_COUNTS.values()) == 100
    assert all(DECK_COUNTS[sign] == 7 for sign in SIGNS) and len(SIGNS) == 12
    assert DECK_COUNTS["sun"] == 8 and DECK_COUNTS["moon"] == 8
    assert all_cards(GAME.new_game(players=5, seed=3)) == Counter(DECK_COUNTS)


@pytest.mark.parametrize("seed", range(8))
def test_ZO_E1_first_player_to_draw_an_action_card_deals(seed):
    state = GAME.new_game(players=4, seed=seed)
    draws = state.position.dealer_draws
    assert [seat for seat, _ in draws] == [i % 4 for i in range(len(draws))]  # round the table from seat 0
    assert draws[-1][1] in ("sun", "moon")
    assert all(card in SIGNS for _, card in draws[:-1])
    assert state.position.dealer == draws[-1][0]


@pytest.mark.parametrize("players", [2, 5, 8])
def test_dealer_deals_six_each_and_the_player_left_of_the_dealer_starts(players):
    state = GAME.new_game(players=players, seed=11)
    assert [len(h) for h in state.position.hands] == [6] * players
    assert state.position.up == ((),) * players
    assert state.current_player == (state.position.dealer + 1) % players
    assert state.phase == TURN


def test_first_card_turned_up_starts_the_discard_pile_and_is_a_sign():
    for seed in range(20):
        state = GAME.new_game(players=3, seed=seed)
        assert len(state.position.discard) == 1 and state.position.discard[0] in SIGNS


def test_ZO_1_action_cards_turned_up_at_the_start_go_back_into_the_reshuffled_deck():
    # A third shuffle happens exactly when action cards were turned up before the first sign.
    seed = next(s for s in range(200) if GAME.new_game(players=2, seed=s).position.rng.draws == 3)
    state = GAME.new_game(players=2, seed=seed)
    held = Counter(c for h in state.position.hands for c in h)
    deck = Counter(state.position.deck)
    assert deck["sun"] + held["sun"] == 8 and deck["moon"] + held["moon"] == 8
    assert state.position.discard[0] in SIGNS


def test_same_seed_same_game_and_different_seeds_differ():
    assert GAME.new_game(players=4, seed=5) == GAME.new_game(players=4, seed=5)
    assert GAME.new_game(players=4, seed=5) != GAME.new_game(players=4, seed=6)


# --- the three kinds of turn ----------------------------------------------------------------------
def test_turn_kind_1_draw_from_the_deck_then_discard_is_optional():
    state = position([("ari", "tau"), ("gem",)], deck_top=("leo",))
    state = play(state, "draw")
    assert state.phase == DRAWN and state.position.hands[0] == ("ari", "tau", "leo")
    assert {"pass", "discard ari", "discard tau", "discard leo"} <= legal(state)
    passed = play(state, "pass")
    assert passed.current_player == 1 and passed.position.hands[0] == ("ari", "tau", "leo")
    discarded = play(state, "discard tau")
    assert discarded.position.discard[-1] == "tau" and discarded.current_player == 1


def test_turn_kind_2_draw_the_top_discard_then_discard_is_optional():
    state = position([("ari",), ("gem",)], discard=("cap", "leo"))
    state = play(state, "take")
    assert state.position.hands[0] == ("ari", "leo") and state.position.discard == ("cap",)
    assert "pass" in legal(state) and "discard ari" in legal(state)


def test_turn_kind_3_play_an_action_card_without_drawing_or_discarding():
    state = position([("ari", "moon"), ("gem",)])
    after = play(state, "moon")
    assert after.position.hands[0] == ("ari",) and after.position.discard[-1] == "moon"
    assert after.turns == 1  # the whole turn


def test_a_player_draws_only_once_per_turn():
    state = play(position([("ari",), ("gem",)]), "draw")
    assert "draw" not in legal(state) and "take" not in legal(state)
    with pytest.raises(IllegalAction, match="already drawn"):
        state.apply(Draw())


# --- arranging, limits, pass ----------------------------------------------------------------------
def test_cards_are_swapped_between_hand_and_face_up_and_pass_ends_without_discarding():
    state = play(position([("ari", "tau", "gem"), ("leo",)], up=[("can",), ()]), "draw", "up ari", "down can")
    assert sorted(state.position.hands[0]) == sorted(["tau", "gem", "can", state.position.hands[0][2]])
    assert "ari" in state.position.up[0] and "can" not in state.position.up[0]
    after = play(state, "pass")
    assert after.current_player == 1 and len(after.position.discard) == 1


def test_ZO_5_rearranging_only_after_drawing():
    state = position([("ari", "tau"), ("gem",)], up=[("can",), ()])
    assert not any(a.startswith(("up ", "down ")) for a in legal(state))
    with pytest.raises(IllegalAction, match="only after drawing"):
        state.apply(Up("ari"))


def test_ZO_5_option_rearrange_before_draw_follows_the_english_text():
    state = position([("ari", "tau"), ("gem",)], up=[("can",), ()], rearrange_before_draw=True)
    assert {"up ari", "up tau", "down can"} <= legal(state)
    state = play(state, "up ari", "draw")
    assert "down ari" not in legal(state)  # still one move per card and turn


def test_ZO_5_each_card_moves_at_most_once_per_turn():
    state = play(position([("ari", "tau"), ("gem",)], up=[("can",), ()]), "draw", "up ari", "down can")
    assert "down ari" not in legal(state) and "up can" not in legal(state)
    with pytest.raises(IllegalAction, match="already moved"):
        state.apply(Up("can"))


def test_ZO_5_a_second_copy_may_still_move_when_one_copy_moved():
    state = play(position([("ari", "ari"), ("gem",)]), "draw", "up ari")
    assert "up ari" in legal(state)
    state = play(state, "up ari")
    assert "down ari" not in legal(state)


def test_ZO_E8_at_most_six_face_up_referee_refuses_a_seventh():
    state = play(position([("ari",), ("gem",)], up=[SHOWN_SIX, ()]), "draw")
    assert not any(a.startswith("up ") for a in legal(state))
    with pytest.raises(IllegalAction, match="most allowed"):
        state.apply(Up("ari"))


def test_seven_in_hand_at_the_end_of_a_turn_forces_a_discard():
    state = play(position([HIDDEN_SIX, ("gem",)], deck_top=("lib",)), "draw")
    assert "pass" not in legal(state)
    with pytest.raises(IllegalAction, match="7 in hand"):
        state.apply(Pass())
    assert "discard lib" in legal(state)


def test_thirteen_in_all_at_the_end_of_a_turn_forces_a_discard():
    state = position([HIDDEN_SIX, ("gem",)], up=[SHOWN_SIX, ()], deck_top=("vir",))
    state = play(state, "draw", "down lib", "up vir")  # 7 in hand and 6 face up: 13 in all
    assert "pass" not in legal(state)
    assert "discard lib" in legal(state)
    assert over_limits(("ari",) * 6, ("tau",) * 7) and over_limits(("ari",) * 7, ("tau",) * 5)
    assert not over_limits(("ari",) * 6, ("tau",) * 6)


def test_discard_refused_in_referee_mode_when_it_leaves_too_many():
    state = play(position([HIDDEN_SIX, ("gem",)], up=[SHOWN_SIX[:5], ()], deck_top=("pis",)), "draw", "down lib")
    with pytest.raises(IllegalAction, match="would still hold"):
        state.apply(Discard("pis"))


def test_ZO_E2_action_cards_are_not_discarded_while_the_hand_holds_a_sign():
    # The Sun could take Blue's leo: it can be played, so it is not discarded.
    state = play(position([("ari", "sun"), ("gem",)], up=[(), ("leo",)], deck_top=("moon",)), "draw")
    assert "discard sun" not in legal(state) and "discard moon" not in legal(state)
    with pytest.raises(IllegalAction, match="played, not discarded"):
        state.apply(Discard("sun"))


def test_ZO_E2_a_sun_with_nothing_to_take_may_be_discarded():
    # Eleven signs and a Sun, and nobody shows the missing sign (pis): on drawing it, the player
    # discards the Sun instead of breaking the Zodiac.
    hand = ("ari", "tau", "gem", "can", "leo", "sun")
    up = ("vir", "lib", "sco", "sag", "cap", "aqu")
    state = play(position([hand, ("pis",)], up=[up, ()], deck_top=("pis",)), "draw")
    assert state.sun_targets() == ()
    assert "discard sun" in legal(state) and "discard moon" not in legal(state)
    after = play(state, "discard sun")
    assert after.is_terminal() and after.winner == 0


def test_ZO_E2_an_action_card_may_be_discarded_when_the_hand_holds_no_sign():
    state = play(position([("sun", "moon"), ("gem",)], deck_top=("sun",)), "draw")
    assert {"discard sun", "discard moon"} <= legal(state)


# --- Sun -------------------------------------------------------------------------------------------
def test_sun_takes_a_missing_sign_from_any_players_face_up_cards():
    state = position([("ari", "sun"), ("gem",), ("can",)], up=[(), ("leo", "ari"), ("vir", "moon")])
    options = {a for a in legal(state) if a.startswith("sun")}
    assert options == {"sun leo@1", "sun vir@2"}  # not ari (held), never the Black Moon
    after = play(state, "sun vir@2")
    assert sorted(after.position.hands[0]) == ["ari", "vir"] and after.position.up[2] == ("moon",)
    assert after.position.discard[-1] == "sun"


def test_ZO_2_missing_means_neither_in_hand_nor_face_up():
    state = position([("sun",), ("gem",)], up=[("leo",), ("leo", "tau")])
    assert {a for a in legal(state) if a.startswith("sun")} == {"sun tau@1"}


def test_sun_from_the_hand_is_the_whole_turn_no_draw_before_no_discard_after():
    state = position([("ari", "sun"), ("gem",)], up=[(), ("leo",)])
    after = play(state, "sun leo@1")
    assert after.current_player == 1 and after.phase == TURN and after.turns == 1
    drawn = play(state, "draw")
    assert not any(a.startswith("sun") for a in legal(drawn))  # a Sun held before the draw waits
    with pytest.raises(IllegalAction, match="just drawn"):
        drawn.apply(PlaySun("leo", 1))


def test_sun_drawn_may_be_played_at_once_and_the_draw_turn_goes_on():
    state = play(position([("ari",), ("gem",)], up=[(), ("leo",)], deck_top=("sun",)), "draw")
    assert "sun leo@1" in legal(state)
    after = play(state, "sun leo@1")
    assert after.phase == DRAWN and after.current_player == 0  # ZO-2: rearrange, then discard or pass
    assert sorted(after.position.hands[0]) == ["ari", "leo"]
    assert "pass" in legal(after) and "discard ari" in legal(after)


def test_ZO_E3_a_drawn_sun_kept_past_the_next_action_stays_in_the_hand():
    state = play(position([("ari",), ("gem",)], up=[("can",), ("leo",)], deck_top=("sun",)), "draw", "down can")
    assert not any(a.startswith("sun") for a in legal(state))
    after = play(state, "pass", "draw", "pass")  # player 1's turn
    assert "sun leo@1" in legal(after)


def test_sun_cannot_be_used_when_no_face_up_card_can_be_taken():
    state = position([("ari", "sun"), ("gem",)])
    assert not any(a.startswith("sun") for a in legal(state))
    with pytest.raises(IllegalAction, match="cannot be used"):
        state.apply(PlaySun("leo", 1))
    drawn = play(position([("ari",), ("gem",)], deck_top=("sun",)), "draw")
    assert not any(a.startswith("sun") for a in legal(drawn))  # drawn without a target: kept


def test_sun_is_drawn_only_from_the_deck():
    state = position([("ari",), ("gem",)], discard=("leo", "sun"))
    assert "take" not in legal(state)


def test_ZO_E9_an_action_card_face_up_may_be_played():
    state = position([("ari",), ("gem",)], up=[("moon",), ()])
    after = play(state, "moon")
    assert after.position.up[0] == () and after.position.discard[-1] == "moon"


def test_ZO_E9_a_face_up_sun_with_a_full_hand_is_refused_by_the_referee():
    state = position([HIDDEN_SIX, ("gem",)], up=[("sun",), ("lib",)])
    assert "sun lib@1" not in legal(state)
    with pytest.raises(IllegalAction, match="7th card"):
        state.apply(PlaySun("lib", 1))
    lighter = position([HIDDEN_SIX[:5], ("gem",)], up=[("sun",), ("lib",)])
    after = play(lighter, "sun lib@1")
    assert "lib" in after.position.hands[0] and after.position.up[0] == ()


# --- Black Moon -------------------------------------------------------------------------------------
def test_black_moon_is_laid_on_the_discard_pile_and_the_next_player_skips():
    state = position([("moon",), ("gem",), ("can",)])
    after = play(state, "moon")
    assert after.position.discard[-1] == "moon" and after.current_player == 2
    assert "player 1 skips a turn" in after.events


def test_black_moon_drawn_may_be_played_at_once_ending_the_turn_without_discard():
    state = play(position([("ari",), ("gem",), ("can",)], deck_top=("moon",)), "draw")
    assert "moon" in legal(state)
    after = play(state, "moon")
    assert after.current_player == 2 and after.position.hands[0] == ("ari",)


def test_black_moon_drawn_may_be_kept():
    state = play(position([("ari",), ("gem",), ("can",)], deck_top=("moon",)), "draw", "pass")
    assert state.position.hands[0] == ("ari", "moon")


def test_ZO_3_with_two_players_the_same_player_plays_again():
    after = play(position([("moon", "ari"), ("gem",)]), "moon")
    assert after.current_player == 0 and after.phase == TURN


def test_ZO_3_skips_accumulate_on_the_next_player():
    state = position([("moon",), ("gem",), ("can",)], skips=(0, 1, 0))
    after = play(state, "moon")
    assert after.position.skips == (0, 1, 0) and after.current_player == 2  # one used, one still pending
    after = play(after, "draw", "pass", "draw", "pass")  # players 2 and 0
    assert after.current_player == 2  # player 1 skips again
    assert after.position.skips == (0, 0, 0)


def test_skipped_turns_are_not_counted_as_turns():
    after = play(position([("moon",), ("gem",), ("can",)]), "moon")
    assert after.turns == 1


# --- winning ----------------------------------------------------------------------------------------
def test_ZO_4_referee_detects_the_completed_zodiac_at_the_end_of_the_turn():
    state = position([HIDDEN_SIX, ("gem",)], up=[SHOWN_SIX[:5], ()], deck_top=("pis",))
    state = play(state, "draw", "up pis")
    assert not state.is_terminal()
    won = play(state, "pass")
    assert won.is_terminal() and won.winner == 0 and won.returns() == (1.0, 0.0)


def test_win_needs_six_face_down_and_six_face_up_no_duplicates_no_action_cards():
    dup = position([HIDDEN_SIX, ("gem",)], up=[(*SHOWN_SIX[:5], "ari"), ()], deck_top=("lib",))
    dup = play(dup, "draw", "discard lib")
    assert not dup.is_terminal()  # twelve cards, but ari twice and pis missing
    action = position([(*HIDDEN_SIX[:5], "sun"), ("gem",)], up=[SHOWN_SIX, ()], deck_top=("lib",))
    action = play(action, "draw", "discard lib")
    assert not action.is_terminal()  # vir missing, a Sun instead


def test_a_win_by_taking_the_last_sign_with_a_sun_from_the_hand():
    state = position([(*HIDDEN_SIX[:5], "sun"), ("gem",)], up=[SHOWN_SIX, ("vir",)])
    won = play(state, "sun vir@1")
    assert won.winner == 0


def test_ZO_E7_table_mode_a_completed_zodiac_must_be_called_with_the_turns_last_action():
    state = position([HIDDEN_SIX, ("gem",)], up=[SHOWN_SIX[:5], ()], deck_top=("pis",), mode="table")
    state = play(state, "draw", "up pis")
    assert {"pass", "pass zodiac"} <= legal(state)
    assert not play(state, "pass").is_terminal()  # not called: no win
    won = play(state, "pass zodiac")
    assert won.winner == 0 and any("calls ZODIAC" in e for e in won.events)


def test_table_mode_a_false_call_costs_two_signs_chosen_by_the_next_player():
    state = play(
        position(
            [("ari", "tau", "leo"), ("gem",), ("can",)],
            up=[("vir",), (), ()],
            mode="table",
            deck_top=("pis",),
        ),
        "draw",
    )
    after = play(state, "discard pis zodiac")
    assert after.phase == PENALTY and after.current_player == 1
    assert after.position.penalty.owed == 2
    assert legal(after) == {"lose up vir", "lose hand ari", "lose hand tau", "lose hand leo"}
    after = play(after, "lose up vir", "lose hand tau")
    assert after.position.discard[-2:] == ("vir", "tau")
    assert after.current_player == 1 and after.phase == TURN  # the game goes on
    assert sorted(after.position.hands[0]) == ["ari", "leo"]
    assert after.position.locked and "take" not in legal(after)  # lost cards cannot be drawn by the next player


def test_table_mode_a_called_zodiac_is_shown_to_everyone():
    state = play(position([("ari",), ("gem",)], mode="table"), "draw")
    after = play(state, "pass zodiac")
    assert any("shows" in e and "ari" in e for e in after.events)


def test_ZO_4_referee_mode_has_no_zodiac_call():
    state = play(position([("ari",), ("gem",)]), "draw")
    assert not any(a.endswith("zodiac") for a in legal(state))
    with pytest.raises(IllegalAction, match="only in table mode"):
        state.apply(Pass(call=True))


# --- penalties (table mode) -----------------------------------------------------------------------
def test_ZO_4_table_mode_ending_over_the_limits_costs_a_sign_and_a_skipped_turn():
    state = play(position([HIDDEN_SIX, ("gem",), ("can",)], mode="table", deck_top=("lib",)), "draw")
    assert "pass" in legal(state)  # table mode lets the mistake happen
    after = play(state, "pass")
    assert after.phase == PENALTY and after.current_player == 1 and after.position.penalty.owed == 1
    after = play(after, "lose hand lib")
    assert len(after.position.hands[0]) == 6 and after.position.discard[-1] == "lib"
    assert after.position.skips[0] == 1 and after.current_player == 1
    assert after.position.locked and "take" not in legal(after)
    after = play(after, "draw", "pass")  # player 1 ends; player 2 may take the lost card again
    assert not after.position.locked and after.current_player == 2 and "take" in legal(after)
    after = play(after, "draw", "pass")
    assert after.current_player == 1 and "player 0 skips a turn" in after.events


def test_ZO_E6_the_chooser_sees_the_offenders_hand_and_no_one_else_does():
    state = play(position([HIDDEN_SIX, ("gem",), ("can",)], mode="table", deck_top=("lib",)), "draw", "pass")
    assert sorted(state.observation(1)["penalty"]["shown"]) == sorted([*HIDDEN_SIX, "lib"])
    assert "shown" not in state.observation(2)["penalty"]


def test_ZO_E6_an_offender_without_signs_loses_nothing_more():
    state = play(position([("sun",) * 6, ("gem",)], mode="table", deck_top=("sun",)), "draw", "pass")
    assert state.phase == TURN and state.position.skips[0] == 1 and "player 0 has no sign to lose" in state.events


def test_penalties_add_up_over_the_limits_and_a_false_call():
    state = play(position([HIDDEN_SIX, ("gem",)], mode="table", deck_top=("lib",)), "draw", "pass zodiac")
    assert state.position.penalty.owed == 3 and state.position.skips[0] == 1


# --- deck recycling ---------------------------------------------------------------------------------
def test_ZO_E5_empty_deck_the_discard_pile_but_its_top_card_becomes_the_new_deck():
    state = position([("ari",), ("gem",)], deck_top=("tau",), deck_size=1, discard=("leo",))
    before = len(state.position.discard)
    after = play(state, "draw", "discard tau")
    assert after.position.discard == ("tau",)  # the last card discarded starts the new discard pile
    assert len(after.position.deck) == before
    assert "the deck is empty: the discard pile is shuffled into a new deck" in after.events
    assert all_cards(after) == Counter(DECK_COUNTS)


def test_ZO_E4_a_player_who_can_do_nothing_passes():
    state = position([("ari",), ("gem",)], deck_size=0, discard=("sun",))
    # Every other card lies under the Sun; the deck is empty and the Sun cannot be taken.
    assert legal(state) == {"pass"}
    assert play(state, "pass").current_player == 1


# --- endless games ----------------------------------------------------------------------------------
def test_ZO_6_and_ZO_E11_max_turns_ends_the_game_as_a_draw():
    state = GAME.new_game(players=3, seed=1, max_turns=2)
    while not state.is_terminal():
        state = state.apply(state.legal_actions()[0])
    assert state.turns == 2 and state.winner is None and state.returns() == (0.5, 0.5, 0.5)
    with pytest.raises(ValueError, match="max_turns"):
        GAME.new_game(players=3, max_turns=0)
    assert GAME.new_game(players=3, max_turns=None).position.max_turns is None


# --- options, notation, errors -----------------------------------------------------------------------
def test_options_are_checked():
    with pytest.raises(ValueError, match="mode"):
        GAME.new_game(mode="casual")
    with pytest.raises(ValueError, match="rearrange_before_draw"):
        GAME.new_game(rearrange_before_draw="yes")


def test_notation_accepts_names_and_writes_ids():
    state = position([("ari", "sun"), ("gem",)], up=[(), ("leo",)])
    assert state.parse_action("sun Leo @ 1") == PlaySun("leo", 1)
    assert state.parse_action("discard Black Moon") == Discard("moon")
    assert state.parse_action("zodiac") == Pass(call=True)
    assert state.action_to_str(Discard("moon", call=True)) == "discard moon zodiac"
    assert state.parse_action("moon zodiac") == PlayMoon(call=True)


@pytest.mark.parametrize("text", ["", "draw 2", "discard", "sun leo", "up dragon", "lose leo", "take zodiac"])
def test_bad_notation_is_a_notation_error(text):
    with pytest.raises(NotationError):
        GAME.new_game(players=2).parse_action(text)


def test_illegal_actions_say_why():
    state = position([("ari",), ("gem",)])
    with pytest.raises(IllegalAction, match="draw or take a card first"):
        state.apply(Discard("ari"))
    with pytest.raises(IllegalAction, match="hold no Black Moon"):
        state.apply(PlayMoon())
    with pytest.raises(IllegalAction, match="not a Zodiac action"):
        state.apply("castle")
    over = position([("ari",), ("gem",)], phase=OVER, winner=0)
    with pytest.raises(IllegalAction, match="game is over"):
        over.apply(Draw())


def test_seat_zones_and_marks():
    state = position([("ari",), ("gem",), ("can",)], skips=(0, 0, 1))
    assert GAME.cells(state) == ((0, 0), (1, 0), (2, 0))
    assert GAME.parse_cell(GAME.format_cell((2, 0))) == (2, 0)
    marks = state.marks()
    assert marks[(0, 0)].kind == "turn" and marks[(2, 0)].kind == "skip"
    assert state.occupancy() == {}


def test_ZO_E10_a_lost_card_stays_locked_through_the_next_turn_played():
    # Player 1, the chooser, has a skip pending: player 2 plays the next turn and may not take the card.
    state = play(
        position([HIDDEN_SIX, ("gem",), ("can",)], mode="table", deck_top=("lib",), skips=(0, 1, 0)),
        "draw",
        "pass",
        "lose hand lib",
    )
    assert state.current_player == 2 and state.position.locked and "take" not in legal(state)
    state = play(state, "draw", "pass")
    assert not state.position.locked
