"""Games played through the whole physical stack on the simulated board.

Bots choose actions, virtual hands carry them out as lift/place steps on the simulated board, the
tracker infers them from noisy sensor scans, and the LEDs answer. Every commit is checked against
what the bot intended: a different action, or a commit before the hands finished, is a wrong commit.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from controller.backends import simulated
from controller.bots import make_bot
from controller.games import Action, Game, State
from controller.selfplay import bot_seed, game_seed
from controller.session import Session
from controller.tracker import TrackerConfig, TrackerOutput
from hal.profile import BoardProfile, load_profile

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
    ) -> None:
        self.game = game
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
        stats = self.stats
        stats.intended += 1
        tracker = self.session.tracker
        before = tracker.state
        text = before.action_to_str(action)
        after = before.apply(action)
        steps = self.backends.hands.plan(before.occupancy(), after.occupancy(), self.sim.channel_of.__contains__)
        # An action no sensor sees still moves pieces (a swap of like pieces): the hands make it,
        # then the player declares it.
        invisible = tracker.is_invisible(action)
        if invisible:
            stats.declared += 1
        start = self.now
        finished_at = start if not steps else start + steps[-1].at
        index = 0
        asked = False
        acked = False
        frames_before = len(self.backends.pixels.frames)
        while True:
            while index < len(steps) and start + steps[index].at <= self.now:
                step = steps[index]
                if step.op == "lift":
                    self._lift(step.cell, step.pieces)
                else:
                    self.sim.place(step.cell, step.pieces)
                index += 1
            done = index >= len(steps)
            output = self.tick()
            if done and invisible and output.mode == "idle":
                # The hands are done and the board has settled: declare what no sensor saw.
                self.backends.inputs.push("declare", text)
                invisible = False
            if (
                done
                and not acked
                and (output.acknowledged == action or action in output.committed or action in output.candidates)
            ):
                pixels = self.backends.pixels.frames
                if len(pixels) > frames_before and pixels[-1][0] == self.now - SCAN_MS:
                    stats.ack_ms.append(self.now - SCAN_MS - finished_at)
                    self.ack_frame = pixels[-1][1]
                    acked = True
            if output.committed:
                for previous, committed, _ in output.transitions:
                    stats.committed += 1
                    if committed != action or not done or previous is not before:
                        stats.wrong_commits += 1
                if action in output.committed:
                    stats.commit_ms.append(self.now - SCAN_MS - finished_at)
                    if not acked:
                        stats.ack_ms.append(self.now - SCAN_MS - finished_at)
                        self.ack_frame = self.backends.pixels.last
                    return True
            if done and output.mode == "confirm" and not asked and action in output.candidates:
                self.run(REACTION_MS)
                self.backends.inputs.push("declare", text)
                stats.confirmations += 1
                asked = True
            if done and self.now - finished_at > GIVE_UP_MS:
                stats.missed += 1
                return False

    def _lift(self, cell, pieces) -> None:
        stack = self.sim.pieces.get(cell, [])
        if len(pieces) == 1 and stack and stack[-1] != pieces[0] and pieces[0] in stack:
            self.sim.lift_piece(cell, pieces[0])
        else:
            self.sim.lift(cell, len(pieces))


def play_physical_game(
    game: Game,
    players: int,
    seed: int,
    bot: str,
    profile: BoardProfile,
    sensor: str | None,
    noise: str,
    config: TrackerConfig | None = None,
    **options: Any,
) -> tuple[PhysicalStats, State]:
    state = game.new_game(players=players, seed=seed, **options)
    table = PhysicalTable(game, state, profile, sensor, noise, seed, config)
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
        stats, final = play_physical_game(game, players, game_seed(seed, index), bot, board, sensor, noise, **options)
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
    **options: Any,
) -> dict[str, Any]:
    """The `tafel selfplay --physical` summary; all but the timing keys depend only on the seed."""
    players = game.check_players(players)
    board = load_profile(profile or default_profile(game))
    run = collect_physical(game, players, games, seed, bot, sensor, noise, profile, **options)
    total = run.stats
    return {
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
