"""The LED frame composer (docs/leds.md): marks dimmed, hints above them, blinking guidance,
status and seat LEDs, and frames pushed only when they change, at a bounded rate."""

from __future__ import annotations

import pytest

from controller.games.klotz import Move
from controller.table.board import board_map
from controller.table.leds import HINT_PALETTE, FrameComposer
from controller.table.palette import HINT_COLOURS, MARK_LEVEL, OFF, PLAYER_COLOURS, mark_colour, scale
from controller.table.tracker_types import Display
from controller.terminal.physical import PhysicalTable
from hal.profile import load_profile
from sim.board import SimPixels
from tests.table.klotz_positions import KLOTZ

SQUARE14 = load_profile("square14")
CELL = KLOTZ.parse_cell
FOUR = KLOTZ.new_game(players=4)
BOARD = board_map(SQUARE14, KLOTZ, FOUR)
SEATS = {name: SQUARE14.extra_leds[name] for name in ("seat_red", "seat_blue", "seat_yellow", "seat_green")}
STATUS = SQUARE14.extra_leds["status"]


def led(field: str) -> int:
    return SQUARE14.led_of(field)


def output(mode: str = "idle", hints: dict | None = None, state=FOUR, shown=None, **more) -> Display:
    return Display(mode=mode, state=state, shown=shown or state, hints=hints or {}, **more)  # type: ignore[arg-type]


def test_a_frame_has_one_colour_per_led() -> None:
    frame = FrameComposer(BOARD).compose(output(), 0)
    assert len(frame) == SQUARE14.led_count == 201


def test_marks_are_dimmed_player_colours_and_empty_fields_are_off() -> None:
    frame = FrameComposer(BOARD).compose(output(), 0)
    # K-1 corners and inner fields carry their colour's mark.
    for field, colour in (("a14", "red"), ("n14", "blue"), ("n1", "yellow"), ("a1", "green"), ("g8", "red")):
        assert frame[led(field)] == scale(PLAYER_COLOURS[colour], MARK_LEVEL) == mark_colour(colour)
    assert frame[led("e5")] == OFF and frame[led("g12")] == OFF
    assert all(max(frame[led(f)]) < 255 for f in ("a14", "n14", "n1", "a1"))  # dimmer than any hint


def test_a_tile_shows_as_its_owners_mark() -> None:
    moved = FOUR.apply(Move(CELL("g12"), CELL("f10")))  # Red's tile goes onto the 3-block
    frame = FrameComposer(BOARD).compose(output(state=moved), 0)
    assert frame[led("f10")] == mark_colour("red")


@pytest.mark.parametrize("kind", sorted(HINT_PALETTE))
def test_hints_are_drawn_over_marks_in_their_palette_colour(kind: str) -> None:
    frame = FrameComposer(BOARD).compose(output("moving", {CELL("a14"): kind, CELL("e5"): kind}), 0)
    assert frame[led("a14")] == HINT_PALETTE[kind] and frame[led("e5")] == HINT_PALETTE[kind]


def test_the_documented_palette() -> None:
    assert HINT_PALETTE["origin"] == HINT_COLOURS["white"]
    assert HINT_PALETTE["destination"] == HINT_COLOURS["green"]
    assert HINT_PALETTE["capture"] == HINT_PALETTE["remove"] == HINT_COLOURS["red"]
    assert HINT_PALETTE["place"] == HINT_PALETTE["return"] == HINT_COLOURS["blue"]
    assert HINT_PALETTE["confirm"] == HINT_COLOURS["amber"]


def test_the_shown_state_gives_the_marks_while_acknowledged() -> None:
    after = FOUR.apply(Move(CELL("g12"), CELL("f10")))
    ack = output("acknowledged", {CELL("f10"): "destination"}, shown=after)
    frame = FrameComposer(BOARD).compose(ack, 0)
    assert frame[led("f10")] == HINT_PALETTE["destination"]
    hintless = FrameComposer(BOARD).compose(output("acknowledged", shown=after), 0)
    assert hintless[led("f10")] == mark_colour("red")


def test_one_composer_follows_the_marks_of_each_new_state_shown() -> None:
    """The marks' layer is kept for the state shown, and worked out anew when another is shown."""
    composer = FrameComposer(BOARD)
    after = FOUR.apply(Move(CELL("g12"), CELL("f10")))  # Red's tile goes onto the 3-block
    assert composer.compose(output(), 0)[led("f10")] == OFF
    assert composer.compose(output("moving", {CELL("e5"): "origin"}), 0)[led("e5")] == HINT_PALETTE["origin"]
    assert composer.compose(output(state=after), 0)[led("f10")] == mark_colour("red")
    assert composer.compose(output(state=after), 0) == FrameComposer(BOARD).compose(output(state=after), 0)
    assert composer.compose(output(), 0)[led("f10")] == OFF


@pytest.mark.parametrize("mode", ["guidance", "setup", "restore"])
def test_guidance_blinks_its_hints_over_the_marks(mode: str) -> None:
    composer = FrameComposer(BOARD, blink_ms=400)
    shown = output(mode, {CELL("a14"): "remove", CELL("e5"): "place"})
    on = composer.compose(shown, 0)
    off = composer.compose(shown, 400)
    again = composer.compose(shown, 800)
    assert on[led("a14")] == HINT_COLOURS["red"] and on[led("e5")] == HINT_COLOURS["blue"]
    assert off[led("a14")] == mark_colour("red") and off[led("e5")] == OFF
    assert again == on
    assert on[STATUS] == off[STATUS] == HINT_COLOURS["blue"]


@pytest.mark.parametrize("mode", ["moving", "acknowledged", "confirm", "takeback"])
def test_other_hints_stay_lit(mode: str) -> None:
    composer = FrameComposer(BOARD, blink_ms=400)
    shown = output(mode, {CELL("e5"): "confirm"})
    assert composer.compose(shown, 0)[led("e5")] == composer.compose(shown, 400)[led("e5")] == HINT_COLOURS["amber"]


@pytest.mark.parametrize(
    ("mode", "colour"),
    [
        ("idle", scale(HINT_COLOURS["green"], 0.1)),
        ("moving", scale(HINT_COLOURS["green"], 0.1)),
        ("acknowledged", scale(HINT_COLOURS["green"], 0.1)),
        ("confirm", HINT_COLOURS["amber"]),
        ("takeback", HINT_COLOURS["amber"]),
        ("guidance", HINT_COLOURS["blue"]),
        ("setup", HINT_COLOURS["blue"]),
    ],
)
def test_the_status_led_shows_the_mode(mode: str, colour: tuple[int, int, int]) -> None:
    assert FrameComposer(BOARD).compose(output(mode), 0)[STATUS] == colour


def test_a_sensor_fault_blinks_the_status_led_red() -> None:
    composer = FrameComposer(BOARD, blink_ms=400)
    shown = output("guidance")
    assert composer.compose(shown, 0, faults=True)[STATUS] == HINT_COLOURS["red"]
    assert composer.compose(shown, 400, faults=True)[STATUS] == OFF


def test_seat_leds_light_the_player_on_turn_and_dim_the_others() -> None:
    frame = FrameComposer(BOARD).compose(output(), 0)
    assert frame[SEATS["seat_red"]] == PLAYER_COLOURS["red"]
    for colour in ("blue", "yellow", "green"):
        assert frame[SEATS[f"seat_{colour}"]] == scale(PLAYER_COLOURS[colour], 0.05)
    blue_to_move = FOUR.apply(Move(CELL("g12"), CELL("f10")))
    frame = FrameComposer(BOARD).compose(output(state=blue_to_move), 0)
    assert frame[SEATS["seat_blue"]] == PLAYER_COLOURS["blue"]
    assert frame[SEATS["seat_red"]] == scale(PLAYER_COLOURS["red"], 0.05)


def test_absent_seats_stay_dark_and_nobody_is_on_turn_after_the_end() -> None:
    two = KLOTZ.new_game(players=2, max_plies=1)  # Red and Yellow
    frame = FrameComposer(board_map(SQUARE14, KLOTZ, two)).compose(output(state=two), 0)
    assert frame[SEATS["seat_blue"]] == frame[SEATS["seat_green"]] == OFF
    assert frame[SEATS["seat_red"]] == PLAYER_COLOURS["red"]
    over = two.apply(two.legal_actions()[0])
    assert over.is_terminal()
    frame = FrameComposer(board_map(SQUARE14, KLOTZ, over)).compose(output(state=over), 0)
    assert frame[SEATS["seat_red"]] == scale(PLAYER_COLOURS["red"], 0.05)
    assert frame[SEATS["seat_yellow"]] == scale(PLAYER_COLOURS["yellow"], 0.05)


def test_compose_reuses_the_frame_for_the_same_output_and_phase() -> None:
    composer = FrameComposer(BOARD)
    shown = output("moving", {CELL("e5"): "origin"})
    assert composer.compose(shown, 0) is composer.compose(shown, 10)


def test_compose_sees_every_new_output() -> None:
    # Outputs built and dropped one after another may share an address; each must get its own frame.
    composer = FrameComposer(BOARD)
    for kind in ("destination", "capture", "origin", "place", "destination"):
        frame = composer.compose(output("moving", {CELL("e5"): kind}), 0)
        assert frame[led("e5")] == HINT_PALETTE[kind]


def test_push_only_on_change_and_at_a_bounded_rate() -> None:
    composer = FrameComposer(BOARD, min_interval_ms=20)
    pixels = SimPixels(SQUARE14.led_count)
    idle = composer.compose(output(), 0)
    moving = composer.compose(output("moving", {CELL("e5"): "origin"}), 0)
    assert composer.push(pixels, idle, 0) is True
    assert composer.push(pixels, idle, 100) is False  # unchanged
    assert composer.push(pixels, moving, 110) is True
    assert composer.push(pixels, idle, 120) is False  # changed, but too soon
    assert composer.shown == moving
    assert composer.push(pixels, idle, 129) is False
    assert composer.push(pixels, idle, 130) is True
    assert [frame for _, frame in pixels.frames] == [idle, moving, idle]
    assert composer.frames_pushed == 3 and composer.shown == idle


def test_a_still_board_pushes_one_frame_only() -> None:
    table = PhysicalTable(KLOTZ, FOUR, SQUARE14)
    table.run(2000)
    assert len(table.backends.pixels.frames) == 1
    table.sim.lift(CELL("g12"))
    table.run(200)
    frames = table.backends.pixels.frames
    assert len(frames) == 2
    assert frames[1][1][led("g12")] == HINT_PALETTE["origin"]
