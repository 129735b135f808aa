"""What the board is waiting for, in words: the sentences the LEDs cannot say.

Pure functions of a snapshot's immutable parts (the committed state, the tracker's output, the stable
readings and the board map): "put the Red catcher back on g8", "take the piece off c4", and why the
position on the board is not a legal move — the move it looks like, and the rules engine's reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from controller.games import Action, Cell, IllegalAction, Piece, State
from controller.games.seats import seat_name
from controller.table.board import BoardMap

WAITING = {
    "setup": "Set up the board: blue fields want a piece, red fields want theirs taken away.",
    "restore": "Put the board back as the game stands: blue fields want a piece, red ones are to be cleared.",
    "remote": "Another board moved: make its move here. Blue fields want a piece, red ones are to be cleared.",
    "idle": "{who} to move.",
    "moving": "{who} is moving.",
    "acknowledged": "Seen: {move}. Let go of the pieces to confirm it.",
    "confirm": "Which move was it? Tap it below, or press confirm while the board shows it.",
    "confirm_elsewhere": "The board asks {who} which move it was; {who} answers on their own page.",
    "takeback": "The board shows the position before the last move: take it back?",
    "guidance": "This is not a legal position. Follow the LEDs back to one.",
}


def piece_words(state: State, piece: Piece) -> str:
    kind = piece.kind.rstrip("0123456789") or piece.kind
    if piece.owner is None:
        return f"the {kind}"
    return f"the {seat_name(state, piece.owner)} {kind}"


def _differences(board: BoardMap, readings: Sequence[int], expected: Sequence[int]) -> tuple[list[Cell], list[Cell]]:
    """Fields with fewer magnets than the game expects (emptied) and with more (filled)."""
    emptied: list[Cell] = []
    filled: list[Cell] = []
    for cell, channel in board.channel_of.items():
        have, want = readings[channel], expected[channel]
        if have == want:
            continue
        (emptied if abs(have) < abs(want) or have * want < 0 else filled).append(cell)
    return sorted(emptied), sorted(filled)


def nearest_position(
    state: State,
    history: Sequence[State],
    board: BoardMap,
    readings: Sequence[int],
    describe: Callable[[Action], str] | None = None,
) -> tuple[str, State]:
    """The legal position nearest to the board (the fewest fields to change), in words, and its state:
    the game as it stands, after one of the legal moves, or before the last move (a take-back). Ties
    prefer the game as it stands, as the LEDs' guidance does. `describe` names a legal move (its
    notation unless given: a game with hidden hands names it without the card)."""
    name = describe or state.action_to_str
    options: list[tuple[str, State]] = [("the position as the game stands", state)]
    if not state.is_terminal():
        options.extend((f"after {name(a)}", state.apply(a)) for a in state.legal_actions())
    if history:
        options.append(("before the last move (a take-back)", history[-1]))
    channels = board.channel_of.values()

    def distance(option: tuple[str, State]) -> int:
        expected = board.expected(option[1].occupancy())
        return sum(1 for channel in channels if readings[channel] != expected[channel])

    return min(options, key=distance)


def guidance_lines(state: State, target: State, board: BoardMap, readings: Sequence[int]) -> list[str]:
    """One sentence per field that differs from `target` (the position to reach): what to put there,
    or what to take off it."""
    game = state.game
    wanted = target.occupancy()
    present = state.occupancy()
    expected = board.expected(wanted)
    lines = []
    for cell, channel in sorted(board.channel_of.items()):
        have, want = readings[channel], expected[channel]
        if have == want:
            continue
        where = game.format_cell(cell)
        if abs(have) < abs(want) or have * want < 0:
            pieces = wanted.get(cell, ())
            lines.append(f"Put {piece_words(target, pieces[-1])} on {where}." if pieces else f"Put a piece on {where}.")
        else:
            extra = [piece for piece in present.get(cell, ()) if piece not in wanted.get(cell, ())]
            lines.append(f"Take {piece_words(state, extra[-1]) if extra else 'the piece'} off {where}.")
    return lines


def why_not_legal(
    state: State, board: BoardMap, readings: Sequence[int], expected: Sequence[int], with_reason: bool = True
) -> str | None:
    """Why the board is not a legal move: the move it looks like and the rules' reason (unless
    `with_reason` is off: in a game with hidden hands the reason may tell what a hand holds), when
    one piece left one field and arrived on another; otherwise what changed. None when nothing
    changed."""
    if state.is_terminal():
        return None
    game = state.game
    emptied, filled = _differences(board, readings, expected)
    if not emptied and not filled:
        return None
    who = seat_name(state, state.current_player)
    if len(emptied) == 1 and len(filled) == 1:
        origin, target = (game.format_cell(cell) for cell in (emptied[0], filled[0]))
        reason = _reason(state, f"{origin}-{target}") if with_reason else None
        if reason is not None:
            return f"{origin}-{target} is not a legal move for {who}: {reason}"
        return f"{origin}-{target} is not a legal move for {who}"
    named = ", ".join(game.format_cell(cell) for cell in emptied)
    placed = ", ".join(game.format_cell(cell) for cell in filled)
    parts = [f"emptied {named}" if emptied else "", f"filled {placed}" if placed else ""]
    return "The board matches no legal move of " + who + ": " + " and ".join(part for part in parts if part) + "."


def _reason(state: State, text: str) -> str | None:
    """The rules engine's reason against the move `text`, if the game's notation reads it."""
    try:
        state.apply(state.parse_action(text))
    except IllegalAction as error:
        return error.reason
    except ValueError:
        return None
    return None
