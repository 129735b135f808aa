"""What `tafel relay` knows (docs/remote.md, "The club relay"): every game's latest public record
on the broker and the boards' presence, read with the relay's own account, which can read nothing
else. A finished game is kept as two files, its record (JSON) and its moves (notation).

Each board's account writes its own games' records only (the ACL), so what one board writes must
never take another board's place: a game's key joins its board and its id with a character no name
has, the page shows each board's latest games only (so a board that writes a flood of records
crowds out its own games, never another's), and a record whose board the page could not draw is
refused in words."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import secrets
from collections import OrderedDict
from dataclasses import asdict
from pathlib import Path
from typing import Any

from controller.files import UnreadableFile, read_bounded
from controller.remote.link import Incoming
from controller.remote.messages import MAX_PAYLOAD, MessageError, Presence, Record, decode
from controller.remote.position import board_problem
from controller.remote.topics import NAME

LATEST_PER_BOARD = 20  # games of one board on the page; older finished ones stay kept and downloadable
KEY = re.compile(rf"({NAME.pattern})_({NAME.pattern})")


def record_key(host: str, game: str) -> str:
    """The relay's name for game `game` hosted by board `host`: `_` is in no board name or game id,
    so no board's game can take another board's key (nor its kept files)."""
    return f"{host}_{game}"


def _written_at(path: Path) -> float:
    """When a kept file was last written (0 for one that went meanwhile: its reading says so)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


class Relay:
    def __init__(self, directory: Path, log: logging.Logger | None = None) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.log = log or logging.getLogger("tafel.relay")
        self.records: dict[str, Record] = {}  # by record_key
        self._latest: dict[str, OrderedDict[str, None]] = {}  # each board's keys, the latest heard last
        self.online: dict[str, bool] = {}
        # Changes whenever anything shown changes; a restarted relay starts from a number no page has.
        self.revision = secrets.randbelow(1 << 40)
        for path in sorted(self.directory.glob("*.json"), key=_written_at):
            try:
                record = decode(read_bounded(path, "the kept game", MAX_PAYLOAD))
            except (UnreadableFile, MessageError) as error:
                self.log.warning("kept game %s is unreadable: %s", path.name, error)
                continue
            if isinstance(record, Record) and NAME.fullmatch(record.host) and NAME.fullmatch(record.game):
                self._show(self._kept_as_key(path, record), record)

    def _kept_as_key(self, path: Path, record: Record) -> str:
        """A game kept under an older name ("HOST-GAME") takes its key's name."""
        key = record_key(record.host, record.game)
        if path.stem != key and not (self.directory / f"{key}.json").exists():
            for suffix in (".json", ".txt"):
                # OSError: a notation that was never written, or a folder the relay may not change
                with contextlib.suppress(OSError):
                    path.with_suffix(suffix).rename(self.directory / f"{key}{suffix}")
        return key

    def heard(self, event: Incoming) -> None:
        message, address = event.message, event.address
        if isinstance(message, Presence) and address.kind == "presence" and message.name == address.board:
            self.online[address.board] = message.online
            self.revision += 1
        elif isinstance(message, Record) and address.kind == "record":
            if message.host != address.board or message.game != address.game:
                self.log.warning(
                    "a record on %s/%s names %s/%s; ignored", address.board, address.game, message.host, message.game
                )
                return
            problem = board_problem(message.board, len(message.seats))
            if problem is not None:
                self.log.warning(
                    "the record of game %s of board %s was ignored: %s", message.game, message.host, problem
                )
                return
            key = record_key(address.board, address.game)
            known = self.records.get(key)
            if (
                known is not None
                and known.status != "playing"
                and message.status == "playing"
                and message.ply <= known.ply
            ):
                return  # a late copy of a game already kept finished
            self._show(key, message)
            self.revision += 1
            if message.status != "playing":
                self._keep(key, message)

    def _show(self, key: str, record: Record) -> None:
        """`record` on the page; the board's least recently heard game beyond its latest leaves it."""
        latest = self._latest.setdefault(record.host, OrderedDict())
        latest[key] = None
        latest.move_to_end(key)
        self.records[key] = record
        while len(latest) > LATEST_PER_BOARD:
            oldest, _ = latest.popitem(last=False)
            del self.records[oldest]

    def view(self) -> dict[str, Any]:
        """Everything the live page shows: public by construction (records and presence only), but
        the public observation, which the page does not draw (the kept record has it)."""
        games = [
            {
                "key": key,
                **{name: value for name, value in asdict(record).items() if name != "public"},
                "type": record.type,
                "online": {b: self.online.get(b, False) for b in record.seats},
            }
            for key, record in sorted(self.records.items(), key=lambda item: (item[1].status != "playing", item[0]))
        ]
        return {"revision": self.revision, "games": games}

    def notation(self, key: str) -> str | None:
        """The moves of game `key`, shown or kept; None: no such game."""
        record = self.records.get(key)
        if record is None:
            return self._read_kept(key, ".txt")
        lines = [f"# {record.title}, hosted by {record.host}; boards: {', '.join(record.seats)}"]
        lines += [f"{number}. {move}" for number, move in enumerate(record.moves, start=1)]
        lines.append(f"# {record.result or record.status}")
        return "\n".join(lines) + "\n"

    def record_json(self, key: str) -> str | None:
        """The public record of game `key`, shown or kept; None: no such game."""
        record = self.records.get(key)
        if record is None:
            return self._read_kept(key, ".json")
        return json.dumps({"type": record.type, **asdict(record)}, indent=1)

    def _read_kept(self, key: str, suffix: str) -> str | None:
        """A kept file of a finished game no longer on the page (its board has played others since)."""
        if not KEY.fullmatch(key):
            return None  # no game's key: never a path
        try:
            return read_bounded(self.directory / f"{key}{suffix}", "the kept game", MAX_PAYLOAD).decode("utf-8")
        except (UnreadableFile, UnicodeDecodeError):
            return None

    def _keep(self, key: str, record: Record) -> None:
        try:
            (self.directory / f"{key}.json").write_text(self.record_json(key) or "")
            (self.directory / f"{key}.txt").write_text(self.notation(key) or "")
        except OSError as error:
            self.log.error("cannot keep finished game %s: %s", key, error)
