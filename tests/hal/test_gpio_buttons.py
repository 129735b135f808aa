"""Buttons: our own debounce as a pure function of sampled levels and times, and the button source on
gpiozero's mock pins. No test sleeps: times are passed in."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hal.gpio import ButtonWiring, Debounce, GpioButtons, debounce
from hal.protocols import InputEvent, InputSource


def run(samples: list[tuple[int, bool]], hold_ms: int = 30) -> list[int]:
    """The times at which presses are recognised for (time, pressed) samples."""
    state: Debounce | None = None
    presses = []
    for now, pressed in samples:
        state, fired = debounce(state, pressed, now, hold_ms)
        if fired:
            presses.append(now)
    return presses


def test_a_bouncing_press_counts_once_after_it_held() -> None:
    bounce = [(0, False), (10, True), (12, False), (14, True), (16, False), (18, True), (30, True), (48, True)]
    assert run([*bounce, (60, True), (100, True)]) == [48]  # held since 18 ms: recognised at 48 ms


def test_a_glitch_shorter_than_the_hold_time_is_ignored() -> None:
    assert run([(0, False), (10, True), (20, True), (25, False), (80, False)]) == []


def test_release_must_hold_too_before_the_next_press() -> None:
    samples = [(0, False), (10, True), (40, True), (50, False), (60, True), (95, True)]
    assert run(samples) == [40]  # the 10 ms release at 50 did not count: no second press
    samples = [(0, False), (10, True), (40, True), (50, False), (80, False), (90, True), (120, True)]
    assert run(samples) == [40, 120]


def test_a_button_held_at_start_does_not_fire_until_pressed_again() -> None:
    assert run([(0, True), (50, True), (100, False), (140, False), (150, True), (180, True)]) == [180]


def test_zero_hold_time_reports_at_once() -> None:
    assert run([(0, False), (5, True)], hold_ms=0) == [5]


def test_button_source_polls_debounced_presses(factory: MockFactory) -> None:
    wiring = ButtonWiring(confirm=5, undo=6, menu=13, debounce_ms=30)
    now = [0]
    buttons = GpioButtons(wiring, factory, clock=lambda: now[0])
    assert isinstance(buttons, InputSource)
    confirm, undo, menu = (factory.pin(gpio) for gpio in (5, 6, 13))
    assert buttons.poll() == []  # all released (pulled up)
    confirm.drive_low()
    menu.drive_low()
    assert buttons.poll(now_ms=10) == []
    assert buttons.poll(now_ms=45) == [InputEvent("button", "confirm"), InputEvent("button", "menu")]
    assert buttons.poll(now_ms=60) == []  # still held: no repeat
    confirm.drive_high()
    undo.drive_low()
    now[0] = 100  # without now_ms the injected clock is read
    assert buttons.poll() == []
    now[0] = 130
    assert buttons.poll() == [InputEvent("button", "undo")]
    buttons.close()


def test_only_wired_buttons_are_opened(factory: MockFactory) -> None:
    buttons = GpioButtons(ButtonWiring(undo=6), factory, clock=lambda: 0)
    assert buttons.poll(now_ms=0) == []
    factory.pin(6).drive_low()
    assert buttons.poll(now_ms=5) == []
    assert buttons.poll(now_ms=35) == [InputEvent("button", "undo")]
    assert {pin.info.name for pin in factory.pins.values()} == {"GPIO6"}  # confirm and menu not opened
    buttons.close()


@pytest.mark.parametrize("active_low", [True, False])
def test_button_polarity(factory: MockFactory, active_low: bool) -> None:
    buttons = GpioButtons(ButtonWiring(confirm=5, active_low=active_low, pull_up=active_low), factory)
    pin = factory.pin(5)
    buttons.poll(now_ms=0)
    if active_low:
        pin.drive_low()
    else:
        pin.drive_high()
    buttons.poll(now_ms=1)
    assert buttons.poll(now_ms=40) == [InputEvent("button", "confirm")]
    buttons.close()
