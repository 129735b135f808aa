"""Sensor models (wiring/README.md, "Sensors and magnets per game"): what one field's sensor reads
for the magnets standing on it."""

import pytest

from hal.sensors import MODEL_NAMES, binary, count_model, sensor_model, signed, signed_count_model

# (magnets bottom first, binary, count cap 3, signed, signed_count cap 3)
CASES = [
    ((), 0, 0, 0, 0),
    ((1,), 1, 1, 1, 1),
    ((-1,), 1, 1, -1, -1),
    ((1, 1), 1, 2, 1, 2),
    ((-1, 1), 1, 2, -1, -2),
    ((1, -1, 1), 1, 3, 1, 3),
    ((-1, -1, -1, -1), 1, 3, -1, -3),
]


@pytest.mark.parametrize(("magnets", "want", "_c", "_s", "_sc"), CASES)
def test_binary_reads_one_for_any_magnet(magnets: tuple, want: int, _c: int, _s: int, _sc: int) -> None:
    assert binary(magnets) == want


@pytest.mark.parametrize(("magnets", "_b", "want", "_s", "_sc"), CASES)
def test_count_reads_the_number_of_magnets_capped(magnets: tuple, _b: int, want: int, _s: int, _sc: int) -> None:
    assert count_model(3)(magnets) == want


@pytest.mark.parametrize(("magnets", "_b", "_c", "want", "_sc"), CASES)
def test_signed_reads_the_pole_of_the_bottom_magnet(magnets: tuple, _b: int, _c: int, want: int, _sc: int) -> None:
    assert signed(magnets) == want


@pytest.mark.parametrize(("magnets", "_b", "_c", "_s", "want"), CASES)
def test_signed_count_reads_bottom_pole_times_count(magnets: tuple, _b: int, _c: int, _s: int, want: int) -> None:
    assert signed_count_model(3)(magnets) == want


def test_the_count_cap_is_configurable() -> None:
    assert count_model(1)((1, 1, 1)) == 1
    assert count_model(5)((1,) * 7) == 5
    assert signed_count_model(2)((-1, 1, 1)) == -2


def test_models_by_name_use_the_cap() -> None:
    assert MODEL_NAMES == ("binary", "count", "signed", "signed_count")
    assert sensor_model("binary") is binary and sensor_model("signed") is signed
    assert sensor_model("count", 2)((1, 1, 1)) == 2
    assert sensor_model("signed_count", 2)((-1, 1, 1)) == -2
    assert sensor_model("count")((1,) * 9) == 3  # default cap


def test_an_unknown_model_names_the_known_ones() -> None:
    with pytest.raises(
        ValueError, match=r"unknown sensor model 'hall' \(models: binary, count, signed, signed_count\)"
    ):
        sensor_model("hall")
