"""The remote tests run against a real Mosquitto (tests/remote/broker.py); without it they skip."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.remote.broker import Broker, broker_problem

PASSWORDS = {"h": "pw-h", "g1": "pw-g1", "g2": "pw-g2", "g3": "pw-g3", "relay": "pw-relay"}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    problem = broker_problem()
    if problem is not None:
        pytest.skip(f"remote tests need Mosquitto: {problem}")
    running = Broker(tmp_path, PASSWORDS)
    running.start()
    yield running
    running.stop()
