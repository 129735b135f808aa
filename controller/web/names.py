"""The names the board answers to (docs/web.md, "The board's names").

A browser takes a page's site from the name in its address. A site on the internet can point a name
of its own at the board's address (DNS rebinding); its script is then, to the browser, on the same
site as the board's pages, and the `Origin` check cannot tell them apart. So the board serves a
request only when it was addressed by one of the board's own names: an IP address, `localhost`, the
machine's own host name (bare, `.local`, and its full name), or a name the configuration lists.
Every other request gets words that say so, and nothing of the board."""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

MISDIRECTED = 421  # HTTP's "Misdirected Request": this server does not answer to that name


def host_name(host: str) -> str:
    """The name of a `Host` header, without its port, a trailing dot or IPv6's brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class FullName:
    """This machine's full name (`tafel.fritz.box`), looked up on a thread of its own: the lookup
    asks the network's name server, which may keep it waiting for seconds where the network is not
    up yet, and the board starts without waiting for it. Until it is known (or where there is none)
    the board answers to its other names."""

    def __init__(self, lookup: Callable[[], str] = socket.getfqdn) -> None:
        self.name = ""
        self.known = threading.Event()  # set once the lookup is over, with a name or without
        threading.Thread(target=self._look_up, args=(lookup,), name="tafel-full-name", daemon=True).start()

    def _look_up(self, lookup: Callable[[], str]) -> None:
        try:
            self.name = host_name(lookup())
        except (OSError, UnicodeError):
            pass  # no full name: the other names serve
        finally:
            self.known.set()


@dataclass(frozen=True)
class BoardNames:
    """The names, other than IP addresses, that are the board's own; `full` adds the machine's full
    name once it is known."""

    names: frozenset[str]
    full: FullName | None = None

    @classmethod
    def of_this_machine(cls, configured: Iterable[str] = (), full: FullName | None = None) -> BoardNames:
        """`localhost`, this machine's host name as it names itself (bare, `.local`, and its full
        name as soon as it is looked up), and the `configured` names."""
        machine = socket.gethostname().lower()
        found = {"localhost", machine, f"{machine}.local"}
        return cls(frozenset(host_name(name) for name in (*found, *configured) if name), full or FullName())

    @property
    def known(self) -> frozenset[str]:
        """Every name the board answers to now."""
        full = self.full.name if self.full is not None else ""
        return self.names | {full} if full else self.names

    def own(self, host: str | None) -> bool:
        """Whether a request with this `Host` header was addressed to the board. A request without
        one (HTTP/1.0, a script) names no site, so no page of another site can send it."""
        if host is None:
            return True
        name = host_name(host)
        full = self.full.name if self.full is not None else ""
        return is_address(name) or name in self.names or (bool(full) and name == full)

    def refusal(self, host: str) -> str:
        name = host_name(host)
        return (
            f"this board does not answer to the name {name!r}: open it by its address (the log says it at start) "
            f"or by {', '.join(sorted(self.known))}; a name of your own network's goes in [web] names "
            "in the board's configuration"
        )


class OwnNamesOnly:
    """ASGI middleware: a request addressed by a name that is not the board's gets the refusal in
    words (421 for a page or file; a WebSocket is told and closed) and never reaches the app."""

    def __init__(self, app: ASGIApp, names: BoardNames) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = Headers(scope=scope).get("host")
            if host is not None and not self.names.own(host):
                await self._refuse(scope, receive, send, self.names.refusal(host))
                return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, message: str) -> None:
        if scope["type"] == "http":
            await PlainTextResponse(message, status_code=MISDIRECTED)(scope, receive, send)
            return
        socket = WebSocket(scope, receive, send)
        await socket.accept()
        await socket.send_json({"type": "error", "message": message})
        await socket.close(code=1008)
