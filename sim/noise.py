"""Sensor noise for the simulated board: contact bounce, single-scan flicker, dropped scans, scanner
outages, and stuck channels. Seeded, so a noisy game replays exactly."""

from __future__ import annotations

import random
from dataclasses import dataclass

LEVELS = ("none", "low", "high", "rough")


@dataclass(frozen=True)
class NoiseProfile:
    bounce_ms: int  # after a change, a channel may toggle between old and new for up to this long
    flicker: float  # chance per scan that one random channel reads wrong for that scan only
    drop: float  # chance per scan that the scan is lost
    # Chance per scan that the scanner goes silent for `outage_ms` (a bus or driver hiccup): every
    # change meanwhile is first seen at once when it comes back, in no telling order.
    outage: float = 0.0
    outage_ms: tuple[int, int] = (100, 600)


NOISE_LEVELS: dict[str, NoiseProfile] = {
    "none": NoiseProfile(0, 0.0, 0.0),
    "low": NoiseProfile(10, 0.01, 0.005),
    "high": NoiseProfile(20, 0.05, 0.02),
    "rough": NoiseProfile(20, 0.05, 0.02, outage=0.002),  # the high mix with an outage every ~5 s
}


def noise_profile(level: str) -> NoiseProfile:
    try:
        return NOISE_LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown noise level {level!r} (levels: {', '.join(LEVELS)})") from None


class Noise:
    """Applies a noise profile to true readings, scan by scan."""

    def __init__(self, profile: NoiseProfile, seed: int = 0) -> None:
        self.profile = profile
        self._rng = random.Random(seed)
        self.stuck: dict[int, int] = {}  # channel -> the value it always reads
        self._silent_until = -1

    def dropped(self, now: int) -> bool:
        """Whether the scan at `now` is lost: dropped alone, or in an outage."""
        profile = self.profile
        if now < self._silent_until:
            return True
        if profile.outage > 0 and self._rng.random() < profile.outage:  # (off: no draw, seeds replay)
            self._silent_until = now + self._rng.randint(*profile.outage_ms)
            return True
        return profile.drop > 0 and self._rng.random() < profile.drop

    def silence(self, until: int) -> None:
        """Lose every scan until `until` (an outage at a moment a test chooses)."""
        self._silent_until = until

    def bounce_window(self) -> int:
        return self._rng.randint(0, self.profile.bounce_ms) if self.profile.bounce_ms else 0

    def bouncing_value(self, old: int, new: int) -> int:
        return old if self._rng.random() < 0.5 else new

    def flicker_channel(self, channels: int) -> int | None:
        if self.profile.flicker > 0 and self._rng.random() < self.profile.flicker:
            return self._rng.randrange(channels)
        return None

    @staticmethod
    def flickered(value: int) -> int:
        if value == 0:
            return 1
        return 0
