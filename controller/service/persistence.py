"""The service's memory: the journal in the state directory, so a power cut loses no confirmed move.

The service asks `resume` for the game to continue when it starts, and reports every commit and
take-back before the LEDs show it as done (the session runs these hooks before it pushes the frame).
Where the disk refuses a write the game goes on in memory, `trouble` says so in words, and `retry`
writes it all again with back-off (docs/persistence.md, "When the disk fails").
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from controller.games import Action, Game, State, load_game
from controller.service.journal import GameRecord, Journal, JournalError
from controller.table.session import DeviceFault


class Persistence(Protocol):
    """Where a game survives a restart: the service asks it for the game to resume at start, and reports
    every commit and take-back to it before the LEDs show the move as done (the session runs commit
    hooks before it pushes the frame)."""

    def resume(
        self, game: Game, fresh: State, start: Mapping[str, Any], fits: Callable[[Game], bool] | None = None
    ) -> Sequence[State]:
        """The states of the game to continue, oldest first (the last is the current position);
        `[fresh]` when there is nothing to resume. `start` says how `fresh` was made (game, players,
        seed, options, seats). A game started from the lobby resumes even when the configuration
        names another, if `fits` says the board can play it."""
        ...

    @property
    def started(self) -> Mapping[str, Any]:
        """How the game in progress was started (its `start`)."""
        ...

    def standing_actions(self) -> list[tuple[str, str]]:
        """The game in progress's actions that stand, as (notation, how it was recognised)."""
        ...

    def on_commit(self, before: State, action: Action, after: State, via: str = "sensors") -> None: ...

    def on_takeback(self, state: State) -> None: ...

    def on_ended(self, status: str, result: str) -> None:
        """The boards ended the game across boards (docs/remote.md, rule 10): `status` "over" (a
        resignation, an agreed draw) or "abandoned", `result` in words. A restart does not resume it."""
        ...

    def new_game(self, start: Mapping[str, Any]) -> None:
        """The players left the game; a new one starts as `start` says."""
        ...

    def replace_game(self, start: Mapping[str, Any], actions: Sequence[str]) -> None:
        """The players left the game for a saved one: `start` and its `actions` become the game."""
        ...

    @property
    def trouble(self) -> str | None:
        """Why the game is not being saved now, in words for the table (None: it is)."""
        ...

    def retry(self, now: int) -> None:
        """Called every scan: where a write failed, try again when due (doubling back-off)."""
        ...

    def close(self) -> None: ...


class NoPersistence:
    """Keeps nothing across a restart: every start begins a new game."""

    def __init__(self) -> None:
        self.started: Mapping[str, Any] = {}
        self._actions: list[tuple[str, str]] = []

    def resume(
        self, game: Game, fresh: State, start: Mapping[str, Any], fits: Callable[[Game], bool] | None = None
    ) -> Sequence[State]:
        self.started = dict(start)
        return [fresh]

    def standing_actions(self) -> list[tuple[str, str]]:
        return list(self._actions)

    def on_commit(self, before: State, action: Action, after: State, via: str = "sensors") -> None:
        if via == "correction" and self._actions:
            self._actions.pop()
        self._actions.append((before.action_to_str(action), via))

    def on_takeback(self, state: State) -> None:
        if self._actions:
            self._actions.pop()

    def on_ended(self, status: str, result: str) -> None:
        return None

    def new_game(self, start: Mapping[str, Any]) -> None:
        self.started, self._actions = dict(start), []

    def replace_game(self, start: Mapping[str, Any], actions: Sequence[str]) -> None:
        self.started, self._actions = dict(start), [(text, "resumed") for text in actions]

    @property
    def trouble(self) -> str | None:
        return None  # nothing is promised, so nothing fails

    def retry(self, now: int) -> None:
        return None

    def close(self) -> None:
        return None


class JournalPersistence:
    """Keeps the game in a journal (controller/service/journal.py) in `directory`."""

    def __init__(self, directory: str | Path, log: logging.Logger | None = None, compact_after: int = 500) -> None:
        self.journal = Journal(directory, compact_after)
        self.log = log or logging.getLogger("tafel")
        self._start: dict[str, Any] = {}
        self._saving = DeviceFault("saving the game")  # the back-off while the disk refuses writes

    @property
    def started(self) -> Mapping[str, Any]:
        return self._start

    def standing_actions(self) -> list[tuple[str, str]]:
        game = self.journal.game
        if game is None:
            return []
        return [(entry["action"], entry.get("via", "sensors")) for entry in game.actions]

    def resume(
        self, game: Game, fresh: State, start: Mapping[str, Any], fits: Callable[[Game], bool] | None = None
    ) -> Sequence[State]:
        """The game in the journal if it can go on; otherwise `fresh`, recorded as a new game.

        A damaged journal tail is cut off (the last complete record wins) and said in one log line.
        A finished game, a game of another kind than configured (unless the players chose it in the
        lobby and `fits` says this board can play it), or one that no longer replays is closed with
        an `abandon` record and a new game starts.
        """
        recovery = self.journal.recover()
        if recovery.damaged is not None:
            self.log.warning("journal: %s; the game resumes from the last complete record", recovery.damaged)
        record = recovery.game
        if record is not None:
            chosen = self._lobby_game(record.start, fits)
            states = self._replay(record, chosen or game)
            if states is not None:
                self._start = dict(record.start)
                self.log.info(
                    "resumed %s after %d moves from the journal in %s",
                    states[-1].game.title,
                    len(states) - 1,
                    self.journal.directory,
                )
                return states
            self.journal.abandon()
        self._start = dict(start)
        self._record_start(start)
        return [fresh]

    def _lobby_game(self, start: Mapping[str, Any], fits: Callable[[Game], bool] | None) -> Game | None:
        """The game the players chose in the lobby, if this board can play it."""
        if start.get("origin") != "lobby" or fits is None:
            return None
        try:
            game = load_game(str(start.get("game")))
        except ValueError:
            return None
        return game if fits(game) else None

    def _record_start(self, start: Mapping[str, Any]) -> None:
        more = {key: value for key, value in start.items() if key not in ("game", "players", "seed", "options")}
        self.journal.start_game(start["game"], start["players"], start["seed"], start["options"], **more)

    def _replay(self, record: GameRecord, game: Game) -> list[State] | None:
        if record.start.get("game") != game.name:
            self.log.warning(
                "journal: the saved game is %s, the configuration plays %s: starting a new game",
                record.start.get("game"),
                game.name,
            )
            return None
        try:
            _, states = record.replay()
        except (JournalError, ValueError) as error:
            self.log.error("journal: the saved game cannot be replayed (%s): starting a new game", error)
            return None
        if states[-1].is_terminal() or record.ended is not None:
            why = f" ({record.ended['result']})" if record.ended is not None else ""
            self.log.info("journal: the saved game was over%s: starting a new game", why)
            return None
        return states

    def on_commit(self, before: State, action: Action, after: State, via: str = "sensors") -> None:
        if via == "correction":
            self.journal.correction(before.action_to_str(action))  # replaces the last action
        else:
            self.journal.action(before.action_to_str(action), via)

    def on_takeback(self, state: State) -> None:
        self.journal.takeback()

    def on_ended(self, status: str, result: str) -> None:
        self.journal.ended(status, result)

    def new_game(self, start: Mapping[str, Any]) -> None:
        """The players left the game: close it in the journal and record the new one."""
        self.journal.abandon()
        self._start = dict(start)
        self._record_start(start)

    def replace_game(self, start: Mapping[str, Any], actions: Sequence[str]) -> None:
        """The players went back to a saved game: close this one and record that one, move by move."""
        self.new_game(start)
        for text in actions:
            self.journal.action(text, "resumed")

    @property
    def trouble(self) -> str | None:
        behind = self.journal.behind  # set the moment a write fails, before the move is logged
        if behind is None:
            return None
        saved = self.journal.saved_moves
        loses = f"the moves from move {saved + 1} on" if saved else "this game's moves"
        return (
            f"Not saving the game: {behind} ({self.journal.directory}). The game goes on; "
            f"a power cut now loses {loses}."
        )

    def retry(self, now: int) -> None:
        behind = self.journal.behind
        if behind is None and self._saving.error is None:
            return  # all is well: two attribute reads per scan
        if self._saving.error is None:  # it has just fallen behind: say so, try again later
            self._saving.failed(now, behind or "")
            self.log.warning("journal: %s It tries again.", self.trouble)
            return
        if not self._saving.due(now):
            return
        said = self.trouble
        if self.journal.catch_up():
            self._saving.recovered()
            self.log.info("journal: saving again: the game is saved up to move %d", len(self.standing_actions()))
            return
        self._saving.failed(now, self.journal.behind or "")
        if self.trouble != said:
            self.log.warning("journal: %s It tries again.", self.trouble)

    def close(self) -> None:
        self.journal.close()
