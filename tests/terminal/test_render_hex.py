"""The hex-board text drawing (controller/terminal/render_hex.py)."""

import re

from controller.games import load_game
from controller.games.fillit import FillitState
from controller.games.hexgrid import CENTRE
from controller.table.palette import mark_colour
from controller.terminal.render_hex import render_hex_board

GAME = load_game("fillit")


def new(**options: object) -> FillitState:
    state = GAME.new_game(**options)
    assert isinstance(state, FillitState)
    return state


COORDINATES = re.compile(r"\s+[a-i]1-[a-i]\d+$")


def rows(text: str) -> list[str]:
    """The rows of hexes of a drawing, without the coordinates on the right and the footer."""
    lines = text.splitlines()
    assert lines[-1].startswith("rows a (north) to ")
    return [COORDINATES.sub("", line) for line in lines[:-1]]


def fields(text: str) -> list[str]:
    """Every hex's text of a plain drawing, row letters left out."""
    return [word for line in rows(text) for word in line.split()[1:]]


def test_each_row_names_its_hexes_on_the_right() -> None:
    text = render_hex_board(GAME, new(players=2), ansi=False)
    lines = text.splitlines()
    assert [line.split()[-1] for line in lines[:-1]] == [
        "a1-a5", "b1-b6", "c1-c7", "d1-d8", "e1-e9", "f1-f8", "g1-g7", "h1-h6", "i1-i5"
    ]  # fmt: skip
    assert len({len(line) for line in lines[:-1]}) == 1  # one column of coordinates


def test_plain_drawing_has_one_offset_line_per_row() -> None:
    text = render_hex_board(GAME, new(players=2), ansi=False)
    lines = rows(text)
    assert [line[0] for line in lines] == list("abcdefghi")
    # Half a hex (two characters) per row away from the middle; a glyph is right-aligned in its field.
    indents = [len(line[2:]) - len(line[2:].lstrip(" ")) for line in lines]
    assert indents == [9, 7, 5, 3, 1, 3, 5, 7, 9]
    assert [len(line.split()) - 1 for line in lines] == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    assert "\x1b" not in text


def test_plain_drawing_shows_pawns_stones_chips_and_the_blocked_centre() -> None:
    lines = rows(render_hex_board(GAME, new(players=2), ansi=False))
    # Set-up A: Red's pawn on its chip at a1, a red stone on a4, Yellow's pawn on its chip at i5.
    assert lines[0].split() == ["a", "Rr", "·", "·", "r", "·"]
    assert lines[4].split() == ["e", "·", "·", "·", "·", "#", "·", "·", "·", "·"]
    assert lines[8].split()[-1] == "Yy"
    text = render_hex_board(GAME, new(players=2), ansi=False)
    assert fields(text).count("r") == 4 and fields(text).count("y") == 4


def test_plain_drawing_shows_a_chip_left_behind_as_a_letter() -> None:
    state = new(players=2)
    state = state.apply(state.parse_action("p:a1-a3"))
    row_a = rows(render_hex_board(GAME, state, ansi=False))[0].split()
    assert row_a == ["a", "·r", "·r", "Rr", "r", "·"]


def test_mini_board_has_seven_rows_and_centre_d4() -> None:
    lines = rows(render_hex_board(GAME, new(players=3, board="mini"), ansi=False))
    assert len(lines) == 7 and lines[3].split()[4] == "#"


def test_four_players_draw_team_stones_and_team_chips() -> None:
    text = render_hex_board(GAME, new(players=4, setup="B"), ansi=False)
    for glyph in ("Rr", "Bb", "Yr", "Gb"):  # Yellow plays red chips, Green blue ones
        assert glyph in fields(text)
    assert fields(text).count("b") == 4 and fields(text).count("r") == 4


def test_ansi_drawing_colours_chips_and_the_centre() -> None:
    state = new(players=2)
    text = render_hex_board(GAME, state, ansi=True)
    assert "\x1b[48;2;" in text and text.count("\x1b[0m") == 3  # two pawn chips and the centre


def test_a_given_led_frame_replaces_the_marks() -> None:
    state = new(players=2)
    green = mark_colour("green")
    text = render_hex_board(GAME, state, ansi=True, leds={CENTRE: green})
    assert text.count("\x1b[0m") == 1 and "\x1b[48;2;" in text
