"""`tafel diagnose`: the sensor self-test and the LED walk (wiring/README.md, "Bring-up")."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from controller.service.config import load_config
from controller.terminal.cli import main
from controller.terminal.diagnose import WHITE, Diagnosis, run_diagnose
from hal.profile import load_profile
from tests.service.configs import EXAMPLES

SQUARE14 = load_profile("square14")
A1, B1, C1 = (SQUARE14.fields[name].channel for name in ("a1", "b1", "c1"))


class Pixels:
    def __init__(self, size: int) -> None:
        self.size = size
        self.frames: list[list] = []

    def show(self, colours) -> None:
        self.frames.append(list(colours))


class Scans:
    """Scripted scans: each a dict of channel -> reading over an empty board."""

    def __init__(self, scans: list[dict[int, int]]) -> None:
        self.scans = scans

    def scan(self):
        readings = [0] * len(SQUARE14.fields)
        for channel, value in self.scans.pop(0).items():
            readings[channel] = value
        return tuple(readings)


def diagnosis(scans: list[dict[int, int]]) -> tuple[Diagnosis, Pixels, list[str]]:
    pixels = Pixels(SQUARE14.led_count)
    lines: list[str] = []
    backends = SimpleNamespace(sensors=Scans(scans), pixels=pixels)
    found = Diagnosis(backends, SQUARE14, lines.append)  # type: ignore[arg-type]
    for now in range(0, 10 * len(scans), 10):
        found.scan(now)
    return found, pixels, lines


def test_each_change_is_printed_and_lit() -> None:
    _, pixels, lines = diagnosis([{}, {A1: 1}, {}])
    assert lines == [
        f"    0.01 s  channel {A1:>3}  field a1    0 -> 1",
        f"    0.02 s  channel {A1:>3}  field a1    1 -> 0",
    ]
    assert pixels.frames[1][SQUARE14.fields["a1"].led] == WHITE
    assert pixels.frames[2][SQUARE14.fields["a1"].led] != WHITE


def test_the_report_names_stuck_dead_and_shorted_fields() -> None:
    scans = [{C1: 1}, {A1: 1, B1: 1, C1: 1}, {C1: 1}, {A1: 1, B1: 1, C1: 1}, {C1: 1}]
    report = diagnosis(scans)[0].report()
    assert report.always_read == ["c1"]  # a piece, a stuck sensor or a short
    assert ("a1", "b1") in report.together  # swapped or shorted wires
    assert "d1" in report.never_changed
    text = "\n".join(report.lines())
    assert "read a piece the whole time" in text and "always changed together" in text and "never changed" in text


def test_the_simulated_board_passes_the_self_test_and_walks_its_leds() -> None:
    lines: list[str] = []
    report = run_diagnose(load_config(EXAMPLES / "sim.toml"), 1.0, walk=True, out=lines.append)
    assert report.never_changed == [] and report.always_read == [] and report.together == []
    walk = [line for line in lines if line.startswith("  LED ")]
    assert len(walk) == len(SQUARE14.fields) + len(SQUARE14.extra_leds)
    assert "every field changed on its own" in lines[-1]


def test_a_stuck_sensor_on_the_simulated_board_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from sim import board as sim_board

    original = sim_board.SimBoard.__init__

    def stuck_board(self, *args, **kwargs) -> None:
        original(self, *args, **kwargs)
        self.stick((4, 4), 1)  # e5 reads a piece whatever happens

    monkeypatch.setattr(sim_board.SimBoard, "__init__", stuck_board)
    report = run_diagnose(load_config(EXAMPLES / "sim.toml"), 1.0, walk=False, out=lambda line: None)
    assert report.always_read == ["e5"]


def test_the_command_runs_on_the_simulated_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "--config", str(EXAMPLES / "sim.toml")]) == 0
    assert "every field changed on its own" in capsys.readouterr().out


def test_a_missing_configuration_is_a_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "--config", "/nonexistent.toml"]) == 2
    assert "wiring/examples" in capsys.readouterr().err
