"""`[web]` in the configuration (docs/service.md): the web app `tafel run` serves to the players'
phones, where it listens, its table PIN and the names it answers to (docs/web.md)."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.service.config_remote import SectionReader

DEFAULT_WEB_PORT = 8080
LABEL = r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
HOST_NAME = re.compile(rf"({LABEL}\.)*{LABEL}\.?", re.IGNORECASE)


@dataclass(frozen=True)
class WebConfig:
    """The web app `tafel run` serves to the players' phones (docs/web.md)."""

    enabled: bool
    listen: str  # the address to listen on: 0.0.0.0 = every network the board is on
    port: int
    pin: str | None  # the table PIN for admin actions; None: a new one at every start (the log; the LEDs on request)
    names: tuple[str, ...] = ()  # the board's host names besides the machine's own (docs/web.md, "The board's names")


DEFAULT_WEB = WebConfig(True, "0.0.0.0", DEFAULT_WEB_PORT, None)


def web_section(reader: SectionReader, table: Mapping[str, Any]) -> WebConfig:
    listen = reader.text(table, "web", "listen", "0.0.0.0")
    try:
        ipaddress.ip_address(listen)
    except ValueError:
        if listen != "localhost":
            raise reader.error("web", "listen", f"{listen!r} is not an IP address (0.0.0.0: every network)") from None
    port = reader.whole_number(table, "web", "port", DEFAULT_WEB_PORT, 1)
    if port > 65535:
        raise reader.error("web", "port", f"{port} is not a port number (1 to 65535)")
    pin = None
    if "pin" in table:
        pin = table["pin"]
        if not isinstance(pin, str) or not pin.isdigit() or not 4 <= len(pin) <= 8:
            raise reader.error("web", "pin", 'must be 4 to 8 digits in quotes, e.g. pin = "4711"')
    return WebConfig(reader.flag(table, "web", "enabled", True), listen, port, pin, host_names(reader, table))


def host_names(reader: SectionReader, table: Mapping[str, Any]) -> tuple[str, ...]:
    """`names`: what the network calls the board (its router's name for it, say), which the web app
    answers to besides the machine's own names and its addresses."""
    names = table.get("names", [])
    example = 'e.g. names = ["tafel.fritz.box"]'
    if not isinstance(names, list):
        raise reader.error("web", "names", f"must be a list of host names, {example}, not {names!r}")
    for name in names:
        if not isinstance(name, str) or len(name) > 253 or not HOST_NAME.fullmatch(name):
            raise reader.error(
                "web", "names", f"{name!r} is not a host name (letters, digits, '-' and dots; no http:// or port)"
            )
    return tuple(name.lower().rstrip(".") for name in names)
