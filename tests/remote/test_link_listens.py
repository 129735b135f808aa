"""A board speaks only once it listens (docs/remote.md, "Delivery"): what it says while its link is
coming up waits until the broker has its subscriptions, so an answer that comes at once is not
lost. Here the broker's answers to board h are held back (a slow broker), h says something while
connecting, and board g1 answers the moment it hears it; h must hear the answer."""

from __future__ import annotations

import logging
import time

import pytest

from controller.remote.link import HELD, BrokerSettings, Incoming, Link
from controller.remote.messages import Sync
from tests.remote.broker import Broker
from tests.remote.conftest import PASSWORDS
from tests.remote.proxy import Proxy


def link(board: str, port: int) -> Link:
    connection = Link(BrokerSettings(board, "127.0.0.1", port, board, PASSWORDS[board]))  # its inbox only
    connection.start()
    return connection


def until(done: object, seconds: float) -> bool:
    """Whether `done()` came true within `seconds` (polled; the broker's threads deliver)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if done():  # type: ignore[operator]
            return True
        time.sleep(0.005)
    return False


def test_what_a_board_says_while_connecting_leaves_after_it_listens_so_an_answer_at_once_is_heard(
    broker: Broker,
) -> None:
    g1 = link("g1", broker.port)
    proxy = Proxy(broker.port)
    proxy.answers_held = True
    h = link("h", proxy.port)
    heard_by_h: list[Incoming] = []
    try:
        assert until(lambda: g1.connected, 10), "board g1 did not connect"
        assert until(lambda: proxy.sent_up > 0, 10), "board h did not start connecting"  # its CONNECT is out
        h.send_to("g1", Sync("t1", 0))  # said while the broker has not answered h's CONNECT

        def answer_at_once() -> bool:
            for event in g1.drain():
                if isinstance(event, Incoming) and event.sender == "h":
                    g1.send_to("h", Sync("t1", 1))
                    return True
            return False

        answered = until(answer_at_once, 1.0)  # the broker is slow for a while
        proxy.answers_held = False
        answered = answered or until(answer_at_once, 10)
        assert answered, "board g1 never heard board h"

        def h_heard() -> bool:
            heard_by_h.extend(e for e in h.drain() if isinstance(e, Incoming) and e.sender == "g1")
            return bool(heard_by_h)

        assert until(h_heard, 10), "board g1's answer was lost: board h spoke before it listened"
        assert isinstance(heard_by_h[0].message, Sync) and heard_by_h[0].message.have == 1
    finally:
        h.close()
        g1.close()
        proxy.close()


def test_a_board_away_long_holds_its_newest_words_and_says_once_that_the_oldest_go(
    broker: Broker, caplog: pytest.LogCaptureFixture
) -> None:
    """The hold is bounded (a board away for hours must not fill its memory): past HELD messages the
    oldest go, the log says so once, and on connecting the newest HELD leave, in order."""
    g1 = link("g1", broker.port)
    h = Link(BrokerSettings("h", "127.0.0.1", broker.port, "h", PASSWORDS["h"]))  # not started: away
    heard: list[int] = []
    try:
        assert until(lambda: g1.connected, 10), "board g1 did not connect"
        with caplog.at_level(logging.WARNING, logger="tafel.remote"):
            for have in range(HELD + 5):
                h.send_to("g1", Sync("t1", have))
        dropped = [record.getMessage() for record in caplog.records if "oldest are dropped" in record.getMessage()]
        assert dropped == [f"board h: its broker has been away for {HELD} messages; the oldest are dropped"]
        h.start()

        def all_heard() -> bool:
            for event in g1.drain():
                if isinstance(event, Incoming) and isinstance(event.message, Sync):
                    heard.append(event.message.have)
            return len(heard) >= HELD

        assert until(all_heard, 20), f"board g1 heard {len(heard)} of board h's {HELD} held messages"
        assert heard == list(range(5, HELD + 5))
    finally:
        h.close()
        g1.close()
