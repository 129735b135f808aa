"""The game journal: every confirmed decision is on disk before the LEDs show it as done.

Layout of the state directory:

- `journal.log`: one record per line, `<crc32 as 8 hex digits> <compact JSON>`, appended and
  fsynced record by record. Records: `start` (game, players, seed, options), `action` (the action in
  the game's notation, and `via` how it was recognised: sensors, confirm, declare), `takeback`,
  `correction`, `ended` (a game across boards that the boards ended: a resignation, an agreed draw,
  abandoned; docs/remote.md, rule 10), `abandon`.
- `snapshot.json`: written atomically (temporary file, fsync, rename, fsync of the directory) by
  compaction: the game's start record and its actions after take-backs, plus `last_seq`, the
  sequence number of the last record it covers. The journal is then started afresh; should power
  fail in between, records the snapshot already covers are skipped by their sequence numbers.

Reading stops at the first record that is incomplete or fails its checksum (a power cut mid-write):
the last complete record wins, the damaged tail is cut off, and `Recovery.damaged` says so once.

A write that fails (a full or read-only disk) may have left half a record, after which no record
would be read again; so from then on the journal appends nothing and keeps the game in memory
(`behind` says why), until `catch_up` writes the whole game as a snapshot and a fresh journal
(docs/persistence.md, "When the disk fails"). A journal that cannot be read is a `JournalError`:
nothing is written over a game the board cannot see.
"""

from __future__ import annotations

import contextlib
import json
import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.files import UnreadableFile, read_bounded
from controller.games import Game, State, load_game
from controller.service.disk import append_all, atomic_write, trouble_of

JOURNAL = "journal.log"
SNAPSHOT = "snapshot.json"
SNAPSHOT_VERSION = 1
RECORD_TYPES = ("start", "action", "takeback", "correction", "ended", "abandon")
# What a start record holds: how the game was made, who plays each seat ("human" or a bot), whether
# the configuration or the lobby started it, and the game's id in the history.
# A journal is compacted every 500 records, and a snapshot of the longest game is well under this.
SAVED_GAME_LIMIT = 16 << 20
LEFT_AS_IT_IS = ": it is left as it is, so that no new game is written over it; mend or move it and start again"
START_KEYS = ("game", "players", "seed", "options", "seats", "origin", "id", "remote")  # remote: docs/remote.md


class JournalError(ValueError):
    """A journal or snapshot that cannot be used at all (not a damaged tail: that is recovered)."""


def encode_record(record: Mapping[str, Any]) -> bytes:
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    body = text.encode("utf-8")
    return b"%08x %s\n" % (zlib.crc32(body), body)


def decode_line(line: bytes) -> dict[str, Any] | None:
    """The record on one complete line, or None if it is damaged."""
    if not line.endswith(b"\n") or len(line) < 11 or line[8:9] != b" ":
        return None
    body = line[9:-1]
    try:
        if int(line[:8], 16) != zlib.crc32(body):
            return None
        record = json.loads(body)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("type") not in RECORD_TYPES:
        return None
    return record


@dataclass
class GameRecord:
    """One game as the journal knows it: how it started and the actions that stand."""

    start: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)
    # How the boards ended a game across boards, if they did: {"status": "over" or "abandoned",
    # "result": words}; such a game takes no more moves (docs/remote.md, rule 10).
    ended: dict[str, str] | None = None

    def replay(self) -> tuple[Game, list[State]]:
        """The game and its history of states (oldest first, the current state last)."""
        game = load_game(self.start["game"])
        options = dict(self.start.get("options", {}))
        state = game.new_game(players=self.start["players"], seed=self.start["seed"], **options)
        states = [state]
        for index, entry in enumerate(self.actions):
            try:
                state = state.apply(state.parse_action(entry["action"]))
            except (KeyError, ValueError) as error:
                raise JournalError(
                    f"journal action {index + 1} ({entry.get('action')!r}) does not replay: {error}"
                ) from None
            states.append(state)
        return game, states


@dataclass
class Recovery:
    game: GameRecord | None  # None: no game in progress (none started, or abandoned)
    records: int  # complete records read from the journal
    damaged: str | None  # what was cut off, if the tail was damaged


class Journal:
    """Append-only, fsynced game journal with atomic snapshots and compaction."""

    def __init__(self, directory: str | Path, compact_after: int = 500) -> None:
        self.directory = Path(directory)
        self.compact_after = compact_after
        self._file: int | None = None  # the journal's descriptor, open for appending
        # Why the disk refused the last write (in words), while the game in memory is ahead of it.
        self.behind: str | None = None
        self.saved_moves = 0  # while behind: how many moves of the game in memory the disk has
        self._records_since_snapshot = 0
        self._game: GameRecord | None = None
        self._seq = 0  # sequence number of the last record written or read

    @property
    def path(self) -> Path:
        return self.directory / JOURNAL

    @property
    def snapshot_path(self) -> Path:
        return self.directory / SNAPSHOT

    # --- recovery ------------------------------------------------------------------------------
    def recover(self) -> Recovery:
        """Read snapshot and journal, cut off a damaged tail, and open the journal for appending."""
        game, last_seq = self._read_snapshot()
        records, good_bytes, damaged = self._read_journal()
        self._seq = last_seq
        for record in records:
            seq = record.get("seq")
            if not isinstance(seq, int) or seq <= last_seq:
                continue  # already in the snapshot
            game = _fold(game, record)
            self._seq = seq
        self._game = game
        self._records_since_snapshot = len(records)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            if damaged is not None:
                with open(self.path, "r+b") as handle:
                    handle.truncate(good_bytes)
                    handle.flush()
                    os.fsync(handle.fileno())
            self._open()
        except OSError as error:  # readable, not writable: the game goes on, not saved (catch_up)
            self._fall_behind(error)
        return Recovery(game, len(records), damaged)

    def _read_snapshot(self) -> tuple[GameRecord | None, int]:
        raw = _saved_bytes(self.snapshot_path)
        if raw is None:
            return None, 0
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise JournalError(f"{self.snapshot_path}: not text{LEFT_AS_IT_IS}") from None
        try:
            data = json.loads(text)
        except ValueError as error:
            raise JournalError(f"{self.snapshot_path}: not valid JSON ({error})") from None
        if not isinstance(data, dict) or data.get("version") != SNAPSHOT_VERSION:
            raise JournalError(f"{self.snapshot_path}: not a tafel snapshot of version {SNAPSHOT_VERSION}")
        last_seq = data.get("last_seq")
        if not isinstance(last_seq, int) or isinstance(last_seq, bool) or last_seq < 0:
            raise JournalError(f"{self.snapshot_path}: 'last_seq' must be a whole number >= 0")
        start = data.get("start")
        if start is None:
            return None, last_seq
        if not isinstance(start, dict) or not isinstance(data.get("actions"), list):
            raise JournalError(f"{self.snapshot_path}: 'start' must be an object and 'actions' a list")
        ended = data.get("ended")
        if ended is not None and not _is_ending(ended):
            raise JournalError(f"{self.snapshot_path}: 'ended' must name a status and a result")
        return GameRecord(start, list(data["actions"]), ended), last_seq

    def _read_journal(self) -> tuple[list[dict[str, Any]], int, str | None]:
        raw = _saved_bytes(self.path)
        if raw is None:
            return [], 0, None
        records: list[dict[str, Any]] = []
        offset = 0
        while offset < len(raw):
            end = raw.find(b"\n", offset)
            line = raw[offset:] if end < 0 else raw[offset : end + 1]
            record = decode_line(line)
            if record is None:
                cut = len(raw) - offset
                return records, offset, f"cut {cut} damaged byte(s) after record {len(records)} of {self.path}"
            records.append(record)
            offset += len(line)
        return records, offset, None

    # --- writing -------------------------------------------------------------------------------
    def _open(self) -> None:
        if self._file is None:
            self._file = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one record and fsync it; returns once it is on disk, or once the disk refused it
        (then `behind` says why, and the game is kept in memory until `catch_up`)."""
        if record.get("type") not in RECORD_TYPES:
            raise JournalError(f"unknown journal record type {record.get('type')!r}")
        record = {**record, "seq": self._seq + 1}
        self._seq += 1
        previous = self._game
        on_disk = len(previous.actions) if previous is not None else 0
        self._game = _fold(previous, dict(record))
        self._records_since_snapshot += 1
        if self.behind is not None:
            return  # after a failed write nothing appended would be read again: catch_up writes it all
        try:
            self._open()
            assert self._file is not None
            append_all(self._file, encode_record(record))
        except OSError as error:
            self._fall_behind(error, on_disk if self._game is previous else 0)
            return
        if self._records_since_snapshot >= self.compact_after:
            self.compact()

    def catch_up(self) -> bool:
        """Try again to put the whole game on the disk (a snapshot and a fresh journal, which also
        cuts off what a failed write left); whether the disk now has it."""
        if self.behind is not None:
            self.compact()
        return self.behind is None

    def _fall_behind(self, error: OSError, on_disk: int | None = None) -> None:
        """The disk refused a write; `on_disk`: how many of the game's moves it has (None: all)."""
        moves = len(self._game.actions) if self._game is not None else 0
        if self.behind is None:
            self.saved_moves = moves if on_disk is None else min(on_disk, moves)
        self.behind = trouble_of(error)
        self._close_quietly()

    def start_game(self, game: str, players: int, seed: int, options: Mapping[str, Any], **more: Any) -> None:
        """A new game; `more` are the other START_KEYS (seats, origin, id, remote)."""
        extra = {key: value for key, value in more.items() if key in START_KEYS}
        self.append(
            {"type": "start", "game": game, "players": players, "seed": seed, "options": dict(options), **extra}
        )

    def action(self, text: str, via: str = "sensors") -> None:
        self.append({"type": "action", "action": text, "via": via})

    def takeback(self) -> None:
        self.append({"type": "takeback"})

    def correction(self, text: str) -> None:
        """The last action is replaced by `text` (a correction before the next player acted)."""
        self.append({"type": "correction", "action": text})

    def ended(self, status: str, result: str) -> None:
        """The boards ended the game across boards (`status` "over" or "abandoned", `result` in words)."""
        self.append({"type": "ended", "status": status, "result": result})

    def abandon(self) -> None:
        self.append({"type": "abandon"})

    @property
    def game(self) -> GameRecord | None:
        return self._game

    def compact(self) -> None:
        """Write the current game as a snapshot (atomically), then start an empty journal."""
        game = self._game
        data = {
            "version": SNAPSHOT_VERSION,
            "start": game.start if game is not None else None,
            "actions": game.actions if game is not None else [],
            "last_seq": self._seq,
        }
        if game is not None and game.ended is not None:
            data["ended"] = game.ended
        try:
            atomic_write(self.snapshot_path, json.dumps(data, sort_keys=True).encode("utf-8"))
            self._close_quietly()
            atomic_write(self.path, b"")
            self._open()
        except OSError as error:  # the snapshot's records are skipped by their numbers if both exist
            self._fall_behind(error)
            return
        self.behind = None
        self._records_since_snapshot = 0

    def close(self) -> None:
        self._close_quietly()

    def _close_quietly(self) -> None:
        if self._file is not None:
            descriptor, self._file = self._file, None
            with contextlib.suppress(OSError):  # a close that fails loses nothing: the fsynced is on disk
                os.close(descriptor)


def _fold(game: GameRecord | None, record: dict[str, Any]) -> GameRecord | None:
    """Apply one journal record to the game it describes."""
    kind = record["type"]
    if kind == "start":
        start = {key: record[key] for key in START_KEYS if key in record}
        return GameRecord(start)
    if kind == "abandon":
        return None
    if game is None:
        return None  # actions without a game in progress cannot be placed: ignore them
    if kind == "action":
        game.actions.append({key: record[key] for key in ("action", "via") if key in record})
    elif kind == "ended":
        ending = {key: str(record.get(key, "")) for key in ("status", "result")}
        game.ended = ending if _is_ending(ending) else {"status": "over", "result": "ended by the boards"}
    elif kind == "takeback" and game.actions:
        game.actions.pop()
    elif kind == "correction":
        # The player corrected the last move before the next one (one record, so a power cut cannot
        # leave the take-back without its replacement).
        if game.actions:
            game.actions.pop()
        game.actions.append({"action": record["action"], "via": "correction"})
    return game


def _is_ending(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and value.get("status") in ("over", "abandoned")
        and isinstance(value.get("result"), str)
        and set(value) == {"status", "result"}
    )


def _saved_bytes(path: Path) -> bytes | None:
    """What is saved at `path` (None: nothing is). Only a regular file of a sane size is read, without
    waiting on it: a device or a FIFO there would never end (controller.files)."""
    try:
        return read_bounded(path, "the saved game", SAVED_GAME_LIMIT)
    except UnreadableFile as error:
        if error.missing:
            return None
        raise JournalError(f"{error}{LEFT_AS_IT_IS}") from None
