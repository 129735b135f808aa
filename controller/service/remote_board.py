"""This board on the broker (docs/remote.md): its link, its invitations, and the game it plays with
other boards, if any. The link's events are drained once per scan and split between the lobby
(invitations) and the game; what the people must hear, and a game to start, come back."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.games import Game
from controller.remote import topics
from controller.remote.link import BrokerSettings, Event, Incoming, Link, LinkState, RemoteGame
from controller.remote.lobby import Lobby, Said
from controller.remote.messages import Accept, Decline, Invite, Presence, Sync
from controller.remote.table import Update, handle_alone
from controller.service.control import LobbyView
from controller.service.remote_play import RemotePlay
from controller.table.tracker import Tracker

INVITATIONS = (Invite, Accept, Decline)


@dataclass
class News:
    """What one scan brought: the game's update, a game to start here, words for the people."""

    update: Update | None = None
    start: tuple[RemoteGame, Invite] | None = None
    said: list[str] = field(default_factory=list)
    changed: bool = False  # what the lobby shows changed (a board came or went, an invitation)


class RemoteBoard:
    def __init__(
        self,
        settings: BrokerSettings,
        log: logging.Logger,
        link: Link | None = None,
        fits: Callable[[Game], bool] | None = None,
    ) -> None:
        """`fits`: whether this board's fields can show a game (an invitation to one they cannot is
        declined at once)."""
        self.me = settings.board
        self.log = log
        self.link = link or Link(settings, follow=[topics.ALL_PRESENCE], log=log)
        self.lobby = Lobby(self.me) if fits is None else Lobby(self.me, fits)
        self.online: dict[str, bool] = {}  # every board heard of on the broker
        self.play: RemotePlay | None = None

    def start(self) -> None:
        self.link.start()

    def close(self) -> None:
        if self.play is not None:
            self.play.close()
        self.link.close()

    @property
    def holding(self) -> bool:
        """Whether this board's last moves in a game across boards wait to leave (rule 5)."""
        return self.play is not None and self.play.holding

    def scan(self, now: int, tracker: Tracker, board_changed: bool) -> News:
        events = self.link.drain()
        news = News()
        game_events: list[Event] = []
        for event in events:
            if isinstance(event, Incoming) and isinstance(event.message, INVITATIONS):
                self._lobby(event, news)
                continue
            if isinstance(event, Incoming) and isinstance(event.message, Sync) and self._invited(event, news):
                continue
            if isinstance(event, Incoming) and isinstance(event.message, Sync) and not self._hosts(event.message.game):
                self._hosts_none(event.sender, event.message.game)
                continue
            if isinstance(event, Incoming) and isinstance(event.message, Presence) and event.sender != self.me:
                online = event.message.online and event.sender == event.message.name
                news.changed |= self.online.get(event.sender) != online
                if online and not self.online.get(event.sender):
                    self._invite_again([event.sender])  # a board come (back) online sees the invitation
                self.online[event.sender] = online
            if isinstance(event, LinkState) and event.up:
                self._invite_again(self.lobby.waiting_for())  # the broker may have lost what it held
            game_events.append(event)
        if self.play is not None:
            news.update = self.play.scan(now, tracker, board_changed, game_events)
        else:
            news.said += [event.reason for event in game_events if isinstance(event, LinkState) and event.reason]
        return news

    def _invited(self, event: Incoming, news: News) -> bool:
        """A board this board invited asks where the game stands: it accepted and laid the game out,
        and its acceptance was lost on the way (a broker that lost what it held); taken as given."""
        sent, message = self.lobby.sent, event.message
        assert isinstance(message, Sync)
        if sent is None or message.game != sent.game or event.sender not in self.lobby.waiting_for():
            return False
        self._lobby(Incoming(event.address, Accept(sent.game)), news)
        return True

    def _invite_again(self, boards: Sequence[str]) -> None:
        """This board's open invitation, sent again to `boards` it still waits for: every message is
        safe to repeat (docs/remote.md, rule 7), and the invited board shows it once."""
        sent = self.lobby.sent
        waiting = self.lobby.waiting_for()
        for board in boards:
            if sent is not None and board in waiting:
                self.link.send_to(board, sent)

    def _hosts(self, game: str) -> bool:
        """Whether this board hosts `game`, or may yet (its invitation to it is open)."""
        play, sent = self.play, self.lobby.sent
        hosting = play is not None and play.guest is None and play.role.game_id == game
        return hosting or (sent is not None and sent.game == game) or game in self.lobby.hosted

    def call_off(self, spec: RemoteGame, reason: str) -> None:
        """Game `spec`, which every board accepted, cannot start here after all: the others hear it."""
        self.lobby.hosted.discard(spec.game)
        for board in dict.fromkeys(spec.seats):
            if board != self.me:
                self.link.send_to(board, Decline(spec.game, reason))

    def _hosts_none(self, board: str, game: str) -> None:
        """Board `board` asks where game `game` stands, which this board does not host (any more):
        it is over here, or never began (this board restarted before every board accepted). The
        board is told, so that it does not wait for ever (docs/remote.md, rule 13)."""
        self.log.info("board %s asked for game %s, which this board does not host: told so", board, game)
        self.link.send_to(
            board, Decline(game, f"board {self.me} hosts no game {game}: it is over there, or never began")
        )

    def _lobby(self, event: Incoming, news: News) -> None:
        message, sender = event.message, event.sender
        guest = self.play.guest if self.play is not None else None
        if isinstance(message, Decline) and guest is not None and (guest.host, guest.game_id) == (sender, message.game):
            words = guest.called_off(message.reason)  # the invitation accepted here was withdrawn
            if words:
                news.changed = True
                news.said.append(words)
                self.log.info("%s", words)
            return
        if isinstance(message, Accept) and self.play is not None and self.play.role.game_id == message.game:
            return  # a repeat of an acceptance of the game this board plays (hosts since before a restart)
        if isinstance(message, Invite) and guest is not None and (guest.host, guest.game_id) == (sender, message.game):
            # The invitation accepted here, sent again: this board's yes never reached the host.
            self.link.send_to(sender, Accept(message.game))
            return
        if isinstance(message, Invite) and self.play is not None and self.play.playing:
            self.link.send_to(sender, Decline(message.game, f"board {self.me} is playing a game across boards"))
            return
        handle_alone(self.log, sender, lambda: self._apply(self.lobby.heard(sender, message), news))

    def _apply(self, said: Said, news: News) -> None:
        news.changed = True
        for send in said.sends:
            assert send.to is not None
            self.link.send_to(send.to, send.message)
        news.said += said.said
        for line in said.said:
            self.log.info("%s", line)
        if said.start is not None:
            news.start = said.start

    def view(self) -> LobbyView:
        online = tuple(sorted(board for board, up in self.online.items() if up and board != topics.RELAY))
        invitations = tuple(
            (board, invite.title, invite.players, tuple(seat for seat, b in enumerate(invite.seats) if b == self.me))
            for board, invite in self.lobby.received.items()
        )
        return LobbyView(self.me, online, invitations, self.lobby.waiting_for())

    # --- what the people here do -------------------------------------------------------------------------
    def invite(self, title: str, players: int, seats: Sequence[str], options: Mapping[str, Any]) -> str:
        """Invite the boards of `seats` (this board's name where a seat is played here)."""
        if self.play is not None and self.play.playing:
            raise ValueError("a game across boards is on: ask the other boards to abandon it first")
        for send in self.lobby.invite(title, players, seats, options):
            assert send.to is not None
            self.link.send_to(send.to, send.message)
        away = [board for board in self.lobby.waiting_for() if not self.online.get(board, False)]
        note = f" (offline now: {', '.join(away)}; it sees the invitation when it is back)" if away else ""
        return f"invited board {', board '.join(self.lobby.waiting_for())}; the game starts when each accepts{note}"

    def withdraw(self) -> None:
        """This board's people start or resume another game: its invitation, if any, lapses, and
        the boards it invited are told (docs/remote.md, rule 13)."""
        for send in self.lobby.withdraw():
            assert send.to is not None
            self.link.send_to(send.to, send.message)

    def answer(self, board: str, accept: bool) -> tuple[str, News]:
        """This board's people answer board `board`'s invitation."""
        if accept and self.play is not None and self.play.playing:
            raise ValueError("a game across boards is on: ask the other boards to abandon it first")
        news = News()
        self._apply(self.lobby.answer(board, accept), news)
        return (f"accepted board {board}'s invitation" if accept else f"declined board {board}'s invitation"), news
