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


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("reach_ms", [60, 250, 600])
def test_a_piece_let_go_then_moved_on_as_the_next_player_reaches_is_the_correction_then_the_reply(
    model: str, reach_ms: int
) -> None:
    """Red lets go of the 1-block from l8 on n9 (taken), picks it up again and goes on to n7; Yellow,
    seeing it let go, lifts l7 `reach_ms` before Red's piece comes down on n7, and puts it on n8. The
    next player began before the correction landed, and after the move it corrects began: the
    correction, then the reply. Never guided back to n9."""
    table = Table(TWO, model)
    table.lift("l8")
    table.run(400)
    table.place("n9", table.sim.in_hand[0][1])
    table.run(360)
    assert table.texts() == ["l8-n9"]
    table.lift("n9")
    table.run(700 - reach_ms)
    table.lift("l7")
    table.run(reach_ms)
    table.place("n7", table.sim.in_hand[0][1])
    table.run(500)
    table.place("n8", table.sim.in_hand[0][1])
    table.run(1_500)
    assert table.texts() == ["l8-n9", "l8-n7", "l7-n8"]
    corrected = TWO.apply(TWO.parse_action("l8-n7"))
    assert table.state == corrected.apply(corrected.parse_action("l7-n8"))
    assert "guidance" not in table.modes()


@pytest.mark.parametrize("model", MODELS)
def test_a_piece_let_go_and_held_then_moved_on_as_the_next_player_reaches_is_never_the_reached_pieces_move(
    model: str,
) -> None:
    """Red lets go of the 1-block from f6 on f5 (taken), picks it up again and holds it for most of
    a second; Yellow lifts c7; Red's piece comes down on e6, where c7-e6 would land as well. The
    correction is asked beside Yellow's move, never Yellow's move taken alone; Yellow's piece landing
    on e8 shows which."""
    table = Table(TWO, model)
    table.lift("f6")
    table.run(400)
    table.place("f5", table.sim.in_hand[0][1])
    table.run(600)
    assert table.texts() == ["f6-f5"]
    table.lift("f5")
    table.run(900)
    table.lift("c7")
    table.run(210)
    table.place("e6", table.sim.in_hand[0][1])
    table.run(300)
    assert table.texts() == ["f6-f5"]
    table.place("e8", table.sim.in_hand[0][1])
    table.run(1_500)
    assert table.texts() == ["f6-f5", "f6-e6", "c7-e8"]


AFTER_C8_E9 = TWO.apply(TWO.parse_action("c8-e9"))


def moved_on_onto_the_reply(model: str) -> Table:
    """Yellow lets go of the 1-block from c7 on b9 (taken), picks it up again and, holding it, goes
    on to c10; Red, seeing it let go, lifts e9 and puts it on b9, the field Yellow let go on. The
    sensors show b9 full again and e9 and c10 changed: Yellow's b9 piece put back with Red's e9-c10,
    or Yellow's c7-c10 and then Red's e9-b9. Identity-blind sensors cannot say whose piece is on b9."""
    table = Table(AFTER_C8_E9, model)
    table.lift("c7")
    table.run(400)
    table.place("b9", table.sim.in_hand[0][1])
    table.run(360)
    assert table.texts() == ["c7-b9"]
    table.lift("b9")
    table.run(700)
    table.lift("e9")
    table.run(110)
    table.place("c10", table.sim.in_hand[0][1])
    table.run(180)
    table.place("b9", table.sim.in_hand[0][1])
    table.run(1_500)
    return table


@pytest.mark.parametrize("model", MODELS)
def test_the_reply_put_on_the_field_let_go_on_as_the_moved_on_piece_lands_elsewhere_is_asked(model: str) -> None:
    table = moved_on_onto_the_reply(model)
    assert table.texts() == ["c7-b9"]
    assert table.output.display.mode == "confirm"
    table.declare("e9-b9")  # Red says what Red did: Yellow's piece went on to c10
    table.run(500)
    assert table.texts() == ["c7-b9", "c7-c10", "e9-b9"]
    corrected = AFTER_C8_E9.apply(AFTER_C8_E9.parse_action("c7-c10"))
    assert table.state == corrected.apply(corrected.parse_action("e9-b9"))


@pytest.mark.parametrize("model", MODELS)
def test_the_same_board_answered_as_the_piece_put_back_keeps_the_move_let_go(model: str) -> None:
    table = moved_on_onto_the_reply(model)
    table.declare("e9-c10")
    table.run(500)
    assert table.texts() == ["c7-b9", "e9-c10"]
    let_go = AFTER_C8_E9.apply(AFTER_C8_E9.parse_action("c7-b9"))
    assert table.state == let_go.apply(let_go.parse_action("e9-c10"))
