"""Board profiles (`wiring/<board>.toml`): which sensor channel and which LED sit under each field.

The loader validates everything and names the file and line of every problem, because a maker
editing a profile by hand needs to know exactly where the mistake is. Field names are kept as the
board's notation (e.g. `a1`); the controller turns them into game cells with the board geometry.

Format:

    [board]
    name = "square14"
    geometry = "square"      # "square" (width, height) or "hex" (radius)
    width = 14
    height = 14
    channels = 196           # sensor channels scanned
    led_count = 201
    colour_order = "GRB"     # byte order the LED strip expects
    brightness = 0.4         # 0..1
    sensor_model = "binary"  # default model: binary, count, signed, signed_count
    count_cap = 3            # highest count an analog sensor resolves

    [extra_leds]             # LEDs that are not under a field
    status = 196

    [fields]                 # one line per field: name = { channel = N, led = N }
    a1 = { channel = 0, led = 0 }
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hal.sensors import MODEL_NAMES

GEOMETRIES = ("square", "hex")
COLOUR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
PROFILE_DIR = Path(__file__).resolve().parent.parent / "wiring"


def key_line(lines: Sequence[str], key: str | None, section: str | None = None) -> int | None:
    """The line (from 1) where `key` is defined in TOML `lines` (inside `[section]` if given), or the
    line of the `[section]` header itself when `key` is None; for error messages that point a person
    editing the file at the right place."""
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=") if key is not None else None
    header = f"[{section}]" if section is not None else None
    in_section = section is None
    for number, line in enumerate(lines, start=1):
        stripped = line.split("#", 1)[0].strip() if line.lstrip().startswith("[") else line.strip()
        if stripped.startswith("["):
            if pattern is None and stripped == header:
                return number
            in_section = section is None or stripped == header
            continue
        if pattern is not None and in_section and pattern.match(line):
            return number
    return None


class ProfileError(ValueError):
    """A problem in a board profile, with the file and (where known) the line."""


@dataclass(frozen=True, slots=True)
class FieldWiring:
    channel: int
    led: int


@dataclass(frozen=True)
class BoardProfile:
    name: str
    geometry: str
    size: tuple[int, ...]  # (width, height) for square boards, (radius,) for hex boards
    channels: int
    led_count: int
    colour_order: str
    brightness: float
    sensor_model: str
    count_cap: int
    fields: Mapping[str, FieldWiring]
    extra_leds: Mapping[str, int]
    source: str

    def channel_of(self, field: str) -> int:
        return self.fields[field].channel

    def led_of(self, field: str) -> int:
        return self.fields[field].led


def profile_path(name_or_path: str | Path) -> Path:
    """A profile by board name (looked up in wiring/) or by path."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        return path
    return PROFILE_DIR / f"{name_or_path}.toml"


def load_profile(name_or_path: str | Path) -> BoardProfile:
    path = profile_path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ProfileError(f"{path}: cannot read board profile: {error.strerror or error}") from None
    return parse_profile(text, str(path))


def parse_profile(text: str, source: str = "<profile>") -> BoardProfile:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"{source}: not valid TOML: {error}") from None
    return _Checker(text, source).profile(data)


class _Checker:
    def __init__(self, text: str, source: str) -> None:
        self._lines = text.splitlines()
        self._source = source

    def _line(self, key: str, section: str | None = None) -> int | None:
        return key_line(self._lines, key, section)

    def error(self, message: str, key: str | None = None, section: str | None = None) -> ProfileError:
        line = self._line(key, section) if key is not None else None
        where = f"{self._source}:{line}" if line is not None else self._source
        return ProfileError(f"{where}: {message}")

    def _int(self, table: Mapping[str, Any], key: str, section: str, minimum: int = 0) -> int:
        if key not in table:
            raise self.error(f"[{section}] lacks the key {key!r}")
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.error(f"[{section}] {key} must be a whole number >= {minimum}, not {value!r}", key, section)
        return value

    def profile(self, data: Mapping[str, Any]) -> BoardProfile:
        board = data.get("board")
        if not isinstance(board, Mapping):
            raise self.error("missing the [board] table")
        name = board.get("name")
        if not isinstance(name, str) or not name:
            raise self.error("[board] name must be a non-empty string", "name", "board")
        geometry = board.get("geometry")
        if geometry not in GEOMETRIES:
            raise self.error(
                f"[board] geometry must be one of {', '.join(GEOMETRIES)}, not {geometry!r}", "geometry", "board"
            )
        if geometry == "square":
            size: tuple[int, ...] = (self._int(board, "width", "board", 1), self._int(board, "height", "board", 1))
        else:
            size = (self._int(board, "radius", "board", 1),)
        channels = self._int(board, "channels", "board", 1)
        led_count = self._int(board, "led_count", "board", 1)
        order = board.get("colour_order", "GRB")
        if order not in COLOUR_ORDERS:
            raise self.error(
                f"[board] colour_order must be one of {', '.join(COLOUR_ORDERS)}, not {order!r}",
                "colour_order",
                "board",
            )
        brightness = board.get("brightness", 0.4)
        if isinstance(brightness, bool) or not isinstance(brightness, int | float) or not 0 < brightness <= 1:
            raise self.error(
                f"[board] brightness must be a number in (0, 1], not {brightness!r}", "brightness", "board"
            )
        model = board.get("sensor_model", "binary")
        if model not in MODEL_NAMES:
            raise self.error(
                f"unknown sensor model {model!r} (models: {', '.join(MODEL_NAMES)})", "sensor_model", "board"
            )
        cap = self._int(board, "count_cap", "board", 1) if "count_cap" in board else 3
        fields = self._fields(data.get("fields"), channels, led_count)
        extras = self._extras(data.get("extra_leds", {}), led_count, fields)
        return BoardProfile(
            name,
            geometry,
            size,
            channels,
            led_count,
            order,
            float(brightness),
            model,
            cap,
            fields,
            extras,
            self._source,
        )

    def _fields(self, table: Any, channels: int, led_count: int) -> dict[str, FieldWiring]:
        if not isinstance(table, Mapping) or not table:
            raise self.error("missing the [fields] table (one line per field: a1 = { channel = 0, led = 0 })")
        fields: dict[str, FieldWiring] = {}
        channel_owner: dict[int, str] = {}
        led_owner: dict[int, str] = {}
        for name, entry in table.items():
            if not isinstance(entry, Mapping):
                raise self.error(f"field {name}: expected {{ channel = N, led = N }}", name, "fields")
            for key in ("channel", "led"):
                if key not in entry:
                    raise self.error(f"field {name}: missing key {key!r}", name, "fields")
            unknown = sorted(set(entry) - {"channel", "led"})
            if unknown:
                raise self.error(f"field {name}: unknown key(s) {', '.join(unknown)}", name, "fields")
            channel, led = entry["channel"], entry["led"]
            for key, value, limit in (("channel", channel, channels), ("led", led, led_count)):
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
                    raise self.error(f"field {name}: {key} {value!r} is out of range 0..{limit - 1}", name, "fields")
            if channel in channel_owner:
                raise self.error(
                    f"field {name}: duplicate channel {channel} (also used by {channel_owner[channel]})", name, "fields"
                )
            if led in led_owner:
                raise self.error(f"field {name}: duplicate LED {led} (also used by {led_owner[led]})", name, "fields")
            channel_owner[channel] = name
            led_owner[led] = name
            fields[name] = FieldWiring(channel, led)
        return fields

    def _extras(self, table: Any, led_count: int, fields: Mapping[str, FieldWiring]) -> dict[str, int]:
        if not isinstance(table, Mapping):
            raise self.error("[extra_leds] must be a table of name = LED index")
        used = {wiring.led: name for name, wiring in fields.items()}
        extras: dict[str, int] = {}
        for name, led in table.items():
            if isinstance(led, bool) or not isinstance(led, int) or not 0 <= led < led_count:
                raise self.error(
                    f"extra LED {name}: index {led!r} is out of range 0..{led_count - 1}", name, "extra_leds"
                )
            if led in used:
                raise self.error(
                    f"extra LED {name}: duplicate LED {led} (also used by {used[led]})", name, "extra_leds"
                )
            used[led] = name
            extras[name] = led
        return extras
