"""Who may do what on the table's screen (docs/web.md, Security): the one gate every message from a
page passes before it reaches the game, and the one place a refusal is phrased for the page it goes
to.

A page is a `Principal`: the table view (anonymous), a seat's page (it holds that seat's link), a
spectator, or the health page. The PIN is proven per admin message (`controller.web.guard`). What a
page may see is built by `views.py` (the public view, and a seat's own parts); what it may *do* is
decided here, from the principal and the table's snapshot alone, before the message is read for its
meaning: a page that may not act is refused with the same words whatever it sent, so refusals are no
oracle for anybody's hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from controller.games.public import has_hidden_hands
from controller.games.seats import seat_name
from controller.remote.guest import ENDING, yes_needs_pin
from controller.service.control import CommandError, Snapshot
from controller.service.deciding import press_refusal
from controller.web.protocol import ProtocolError
from controller.web.views import deciding_seat

Role = Literal["table", "seat", "watch", "health"]
GAME_ACTS = frozenset({"press", "declare", "card", "play"})  # messages that act in the game
OWN_MOVE = frozenset({"declare", "card"})  # the seat on turn saying its own move (or the card it plays)
OWN_PAGE = (
    "in this game each player plays from their own seat's page (its link is shown with the table PIN), "
    "or the table plays hot seat (chosen in the lobby)"
)


@dataclass(frozen=True)
class Principal:
    """One page, as the board knows it: its role and, for a seat's page, its seat."""

    role: Role
    seat: int | None = None

    def holds(self, seat: int | None) -> bool:
        """Whether this page may know `seat`'s hand (it is that seat's page)."""
        return self.role == "seat" and seat is not None and self.seat == seat


TABLE = Principal("table")


def acting_seat(principal: Principal, message: Mapping[str, Any], snapshot: Snapshot | None) -> int | None:
    """The seat a message of `principal` acts for (None: the table's, e.g. a take-back), after
    checking that the page may send it at all; ProtocolError in words when it may not."""
    kind = message["type"]
    if principal.role == "watch":
        raise ProtocolError("this page only watches the game; open the table view or your seat's page to play")
    if kind not in GAME_ACTS:
        return None  # admin messages (the hub checks their PIN) and asking the board to show the PIN
    if principal.role == "health":
        raise ProtocolError("the board health page does not play; open the table view to play")
    if snapshot is None:
        raise ProtocolError("the board has not started a game yet")
    position = snapshot.position
    state = position.state
    if kind == "press":  # the board's buttons are the table's, except while it asks "which move?"
        asked = snapshot.remote.asked if snapshot.remote is not None else None
        button = str(message["button"])  # (a text: checked by protocol.parse_message)
        if button == "confirm" and asked is not None and asked[0] in ENDING:
            raise ProtocolError(yes_needs_pin(asked))
        output = snapshot.board.output
        refused = press_refusal(state, position.history, output, button, principal.seat, position.hotseat)
        if refused is not None:
            raise ProtocolError(OWN_PAGE if principal.role == "table" else refused)
        return None
    hidden = has_hidden_hands(state)
    decider = deciding_seat(snapshot, principal.seat, kind in OWN_MOVE)
    if decider is None:
        raise ProtocolError("the game is over")
    if principal.role == "seat":
        assert principal.seat is not None
        if principal.seat != decider:
            raise ProtocolError(
                f"it is {seat_name(state, decider)}'s decision now, not {seat_name(state, principal.seat)}'s"
            )
        return decider
    if hidden and not position.hotseat:
        raise ProtocolError(OWN_PAGE)
    return decider


def may_hear_rules(principal: Principal, seat: int | None, snapshot: Snapshot | None) -> bool:
    """Whether the rules' verdict on `seat`'s action may be told to this page in full: where no hand
    is hidden, or to the seat's own page."""
    if snapshot is None or seat is None or principal.holds(seat):
        return True
    return not has_hidden_hands(snapshot.position.state)


def refusal_words(principal: Principal, seat: int | None, snapshot: Snapshot | None, error: CommandError) -> str:
    """What the page hears of a refused command: the service's words, unless they are the rules'
    verdict on a hand this page may not know; then the same words for every such refusal."""
    if not error.from_rules or may_hear_rules(principal, seat, snapshot):
        return str(error)
    assert snapshot is not None and seat is not None
    return f"that is not a move {seat_name(snapshot.position.state, seat)} can make now"
