"""A real browser on the web app: headless Chromium (controller/terminal/browser.py) against the app
served by uvicorn on a free local port, as `tafel run` serves it. `browser_problem()` says in words
why the browser tests cannot run here, and how to fix it."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from controller.service.loop import Service
from controller.terminal.browser import browser_problem
from controller.terminal.browser import headless_chromium as chromium
from controller.web.server import WebServer

__all__ = ["browser_problem", "chromium", "free_port", "served"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served(service: Service, state_dir: Path, pin: str) -> Iterator[WebServer]:
    server = WebServer(service.table.control, state_dir, "127.0.0.1", free_port(), pin)
    assert server.start(), server.error
    try:
        yield server
    finally:
        server.stop()


if __name__ == "__main__":  # `make test` says up front whether the browser tests will run
    found = browser_problem()
    print("browser tests: run in headless Chromium" if found is None else f"browser tests: SKIPPED, {found}")
