"""The card table's companion (controller/table/companion.py): cards entered, actions validated, LEDs composed."""

from __future__ import annotations

import pytest

from controller.games import load_game
from controller.games.zillertal import Place, SetAside
from controller.games.zodiac import PlaySun
from controller.table.companion import Companion, CompanionSession
from controller.table.palette import HINT_COLOURS, OFF, mark_colour, scale
from hal.profile import load_profile, parse_profile
from hal.protocols import InputEvent
from sim.board import SimInputs, SimPixels
from tests.games.zillertal_helpers import physical, position
from tests.games.zodiac_helpers import SHOWN_SIX, physical_position

CARDS = load_profile("cards")
RAIL = {line: CARDS.led_of(f"L{line}") for line in range(-20, 21)}
ZONES = {seat: CARDS.seat_zones[f"seat{seat}"] for seat in range(8)}
STATUS = CARDS.extra_leds["status"]
GREEN, AMBER, RED, WHITE = (HINT_COLOURS[c] for c in ("green", "amber", "red", "white"))
GLOW = scale(WHITE, 0.05)


def card(value: str) -> InputEvent:
    return InputEvent("card", value)


def button(value: str) -> InputEvent:
    return InputEvent("button", value)


def menu(value: str) -> InputEvent:
    return InputEvent("menu", value)


def declare(value: str) -> InputEvent:
    return InputEvent("declare", value)


def lit_rail(frame) -> dict[int, tuple[int, int, int]]:
    return {line: frame[led] for line, led in RAIL.items() if frame[led] != OFF}


def valley_table(**changes) -> Companion:
    """Zillertal at a physical table: FLAT1 (land 1) at line 0 unless said otherwise; player 0 to lay a card."""
    changes.setdefault("contracts", [("K1-1",), ("K1-2",)])
    changes.setdefault("valley", [("FLAT1", 0)])
    state = physical(position([("FLAT1", "FLAT2"), ("FLAT1", "FLAT1")], **changes))
    return Companion(state, CARDS)


# --- Zillertal: the rail ----------------------------------------------------------------------------
PEAK = [("PEAK", 0)]  # land 1-3-4-3-1: FLAT1 fits at -4, 0 and 4; UP12 (1-1-2-2-2) only at 4


def test_an_entered_card_lights_its_legal_offsets_green_and_the_previewed_one_amber():
    companion = valley_table(valley=PEAK)
    out = companion.step(0, [card("FLAT1")])
    assert out.selected == ("FLAT1",) and out.offsets == (-4, 0, 4)
    assert out.candidates == (Place("FLAT1", -4), Place("FLAT1", 0), Place("FLAT1", 4))
    assert lit_rail(out.frame) == {-4: AMBER, 0: GREEN, 4: GREEN}
    assert out.frame[STATUS] == AMBER  # waiting for a confirmation
    assert "FLAT1 may go with its left edge on L-4, L0, L4: choose with menu, then confirm" in out.messages
    assert not out.committed


def test_menu_moves_the_preview_and_confirm_commits_exactly_the_previewed_placement():
    companion = valley_table(valley=PEAK)
    companion.step(0, [card("FLAT1")])
    out = companion.step(10, [button("menu")])
    assert lit_rail(out.frame) == {-4: GREEN, 0: AMBER, 4: GREEN} and out.previewed == Place("FLAT1", 0)
    out = companion.step(20, [button("menu"), button("menu")])
    assert out.previewed == Place("FLAT1", -4)  # round again
    out = companion.step(30, [menu("L4"), button("confirm")])
    assert out.committed == (Place("FLAT1", 4),)
    assert companion.state.position.placed[-1] == companion.state.position.placed[1] and lit_rail(out.frame) == {}
    assert out.frame[STATUS] == scale(GREEN, 0.1)


def test_a_menu_choice_must_be_one_of_the_choices():
    companion = valley_table(valley=PEAK)
    companion.step(0, [card("FLAT1")])
    out = companion.step(10, [menu("L2")])
    assert out.messages == ("menu L2: not one of the 3 choices",) and out.previewed == Place("FLAT1", -4)
    assert companion.step(20, [menu("2")]).previewed == Place("FLAT1", 0)


def test_a_card_with_one_legal_offset_still_waits_for_confirm():
    companion = valley_table(valley=PEAK)
    out = companion.step(0, [card("UP12")])
    assert out.candidates == (Place("UP12", 4),) and lit_rail(out.frame) == {4: AMBER} and not out.committed
    assert companion.step(10, [button("confirm")]).committed == (Place("UP12", 4),)


def test_a_card_that_fits_nowhere_is_set_aside_after_confirm():
    companion = valley_table()
    out = companion.step(0, [card("FLAT2")])
    assert out.offsets == () and out.candidates == (SetAside("FLAT2"),)
    assert "FLAT2 fits nowhere in the Valley: confirm sets it aside" in out.messages and not out.committed
    assert companion.step(10, [button("confirm")]).committed == (SetAside("FLAT2"),)


def test_the_card_reader_enters_contracts_at_once():
    companion = Companion(load_game("zillertal").new_game(players=2, hands="physical"), CARDS)
    out = companion.step(0, [card("k1-01"), card("K2-05")])
    assert [companion.state.action_to_str(a) for a in out.committed] == ["contract K1-01", "contract K2-05"]
    out = companion.step(10, [card("K2-06")])
    assert out.messages == ("K2-06: K2-06 is worth 2: the contract now comes from pile 3",)
    assert out.frame[STATUS] == RED  # a refused input flashes the status LED


def test_a_declared_action_is_validated_by_the_rules():
    companion = valley_table()
    out = companion.step(0, [declare("UP12@-3")])
    assert out.messages == (
        "UP12@-3: the land line does not meet: UP12 has height 2 at its edge on line 1, the Valley has 1",
    )
    assert not out.committed
    out = companion.step(10, [declare("UP12@4")])
    assert out.committed == (Place("UP12", 4),)


def test_gorge_and_crosses_are_dim_marks_on_the_rail():
    companion = valley_table(valley=[("FLAT1", 0), ("FLAT1", 4)], gorge=2, crosses=(0, 6), played=True)
    frame = companion.step(0).frame
    assert lit_rail(frame) == {
        0: mark_colour("white"),
        2: mark_colour("blue"),
        3: mark_colour("blue"),
        6: mark_colour("white"),
    }


def test_placements_beyond_the_rail_are_listed_but_not_lit():
    companion = valley_table(valley=[("PEAK" if at % 8 == 0 else "FLAT1", at) for at in range(0, 24, 4)])
    out = companion.step(0, [card("FLAT1")])
    assert out.offsets[-1] == 24 and 24 not in lit_rail(out.frame)
    assert lit_rail(out.frame)[20] == GREEN


# --- undo ---------------------------------------------------------------------------------------------
def test_undo_first_drops_the_selection_then_takes_back_the_last_action():
    companion = valley_table()
    out = companion.step(10, [card("FLAT1")])
    assert out.candidates
    out = companion.step(20, [button("undo")])
    assert out.messages == ("selection cleared",) and not out.candidates and out.took_back == 0
    companion.step(30, [declare("PEAK@4")])
    out = companion.step(40, [button("undo")])
    assert out.took_back == 1 and out.messages == ("took back PEAK@4",)
    assert len(companion.state.position.placed) == 1
    assert companion.step(50, [button("undo")]).messages == ("undo: no action to take back",)


def test_undo_never_crosses_a_draw():
    companion = valley_table(deck_size=10)
    companion.step(0, [declare("PEAK@4"), declare("end")])
    out = companion.step(10, [button("undo")])
    assert out.took_back == 0
    assert out.messages == ("undo: the last action drew a hidden card and cannot be taken back",)


# --- seat zones -------------------------------------------------------------------------------------
def zones(frame, players):
    return {seat: frame[ZONES[seat][0]] for seat in range(players)}


def test_zillertal_zone_of_the_player_on_turn_is_green_others_glow():
    frame = valley_table().step(0).frame
    assert zones(frame, 2) == {0: GREEN, 1: GLOW}
    assert all(frame[led] == OFF for seat in range(2, 8) for led in ZONES[seat])


def test_zodiac_pending_skip_blinks_red_on_that_seat():
    state = physical_position([("?",) * 6, ("?",) * 6, ("?",) * 6], skips=(0, 0, 1))
    companion = Companion(state, CARDS, blink_ms=400)
    assert zones(companion.frame(0), 3) == {0: GREEN, 1: GLOW, 2: GLOW}
    assert zones(companion.frame(400), 3) == {0: GREEN, 1: GLOW, 2: RED}


def test_zodiac_black_moon_sets_the_skip_of_the_next_seat():
    state = physical_position([("?",) * 6, ("?",) * 6, ("?",) * 6], up=[(), (), ()])
    companion = Companion(state, CARDS)
    out = companion.step(0, [card("moon")])  # one choice: the Black Moon from the hand
    assert [state.action_to_str(a) for a in out.committed] == ["moon"]
    assert companion.state.current_player == 2  # player 1 skipped at once
    assert zones(companion.frame(400), 3) == {0: GLOW, 1: GLOW, 2: GREEN}


def test_zodiac_a_player_who_may_call_is_white_and_a_chooser_amber():
    ready = physical_position([("?",) * 6, ("?",) * 6], up=[SHOWN_SIX, ()], discard=("cap", "leo"), phase="drawn")
    assert zones(Companion(ready, CARDS).frame(0), 2)[0] == WHITE
    penalty = physical_position(
        [("?",) * 6, ("?",) * 6], up=[(*SHOWN_SIX[:5], "sun"), ()], discard=("cap",), phase="drawn", mode="table"
    )
    companion = Companion(penalty, CARDS)
    companion.step(0, [declare("pass zodiac")])
    assert zones(companion.frame(0), 2) == {0: GLOW, 1: AMBER}


def test_zodiac_cards_entered_one_after_another_narrow_the_choices():
    state = physical_position([("?",) * 6, ("?",) * 6, ("?",) * 6], up=[(), ("ari", "leo"), ("ari",)])
    companion = Companion(state, CARDS)
    out = companion.step(0, [card("sun")])
    assert len(out.candidates) == 3 and out.previewed == PlaySun("ari", 1, area="hand")
    out = companion.step(10, [card("ari")])
    assert out.candidates == (PlaySun("ari", 1, area="hand"), PlaySun("ari", 2, area="hand"))
    out = companion.step(20, [menu("sun ari@2"), button("confirm")])
    assert out.committed == (PlaySun("ari", 2, area="hand"),)


def test_zodiac_open_phase_takes_the_card_read():
    companion = Companion(load_game("zodiac").new_game(players=3, hands="physical"), CARDS)
    out = companion.step(0, [declare("dealer 2"), card("Leo")])
    assert [a for a in out.committed][-1].card == "leo" and companion.state.current_player == 0
    out = companion.step(10, [card("leo")])
    assert out.messages == ("leo: draw or take a card first: a discard ends a draw turn",)


# --- set-up errors and the session ---------------------------------------------------------------------
def test_a_profile_must_have_the_rail_and_a_zone_per_seat():
    square = load_profile("square14")
    with pytest.raises(ValueError, match="board square14 has no Valley rail"):
        Companion(load_game("zillertal").new_game(players=2, hands="physical"), square)
    with pytest.raises(ValueError, match="board square14 has no seat zone seat0"):
        Companion(load_game("zodiac").new_game(players=2, hands="physical"), square)
    small = parse_profile(
        '[board]\nname = "two"\ngeometry = "rail"\nfirst = 0\nlast = 0\nled_count = 3\n'
        "[seat_zones]\nseat0 = [1, 1]\nseat1 = [2, 1]\n[fields]\nL0 = { led = 0 }\n"
    )
    with pytest.raises(ValueError, match="board two has no seat zone seat2 for a 3-player game"):
        Companion(load_game("zodiac").new_game(players=3, hands="physical"), small)
    with pytest.raises(ValueError, match="the companion plays zillertal and zodiac, not Klotz"):
        Companion(load_game("klotz").new_game(players=2), CARDS)


def test_session_pushes_frames_only_when_they_change():
    pixels, inputs = SimPixels(CARDS.led_count), SimInputs()
    session = CompanionSession(valley_table(), pixels, inputs)
    session.step(0)
    session.step(100)
    assert len(pixels.frames) == 1
    inputs.push("card", "UP12")
    out = session.step(200)
    assert len(pixels.frames) == 2 and pixels.last == out.frame and out.offsets == (1, 2, 3, 4)
