"""The web app's server: uvicorn on its own thread, beside the scan loop, in the same process.

The scan loop keeps the main thread and its timing; uvicorn runs an asyncio event loop on a daemon
thread and serves the pages. They meet only in the hub (snapshots out) and the control channel
(commands in). A port that cannot be opened is logged and the board runs on without its screen.
"""

from __future__ import annotations

import logging
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import uvicorn
from starlette.applications import Starlette

from controller.service.archive import Archive
from controller.service.control import ControlChannel
from controller.service.loop import Service
from controller.web.app import Hub, build_app
from controller.web.names import BoardNames
from controller.web.protocol import MAX_FRAME
from controller.web.seats import SeatLinks

log = logging.getLogger("tafel.web")
# The scan thread must get the interpreter back quickly when it wakes: the default 5 ms switch
# interval would let a busy web thread delay a scan by up to that much.
SWITCH_INTERVAL_S = 0.001
MAX_CONNECTIONS = 128  # pages and requests at once: a table has a dozen; the rest is somebody's flood


def web_app(
    control: ControlChannel,
    state_dir: str | Path,
    pin: str | None = None,
    names: Iterable[str] = (),
    archive: Archive | None = None,
) -> tuple[Hub, Starlette]:
    """The app for a service's control channel, subscribed to its snapshots. Without a configured
    `pin` a new one is made: the log says it, and the board lights it when a page asks. It answers
    to this machine's names and the configured `names` (docs/web.md, "The board's names"). The
    history is the service's `archive`, so it shows the games held until the disk takes them too."""
    hub = Hub(control, SeatLinks(state_dir), pin or f"{secrets.randbelow(10000):04d}", state_dir)
    control.subscribe(hub.offer)
    history = archive if archive is not None else Archive(Path(state_dir) / "games")
    return hub, build_app(hub, history, BoardNames.of_this_machine(names))


class WebServer:
    """Serves the app for one running service; `start()` returns once it listens (or failed)."""

    def __init__(
        self,
        control: ControlChannel,
        state_dir: str | Path,
        listen: str = "0.0.0.0",
        port: int = 8080,
        pin: str | None = None,
        names: Iterable[str] = (),
        archive: Archive | None = None,
    ) -> None:
        self.listen = listen
        self.port = port
        self.hub, self.app = web_app(control, state_dir, pin, names, archive)
        self.pin = self.hub.pin
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.error: str | None = None

    def start(self, timeout: float = 10.0) -> bool:
        """Start serving; False (and `error` says why) if the server could not listen."""
        config = uvicorn.Config(
            self.app,
            host=self.listen,
            port=self.port,
            log_level="warning",
            log_config=None,  # uvicorn's records go to the service's log, with journald levels
            access_log=False,
            # The board is no proxy's back end: a page's address is the connection's, never what an
            # X-Forwarded-For header claims (it would give one guesser a new address per PIN).
            proxy_headers=False,
            ws="websockets-sansio",
            lifespan="on",
            ws_ping_interval=20,
            ws_ping_timeout=20,
            # Compressing every message for every page would cost the Pi more processor time than the
            # Wi-Fi saves: a table view is about 17 kB, sent only when something changed.
            ws_per_message_deflate=False,
            ws_max_size=MAX_FRAME,  # a longer frame is refused before it is read whole (a Pi Zero's memory)
            limit_concurrency=MAX_CONNECTIONS,  # beyond this, new requests get 503 instead of memory
        )
        server = self._server = uvicorn.Server(config)
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        self._thread = threading.Thread(target=self._serve, name="tafel-web", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not server.started and self._thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)  # start-up only: uvicorn says it listens by setting `started`
        if server.started:
            return True
        self.error = self.error or f"cannot listen on {self.listen}:{self.port} (is another program using the port?)"
        self.stop()
        return False

    def _serve(self) -> None:
        assert self._server is not None
        try:
            self._server.run()
        except SystemExit:  # uvicorn exits when it cannot bind
            self.error = f"cannot listen on {self.listen}:{self.port} (is another program using the port?)"
        except OSError as error:
            self.error = f"cannot listen on {self.listen}:{self.port}: {error.strerror or error}"

    @property
    def url(self) -> str:
        """Where a phone on the same network opens the table view."""
        host = network_address() if self.listen in ("0.0.0.0", "::") else self.listen
        return f"http://{host}:{self.port}/"

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=5)


def network_address() -> str:
    """This machine's address on its network (what a phone types), found without sending anything."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # a UDP connect picks the outgoing interface, sends nothing
        return str(probe.getsockname()[0])
    except OSError:
        return "localhost"
    finally:
        probe.close()


def start_web(service: Service) -> Callable[[], None] | None:
    """Serve the web app beside `service` as its `[web]` configuration says; how to stop it (None
    when it is switched off or could not listen: the board runs on without its screen)."""
    web = service.config.web
    if not web.enabled:
        return None
    state_dir = service.config.service.state_dir
    table = service.table
    server = WebServer(table.control, state_dir, web.listen, web.port, web.pin, web.names, table.archive)
    if not server.start():
        service.log.error("web app: %s; the board runs without it", server.error)
        return None
    pin = "as configured" if web.pin else server.pin
    service.log.info("web app: %s (table PIN %s)", server.url, pin)
    return server.stop
