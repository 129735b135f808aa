"""Two boards configured with one name: the broker lets one client per name connect, so each
connection ends the other's, over and over. The boards cannot tell from the protocol (MQTT 3.1.1
gives no reason), but the evidence is plain: connections ended moments after they began, again and
again. Each board says so in words."""

from __future__ import annotations

import time

from controller.remote.link import BrokerSettings, Link, LinkState
from tests.remote.broker import Broker
from tests.remote.conftest import PASSWORDS


def test_two_boards_under_one_name_are_told_so(broker: Broker) -> None:
    settings = BrokerSettings("g1", "127.0.0.1", broker.port, "g1", PASSWORDS["g1"])
    links = [Link(settings), Link(settings)]
    said: list[str] = []
    for link in links:
        link.start()
    try:
        deadline = time.monotonic() + 30
        while not any("another board may be connected under the name 'g1'" in line for line in said):
            assert time.monotonic() < deadline, f"nothing said of the shared name; said: {said[-4:]}"
            for link in links:
                said += [event.reason for event in link.drain() if isinstance(event, LinkState) and event.reason]
            time.sleep(0.05)
    finally:
        for link in links:
            link.close()


def test_a_broker_restarted_twice_right_after_connecting_is_not_taken_for_a_shared_name(broker: Broker) -> None:
    """Two drops moments after connecting are not yet the pattern (it takes three in a row)."""
    link = Link(BrokerSettings("g2", "127.0.0.1", broker.port, "g2", PASSWORDS["g2"]))
    link.start()
    said: list[str] = []
    try:
        for _ in range(2):
            deadline = time.monotonic() + 20
            while not link.connected:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            broker.restart()
            said += [event.reason for event in link.drain() if isinstance(event, LinkState) and event.reason]
        assert not any("another board" in line for line in said)
    finally:
        link.close()
