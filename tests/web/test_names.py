"""The board answers only to its own names (docs/web.md, "The board's names"): a page that reached it
by a name pointed at its address (DNS rebinding) gets words and nothing of the board, over the real
server (uvicorn, raw HTTP and a WebSocket) and in a real Chromium whose resolver points the name at
the board. And a page's address is its connection's, whatever its headers claim."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from pathlib import Path

import pytest
from websockets.sync.client import connect

from controller.web.guard import PIN_TRIES
from controller.web.names import BoardNames, FullName, host_name
from tests.web.browser import browser_problem, chromium, served
from tests.web.harness import PIN, Page, config_text, running_service

NAMES = BoardNames(frozenset({"localhost", "tafel", "tafel.local", "tafel.fritz.box"}))
ROUTES = (
    "/",
    "/lobby",
    "/history",
    "/health",
    "/watch",
    "/seat/0123456789abcdef",
    "/static/app.js",
    "/api/lobby",
    "/api/history",
    "/api/qr.svg?link=/seat/x",
    "/api/history/nothing.json",
    "/missing",
)


def test_a_host_header_is_read_as_its_name() -> None:
    assert host_name("Tafel.Local:8080") == "tafel.local"
    assert host_name("tafel.fritz.box.") == "tafel.fritz.box"
    assert host_name("192.168.1.40:8080") == "192.168.1.40"
    assert host_name("[fe80::1]:8080") == "fe80::1"
    assert host_name("[::1]") == "::1"
    assert host_name("::1") == "::1"
    assert host_name(" evil.example ") == "evil.example"


def test_addresses_and_the_board_s_names_are_its_own_and_no_other_name_is() -> None:
    for host in (
        "192.168.1.40:8080",
        "10.0.0.7",
        "[fe80::1]:8080",
        "[::1]",
        "localhost:8080",
        "LOCALHOST",
        "tafel",
        "tafel.local:8080",
        "tafel.local.",
        "Tafel.Fritz.Box:80",
    ):
        assert NAMES.own(host), host
    for host in (
        "evil.example",
        "evil.example:8080",
        "localhost.evil.example",
        "tafel.evil.example",
        "192.168.1.40.nip.io",
        "tafel.local.evil.example",
        "",
        ":8080",
        "[fe80::1",
        "xn--tafel",
    ):
        assert not NAMES.own(host), host
    assert NAMES.own(None)  # no Host: HTTP/1.0 or a script, never a browser's page


def test_this_machine_s_names_and_the_configured_ones() -> None:
    names = BoardNames.of_this_machine(["Tafel.Fritz.Box."])
    assert names.full is not None and names.full.known.wait(30)
    machine = socket.gethostname().lower()
    for host in ("localhost", machine, f"{machine}.local", socket.getfqdn(), "tafel.fritz.box:8080"):
        assert names.own(host), host
    assert not names.own(f"{machine}.evil.example")


def test_the_board_answers_at_once_while_its_full_name_is_looked_up_and_to_it_once_known() -> None:
    """The full name is the network's word, which may take seconds where the network is not up: the
    board's other names work meanwhile, and the full name from when the lookup answers."""
    answer = threading.Event()

    def slow_lookup() -> str:
        answer.wait(30)
        return "Tafel.Example.Lan."

    full = FullName(slow_lookup)
    names = BoardNames.of_this_machine(["tafel.fritz.box"], full)  # returns with the lookup still waiting
    assert not full.known.is_set()
    assert names.own("localhost") and names.own("tafel.fritz.box") and not names.own("tafel.example.lan")
    answer.set()
    assert full.known.wait(30)
    assert names.own("tafel.example.lan:8080") and "tafel.example.lan" in names.refusal("evil.example")


def test_a_machine_without_a_full_name_answers_to_its_other_names(monkeypatch: pytest.MonkeyPatch) -> None:
    escaped: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: escaped.append(args.exc_value))

    def failing_lookup() -> str:
        raise OSError("no name server")

    names = BoardNames.of_this_machine((), FullName(failing_lookup))
    assert names.full is not None and names.full.known.wait(30)
    assert names.own("localhost") and not names.own("") and names.known == names.names
    assert escaped == []  # the failed lookup is no fault of the board's


def test_the_refusal_names_the_name_and_says_what_to_do() -> None:
    words = NAMES.refusal("evil.example:8080")
    assert "does not answer to the name 'evil.example'" in words
    assert "tafel.local" in words and "[web] names" in words


def raw_get(port: int, path: str, host: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host})
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def test_every_request_by_another_name_gets_words_and_nothing_of_the_board(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text()) as service, served(service, tmp_path / "state", PIN) as server:
        port = server.port
        for path in ROUTES:
            status, body = raw_get(port, path, f"evil.example:{port}")
            assert status == 421, path
            assert body.startswith("this board does not answer to the name 'evil.example'"), (path, body)
        assert raw_get(port, "/", f"127.0.0.1:{port}")[0] == 200
        assert raw_get(port, "/api/lobby", f"localhost:{port}")[0] == 200
        assert raw_get(port, "/", f"[::1]:{port}")[0] == 200  # any address is the board's own

        # A WebSocket as a rebinding page opens it: the URL's name, the board's address underneath.
        underneath = socket.create_connection(("127.0.0.1", port))
        origin = f"http://evil.example:{port}"
        with connect(f"ws://evil.example:{port}/ws", sock=underneath, origin=origin) as page:  # type: ignore[arg-type]
            refused = json.loads(page.recv(timeout=10))
            assert refused["type"] == "error" and "does not answer to the name 'evil.example'" in refused["message"]
            with pytest.raises(Exception, match="1008"):
                page.recv(timeout=10)
        with connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}") as page:
            assert json.loads(page.recv(timeout=10))["type"] == "table"


@pytest.mark.skipif(browser_problem() is not None, reason=f"browser tests cannot run: {browser_problem()}")
def test_a_browser_that_reaches_the_board_by_another_name_is_refused(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    with (
        running_service(tmp_path, config_text()) as service,
        served(service, tmp_path / "state", PIN) as server,
        chromium(arguments=("--host-resolver-rules=MAP evil.example 127.0.0.1",)) as driver,
    ):
        driver.get(f"http://evil.example:{server.port}/")
        body = driver.find_element(By.TAG_NAME, "body").text
        assert body.startswith("this board does not answer to the name 'evil.example'"), body
        assert not driver.find_elements(By.CSS_SELECTOR, "#board")
        driver.get(f"http://localhost:{server.port}/")
        assert driver.find_elements(By.CSS_SELECTOR, "#board")


class SyncPage:
    """A websockets client as the harness's Page expects its socket."""

    def __init__(self, socket) -> None:
        self.socket = socket

    def send_text(self, text: str) -> None:
        self.socket.send(text)

    def receive_text(self) -> str:
        return self.socket.recv(timeout=10)


def test_a_page_cannot_claim_another_address_to_guess_more_pins(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text()) as service, served(service, tmp_path / "state", PIN) as server:
        origin = f"http://127.0.0.1:{server.port}"
        said = []
        for guess in range(PIN_TRIES + 1):  # each from a "new address", as far as the header says
            claimed = {"X-Forwarded-For": f"203.0.113.{guess + 1}", "X-Real-IP": f"203.0.113.{guess + 1}"}
            with connect(f"ws://127.0.0.1:{server.port}/ws", origin=origin, additional_headers=claimed) as socket:
                page = Page(SyncPage(socket))
                page.view()
                said.append(page.ask({"type": "links", "pin": f"{guess:04d}"})["message"])
        assert all(words.startswith("wrong table PIN") for words in said[:PIN_TRIES])
        assert said[PIN_TRIES].startswith("too many wrong PINs from this device")
