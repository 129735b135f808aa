"""`[remote]` in the configuration (docs/service.md): this board on a broker, and the game it plays
with other boards if one is fixed here rather than started from the lobby (docs/remote.md)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from controller.remote.link import BrokerSettings, RemoteGame
from controller.remote.topics import check_name


class SectionReader(Protocol):
    """What the configuration loader offers a section's reader: values checked, errors located."""

    def error(self, section: str, key: str | None, message: str) -> Exception: ...
    def required(self, table: Mapping[str, Any], section: str, key: str) -> Any: ...
    def whole_number(
        self, table: Mapping[str, Any], section: str, key: str, default: int | None, minimum: int = 0
    ) -> int: ...
    def text(self, table: Mapping[str, Any], section: str, key: str, default: str | None = None) -> str: ...
    def flag(self, table: Mapping[str, Any], section: str, key: str, default: bool) -> bool: ...
    def path(self, value: str) -> Path: ...


def remote_section(
    reader: SectionReader, table: Mapping[str, Any] | None, players: int
) -> tuple[BrokerSettings, RemoteGame | None] | None:
    """[remote]: the broker, this board's name and the game it plays with others, if one is
    configured here rather than started from the lobby (docs/remote.md)."""
    if table is None:
        return None
    names = {}
    given = [key for key in ("game", "host", "seats") if key in table]
    if given and len(given) < 3:
        missing = ", ".join(key for key in ("game", "host", "seats") if key not in table)
        raise reader.error(
            "remote", missing.split(", ")[0], f"a game across boards needs game, host and seats ({missing} missing)"
        )
    for key in ("board", *(("game", "host") if given else ())):
        try:
            names[key] = check_name(reader.required(table, "remote", key), key)
        except ValueError as error:
            raise reader.error("remote", key, str(error)) from None
    port = reader.whole_number(table, "remote", "port", 8883 if table.get("tls") else 1883, 1)
    password = table.get("password")
    settings = BrokerSettings(
        names["board"],
        reader.text(table, "remote", "broker", "localhost"),
        port,
        reader.text(table, "remote", "username", names["board"]),
        str(password) if password is not None else None,
        reader.flag(table, "remote", "tls", False),
        _ca_file(reader, table),
    )
    if not given:
        return settings, None
    seats = table.get("seats")
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
        raise reader.error("remote", "seats", f"must list the board of each of the {players} seats, in seat order")
    if names["board"] not in seats or names["host"] not in seats:
        raise reader.error("remote", "seats", f"names no seat for board {names['board']} or host {names['host']}")
    return settings, RemoteGame(names["game"], names["host"], tuple(seats))


def _ca_file(reader: SectionReader, table: Mapping[str, Any]) -> str | None:
    """[remote] ca_file: the club's certificate authority, which must be a file the board can read
    (the MQTT client loads it at start; a missing one would stop the service with a bare errno)."""
    if "ca_file" not in table:
        return None
    path = reader.path(reader.text(table, "remote", "ca_file"))
    if not path.is_file():
        raise reader.error("remote", "ca_file", f"no certificate authority file at {path}")
    return str(path)
