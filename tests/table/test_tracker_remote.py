"""The tracker in a game across boards (docs/remote.md, rule 6): another board's move is lit in its
mover's colour and made here, nothing here is a move of another board's seat, and this board's own
last move may still be corrected. Scripted on the simulated Klotz board, in scan time."""

from __future__ import annotations

from controller.games.seats import seat_colours
from controller.table.palette import PLAYER_COLOURS
from tests.table.test_tracker_klotz import FOUR, Table, move


def remote_table() -> Table:
    """Red (seat 0) plays on this board; Yellow, Green and Blue on others."""
    table = Table(FOUR)
    table.tracker.seats_here = frozenset({0})
    return table


def test_another_boards_move_is_lit_in_its_colour_and_taken_once_the_board_shows_it() -> None:
    table = remote_table()
    first = FOUR.legal_actions()[0]
    table.carry(*FOUR.action_to_str(first).split("-"))
    table.run(1500)
    assert table.texts() == [FOUR.action_to_str(first)]
    after_red = table.state
    yellow = after_red.legal_actions()[0]
    after_yellow = after_red.apply(yellow)
    table.tracker.follow(table.now, after_yellow, [FOUR, after_red])
    output = table.run(20)
    assert output.display.mode == "remote" and output.display.mover == 1
    colour = PLAYER_COLOURS[seat_colours(after_red)[1]]
    origin, target = after_red.action_to_str(yellow).split("-")
    lit = table.frame_at(table.now)
    led_of = table.tracker.board.led_of
    assert lit[led_of[table.cell(target)]] == colour  # bright where the piece goes
    assert lit[led_of[table.cell(origin)]] != colour and lit[led_of[table.cell(origin)]] != (0, 0, 0)
    start = table.now
    table.carry(origin, target)
    output = table.run(1500)
    assert table.texts(start) == []  # the move was made elsewhere: nothing is committed here
    assert output.display.mode != "remote" and table.state is after_yellow


def test_nothing_here_is_a_move_of_another_boards_seat() -> None:
    table = remote_table()
    first = FOUR.legal_actions()[0]
    table.carry(*FOUR.action_to_str(first).split("-"))
    table.run(1500)
    after_red = table.state
    yellow = after_red.action_to_str(after_red.legal_actions()[0])
    start = table.now
    table.carry(*yellow.split("-"))  # someone here moves Yellow's piece
    output = table.run(1500)
    assert table.texts(start) == [] and table.state is after_red
    assert output.display.mode == "restore"  # the LEDs ask for the piece back
    declared = table.declare(yellow)
    assert table.state is after_red
    assert any("moves on another board" in message for message in declared.happened.messages)


def test_this_boards_last_move_may_still_be_corrected_while_the_others_wait() -> None:
    table = remote_table()
    state = FOUR
    texts = [state.action_to_str(action) for action in state.legal_actions()]
    origin = texts[0].split("-")[0]
    targets = [text.split("-")[1] for text in texts if text.startswith(origin + "-")]
    assert len(targets) >= 2, "the test needs a piece with two moves"
    table.carry(origin, targets[0])
    table.run(1500)
    assert table.texts() == [f"{origin}-{targets[0]}"]
    start = table.now
    table.carry(targets[0], targets[1])
    table.run(1500)
    assert table.texts(start) == [f"{origin}-{targets[1]}"]  # the correction replaced the move
    assert table.state == FOUR.apply(move(f"{origin}-{targets[1]}"))
