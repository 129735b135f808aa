"""Board profiles (wiring/README.md): the square14 wiring, and loader errors that name file and line."""

import re
from pathlib import Path

import pytest

from controller.games import load_game
from controller.table.board import board_map, field_cells
from hal.profile import PROFILE_DIR, ProfileError, load_profile, parse_profile, profile_path

KLOTZ = load_game("klotz")

# A complete small profile; each test breaks one line of it. Line numbers are 1-based.
TINY = """\
[board]
name = "tiny"
geometry = "square"
width = 2
height = 1
channels = 2
led_count = 3
sensor_model = "count"
count_cap = 2

[extra_leds]
status = 2

[fields]
a1 = { channel = 0, led = 0 }
b1 = { channel = 1, led = 1 }
"""
B1_LINE = 16


def write(tmp_path: Path, text: str, name: str = "board.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str) -> tuple[str, Path]:
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as error:
        load_profile(path)
    return str(error.value), path


# --- square14 --------------------------------------------------------------------------------------
def test_square14_has_196_fields_on_196_channels_and_201_leds() -> None:
    profile = load_profile("square14")
    assert profile.name == "square14"
    assert profile.geometry == "square" and profile.size == (14, 14)
    assert profile.channels == 196 and profile.led_count == 201
    assert profile.colour_order == "GRB" and profile.sensor_model == "binary" and profile.count_cap == 3
    assert 0 < profile.brightness <= 1
    assert len(profile.fields) == 196
    assert sorted(w.channel for w in profile.fields.values()) == list(range(196))
    assert sorted(w.led for w in profile.fields.values()) == list(range(196))


def test_square14_channels_are_row_major_from_a1() -> None:
    profile = load_profile("square14")
    for field, cell in field_cells(profile).items():
        x, y = cell
        assert profile.channel_of(field) == y * 14 + x, field


def test_square14_leds_run_serpentine() -> None:
    profile = load_profile("square14")
    assert [profile.led_of(f) for f in ("a1", "n1", "n2", "a2", "a3", "n14", "a14")] == [0, 13, 14, 27, 28, 182, 195]
    for field, (x, y) in field_cells(profile).items():
        along = x if y % 2 == 0 else 13 - x
        assert profile.led_of(field) == y * 14 + along, field


def test_square14_extra_leds_follow_the_field_leds() -> None:
    profile = load_profile("square14")
    assert dict(profile.extra_leds) == {
        "status": 196,
        "seat_red": 197,
        "seat_blue": 198,
        "seat_yellow": 199,
        "seat_green": 200,
    }


def test_profiles_load_by_name_or_by_path(tmp_path: Path) -> None:
    assert profile_path("square14") == PROFILE_DIR / "square14.toml"
    by_path = load_profile(PROFILE_DIR / "square14.toml")
    assert by_path.fields == load_profile("square14").fields
    tiny = load_profile(write(tmp_path, TINY))
    assert tiny.sensor_model == "count" and tiny.count_cap == 2 and tiny.size == (2, 1)
    assert tiny.source.endswith("board.toml")
    with pytest.raises(ProfileError, match=r"no board named 'squar14' \(boards: cards, hex61, square14; or give"):
        load_profile("squar14")
    # a path stays a path
    with pytest.raises(ProfileError, match=r"cannot read the board profile mine/board\.json: No such file"):
        load_profile("mine/board.json")


def test_defaults_for_optional_board_keys() -> None:
    text = TINY.replace('sensor_model = "count"\n', "").replace("count_cap = 2\n", "")
    profile = parse_profile(text)
    assert profile.sensor_model == "binary" and profile.count_cap == 3
    assert profile.colour_order == "GRB" and profile.brightness == 0.4


# --- loader errors ---------------------------------------------------------------------------------
def test_duplicate_led_names_file_line_and_both_fields(tmp_path: Path) -> None:
    message, path = load_error(tmp_path, TINY.replace("led = 1 }", "led = 0 }"))
    assert message.startswith(f"{path}:{B1_LINE}: ")
    assert "duplicate LED 0" in message and "a1" in message


def test_duplicate_channel_names_file_line_and_both_fields(tmp_path: Path) -> None:
    message, path = load_error(tmp_path, TINY.replace("b1 = { channel = 1", "b1 = { channel = 0"))
    assert message.startswith(f"{path}:{B1_LINE}: ")
    assert "duplicate channel 0" in message and "a1" in message


@pytest.mark.parametrize("key", ["channel", "led"])
def test_missing_field_key_names_file_line_and_key(tmp_path: Path, key: str) -> None:
    broken = "b1 = { led = 1 }" if key == "channel" else "b1 = { channel = 1 }"
    message, path = load_error(tmp_path, TINY.replace("b1 = { channel = 1, led = 1 }", broken))
    assert message.startswith(f"{path}:{B1_LINE}: ")
    assert f"missing key '{key}'" in message


def test_unknown_field_key_is_an_error(tmp_path: Path) -> None:
    message, path = load_error(tmp_path, TINY.replace("led = 1 }", "led = 1, colour = 3 }"))
    assert message.startswith(f"{path}:{B1_LINE}: ") and "unknown key(s) colour" in message


@pytest.mark.parametrize(
    ("broken", "words"),
    [
        ("b1 = { channel = 2, led = 1 }", "channel 2 is out of range 0..1"),
        ("b1 = { channel = -1, led = 1 }", "channel -1 is out of range 0..1"),
        ("b1 = { channel = 1, led = 3 }", "led 3 is out of range 0..2"),
        ('b1 = { channel = 1, led = "1" }', "led '1' is out of range"),
    ],
)
def test_channel_or_led_out_of_range_names_file_and_line(tmp_path: Path, broken: str, words: str) -> None:
    message, path = load_error(tmp_path, TINY.replace("b1 = { channel = 1, led = 1 }", broken))
    assert message.startswith(f"{path}:{B1_LINE}: ") and words in message


@pytest.mark.parametrize("name", ["c1", "a2", "b0", "B1", "bb"])
def test_field_outside_the_board_names_file_and_line(tmp_path: Path, name: str) -> None:
    message, path = load_error(tmp_path, TINY.replace("b1 = {", f"{name} = {{"))
    assert message.startswith(f"{path}:{B1_LINE}: ")
    assert f"field {name}: not a field of the 2x1 board (a1 to b1)" in message


def test_square14_with_a_field_beyond_column_n_fails_at_load(tmp_path: Path) -> None:
    text = (PROFILE_DIR / "square14.toml").read_text(encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), start=1) if row.startswith("n1 = "))
    message, path = load_error(tmp_path, text.replace("\nn1 = ", "\no1 = "))
    assert message.startswith(f"{path}:{line}: ") and "field o1" in message and "a1 to n14" in message


def test_hex_field_names_follow_the_row_lengths() -> None:
    radius_1 = """\
[board]
name = "hex7"
geometry = "hex"
radius = 1
channels = 7
led_count = 7

[fields]
a1 = { channel = 0, led = 0 }
a2 = { channel = 1, led = 1 }
b1 = { channel = 2, led = 2 }
b2 = { channel = 3, led = 3 }
b3 = { channel = 4, led = 4 }
c1 = { channel = 5, led = 5 }
c2 = { channel = 6, led = 6 }
"""
    assert len(parse_profile(radius_1).fields) == 7
    with pytest.raises(ProfileError, match=r"<profile>:10: field a3: not a field of the hex board of radius 1"):
        parse_profile(radius_1.replace("a2 =", "a3 ="))
    with pytest.raises(ProfileError, match=r"<profile>:14: field d1: not a field"):
        parse_profile(radius_1.replace("c1 =", "d1 ="))


def test_unknown_sensor_model_names_file_line_and_the_models(tmp_path: Path) -> None:
    message, path = load_error(tmp_path, TINY.replace('"count"', '"magic"'))
    assert message.startswith(f"{path}:8: ")
    assert "unknown sensor model 'magic'" in message and "binary, count, signed, signed_count" in message


@pytest.mark.parametrize(
    ("old", "new", "line", "words"),
    [
        ('geometry = "square"', 'geometry = "round"', 3, "geometry must be one of square, hex"),
        ("width = 2", "width = 0", 4, "width must be a whole number >= 1"),
        ("height = 1", "height = true", 5, "height must be a whole number >= 1"),
        ("channels = 2", "channels = 2.5", 6, "channels must be a whole number"),
        ('name = "tiny"', 'name = ""', 2, "name must be a non-empty string"),
        ("count_cap = 2", "count_cap = 0", 9, "count_cap must be a whole number >= 1"),
        ("[board]\n", '[board]\ncolour_order = "XYZ"\n', 2, "colour_order must be one of"),
        ("[board]\n", "[board]\nbrightness = 1.5\n", 2, "brightness must be a number in (0, 1]"),
    ],
)
def test_bad_board_values_name_file_and_line(tmp_path: Path, old: str, new: str, line: int, words: str) -> None:
    message, path = load_error(tmp_path, TINY.replace(old, new, 1))
    assert message.startswith(f"{path}:{line}: ") and words in message


def test_hex_geometry_needs_a_radius(tmp_path: Path) -> None:
    message, path = load_error(tmp_path, TINY.replace('"square"', '"hex"'))
    assert message.startswith(f"{path}: ") and "[board] lacks the key 'radius'" in message


def test_missing_size_key_names_the_file(tmp_path: Path) -> None:
    message, path = load_error(tmp_path, TINY.replace("width = 2\n", ""))
    assert message == f"{path}: [board] lacks the key 'width'"


def test_bad_toml_names_file_and_line(tmp_path: Path) -> None:
    message, path = load_error(tmp_path, TINY.replace("led = 1 }", "led = }"))
    assert message.startswith(f"{path}: not valid TOML: ")
    assert f"line {B1_LINE}" in message


def test_missing_board_table(tmp_path: Path) -> None:
    message, path = load_error(tmp_path, TINY.split("[extra_leds]")[1].replace("status = 2\n", "", 1))
    assert message == f"{path}: missing the [board] table"


def test_missing_fields_table(tmp_path: Path) -> None:
    message, path = load_error(tmp_path, TINY.split("[fields]")[0])
    assert message.startswith(f"{path}: missing the [fields] table")


def test_a_field_entry_must_be_a_table(tmp_path: Path) -> None:
    message, path = load_error(tmp_path, TINY.replace("b1 = { channel = 1, led = 1 }", "b1 = 7"))
    assert message.startswith(f"{path}:{B1_LINE}: ") and "expected { channel = N, led = N }" in message


@pytest.mark.parametrize(
    ("value", "words"),
    [("0", "extra LED status: duplicate LED 0 (also used by a1)"), ("3", "index 3 is out of range 0..2")],
)
def test_extra_led_errors_name_file_and_line(tmp_path: Path, value: str, words: str) -> None:
    message, path = load_error(tmp_path, TINY.replace("status = 2", f"status = {value}"))
    assert message.startswith(f"{path}:12: ") and words in message


def test_unreadable_profile_names_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(ProfileError, match=r"cannot read the board profile .*nowhere\.toml: No such file"):
        load_profile(missing)


# --- a game on a profile ---------------------------------------------------------------------------
def test_board_map_needs_every_field_of_the_game(tmp_path: Path) -> None:
    tiny = load_profile(write(tmp_path, TINY))
    state = KLOTZ.new_game(players=2)
    with pytest.raises(ValueError, match=r"board tiny cannot play Klotz: it has no field c1, d1, .* \.\.\."):
        board_map(tiny, KLOTZ, state)


def test_board_map_lays_klotz_onto_square14() -> None:
    profile = load_profile("square14")
    state = KLOTZ.new_game(players=4)
    board = board_map(profile, KLOTZ, state)
    assert len(board.game_cells) == 196 and board.channels == 196 and board.model_name == "binary"
    g12 = KLOTZ.parse_cell("g12")
    assert board.channel_of[g12] == profile.channel_of("g12") and board.led_of[g12] == profile.led_of("g12")
    assert board.cell_of_channel[profile.channel_of("g12")] == g12
    expected = board.expected(state.occupancy())
    assert sum(expected) == 28  # 4 squares and 24 cylinders, one magnet each
    signed = board_map(profile, KLOTZ, state, "signed").expected(state.occupancy())
    assert signed.count(-1) == 4 and signed.count(1) == 24  # squares face the sensor with the other pole


# --- the card table: a rail and seat zones -----------------------------------------------------------
RAIL = """\
[board]
name = "tinyrail"
geometry = "rail"
first = -1
last = 1
led_count = 6

[extra_leds]
status = 5

[seat_zones]
seat0 = [3, 1]
seat1 = [4, 1]

[fields]
L-1 = { led = 0 }
L0 = { led = 1 }
L1 = { led = 2 }
"""
L1_LINE = 18


def test_cards_profile_has_the_valley_rail_and_eight_seat_zones() -> None:
    profile = load_profile("cards")
    assert profile.geometry == "rail" and profile.size == (-20, 20) and profile.channels == 0
    assert len(profile.fields) == 41 and profile.led_count == 66
    assert [profile.led_of(f"L{line}") for line in (-20, 0, 20)] == [0, 20, 40]
    assert all(wiring.channel is None for wiring in profile.fields.values())
    assert profile.seat_zones == {f"seat{s}": (41 + 3 * s, 42 + 3 * s, 43 + 3 * s) for s in range(8)}
    assert dict(profile.extra_leds) == {"status": 65}
    assert field_cells(profile)["L-7"] == (-7, 0)


def test_a_rail_profile_loads_without_channels() -> None:
    profile = parse_profile(RAIL)
    assert profile.size == (-1, 1) and profile.channels == 0
    assert profile.seat_zones == {"seat0": (3,), "seat1": (4,)}
    assert parse_profile(TINY).seat_zones == {}  # boards without seat zones are unchanged


@pytest.mark.parametrize(
    ("old", "new", "line", "words"),
    [
        ("L1 = {", "L2 = {", L1_LINE, "field L2: not a position of the rail (L-1 to L1)"),
        ("L1 = {", "a1 = {", L1_LINE, "field a1: not a position of the rail"),
        ("L1 = { led = 2 }", "L1 = { led = 1 }", L1_LINE, "duplicate LED 1 (also used by L0)"),
        ("L1 = { led = 2 }", "L1 = { channel = 0, led = 2 }", L1_LINE, "unknown key(s) channel (this board has no"),
        ("L1 = { led = 2 }", "L1 = { }", L1_LINE, "missing key 'led'"),
        ("seat1 = [4, 1]", "seat1 = [4, 3]", 13, "seat zone seat1: LEDs 4..6 are out of range 0..5"),
        ("seat1 = [4, 1]", "seat1 = [3, 1]", 13, "seat zone seat1: duplicate LED 3 (also used by seat0)"),
        ("seat1 = [4, 1]", "seat1 = [2, 1]", 13, "duplicate LED 2 (also used by L1)"),
        ("seat1 = [4, 1]", "seat1 = [4, 0]", 13, "expected [first LED, number of LEDs >= 1], not [4, 0]"),
        ("seat1 = [4, 1]", "seat9 = [4, 1]", 13, "seat zones are named seat0 to seat7"),
        ("last = 1", "last = -2", 5, "first (-1) must not lie after last (-2)"),
        ("first = -1", "first = 0.5", 4, "[board] first must be a whole number"),
    ],
)
def test_rail_profile_errors_name_file_and_line(tmp_path: Path, old: str, new: str, line: int, words: str) -> None:
    message, path = load_error(tmp_path, RAIL.replace(old, new, 1))
    assert message.startswith(f"{path}:{line}: ") and words in message


def test_a_rail_needs_its_first_and_last_line(tmp_path: Path) -> None:
    message, path = load_error(tmp_path, RAIL.replace("first = -1\n", ""))
    assert message == f"{path}: [board] lacks the key 'first'"


def test_a_rail_with_sensors_names_channels_for_its_fields() -> None:
    with_sensors = RAIL.replace("led_count = 6", "led_count = 6\nchannels = 3").replace(
        "L0 = { led = 1 }", "L0 = { channel = 1, led = 1 }"
    )
    with pytest.raises(ProfileError, match=r"<profile>:17: field L-1: missing key 'channel'"):
        parse_profile(with_sensors)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("width = 99999999999999999999", "[board] width must be at most 26 (columns are named a to z)"),
        ("height = 100", "[board] height must be at most 99 (rows are named 1 to 99)"),
        ("channels = 100000", "[board] channels must be at most 4096 (more sensors than any board's scanner reads)"),
        ("led_count = 1000000000", "[board] led_count must be at most 4096 (more LEDs than any board's strip has)"),
    ],
)
def test_a_board_larger_than_its_field_names_or_any_strip_is_refused_in_words(line: str, said: str) -> None:
    key = line.split(" = ")[0]
    text = "\n".join(line if row.startswith(f"{key} = ") else row for row in TINY.splitlines())
    with pytest.raises(ProfileError, match=re.escape(said)):
        parse_profile(text, "big.toml")


def test_a_hex_board_is_at_most_as_wide_as_its_row_letters() -> None:
    text = (PROFILE_DIR / "hex61.toml").read_text(encoding="utf-8").replace("radius = 4", "radius = 13", 1)
    assert "radius = 13" in text
    with pytest.raises(ProfileError, match=re.escape("[board] radius must be at most 12 (its rows are named a to z)")):
        parse_profile(text, "hex.toml")
