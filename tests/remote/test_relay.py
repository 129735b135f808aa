"""`tafel relay` follows a club's games on a real Mosquitto with the relay account, serves them live
and keeps every finished game (docs/remote.md, "The club relay")."""

from __future__ import annotations

import threading
from pathlib import Path

from starlette.testclient import TestClient

from controller.remote.host import Host
from controller.remote.link import BrokerSettings
from controller.web.relay_page import RelayServer, relay_app
from tests.remote.broker import Broker
from tests.remote.conftest import PASSWORDS
from tests.remote.players import boards_for, finished, run_until


def test_the_relay_shows_every_game_live_and_keeps_the_finished_ones(broker: Broker, tmp_path: Path) -> None:
    settings = BrokerSettings("relay", "127.0.0.1", broker.port, "relay", PASSWORDS["relay"])
    server = RelayServer(settings, tmp_path / "kept", "127.0.0.1", 0)
    relay = server.relay
    follower = threading.Thread(target=server.follow, daemon=True)  # the page is asked directly below
    follower.start()
    games = [
        boards_for("klotz", 2, broker.port, 1, "a1"),
        boards_for("zillo", 2, broker.port, 2, "b2", names=("g2", "g3")),  # a board's name is its connection
    ]
    everyone = [board for boards in games for board in boards]
    hosts = [boards[0].table.role for boards in games]
    try:
        run_until(everyone, lambda: all(finished(boards) for boards in games))
        assert all(isinstance(host, Host) for host in hosts)
        current = lambda: all(relay.records.get(f"{h.me}-{h.game_id}") == h.record() for h in hosts)  # noqa: E731
        run_until(everyone, current, seconds=10)
    finally:
        for board in everyone:
            board.table.link.close()
        server.stopping.set()
        follower.join(10)
    client = TestClient(relay_app(relay))
    view = client.get("/games.json").json()
    assert {game["key"] for game in view["games"]} == {"h-a1", "g2-b2"}
    for game in view["games"]:
        assert game["status"] == "over" and game["geometry"]["cells"] and game["board"]
        assert not game["public"].get("hand")  # public only (the bytes of records: test_protocol)
    notation = client.get("/games/h-a1.txt")
    assert notation.status_code == 200 and "\n1. " in notation.text
    kept = client.get("/games/g2-b2.json").json()
    assert kept["moves"] == list(hosts[1].record().moves)  # type: ignore[union-attr]
    assert (tmp_path / "kept" / "h-a1.json").exists() and (tmp_path / "kept" / "g2-b2.txt").exists()
    assert client.get("/games/nothing.json").status_code == 404
    assert "tafel relay" in client.get("/").text
