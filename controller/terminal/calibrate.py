"""`tafel calibrate`: measure an analog hall board and choose its thresholds.

The builder goes through a few rounds: the board empty, then one magnet (each pole in turn), then
stacks of two and three (up to the profile's `count_cap`), each time moving the magnets over every
field. For every
field the strongest reading of the round is kept (the magnet resting on it); for each count the
weakest field decides. The thresholds lie halfway between the counts (`hal.gpio.thresholds_between`),
and the report names the fields whose readings come too close to a threshold (a weak sensor, a
magnet too far away, a sensor off-centre) — those fields would flicker or miscount.

The thresholds belong to the scanner's wiring (`[gpio.analog] thresholds` in the service
configuration), so `--write` puts them there. On the simulated board the virtual hands put the
magnets, on a simulated analog board whose sensors differ in gain and offset as real ones do.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from controller.files import UnreadableFile, read_text
from controller.service.config import Config
from controller.service.disk import atomic_write, trouble_of
from hal.gpio.analog import AnalogMuxScanner, thresholds_between
from hal.gpio.wiring import AnalogMuxWiring

STEP = 0.08  # one magnet's field at the sensor, as a fraction of the ADC's full scale (simulation)
ZERO = 0.5


class SimAnalogBoard:
    """Analog hall sensors under a board (simulated): the reading of a field is its sensor's zero
    plus its gain times the sum of the magnets' poles, plus a little noise."""

    def __init__(self, channels: int, seed: int = 0, weak: dict[int, float] | None = None) -> None:
        rng = random.Random(seed)
        self._rng = rng
        self.gain = [rng.uniform(0.94, 1.06) for _ in range(channels)]  # tolerances, off-centre pieces
        self.offset = [rng.uniform(-0.006, 0.006) for _ in range(channels)]
        for channel, gain in (weak or {}).items():
            self.gain[channel] = gain
        self.poles = [0] * channels  # sum of the magnets' poles on each field

    def raw_scan(self) -> tuple[float, ...]:
        return tuple(
            ZERO + self.offset[ch] + self.gain[ch] * STEP * poles + self._rng.gauss(0, 0.001)
            for ch, poles in enumerate(self.poles)
        )


@dataclass
class Calibration:
    zero: float
    magnitudes: list[float]  # per count 0, 1, 2 ...: the weakest field's strength (count 0: the noisiest)
    thresholds: tuple[float, ...]
    tight: list[tuple[str, int, float]]  # (field, count, margin) too close to a threshold
    hysteresis: float

    def lines(self) -> list[str]:
        out = [
            "weakest field per count (count 0: the noisiest): "
            + ", ".join(f"{k}: {m:.3f}" for k, m in enumerate(self.magnitudes)),
            "thresholds = [" + ", ".join(f"{t:.4f}" for t in self.thresholds) + "]",
        ]
        if self.tight:
            out.append(
                f"fields too close to a threshold (margin under {2 * self.hysteresis:.3f}; check the sensor, "
                "the magnet's height and the field's centre): "
                + ", ".join(f"{name} with {count} ({margin:.3f})" for name, count, margin in self.tight)
            )
        else:
            out.append("every field reads every count clear of the thresholds")
        return out


def calibrate(rounds: list[dict[str, float]], zero: float, hysteresis: float) -> Calibration:
    """`rounds[k]`: per field, |reading - zero| with k magnets (round 0: the empty board's noise).

    Each threshold lies halfway between the strongest field with k magnets and the weakest with
    k + 1 (`thresholds_between` of that pair), so one set of thresholds serves every field; a field
    closer than twice the hysteresis to a threshold (or on the wrong side of it) is reported.
    """
    magnitudes = [max(rounds[0].values())] + [min(strengths.values()) for strengths in rounds[1:]]
    thresholds = tuple(
        thresholds_between([max(rounds[k].values()), min(rounds[k + 1].values())])[0]
        if max(rounds[k].values()) < min(rounds[k + 1].values())
        else round((max(rounds[k].values()) + min(rounds[k + 1].values())) / 2, 4)  # overlapping: reported below
        for k in range(len(rounds) - 1)
    )
    bounds = [0.0, *thresholds, float("inf")]
    tight = []
    for count, strengths in enumerate(rounds):
        low, high = bounds[count], bounds[count + 1]
        for name, strength in strengths.items():
            margin = min(strength - low if count else float("inf"), high - strength)
            if margin < 2 * hysteresis:
                tight.append((name, count, round(margin, 4)))
    return Calibration(zero, magnitudes, thresholds, sorted(tight), hysteresis)


def run_calibrate(
    config: Config,
    out: Callable[[str], None] = print,
    ask: Callable[[str], str] = input,
    write: bool = False,
    board: SimAnalogBoard | None = None,
) -> Calibration:
    """Go through the rounds on the board `config` describes (the simulated one: `board`, or a
    SimAnalogBoard), then report, and with `write` store the thresholds in the configuration."""
    profile = config.profile
    names = {wiring.channel: name for name, wiring in profile.fields.items() if wiring.channel is not None}
    scanner = config.gpio.scanner
    analog = scanner if isinstance(scanner, AnalogMuxWiring) else None  # else: the simulated analog board
    simulated = analog is None
    hysteresis = analog.hysteresis if analog is not None else 0.01
    zero = analog.zero if analog is not None else ZERO
    # As many thresholds as the sensor model needs: one (a piece or none, either pole) or one per
    # count up to the profile's count_cap.
    cap = profile.count_cap if "count" in config.sensor_model else 1
    sim: SimAnalogBoard | None = None
    sensors: AnalogMuxScanner | None = None
    if simulated:
        sim = board or SimAnalogBoard(len(profile.fields), seed=config.sim.seed)
        out("calibrating the simulated analog board: the virtual hands put the magnets")
    else:
        from hal.gpio import open_gpio

        opened = open_gpio(config.gpio, profile)
        assert isinstance(opened.sensors, AnalogMuxScanner)  # the wiring is analog
        sensors = opened.sensors
    rounds: list[dict[str, float]] = []
    try:
        for count in range(cap + 1):
            strengths: dict[str, float] = {}
            for pole in (1, -1) if count == 1 else (1,):  # one magnet: each pole in turn
                what = (
                    "the board empty"
                    if count == 0
                    else f"{count} magnet{'s' if count > 1 else ''}, {'north' if pole > 0 else 'south'} down"
                )
                found: dict[str, float] = {}
                if sim is not None:
                    for channel, name in names.items():
                        sim.poles = [0] * len(sim.poles)
                        sim.poles[channel] = pole * count
                        found[name] = abs(sim.raw_scan()[channel] - zero)
                else:
                    ask(f"{what}: move {'nothing' if count == 0 else 'them'} over every field, then press Enter ")
                    for _ in range(50):  # the strongest of a few scans per field: the magnet resting on it
                        assert sensors is not None
                        values = sensors.raw_scan()
                        for channel, name in names.items():
                            found[name] = max(found.get(name, 0.0), abs(values[channel] - zero))
                for name, strength in found.items():  # the weaker pole decides
                    strengths[name] = min(strengths.get(name, strength), strength)
                out(f"round {count}: {what}: {len(found)} fields read")
            rounds.append(strengths)
    finally:
        if sim is None:
            opened.close()
    result = calibrate(rounds, zero, hysteresis)
    for line in result.lines():
        out(line)
    if write:
        out(write_thresholds(Path(config.source), result.thresholds))
    return result


def write_thresholds(path: Path, thresholds: tuple[float, ...]) -> str:
    """Put the thresholds into the configuration's `[gpio.analog]` table (other lines stay). The file
    is replaced whole, so a power cut leaves the old configuration or the new, never half of one."""
    line = "thresholds = [" + ", ".join(f"{t:.4f}" for t in thresholds) + "]"
    path = Path(os.path.realpath(path))  # a configuration linked from elsewhere is changed there, the link kept
    try:
        text = read_text(path, "the configuration")
    except UnreadableFile as error:
        return f"{error}: add  {line}  to its [gpio.analog] table"
    section = re.search(r"^\[gpio\.analog\][^\n]*\n(?:(?!\[)[^\n]*\n?)*", text, re.M)  # up to the next table
    if section is None:
        return f"{path} has no [gpio.analog] table: add  {line}  to it"
    body = section.group(0)
    if re.search(r"^thresholds\s*=.*$", body, re.M):
        body = re.sub(r"^thresholds\s*=.*$", line, body, count=1, flags=re.M)
    else:
        body = body.rstrip("\n") + "\n" + line + "\n\n"
    try:
        kept = os.stat(path)
        changed = text[: section.start()] + body + text[section.end() :]
        atomic_write(path, changed.encode("utf-8"), stat.S_IMODE(kept.st_mode))
        with contextlib.suppress(OSError):  # as its owner had it (calibrate may run as root)
            os.chown(path, kept.st_uid, kept.st_gid)
    except OSError as error:
        return f"{path} cannot be written ({trouble_of(error)}): add  {line}  to its [gpio.analog] table"
    return f"wrote {line} to [gpio.analog] in {path}"
