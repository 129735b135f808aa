"""The builder docs stay true: every configuration in wiring/*.md loads and fits its board profile,
every pin table names the right header pins and exactly the GPIOs its configuration uses, and the
field-by-field tables match the profiles' channel order."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

import hal.gpio
from hal.gpio import AnalogMuxWiring, GpioConfig
from hal.neopixel import NeoPixelWiring
from hal.pins import HEADER
from hal.profile import load_profile
from tests.hal.virtual import VirtualAnalogBoard

WIRING = Path(__file__).resolve().parents[2] / "wiring"
BOARDS = ("square14", "hex61")
ROW = re.compile(r"^\|(?P<use>[^|]*)\| (?P<name>3V3|5V|GND|GPIO\d+) \| (?P<pin>\d+) \|$")
TOML = re.compile(r"```toml\n(.*?)```", re.S)


def sections(board: str) -> dict[str, str]:
    """The `## Option ...` sections of a board guide."""
    text = (WIRING / f"{board}.md").read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)
    return {part.splitlines()[0]: part for part in parts[1:] if part.startswith("Option")}


def options() -> list[tuple[str, str, str]]:
    return [(board, title, body) for board in BOARDS for title, body in sections(board).items()]


def test_every_board_guide_has_options() -> None:
    assert {board for board, _, _ in options()} == set(BOARDS)
    assert len(options()) == 5


@pytest.mark.parametrize(("board", "title", "body"), options(), ids=lambda value: str(value)[:20])
def test_option_configuration_fits_the_board(board: str, title: str, body: str) -> None:
    blocks = TOML.findall(body)
    assert len(blocks) == 1, f"{board} {title}: one configuration block"
    data = tomllib.loads(blocks[0])
    where = f"wiring/{board}.md {title}"
    gpio = GpioConfig.from_mapping(data["gpio"], f"{where} [gpio]")
    neopixel = NeoPixelWiring.from_mapping(data["neopixel"], f"{where} [neopixel]")
    used = gpio.check_pins(neopixel.claims())
    profile = load_profile(board)
    assert gpio.scanner is not None
    gpio.scanner.check_channels(profile.channels, profile.name)
    model = re.search(r"^Sensor model: `(\w+)`$", body, re.M)
    assert model, f"{where}: names its sensor model"
    if isinstance(gpio.scanner, AnalogMuxWiring):
        gpio.scanner.check_model(model.group(1), profile.count_cap, profile.name)
    # The pin table lists exactly the GPIOs the configuration uses, at the right header pins.
    rows = [ROW.match(line) for line in body.splitlines()]
    table = [row for row in rows if row]
    for row in table:
        assert HEADER[int(row["pin"])] == row["name"], f"{where}: {row['name']} is not on pin {row['pin']}"
    assert {int(row["name"][4:]) for row in table if row["name"].startswith("GPIO")} == set(used)


def test_readme_header_table_matches_the_header() -> None:
    text = (WIRING / "README.md").read_text(encoding="utf-8")
    pairs = re.findall(r"^\|[^|]*\| (\S+) \| (\d+) \| (\d+) \| (\S+) \|[^|]*\|$", text, re.M)
    assert len(pairs) == 20
    for left, odd, even, right in pairs:
        assert (HEADER[int(odd)], HEADER[int(even)]) == (left, right)


def field_rows(board: str, size: int) -> list[str]:
    """`| k | … | 16k–16k+15 | fields |` endings expected for groups of `size` channels."""
    profile = load_profile(board)
    by_channel = {wiring.channel: name for name, wiring in profile.fields.items()}
    rows = []
    for group in range(-(-profile.channels // size)):
        first = group * size
        names = " ".join(by_channel.get(channel, "–") for channel in range(first, first + size))
        rows.append(f"| {first}–{first + size - 1} | {names} |")
    return rows


@pytest.mark.parametrize(("board", "size"), [("square14", 8), ("square14", 16), ("hex61", 16)])
def test_field_tables_follow_the_profile(board: str, size: int) -> None:
    text = (WIRING / f"{board}.md").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    for group, ending in enumerate(field_rows(board, size)):
        assert any(line.startswith(f"| {group} |") and line.endswith(ending) for line in lines), ending


def test_the_calibration_snippet_runs(
    factory: MockFactory, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (WIRING / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Calibrating analog sensors") :]
    snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    example = WIRING / "examples" / "gpio-analog.toml"  # the hex board of wiring/hex61.md, option A
    assert '"/etc/tafel/config.toml"' in snippet
    board = VirtualAnalogBoard(factory, (5, 6, 13, 26), ((1, 0), (1, 1), (1, 2), (1, 3)))  # the ADC on CE1
    profile = load_profile("hex61")
    board.volts = {profile.channel_of("e4"): 0.62, profile.channel_of("i5"): 0.41}
    monkeypatch.setattr(hal.gpio, "make_pin_factory", lambda name: factory)  # the Pi's pins, mocked
    exec(snippet.replace('"/etc/tafel/config.toml"', repr(str(example))), {})
    # 10-bit ADC values: an empty field's 0.5 is 512 / 1023.
    assert capsys.readouterr().out.splitlines() == ["a1 0.001", "e4 0.12", "i5 -0.09"]
