"""What `tafel relay` knows (docs/remote.md, "The club relay"): every game's latest public record
on the broker and the boards' presence, read with the relay's own account, which can read nothing
else. A finished game is kept as two files, its record (JSON) and its moves (notation)."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from pathlib import Path
from typing import Any

from controller.files import UnreadableFile, read_bounded
from controller.remote.link import Incoming
from controller.remote.messages import MAX_PAYLOAD, MessageError, Presence, Record, decode


class Relay:
    def __init__(self, directory: Path, log: logging.Logger | None = None) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.log = log or logging.getLogger("tafel.relay")
        self.records: dict[str, Record] = {}  # by "host-game"
        self.online: dict[str, bool] = {}
        self.revision = 0  # changes whenever anything shown changes
        for path in sorted(self.directory.glob("*.json")):
            try:
                record = decode(read_bounded(path, "the kept game", MAX_PAYLOAD))
            except (UnreadableFile, MessageError) as error:
                self.log.warning("kept game %s is unreadable: %s", path.name, error)
                continue
            if isinstance(record, Record):
                self.records[path.stem] = record

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
            key = f"{address.board}-{address.game}"
            known = self.records.get(key)
            if (
                known is not None
                and known.status != "playing"
                and message.status == "playing"
                and message.ply <= known.ply
            ):
                return  # a late copy of a game already kept finished
            self.records[key] = message
            self.revision += 1
            if message.status != "playing":
                self._keep(key, message)

    def view(self) -> dict[str, Any]:
        """Everything the live page shows: public by construction (records and presence only)."""
        games = [
            {
                "key": key,
                **asdict(record),
                "type": record.type,
                "online": {b: self.online.get(b, False) for b in record.seats},
            }
            for key, record in sorted(self.records.items(), key=lambda item: (item[1].status != "playing", item[0]))
        ]
        return {"revision": self.revision, "games": games}

    def notation(self, key: str) -> str | None:
        record = self.records.get(key)
        if record is None:
            return None
        lines = [f"# {record.title}, hosted by {record.host}; boards: {', '.join(record.seats)}"]
        lines += [f"{number}. {move}" for number, move in enumerate(record.moves, start=1)]
        lines.append(f"# {record.result or record.status}")
        return "\n".join(lines) + "\n"

    def record_json(self, key: str) -> str | None:
        record = self.records.get(key)
        return None if record is None else json.dumps({"type": record.type, **asdict(record)}, indent=1)

    def _keep(self, key: str, record: Record) -> None:
        try:
            (self.directory / f"{key}.json").write_text(self.record_json(key) or "")
            (self.directory / f"{key}.txt").write_text(self.notation(key) or "")
        except OSError as error:
            self.log.error("cannot keep finished game %s: %s", key, error)
