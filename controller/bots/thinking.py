"""Bots for the board's service, asked once per scan and never waited for.

The scan loop must keep its pace while a bot thinks, so a bot that searches thinks in a process of
its own: a thread would share the interpreter's lock with the loop and stall its scans for the
interpreter's switch interval (5 ms) at a time. The loop asks `poll(state)` every scan; it gets
None while the bot thinks and the action once decided. A new position (a take-back, a new game)
interrupts the old thought: the worker stops at its next simulation and thinks about the new one.
A thought that runs past `LONGEST_THINK_S` ends there too, with the best move so far. The instant
bots (random, greedy) answer at once, in the loop itself.
"""

from __future__ import annotations

import contextlib
import logging
import math
import multiprocessing
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Protocol

from controller.bots import SEARCH_LEVELS, Bot, make_bot
from controller.bots.search import SearchBot
from controller.games import Action, State, load_game

log = logging.getLogger("tafel.bots")

JOIN_S = 2.0  # how long a closing worker may take to finish before it is stopped
LONGEST_THINK_S = 3.0
"""The longest a searching bot keeps the table waiting; past it, it plays its best move so far. The
levels' budgets fill about this on a Pi Zero 2 W for a typical position (docs/bots.md, "Levels"),
but a position deep in a game may ask for more, and a person who waits longer wonders whether the
board has hung. On a laptop no level comes near it."""


class Thinking(Protocol):
    """A bot seat as the service sees it."""

    name: str

    def poll(self, state: State) -> Action | None:
        """The action for `state` once decided; None while the bot still thinks about it."""
        ...

    def close(self) -> None:
        """Stop thinking for good (the game is over or abandoned, or the service stops)."""
        ...


class AtOnce:
    """An instant bot: it decides within the scan."""

    def __init__(self, bot: Bot) -> None:
        self.name = bot.name
        self._bot = bot
        self._answer: tuple[State, Action] | None = None

    def poll(self, state: State) -> Action | None:
        if self._answer is None or self._answer[0] is not state:
            self._answer = (state, self._bot.choose(state))
        return self._answer[1]

    def close(self) -> None:
        self._answer = None


class InWorker:
    """A searching bot in a worker process; the loop polls its pipe, which never blocks."""

    def __init__(self, name: str, seed: int, longest_think_s: float = LONGEST_THINK_S) -> None:
        self.name = name
        self._seed = seed
        context = multiprocessing.get_context("spawn")  # never fork the service's threads
        self._pipe, child = context.Pipe()
        self._process = context.Process(
            target=_think, args=(child, name, seed, longest_think_s), daemon=True, name=f"bot {name}"
        )
        self._process.start()
        child.close()
        self._asked: State | None = None
        self._number = 0
        self._answer: Action | None = None
        self._fallback: Bot | None = None

    def poll(self, state: State) -> Action | None:
        if self._fallback is not None:
            return self._fallback.choose(state)
        try:
            if state is not self._asked:
                self._asked, self._answer = state, None
                self._number += 1
                self._pipe.send((self._number, state.game.name, state.to_json()))
            while self._answer is None and self._pipe.poll():
                number, text = self._pipe.recv()
                if number == self._number:
                    self._answer = state.parse_action(text)
        except (OSError, EOFError, ValueError) as error:
            # The worker is gone: this seat plays the greedy bot from now on, in the loop.
            log.error("the %s bot stopped thinking (%s); the greedy bot plays its seat", self.name, error)
            self._fallback = make_bot("greedy", self._seed)
            return self._fallback.choose(state)
        return self._answer

    def wait(self, seconds: float) -> None:
        """Block until the worker may have answered, or `seconds` passed: for a caller with nothing
        else to do meanwhile (a terminal, a test); the service polls instead."""
        with contextlib.suppress(OSError, EOFError):
            self._pipe.poll(seconds)

    def close(self) -> None:
        """Tell the worker to end, without waiting for it (a new game starts in this very scan): it
        ends at its next simulation, and `ENDING` joins it later, or stops it if it has not ended
        within JOIN_S."""
        with contextlib.suppress(OSError):  # the worker may be gone already
            self._pipe.send(None)
        self._pipe.close()
        ENDING.add(self._process)


class Ending:
    """Workers told to end: joined once they have (so none is left a zombie), stopped once they
    have had JOIN_S to do so. Looked at whenever a worker is told to end; Python's own exit
    handler stops any still running when the service ends."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._workers: list[tuple[BaseProcess, float]] = []

    def add(self, process: BaseProcess) -> None:
        self._workers.append((process, self._clock() + JOIN_S))
        self.reap()

    def reap(self) -> None:
        still: list[tuple[BaseProcess, float]] = []
        for process, deadline in self._workers:
            if not process.is_alive():
                process.join()
            elif self._clock() >= deadline:
                process.terminate()
                still.append((process, math.inf))  # joined once it has gone
            else:
                still.append((process, deadline))
        self._workers = still

    def __len__(self) -> int:
        return len(self._workers)


ENDING = Ending()


def thinking_bot(name: str, seed: int) -> Thinking:
    """The service's bot of level `name`: searching levels think in a worker process."""
    if name in SEARCH_LEVELS:
        return InWorker(name, seed)
    return AtOnce(make_bot(name, seed))


class Deadline:
    """When the thought under way must end: `seconds` after it began."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = math.inf

    def restart(self) -> None:
        self._end = time.monotonic() + self.seconds

    def passed(self) -> bool:
        return time.monotonic() >= self._end


def _think(pipe: Connection, name: str, seed: int, longest_think_s: float) -> None:
    """The worker: think about the newest position asked, answer, and wait for the next."""
    bot = make_bot(name, seed)
    assert isinstance(bot, SearchBot)
    deadline = Deadline(longest_think_s)
    # A newer position waits in the pipe (stop and think about that), or the table has waited long enough.
    bot.interrupt_when(lambda: pipe.poll() or deadline.passed())
    try:
        while True:
            message = pipe.recv()
            if message is None:
                return
            number, game, data = message
            state = load_game(game).state_from_json(data)
            deadline.restart()
            action = bot.choose(state)
            if not pipe.poll():  # not overtaken by a newer position meanwhile
                pipe.send((number, state.action_to_str(action)))
    except (EOFError, OSError, KeyboardInterrupt):
        return
