"""Fixtures for the hardware backends: a fresh gpiozero MockFactory per test, also installed as
gpiozero's default (its software SPI bus opens its pins through the default factory)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hal.profile import BoardProfile, load_profile


@pytest.fixture
def factory(monkeypatch: pytest.MonkeyPatch) -> Iterator[MockFactory]:
    mock = MockFactory()  # a Pi 3B: the 40-pin header of every current model
    monkeypatch.setattr(Device, "pin_factory", mock)
    yield mock
    mock.reset()


@pytest.fixture(scope="session")
def hex61() -> BoardProfile:
    return load_profile("hex61")


@pytest.fixture(scope="session")
def square14() -> BoardProfile:
    return load_profile("square14")
