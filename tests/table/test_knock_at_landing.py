"""A knock in the very scan a just-moved piece would slide: the next player's piece, carried since
before the mover's piece landed, comes down beside it, and the just-moved piece slides back onto the
field it came from. A hand holds one piece, so the piece coming down beside it is another hand's:
the slide is its knock as much as the mover's own hand taking the piece back (docs/tracker.md,
"What hands can do"). Never the reply taken alone as the mover's move."""

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
