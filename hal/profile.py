"""Board profiles (`wiring/<board>.toml`): which sensor channel and which LED sit under each field.

The loader validates everything and names the file and line of every problem, because a maker
editing a profile by hand needs to know exactly where the mistake is. Field names are kept as the
board's notation (e.g. `a1`) and must name a field of the declared geometry; the controller turns
them into game cells with the board geometry.

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

A card table has no piece sensors: geometry "rail" is a row of LEDs along Zillertal's Valley, one per
dotted line, named `L<line>` from `first` to `last` (Zodiac needs no rail). `channels` may be left out
(no sensors; then fields have no channel). Seat zones are groups of LEDs in front of the seats:

    [board]
    name = "cards"
    geometry = "rail"
    first = -20              # the dotted lines the rail covers: L-20 .. L20
    last = 20
    led_count = 66

    [seat_zones]             # any board may have them: name = [first LED, number of LEDs]
    seat0 = [41, 3]

    [fields]
    L-20 = { led = 0 }
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.files import UnreadableFile, read_text
from hal.sensors import MODEL_NAMES

GEOMETRIES = ("square", "hex", "rail")
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
    channel: int | None  # None on a board without sensors (a card table's rail)
    led: int


@dataclass(frozen=True)
class BoardProfile:
    name: str
    geometry: str
    size: tuple[int, ...]  # (width, height) for square boards, (radius,) for hex, (first, last) for a rail
    channels: int
    led_count: int
    colour_order: str
    brightness: float
    sensor_model: str
    count_cap: int
    fields: Mapping[str, FieldWiring]
    extra_leds: Mapping[str, int]
    source: str
    seat_zones: Mapping[str, tuple[int, ...]] = field(default_factory=dict)  # zone name -> its LEDs

    def channel_of(self, field: str) -> int:
        """The sensor channel under `field`; a ValueError for a field without a sensor (a card
        table's rail)."""
        channel = self.fields[field].channel
        if channel is None:
            raise ValueError(f"field {field} of board {self.name} has no sensor")
        return channel

    def led_of(self, field: str) -> int:
        return self.fields[field].led


def names_a_file(name_or_path: str | Path) -> bool:
    """Whether a profile is given by its file: anything with a folder or a suffix (`./mine.toml`,
    `boards/mine`); a board's name (`square14`) has neither and is looked up among the boards."""
    path = Path(name_or_path)
    return bool(path.suffix) or len(path.parts) > 1


def profile_path(name_or_path: str | Path, boards: Path = PROFILE_DIR) -> Path:
    """A profile by board name (looked up in `boards`, wiring/ unless a configuration says) or by path."""
    return Path(name_or_path) if names_a_file(name_or_path) else boards / f"{name_or_path}.toml"


def board_names() -> list[str]:
    """The boards whose profiles come with the project (wiring/*.toml)."""
    return sorted(path.stem for path in PROFILE_DIR.glob("*.toml"))


def load_profile(name_or_path: str | Path) -> BoardProfile:
    path = profile_path(name_or_path)
    try:
        text = read_text(path, "the board profile")
    except UnreadableFile as error:
        if error.missing and not names_a_file(name_or_path):
            raise ProfileError(
                f"no board named {str(name_or_path)!r} (boards: {', '.join(board_names())}; or give a file)"
            ) from None
        raise ProfileError(str(error)) from None
    return parse_profile(text, str(path))


def parse_profile(text: str, source: str = "<profile>") -> BoardProfile:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"{source}: not valid TOML: {error}") from None
    return _Checker(text, source).profile(data)


MAX_COLUMNS, MAX_ROW = 26, 99  # a field is named by a letter and a number of one or two digits
MAX_CHANNELS = (4096, "more sensors than any board's scanner reads")
MAX_LEDS = (4096, "more LEDs than any board's strip has")
_FIELD_TEXT = re.compile(r"([a-z])([1-9][0-9]?)")
_RAIL_TEXT = re.compile(r"L(-?[0-9]+)")


def _field_name_problem(name: str, geometry: str, size: tuple[int, ...]) -> str | None:
    """Why `name` is not a field of the board, or None.

    Square boards use chess-like names (a1 = south-west); hex boards name rows by letter from the
    north and number the hexes of each row from 1 at its west end (F-1 in docs/games/fillit.md).
    Rail positions are dotted lines `L<line>` (Zillertal's Valley). The hal layer cannot use the games'
    grids, so this checks the notation on its own.
    """
    if geometry == "rail":
        first, last = size
        rail = _RAIL_TEXT.fullmatch(name)
        if rail is None or not first <= int(rail.group(1)) <= last or rail.group(1) in ("-0",):
            return f"not a position of the rail (L{first} to L{last})"
        return None
    match = _FIELD_TEXT.fullmatch(name)
    if geometry == "square":
        width, height = size
        corner = f"{chr(ord('a') + width - 1)}{height}"
        if match is None or ord(match.group(1)) - ord("a") >= width or int(match.group(2)) > height:
            return f"not a field of the {width}x{height} board (a1 to {corner})"
        return None
    (radius,) = size
    rows = 2 * radius + 1
    if match is not None:
        row = ord(match.group(1)) - ord("a")
        if row < rows and int(match.group(2)) <= rows - abs(row - radius):
            return None
    last_row = chr(ord("a") + rows - 1)
    return f"not a field of the hex board of radius {radius} (rows a to {last_row}, numbered from 1 at the west end)"


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

    def _signed(self, table: Mapping[str, Any], key: str, section: str) -> int:
        if key not in table:
            raise self.error(f"[{section}] lacks the key {key!r}")
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"[{section}] {key} must be a whole number, not {value!r}", key, section)
        return value

    def _int(
        self, table: Mapping[str, Any], key: str, section: str, minimum: int = 0, maximum: tuple[int, str] | None = None
    ) -> int:
        """A whole number at least `minimum` and, with `maximum` (the bound and why), at most that."""
        if key not in table:
            raise self.error(f"[{section}] lacks the key {key!r}")
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.error(f"[{section}] {key} must be a whole number >= {minimum}, not {value!r}", key, section)
        if maximum is not None and value > maximum[0]:
            bound, reason = maximum
            raise self.error(f"[{section}] {key} must be at most {bound} ({reason}), not {value}", key, section)
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
            width = self._int(board, "width", "board", 1, (MAX_COLUMNS, "columns are named a to z"))
            size: tuple[int, ...] = (width, self._int(board, "height", "board", 1, (MAX_ROW, "rows are named 1 to 99")))
        elif geometry == "hex":
            size = (self._int(board, "radius", "board", 1, ((MAX_COLUMNS - 1) // 2, "its rows are named a to z")),)
        else:
            size = (self._signed(board, "first", "board"), self._signed(board, "last", "board"))
            if size[0] > size[1]:
                raise self.error(f"[board] first ({size[0]}) must not lie after last ({size[1]})", "last", "board")
        if geometry == "rail":
            channels = self._int(board, "channels", "board", 0, MAX_CHANNELS) if "channels" in board else 0
        else:
            channels = self._int(board, "channels", "board", 1, MAX_CHANNELS)
        led_count = self._int(board, "led_count", "board", 1, MAX_LEDS)
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
        fields = self._fields(data.get("fields"), geometry, size, channels, led_count)
        extras = self._extras(data.get("extra_leds", {}), led_count, fields)
        zones = self._zones(data.get("seat_zones", {}), led_count, fields, extras)
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
            zones,
        )

    def _fields(
        self, table: Any, geometry: str, size: tuple[int, ...], channels: int, led_count: int
    ) -> dict[str, FieldWiring]:
        if not isinstance(table, Mapping) or not table:
            raise self.error("missing the [fields] table (one line per field: a1 = { channel = 0, led = 0 })")
        fields: dict[str, FieldWiring] = {}
        channel_owner: dict[int, str] = {}
        led_owner: dict[int, str] = {}
        for name, entry in table.items():
            problem = _field_name_problem(name, geometry, size)
            if problem is not None:
                raise self.error(f"field {name}: {problem}", name, "fields")
            if not isinstance(entry, Mapping):
                shape = "{ led = N }" if channels == 0 else "{ channel = N, led = N }"
                raise self.error(f"field {name}: expected {shape}", name, "fields")
            # A board without sensors (a rail) has no channels; with sensors every field has one.
            needed = ("led",) if channels == 0 else ("channel", "led")
            for key in needed:
                if key not in entry:
                    raise self.error(f"field {name}: missing key {key!r}", name, "fields")
            unknown = sorted(set(entry) - set(needed))
            if unknown:
                extra = " (this board has no sensor channels)" if channels == 0 and "channel" in unknown else ""
                raise self.error(f"field {name}: unknown key(s) {', '.join(unknown)}{extra}", name, "fields")
            channel, led = entry.get("channel"), entry["led"]
            checks = (
                (("led", led, led_count),)
                if channel is None
                else (("channel", channel, channels), ("led", led, led_count))
            )
            for key, value, limit in checks:
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
                    raise self.error(f"field {name}: {key} {value!r} is out of range 0..{limit - 1}", name, "fields")
            if channel is not None and channel in channel_owner:
                raise self.error(
                    f"field {name}: duplicate channel {channel} (also used by {channel_owner[channel]})", name, "fields"
                )
            if led in led_owner:
                raise self.error(f"field {name}: duplicate LED {led} (also used by {led_owner[led]})", name, "fields")
            if channel is not None:
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

    def _zones(
        self, table: Any, led_count: int, fields: Mapping[str, FieldWiring], extras: Mapping[str, int]
    ) -> dict[str, tuple[int, ...]]:
        if not isinstance(table, Mapping):
            raise self.error("[seat_zones] must be a table of name = [first LED, number of LEDs]")
        used = {wiring.led: name for name, wiring in fields.items()}
        used.update({led: name for name, led in extras.items()})
        zones: dict[str, tuple[int, ...]] = {}
        for name, entry in table.items():
            if not _ZONE_TEXT.fullmatch(name):
                raise self.error(f"seat zone {name}: seat zones are named seat0 to seat7", name, "seat_zones")
            if (
                not isinstance(entry, list)
                or len(entry) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in entry)
                or entry[1] < 1
            ):
                raise self.error(
                    f"seat zone {name}: expected [first LED, number of LEDs >= 1], not {entry!r}", name, "seat_zones"
                )
            start, count = entry
            if start < 0 or start + count > led_count:
                raise self.error(
                    f"seat zone {name}: LEDs {start}..{start + count - 1} are out of range 0..{led_count - 1}",
                    name,
                    "seat_zones",
                )
            for led in range(start, start + count):
                if led in used:
                    raise self.error(
                        f"seat zone {name}: duplicate LED {led} (also used by {used[led]})", name, "seat_zones"
                    )
                used[led] = name
            zones[name] = tuple(range(start, start + count))
        return zones


_ZONE_TEXT = re.compile(r"seat[0-7]")
