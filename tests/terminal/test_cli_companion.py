"""`tafel companion`: typed card ids and actions drive the companion; the screen shows rail and seat zones."""

from __future__ import annotations

import io
import os

import pytest

from controller.games import load_game
from controller.service.backends import led_strip
from controller.table.companion import Companion
from controller.table.palette import HINT_COLOURS
from controller.terminal.cli import main
from controller.terminal.companion import CompanionTerminal, event_for, run_companion
from hal.profile import load_profile
from sim.board import SimPixels
from tests.hal.test_neopixel import adafruit  # noqa: F401 (the fake Adafruit libraries)

CARDS = load_profile("cards")

ZILLERTAL = load_game("zillertal")
ZODIAC = load_game("zodiac")
SETUP = ["K1-01", "K2-05", "K3-01", "K1-02", "K2-01", "K3-02"]  # the contracts dealt, seat by seat


def session(game, lines: list[str], players: int = 2, **options) -> tuple[str, object]:
    out = io.StringIO()
    state = run_companion(game, players, 0, io.StringIO("\n".join(lines) + "\n"), out, **options)
    return out.getvalue(), state


def rail_row(text: str) -> str:
    """The last drawing of the rail's LEDs (one character per dotted line, L-20 first)."""
    lines = text.splitlines()
    index = max(i for i, line in enumerate(lines) if line.startswith("Valley rail"))
    return lines[index + 2].strip()


def test_zillertal_a_typed_card_lists_and_lights_its_legal_offsets():
    text, state = session(ZILLERTAL, [*SETUP, "V03"])
    assert "Red: contract K1-01" in text and "Blue: contract K3-02" in text
    assert "V03 may go with its left edge on: L0" in text  # the first card starts the Valley
    assert "1. V03@0  <- previewed" in text
    row = rail_row(text)
    assert len(row) == 41 and row[20] == "?" and row.count(".") == 40
    assert "seat0 [GGG] on turn   seat1 [~~~] -" in text
    assert state.turns == 0 and not state.position.placed


def test_zillertal_confirm_commits_and_the_valley_counts_show():
    text, state = session(ZILLERTAL, [*SETUP, "V03", "confirm", "V05", "L1", "confirm", "undo"])
    assert "Red: V03@0" in text
    assert "  ! V05: you have already laid your card this turn" in text
    assert "  ! L1: 'L1' is not a Zillertal action" in text  # nothing to choose: typed as an action
    assert "  ! nothing to confirm: enter a card or declare an action" in text
    assert "Visible icons per zone:" in text and "valley" in text
    assert "  ! took back V03@0" in text
    assert not state.position.placed


def test_zillertal_other_actions_are_declared_and_refusals_give_the_reason():
    text, state = session(ZILLERTAL, [*SETUP, "V03", "confirm", "claim K1-01 cow", "end", "?"])
    assert "  ! claim K1-01 cow: K1-01 needs exactly 7 cow visible in one zone" in text
    assert "Red: end" in text and state.current_player == 1
    assert "Legal actions of Blue:" in text


def test_zodiac_a_black_moon_passes_over_the_next_seat():
    text, state = session(ZODIAC, ["dealer 1", "leo", "moon", "quit"], players=3)
    assert "Red: dealer 1" in text and "Blue: open leo" in text
    assert "Yellow: moon" in text and "player 0 skips a turn" in text
    assert state.current_player == 1
    assert "Valley rail" not in text  # Zodiac has no Valley
    assert "seat0 [~~~] -   seat1 [GGG] on turn   seat2 [~~~] -" in text


def test_zodiac_seat_zones_show_the_chooser_and_a_pending_skip():
    # Table mode: ending a turn with seven cards in the hand costs a sign and a skipped turn.
    text, state = session(ZODIAC, ["dealer 1", "leo", "draw", "pass"], players=3, mode="table")
    assert "player 2 ends the turn over the limits (7 in hand, 0 face up)" in text
    assert "seat0 [AAA] chooses a penalty   seat1 [~~~] -   seat2 [~~~] skips 1 (blinks red)" in text
    assert state.skips == (0, 0, 1)


def test_zodiac_a_card_with_several_uses_is_chosen_with_menu():
    text, _ = session(ZODIAC, ["dealer 0", "leo", "draw", "ari", "menu", "confirm"], players=2)
    assert "Choices for ari (menu steps, confirm commits):" in text
    assert "1. up ari  <- previewed" in text and "2. discard ari  <- previewed" in text
    assert "Blue: discard ari" in text


def test_typed_lines_become_input_events():
    state = ZILLERTAL.new_game(players=2, hands="physical")
    assert event_for(state, "confirm", False).kind == "button"
    assert event_for(state, "K1-01", False).kind == "card"
    assert event_for(state, "L-4", True).kind == "menu" and event_for(state, "3", True).kind == "menu"
    assert event_for(state, "L-4", False).kind == "declare"
    assert event_for(state, "end 2", False).kind == "declare"
    assert (event_for(state, "card V03", False).kind, event_for(state, "card V03", False).value) == ("card", "V03")


def test_cli_companion_runs_and_stops_at_the_end_of_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("dealer 0\nleo\n"))
    assert main(["companion", "zodiac", "--players", "2", "--plain"]) == 0
    out = capsys.readouterr().out
    assert "Zodiac at the table, 2 players (physical hands)" in out and "Companion stopped." in out
    assert "seat1 [GGG] on turn" in out
    assert main(["companion", "zillertal", "--players", "5"]) == 2
    assert "Zillertal is played by 1, 2, 3, 4 players, not 5" in capsys.readouterr().err


# --- a real strip ----------------------------------------------------------------------------------
def test_frames_go_to_the_strip_after_every_line():
    ticks = iter(range(0, 100_000, 100))
    companion = Companion(ZILLERTAL.new_game(players=2, hands="physical"), CARDS)
    pixels = SimPixels(CARDS.led_count)
    stdin = io.StringIO("\n".join([*SETUP, "V03"]) + "\n")
    CompanionTerminal(companion, stdin, io.StringIO(), pixels=pixels, clock=lambda: next(ticks)).run()
    assert pixels.last is not None and pixels.last[CARDS.led_of("L0")] == HINT_COLOURS["amber"]
    # The first frame, seat 1's turn to enter contracts, seat 0's turn to play, the card entered.
    assert len(pixels.frames) == 4


def test_run_companion_builds_the_strip_for_the_profile():
    strips: list[SimPixels] = []

    def strip(profile):
        strips.append(SimPixels(profile.led_count))
        return strips[-1]

    run_companion(ZODIAC, 2, 0, io.StringIO("dealer 0\n"), io.StringIO(), pixels=strip)
    assert len(strips) == 1 and strips[0].size == CARDS.led_count and strips[0].frames


def test_with_a_strip_the_loop_waits_for_lines_and_keeps_blinking(tmp_path):
    read_end, write_end = os.pipe()
    os.write(write_end, b"dealer 1\nleo\ndraw\npass\n")
    os.close(write_end)
    ticks = iter(range(0, 100_000, 400))
    state = ZODIAC.new_game(players=3, hands="physical", mode="table")
    companion = Companion(state, CARDS, blink_ms=400)
    pixels = SimPixels(CARDS.led_count)
    with os.fdopen(read_end) as stdin:
        terminal = CompanionTerminal(companion, stdin, io.StringIO(), pixels=pixels, clock=lambda: next(ticks))
        terminal.run()
    skipping = CARDS.seat_zones["seat2"][0]
    assert companion.state.skips == (0, 0, 1) and companion.state.current_player == 0
    shown = len(pixels.frames)
    terminal.refresh()  # nobody types: the skip blinks on
    terminal.refresh()
    assert len(pixels.frames) == shown + 2
    assert {frame[skipping] for _, frame in pixels.frames[shown:]} == {
        HINT_COLOURS["red"],
        pixels.frames[-1][1][skipping],
    }
    assert HINT_COLOURS["red"] in {frame[skipping] for _, frame in pixels.frames}


@pytest.mark.usefixtures("adafruit")
def test_led_strip_reads_the_neopixel_table_of_the_configuration(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[neopixel]\ndriver = "spi"\nspi_port = 1\n', encoding="utf-8")
    sink = led_strip(CARDS, str(config))
    assert sink.size == 66 and sink.wiring.spi_port == 1 and sink.colour_order == "GRB"
    config.write_text('[neopixel]\ndriver = "magic"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"config.toml \[neopixel\]: driver: must be one of"):
        led_strip(CARDS, str(config))
    with pytest.raises(ValueError, match="cannot read the configuration"):
        led_strip(CARDS, str(tmp_path / "missing.toml"))
