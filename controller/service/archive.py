"""The history: finished and abandoned games, one JSON file each in `<state_dir>/games/`.

The journal holds only the game in progress. When a game ends, or the players leave it for another,
its record (start, moves, result) is written here atomically, so the history can list it, offer it for
download and replay it, and an unfinished game can be resumed later. Nothing is ever dropped silently.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.files import read_bounded
from controller.games import Game, State, load_game
from controller.games.seats import result_line
from controller.service.disk import atomic_write, trouble_of
from controller.service.journal import SAVED_GAME_LIMIT, GameRecord, JournalError

GAME_ID = re.compile(r"[0-9a-f]{6,32}")


class ArchiveError(ValueError):
    """A game id that is not in the history, or a record that no longer replays."""


@dataclass(frozen=True)
class ArchivedGame:
    """One game of the history."""

    game_id: str
    start: dict[str, Any]  # game, players, seed, options, seats
    actions: tuple[str, ...]
    status: str  # "finished" or "abandoned"
    result: str  # "Red wins", or where it stood
    ended: str  # when, ISO 8601 local time

    def summary(self) -> dict[str, Any]:
        game = load_game(self.start["game"])
        return {
            "id": self.game_id,
            "game": game.name,
            "title": game.title,
            "players": self.start["players"],
            "moves": len(self.actions),
            "status": self.status,
            "result": self.result,
            "ended": self.ended,
        }

    def replay(self) -> tuple[Game, list[State]]:
        """The game and every state of it, oldest first (as the journal replays a game); ArchiveError
        if a move no longer replays."""
        record = GameRecord(dict(self.start), [{"action": text} for text in self.actions])
        try:
            return record.replay()
        except (JournalError, ValueError) as error:
            raise ArchiveError(f"game {self.game_id} of the history does not replay: {error}") from None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.game_id,
            "start": self.start,
            "actions": list(self.actions),
            "status": self.status,
            "result": self.result,
            "ended": self.ended,
        }


class Archive:
    """The directory of past games (created on the first game it keeps), and the games held until
    the disk takes them. The service keeps games on its scan thread and the web app reads them on
    its own, so the held ones are read and changed under a lock."""

    def __init__(self, directory: str | Path, log: logging.Logger | None = None) -> None:
        self.directory = Path(directory)
        self.log = log or logging.getLogger("tafel")
        # Games the disk would not take, held until it does: the next game's start writes over the
        # journal, and the table's moves are the truth (docs/persistence.md, "When the disk fails").
        self._waiting: dict[str, ArchivedGame] = {}
        self._lock = threading.Lock()

    def keep(
        self,
        game_id: str,
        start: Mapping[str, Any],
        actions: Sequence[str],
        final: State,
        ended: str,
        by_boards: tuple[str, str] | None = None,
        hold: bool = False,
    ) -> ArchivedGame:
        """Write one game; a later write of the same id replaces it. `by_boards`: how the boards
        ended a game across boards, if they did ("over" or "abandoned", in words): a resignation
        or an agreed draw is the game's result, as the rules' end is. OSError where the disk does
        not take it; with `hold` the game is then held and written with the next game kept."""
        if final.is_terminal():
            status, result = "finished", result_line(final)
        elif by_boards is not None and by_boards[0] == "over":
            status, result = "finished", by_boards[1]
        elif by_boards is not None:
            status, result = "abandoned", f"abandoned by agreement after {len(actions)} moves"
        else:
            status, result = "abandoned", f"abandoned after {len(actions)} moves"
        record = ArchivedGame(game_id, dict(start), tuple(actions), status, result, ended)
        self.write_waiting()
        try:
            self._write(record)
        except OSError as error:
            if hold and game_id not in self._waiting:  # said once, however often it is tried again
                self.log.warning(
                    "history: could not keep game %s (%s); it is held here and kept with the next game the "
                    "history keeps (a restart before then loses it)",
                    game_id,
                    trouble_of(error),
                )
            if hold:
                with self._lock:
                    self._waiting[game_id] = record
            raise
        with self._lock:
            self._waiting.pop(game_id, None)  # this game's own later record replaces the held one
        return record

    @property
    def waiting(self) -> tuple[str, ...]:
        """The ids of the games held until the disk takes them, oldest first."""
        with self._lock:
            return tuple(self._waiting)

    def held(self, game_id: str) -> bool:
        """Whether this game is held until the disk takes it: the history shows it, not kept yet."""
        with self._lock:
            return game_id in self._waiting

    def write_waiting(self) -> None:
        """Each game the disk would not take, tried again (quietly where it still will not: the log
        said so when it was held)."""
        with self._lock:
            waiting = list(self._waiting.items())
        for game_id, record in waiting:
            try:
                self._write(record)
            except OSError:
                return
            with self._lock:
                if self._waiting.get(game_id) is record:  # not replaced by a later record meanwhile
                    del self._waiting[game_id]
            self.log.info("history: game %s is kept now (%s)", game_id, record.result)

    def _write(self, record: ArchivedGame) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        data = json.dumps(record.to_json(), sort_keys=True, indent=1).encode("utf-8")
        atomic_write(self._path(record.game_id), data)

    def games(self) -> list[ArchivedGame]:
        """Every kept game and every held one (a held record is newer than a file of the same id),
        the latest first; unreadable files are skipped."""
        with self._lock:
            found = dict(self._waiting)
        if self.directory.is_dir():
            for path in self.directory.glob("*.json"):
                try:
                    record = self._read(path)
                except ArchiveError:
                    continue
                found.setdefault(record.game_id, record)
        return sorted(found.values(), key=lambda record: (record.ended, record.game_id), reverse=True)

    def get(self, game_id: str) -> ArchivedGame:
        if not GAME_ID.fullmatch(game_id):
            raise ArchiveError(f"{game_id!r} is not a game id of the history")
        with self._lock:
            held = self._waiting.get(game_id)
        if held is not None:
            return held
        path = self._path(game_id)
        if not path.is_file():
            raise ArchiveError(f"there is no game {game_id} in the history")
        return self._read(path)

    def remove(self, game_id: str) -> None:
        """A resumed game leaves the history (it comes back when it ends again)."""
        self.get(game_id)
        with self._lock:
            self._waiting.pop(game_id, None)
        self._path(game_id).unlink(missing_ok=True)

    def _path(self, game_id: str) -> Path:
        return self.directory / f"{game_id}.json"

    def _read(self, path: Path) -> ArchivedGame:
        try:
            data = json.loads(read_bounded(path, "the saved game", SAVED_GAME_LIMIT).decode("utf-8"))
            start = data["start"]
            record = ArchivedGame(
                str(data["id"]),
                {key: start[key] for key in ("game", "players", "seed", "options", "seats", "hotseat") if key in start},
                tuple(str(text) for text in data["actions"]),
                str(data["status"]),
                str(data["result"]),
                str(data["ended"]),
            )
            load_game(record.start["game"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ArchiveError(f"{path.name}: not a readable game record ({error})") from None
        return record


def notation_text(record: ArchivedGame) -> str:
    """The game as text: a header and one numbered move per line, in the game's notation."""
    game = load_game(record.start["game"])
    options = ", ".join(f"{key}={value}" for key, value in sorted(record.start.get("options", {}).items()))
    lines = [
        f"# {game.title}, {record.start['players']} players, seed {record.start['seed']}",
        f"# options: {options or 'none'}",
        f"# {record.status} {record.ended}: {record.result}",
        "",
    ]
    lines.extend(f"{number}. {text}" for number, text in enumerate(record.actions, 1))
    return "\n".join(lines) + "\n"
