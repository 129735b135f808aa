"""The limits of docs/web.md, "What no page can do" and "The PIN and the seat links", as pure
bookkeeping with the time as a parameter: wrong PINs slow down one address and relax over time,
messages per page and pages per address are bounded; and the PIN drawn on the LEDs."""

from __future__ import annotations

import pytest

from controller.games import load_game
from controller.table.board import board_map
from controller.table.palette import OFF, PLAYER_COLOURS
from controller.table.pin_display import DIGIT_COLOURS, FONT, pin_frame
from controller.web.guard import (
    ADDRESSES_KEPT,
    MESSAGE_BURST,
    MESSAGES_PER_S,
    PAGES_PER_ADDRESS,
    PIN_RELAX_S,
    PIN_TRIES,
    PIN_WAIT_S,
    REFUSALS_BEFORE_CLOSE,
    MessageRate,
    PageCount,
    PinGuard,
    guessing_source,
)
from hal.profile import load_profile
from tests.service.configs import ROOT

PIN = "4821"


def wrong(guard: PinGuard, address: str, times: int, now: float) -> str | None:
    said = None
    for _ in range(times):
        said = guard.check(address, "0000", now)
    return said


def test_five_wrong_pins_make_that_address_wait_and_no_other() -> None:
    guard = PinGuard(PIN)
    assert wrong(guard, "10.0.0.9", PIN_TRIES, 0.0).startswith("wrong table PIN")
    locked = guard.check("10.0.0.9", PIN, 1.0)
    assert locked is not None and "try again in 29 s" in locked  # even the right PIN waits there
    assert guard.check("10.0.0.5", PIN, 1.0) is None  # the people at the table are not locked out
    assert guard.check("10.0.0.9", PIN, PIN_WAIT_S) is None  # the wait is over
    assert "PIN" not in (guard.check("10.0.0.9", " 4821 ", PIN_WAIT_S + 1) or "")


def test_each_wait_doubles_and_the_doubling_relaxes_with_quiet_time() -> None:
    guard = PinGuard(PIN)
    now = 0.0
    waits = []
    for _ in range(3):
        wrong(guard, "a", PIN_TRIES, now)
        said = guard.check("a", "0000", now)
        waits.append(float(said.split("try again in ")[1].split(" s")[0]))  # type: ignore[union-attr]
        now += waits[-1] + 1
    assert waits == [PIN_WAIT_S, 2 * PIN_WAIT_S, 4 * PIN_WAIT_S]
    # Twenty quiet minutes: two steps relaxed, the next lock-out is back to 60 s, not 240 s.
    now += 2 * PIN_RELAX_S
    wrong(guard, "a", PIN_TRIES, now)
    assert "try again in 60 s" in (guard.check("a", "0000", now) or "")
    # The right PIN forgets everything about the address.
    assert guard.check("a", PIN, now + 61) is None
    wrong(guard, "a", PIN_TRIES, now + 62)
    assert "try again in 30 s" in (guard.check("a", "0000", now + 62) or "")


def test_the_longest_wait_is_bounded() -> None:
    guard = PinGuard(PIN)
    now = 0.0
    for _ in range(20):
        wrong(guard, "b", PIN_TRIES, now)
        now += 10_000
    wrong(guard, "b", PIN_TRIES, now)
    said = guard.check("b", "0000", now) or ""
    assert float(said.split("try again in ")[1].split(" s")[0]) <= 16 * 60


def test_a_device_s_many_addresses_are_one_guessing_source() -> None:
    """An IPv6 device takes any address of its /64 (privacy addresses): the /64 is counted; an IPv4
    address written as IPv6 (a dual-stack socket) is that IPv4 address."""
    assert guessing_source("2001:db8:1:2:aaaa::1") == guessing_source("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert guessing_source("2001:db8:1:3::1") != guessing_source("2001:db8:1:2::1")
    assert guessing_source("::ffff:10.0.0.9") == guessing_source("10.0.0.9") == "10.0.0.9"
    guard = PinGuard(PIN)
    for host in range(PIN_TRIES):  # five wrong PINs, each from another address of the same device
        guard.check(f"2001:db8:1:2::{host + 1:x}", "0000", 0.0)
    assert "try again in 29 s" in (guard.check("2001:db8:1:2::99", PIN, 1.0) or "")
    assert guard.check("2001:db8:1:7::1", PIN, 1.0) is None  # another network is not held up
    wrong(guard, "::ffff:10.0.0.9", PIN_TRIES, 0.0)
    assert "try again" in (guard.check("10.0.0.9", PIN, 1.0) or "")


def test_more_addresses_than_are_kept_never_buy_more_guesses() -> None:
    """Counts are forgotten to make room only once they hold nothing: a guesser with more addresses
    than the board keeps apart shares one count beyond them, and waits with it."""
    guard = PinGuard(PIN)
    for host in range(ADDRESSES_KEPT):
        guard.check(f"10.{host // 256}.{host % 256}.1", "0000", 0.0)  # one wrong PIN from each: all kept
    extra = [f"10.200.0.{host}" for host in range(PIN_TRIES)]
    for address in extra:
        assert (guard.check(address, "0000", 1.0) or "").startswith("wrong table PIN")
    said = guard.check("10.200.0.200", "0000", 2.0) or ""
    assert "too many wrong PINs from more addresses than the board keeps apart" in said
    wrong(guard, "10.0.0.1", PIN_TRIES - 1, 2.0)  # a kept address goes on with its own count
    assert "too many wrong PINs from this device" in (guard.check("10.0.0.1", PIN, 2.0) or "")
    assert (guard.check("10.0.1.1", PIN, 2.0)) is None  # a kept address with the right PIN is let in
    # Ten quiet minutes: the old counts hold nothing any more, and a new address gets its own again.
    later = 2.0 + PIN_RELAX_S + 60
    assert guard.check("10.201.0.1", PIN, later) is None
    assert (guard.check("10.202.0.1", "0000", later) or "").startswith("wrong table PIN")
    assert "try again" not in (guard.check("10.202.0.1", PIN, later) or "")


def test_a_page_may_send_bursts_but_not_a_flood() -> None:
    rate = MessageRate(0.0)
    allowed = sum(rate.allow(0.0) for _ in range(70))
    assert allowed == MESSAGE_BURST and not rate.abusive  # thirty told to slow down: not yet closed
    assert rate.allow(1.0 / MESSAGES_PER_S)  # tokens come back with time
    for _ in range(REFUSALS_BEFORE_CLOSE):
        rate.allow(1.0 / MESSAGES_PER_S)
    assert rate.abusive  # told to slow down forty times in a row: the page is closed


def test_pages_per_address_are_bounded() -> None:
    count = PageCount()
    assert all(count.open("x") for _ in range(PAGES_PER_ADDRESS))
    assert not count.open("x") and count.open("y")
    count.close("x")
    assert count.open("x")


@pytest.mark.parametrize(("profile", "game", "options"), [("square14", "klotz", {}), ("hex61", "fillit", {})])
def test_the_pin_lights_four_digits_in_the_seat_colours(profile: str, game: str, options: dict) -> None:
    loaded = load_profile(ROOT / "wiring" / f"{profile}.toml")
    state = load_game(game).new_game(seed=0, **options)
    board = board_map(loaded, state.game, state)
    frame = pin_frame(board, PIN)
    lit = {colour: sum(1 for led in frame if led == PLAYER_COLOURS[colour]) for colour in DIGIT_COLOURS}
    assert all(count > 0 for count in lit.values()), lit
    assert sum(lit.values()) + frame.count(OFF) == len(frame)  # nothing else is lit
    # A "1" lights fewer fields than an "8" in the same place: the digits are drawn, not a block.
    ones = pin_frame(board, "1111").count(PLAYER_COLOURS["red"])
    eights = pin_frame(board, "8888").count(PLAYER_COLOURS["red"])
    assert 0 < ones < eights
    with pytest.raises(ValueError, match="four digits"):
        pin_frame(board, "12a4")
    assert set(FONT) == set("0123456789")


@pytest.mark.parametrize(("profile", "game"), [("square14", "klotz"), ("hex61", "fillit")])
def test_the_pin_reads_upright_from_the_south_edge(profile: str, game: str) -> None:
    """A 7's bar is at its top: the northernmost red fields (rank 14 of the square board, row a of
    the hex board, by the boards' notation) hold more of the digit than its southernmost ones."""
    loaded = load_profile(ROOT / "wiring" / f"{profile}.toml")
    state = load_game(game).new_game(seed=0)
    board = board_map(loaded, state.game, state)
    frame = pin_frame(board, "7777")
    red = [name for name, wiring in loaded.fields.items() if frame[wiring.led] == PLAYER_COLOURS["red"]]

    def northness(name: str) -> int:
        return int(name[1:]) if profile == "square14" else -(ord(name[0]) - ord("a"))

    rows = sorted({northness(name) for name in red})
    top = sum(1 for name in red if northness(name) == rows[-1])
    bottom = sum(1 for name in red if northness(name) == rows[0])
    assert top > bottom, (top, bottom, sorted(red))
