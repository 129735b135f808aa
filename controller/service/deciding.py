"""Whose decision the board waits for, and which seat a candidate of "which move?" belongs to: one
definition for the service (a bot's decision is the bot's) and the web app's gate (a seat's page
decides only its own moves).

A candidate is an action of the state now, or, when the board offers to correct the last move, of
the state before it: its seat is the one that would have made it there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from controller.games import Action, IllegalAction, State
from controller.games.base import changed_fields
from controller.games.public import has_hidden_hands
from controller.games.seats import seat_name
from controller.table.tracker_types import TrackerOutput

DECIDING_BUTTONS = frozenset({"confirm", "menu"})  # while the board asks "which move?", a choice


@dataclass(frozen=True)
class Candidate:
    """A move the board asks about: the state it is played in, the action, its notation, the seat
    that would have made it, and the fields it changes (the part anyone at the table sees)."""

    before: State
    action: Action
    text: str
    seat: int
    fields: tuple[str, ...]


def candidate_of(
    state: State, history: Sequence[State], action: Action, played_in: Mapping[Action, State] | None = None
) -> Candidate | None:
    """`action` as a candidate: played where the board says (`played_in`: the position after the
    move acknowledged a moment ago, for the next player's reply), else in `state` or (a correction
    of the last move) in the state before it; None if it is none of these (a stale candidate: left
    out, never an error)."""
    named = played_in.get(action) if played_in is not None else None
    for before in (named,) if named is not None else (state, *history[-1:]):
        try:
            after = before.apply(action)
            text = before.action_to_str(action)
        except (IllegalAction, ValueError):
            continue
        changed = changed_fields(before.occupancy(), after.occupancy())
        names = tuple(state.game.format_cell(cell) for cell in sorted(changed))
        return Candidate(before, action, text, before.current_player, names)
    return None


def candidates_of(state: State, history: Sequence[State], output: TrackerOutput) -> list[Candidate]:
    display = output.display
    found = (candidate_of(state, history, action, display.played_in) for action in display.candidates)
    return [candidate for candidate in found if candidate is not None]


def deciding_seat(state: State, history: Sequence[State], output: TrackerOutput | None) -> int | None:
    """Whose decision the board waits for: the seat on turn, or the seat whose move the board asks
    about (a correction of the last move is the last mover's). None when the game is over."""
    if state.is_terminal():
        return None
    if output is not None and output.display.mode == "confirm":
        movers = {candidate.seat for candidate in candidates_of(state, history, output)}
        if len(movers) == 1:
            return movers.pop()
    return state.current_player


def decider_for(
    state: State, history: Sequence[State], output: TrackerOutput | None, seat: int | None, own_move: bool
) -> int | None:
    """Whose decision a message sent for `seat` is judged against: the deciding seat, except that
    the seat on turn may always say its own move (`own_move`: a declaration or a card shown),
    whatever the board asks (docs/web.md, "Acting"). None when the game is over."""
    if own_move and seat is not None and not state.is_terminal() and seat == state.current_player:
        return seat
    return deciding_seat(state, history, output)


def press_refusal(
    state: State,
    history: Sequence[State],
    output: TrackerOutput | None,
    button: str,
    page_seat: int | None,
    hotseat: bool,
) -> str | None:
    """Why a page (a seat's, or the table view: `page_seat` None) may not press `button` now; None
    where it may. While the board asks which move was made in a game with hidden hands, confirm and
    next choice choose among the deciding seat's cards, so only that seat's page presses them (the
    table view too in hot seat). Judged on the board as it is when the press is carried out: a page
    judged on an older picture may have pressed just as the question came."""
    if button not in DECIDING_BUTTONS or output is None or output.display.mode != "confirm":
        return None
    if not has_hidden_hands(state):
        return None
    decider = deciding_seat(state, history, output)
    if decider is None or page_seat == decider or (page_seat is None and hotseat):
        return None
    mover = seat_name(state, decider)
    if page_seat is None:
        return f"the board now asks which move {mover} made: in this game only {mover}'s own page answers that"
    return f"it is {mover}'s decision now, not {seat_name(state, page_seat)}'s"
