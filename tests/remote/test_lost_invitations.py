"""Invitations across a broker that lost them (docs/remote.md, rule 7, "Delivery"): a broker keeps
nothing for a board it has never seen, and one that crashed keeps nothing at all. So the inviting
board repeats its open invitation whenever its link comes up and whenever a board it waits for
comes online; the invited board shows a repeat once, and one that accepted answers it with its yes
again; a board that asks where the game stands has accepted it."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.games import GAMES
from controller.remote import topics
from controller.remote.host import Send
from controller.remote.link import BrokerSettings, Event, Incoming, LinkState, RemoteGame
from controller.remote.messages import Accept, Decline, Invite, Message, Presence, Sync
from controller.service.control import AnswerInvite, NewGame
from controller.service.remote_board import RemoteBoard
from controller.service.remote_play import RemotePlay
from tests.remote.broker import Broker
from tests.remote.services import board_config, scan_until
from tests.remote.test_lobby import lobby_board
from tests.table.test_tracker_klotz import Table

LOG = logging.getLogger("lost-invitations")


def test_a_board_invited_before_it_ever_reached_the_broker_sees_the_invitation_when_it_comes_online(
    broker: Broker, tmp_path: Path
) -> None:
    """The broker keeps nothing for a board it has never seen: the invitation goes again when the
    invited board comes online, and the game starts on both."""
    host = lobby_board(board_config("klotz", 2, "h", broker.port, tmp_path / "h"))
    boards = [host]
    try:
        scan_until(boards, lambda: host.remote.link.connected)
        invited = host.table.control.submit(NewGame("klotz", 2, ("random", "board:g1"), {"max_plies": 12}))
        scan_until(boards, lambda: invited.done())
        assert "offline now: g1" in invited.result(1)
        guest = lobby_board(board_config("klotz", 2, "g1", broker.port, tmp_path / "g1"))
        boards.append(guest)
        scan_until(boards, lambda: "h" in guest.remote.lobby.received)
        guest.table.control.submit(AnswerInvite("h", True))
        scan_until(boards, lambda: host.table.remote_play is not None and guest.table.remote_play is not None)
        scan_until(boards, lambda: host.table.remote_play.role.ply >= 2)
    finally:
        for service in boards:
            service.shutdown()


@dataclass
class Settings:
    board: str


@dataclass
class LobbyWire:
    """A board's end of the link, delivered by hand: what it sent, and what the test hands it."""

    settings: Settings
    connected: bool = True
    sent: list[Send] = field(default_factory=list)
    inbox: list[Event] = field(default_factory=list)

    def drain(self) -> list[Event]:
        events, self.inbox = self.inbox, []
        return events

    def send_to(self, board: str, message: Message) -> None:
        self.sent.append(Send(board, message))

    def send(self, send: Send, host_of: str | None = None) -> None:
        self.sent.append(send)

    def hand(self, sender: str, message: Message) -> None:
        kind = "presence" if isinstance(message, Presence) else "inbox"
        board = sender if kind == "presence" else self.settings.board
        self.inbox.append(Incoming(topics.Address(kind, board, None if kind == "presence" else sender), message))

    def taken(self) -> list[Send]:
        sent, self.sent = self.sent, []
        return sent


def board(name: str, wire: LobbyWire) -> RemoteBoard:
    settings = BrokerSettings(name, "127.0.0.1", 1, name, "pw")
    return RemoteBoard(settings, LOG, link=wire)  # type: ignore[arg-type]


def scan(remote: RemoteBoard, table: Table | None = None) -> Any:
    """One scan of `remote`; `table`: the board's pieces, once a game is on (else none are asked)."""
    return remote.scan(0, table.tracker if table is not None else None, False)  # type: ignore[arg-type]


def inviting() -> tuple[RemoteBoard, LobbyWire, Invite]:
    wire = LobbyWire(Settings("h"))
    host = board("h", wire)
    wire.hand("g1", Presence(True, "g1"))
    scan(host)
    host.invite("klotz", 2, ("h", "g1"), {})
    [send] = wire.taken()
    assert isinstance(send.message, Invite)
    return host, wire, send.message


def test_the_open_invitation_goes_again_when_the_link_comes_back_up() -> None:
    host, wire, invite = inviting()
    wire.inbox.append(LinkState(True))  # the broker restarted, perhaps with nothing kept
    scan(host)
    assert wire.taken() == [Send("g1", invite)]


def test_the_open_invitation_goes_again_to_a_board_that_comes_back_online_and_not_to_one_that_accepted() -> None:
    host, wire, invite = inviting()
    wire.hand("g1", Presence(False, "g1"))
    scan(host)
    assert wire.taken() == []
    wire.hand("g1", Presence(True, "g1"))
    scan(host)
    assert wire.taken() == [Send("g1", invite)]
    wire.hand("g1", Accept(invite.game))
    news = scan(host)
    assert news.start is not None
    wire.inbox.append(LinkState(True))
    wire.hand("g1", Presence(True, "g1"))
    scan(host)
    assert wire.taken() == []  # nothing open: the game started


def test_a_board_that_asks_where_the_game_stands_has_accepted_it_and_the_game_starts() -> None:
    host, wire, invite = inviting()
    wire.hand("g1", Sync(invite.game, 0))  # its acceptance was lost; its question was not
    news = scan(host)
    assert news.start is not None and news.start[0] == RemoteGame(invite.game, "h", ("h", "g1"))
    assert "every board accepted: the game starts" in news.said
    assert not any(isinstance(send.message, Decline) for send in wire.taken())


def test_an_invitation_shown_is_shown_once_however_often_it_comes() -> None:
    wire = LobbyWire(Settings("g1"))
    guest = board("g1", wire)
    invite = Invite("a1b2c3d4", "klotz", 2, ("h", "g1"))
    wire.hand("h", invite)
    assert scan(guest).said == ["board h invites this board to Klotz (seat 2): accept or decline"]
    wire.hand("h", invite)
    assert scan(guest).said == [] and list(guest.lobby.received) == ["h"] and wire.taken() == []


def test_a_board_that_accepted_answers_the_invitation_sent_again_with_its_yes(tmp_path: Path) -> None:
    wire = LobbyWire(Settings("g1"))
    guest = board("g1", wire)
    invite = Invite("a1b2c3d4", "klotz", 2, ("h", "g1"))
    wire.hand("h", invite)
    scan(guest)
    _, news = guest.answer("h", True)
    assert news.start is not None
    spec, _ = news.start
    start = GAMES["klotz"].new_game(players=2)
    guest.play = RemotePlay.start(wire, spec, [start], [], tmp_path, LOG)  # type: ignore[arg-type]
    assert wire.taken()[0] == Send("h", Accept(invite.game))
    wire.hand("h", invite)  # the host never had the yes: it asks again
    scan(guest, Table(start))
    assert wire.taken() == [Send("h", Accept(invite.game))]
    assert guest.play.playing
