"""Invitations between boards (docs/remote.md, "Inviting a board"): a board invites the boards that
are to play seats of a new game; once each has accepted, the inviting board hosts the game. Pure:
it is handed the messages and the people's answers, and says what to send and what starts."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.remote.host import Send
from controller.remote.link import RemoteGame
from controller.remote.messages import Accept, Decline, Invite, Message
from controller.remote.topics import check_name


@dataclass
class Said:
    """What one message or answer changed: what to send, a game to start here, words for the people."""

    sends: list[Send] = field(default_factory=list)
    start: tuple[RemoteGame, Invite] | None = None
    said: list[str] = field(default_factory=list)


class Lobby:
    """This board's invitations: the one it sent (and who accepted), and those it received."""

    def __init__(self, me: str) -> None:
        self.me = me
        self.sent: Invite | None = None
        self.accepted: set[str] = set()
        self.received: dict[str, Invite] = {}  # by the inviting board

    def invite(self, title: str, players: int, seats: Sequence[str], options: Mapping[str, Any]) -> list[Send]:
        """Invite the boards named in `seats` (this board's name for its own seats) to a new game."""
        for board in seats:
            check_name(board, "board name")
        others = [board for board in dict.fromkeys(seats) if board != self.me]
        if not others:
            raise ValueError("name at least one other board to play a game across boards")
        if self.me not in seats:
            raise ValueError(f"the inviting board ({self.me}) hosts the game and plays at least one seat")
        invite = Invite(secrets.token_hex(4), title, players, tuple(seats), dict(options))
        self.sent, self.accepted = invite, set()
        return [Send(board, invite) for board in others]

    def waiting_for(self) -> tuple[str, ...]:
        sent = self.sent
        if sent is None:
            return ()
        return tuple(board for board in dict.fromkeys(sent.seats) if board not in (self.me, *self.accepted))

    def heard(self, sender: str, message: Message) -> Said:
        if isinstance(message, Invite):
            if self.me not in message.seats or sender not in message.seats:
                raise ValueError(f"board {sender}'s invitation names no seat for board {self.me} or for itself")
            self.received[sender] = message
            seats = ", ".join(str(seat + 1) for seat, board in enumerate(message.seats) if board == self.me)
            return Said(
                said=[f"board {sender} invites this board to {message.title} (seat {seats}): accept or decline"]
            )
        sent = self.sent
        if not isinstance(message, Accept | Decline) or sent is None or message.game != sent.game:
            return Said()  # an answer to an invitation withdrawn or replaced
        if sender not in sent.seats:
            raise ValueError(f"board {sender} was not invited to game {sent.game}")
        if isinstance(message, Decline):
            self.sent = None
            reason = f": {message.reason}" if message.reason else ""
            return Said(said=[f"board {sender} declined the invitation to {sent.title}{reason}"])
        self.accepted.add(sender)
        if self.waiting_for():
            return Said(said=[f"board {sender} accepted; waiting for board {', board '.join(self.waiting_for())}"])
        self.sent = None
        return Said(
            start=(RemoteGame(sent.game, self.me, sent.seats), sent), said=["every board accepted: the game starts"]
        )

    def answer(self, sender: str, accept: bool, reason: str = "") -> Said:
        """This board's people answer board `sender`'s invitation."""
        invite = self.received.pop(sender, None)
        if invite is None:
            raise ValueError(f"board {sender} has not invited this board")
        if not accept:
            return Said([Send(sender, Decline(invite.game, reason))])
        self.received.clear()  # one game at a time: the other invitations lapse
        return Said([Send(sender, Accept(invite.game))], (RemoteGame(invite.game, sender, invite.seats), invite))
