"""A stand-in for systemd's notification socket: collects every datagram on a thread, as systemd
reads its socket continuously."""

from __future__ import annotations

import socket
import threading
from pathlib import Path


class NotifyListener:
    def __init__(self, path: Path) -> None:
        self.path = str(path)
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(self.path)
        self._socket.settimeout(0.1)
        self._messages: list[list[str]] = []
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._closed:
            try:
                data = self._socket.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            with self._changed:
                self._messages.append(data.decode().split("\n"))
                self._changed.notify_all()

    def wait_for(self, line: str, timeout: float = 60.0) -> list[list[str]]:
        """Every message so far, once one of them has the line `line` (AssertionError after `timeout`)."""
        with self._changed:
            found = self._changed.wait_for(lambda: any(line in m for m in self._messages), timeout)
            assert found, f"no {line!r} within {timeout} s; got {self._messages}"
            return list(self._messages)

    def close(self) -> None:
        self._closed = True
        self._thread.join()
        self._socket.close()
