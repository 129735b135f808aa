"""Whole games between boards through a real Mosquitto (docs/remote.md)."""

from __future__ import annotations

import pytest

from controller.remote.host import Host
from tests.remote.broker import Broker
from tests.remote.players import board_for, boards_for, finished, run_until


@pytest.mark.parametrize("game", ["klotz", "fillit", "zillo", "zillertal", "zodiac"])
def test_two_boards_play_a_whole_game_across_a_broker_restart(broker: Broker, game: str) -> None:
    boards = boards_for(game, 2, broker.port)
    try:
        host = boards[0].table.role
        assert isinstance(host, Host)
        run_until(boards, lambda: host.ply >= 6)
        broker.restart()
        run_until(boards, lambda: finished(boards))
        assert boards[0].moves() == boards[1].moves()
        assert len(boards[0].moves()) == host.ply
    finally:
        for board in boards:
            board.table.link.close()


def test_four_boards_play_klotz_with_a_guest_killed_and_restarted(broker: Broker) -> None:
    """A guest board restarted (a power cut: nothing kept) asks the host and goes on from there."""
    boards = boards_for("klotz", 4, broker.port, seed=3)
    try:
        host = boards[0].table.role
        assert isinstance(host, Host)
        run_until(boards, lambda: host.ply >= 10)
        boards[2].table.link.close()
        boards[2] = board_for("klotz", 4, broker.port, 2, seed=3)
        run_until(boards, lambda: finished(boards))
        assert boards[2].moves() == boards[0].moves() == boards[1].moves() == boards[3].moves()
        assert any("board g2 is offline" in said for said in boards[0].said)
    finally:
        for board in boards:
            board.table.link.close()
