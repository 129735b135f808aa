"""The service's memory: the journal in the state directory, so a power cut loses no confirmed move.

The service asks `resume` for the game to continue when it starts, and reports every commit and
take-back before the LEDs show it as done (the session runs these hooks before it pushes the frame).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from controller.games import Action, Game, State
from controller.service.journal import Journal, JournalError


class JournalPersistence:
    """Keeps the game in a journal (controller/service/journal.py) in `directory`."""

    def __init__(self, directory: str | Path, log: logging.Logger | None = None, compact_after: int = 500) -> None:
        self.journal = Journal(directory, compact_after)
        self.log = log or logging.getLogger("tafel")
        self._start: dict[str, Any] | None = None

    def resume(self, game: Game, fresh: State, start: Mapping[str, Any]) -> Sequence[State]:
        """The game in the journal if it can go on; otherwise `fresh`, recorded as a new game.

        A damaged journal tail is cut off (the last complete record wins) and said in one log line.
        A finished game, a game of another kind than configured, or one that no longer replays is
        closed with an `abandon` record and a new game starts.
        """
        recovery = self.journal.recover()
        if recovery.damaged is not None:
            self.log.warning("journal: %s; the game resumes from the last complete record", recovery.damaged)
        record = recovery.game
        if record is not None:
            states = self._replay(record, game)
            if states is not None:
                self._start = dict(record.start)
                self.log.info(
                    "resumed %s after %d moves from the journal in %s",
                    game.title,
                    len(states) - 1,
                    self.journal.directory,
                )
                return states
            self.journal.abandon()
        self._start = dict(start)
        self.journal.start_game(start["game"], start["players"], start["seed"], start["options"])
        return [fresh]

    def _replay(self, record: Any, game: Game) -> list[State] | None:
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
        if states[-1].is_terminal():
            self.log.info("journal: the saved game was over: starting a new game")
            return None
        return states

    def on_commit(self, before: State, action: Action, after: State, via: str = "sensors") -> None:
        if via == "correction":
            self.journal.correction(before.action_to_str(action))  # replaces the last action
        else:
            self.journal.action(before.action_to_str(action), via)

    def on_takeback(self, state: State) -> None:
        self.journal.takeback()

    def new_game(self, start: Mapping[str, Any]) -> None:
        """The players abandoned the game: close it in the journal and record the new one."""
        self.journal.abandon()
        self._start = dict(start)
        self.journal.start_game(start["game"], start["players"], start["seed"], start["options"])

    def close(self) -> None:
        self.journal.close()
