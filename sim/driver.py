"""Virtual hands that carry out actions on the simulated board, scan by scan, and the judge of what
the tracker made of them.

Whoever owns the scan loop — the physical self-play harness, or the `tafel run` service on a
simulated board — calls `before_scan(now)` and `after_scan(now, output)` around every scan. Every
commit is checked against what was intended: a different action, or a commit before the hands
finished, is a wrong commit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from controller.bots import Bot
from controller.games import Action, Cell, Piece, State
from controller.table.tracker import Tracker, TrackerOutput
from sim.backends import SimBackends
from sim.board import SimBoard
from sim.hands import HandStep

REACTION_MS = 400  # how long a player takes to answer a confirmation request
GIVE_UP_MS = 20_000  # a move the tracker has not committed this long after the hands finished


@dataclass
class PhysicalStats:
    intended: int = 0
    committed: int = 0
    wrong_commits: int = 0
    confirmations: int = 0
    declared: int = 0
    takebacks: int = 0
    guidance_episodes: int = 0
    missed: int = 0
    step_ms: list[float] = field(default_factory=list)  # every scan
    unchanged_step_ms: list[float] = field(default_factory=list)  # nothing new: the tracker's hot path
    changed_step_ms: list[float] = field(default_factory=list)  # a reading settled, a timer fired, an input
    ack_ms: list[int] = field(default_factory=list)
    commit_ms: list[int] = field(default_factory=list)

    def merge(self, other: PhysicalStats) -> None:
        for name in (
            "intended",
            "committed",
            "wrong_commits",
            "confirmations",
            "declared",
            "takebacks",
            "guidance_episodes",
            "missed",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("step_ms", "unchanged_step_ms", "changed_step_ms", "ack_ms", "commit_ms"):
            getattr(self, name).extend(getattr(other, name))


def percentile(values: list[float] | list[int], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return float(ordered[index])


class Performance:
    """One action carried out by the virtual hands, scan by scan, until the tracker commits it.

    Whoever owns the scan loop (`PhysicalTable.perform`, or the `tafel run` service through
    `HandsDriver`) calls `before_scan(now)` (the hands act) and `after_scan(now, output)` (judge what
    the tracker made of it) around every scan; `after_scan` returns True once the action is committed,
    False when the tracker never committed it, and None while it goes on. Every commit is checked
    against the intended action: a different action, or a commit before the hands finished, counts as
    a wrong commit in `stats`.
    """

    def __init__(
        self,
        backends: SimBackends,
        tracker: Tracker,
        action: Action,
        start: int,
        stats: PhysicalStats,
        show_card: bool = False,
        on_hand: Callable[[int, HandStep], None] | None = None,
    ) -> None:
        self.action = action
        self._on_hand = on_hand  # told of every step as the hands make it
        self.before = tracker.state
        self.text = self.before.action_to_str(action)
        self.ack_frame: tuple | None = None  # the LED frame that acknowledged the action
        self._backends = backends
        self._stats = stats
        stats.intended += 1
        after = self.before.apply(action)
        is_field = backends.board.channel_of.__contains__
        self._steps: list[HandStep] = backends.hands.plan(self.before.occupancy(), after.occupancy(), is_field)
        card = getattr(action, "card", None)
        if show_card and card is not None:
            # The player shows the card to the reader before moving (Zillo's Z-6): only its moves count.
            backends.inputs.push("card", card)
        # An action no sensor sees still moves pieces (a swap of like pieces): the hands make it, then
        # the player declares it once the board has settled.
        self._declare = tracker.is_invisible(action)
        if self._declare:
            stats.declared += 1
        self._start = start
        self.finished_at = start if not self._steps else start + self._steps[-1].at
        self._index = 0
        self._asked = False
        self._confirm_at: int | None = None
        self._acked = False
        # Acknowledgement latency is measured on a recording pixel sink (the simulated LEDs) only.
        self._recorder = backends.pixels if hasattr(backends.pixels, "frames") else None
        self._frames_before = self._recorder.count if self._recorder is not None else 0

    @property
    def hands_done(self) -> bool:
        return self._index >= len(self._steps)

    def before_scan(self, now: int) -> None:
        """The hands carry out every step that is due, and answer a confirmation request in time."""
        steps = self._steps
        board = self._backends.board
        while self._index < len(steps) and self._start + steps[self._index].at <= now:
            step = steps[self._index]
            apply_step(board, step)
            if self._on_hand is not None:
                self._on_hand(now, step)
            self._index += 1
        if self._confirm_at is not None and now >= self._confirm_at:
            self._backends.inputs.push("declare", self.text)
            self._confirm_at = None

    def after_scan(self, now: int, output: TrackerOutput) -> bool | None:
        stats = self._stats
        action = self.action
        done = self.hands_done
        if done and self._declare and output.mode == "idle":
            self._backends.inputs.push("declare", self.text)
            self._declare = False
        answered = output.acknowledged == action or action in output.committed or action in output.candidates
        if done and not self._acked and answered:
            recorder = self._recorder
            if recorder is not None and recorder.count > self._frames_before and recorder.frames[-1][0] == now:
                stats.ack_ms.append(now - self.finished_at)
                self.ack_frame = recorder.frames[-1][1]
                self._acked = True
        if output.committed:
            for previous, committed, _ in output.transitions:
                stats.committed += 1
                if committed != action or not done or previous is not self.before:
                    stats.wrong_commits += 1
            if action in output.committed:
                stats.commit_ms.append(now - self.finished_at)
                if not self._acked:
                    stats.ack_ms.append(now - self.finished_at)
                    self.ack_frame = self._recorder.last if self._recorder is not None else None
                return True
        if done and output.mode == "confirm" and not self._asked and action in output.candidates:
            # The player sees the amber request in this scan's frame and answers REACTION_MS later.
            self._confirm_at = now + REACTION_MS
            stats.confirmations += 1
            self._asked = True
        if done and now - self.finished_at >= GIVE_UP_MS:
            stats.missed += 1
            return False
        return None


def apply_step(board: SimBoard, step: HandStep) -> None:
    """Make one step of the hands on the board."""
    if step.op == "lift":
        _lift(board, step.cell, step.pieces)
    else:
        board.place(step.cell, step.pieces)


def _lift(board: SimBoard, cell: Cell, pieces: tuple[Piece, ...]) -> None:
    """Lift `pieces` off `cell`: the top of the stack, or one particular piece from under others."""
    stack = board.pieces.get(cell, [])
    if len(pieces) == 1 and stack and stack[-1] != pieces[0] and pieces[0] in stack:
        board.lift_piece(cell, pieces[0])
    else:
        board.lift(cell, len(pieces))


class HandsDriver:
    """Virtual hands that play every seat on the simulated board, scan by scan, for a loop that owns
    the clock (the `tafel run` service): the scripted moves first, then bots if there are any, until
    the game is over. Nothing starts before the board first matches the game (set-up is done)."""

    def __init__(
        self,
        backends: SimBackends,
        tracker: Tracker,
        moves: Sequence[str] = (),
        bots: Sequence[Bot] = (),
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.stats = PhysicalStats()
        self.current: Performance | None = None
        self.stopped: str | None = None  # why the hands gave up, if they did
        self._backends = backends
        self._tracker = tracker
        self._moves = list(moves)
        self._next_move = 0
        self._bots = list(bots)
        self._log = log or (lambda message: None)
        self._ready = False
        self._restoring: tuple[int, list[HandStep], int] | None = None

    @property
    def finished(self) -> bool:
        """Nothing left to play: the game is over, the script ran out (and no bots) or the hands gave up."""
        if self.current is not None:
            return False
        if self.stopped is not None or self._tracker.state.is_terminal():
            return True
        return self._next_move >= len(self._moves) and not self._bots

    def before_scan(self, now: int) -> None:
        if self.current is None and not self._ready:
            self._restore(now)
        if self.current is None and self._ready and not self.finished:
            action = self._next_action(self._tracker.state)
            if action is not None:
                self.current = Performance(self._backends, self._tracker, action, now, self.stats)
                self._log(f"virtual hands: seat {self.current.before.current_player} plays {self.current.text}")
        if self.current is not None:
            self.current.before_scan(now)
        self._backends.board.now = now

    def _restore(self, now: int) -> None:
        """Before play (set-up, or after a restart mid-move), make the board match the game: the
        pieces go where the LEDs ask, as players do when the board comes back after a power cut."""
        board = self._backends.board
        if self._restoring is None:
            target = self._tracker.state.occupancy()
            if board.occupancy() == target:
                return
            is_field = board.channel_of.__contains__
            self._restoring = (now, self._backends.hands.plan(board.occupancy(), target, is_field), 0)
            self._log("virtual hands: setting the board to the game's position")
        start, steps, index = self._restoring
        while index < len(steps) and start + steps[index].at <= now:
            apply_step(board, steps[index])
            index += 1
        self._restoring = (start, steps, index) if index < len(steps) else None

    def after_scan(self, now: int, output: TrackerOutput) -> None:
        if output.mode == "idle":
            self._ready = True
        move = self.current
        if move is None:
            return
        result = move.after_scan(now, output)
        if result is False:
            self.stopped = f"the board did not recognise {move.text}; the virtual hands stop"
            self._log(self.stopped)
        if result is not None:
            self.current = None

    def _next_action(self, state: State) -> Action | None:
        if self._next_move < len(self._moves):
            text = self._moves[self._next_move]
            self._next_move += 1
            try:
                return state.parse_action(text)
            except ValueError as error:
                self.stopped = f"scripted move {text!r} does not fit the game: {error}"
                self._log(self.stopped)
                return None
        if self._bots:
            return self._bots[state.current_player].choose(state)
        return None
