"""Invitations between boards (docs/remote.md, "Inviting a board"): a board invites the boards that
are to play seats of a new game; once each has accepted, the inviting board hosts the game. Pure:
it is handed the messages and the people's answers, and says what to send and what starts."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.games import Game, load_game
from controller.remote.host import Send
from controller.remote.link import RemoteGame
from controller.remote.messages import Accept, Decline, Invite, Message
from controller.remote.topics import check_name

FILE_CHOICE = re.compile(r"[^/\\\x00-\x1f\x7f]{1,64}")  # a file's name as a screen chose it: never a path


def options_here(game: Game, options: Mapping[str, Any]) -> dict[str, Any]:
    """An invitation's options as a guest plays them (docs/remote.md, rule 11): an option that is a
    file on the inviting board (a card set) is the name its screen chose, for the people to read,
    and is never read here (the host's stand-in brings the cards): the guest's own game takes the
    built-in default in its place. A ValueError in words for an option the game does not have or a
    file option that is not a name."""
    resolved = game.resolve_options(options)
    for option in game.options:
        value = resolved[option.name]
        if option.names_file:
            if value is not None and not (isinstance(value, str) and FILE_CHOICE.fullmatch(value)):
                raise ValueError(f"{option.name} should name one of the inviting board's files, not {value!r:.40}")
            resolved[option.name] = None
    return resolved


def check_invite(invite: Invite, sender: str, fits: Callable[[Game], bool]) -> Game:
    """The game of `sender`'s invitation, checked as a new game from a screen is (docs/remote.md,
    rule 11); a ValueError in words saying what this board cannot play."""
    check_name(invite.game, "the game id")
    for board in invite.seats:
        check_name(board, "the board name")
    if sender not in invite.seats:
        raise ValueError(f"it names no seat for board {sender}, which would host the game")
    game = load_game(invite.title)
    game.check_players(invite.players)
    game.new_game(players=invite.players, **options_here(game, invite.options))
    if not fits(game):
        raise ValueError(f"{game.title} cannot be played on this board: some of its fields are not there")
    return game


def _ready(_game: Game) -> bool:
    return True


@dataclass
class Said:
    """What one message or answer changed: what to send, a game to start here, words for the people."""

    sends: list[Send] = field(default_factory=list)
    start: tuple[RemoteGame, Invite] | None = None
    said: list[str] = field(default_factory=list)


class Lobby:
    """This board's invitations: the one it sent (and who accepted), and those it received."""

    def __init__(self, me: str, fits: Callable[[Game], bool] = _ready) -> None:
        self.me = me
        self.fits = fits  # whether this board's fields can show a game
        self.sent: Invite | None = None
        self.accepted: set[str] = set()
        self.received: dict[str, Invite] = {}  # by the inviting board
        self.hosted: set[str] = set()  # the games this board's invitations started

    def invite(self, title: str, players: int, seats: Sequence[str], options: Mapping[str, Any]) -> list[Send]:
        """Invite the boards named in `seats` (this board's name for its own seats) to a new game."""
        for board in seats:
            check_name(board, "board name")
        others = [board for board in dict.fromkeys(seats) if board != self.me]
        if not others:
            raise ValueError("name at least one other board to play a game across boards")
        if self.me not in seats:
            raise ValueError(f"the inviting board ({self.me}) hosts the game and plays at least one seat")
        withdrawn = self.withdraw()  # an invitation replaces this board's earlier one
        invite = Invite(secrets.token_hex(4), title, players, tuple(seats), dict(options))
        self.sent, self.accepted = invite, set()
        return [*withdrawn, *(Send(board, invite) for board in others)]

    def withdraw(self) -> list[Send]:
        """This board's people start another game (or invite again): its invitation lapses, and the
        boards it invited are told (docs/remote.md, rule 13)."""
        sent, self.sent, self.accepted = self.sent, None, set()
        if sent is None:
            return []
        boards = [board for board in dict.fromkeys(sent.seats) if board != self.me]
        return [Send(board, Decline(sent.game, self._withdrawal(sent))) for board in boards]

    def _withdrawal(self, invite: Invite) -> str:
        return f"board {self.me} withdrew its invitation to {invite.title}"

    def waiting_for(self) -> tuple[str, ...]:
        sent = self.sent
        if sent is None:
            return ()
        return tuple(board for board in dict.fromkeys(sent.seats) if board not in (self.me, *self.accepted))

    def heard(self, sender: str, message: Message) -> Said:
        if isinstance(message, Invite):
            return self._invited(sender, message)
        sent = self.sent
        if isinstance(message, Decline) and (sent is None or message.game != sent.game):
            return self._lapsed(sender, message)
        if isinstance(message, Accept) and (sent is None or message.game != sent.game):
            if message.game in self.hosted:
                return Said()  # a repeat: the game is on
            # Accepted after it was withdrawn (or this board restarted since): the board that accepted
            # has laid the game out, and must hear that no board hosts it.
            return Said([Send(sender, Decline(message.game, f"board {self.me} withdrew its invitation"))])
        if not isinstance(message, Accept | Decline) or sent is None or message.game != sent.game:
            return Said()  # an answer to an invitation already settled (a repeat)
        if sender not in sent.seats:
            raise ValueError(f"board {sender} was not invited to game {sent.game}")
        if isinstance(message, Decline):
            reason = f": {message.reason:.200}" if message.reason else ""  # words of another board, kept short
            words = f"board {sender} declined the invitation to {sent.title}{reason}"
            # The game is off: the other boards, some of which may have accepted and started it, hear so.
            sends = [send for send in self.withdraw() if send.to != sender]
            sends = [Send(send.to, Decline(sent.game, f"{words}: the game is off")) for send in sends]
            return Said(sends, said=[words])
        self.accepted.add(sender)
        if self.waiting_for():
            return Said(said=[f"board {sender} accepted; waiting for board {', board '.join(self.waiting_for())}"])
        self.sent = None
        self.hosted.add(sent.game)
        return Said(
            start=(RemoteGame(sent.game, self.me, sent.seats), sent), said=["every board accepted: the game starts"]
        )

    def _lapsed(self, sender: str, message: Decline) -> Said:
        """Board `sender` withdrew the invitation this board holds from it, if it is that one."""
        held = self.received.get(sender)
        if held is None or held.game != message.game:
            return Said()  # a withdrawal of one already answered or replaced
        del self.received[sender]
        return Said(said=[f"{message.reason:.200}" if message.reason else f"board {sender} withdrew its invitation"])

    def _invited(self, sender: str, invite: Invite) -> Said:
        if self.received.get(sender) == invite:
            return Said()  # a repeat (sent again when this board came back): shown once
        if self.me not in invite.seats:
            raise ValueError(f"board {sender}'s invitation names no seat for board {self.me}")
        try:
            game = check_invite(invite, sender, self.fits)
        except ValueError as error:
            reason = f"board {self.me} cannot play it: {error}"
            self.received.pop(sender, None)  # an earlier invitation of that board is replaced by this one
            return Said(
                [Send(sender, Decline(invite.game, reason))],
                said=[f"board {sender}'s invitation to {invite.title:.40} was declined: {reason}"],
            )
        self.received[sender] = invite
        seats = ", ".join(str(seat + 1) for seat, board in enumerate(invite.seats) if board == self.me)
        files = [
            f"{option.name}: {invite.options[option.name]}"
            for option in game.options
            if option.names_file and invite.options.get(option.name) is not None
        ]
        chosen = f", {', '.join(files)}" if files else ""
        return Said(
            said=[f"board {sender} invites this board to {game.title} (seat {seats}{chosen}): accept or decline"]
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
