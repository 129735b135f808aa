"""`tafel wiring`: the pictures in the wiring guides are drawn from the example configurations, so
they cannot disagree with what the service does; each renders in a real browser with nothing cut off."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from controller.service.config import load_config
from controller.terminal.cli import main
from controller.terminal.wiring_diagram import wiring_svg, wiring_table
from tests.service.configs import EXAMPLES, ROOT
from tests.web.browser import browser_problem, chromium

WIRING = ROOT / "wiring"
# Each drawn example and the guide that shows it.
GUIDES = {
    "gpio-shift": "square14.md",
    "gpio-mux": "square14.md",
    "gpio-analog": "hex61.md",
    "rp2040": "README.md",
}
SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    return ["".join(node.itertext()) for node in ET.fromstring(svg).iter(f"{SVG}text")]


@pytest.mark.parametrize("example", sorted(GUIDES))
def test_each_guide_shows_the_diagram_drawn_from_its_example(example: str) -> None:
    drawn = wiring_svg(load_config(EXAMPLES / f"{example}.toml"))
    committed = (WIRING / "diagrams" / f"{example}.svg").read_text(encoding="utf-8")
    redraw = f"tafel wiring wiring/examples/{example}.toml --svg -o wiring/diagrams/{example}.svg"
    assert committed == drawn, f"redraw it: {redraw}"
    assert f"](diagrams/{example}.svg)" in (WIRING / GUIDES[example]).read_text(encoding="utf-8")


@pytest.mark.parametrize("example", sorted(GUIDES))
def test_the_diagram_names_every_pin_the_service_claims_and_every_field(example: str) -> None:
    config = load_config(EXAMPLES / f"{example}.toml")
    words = "\n".join(texts(wiring_svg(config)))
    strip = config.neopixel.claims() if config.neopixel is not None and config.leds.backend == "neopixel" else []
    for gpio in config.gpio.check_pins(strip):
        assert f"GPIO{gpio} · " in words, gpio
    for name in config.profile.fields:
        assert name in words.split("\n")
    first = min(config.profile.fields, key=config.profile.led_of)
    assert f"DIN: LED 0 ({first})" in words
    for name in config.profile.extra_leds:
        assert name.replace("_", " ") in words


def test_a_changed_wiring_changes_the_picture(tmp_path: Path) -> None:
    text = (EXAMPLES / "gpio-mux.toml").read_text().replace("menu = 14", "menu = 15")
    (tmp_path / "config.toml").write_text(text)
    words = texts(wiring_svg(load_config(tmp_path / "config.toml")))
    assert "GPIO15 · menu button" in words and "GPIO14 · menu button" not in words


def test_the_shared_spi_bus_is_drawn_as_wired() -> None:
    analog = wiring_table(load_config(EXAMPLES / "gpio-analog.toml"))
    assert "GPIO10  SPI0 MOSI: LED strip data and MCP3008" in analog
    assert "GPIO8   SPI0 CE0: LED strip gate" in analog
    words = texts(wiring_svg(load_config(EXAMPLES / "gpio-analog.toml")))
    assert "GPIO8 (CE0)" in words  # the level shifter's enable is the strip's chip select
    mux = wiring_table(load_config(EXAMPLES / "gpio-mux.toml"))
    assert "GPIO8   SPI0 CE0, no wire (the kernel's)" in mux and "GPIO14  menu button" in mux
    alone = texts(wiring_svg(load_config(EXAMPLES / "gpio-mux.toml")))
    assert "always on" in alone and "GPIO8 (CE0)" not in alone  # the strip alone: 1OE to GND, no gate
    assert "on only for LED frames; 10 kΩ from 1Y to GND" in words


def test_tafel_wiring_writes_the_svg_and_names_a_bad_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mux.svg"
    assert main(["wiring", str(EXAMPLES / "gpio-mux.toml"), "--svg", "--output", str(out)]) == 0
    assert out.read_text() == (WIRING / "diagrams" / "gpio-mux.svg").read_text()
    assert main(["wiring", str(EXAMPLES / "gpio-mux.toml")]) == 0
    assert "pin  8  GPIO14  menu button" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text((EXAMPLES / "gpio-mux.toml").read_text().replace("menu = 14", "menu = 5"))
    assert main(["wiring", str(bad)]) == 2
    error = capsys.readouterr().err
    assert "GPIO5 (pin 29) is used twice: for multiplexer 0 signal and for menu button" in error
    assert "Traceback" not in error
    assert main(["wiring", str(EXAMPLES / "gpio-mux.toml"), "--svg", "-o", str(tmp_path / "no" / "x.svg")]) == 1
    assert "cannot write" in capsys.readouterr().err


@pytest.mark.skipif(browser_problem() is not None, reason=f"browser tests: {browser_problem()}")
def test_every_diagram_renders_in_chromium_with_nothing_cut_off() -> None:
    with chromium(1700, 1400) as driver:
        for example in sorted(GUIDES):
            driver.get((WIRING / "diagrams" / f"{example}.svg").as_uri())
            outside = driver.execute_script(
                """const svg = document.documentElement;
                const w = svg.viewBox.baseVal.width, h = svg.viewBox.baseVal.height;
                const texts = [...svg.querySelectorAll('text')];
                if (texts.length === 0) return ['no text drawn'];
                return texts.filter(t => { const b = t.getBBox();
                    return b.width === 0 || b.x < 0 || b.y < 0 || b.x + b.width > w || b.y + b.height > h; })
                    .map(t => t.textContent);"""
            )
            assert outside == [], (example, outside)
