"""A game the boards ended stays ended, through power cuts and the history (docs/remote.md, rule 10):
two `tafel run` services on simulated boards in this process, through a real Mosquitto."""

from __future__ import annotations

from pathlib import Path

from controller.games import GAMES
from controller.service.archive import Archive
from controller.service.control import AnswerBoards, AskBoards, Resume
from controller.service.journal import Journal
from controller.service.loop import Service
from tests.remote.broker import Broker
from tests.remote.services import board_config, scan_until
from tests.remote.services import start as started
from tests.remote.test_requests import _waiting, start


def two_moves(broker: Broker, tmp_path: Path) -> tuple[Service, Service]:
    """Boards h and g1 of a Klotz game after one move each, both told."""
    state = GAMES["klotz"].new_game(players=2, seed=3, max_plies=40)
    red = state.legal_actions()[0]
    yellow = state.apply(red).legal_actions()[0]
    host = start(board_config("klotz", 2, "h", broker.port, tmp_path / "h"), [state.action_to_str(red)])
    guest = start(
        board_config("klotz", 2, "g1", broker.port, tmp_path / "g1"), [state.apply(red).action_to_str(yellow)]
    )
    ply = lambda service: service.table.remote_play.role.ply  # noqa: E731
    scan_until([host, guest], lambda: ply(host) == 2 and ply(guest) == 2)
    scan_until([host, guest], lambda: host.table.remote_play.settled and guest.table.remote_play.settled)
    return host, guest


def test_10_a_resignation_is_the_game_result_in_the_history_and_a_power_cut_does_not_bring_the_game_back(
    broker: Broker, tmp_path: Path
) -> None:
    host, guest = two_moves(broker, tmp_path)
    boards = [host, guest]
    try:
        unasked = host.table.control.submit(AnswerBoards(True))  # a yes to nothing is no press of confirm
        scan_until(boards, unasked.done)
        assert "no other board is asking anything" in str(unasked.exception(1))
        resigned = guest.table.control.submit(AskBoards("resign"))
        scan_until(boards, lambda: host.table.remote_play.ended is not None and resigned.done())
        assert resigned.result(1) == "this board resigned"
        scan_until(boards, lambda: guest.table.remote_play.ended == ("over", "board g1 resigned"))
        assert host.table.remote_play.ended == ("over", "board g1 resigned")
        for service in boards:  # every screen says so, instead of whose turn it is
            assert _waiting(service) == ["Game over: board g1 resigned."]
        for service in boards:
            [kept] = Archive(Path(service.config.service.state_dir) / "games").games()
            assert (kept.status, kept.result) == ("finished", "board g1 resigned")
            assert not service.table._in_progress()  # a new game needs no "abandon it first"
            refused = service.table.control.submit(Resume(kept.game_id))
            scan_until(boards, refused.done)
            assert "that game is over" in str(refused.exception(1))
        host.shutdown()  # the host loses power: its journal says the game is over
        host = boards[0] = started(tmp_path / "h" / "config.toml")
        # The configuration names a game across boards: a new one of that name starts, at its first move.
        assert host.table.remote_play.role.ply == 0 and host.table.remote_play.ended is None
        assert not host.table.moves and host.session.state == GAMES["klotz"].new_game(players=2, seed=3, max_plies=40)
    finally:
        for service in boards:
            service.shutdown()
    recovery = Journal(tmp_path / "g1" / "state").recover()
    assert recovery.game is not None and recovery.game.ended == {"status": "over", "result": "board g1 resigned"}


def test_10_a_board_away_when_the_other_resigned_hears_it_when_it_is_back(broker: Broker, tmp_path: Path) -> None:
    host, guest = two_moves(broker, tmp_path)
    boards = [host, guest]
    try:
        guest.shutdown()  # the guest is away (switched off) while the host's board resigns
        resigned = host.table.control.submit(AskBoards("resign"))
        scan_until([host], lambda: host.table.remote_play.ended is not None and resigned.done())
        guest = boards[1] = started(tmp_path / "g1" / "config.toml")
        scan_until(boards, lambda: guest.table.remote_play.ended == ("over", "board h resigned"))
        assert not guest.table.remote_play.playing
    finally:
        for service in boards:
            service.shutdown()


def test_8_a_board_whose_host_is_gone_resigns_and_the_host_hears_it_when_back(broker: Broker, tmp_path: Path) -> None:
    host, guest = two_moves(broker, tmp_path)
    boards = [host, guest]
    try:
        host.shutdown()  # the host is gone, and the people at board g1 want to stop
        resigned = guest.table.control.submit(AskBoards("resign"))
        scan_until([guest], lambda: guest.table.remote_play.ended is not None and resigned.done())
        assert resigned.result(1) == "this board resigned" and not guest.table.remote_play.playing
        assert not guest.table._in_progress()  # a new game here needs nobody's yes
        host = boards[0] = started(tmp_path / "h" / "config.toml")
        scan_until(boards, lambda: host.table.remote_play.ended == ("over", "board g1 resigned"))
        [kept] = Archive(Path(host.config.service.state_dir) / "games").games()
        assert kept.result == "board g1 resigned"
    finally:
        for service in boards:
            service.shutdown()
