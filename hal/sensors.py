"""Sensor models: what one field's sensor reads for the magnets standing on it.

`magnets` lists the poles facing the sensor (+1 / -1), bottom piece first. The expected readings of a
whole position come from the game's occupancy through one of these models.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

SensorModel = Callable[[Sequence[int]], int]


def binary(magnets: Sequence[int]) -> int:
    """Reed switch or digital hall: 1 if any magnet is there."""
    return 1 if magnets else 0


def count_model(cap: int) -> SensorModel:
    """Analog hall with calibrated thresholds: the number of magnets, capped at `cap`."""

    def count(magnets: Sequence[int]) -> int:
        return min(len(magnets), cap)

    return count


def signed(magnets: Sequence[int]) -> int:
    """Bipolar analog hall: the pole of the magnet nearest the sensor (the bottom piece), 0 if none."""
    return magnets[0] if magnets else 0


def signed_count_model(cap: int) -> SensorModel:
    """Bipolar analog hall with thresholds: bottom pole times the number of magnets (capped)."""

    def signed_count(magnets: Sequence[int]) -> int:
        return magnets[0] * min(len(magnets), cap) if magnets else 0

    return signed_count


MODEL_NAMES: tuple[str, ...] = ("binary", "count", "signed", "signed_count")


def sensor_model(name: str, cap: int = 3) -> SensorModel:
    """The model called `name`; a clear error for an unknown one."""
    if name == "binary":
        return binary
    if name == "count":
        return count_model(cap)
    if name == "signed":
        return signed
    if name == "signed_count":
        return signed_count_model(cap)
    raise ValueError(f"unknown sensor model {name!r} (models: {', '.join(MODEL_NAMES)})")
