"""A running service on the simulated board with its web app, for the web tests.

The service runs its real loop on a thread (as under `tafel run`, where the web server has the other
thread); the app is served in process by Starlette's TestClient, or by uvicorn on a free port for the
browser tests. Waiting is for messages and states, never for a time.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from controller.service.config import load_config
from controller.service.loop import Limits, Service
from controller.web.server import web_app
from tests.service.configs import ROOT

PIN = "2468"
TEST_CLIENT_NAMES = ("testserver",)  # the name Starlette's test client addresses the board by, as [web] names


def config_text(
    game: str = "klotz",
    players: int = 2,
    options: str = "",
    seed: int = 0,
    bots: bool = False,
    profile: str = "square14",
) -> str:
    """A game on the simulated board where people play every seat (bots only when asked)."""
    return f"""
[board]
profile = "{profile}"
profile_dir = "{ROOT / "wiring"}"

[game]
name = "{game}"
players = {players}
seed = {seed}
options = {{ {options} }}

[sensors]
backend = "sim"

[leds]
backend = "sim"

[sim]
noise = "none"
hands = "calm"
speed = 25
bots = {"true" if bots else "false"}

[service]
state_dir = "state"
watchdog = false

[web]
pin = "{PIN}"
"""


@contextmanager
def running_service(tmp_path: Path, text: str) -> Iterator[Service]:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    service = Service(load_config(path))
    failure: list[BaseException] = []

    def run() -> None:
        try:
            service.run(Limits())
        except BaseException as error:
            failure.append(error)

    thread = threading.Thread(target=run, name="tafel-service", daemon=True)
    thread.start()
    try:
        yield service
    finally:
        service.request_stop("test over")
        thread.join(timeout=30)
        assert not failure, failure
        assert service.failure is None, service.failure


@contextmanager
def web_client(service: Service, tmp_path: Path) -> Iterator[TestClient]:
    hub, app = web_app(service.table.control, tmp_path / "state", PIN, TEST_CLIENT_NAMES, service.table.archive)
    with TestClient(app) as client:
        client.hub = hub  # type: ignore[attr-defined]
        yield client


class Page:
    """One WebSocket of the app: the messages it got, and waiting for one that matters."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.received: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None

    def next(self) -> dict[str, Any]:
        message = json.loads(self.socket.receive_text())
        self.received.append(message)
        if message["type"] in ("table", "health"):
            self.latest = message
        return message

    def until(self, wanted: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        """The first message (from now on) for which `wanted` holds."""
        for _ in range(limit):
            message = self.next()
            if wanted(message):
                return message
        raise AssertionError(f"no wanted message in {limit}; the last: {self.received[-1]}")

    def view(self, wanted: Callable[[dict[str, Any]], bool] = lambda view: True) -> dict[str, Any]:
        """The first table or health view for which `wanted` holds (the latest one, if it does)."""
        if self.latest is not None and wanted(self.latest):
            return self.latest
        return self.until(lambda m: m["type"] in ("table", "health") and wanted(m))

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a message and wait for its reply (or error); views in between are kept."""
        tag = len(self.received) + 1000
        self.socket.send_text(json.dumps({**message, "id": tag}))
        return self.until(lambda m: m["type"] in ("reply", "error") and m.get("id") == tag)

    def send_raw(self, text: str) -> dict[str, Any]:
        self.socket.send_text(text)
        return self.until(lambda m: m["type"] in ("reply", "error"))


def seat_links(page: Page) -> list[str]:
    """Every seat's link token, as a page that proves the table PIN is given them."""
    page.view()  # the board has published its game
    reply = page.ask({"type": "links", "pin": PIN})
    assert reply["type"] == "reply", reply
    return [entry["link"].removeprefix("/seat/") for entry in reply["links"]]  # seats people play
