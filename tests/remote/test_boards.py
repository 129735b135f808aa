"""Whole `tafel run` services on simulated boards play each other through a real Mosquitto: each
board's hands make every move, the other boards' too, as the LEDs show them (docs/remote.md, rule 6),
across a broker restart and a guest board restarted from what it kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.remote.guest import Guest
from controller.remote.host import Host
from tests.remote.broker import Broker
from tests.remote.services import board_config, host_moves, over_everywhere, scan_until, start


# Zodiac is played across boards by the bot boards (test_play.py); on the services its many moves in
# a row by one seat still stall the virtual hands (docs/remote.md, "Not yet").
@pytest.mark.parametrize("game", ["klotz", "fillit", "zillo", "zillertal"])
def test_two_boards_play_a_whole_game_and_both_journals_agree(broker: Broker, tmp_path: Path, game: str) -> None:
    paths = [board_config(game, 2, name, broker.port, tmp_path / name) for name in ("h", "g1")]
    services = [start(path) for path in paths]
    try:
        host = services[0].remote_play.role  # type: ignore[union-attr]
        assert isinstance(host, Host)
        scan_until(services, lambda: host.ply >= 6)
        broker.restart()
        scan_until(services, lambda: host.ply >= 12)
        services[1].shutdown()  # the guest board loses power and comes back
        services[1] = start(paths[1])
        scan_until(services, lambda: over_everywhere(services))
        guest = services[1].remote_play.role  # type: ignore[union-attr]
        assert isinstance(guest, Guest)
        assert guest.moves == host_moves(services[0]) == [played.public for played in host.played]
        for service in services:
            assert service.driver is not None and service.driver.stats.wrong_commits == 0
        assert [move.text for move in services[1].moves] == guest.moves
    finally:
        for service in services:
            service.shutdown()
