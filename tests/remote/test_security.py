"""The broker's ACL (controller.remote.topics.acl) against hostile and curious accounts, on a real
Mosquitto: a board reads only what is addressed to it and what is public, and cannot speak for
another board (docs/remote.md, rules 3 and 9)."""

from __future__ import annotations

import logging
import time

import pytest

from controller.remote import topics
from controller.remote.host import Host
from controller.remote.messages import Propose, Record, decode, encode
from tests.remote.broker import Broker
from tests.remote.conftest import PASSWORDS
from tests.remote.players import boards_for, finished, run_until


def _listener(name: str, port: int) -> tuple[object, list[tuple[str, bytes]]]:
    """An account subscribed to everything: it gets what the broker lets it read."""
    import paho.mqtt.client as mqtt

    heard: list[tuple[str, bytes]] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"spy-{name}")
    client.username_pw_set(name, PASSWORDS[name])
    client.on_connect = lambda c, *_: c.subscribe("#", 1)
    client.on_message = lambda c, u, m: heard.append((m.topic, m.payload))
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client, heard


def test_each_account_reads_only_its_own_messages_and_the_public_ones(broker: Broker) -> None:
    spies = {name: _listener(name, broker.port) for name in ("g1", "g2", "relay")}
    time.sleep(0.3)  # the subscriptions stand before the game starts
    boards = boards_for("zillo", 3, broker.port, seed=4)
    try:
        run_until(boards, lambda: finished(boards))
    finally:
        for board in boards:
            board.table.link.close()
    time.sleep(0.3)
    for name, (client, heard) in spies.items():
        client.loop_stop()  # type: ignore[attr-defined]
        assert heard, name
        for topic, _ in heard:
            address = topics.parse(topic)
            assert address is not None, topic
            assert address.kind in ("presence", "record") or address.board == name, (name, topic)
    # Every stand-in g1 read carried g1's hand, and nobody else's real one: see test_protocol's
    # test_what_a_board_reads_depends_only_on_what_its_seat_may_see for the bytes themselves.
    assert any(topic == topics.inbox("g1", "h") for topic, _ in spies["g1"][1])
    assert not any(topic.startswith("tafel/board/g2/from") for topic, _ in spies["g1"][1])


def test_a_board_cannot_speak_for_another_or_forge_a_record(broker: Broker, caplog: pytest.LogCaptureFixture) -> None:
    import paho.mqtt.client as mqtt

    caplog.set_level(logging.INFO, "tafel.remote")
    boards = boards_for("klotz", 3, broker.port, seed=2)
    host = boards[0].table.role
    assert isinstance(host, Host)
    try:
        run_until(boards, lambda: all(board.position is not None for board in boards))
        hostile = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="hostile-g1")
        hostile.username_pw_set("g1", PASSWORDS["g1"])
        hostile.connect("127.0.0.1", broker.port)
        hostile.loop_start()
        forged = Record("g1", "klotz", "h", 99, "0", (), host.seats, {})
        hostile.publish(topics.inbox("h", "g2"), encode(Propose("g1", 0, "b9-b9")), 1)  # as g2: denied
        hostile.publish(topics.record("h", "g1"), encode(forged), 1, retain=True)  # as host: denied
        hostile.publish(topics.inbox("h", "g1"), b"not json at all", 1)  # its own topic: read, dropped
        hostile.publish(topics.inbox("h", "g1"), encode(Propose("g1", 0, "a1-a1")), 1)  # refused in words
        run_until(boards, lambda: "move a1-a1 was refused" in caplog.text, seconds=10)
        hostile.loop_stop()
        hostile.disconnect()
        run_until(boards, lambda: finished(boards))
        assert boards[0].moves() == boards[1].moves() == boards[2].moves()
        assert boards[0].table.link.problems == 1  # the bytes that were not JSON, said in words
        assert "is not JSON" in caplog.text and "b9-b9" not in caplog.text  # g1 never spoke as g2
        client, heard = _listener("relay", broker.port)  # the record every account reads: the host's
        run_until(boards, lambda: any(topic == topics.record("h", "g1") for topic, _ in heard), seconds=10)
        client.loop_stop()  # type: ignore[attr-defined]
        retained = [decode(payload) for topic, payload in heard if topic == topics.record("h", "g1")]
        assert retained[-1] == host.record() and host.state.is_terminal()
    finally:
        for board in boards:
            board.table.link.close()
