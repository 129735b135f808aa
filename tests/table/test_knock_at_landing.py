"""Knocks around a landing (docs/tracker.md, the knock rows). A piece comes down beside a piece that
has just arrived, a scan before that one slides: a hand holds one piece, so the piece coming down is
another hand's, which knocked it, never the mover's own hand taking its piece back. And a knocked
piece's visit to a field is no hand's change there: once it goes home, the field is judged by the
change a hand made, whichever field the board first took it to be on."""

from __future__ import annotations

import pytest

from tests.table.klotz_positions import KLOTZ
from tests.table.test_tracker_klotz import MODELS, Table

OPENING = KLOTZ.new_game(players=4, seed=48)
BLUE_TO_MOVE = OPENING.apply(OPENING.parse_action("h9-h10"))


def test_the_position_has_the_moves_the_scene_plays() -> None:
    legal = [BLUE_TO_MOVE.action_to_str(action) for action in BLUE_TO_MOVE.legal_actions()]
    assert {"k4-l5", "l7-m5"} <= set(legal)  # l7-m5 is Blue's move too
    after = BLUE_TO_MOVE.apply(BLUE_TO_MOVE.parse_action("k4-l5"))
    assert "l7-m5" in [after.action_to_str(action) for action in after.legal_actions()]


def knocked_back(model: str) -> Table:
    """Blue holds the piece from k4 for a second and puts it on l5; Yellow, who lifted l7 before it
    landed, puts theirs on m5 200 ms later and knocks Blue's piece back onto k4 in the same scan."""
    table = Table(BLUE_TO_MOVE, model)
    blue = table.lift("k4")
    table.run(1_000)
    yellow = table.lift("l7")
    table.run(290)
    table.place("l5", blue)
    table.run(200)
    table.place("m5", yellow)
    table.run(10)
    table.place("k4", table.lift("l5"))
    table.run(1_500)
    return table


@pytest.mark.parametrize("model", MODELS)
def test_a_knock_as_the_reply_lands_never_makes_the_reply_the_movers_move(model: str) -> None:
    table = knocked_back(model)
    assert table.texts() == []
    assert table.output.display.mode == "confirm"
    hints = {KLOTZ.format_cell(cell): kind for cell, kind in table.output.display.hints.items()}
    assert hints["k4"] == "remove" and hints["l5"] == "place"  # the knocked piece, back where it stood


@pytest.mark.parametrize("model", MODELS)
def test_the_knocked_piece_put_back_takes_the_move_and_the_reply(model: str) -> None:
    """Taking Blue's piece home from k4 leaves k4 as Blue's lift left it: the knocked piece's visit
    was no hand's change there, so k4-l5 was made before the reply, as the sensors first saw it."""
    table = knocked_back(model)
    table.place("l5", table.lift("k4"))
    table.run(1_500)
    assert table.texts() == ["k4-l5", "l7-m5"]
    after = BLUE_TO_MOVE.apply(BLUE_TO_MOVE.parse_action("k4-l5"))
    assert table.state == after.apply(after.parse_action("l7-m5"))
    assert table.output.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_the_player_who_says_otherwise_is_taken_at_their_word(model: str) -> None:
    table = knocked_back(model)
    table.declare("l7-m5")  # Blue looked at k4's piece, slid it back, and moved l7-m5 with the other hand
    table.run(500)
    assert table.texts() == ["l7-m5"]


TWO = KLOTZ.new_game(players=2)


@pytest.mark.parametrize("model", MODELS)
def test_a_piece_knocked_onto_the_field_let_go_on_and_taken_home_leaves_the_correction(model: str) -> None:
    """Red lets go of the piece from c7 on e6 (taken), picks it up and moves it on to e8, and the hand
    coming down knocks f7's piece onto e6, the field it emptied a moment before. The board takes e6's
    piece for the hand's put back and f7's for knocked onto e8; once the piece on e6 goes home to f7,
    the board shows c7-e8, and e6's visit was the knocked piece's: e6 is dated by Red's lift, before
    e8's landing, so the correction is taken, never guided back to e6."""
    table = Table(TWO, model)
    red = table.lift("c7")
    table.run(400)
    table.place("e6", red)
    table.run(560)
    assert table.texts() == ["c7-e6"]
    red = table.lift("e6")
    table.run(450)
    table.place("e8", red)
    table.run(10)
    table.place("e6", table.lift("f7"))
    table.run(2_200)
    knocked = table.lift("e6")
    table.run(390)
    table.place("f7", knocked)
    table.run(1_500)
    assert table.texts() == ["c7-e6", "c7-e8"]
    assert table.state == TWO.apply(TWO.parse_action("c7-e8"))
    assert "guidance" not in table.modes()
