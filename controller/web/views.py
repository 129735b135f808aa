"""What each screen is sent: the table view (public), a seat's view (public + that seat's hand), the
board health page, and the board's drawing. Pure functions of a `Snapshot`.

Hidden information (docs/web.md, Security): the public part of a state is what every seat's
observation agrees on (a value that differs between seats is somebody's secret and is left out,
counts of hidden cards excepted), so no game needs a second, hand-written list of its secrets. In a
game with hidden hands, what the board says about a seat's possible moves (the candidates of "which
move?", the move seen before it is committed, the answers to that seat's own messages) is that
seat's too: the public view says only which fields changed. A seat's view adds that seat's own part.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from controller.games import Action, Game, State
from controller.games.public import public_observation
from controller.games.seats import result_line, seat_colours, seat_name
from controller.remote.guest import ASKED, ENDING
from controller.service import deciding
from controller.service.control import Snapshot
from controller.service.deciding import Candidate
from controller.table.board import BoardMap
from controller.table.leds import BLINKING_MODES
from controller.table.palette import OFF, PLAYER_COLOURS
from controller.table.pin_display import cell_centre
from controller.web.words import WAITING, guidance_lines, nearest_position, why_not_legal

# --- the board's drawing --------------------------------------------------------------------------


class BoardWords(NamedTuple):
    """A board's field names and drawing for one game, made once."""

    board: BoardMap
    names: dict[Any, str]
    geometry: dict[str, Any]


_NAMES: dict[tuple[str, int], BoardWords] = {}


def _board_words(game: Game, board: BoardMap) -> tuple[dict[Any, str], dict[str, Any]]:
    """Each field's name and the board's drawing, made once per game and board (every message to
    every page needs them)."""
    key = (game.name, id(board))
    known = _NAMES.get(key)
    if known is None or known.board is not board:
        if len(_NAMES) > 8:
            _NAMES.clear()
        names = {cell: game.format_cell(cell) for cell in board.game_cells}
        known = _NAMES[key] = BoardWords(board, names, board_geometry(game, board))
    return known.names, known.geometry


def board_geometry(game: Game, board: BoardMap) -> dict[str, Any]:
    """Every field of the board with its name and centre (in field units), for the SVG drawing."""
    profile = board.profile
    cells = []
    for cell in board.game_cells:
        x, y = cell_centre(profile.geometry, cell)
        cells.append({"name": game.format_cell(cell), "x": round(x, 3), "y": round(-y, 3) + 0.0})
    return {"shape": "hex" if profile.geometry == "hex" else "square", "cells": cells}


def hex_colour(colour: tuple[int, int, int]) -> str:
    """An LED colour as a CSS colour."""
    red, green, blue = colour
    return f"#{red:02x}{green:02x}{blue:02x}"


# --- public and private parts of a state ----------------------------------------------------------


def _seat_list(state: State, seats: tuple[str, ...]) -> list[dict[str, Any]]:
    colours = seat_colours(state)
    listed = []
    for seat in range(state.players):
        colour = colours[seat] if seat < len(colours) else None
        listed.append(
            {
                "seat": seat,
                "name": seat_name(state, seat),
                "colour": hex_colour(PLAYER_COLOURS[colour]) if colour in PLAYER_COLOURS else "#888888",
                "player": seats[seat] if seat < len(seats) else "human",
            }
        )
    return listed


# --- the views ------------------------------------------------------------------------------------


def candidates_of(snapshot: Snapshot) -> list[Candidate]:
    """The candidates of the board's question, each with its seat and fields."""
    return deciding.candidates_of(snapshot.position.state, snapshot.position.history, snapshot.board.output)


def candidate_of(snapshot: Snapshot, action: Action) -> Candidate | None:
    return deciding.candidate_of(
        snapshot.position.state, snapshot.position.history, action, snapshot.board.output.display.played_in
    )


def deciding_seat(snapshot: Snapshot, seat: int | None = None, own_move: bool = False) -> int | None:
    """Whose decision the board waits for, as a message of `seat` is judged (see
    `controller.service.deciding.decider_for`)."""
    position = snapshot.position
    return deciding.decider_for(position.state, position.history, snapshot.board.output, seat, own_move)


def public_move(state: State, candidate: Candidate) -> str:
    """A move in a game with hidden hands as the other seats may read it before it is committed."""
    where = ", ".join(candidate.fields) or "no field"
    return f"a move of {seat_name(state, candidate.seat)} ({where})"


def table_view(snapshot: Snapshot) -> dict[str, Any]:
    """The table view: what every page may see (a seat's page adds `viewer_parts` for its seat)."""
    state, output, game, board = (
        snapshot.position.state,
        snapshot.board.output,
        snapshot.position.game,
        snapshot.board.map,
    )
    names, geometry = _board_words(game, board)
    frame = snapshot.board.frame
    led = {names[cell]: hex_colour(frame[index] if index < len(frame) else OFF) for cell, index in board.led_of.items()}
    pieces = {
        names.get(cell) or game.format_cell(cell): [
            {"kind": piece.kind, "owner": piece.owner, "magnet": piece.magnet} for piece in stack
        ]
        for cell, stack in output.display.shown.occupancy().items()
    }
    public, hidden = public_observation(state)
    ended = snapshot.remote.ended if snapshot.remote is not None else None  # by the boards (docs/remote.md)
    terminal = state.is_terminal() or ended is not None
    return {
        "type": "table",
        "revision": snapshot.revision,
        "game_id": snapshot.position.game_id,
        "game": {"name": game.name, "title": game.title},
        "remote": _remote_part(snapshot),
        "board": geometry,
        "led": led,
        "blinking": output.display.mode in BLINKING_MODES or output.display.mode == "confirm",
        "pieces": pieces,
        "hints": {names.get(cell) or game.format_cell(cell): kind for cell, kind in output.display.hints.items()},
        "seats": _seat_list(state, snapshot.position.seats),
        "turn": None if terminal else state.current_player,
        "turn_name": None if terminal else seat_name(state, state.current_player),
        "terminal": terminal,
        "result": result_line(state) if state.is_terminal() else ended,
        "mode": output.display.mode,
        "moves": [
            {"number": number, "seat": move.seat, "text": move.public, "via": move.via}
            for number, move in enumerate(snapshot.position.moves, 1)
        ],
        "last_move": (
            f"{seat_name(state, snapshot.position.moves[-1].seat)}: {snapshot.position.moves[-1].public}"
            if snapshot.position.moves
            else None
        ),
        "can_undo": bool(snapshot.position.history),
        "sim": snapshot.devices.sim,
        "hands_busy": snapshot.devices.hands_busy,
        "troubles": list(snapshot.devices.faults),  # what fails under the board: everyone at the table sees it
        "bot_move": snapshot.position.bot_move,
        "hidden_hands": hidden,
        "hotseat": snapshot.position.hotseat,
        "public": public,
        **viewer_parts(snapshot, None, hidden),
    }


def viewer_parts(snapshot: Snapshot, viewer: int | None, hidden: bool) -> dict[str, Any]:
    """The parts of the table view that depend on who looks: what the board is waiting for, the
    candidates of "which move?" and the notices. In a game with hidden hands (`hidden`) a seat's
    moves are in full for that seat (`viewer`) only; None is the public view."""
    state, output = snapshot.position.state, snapshot.board.output
    who = None if state.is_terminal() else seat_name(state, state.current_player)
    previewed = candidate_of(snapshot, output.display.previewed) if output.display.previewed is not None else None
    acknowledged = (
        candidate_of(snapshot, output.display.acknowledged) if output.display.acknowledged is not None else None
    )

    def said(candidate: Candidate | None) -> str | None:
        """A candidate's words for the viewer: in full where nothing is hidden or it is the viewer's."""
        if candidate is None:
            return None
        return candidate.text if not hidden or candidate.seat == viewer else public_move(state, candidate)

    return {
        "waiting": _waiting_lines(snapshot, who, said(acknowledged) or "", hidden, viewer),
        "candidates": _candidate_list(candidates_of(snapshot), hidden, viewer, said),
        "previewed": said(previewed),
        "notices": [notice.text for notice in snapshot.notices if notice.seat is None or notice.seat == viewer],
    }


def _candidate_list(
    candidates: list[Candidate], hidden: bool, viewer: int | None, said: Callable[[Candidate], str | None]
) -> list[dict[str, Any]]:
    """The candidates as the viewer may read them, each with the fields it changes (drawn when
    tapped) and, where the viewer may answer with it, the `action` to declare. The same words twice
    (two cards' moves as a public page reads them) are listed once."""
    listed: dict[str, dict[str, Any]] = {}
    for candidate in candidates:
        text = said(candidate) or candidate.text
        entry: dict[str, Any] = {"text": text, "fields": list(candidate.fields)}
        if not hidden or candidate.seat == viewer:
            entry["action"] = candidate.text
        listed.setdefault(text, entry)
    return list(listed.values())


def _remote_part(snapshot: Snapshot) -> dict[str, Any] | None:
    remote = snapshot.remote
    if remote is None:
        return None
    boards = dict.fromkeys(remote.seats)
    return {
        "game": remote.game,
        "host": remote.host,
        "board": remote.me,
        "boards": [
            {
                "name": name,
                "online": name == remote.me or remote.online.get(name, False),
                "seats": [seat for seat, owner in enumerate(remote.seats) if owner == name],
            }
            for name in boards
        ],
        # Another board's request this board may answer: accepting one that ends the game needs the
        # table PIN on a page (docs/web.md, the principals).
        "asked": {"kind": remote.asked[0], "board": remote.asked[1]} if remote.asked is not None else None,
        "asking": remote.asking,  # this board's own request, while the others answer it
    }


def _remote_lines(snapshot: Snapshot) -> list[str]:
    """Who plays where in a game across boards, and which board is away (docs/remote.md)."""
    remote, state = snapshot.remote, snapshot.position.state
    if remote is None:
        return []
    lines = []
    if not state.is_terminal() and not remote.here(state.current_player):
        lines.append(f"{seat_name(state, state.current_player)} plays on board {remote.seats[state.current_player]}.")
    if remote.asked is not None:
        what = ASKED.get(remote.asked[0], remote.asked[0])
        pin = " (on a screen, with the table PIN: it ends the game)" if remote.asked[0] in ENDING else ""
        lines.append(f"Board {remote.asked[1]} asks to {what}: press confirm to accept{pin}, undo to decline.")
    if remote.asking is not None:
        what = ASKED.get(remote.asking, remote.asking)
        lines.append(f"This board asks the others to {what}: waiting for their answer.")
    if remote.waiting:
        lines.append(f"Waiting for board {remote.host} to say which card was drawn.")
    away = sorted(board for board in set(remote.seats) - {remote.me} if not remote.online.get(board, False))
    if away:
        lines.append(f"Offline: board {', board '.join(away)}; the game goes on when it is back.")
    return lines


def _waiting_lines(snapshot: Snapshot, who: str | None, move: str, hidden: bool, viewer: int | None) -> list[str]:
    state, output = snapshot.position.state, snapshot.board.output
    if state.is_terminal():
        return [f"Game over: {result_line(state)}."]
    if snapshot.remote is not None and snapshot.remote.ended is not None:  # the boards ended it
        return [f"Game over: {snapshot.remote.ended}."]
    mode: str = output.display.mode
    decider = deciding_seat(snapshot) if mode == "confirm" and hidden else None
    if decider is not None and decider != viewer:
        mode, who = "confirm_elsewhere", seat_name(state, decider)
    lines = [WAITING.get(mode, "").format(who=who, move=move)]
    if output.display.mode in ("setup", "restore", "remote"):
        lines.extend(guidance_lines(state, state, snapshot.board.map, snapshot.board.readings))
    if output.display.mode == "guidance":
        board, readings = snapshot.board.map, snapshot.board.readings
        reason = why_not_legal(state, board, readings, board.expected(state.occupancy()), with_reason=not hidden)
        if reason:
            lines.append(reason)

        def legal_move(action: Action) -> str:
            return f"a legal move of {who}" if hidden else state.action_to_str(action)

        label, target = nearest_position(state, snapshot.position.history, board, readings, legal_move)
        lines.append(f"The nearest legal position is {label}:")
        lines.extend(guidance_lines(state, target, board, readings))
    if snapshot.position.bot_move is not None:
        lines.append(f"{who} is a bot and plays {snapshot.position.bot_move}: make that move for it on the board.")
    lines.extend(_remote_lines(snapshot))
    for fault in output.display.faults:
        where = snapshot.position.game.format_cell(fault.cell) if fault.cell is not None else f"channel {fault.channel}"
        lines.append(f"The sensor of {where} reads {fault.reading}, the game expects {fault.expected}: check it.")
    return [line for line in lines if line]


def seat_view(snapshot: Snapshot, seat: int) -> dict[str, Any]:
    """A seat's page: the seat's own observation and the decisions it may take now."""
    state = snapshot.position.state
    elsewhere = snapshot.remote is not None and not snapshot.remote.here(seat)
    # A seat played on another board: this board holds only a stand-in of its hand, never shown.
    mine = state.observation(seat) if not elsewhere else {}
    ended = snapshot.remote is not None and snapshot.remote.ended is not None  # the boards ended it
    on_turn = not state.is_terminal() and not ended and state.current_player == seat and not elsewhere
    actions = state.legal_action_strings() if on_turn else ()
    return {
        "type": "seat",
        "revision": snapshot.revision,
        "seat": seat,
        "name": seat_name(state, seat),
        "on_turn": on_turn,
        "hand": mine.get("hand"),
        "observation": mine,
        "actions": list(actions[:400]),
        "actions_total": len(actions),
    }


def health_view(snapshot: Snapshot) -> dict[str, Any]:
    """For builders: every sensor's reading against what the game expects, the link, the strip, faults
    and the settings players may change."""
    board, game = snapshot.board.map, snapshot.position.game
    expected = board.expected(snapshot.position.state.occupancy())
    sensors = [
        {
            "field": game.format_cell(cell),
            "channel": channel,
            "reading": snapshot.board.raw[channel] if channel < len(snapshot.board.raw) else None,
            "expected": expected[channel],
        }
        for cell, channel in sorted(board.channel_of.items(), key=lambda item: item[1])
    ]
    return {
        "type": "health",
        "revision": snapshot.revision,
        "board": board.profile.name,
        "sensor_model": board.model_name,
        "channels": board.channels,
        "leds": board.profile.led_count,
        "sensors": sensors,
        "link": {"state": snapshot.devices.link[0], "detail": snapshot.devices.link[1]}
        if snapshot.devices.link
        else None,
        "device_faults": list(snapshot.devices.faults),
        "devices": {
            "sensors": _device(snapshot, "sensors"),
            "leds": _device(snapshot, "leds", f", {board.profile.led_count} LEDs"),
        },
        "sensor_faults": [
            {
                "field": game.format_cell(fault.cell) if fault.cell is not None else None,
                "channel": fault.channel,
                "reading": fault.reading,
                "expected": fault.expected,
            }
            for fault in snapshot.board.output.display.faults
        ],
        "settings": dict(snapshot.settings),
        "scan_hz": snapshot.board.scan_hz,
    }


def _device(snapshot: Snapshot, name: str, detail: str = "") -> str:
    """A backend's name and health in words: "sim, 201 LEDs: working"."""
    error = snapshot.devices.backends.get(f"{name}_error")
    return f"{snapshot.devices.backends.get(name, '?')}{detail}: " + (f"failing ({error})" if error else "working")
