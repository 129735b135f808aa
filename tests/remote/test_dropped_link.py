"""A guest board's link drops without a word (its Wi-Fi goes): the broker's keep-alive gives up and
its last will tells the host it is offline, the game goes on where it can, and when the link comes
back the board reconnects by itself and catches up (docs/remote.md, rule 7)."""

from __future__ import annotations

from controller.remote.host import Host
from tests.remote.broker import Broker
from tests.remote.players import board_for, finished, run_until
from tests.remote.proxy import Proxy


def test_a_silently_dropped_link_is_noticed_and_the_board_comes_back_by_itself(broker: Broker) -> None:
    proxy = Proxy(broker.port)
    host = board_for("klotz", 2, broker.port, 0, seed=6)
    guest = board_for("klotz", 2, proxy.port, 1, seed=6, keepalive_s=1)  # noticed within seconds, not 20 s
    boards = [host, guest]
    role = host.table.role
    assert isinstance(role, Host)
    try:
        run_until(boards, lambda: role.ply >= 6)
        proxy.cut()
        run_until(boards, lambda: any("board g1 is offline" in line for line in host.said), seconds=30)
        proxy.mend()
        run_until(boards, lambda: any("board g1 is online" in line for line in host.said[-3:]), seconds=30)
        run_until(boards, lambda: finished(boards))
        assert guest.moves() == host.moves()
    finally:
        for board in boards:
            board.table.link.close()
        proxy.close()
