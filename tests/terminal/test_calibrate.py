"""`tafel calibrate`: thresholds for analog hall boards from measured rounds (wiring/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.service.config import load_config
from controller.terminal.calibrate import SimAnalogBoard, calibrate, run_calibrate, write_thresholds
from controller.terminal.cli import main
from hal.gpio.analog import AnalogClassifier
from hal.profile import load_profile
from tests.service.configs import EXAMPLES

SQUARE14 = load_profile("square14")


def test_thresholds_lie_between_the_strongest_of_one_count_and_the_weakest_of_the_next() -> None:
    rounds = [{"a1": 0.01, "b1": 0.004}, {"a1": 0.07, "b1": 0.09}, {"a1": 0.15, "b1": 0.17}]
    result = calibrate(rounds, 0.5, hysteresis=0.01)
    assert result.thresholds == (0.04, 0.12)  # (0.01 + 0.07) / 2, (0.09 + 0.15) / 2
    assert result.tight == []


def test_a_field_too_close_to_a_threshold_is_named() -> None:
    rounds = [{"a1": 0.01, "b1": 0.01}, {"a1": 0.07, "b1": 0.11}, {"a1": 0.13, "b1": 0.15}]
    result = calibrate(rounds, 0.5, hysteresis=0.01)
    assert ("b1", 1, 0.01) in result.tight and ("a1", 2, 0.01) in result.tight
    assert "fields too close to a threshold" in "\n".join(result.lines())


def count_config(tmp_path: Path) -> Path:
    text = (
        (EXAMPLES / "sim.toml")
        .read_text()
        .replace('profile = "square14"', 'profile = "square14"\nsensor_model = "count"')
    )
    path = tmp_path / "count.toml"
    path.write_text(text.replace('state_dir = "../../.tafel-state"', f'state_dir = "{tmp_path}"'))
    return path


def test_the_simulated_board_calibrates_and_its_thresholds_count_every_field(tmp_path: Path) -> None:
    lines: list[str] = []
    board = SimAnalogBoard(len(SQUARE14.fields), seed=3)
    result = run_calibrate(load_config(count_config(tmp_path)), out=lines.append, board=board)
    assert result.tight == [] and len(result.thresholds) == 3  # count_cap 3
    classify = AnalogClassifier("count", result.thresholds, 0.5, 0.005)
    for channel in range(len(SQUARE14.fields)):
        for count in range(4):
            board.poles = [0] * len(board.poles)
            board.poles[channel] = count
            assert classify.reading(board.raw_scan()[channel], 0) == count
    assert any(line.startswith("thresholds = [") for line in lines)


def test_a_binary_board_needs_one_threshold() -> None:
    result = run_calibrate(load_config(EXAMPLES / "sim.toml"), out=lambda line: None)
    assert len(result.thresholds) == 1 and result.tight == []


def test_a_weak_sensor_is_reported() -> None:
    e5 = SQUARE14.fields["e5"].channel
    board = SimAnalogBoard(len(SQUARE14.fields), seed=3, weak={e5: 0.6})
    result = run_calibrate(load_config(EXAMPLES / "sim.toml"), out=lambda line: None, board=board)
    assert ("e5", 1) in [(name, count) for name, count, _ in result.tight]


def test_write_puts_the_thresholds_into_the_analog_table(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text((EXAMPLES / "gpio-analog.toml").read_text())
    message = write_thresholds(config, (0.045,))
    assert "wrote thresholds = [0.0450]" in message
    text = config.read_text()
    assert "thresholds = [0.0450]" in text
    assert text.count("thresholds =") == (EXAMPLES / "gpio-analog.toml").read_text().count("thresholds =")
    assert load_config(config).gpio.scanner.thresholds == (0.045,)


def test_the_command_runs_on_the_simulated_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "--config", str(EXAMPLES / "sim.toml")]) == 0
    assert "every field reads every count clear of the thresholds" in capsys.readouterr().out
