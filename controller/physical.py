"""Games played through the whole physical stack on the simulated board.

Bots choose actions, virtual hands carry them out as lift/place steps on the simulated board, the
tracker infers them from noisy sensor scans, and the LEDs answer. Every commit is checked against
what the bot intended: a different action, or a commit before the hands finished, is a wrong commit.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controller.backends import SimBackends, simulated
from controller.bots import Bot, make_bot
from controller.games import Action, Cell, Game, Piece, State
from controller.selfplay import bot_seed, game_seed
from controller.session import Session
from controller.tracker import Tracker, TrackerConfig, TrackerOutput
from hal.profile import BoardProfile, load_profile

if TYPE_CHECKING:  # the simulated board is reached through controller.backends at run time
    from sim.board import SimBoard
    from sim.hands import HandStep

SCAN_MS = 10  # 100 scans per second
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


class PhysicalTable:
    """A simulated board with a session on it, driven in virtual time."""

    def __init__(
        self,
        game: Game,
        state: State,
        profile: BoardProfile,
        sensor: str | None = None,
        noise: str = "none",
        seed: int = 0,
        config: TrackerConfig | None = None,
        calm_hands: bool = False,
        set_up: bool = True,
        show_cards: bool = False,
    ) -> None:
        self.game = game
        self.show_cards = show_cards  # the virtual players show each card to the reader before its move
        self.backends = simulated(profile, sensor, noise, seed, calm_hands)
        self.sim = self.backends.board
        if set_up:
            self.sim.load(state.occupancy())
        self.session = Session.create(
            game, state, profile, self.sim, self.backends.pixels, self.backends.inputs, sensor, config
        )
        self.now = 0
        self.stats = PhysicalStats()
        self.ack_frame: tuple | None = None  # the LED frame that acknowledged the last move
        self._last_mode = ""

    @property
    def state(self) -> State:
        return self.session.state

    def tick(self) -> TrackerOutput:
        self.sim.now = self.now
        output = self.session.step(self.now)
        self.stats.step_ms.append(self.session.last_step_ms)
        if self.session.tracker.last_evaluated:
            self.stats.changed_step_ms.append(self.session.last_step_ms)
        else:
            self.stats.unchanged_step_ms.append(self.session.last_step_ms)
        if output.mode == "guidance" and self._last_mode != "guidance":
            self.stats.guidance_episodes += 1
        self._last_mode = output.mode
        self.stats.takebacks += output.took_back
        self.now += SCAN_MS
        return output

    def run(self, ms: int) -> TrackerOutput:
        """Scan for `ms` milliseconds of virtual time (at least one scan); the last output."""
        end = self.now + ms
        output = self.tick()
        while self.now < end:
            output = self.tick()
        return output

    def settle(self) -> TrackerOutput:
        """Scan until the board is idle (used after set-up)."""
        output = self.tick()
        for _ in range(GIVE_UP_MS // SCAN_MS):
            if output.mode == "idle":
                break
            output = self.tick()
        return output

    def perform(self, action: Action) -> bool:
        """Carry out `action` with the virtual hands until the tracker commits it; False if it never did."""
        move = Performance(self.backends, self.session.tracker, action, self.now, self.stats, self.show_cards)
        while True:
            move.before_scan(self.now)
            scanned_at = self.now
            output = self.tick()
            result = move.after_scan(scanned_at, output)
            if result is not None:
                if move.ack_frame is not None:
                    self.ack_frame = move.ack_frame
                return result


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
    ) -> None:
        self.action = action
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
            if step.op == "lift":
                _lift(board, step.cell, step.pieces)
            else:
                board.place(step.cell, step.pieces)
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
            step = steps[index]
            if step.op == "lift":
                _lift(board, step.cell, step.pieces)
            else:
                board.place(step.cell, step.pieces)
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


def play_physical_game(
    game: Game,
    players: int,
    seed: int,
    bot: str,
    profile: BoardProfile,
    sensor: str | None,
    noise: str,
    config: TrackerConfig | None = None,
    show_cards: bool = False,
    **options: Any,
) -> tuple[PhysicalStats, State]:
    state = game.new_game(players=players, seed=seed, **options)
    table = PhysicalTable(game, state, profile, sensor, noise, seed, config, show_cards=show_cards)
    table.settle()
    bots = [make_bot(bot, bot_seed(seed, seat)) for seat in range(players)]
    while not table.state.is_terminal():
        current = table.state
        action = bots[current.current_player].choose(current)
        if not table.perform(action):
            break
    return table.stats, table.state


def default_profile(game: Game) -> str:
    return getattr(game, "board_profile", "square14")


@dataclass
class PhysicalRun:
    stats: PhysicalStats
    wins: list[int]
    draws: int
    unfinished: int
    elapsed: float


def collect_physical(
    game: Game,
    players: int,
    games: int,
    seed: int,
    bot: str,
    sensor: str | None,
    noise: str,
    profile: str | None = None,
    show_cards: bool = False,
    **options: Any,
) -> PhysicalRun:
    """Play `games` physical games and gather their statistics."""
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    players = game.check_players(players)
    board = load_profile(profile or default_profile(game))
    run = PhysicalRun(PhysicalStats(), [0] * players, 0, 0, 0.0)
    started = time.perf_counter()
    for index in range(games):
        stats, final = play_physical_game(
            game, players, game_seed(seed, index), bot, board, sensor, noise, show_cards=show_cards, **options
        )
        run.stats.merge(stats)
        if not final.is_terminal():
            run.unfinished += 1
            continue
        winners = [seat for seat, value in enumerate(final.returns()) if value == 1.0]
        if not winners:
            run.draws += 1
        for seat in winners:
            run.wins[seat] += 1
    run.elapsed = time.perf_counter() - started
    return run


def run_physical_selfplay(
    game: Game,
    players: int,
    games: int,
    seed: int,
    bot: str,
    sensor: str | None,
    noise: str,
    profile: str | None = None,
    show_cards: bool = False,
    **options: Any,
) -> dict[str, Any]:
    """The `tafel selfplay --physical` summary; all but the timing keys depend only on the seed."""
    players = game.check_players(players)
    board = load_profile(profile or default_profile(game))
    run = collect_physical(game, players, games, seed, bot, sensor, noise, profile, show_cards, **options)
    total = run.stats
    summary = {
        "game": game.name,
        "players": players,
        "games": games,
        "seed": seed,
        "bot": bot,
        "physical": True,
        "sensor": sensor or board.sensor_model,
        "noise": noise,
        "wins": run.wins,
        "draws": run.draws,
        "unfinished": run.unfinished,
        "avg_plies": round(total.committed / games, 2),
        "intended": total.intended,
        "committed": total.committed,
        "wrong_commits": total.wrong_commits,
        "missed": total.missed,
        "confirmations": total.confirmations,
        "declared": total.declared,
        "takebacks": total.takebacks,
        "guidance_episodes": total.guidance_episodes,
        "ack_ms_p99": percentile(total.ack_ms, 99),
        "commit_ms_p99": percentile(total.commit_ms, 99),
        "step_ms_mean": round(statistics.fmean(total.step_ms), 4) if total.step_ms else 0.0,
        "step_ms_p99": round(percentile(total.step_ms, 99), 4),
        "changed_step_ms_p99": round(percentile(total.changed_step_ms, 99), 4),
        "actions_per_s": round(total.committed / run.elapsed, 1) if run.elapsed > 0 else None,
    }
    if show_cards:
        summary["show_cards"] = True
    return summary
