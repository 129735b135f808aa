"""The board's wishes in words: set-up, the nearest legal position, and why a position is not a
legal move (with the rules engine's own reason)."""

from __future__ import annotations

from controller.games import IllegalAction, load_game
from controller.games.seats import seat_name
from controller.table.board import board_map
from controller.web.words import guidance_lines, nearest_position, why_not_legal
from hal.profile import load_profile
from tests.service.configs import ROOT


def klotz():
    state = load_game("klotz").new_game(players=2, seed=0)
    board = board_map(load_profile(ROOT / "wiring" / "square14.toml"), state.game, state)
    return state, board


def moved(state, origin, target):
    occupancy = dict(state.occupancy())
    occupancy[target] = occupancy.pop(origin)
    return occupancy


def test_set_up_names_every_piece_and_its_field() -> None:
    state, board = klotz()
    lines = guidance_lines(state, state, board, (0,) * board.channels)
    game = state.game
    wanted = {
        f"Put the {seat_name(state, p[-1].owner) + ' ' if p[-1].owner is not None else ''}"
        f"{p[-1].kind.rstrip('0123456789')} on {game.format_cell(cell)}."
        for cell, p in state.occupancy().items()
    }
    assert set(lines) == wanted and len(lines) == len(state.occupancy())
    assert any(line.startswith("Put the Red ") for line in lines)


def test_an_illegal_move_is_explained_with_the_rules_reason() -> None:
    state, board = klotz()
    game = state.game
    legal = {state.action_to_str(a) for a in state.legal_actions()}
    origin = state.legal_actions()[0]
    start = game.parse_cell(state.action_to_str(origin).split("-")[0])
    empty = next(
        cell
        for cell in board.game_cells
        if cell not in state.occupancy() and f"{game.format_cell(start)}-{game.format_cell(cell)}" not in legal
    )
    text = f"{game.format_cell(start)}-{game.format_cell(empty)}"
    try:
        state.apply(state.parse_action(text))
        raise AssertionError("the move was meant to be illegal")
    except IllegalAction as error:
        reason = error.reason
    readings = board.expected(moved(state, start, empty))
    said = why_not_legal(state, board, readings, board.expected(state.occupancy()))
    assert said == f"{text} is not a legal move for Red: {reason}"
    assert why_not_legal(state, board, board.expected(state.occupancy()), board.expected(state.occupancy())) is None


def test_the_nearest_legal_position_and_how_to_reach_it() -> None:
    state, board = klotz()
    game = state.game
    action = state.legal_actions()[0]
    after = state.apply(action)
    readings = list(board.expected(after.occupancy()))
    stray = next(cell for cell in board.game_cells if cell not in after.occupancy())
    readings[board.channel_of[stray]] = 1  # a piece where none belongs, after a legal move
    label, target = nearest_position(state, (), board, readings)
    assert label == f"after {state.action_to_str(action)}" and target == after
    assert guidance_lines(state, target, board, readings) == [f"Take the piece off {game.format_cell(stray)}."]
