"""An invitation is checked as a new game from a screen is, and names no file (docs/remote.md,
rule 11): what a board cannot play is declined at once with the reason, and a card set from a file
travels as its name, which the other board never reads, its cards coming with the host's stand-in."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from controller.games import GAMES, Game
from controller.remote.lobby import Lobby, options_here
from controller.remote.messages import Accept, Decline, Invite
from controller.service.control import AnswerInvite, NewGame
from controller.service.journal import Journal
from tests.remote.broker import Broker
from tests.remote.services import board_config, scan_until
from tests.remote.services import start as started
from tests.remote.test_lobby import lobby_board

BUILT_IN_CARDS = Path(__file__).resolve().parents[2] / "controller" / "games" / "data" / "zillertal.toml"


def declined(lobby: Lobby, invite: Invite, sender: str = "h") -> str:
    """The reason `lobby` declined `invite` at once with; nothing is left for its people to answer."""
    said = lobby.heard(sender, invite)
    [send] = said.sends
    assert send.to == sender and isinstance(send.message, Decline) and send.message.game == invite.game
    assert sender not in lobby.received and said.start is None
    assert said.said == [f"board {sender}'s invitation to {invite.title} was declined: {send.message.reason}"]
    return send.message.reason


@pytest.mark.parametrize(
    ("invite", "words"),
    [
        (Invite("g1", "chess", 2, ("h", "g1")), "unknown game 'chess' (known games: fillit, klotz"),
        (Invite("g1", "klotz", 7, ("h", "g1", "h", "h", "h", "h", "h")), "Klotz is played by 2, 3, 4 players, not 7"),
        (Invite("g1", "klotz", 2, ("h", "g1"), {"speed": 3}), "Klotz has no option speed"),
        (Invite("g1", "zillertal", 2, ("h", "g1"), {"bonuses": "yes"}), "bonuses must be true or false, not 'yes'"),
        (Invite("g1", "zillertal", 2, ("h", "g1"), {"hands": "mixed"}), "hands must be 'dealt' or 'physical'"),
        (
            Invite("g1", "zillertal", 2, ("h", "g1"), {"cards": "/dev/zero"}),
            "cards should name one of the inviting board's files, not '/dev/zero'",
        ),
        (
            Invite("g1", "zillertal", 2, ("h", "g1"), {"cards": "../../etc/passwd"}),
            "cards should name one of the inviting board's files",
        ),
        (Invite("g1", "zillertal", 2, ("h", "g1"), {"cards": 3}), "cards should name one of the inviting board's"),
        (Invite("../g1", "klotz", 2, ("h", "g1")), "the game id '../g1' is not usable"),
        (Invite("g1", "klotz", 3, ("h", "g1", "x/#")), "the board name 'x/#' is not usable"),
        (Invite("g1", "klotz", 2, ("g1", "g1")), "it names no seat for board h, which would host the game"),
    ],
)
def test_11_an_invitation_this_board_cannot_play_is_declined_at_once_saying_why(invite: Invite, words: str) -> None:
    reason = declined(Lobby("g1"), invite)
    assert reason.startswith("board g1 cannot play it: ") and words in reason


def test_11_an_invitation_to_a_game_the_board_fields_cannot_show_is_declined() -> None:
    def klotz_only(game: Game) -> bool:
        return game.name == "klotz"

    lobby = Lobby("g1", klotz_only)
    reason = declined(lobby, Invite("g1", "zodiac", 2, ("h", "g1")))
    assert reason == "board g1 cannot play it: Zodiac cannot be played on this board: some of its fields are not there"
    assert lobby.heard("h", Invite("g2", "klotz", 2, ("h", "g1"))).sends == []
    assert "h" in lobby.received


def test_11_a_new_invitation_that_cannot_be_played_replaces_the_board_earlier_one() -> None:
    lobby = Lobby("g1")
    lobby.heard("h", Invite("g1", "klotz", 2, ("h", "g1")))
    declined(lobby, Invite("g2", "chess", 2, ("h", "g1")))
    with pytest.raises(ValueError, match="has not invited this board"):
        lobby.answer("h", True)


def test_11_an_invitation_naming_no_seat_here_is_not_this_board_and_is_not_answered() -> None:
    with pytest.raises(ValueError, match="names no seat for board g1"):
        Lobby("g1").heard("h", Invite("g1", "chess", 2, ("h", "g2")))


def test_11_a_card_set_travels_by_its_name_and_the_other_board_reads_no_file() -> None:
    lobby = Lobby("g1")
    said = lobby.heard("h", Invite("g1", "zillertal", 2, ("h", "g1"), {"cards": "alpine", "bonuses": False}))
    assert said.sends == [] and said.said == [
        "board h invites this board to Zillertal (seat 2, cards: alpine): accept or decline"
    ]
    invite = lobby.received["h"]
    assert options_here(GAMES["zillertal"], invite.options) == {"cards": None, "bonuses": False, "hands": "dealt"}


def test_11_a_game_across_boards_with_a_card_set_file_plays_with_the_host_cards_on_both(
    broker: Broker, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The host's card set is a file of its own; the guest has none of that name (nor any folder for
    it), and plays with the host's cards, as its stand-in brings them."""
    host_dir, guest_dir = tmp_path / "h", tmp_path / "g1"
    cards = host_dir / "state" / "cards"
    cards.mkdir(parents=True)
    own = BUILT_IN_CARDS.read_text(encoding="utf-8").replace('name = "tafel design (ZT-5, ZT-6)"', 'name = "alpine"')
    (cards / "alpine.toml").write_text(own, encoding="utf-8")
    host = lobby_board(board_config("zillertal", 2, "h", broker.port, host_dir))
    guest = lobby_board(board_config("zillertal", 2, "g1", broker.port, guest_dir))
    boards = [host, guest]
    try:
        scan_until(boards, lambda: "g1" in host.remote.online and "h" in guest.remote.online)
        invited = host.table.control.submit(
            NewGame("zillertal", 2, ("random", "board:g1"), {"cards": "alpine"}, abandon=True)
        )
        scan_until(boards, invited.done)
        assert "invited board g1" in invited.result(1)
        scan_until(boards, lambda: "h" in guest.remote.lobby.received)
        assert guest.remote.lobby.received["h"].options == {"cards": "alpine"}  # a name, not the host's path
        with caplog.at_level(logging.ERROR):
            accepted = guest.table.control.submit(AnswerInvite("h", True, abandon=True))
            scan_until(boards, lambda: host.table.remote_play is not None and guest.table.remote_play is not None)
            assert "accepted" in accepted.result(1)
            scan_until(boards, lambda: guest.table.remote_play.role.ply >= 4)
        assert not [record for record in caplog.records if "cannot start" in record.getMessage()]
        assert host.session.state.card_set.name == "alpine"
        assert guest.session.state.card_set.name == "alpine"  # the host's cards, from its stand-in
    finally:
        for service in boards:
            service.shutdown()
    host_start = Journal(host_dir / "state").recover().game.start
    guest_start = Journal(guest_dir / "state").recover().game.start
    assert host_start["options"]["cards"] == str(cards / "alpine.toml")
    assert guest_start["options"]["cards"] is None  # a guest's own game never names the host's file


# --- rule 13: an invitation holds until answered or withdrawn --------------------------------------


def invited(lobby: Lobby, seats: tuple[str, ...] = ("h", "g1", "g2")) -> Invite:
    sends = lobby.invite("klotz", len(seats), list(seats), {})
    invite = sends[-1].message
    assert isinstance(invite, Invite)
    return invite


def withdrawals(sends: list) -> dict[str, str]:
    return {send.to: send.message.reason for send in sends if isinstance(send.message, Decline)}


def test_13_the_first_no_calls_the_game_off_on_the_boards_that_accepted() -> None:
    host = Lobby("h")
    invite = invited(host)
    host.heard("g1", Accept(invite.game))
    said = host.heard("g2", Decline(invite.game, "busy"))
    assert said.said == ["board g2 declined the invitation to klotz: busy"] and said.start is None
    assert withdrawals(said.sends) == {"g1": "board g2 declined the invitation to klotz: busy: the game is off"}
    assert withdrawals(host.heard("g2", Accept(invite.game)).sends) == {"g2": "board h withdrew its invitation"}


def test_13_an_invitation_withdrawn_leaves_the_lobbies_and_a_late_acceptance_hears_so() -> None:
    host, guest = Lobby("h"), Lobby("g1")
    invite = invited(host, ("h", "g1"))
    guest.heard("h", invite)
    assert "h" in guest.received
    sends = host.withdraw()
    assert withdrawals(sends) == {"g1": "board h withdrew its invitation to klotz"}
    assert host.sent is None and host.waiting_for() == () and host.withdraw() == []
    assert guest.heard("h", sends[0].message).said == ["board h withdrew its invitation to klotz"]
    assert "h" not in guest.received
    late = host.heard("g1", Accept(invite.game))  # g1 accepted while it was offline
    assert withdrawals(late.sends) == {"g1": "board h withdrew its invitation"} and late.start is None


def test_13_inviting_again_withdraws_the_earlier_invitation() -> None:
    host = Lobby("h")
    first = invited(host, ("h", "g1"))
    sends = host.invite("fillit", 2, ["h", "g2"], {})
    assert withdrawals(sends) == {"g1": "board h withdrew its invitation to klotz"}
    assert host.heard("g1", Accept(first.game)).start is None


def test_13_an_acceptance_repeated_after_the_game_started_changes_nothing() -> None:
    host = Lobby("h")
    invite = invited(host, ("h", "g1"))
    assert host.heard("g1", Accept(invite.game)).start is not None
    assert host.heard("g1", Accept(invite.game)).sends == []


def test_13_a_board_that_accepted_calls_its_game_off_when_the_host_starts_another(
    broker: Broker, tmp_path: Path
) -> None:
    host = lobby_board(board_config("klotz", 3, "h", broker.port, tmp_path / "h"))
    g1 = lobby_board(board_config("klotz", 3, "g1", broker.port, tmp_path / "g1"))
    boards = [host, g1]
    try:
        scan_until(boards, lambda: "g1" in host.remote.online and "h" in g1.remote.online)
        seats = ("random", "board:g1", "board:g2")  # board g2 is offline: the host waits for it
        invitation = host.table.control.submit(NewGame("klotz", 3, seats, {}, abandon=True))
        scan_until(boards, lambda: "h" in g1.remote.lobby.received)
        assert "offline now: g2" in invitation.result(1)
        accepted = g1.table.control.submit(AnswerInvite("h", True, abandon=True))
        scan_until(boards, lambda: g1.table.remote_play is not None and host.remote.lobby.waiting_for() == ("g2",))
        assert "accepted" in accepted.result(1) and g1.table.remote_play.playing
        local = host.table.control.submit(NewGame("klotz", 2, ("random", "random"), {}, abandon=True))
        scan_until(boards, lambda: g1.table.remote_play.ended is not None)
        assert "a new game of Klotz starts" in local.result(1)
        assert not g1.table.remote_play.playing and host.table.remote_play is None
        assert g1.remote.lobby.received == {}
    finally:
        for service in boards:
            service.shutdown()


def test_13_a_board_that_leaves_before_the_game_began_declines_for_everyone() -> None:
    from controller.games import GAMES
    from controller.remote.guest import Guest

    host = Lobby("h")
    invite = invited(host)
    host.heard("g1", Accept(invite.game))  # g1 laid the game out; the host still waits for g2
    guest = Guest("g1", "h", invite.game, GAMES["klotz"], invite.seats)
    decline, request = guest.request("resign")
    assert guest.result == "board g1 resigned" and request.message.kind == "resign"
    said = host.heard("g1", decline.message)
    assert said.said == ["board g1 declined the invitation to klotz: board g1 left before the game began"]
    assert withdrawals(said.sends) == {"g2": f"{said.said[0]}: the game is off"} and host.sent is None


def test_13_an_acceptance_a_restarted_board_knows_nothing_of_hears_the_withdrawal() -> None:
    restarted = Lobby("h")  # its invitation was in its memory only
    said = restarted.heard("g1", Accept("a1b2c3d4"))
    assert withdrawals(said.sends) == {"g1": "board h withdrew its invitation"} and said.start is None


def test_13_a_board_that_accepted_hears_when_the_inviting_board_restarted_and_will_not_begin(
    broker: Broker, tmp_path: Path
) -> None:
    host = lobby_board(board_config("klotz", 3, "h", broker.port, tmp_path / "h"))
    g1 = lobby_board(board_config("klotz", 3, "g1", broker.port, tmp_path / "g1"))
    boards = [host, g1]
    try:
        scan_until(boards, lambda: "g1" in host.remote.online and "h" in g1.remote.online)
        host.table.control.submit(NewGame("klotz", 3, ("random", "board:g1", "board:g2"), {}, abandon=True))
        scan_until(boards, lambda: "h" in g1.remote.lobby.received)
        g1.table.control.submit(AnswerInvite("h", True, abandon=True))
        scan_until(boards, lambda: g1.table.remote_play is not None and host.remote.lobby.waiting_for() == ("g2",))
        host.shutdown()  # the inviting board restarts: its invitation was in its memory only
        scan_until([g1], lambda: g1.table.remote_play.table.online.get("h") is False)
        host = boards[0] = started(tmp_path / "h" / "config.toml")
        scan_until(boards, lambda: g1.table.remote_play.ended is not None)
        assert g1.table.remote_play.ended == (
            "over",
            "board h hosts no game " + g1.table.remote_play.role.game_id + ": it is over there, or never began",
        )
        assert not g1.table.remote_play.playing
    finally:
        for service in boards:
            service.shutdown()
