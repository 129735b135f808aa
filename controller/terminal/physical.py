"""Games played through the whole physical stack on the simulated board.

Bots choose actions, virtual hands carry them out as lift/place steps on the simulated board, the
tracker infers them from noisy sensor scans, and the LEDs answer. Every commit is checked against
what the bot intended: a different action, or a commit before the hands finished, is a wrong commit.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from controller.bots import Bot, make_bot
from controller.bots.seeds import bot_seed, game_seed
from controller.games import Action, Cell, Game, State
from controller.service.memory import CollectionPacer
from controller.table.session import Session
from controller.table.tracker import TrackerConfig, TrackerOutput
from hal.profile import BoardProfile, load_profile
from hal.protocols import RGB
from sim.backends import SimBackends, simulated
from sim.driver import GIVE_UP_MS, Judge, Performance, apply_step, sight_of, speaks_on_own_page
from sim.hands import BEHAVIOURS, HandStep, hands_for
from sim.mishaps import fault_onsets
from sim.sight import MoveSight
from sim.stats import PhysicalStats, percentile

SCAN_MS = 10  # 100 scans per second


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
        hand_style: str | None = None,
    ) -> None:
        self.game = game
        self.show_cards = show_cards  # the virtual players show each card to the reader before its move
        self.backends = simulated(profile, sensor, noise, seed, calm_hands, hand_style=hand_style)
        self.sim = self.backends.board
        # The session first: it checks that the board has every field of the game.
        self.session = Session.create(
            game, state, profile, self.sim, self.backends.pixels, self.backends.inputs, sensor, config
        )
        if set_up:
            self.sim.load(state.occupancy())
        # A sensor may fail during the game (the high noise mix): the board must go on without it.
        fields = sorted(self.sim.channel_of)
        self.backends.mishaps.faults = fault_onsets(self.backends.hands.style.fault, fields, seed)
        self.now = 0
        self.stats = PhysicalStats()
        self.judge = Judge(self.stats)  # every commit checked against the moves the hands meant
        self.ack_frame: tuple[RGB, ...] | None = None  # the LED frame that acknowledged the last move
        self.messages: list[str] = []  # what the board said (button answers, refused declarations)
        self._last_mode = ""
        # Collections paced between scans as the service paces them (a bench sets it: memory.py).
        self.collector: CollectionPacer | None = None
        self._after_commit = False  # the next changed step is the first after a commit
        self._lift_seen = False  # a changed step in this position has seen the board differ from it

    @property
    def state(self) -> State:
        return self.session.state

    def tick(self) -> TrackerOutput:
        self.sim.now = self.now
        self.backends.mishaps.before_scan(self.now, apply_step)
        output = self.session.step(self.now)
        self._time_step(output)
        if output.display.mode == "guidance" and self._last_mode != "guidance":
            self.stats.guidance_episodes += 1
        self._last_mode = output.display.mode
        self.stats.takebacks += output.happened.took_back
        self.messages.extend(output.happened.messages)
        self.judge.see(output)
        self.now += SCAN_MS
        return output

    def _time_step(self, output: TrackerOutput) -> None:
        stats, tracker, ms = self.stats, self.session.tracker, self.session.last_step_ms
        stats.step_ms.append(ms)
        if tracker.last_worked_ahead:
            stats.ahead_step_ms.append(ms)
        elif not tracker.last_evaluated:
            stats.unchanged_step_ms.append(ms)
        else:
            stats.changed_step_ms.append(ms)
            if self._after_commit:
                stats.first_after_commit_ms.append(ms)
                self._after_commit = False
            if not self._lift_seen and tracker.stable_readings != tracker.expected_readings:
                stats.first_lift_ms.append(ms)
                self._lift_seen = True
        if output.happened.committed or output.happened.took_back:
            self._after_commit = True
            self._lift_seen = False
        if self.collector is not None:
            self.collector.after_scan(quiet=not tracker.last_evaluated)

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
            if output.display.mode == "idle":
                break
            output = self.tick()
        return output

    def restore(self) -> TrackerOutput:
        """The hands put the pieces where the game says (after an undo, the move is put back), then
        the board settles."""
        board = self.sim
        target = self.state.occupancy()
        if board.occupancy() != target:
            steps = self.backends.hands.plan(board.occupancy(), target, board.channel_of.__contains__)
            start = self.now
            for step in steps:
                while self.now < start + step.at:
                    self.tick()
                apply_step(board, step)
        return self.settle()

    def perform(
        self,
        action: Action,
        watch: Callable[[int, TrackerOutput], None] | None = None,
        on_hand: Callable[[int, HandStep], None] | None = None,
    ) -> bool:
        """Carry out `action` with the virtual hands until the tracker commits it; False if it never did.

        `watch(now, output)` sees every scan and `on_hand(now, step)` every step of the hands (the
        demo narrates them)."""
        while self.backends.mishaps.pending:  # a knocked or touched piece goes back first
            self.tick()
        move = Performance(
            self.backends, self.session.tracker, action, self.now, self.stats, self.show_cards, on_hand=on_hand
        )
        self.judge.intend(move)
        while True:
            move.before_scan(self.now)
            scanned_at = self.now
            output = self.tick()
            if watch is not None:
                watch(scanned_at, output)
            result = move.after_scan(scanned_at, output)
            if result is not None:
                if move.ack_frame is not None:
                    self.ack_frame = move.ack_frame
                return result

    def play(self, bots: Sequence[Bot]) -> None:
        """Bots play until the game is over or the board lost track of a move. The next player may
        start before the last move is committed (a fast reply, when the hands' style says so)."""
        sight = sight_of(self.session.tracker)  # the hands' own view of moves, not the tracker's tables
        hands = self.backends.hands
        moves: list[Performance] = []
        chosen: tuple[State, Action] | None = None  # the next move, decided while a knocked piece lies
        early: EarlyCard | None = None  # the next move, whose card its player shows while the last one settles
        drawn: Performance | None = None  # the last move whose next player was drawn for an early card
        while True:
            if not moves:
                if self.state.is_terminal():
                    return
                if early is not None and early.state == self.state:
                    chosen = (self.state, early.action)  # the move chosen while the last one settled
                elif chosen is None or chosen[0] is not self.state:
                    chosen, early = (self.state, bots[self.state.current_player].choose(self.state)), None
                if self.backends.mishaps.holds_up(_fields(sight, chosen[1], self.state)):
                    self.tick()  # a knocked piece goes back first, a piece lifted to look on the move's fields too
                    continue
                moves.append(self._start(chosen[1], self.state, show_card=early is None or not early.shown))
                chosen = early = None
            last = moves[-1]
            if self.show_cards and len(moves) == 1 and last.hands_done and drawn is not last:
                drawn = last
                if not last.after.is_terminal() and hands.chance("early_card"):
                    following = last.after
                    at = last.finished_at + hands.between(hands.style.early_card_ms)
                    early = EarlyCard(following, bots[following.current_player].choose(following), at)
            if early is not None and not early.shown and early.at <= self.now:
                early.show(self.backends)
            if len(moves) == 1 and last.hands_done and last.reply_at is None:
                can_reply = (
                    not self.show_cards
                    and not last.after.is_terminal()
                    and last.finished_at < self.now
                    and not self.backends.mishaps.pending
                )
                reply = can_reply and not sight.is_invisible(last.before, last.action) and hands.chance("fast_reply")
                last.reply_at = last.finished_at + hands.between(hands.style.fast_reply_ms) if reply else -1
            if len(moves) == 1 and last.reply_at is not None and last.reply_at >= 0 and self._last_mode == "confirm":
                last.reply_at = -1  # the board asks about the last move: the next player waits for it
            acknowledged = last.acknowledged_at is not None  # a person replies to the green light
            if len(moves) == 1 and acknowledged and last.reply_at is not None and 0 <= last.reply_at <= self.now:
                following = last.after
                action = bots[following.current_player].choose(following)
                # Nobody grabs the piece the last player has just put down before the board took
                # the move (in Zillo anyone may move the Zillo): that reply waits for the commit.
                touched = _fields(sight, last.action, last.before)
                if not sight.is_invisible(following, action) and not touched & _fields(sight, action, following):
                    moves.append(self._start(action, following))
                    self.stats.fast_replies += 1
                last.reply_at = -1
            try:
                for move in moves:
                    move.before_scan(self.now)
            except ValueError:
                # The hands reach for a piece that is not there: the board and the game have parted
                # (a healthy field taken for a failed one). The game stops here, counted unfinished.
                return
            scanned_at = self.now
            output = self.tick()
            for move in list(moves):
                result = move.after_scan(scanned_at, output)
                if result is False:
                    return
                if result is True:
                    moves.remove(move)
                    if not moves:
                        move.touch_again(self.now)

    def _start(self, action: Action, before: State, show_card: bool = True) -> Performance:
        move = Performance(
            self.backends,
            self.session.tracker,
            action,
            self.now,
            self.stats,
            self.show_cards and show_card,
            before=before,
        )
        self.judge.intend(move)
        return move


@dataclass
class EarlyCard:
    """The next move, chosen in the position the last move leads to, whose player shows its card at
    `at`, while the last move settles (or, if the board is quicker, once it is taken)."""

    state: State
    action: Action
    at: int
    shown: bool = False

    def show(self, backends: SimBackends) -> None:
        mover = self.state.current_player
        card = self.state.action_card(self.action)
        if card is not None:
            backends.inputs.push("card", card, mover if speaks_on_own_page(mover) else None)
        self.shown = True


def _fields(sight: MoveSight, action: Action, state: State) -> set[Cell]:
    """The fields `action` takes pieces from or puts pieces on."""
    footprint = sight.footprint(state, action)
    ends = {move.origin for move in footprint.moves} | {move.target for move in footprint.moves}
    return {cell for cell in ends if cell is not None}


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
    collector: CollectionPacer | None = None,
    hand_style: str | None = None,
    **options: Any,
) -> tuple[PhysicalStats, State]:
    state = game.new_game(players=players, seed=seed, **options)
    table = PhysicalTable(
        game, state, profile, sensor, noise, seed, config, show_cards=show_cards, hand_style=hand_style
    )
    table.collector = collector
    table.settle()
    bots = [make_bot(bot, bot_seed(seed, seat)) for seat in range(players)]
    table.play(bots)
    table.stats.behaviours = dict(table.backends.hands.counts)
    return table.stats, table.state


def default_profile(game: Game) -> str:
    return game.capabilities.board_profile


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
    on_game: Callable[[], None] | None = None,
    collector: CollectionPacer | None = None,
    hand_style: str | None = None,
    **options: Any,
) -> PhysicalRun:
    """Play `games` physical games and gather their statistics; `on_game` is called after each;
    `collector` paces garbage collection between scans (a bench: as the service does)."""
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    players = game.check_players(players)
    board = load_profile(profile or default_profile(game))
    run = PhysicalRun(PhysicalStats(), [0] * players, 0, 0, 0.0)
    started = time.perf_counter()
    for index in range(games):
        stats, final = play_physical_game(
            game,
            players,
            game_seed(seed, index),
            bot,
            board,
            sensor,
            noise,
            show_cards=show_cards,
            collector=collector,
            hand_style=hand_style,
            **options,
        )
        run.stats.merge(stats)
        if on_game is not None:
            on_game()
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
    on_game: Callable[[], None] | None = None,
    hand_style: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The `tafel selfplay --physical` summary; all but the timing keys depend only on the seed."""
    players = game.check_players(players)
    board = load_profile(profile or default_profile(game))
    run = collect_physical(
        game, players, games, seed, bot, sensor, noise, profile, show_cards, on_game, hand_style=hand_style, **options
    )
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
        "hands": hands_for(noise, hand_style) or "calm",
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
        "corrected": total.corrected,
        "fast_replies": total.fast_replies,
        "behaviours": {name: total.behaviours.get(name, 0) for name in BEHAVIOURS},
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
