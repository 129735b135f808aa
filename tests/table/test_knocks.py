"""Knocked pieces, each scripted with human timings on every sensor model (docs/tracker.md, "The
evidence model"): a piece knocked one field over by the hand, just after or just before it puts a
piece down, is no move, and putting it back is no move either; one that slides a little later
(200-700 ms either way) may be a knock or a move, so it is asked; and a slide is told from the
hand's own pieces by what the sensors saw of each.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import controller.terminal.physical as physical
from controller.games import Cell, Piece
from controller.games.klotz import Move
from controller.terminal.physical import SCAN_MS
from hal.profile import load_profile
from tests.table.scripted import ScriptedTable
from tests.table.test_loose_contact import changes, reached
from tests.table.test_tracker_klotz import CELL, FOUR, MODELS, Table, fields, move

SLIDE = 10  # a knocked piece lands beside its field this fast


def is_legal_for_next(text: str) -> bool:
    """Whether the knocked piece's slide would be a legal move of the next player."""
    after = FOUR.apply(Move(CELL("c7"), CELL("e6")))
    return any(after.action_to_str(a) == text for a in after.legal_actions())


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("after_ms", [10, 60, 150])
def test_1_a_piece_knocked_just_after_a_placement_is_no_move(model: str, after_ms: int) -> None:
    assert is_legal_for_next("f6-f5")  # the knock looks like a fast reply of the next player
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(250)
    table.place("e6", pieces)
    table.run(after_ms)
    knocked = table.lift("f6")  # the hand bumps the piece beside e6 one field over
    table.run(SLIDE)
    table.place("f5", knocked)
    out = table.run(600)
    assert table.texts(start) == ["c7-e6"]  # the move stands; the knock is nobody's move
    assert fields(out.display.hints).items() >= {"f5": "remove", "f6": "place"}.items()  # put it back
    back = table.lift("f5")
    table.run(200)
    table.place("f6", back)
    out = table.run(1500)
    assert table.texts(start) == ["c7-e6"] and table.took_back(start) == 0
    assert out.display.mode == "idle" and table.state == FOUR.apply(Move(CELL("c7"), CELL("e6")))


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("back_ms", [10, 40, 80])
def test_1_a_knocked_piece_slid_back_home_as_the_next_player_moves_beside_it_is_no_knock(
    model: str, back_ms: int
) -> None:
    """f6's piece, knocked onto f5 as Red put c7's piece on e6, is slid back home in `back_ms`, and
    at once Yellow carries f7's piece to e7, beside both, putting it down within a knock's time of
    the slide back. Taking a knocked piece home is neither end of a slide: nothing is read as
    knocked, and Yellow's move is taken."""
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(250)
    table.place("e6", pieces)
    table.run(60)
    knocked = table.lift("f6")
    table.run(SLIDE)
    table.place("f5", knocked)
    table.run(1200)
    assert table.texts(start) == ["c7-e6"]
    back = table.lift("f5")
    table.run(back_ms)
    table.place("f6", back)
    table.run(SCAN_MS)
    reply = table.lift("f7")
    table.run(100)
    table.place("e7", reply)
    out = table.run(1500)
    assert table.texts(start) == ["c7-e6", "f7-e7"] and table.took_back(start) == 0
    assert out.display.mode == "idle" and not out.display.hints


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("after_ms", [250, 400, 650])
def test_1_a_late_knock_is_asked_and_putting_it_back_ends_the_question(model: str, after_ms: int) -> None:
    """A slide beside a piece put down 200-700 ms ago: the hand letting go may have knocked it, or
    the next player slides it on purpose. Both fit, so the board asks and takes nothing alone; the
    piece put back is the answer (no move), and so is a confirmation (the move)."""
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(250)
    table.place("e6", pieces)
    table.run(after_ms)
    knocked = table.lift("f6")
    table.run(SLIDE)
    table.place("f5", knocked)
    out = table.run(3000)
    assert table.texts(start) == ["c7-e6"] and out.display.mode == "confirm"
    assert [table.state.action_to_str(a) for a in out.display.candidates] == ["f6-f5"]
    back = table.lift("f5")
    table.run(200)
    table.place("f6", back)
    out = table.run(1500)
    assert table.texts(start) == ["c7-e6"] and table.took_back(start) == 0
    assert out.display.mode == "idle" and table.state == FOUR.apply(Move(CELL("c7"), CELL("e6")))


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("again_ms", [150, 400])
def test_1_a_piece_put_back_after_a_knock_may_be_knocked_again_at_once(model: str, again_ms: int) -> None:
    """A piece put back a moment ago stands again: the next player's hand knocks it anew, and that
    is a knock too (not a hand moving a piece it has just put down)."""
    table = Table(model=model)
    start = table.now
    table.carry("c7", "e6")
    table.run(300)
    knocked = table.lift("f6")  # a late knock: asked
    table.run(SLIDE)
    table.place("f5", knocked)
    table.run(800)
    back = table.lift("f5")
    table.run(200)
    table.place("f6", back)  # put back
    table.run(again_ms)
    table.carry("h3", "g5")  # Blue's move lands beside f6...
    table.run(50)
    knocked = table.lift("f6")  # ...and its hand knocks f6 again
    table.run(SLIDE)
    table.place("f5", knocked)
    table.run(800)
    assert table.texts(start) == ["c7-e6", "h3-g5"]
    back = table.lift("f5")
    table.run(200)
    table.place("f6", back)
    out = table.run(1000)
    assert table.texts(start) == ["c7-e6", "h3-g5"] and out.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_1_a_piece_knocked_as_the_hand_lifts_its_own_piece_again_is_no_move(model: str) -> None:
    """The mover sets its piece down on a field it then thinks better of and lifts it again; in the
    same scan its hand knocks the piece beside that field onto a field beside both. Two pieces left
    at once and one arrived: the one that had just been put down is the hand's, the one that had
    stood still is the knocked one, and the move is where the hand's piece lands at last."""
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(2000)  # a long think with the piece in the hand
    table.place("e8", pieces)  # set down on a field it does not mean (c7-e8 is legal, too)...
    table.run(150)
    pieces = table.lift("e8")  # ...and lifted again, knocking f7 onto e7 in the same scan
    knocked = table.lift("f7")
    table.run(30)
    table.place("e7", knocked)
    table.run(70)
    table.place("e6", pieces)
    out = table.run(800)
    assert table.texts(start) == ["c7-e6"]
    assert fields(out.display.hints).items() >= {"e7": "remove", "f7": "place"}.items()
    back = table.lift("e7")
    table.run(200)
    table.place("f7", back)
    out = table.run(1500)
    assert table.texts(start) == ["c7-e6"] and table.took_back(start) == 0
    assert out.display.mode == "idle" and table.state == FOUR.apply(Move(CELL("c7"), CELL("e6")))


@pytest.mark.parametrize("model", MODELS)
def test_1_a_piece_read_as_knocked_that_is_then_moved_ends_its_knock(model: str) -> None:
    """Red puts c7 back after a second thought and at once moves c8, whose piece touches d8 on its
    way: to the sensors a knock (a piece slid beside a placement). The piece goes on to c11, the
    board cannot see that move (it keeps c8 as before the knock), and Red declares it. The move
    taken ends the knock: the board reads c8 as it is, so when Blue moves on it neither offers to
    take Red's move back nor blames c8's sensor."""
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(200)
    table.place("c7", pieces)
    table.run(60)
    piece = table.lift("c8")
    table.run(40)
    table.place("d8", piece)  # a touch on the way, read as a knock
    table.run(80)
    piece = table.lift("d8")
    table.run(300)
    table.place("c11", piece)
    table.run(1000)
    assert table.texts(start) == []
    table.declare("c8-c11")
    table.run(300)
    if not table.texts(start):
        table.declare("c8-c11")  # the board named a field that does not show it: said again
    table.run(1000)
    assert table.texts(start) == ["c8-c11"]
    table.carry("h3", "g5")  # Blue moves on
    out = table.run(3000)
    assert table.texts(start) == ["c8-c11", "h3-g5"] and table.took_back(start) == 0
    assert out.display.mode == "idle" and out.display.faults == ()  # c8's sensor is not blamed either


@pytest.mark.parametrize("model", MODELS)
def test_1_a_late_slide_confirmed_is_the_next_players_move(model: str) -> None:
    table = Table(model=model)
    start = table.now
    table.carry("c7", "e6")
    table.run(400)
    knocked = table.lift("f6")
    table.run(SLIDE)
    table.place("f5", knocked)
    table.run(1000)
    table.press("confirm")
    table.run(500)
    assert table.texts(start) == ["c7-e6", "f6-f5"]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("landed_ms", "placed_ms"), [(10, 30), (30, 10), (20, 20), (5, 55)])
def test_1_a_knock_the_sensors_cannot_tell_from_the_placement_is_never_taken_alone(
    model: str, landed_ms: int, placed_ms: int
) -> None:
    """On its way down the hand bumps f6 one field over (to f5, `landed_ms` after it left) and
    puts its own piece on e6 (`placed_ms` after f6 left): both within a slide's time. c7-f5 with f6
    knocked onto e6 reads the same, and no time tells which landing was the hand's: whichever move
    the board reads, it asks, never taking it alone; once the knocked piece is back the board
    shows c7-e6 alone, and takes it."""
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(300)
    knocked = table.lift("f6")
    landings = sorted([(landed_ms, "f5", knocked), (placed_ms, "e6", pieces)], key=lambda landing: landing[0])
    table.run(landings[0][0])
    table.place(landings[0][1], landings[0][2])
    table.run(landings[1][0] - landings[0][0])
    table.place(landings[1][1], landings[1][2])
    out = table.run(1500)
    assert table.texts(start) == [] and fields(out.display.hints).get("f6") == "place"
    back = table.lift("f5")
    table.run(300)
    table.place("f6", back)
    out = table.run(1000)
    assert table.texts(start) == ["c7-e6"] and table.took_back(start) == 0
    assert out.display.mode == "idle" and not out.display.faults


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("after_ms", [0, 10, 30])
@pytest.mark.parametrize("slide_ms", [0, 10, 20])
@pytest.mark.parametrize("flicker_ms", [20, 30])
def test_1_a_flicker_on_the_landing_field_does_not_date_the_knocked_piece_before_it_left(
    model: str, after_ms: int, slide_ms: int, flicker_ms: int
) -> None:
    """The sensor under f5 reads a piece for one scan, `flicker_ms` before the hand knocks f6 onto
    f5 (`after_ms` after it put c7's piece on e6). The flicker and the landing are one episode of
    f5's readings, so the sensors date the landing only to somewhere from the flicker to the
    piece's arrival: it may have come after f6 left, and it is a knock. The piece on e6, put down
    before f6 left, cannot have been the knocked one: it stands."""
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(250)
    table.place("e6", pieces)
    table.run(after_ms)
    table.sim.stick(CELL("f5"), 1)
    table.run(SCAN_MS)
    table.sim.unstick(CELL("f5"))
    table.run(flicker_ms - SCAN_MS)
    knocked = table.lift("f6")
    table.run(slide_ms)
    table.place("f5", knocked)
    out = table.run(600)
    assert table.texts(start) == ["c7-e6"]
    assert fields(out.display.hints).items() >= {"f5": "remove", "f6": "place"}.items()
    back = table.lift("f5")
    table.run(200)
    table.place("f6", back)
    out = table.run(1500)
    assert table.texts(start) == ["c7-e6"] and table.took_back(start) == 0
    assert out.display.mode == "idle" and table.state == FOUR.apply(Move(CELL("c7"), CELL("e6")))


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("before_ms", [100, 150, 190])
def test_1_a_piece_knocked_just_before_the_placement_is_no_move(model: str, before_ms: int) -> None:
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(300)
    knocked = table.lift("f6")  # on its way down the hand bumps the piece beside e6
    table.run(SLIDE)
    table.place("f5", knocked)
    table.run(before_ms - SLIDE)
    table.place("e6", pieces)
    table.run(600)
    assert table.texts(start) == ["c7-e6"]  # not c7-f5, not f6-f5
    back = table.lift("f5")
    table.run(300)
    table.place("f6", back)
    out = table.run(1000)
    assert table.texts(start) == ["c7-e6"] and out.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("before_ms", [300, 600])
def test_1_a_piece_knocked_on_the_way_well_before_the_placement_is_asked(model: str, before_ms: int) -> None:
    """Red lifts c7 and puts it back, and the hand, still over the board, knocks f6 onto f5; then
    Red lifts c7 again and puts it on e6, beside f6, 300-600 ms after the knock. The slide alone
    looked like a move; the hand landing beside it shows it may have been a knock. The board takes
    neither the slide nor the slide followed by c7-e6, and putting f6 back leaves c7-e6."""
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(200)
    table.place("c7", pieces)  # a second thought
    table.run(250)
    knocked = table.lift("f6")
    table.run(SLIDE)
    table.place("f5", knocked)
    table.run(before_ms - 150)
    pieces = table.lift("c7")
    table.run(150 - SLIDE)
    table.place("e6", pieces)
    table.run(1500)
    assert table.texts(start) == []
    back = table.lift("f5")
    table.run(200)
    table.place("f6", back)
    table.run(1000)
    assert table.texts(start) == ["c7-e6"]


@pytest.mark.parametrize("model", MODELS)
def test_1_a_piece_moved_by_sliding_it_one_field_is_a_move(model: str) -> None:
    """A slide with no piece put down beside it is a person moving a piece: it is taken, a moment
    later than a lifted piece would be."""
    table = Table(model=model)
    start = table.now
    piece = table.lift("f7")
    table.run(SLIDE)
    table.place("e7", piece)
    table.run(800)
    assert table.texts(start) == ["f7-e7"]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("flicker_ms", [20, 40])
@pytest.mark.parametrize("slide_ms", [0, 10, 20])
def test_1_a_slide_whose_landing_field_flickered_just_before_is_a_move(
    model: str, flicker_ms: int, slide_ms: int
) -> None:
    """e7's sensor reads a piece for one scan, `flicker_ms` before f7's piece is slid onto it: the
    flicker and the landing are one episode of e7's readings, so the landing may have come as late
    as the piece's arrival. It did not land before it left: the move is taken."""
    table = Table(model=model)
    start = table.now
    table.sim.stick(CELL("e7"), 1)
    table.run(SCAN_MS)
    table.sim.unstick(CELL("e7"))
    table.run(flicker_ms - SCAN_MS)
    piece = table.lift("f7")
    table.run(slide_ms)
    table.place("e7", piece)
    out = table.run(1500)
    assert table.texts(start) == ["f7-e7"] and out.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(
    ("made", "knocked", "carry_ms", "after_ms", "slide_ms"),
    [
        ("h6-h5", "g6-g5", 50, 10, 10),
        ("f6-e6", "f7-e7", 0, 0, 0),
        ("h6-h5", "i6-i5", 0, 0, 0),
        ("h6-h5", "i6-i5", 0, 0, 10),
    ],
)
def test_1_a_piece_slid_by_hand_as_its_neighbour_is_knocked_is_never_taken_for_the_knock(
    model: str, made: str, knocked: str, carry_ms: int, after_ms: int, slide_ms: int
) -> None:
    """The hand slides a piece one field (`carry_ms`) and bumps the piece beside it one field over
    as it lets go: two pieces slid at once, and no time tells which was the hand's. The board reads
    them as they are (no single move: it waits), takes nothing, and once the knocked piece is
    back, takes the move made."""
    table = Table(model=model)
    start = table.now
    origin, target = made.split("-")
    home, aside = knocked.split("-")
    table.run(300)
    pieces = table.lift(origin)
    if carry_ms:
        table.run(carry_ms)
    table.place(target, pieces)  # (in the very scan it left, where no time is given)
    if after_ms:
        table.run(after_ms)
    bumped = table.lift(home)
    if slide_ms:
        table.run(slide_ms)
    table.place(aside, bumped)
    out = table.run(600)
    assert table.texts(start) == [] and out.display.mode != "idle"
    bumped = table.lift(aside)
    table.run(200)
    table.place(home, bumped)
    out = table.run(1500)
    assert table.texts(start) == [made] and out.display.mode == "idle" and not out.display.faults


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("put_back", ["second", "first", None])
@pytest.mark.parametrize("slides", [("f6-e6", "f7-e7"), ("f9-e9", "d11-e10")])
def test_1_two_pieces_slid_beside_each_other_within_a_knock_time_are_never_taken_by_order(
    model: str, put_back: str | None, slides: tuple[str, str]
) -> None:
    """One piece slides one field (f6 to e6), and 70 ms later another beside it (f7 to e7, seen
    leaving and landing in one scan; or d11 to e10, landing beside the first one's field only). No
    piece was lifted and put down: either slide may be the hand's move and the other its knock (on
    letting go, or on its way), or the second the next player's move at once. No time tells which,
    so neither is a knock and neither is taken: the board waits. The piece put back answers, and
    the other slide is asked (the hand putting it back was beside it); left as they are, nothing
    is taken."""
    (first_from, first_to), (second_from, second_to) = (text.split("-") for text in slides)
    table = Table(model=model)
    start = table.now
    table.run(300)
    table.place(first_to, table.lift(first_from))
    table.run(70)
    table.place(second_to, table.lift(second_from))
    out = table.run(400)
    hints = fields(out.display.hints)
    assert table.texts(start) == [] and out.display.mode != "idle"
    assert "remove" not in (hints.get(first_to), hints.get(second_to))  # neither called a knocked piece
    if put_back is None:
        out = table.run(12_000)  # (past a knock's forgetting time)
        assert table.texts(start) == [] and out.display.mode != "idle"
        return
    if put_back == "second":
        table.place(second_from, table.lift(second_to))
        made = slides[0]
    else:
        table.place(first_from, table.lift(first_to))
        made = slides[1]
    out = table.run(1500)
    assert table.texts(start) == [] and out.display.mode == "confirm"
    assert out.display.candidates == (move(made),)
    table.declare(made)
    out = table.run(500)
    assert table.texts(start) == [made] and out.display.mode == "idle"


def test_1_the_hands_piece_back_on_the_field_it_emptied_is_never_held_back_as_a_knocked_landing() -> None:
    """The hand has lifted a9's stack, put one Catcher on b11, bumping b10's piece, and puts the
    other back on a9 just as the knocked piece lands on a10. Both fields are beside b10 and filled
    at one moment, but a9 is the field the hand emptied a moment ago: it got the hand's piece back,
    so a9 is read as it is (held back as it was before, a9 would read empty and the move look like
    the whole stack's)."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="binary")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    a9, b10, a10, b11 = (channel[CELL(name)] for name in ("a9", "b10", "a10", "b11"))
    watch.observe([Change(a9, 1, 0, 1000)], 1040)
    watch.observe([Change(b11, 0, 1, 1090)], 1130)  # the Catcher the hand moves lands
    watch.observe([Change(b10, 1, 0, 1100)], 1140)
    watch.observe([Change(a9, 0, 1, 1105, before_since=1000)], 1145)
    found = watch.observe([Change(a10, 0, 1, 1110)], 1150)
    assert [(k.origin, k.aside, k.also, k.tied) for k in found] == [(b10, a10, (), frozenset())]
    assert watch.overrides == {b10: 1, a10: 0}


def test_1_a_slide_that_settles_after_the_placement_beside_it_is_still_a_knock() -> None:
    """The knocked piece left its field before the hand's piece landed beside it, but its landing
    settled last (contact bounce): the knock is judged when the slide ends, the placement counts."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="binary")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    h6, h5, i6 = channel[CELL("h6")], channel[CELL("h5")], channel[CELL("i6")]
    watch.observe([Change(h6, 1, 0, 1000)], 1040)  # the knocked piece leaves h6 (standing long)
    watch.observe([Change(i6, 0, 1, 1020)], 1060)  # the hand's piece lands on i6, beside it
    found = watch.observe([Change(h5, 0, 1, 1010)], 1070)  # the slide's end settles last
    assert [(k.origin, k.aside) for k in found] == [(h6, h5)]
    assert watch.overrides[h6] == 1 and watch.overrides[h5] == 0


@pytest.mark.parametrize("hand_first", [True, False])
@pytest.mark.parametrize("hand_later_ms", [0, 20])
def test_1_of_two_pieces_leaving_at_once_the_one_just_put_down_is_the_hands(
    hand_first: bool, hand_later_ms: int
) -> None:
    """Two departures within a slide's time of one arrival beside both: the piece that had stood
    still slid (knocked), the piece put down a moment before was lifted by the hand that knocked
    it, whichever order the scan reports them in and whichever left nearer the arrival (the hand's
    own piece sliding over would leave the other lift to a second hand)."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="binary")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    e8, f7, e7 = channel[CELL("e8")], channel[CELL("f7")], channel[CELL("e7")]
    watch.observe([Change(e8, 0, 1, 1000)], 1040)  # the hand's piece set down on e8
    lifted = [Change(e8, 1, 0, 1150 + hand_later_ms), Change(f7, 1, 0, 1150)]  # lifted again; f7 leaves
    watch.observe(lifted if hand_first else lifted[::-1], 1190)
    found = watch.observe([Change(e7, 0, 1, 1180)], 1220)
    assert [(k.origin, k.aside) for k in found] == [(f7, e7)]


def test_1_a_slide_beside_a_slide_is_no_knock_but_both_are_asked() -> None:
    """h10's piece slides to g10 in 30 ms, and g9's onto h9 80 ms later, each beside the other's
    fields. A quick hand's move and the knock as it lets go, or a knock on its way and its move,
    or a move and the next player's at once: the sensors see the same. A piece that slid was put
    down by no hand, so neither slide is a knock; both are doubtful (asked, never taken)."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="binary")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    h10, g10, g9, h9 = (channel[CELL(name)] for name in ("h10", "g10", "g9", "h9"))
    watch.observe([Change(h10, 1, 0, 1000)], 1040)
    watch.observe([Change(g10, 0, 1, 1030)], 1070)
    watch.observe([Change(g9, 1, 0, 1110)], 1150)
    found = watch.observe([Change(h9, 0, 1, 1120)], 1160)
    assert found == [] and watch.knocks == []
    assert watch.doubts(frozenset({h10, g10})) and watch.doubts(frozenset({g9, h9}))
    watch.expire(1400)
    assert watch.overrides == {}  # read as they are
    assert watch.doubts(frozenset({h10, g10})) and watch.doubts(frozenset({g9, h9}))


def test_1_a_landing_that_ended_one_slide_is_no_other_pieces_landing() -> None:
    """i9's piece slides to i10 in 60 ms; g9's, beside both, leaves 10 ms after i10 filled (so close
    that a lift's bounce would allow it to have slid onto i10) and lands on h10 20 ms later. One
    piece lands once: g9's slide ended on h10, and h10 is no piece put down beside i9."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="binary")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    i9, i10, h9, h10 = (channel[CELL(name)] for name in ("i9", "i10", "h9", "h10"))
    watch.observe([Change(i9, 1, 0, 1000)], 1040)
    watch.observe([Change(i10, 0, 1, 1060)], 1100)
    watch.observe([Change(h9, 1, 0, 1070)], 1110)
    found = watch.observe([Change(h10, 0, 1, 1090)], 1130)
    assert found == [] and watch.knocks == []
    assert watch.doubts(frozenset({i9, i10})) and watch.doubts(frozenset({h9, h10}))


def test_1_a_lift_just_after_a_knocked_piece_landed_beside_it_is_the_hands_not_a_slide() -> None:
    """A hand on its way to i9 bumps h9's piece onto h10 (seen leaving and landing in one scan),
    lifts i9's piece 10 ms later and puts it down on i10 70 ms after that. i9's lift is within a
    lift's bounce of h10 filling, but h10's arrival ended the knocked piece's slide: one piece lands
    once, so i9's piece was lifted, no two pieces slid at once, and h9's slide is a knock."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="binary")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    h9, h10, i9, i10 = (channel[CELL(name)] for name in ("h9", "h10", "i9", "i10"))
    watch.observe([Change(h9, 1, 0, 990), Change(h10, 0, 1, 990)], 1030)
    watch.observe([Change(i9, 1, 0, 1000)], 1040)
    found = watch.observe([Change(i10, 0, 1, 1070)], 1110)
    assert [(k.origin, k.aside) for k in found] == [(h9, h10)] == [(k.origin, k.aside) for k in watch.knocks]


def test_1_a_piece_just_moved_that_slides_after_a_piece_is_put_down_beside_it_is_a_knock() -> None:
    """Red's piece landed on e7 a moment ago; Blue puts a piece down on e6, beside it, and 110 ms
    later Red's piece slides back to e8. Red's hand is done with it (another was put down beside
    it since): Blue's hand knocked it."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="binary")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    e8, e7, f6, e6 = (channel[CELL(name)] for name in ("e8", "e7", "f6", "e6"))
    watch.observe([Change(e8, 1, 0, 1000)], 1040)
    watch.observe([Change(e7, 0, 1, 1090)], 1130)  # Red's move lands
    watch.observe([Change(f6, 1, 0, 1230)], 1270)
    watch.observe([Change(e6, 0, 1, 1320)], 1360)  # Blue's lands beside it
    watch.observe([Change(e7, 1, 0, 1430)], 1470)
    found = watch.observe([Change(e8, 0, 1, 1450)], 1490)
    assert [(k.origin, k.aside) for k in found] == [(e7, e8)]


def test_1_a_field_the_hand_just_emptied_gets_the_hands_piece_not_the_knocked_one() -> None:
    """Fillit's pawn and stone trade fields: the hand has lifted f7's piece and puts one back down
    there just as it knocks f6, which lands on f5 30 ms later. The knocked piece's slide ends on f5
    (empty all along), not on f7 (emptied by the hand a moment ago), though f7 filled nearer in
    time."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="binary")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    f7, f6, f5 = (channel[CELL(name)] for name in ("f7", "f6", "f5"))
    watch.observe([Change(f7, 1, 0, 990)], 1030)
    watch.observe([Change(f7, 0, 1, 1100, before_since=990)], 1140)  # the hand puts a piece down
    watch.observe([Change(f6, 1, 0, 1110)], 1150)  # (its bounce dates the knocked piece's lift late)
    found = watch.observe([Change(f5, 0, 1, 1140)], 1180)
    assert [(k.origin, k.aside) for k in watch.knocks] == [(f6, f5)] == [(k.origin, k.aside) for k in found]


def test_1_a_slide_beside_a_field_a_hand_fills_unseen_is_a_knock() -> None:
    """The move the board asks about sends a captured piece home to a field whose sensor has failed:
    the hand is there, unseen, so the neighbour that slides meanwhile was knocked, not moved."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="binary")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    g8, g9, g10 = channel[CELL("g8")], channel[CELL("g9")], channel[CELL("g10")]
    assert watch.observe([Change(g9, 1, 0, 1000), Change(g10, 0, 1, 1013)], 1060) == []  # a slide, judged later
    unseen = KnockWatch(board.cell_of_channel, neighbours_on(board))
    unseen.unseen_hands = frozenset({g8})
    found = unseen.observe([Change(g9, 1, 0, 1000), Change(g10, 0, 1, 1013)], 1060)
    assert [(k.origin, k.aside) for k in found] == [(g9, g10)]


def test_a_change_first_seen_after_a_scanner_outage_may_have_happened_any_time_during_it() -> None:
    """The scanner is silent for 200 ms; a field that changed meanwhile is dated when it was seen,
    and marked as possibly as early as just after the last scan before the silence. A field seen
    changing in ordinary scans is dated exactly."""
    from controller.table.debounce import Debouncer

    debouncer = Debouncer(3, debounce_ms=40)
    debouncer.feed(0, (1, 0, 0))
    debouncer.feed(10, (0, 0, 0))  # channel 0 empties, seen at once
    for now in range(20, 70, 10):
        debouncer.feed(now, (0, 0, 0))
    for now in range(70, 270, 10):
        debouncer.feed(now, None)  # silent
    debouncer.feed(270, (0, 1, 0))  # channel 1 filled some time while nobody looked
    changes = []
    for now in range(280, 330, 10):
        changes += debouncer.feed(now, (0, 1, 0)).changes
    (filled,) = changes
    assert (filled.channel, filled.at, filled.earliest, filled.first_possible) == (1, 270, 61, 61)


def test_a_change_is_dated_to_within_its_episode_of_raw_changes() -> None:
    """Channel 1 flickers for one scan and a piece lands there 30 ms later, within the debounce:
    one episode, dated from the flicker to the landing. Channel 0's lift, seen in one raw change,
    is dated exactly."""
    from controller.table.debounce import Debouncer

    debouncer = Debouncer(2, debounce_ms=40)
    debouncer.feed(0, (1, 0))
    debouncer.feed(10, (1, 1))  # a flicker
    debouncer.feed(20, (1, 0))
    debouncer.feed(50, (0, 1))  # the lift, and the landing
    changes = []
    for now in range(60, 110, 10):
        changes += debouncer.feed(now, (0, 1)).changes
    lifted, landed = sorted(changes, key=lambda change: change.channel)
    assert (lifted.at, lifted.last_possible, lifted.latest) == (50, 50, None)
    assert (landed.at, landed.last_possible) == (10, 50)


def test_a_slide_whose_end_was_hidden_by_an_outage_is_still_a_knock() -> None:
    """A piece is put down on h7; i7, beside it, leaves 60 ms later, just before the scanner falls
    silent, and i8 is seen filled when it comes back 240 ms after. The slide may have taken 30 ms:
    it is judged by the earliest the landing may have been, and it is a knock."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="binary")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    h7, i7, i8 = (channel[CELL(name)] for name in ("h7", "i7", "i8"))
    watch.observe([Change(h7, 0, 1, 1000)], 1040)
    watch.observe([Change(i7, 1, 0, 1060)], 1100)
    found = watch.observe([Change(i8, 0, 1, 1300, earliest=1071)], 1340)
    assert [(k.origin, k.aside) for k in found] == [(i7, i8)]


def test_a_polarity_sensor_tells_the_knocked_piece_from_the_hands() -> None:
    """Signed sensors: a square (one pole) is put down on a8 in the very scan a cylinder (the other
    pole) leaves a9 beside it, and the cylinder lands on a10. By time alone the cylinder may have
    slid onto a8, or either arrival been the knocked piece; by pole only a10 can be."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="signed")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    a9, a8, a10 = (channel[CELL(name)] for name in ("a9", "a8", "a10"))
    watch.observe([Change(a9, 1, 0, 1000), Change(a8, 0, -1, 1000)], 1040)
    found = watch.observe([Change(a10, 0, 1, 1010)], 1050)
    assert [(k.origin, k.aside, k.also) for k in found] == [(a9, a10, ())]
    assert watch.overrides == {a9: 1, a10: 0}  # the square on a8 is read as it is


def around(cell: Cell) -> list[Cell]:
    x, y = cell
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_1_a_move_with_a_knock_and_flickering_sensors_around_it_is_never_taken_wrong(data: st.DataObject) -> None:
    """Any move, lifted and carried (100-400 ms) or slid to the field beside (from the very scan);
    perhaps a piece beside where it lands knocked one field over from 200 ms before it lands (the
    hand on its way) to 150 ms after (sliding 0-40 ms) and put back 0.4-2.5 s later; sensors
    around flickering for one to three scans at any moment. The board never takes a move that was
    not made: once the pieces are still it has taken the move, or asks about it (a slide beside a
    knock may be a late knock, or the knock) and takes it as answered; then it shows the game
    idle."""
    model = data.draw(st.sampled_from(MODELS), label="model")
    action = data.draw(st.sampled_from([a for a in FOUR.legal_actions() if isinstance(a, Move)]), label="move")
    table = Table(model=model)
    fields_ = table.tracker.board.channel_of
    after = FOUR.apply(action).occupancy()
    beside = max(abs(action.origin[0] - action.target[0]), abs(action.origin[1] - action.target[1])) == 1
    carry_ms = data.draw(st.integers(0 if beside else 100, 400), label="carried for")
    start = table.now + 300
    land = start + carry_ms
    events: list[tuple[int, int, str, Cell]] = [(start, 0, "lift", action.origin), (land, 0, "place", action.target)]
    standing = [c for c in around(action.target) if c in fields_ and after.get(c)]
    if standing and data.draw(st.booleans(), label="knock"):
        knocked = data.draw(st.sampled_from(standing), label="knocked")
        empty = [c for c in around(knocked) if c in fields_ and not after.get(c) and c != action.origin]
        if empty:
            aside = data.draw(st.sampled_from(empty), label="knocked onto")
            bumped = land + data.draw(st.integers(-200, 150), label="knocked after the landing")
            landed = bumped + data.draw(st.integers(0, 40), label="sliding for")
            back = landed + data.draw(st.integers(400, 2500), label="put back after")
            events += [(bumped, 1, "lift", knocked), (landed, 1, "place", aside)]
            events += [(back, 1, "lift", aside), (back + 200, 1, "place", knocked)]
    near = sorted({c for c in [*around(action.origin), *around(action.target)] if c in fields_})
    for index in range(data.draw(st.integers(0, 3), label="flickers")):
        cell = data.draw(st.sampled_from(near), label=f"flickering field {index}")
        at = start + data.draw(st.integers(-100, carry_ms + 300), label=f"flickers at {index}")
        events += [(at, 2, "flicker", cell), (at + data.draw(st.sampled_from([10, 20, 30])), 3, "steady", cell)]
    held: dict[int, list[Piece]] = {}
    for at, hand, event, cell in sorted(events):
        if at > table.now:
            table.run(max(10, (at - table.now) // 10 * 10))
        if event == "lift":
            held[hand] = table.sim.lift(cell)
        elif event == "place":
            table.sim.place(cell, held[hand])
        elif event == "flicker":
            table.sim.stick(cell, 0 if table.sim.pieces.get(cell) else 1)
        else:
            table.sim.unstick(cell)
    out = table.run(3000)
    made = FOUR.action_to_str(action)
    if out.display.mode == "confirm":  # the board could not tell: asked, the person answers
        assert table.texts() == [] and action in out.display.candidates
        out = table.declare(made)
        out = table.run(500)
    assert table.texts() == [made] and out.display.mode == "idle" and not out.display.faults


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_in_every_game_a_knock_beside_a_move_made_by_hand_ends_in_that_move(data: st.DataObject) -> None:
    """Any action of a Klotz, Fillit or Zillo position, made by hand (every piece of each field it
    changes lifted, then each field's pieces put down; slid from the very scan where each lands
    beside a field it left), on any sensor model; a standing piece (or stack) beside where it lands
    knocked onto an empty field beside it, from 200 ms before the first placement to 150 ms after,
    and put back 0.4-2.5 s later. No other move is ever taken, and the game ends in the position the
    action makes, by the sensors or, where they cannot tell, by the person declaring it."""
    name = data.draw(st.sampled_from(["klotz", "fillit", "zillo"]), label="game")
    model = data.draw(st.sampled_from([*MODELS, "signed_count"]), label="model")
    state = reached(name, data.draw(st.integers(0, 10**6), label="seed"), data.draw(st.integers(0, 30), label="plies"))
    before = state.occupancy()
    actions = [] if state.is_terminal() else [a for a in state.legal_actions() if state.occupancy_after(a) != before]
    assume(actions)
    action = data.draw(st.sampled_from(actions), label="action")
    after = state.occupancy_after(action)
    changed = changes(before, after)
    table = ScriptedTable(state.game, state, load_profile(physical.default_profile(state.game)), model)
    channel = table.tracker.board.channel_of
    beside = table.tracker.observed.knocks.beside
    landings = [cell for cell in changed if after.get(cell) and cell in channel]
    standing = [
        cell
        for cell, pieces in sorted(table.sim.pieces.items())
        if pieces and cell not in changed and any(beside(channel[cell], channel[other]) for other in landings)
    ]
    assume(landings and standing)
    knocked = data.draw(st.sampled_from(standing), label="knocked")
    empty = [
        cell
        for cell in sorted(channel)
        if cell not in changed and not before.get(cell) and beside(channel[knocked], channel[cell])
    ]
    assume(empty)
    aside = data.draw(st.sampled_from(empty), label="knocked onto")
    lifted = [cell for cell in changed if before.get(cell)]
    slid = not set(lifted) & set(landings) and all(  # (a field cannot be emptied and filled in one scan)
        any(beside(channel[cell], channel[other]) for other in lifted) for cell in landings
    )
    hold_ms = data.draw(st.integers(0 if slid else 100, 500), label="held for")
    begin = table.now
    start = begin + 300
    events: list[tuple[int, str, Cell, int]] = [(start, "lift", cell, len(before[cell])) for cell in lifted]
    placed = start + hold_ms
    bumped = placed + data.draw(st.integers(-200, 150), label="knocked after the first placement")
    for cell in changed:
        if after.get(cell):
            events.append((placed, "place", cell, 0))
            placed += data.draw(st.integers(20, 100), label="to the next placement")
    landed = bumped + data.draw(st.integers(0, 40), label="sliding for")
    back = landed + data.draw(st.integers(400, 2500), label="put back after")
    count = data.draw(st.integers(1, len(before[knocked])), label="pieces knocked")
    events += [(bumped, "bump", knocked, count), (landed, "land", aside, 0)]
    events += [(back, "bump", aside, count), (back + 200, "land", knocked, 0)]
    order = {"lift": 0, "bump": 1, "place": 2, "land": 3}
    held: list[Piece] = []
    for at, event, cell, count in sorted(events, key=lambda e: (e[0], order[e[1]])):
        table.run(max(SCAN_MS, at - table.now))
        if event == "lift":
            table.sim.lift(cell, count)
        elif event == "place":
            table.sim.place(cell, list(after[cell]))
        elif event == "bump":
            held = table.sim.lift(cell, count)
        else:
            table.sim.place(cell, held)
    out = table.run(3000)
    made = state.action_to_str(action)
    assert all(text == made for text in table.texts(begin)), table.texts(begin)
    if out.display.mode != "idle" or not table.texts(begin):  # the board could not tell
        table.declare(made)
        out = table.run(1000)
    assert table.state == state.apply(action), table.texts(begin)
    assert out.display.mode == "idle" and not out.display.faults


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("landing_after_ms", [100, 150])
def test_the_next_player_reaching_beside_the_landing_just_before_it_is_asked_as_two_moves(
    model: str, landing_after_ms: int
) -> None:
    """Red carries c7's piece to e6; the next player lifts f7's piece, diagonally beside e6, 50 ms
    before it lands (which reads as f7's piece sliding onto e6: a knock) and puts it on e7
    100-150 ms after, too late for a slide. Read as knocked, c7's piece would have gone to e7,
    which no move does; read as the sensors have it, the board shows c7-e6 and then f7-e7. Both
    fit, so the board asks, and a confirmation takes both moves (it used to guide everything back)."""
    table = Table(model=model)
    start = table.now
    carried = table.lift("c7")
    table.run(200)
    reached = table.lift("f7")
    table.run(50)
    table.place("e6", carried)
    table.run(landing_after_ms)
    table.place("e7", reached)
    out = table.run(600)
    assert out.display.mode == "confirm" and [str(a) for a in out.display.candidates] == ["f7-e7"]
    assert table.texts(start) == []  # never taken alone
    table.press("confirm")
    table.run(600)
    assert table.texts(start) == ["c7-e6", "f7-e7"]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("lift_before_ms", "landing_after_ms"), [(100, 60), (100, 300), (30, 300), (10, 300)])
def test_the_next_player_reaching_for_a_piece_the_mover_might_have_carried_is_read_as_two_moves(
    model: str, lift_before_ms: int, landing_after_ms: int
) -> None:
    """Red carries c7's piece to e6; the next player lifts f6's piece, orthogonally beside e6,
    before it lands and puts it on f5 after. At e6's landing either lifted piece may be the one
    that landed (f6-e6 is Red's move too), so no moment shows Red's move alone; once f5 fills, the
    only reading is c7-e6 and then f6-f5 (f6's piece did not slide: it was gone for longer than a
    slide takes), and both moves are taken. The board used to show nothing and then guide f5's
    piece back, committing neither."""
    table = Table(model=model)
    start = table.now
    carried = table.lift("c7")
    table.run(250 - lift_before_ms)
    reached = table.lift("f6")
    table.run(lift_before_ms)
    table.place("e6", carried)
    table.run(landing_after_ms)
    table.place("f5", reached)
    out = table.run(1500)
    if out.display.mode == "confirm":  # a reading the board may ask (a knock fits the early lift)
        assert table.texts(start) == [] and [str(a) for a in out.display.candidates] == ["f6-f5"]
        table.press("confirm")
        out = table.run(600)
    assert table.texts(start) == ["c7-e6", "f6-f5"] and out.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_two_pieces_slid_at_once_are_never_read_as_two_moves_in_turn(model: str) -> None:
    """Red slides f7's piece to e7 (40 ms), and 20 ms after it lands f6's piece, diagonally
    beside e7, slides to f5 (30 ms). Both are slides: Red's hand bumping its neighbour, or two
    hands at once; no time tells, so neither is taken while they lie as they are, however legal
    f7-e7 then Yellow's f6-f5 is. Once f6's piece is back, Red's move is taken alone."""
    table = Table(model=model)
    start = table.now
    carried = table.lift("f7")
    table.run(40)
    table.place("e7", carried)
    table.run(20)
    bumped = table.lift("f6")
    table.run(30)
    table.place("f5", bumped)
    out = table.run(1500)
    assert table.texts(start) == [] and out.display.mode != "idle"
    table.place("f6", table.lift("f5"))
    table.run(1500)
    assert table.texts(start) == ["f7-e7"]


@pytest.mark.parametrize("model", MODELS)
def test_a_knocked_piece_left_lying_is_read_as_it_is_though_a_sensor_stuck_meanwhile(model: str) -> None:
    """Red's c7-e6 knocks f6's piece to f5, and nobody puts it back; 5 s later k12's sensor sticks
    on under an empty field. Once the knock is forgotten the board is read as it is: f6-f5 (a move
    of the next player) is the old change, and k12 the newer one with no lift to pair with it. The
    move is taken and k12 judged on its own (reported), never the game held on guidance for good
    because the newer change alone is no move (seen in a three-player game with fast hands)."""
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(250)
    table.place("e6", pieces)
    table.run(60)
    knocked = table.lift("f6")
    table.run(SLIDE)
    table.place("f5", knocked)
    table.run(5000)
    table.sim.stick(CELL("k12"), 1)
    out = table.run(8000)
    assert table.texts(start) == ["c7-e6", "f6-f5"] and out.display.mode == "idle"
    assert [fault.cell for fault in out.display.faults] == [CELL("k12")]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("silent_from_ms", [50, 230, 450])
def test_1_a_slide_a_scanner_outage_hid_beside_a_placement_is_never_taken_alone(
    model: str, silent_from_ms: int
) -> None:
    """Red puts c7's piece on e6; the scanner falls silent `silent_from_ms` later, for half a
    second, and meanwhile f6's piece, beside e6, slides onto f5. When the scanner comes back the
    slide may have been a knock (at any moment of the silence: within a knock's time of the
    placement, or a little later) or the next player's move: the board asks and takes nothing
    alone; putting the piece back is the answer (before: taken as the next player's f6-f5 where
    the silence began past a knock's time, and the game parted from the board)."""
    table = Table(model=model)
    start = table.now
    pieces = table.lift("c7")
    table.run(250)
    table.place("e6", pieces)
    table.run(silent_from_ms)
    scan = table.sim.scan
    table.sim.scan = lambda: None  # type: ignore[method-assign]
    table.run(150)
    knocked = table.lift("f6")
    table.run(SLIDE)
    table.place("f5", knocked)
    table.run(350)
    table.sim.scan = scan  # type: ignore[method-assign]
    out = table.run(3000)
    assert table.texts(start) == ["c7-e6"] and out.display.mode == "confirm"
    back = table.lift("f5")
    table.run(200)
    table.place("f6", back)
    out = table.run(1500)
    assert table.texts(start) == ["c7-e6"] and table.took_back(start) == 0 and out.display.mode == "idle"


@pytest.mark.parametrize("after_ms", [150, 300, 500])
def test_1_a_slide_beside_a_field_a_move_no_sensor_saw_put_a_piece_on_is_doubted(after_ms: int) -> None:
    """A move is taken whose landing no sensor saw (a Catcher put on a like stack, declared at
    once): the hand was on h6 at some moment of the turn. `after_ms` after the move is taken, the
    piece on h7, beside h6, slides to h8: it may be that hand's knock, so it is doubted (asked,
    never taken as the next player's move); a slide beside no field of the move is not."""
    from controller.table.knocks import Change, KnockWatch, neighbours_on

    table = Table(model="binary")
    board = table.tracker.board
    channel = board.channel_of
    watch = KnockWatch(board.cell_of_channel, neighbours_on(board))
    h6, h7, h8, a2, a3 = (channel[CELL(name)] for name in ("h6", "h7", "h8", "a2", "a3"))
    watch.moved(frozenset(), now=1000)  # the turn begins
    watch.moved(frozenset({h6}), unseen=frozenset({h6}), now=3000)  # taken; h6 read as before all along
    slid = 3000 + after_ms
    watch.observe([Change(h7, 1, 0, slid, before_since=0), Change(h8, 0, 1, slid + 10)], slid + 50)
    watch.observe([Change(a2, 1, 0, slid, before_since=0), Change(a3, 0, 1, slid + 10)], slid + 50)
    watch.expire(slid + 50 + 250)
    assert watch.doubts(frozenset({h7, h8})) and not watch.doubts(frozenset({a2, a3}))
