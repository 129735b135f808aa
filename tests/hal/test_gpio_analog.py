"""Analog hall readings: the sensor model's reading from one ADC value, with hysteresis, and the
calibration helper."""

from __future__ import annotations

import pytest

from hal.gpio import AnalogClassifier, thresholds_between


def readings(classifier: AnalogClassifier, values: list[float]) -> list[int]:
    previous, out = 0, []
    for value in values:
        previous = classifier.reading(value, previous)
        out.append(previous)
    return out


@pytest.mark.parametrize(
    ("model", "thresholds", "value", "reading"),
    [
        ("binary", (0.1,), 0.5, 0),
        ("binary", (0.1,), 0.65, 1),
        ("binary", (0.1,), 0.35, 1),  # either pole
        ("signed", (0.1,), 0.65, 1),
        ("signed", (0.1,), 0.35, -1),
        ("signed", (0.1,), 0.55, 0),
        ("count", (0.1, 0.2, 0.3), 0.72, 2),
        ("count", (0.1, 0.2, 0.3), 0.15, 3),
        ("count", (0.1, 0.2, 0.3), 0.99, 3),  # capped at count_cap
        ("signed_count", (0.1, 0.2), 0.25, -2),
        ("signed_count", (0.1, 0.2), 0.62, 1),
    ],
)
def test_models(model: str, thresholds: tuple[float, ...], value: float, reading: int) -> None:
    assert AnalogClassifier(model, thresholds).reading(value) == reading


def test_hysteresis_holds_a_level_near_its_threshold() -> None:
    classifier = AnalogClassifier("binary", (0.1,), hysteresis=0.02)
    # Rises past 0.6 only counts beyond 0.62; falls back only below 0.58.
    assert readings(classifier, [0.5, 0.61, 0.63, 0.61, 0.59, 0.57, 0.61]) == [0, 0, 1, 1, 1, 0, 0]


def test_hysteresis_between_count_levels() -> None:
    classifier = AnalogClassifier("count", (0.1, 0.2), hysteresis=0.02)
    assert readings(classifier, [0.65, 0.71, 0.73, 0.69, 0.67, 0.6]) == [1, 1, 2, 2, 1, 1]


def test_a_pole_swap_is_seen_at_once_when_clear() -> None:
    classifier = AnalogClassifier("signed", (0.1,), hysteresis=0.02)
    assert readings(classifier, [0.7, 0.3, 0.39, 0.41, 0.43]) == [1, -1, -1, -1, 0]


def test_invert_swaps_the_poles_and_zero_moves_the_centre() -> None:
    assert AnalogClassifier("signed", (0.1,), invert=True).reading(0.7) == -1
    assert AnalogClassifier("signed", (0.1,), zero=0.45).reading(0.5) == 0
    assert AnalogClassifier("signed", (0.1,), zero=0.45).reading(0.34) == -1


def test_unknown_model() -> None:
    with pytest.raises(ValueError, match="unknown sensor model 'analog'"):
        AnalogClassifier("analog", (0.1,))


def test_thresholds_between_measured_counts() -> None:
    assert thresholds_between([0.01, 0.21, 0.31, 0.37]) == (0.11, 0.26, 0.34)
    with pytest.raises(ValueError, match="must grow"):
        thresholds_between([0.0, 0.2, 0.15])
    with pytest.raises(ValueError, match="at least 1 magnet"):
        thresholds_between([0.0])
