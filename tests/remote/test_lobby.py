"""A game across boards started from the lobby (docs/remote.md, "Inviting a board"): one board
invites another by name from its screen, the other accepts on its screen, and they play the game to
the end; and the invitations without a broker, in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.remote.lobby import Lobby
from controller.remote.messages import Accept, Decline, Invite
from controller.service.control import AnswerInvite, NewGame
from controller.service.journal import Journal
from controller.service.loop import Service
from tests.remote.broker import Broker
from tests.remote.services import board_config, scan_until
from tests.remote.services import start as started


def lobby_board(path: Path) -> Service:
    """A board on the broker with no game across boards configured; its bots play its seats."""
    head, _, _ = path.read_text().partition('game = "t1"')
    path.write_text(head.replace("[sim]\n", '[sim]\nbots = true\nbot = "random"\n'))
    return started(path)


def test_a_board_invites_another_by_name_and_they_play_the_game_to_the_end(broker: Broker, tmp_path: Path) -> None:
    host = lobby_board(board_config("klotz", 2, "h", broker.port, tmp_path / "h"))
    guest = lobby_board(board_config("klotz", 2, "g1", broker.port, tmp_path / "g1"))
    boards = [host, guest]
    try:
        assert host.table.remote_play is None and guest.table.remote_play is None
        scan_until(boards, lambda: "g1" in host.remote.online and "h" in guest.remote.online)
        invited = host.table.control.submit(NewGame("klotz", 2, ("random", "board:g1"), {"max_plies": 12}))
        scan_until(boards, lambda: "h" in guest.remote.lobby.received)
        assert "invited board g1" in invited.result(1)
        assert guest.remote.view().invitations == (("h", "klotz", 2, (1,)),)
        accepted = guest.table.control.submit(AnswerInvite("h", True))
        scan_until(boards, lambda: host.table.remote_play is not None and guest.table.remote_play is not None)
        assert "accepted" in accepted.result(1)
        scan_until(boards, lambda: host.table.remote_play.role.ply >= 4)
        guest.shutdown()  # the guest board loses power: it comes back into the game the lobby started
        guest = boards[1] = started(tmp_path / "g1" / "config.toml")
        assert guest.table.remote_play is not None and guest.table.remote_play.guest is not None
        over = lambda service: service.session.state.is_terminal() and service.table.remote_play.settled  # noqa: E731
        scan_until(boards, lambda: over(host) and over(guest) and guest.table.remote_play.role.ply == 12)
        assert [move.public for move in host.table.moves] == guest.table.remote_play.role.moves
    finally:
        for service in boards:
            service.shutdown()
    recovery = Journal(tmp_path / "h" / "state").recover()
    assert recovery.game is not None and recovery.game.start["remote"]["seats"] == ["h", "g1"]


def test_invitations_say_what_went_wrong_in_words() -> None:
    lobby = Lobby("h")
    with pytest.raises(ValueError, match="name at least one other board"):
        lobby.invite("klotz", 2, ["h", "h"], {})
    with pytest.raises(ValueError, match="hosts the game and plays at least one seat"):
        lobby.invite("klotz", 2, ["g1", "g2"], {})
    with pytest.raises(ValueError, match="is not usable"):
        lobby.invite("klotz", 2, ["h", "G 1"], {})
    [send] = lobby.invite("klotz", 2, ["h", "g1"], {})
    invite = send.message
    assert isinstance(invite, Invite)
    assert lobby.heard("g1", Decline(invite.game, "busy")).said == ["board g1 declined the invitation to klotz: busy"]
    assert lobby.heard("g1", Accept(invite.game)).start is None  # an answer to an invitation withdrawn
    guest = Lobby("g1")
    with pytest.raises(ValueError, match="names no seat for board g1"):
        guest.heard("h", Invite("x1", "klotz", 2, ("h", "g2")))
    with pytest.raises(ValueError, match="has not invited this board"):
        guest.answer("h", True)
