"""A piece held while another is lifted (docs/tracker.md, "What hands can do"): the mover holds a
piece as long as they think, and the next player may reach for a piece of theirs before the held one
comes down. Age tells a piece held from a piece carried no better than that, so when the held piece
and the piece reached for could each have made the move the landing shows, both are readings: the
board never takes the later lift's move alone, and the reply's landing (or the held piece put back)
tells which it was. A reply never began before the move it answers."""

from __future__ import annotations

import pytest

from tests.table.klotz_positions import KLOTZ
from tests.table.test_tracker_klotz import MODELS, Table

TWO = KLOTZ.new_game(players=2)


def test_the_opening_has_the_moves_the_scenes_play() -> None:
    legal = [TWO.action_to_str(action) for action in TWO.legal_actions()]
    assert {"c8-d6", "d4-d6"} <= set(legal)
    after = TWO.apply(TWO.parse_action("c8-d6"))
    assert "d4-b4" in [after.action_to_str(action) for action in after.legal_actions()]


def held_then_reached(model: str) -> Table:
    """Red lifts the 1-block on c8 and thinks for a second; Yellow reaches for d4; Red's piece lands
    on d6 a tenth of a second later (d4-d6 would show the same fields)."""
    table = Table(TWO, model)
    table.lift("c8")
    table.run(1_000)
    table.lift("d4")
    table.run(110)
    table.place("d6", table.sim.in_hand[0][1])
    table.run(400)
    return table


@pytest.mark.parametrize("model", MODELS)
def test_a_piece_held_long_then_landed_as_the_next_player_reaches_is_not_the_reached_pieces_move(model: str) -> None:
    table = held_then_reached(model)
    assert table.texts() == []
    assert table.output.display.mode == "confirm"
    asked = {TWO.action_to_str(action) for action in table.output.display.candidates}
    assert asked == {"c8-d6", "d4-d6"}
    table.place("b4", table.sim.in_hand[0][1])  # Yellow's reply lands
    table.run(1_500)
    assert table.texts() == ["c8-d6", "d4-b4"]
    assert table.output.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_a_piece_held_in_one_hand_while_the_other_makes_the_move_is_that_move(model: str) -> None:
    """The same fields, but the piece first lifted goes back home: the move was d4-d6, made with the
    other hand."""
    table = Table(TWO, model)
    table.lift("c8")
    table.run(1_000)
    table.lift("d4")
    table.run(110)
    table.place("d6", table.sim.in_hand[1][1])
    table.run(400)
    assert table.texts() == []
    table.place("c8", table.sim.in_hand[0][1])
    table.run(1_000)
    assert table.texts() == ["d4-d6"]
    assert table.output.display.mode == "idle"


@pytest.mark.parametrize("model", MODELS)
def test_a_reply_never_began_before_the_move_it_answers(model: str) -> None:
    """Asked between the two readings, the reply's landing on b4 shows c8-d6 then d4-b4, or d4-d6
    then c8-b4: the second needs Yellow's lift of c8 before Red's move began. Only the first is a
    reading, so it is taken without a question as soon as the landing is seen."""
    table = held_then_reached(model)
    start = table.now
    table.place("b4", table.sim.in_hand[0][1])
    table.run(1_500)
    assert table.texts() == ["c8-d6", "d4-b4"]
    assert "confirm" not in table.modes(start + 100)  # the landing read: no question about it


@pytest.mark.parametrize("model", MODELS)
def test_a_held_piece_that_could_not_have_made_the_move_is_set_apart(model: str) -> None:
    """A piece held long whose field reaches no landing of the move (the 1-block on l7 cannot reach
    d6) is set apart as before: the move is taken once it settles."""
    table = Table(TWO, model)
    table.lift("l7")
    table.run(1_000)
    table.lift("d4")
    table.run(150)
    table.place("d6", table.sim.in_hand[1][1])
    table.run(600)
    assert table.texts() == ["d4-d6"]
