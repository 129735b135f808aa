"""A TCP proxy between a board and the broker that a test can cut and mend: a dropped Wi-Fi link,
as the board and the broker see it (no goodbye, the bytes just stop); or slow down, holding the
broker's answers back for a while (a broker far away, or busy)."""

from __future__ import annotations

import contextlib
import select
import socket
import threading

from controller.remote.broker import free_port


class Proxy:
    def __init__(self, target_port: int) -> None:
        self.port = free_port()
        self._target = target_port
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self.up = True
        self.answers_held = False  # the broker's bytes wait here (a slow broker) until released
        self.sent_up = 0  # bytes passed from boards to the broker
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self._target))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        peers = {a: b, b: a}
        held = b""  # the broker's answers while they are held
        try:
            while self.up:
                if held and not self.answers_held:
                    a.sendall(held)
                    held = b""
                readable, _, _ = select.select([a, b], [], [], 0.05)
                for sock in readable:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if sock is b and self.answers_held:
                        held += data
                    elif self.up:
                        peers[sock].sendall(data)
                        self.sent_up += len(data) if sock is a else 0
        except OSError:
            return
        # Cut: the bytes stop; neither end hears a goodbye until its keep-alive gives up.

    def cut(self) -> None:
        self.up = False

    def mend(self) -> None:
        """New connections go through again (the ones cut stay dead, as after a real drop)."""
        with self._lock:
            for a, b in self._pairs:
                for sock in (a, b):
                    with contextlib.suppress(OSError):
                        sock.close()
            self._pairs.clear()
        self.up = True

    def close(self) -> None:
        self.cut()
        self.mend()
        self._listener.close()
        self.up = False
