"""The sd_notify client against real AF_UNIX datagram sockets (a path and the abstract namespace)."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.service.sdnotify import Notifier, notify_address, watchdog_interval


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(10)
    yield sock, path
    sock.close()


def received(sock: socket.socket) -> list[str]:
    return sock.recv(4096).decode().split("\n")


def test_ready_status_watchdog_and_stopping_arrive_as_datagrams(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier(environ={"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready("Klotz: move 1")
    assert received(sock) == ["READY=1", "STATUS=Klotz: move 1"]
    assert notifier.watchdog()
    assert received(sock) == ["WATCHDOG=1"]
    assert notifier.status("two\nlines")
    assert received(sock) == ["STATUS=two lines"]  # a newline would start a new assignment
    assert notifier.stopping()
    assert received(sock) == ["STOPPING=1"]
    notifier.close()


def test_the_abstract_namespace_is_reached_through_an_at_sign() -> None:
    name = f"tafel-test-{os.getpid()}-{id(object())}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(10)
    try:
        notifier = Notifier(environ={"NOTIFY_SOCKET": "@" + name})
        assert notifier.address == "\0" + name
        assert notifier.ready()
        assert received(sock) == ["READY=1"]
        notifier.close()
    finally:
        sock.close()


def test_without_notify_socket_nothing_is_sent_and_nothing_fails() -> None:
    notifier = Notifier(environ={})
    assert not notifier.enabled
    assert not notifier.ready() and not notifier.watchdog() and not notifier.stopping()
    assert notifier.last_error is None


def test_a_vanished_socket_is_reported_not_raised(tmp_path: Path) -> None:
    notifier = Notifier(environ={"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert not notifier.ready()
    assert isinstance(notifier.last_error, OSError)


@pytest.mark.parametrize(
    ("value", "address"),
    [(None, None), ("", None), ("relative/path", None), ("/run/systemd/notify", "/run/systemd/notify"), ("@x", "\0x")],
)
def test_notify_address(value: str | None, address: str | None) -> None:
    assert notify_address(value) == address


def test_the_watchdog_is_pinged_at_half_its_timeout() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "10000000"}) == 5.0
    assert watchdog_interval({"WATCHDOG_USEC": "200000", "WATCHDOG_PID": str(os.getpid())}) == 0.1


@pytest.mark.parametrize(
    "environ",
    [{}, {"WATCHDOG_USEC": "0"}, {"WATCHDOG_USEC": "soon"}, {"WATCHDOG_USEC": "100000", "WATCHDOG_PID": "1"}],
)
def test_no_watchdog_when_systemd_asks_for_none_or_for_another_process(environ: dict[str, str]) -> None:
    assert watchdog_interval(environ, pid=4242) is None


def test_a_full_queue_never_blocks_the_service(tmp_path: Path) -> None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)  # bound, but nobody reads it
    sock.bind(str(tmp_path / "full"))
    try:
        notifier = Notifier(environ={"NOTIFY_SOCKET": str(tmp_path / "full")})
        sent = [notifier.watchdog() for _ in range(2000)]
        assert sent[0] and not sent[-1]  # the queue filled up; later pings were dropped at once
        assert isinstance(notifier.last_error, BlockingIOError)
        notifier.close()
    finally:
        sock.close()
