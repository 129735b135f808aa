"""`tafel run`: the service loop (docs/service.md, docs/architecture.md).

Build the backends from the configuration, lay out (or resume) the game, tell systemd READY once the
hardware is up, then loop at `scan_hz`: scan, tracker step, LED frame, persistence, watchdog ping. The
service is the thin shell around the pure parts: it alone reads the clock and sleeps. SIGTERM and
SIGINT stop it cleanly: STOPPING=1 to systemd, every LED off, devices closed, exit status 0.

Logs go to stdout, one line per event, each with the sd-daemon(3) level prefix (`<6>` info, `<4>`
warning, `<3>` error) that journald turns into the entry's priority.

With the simulated board, virtual hands (sim.driver.HandsDriver) play the scripted moves and bots
from the loop, in board time that runs `[sim] speed` times as fast as the wall clock (0: as fast
as the computer can while the hands play; in real time while they wait for another board or a
bot's thought, and after the game), so a whole game can be watched headless on a laptop.
"""

from __future__ import annotations

import logging
import secrets
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from controller.games import Action, Game, State
from controller.games.seats import result_line, seat_name
from controller.service.backends import BackendError, Backends, from_config
from controller.service.clocks import RealClock, VirtualClock
from controller.service.config import DEFAULT_CONFIG, Config, ConfigError, load_config
from controller.service.control import CommandError, MoveEntry, Notice
from controller.service.logs import configure_logging
from controller.service.memory import CollectionPacer
from controller.service.persistence import JournalPersistence, Persistence
from controller.service.remote_board import RemoteBoard
from controller.service.remote_play import RemotePlay, remote_game_of
from controller.service.sdnotify import STATE_CHANGE_WAIT, Notifier, watchdog_interval
from controller.service.table_control import TableControl, moves_of, new_game_id
from controller.table.palette import OFF
from controller.table.session import Session
from controller.table.tracker import TrackerOutput
from controller.table.tracker_types import SensorFault
from sim.driver import HandsDriver

Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None
"""What `signal.signal` takes and gives back."""

LOGGER = "tafel.service"


# --- persistence seam --------------------------------------------------------------------------------


SIM_BOARD_FILE = "sim-board.json"  # the simulated board's pieces, kept beside the journal


def persistence_for(config: Config, log: logging.Logger | None = None) -> Persistence:
    """The journal in `[service] state_dir`: every confirmed move survives a restart."""
    return JournalPersistence(config.service.state_dir, log)


@dataclass(frozen=True)
class Limits:
    """When the service stops by itself (for tests and demos; systemd runs it without limits)."""

    max_seconds: float | None = None
    until_game_over: bool = False  # ... or, on the simulated board, once the virtual hands have nothing to play
    max_scans: int | None = None  # ... or after this many scans (a bench runs minutes of board time this way)


class Service:
    def __init__(
        self,
        config: Config,
        notifier: Notifier | None = None,
        persistence: Persistence | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        log: logging.Logger | None = None,
    ) -> None:
        self.config = config
        self.notifier = notifier or Notifier()
        self.log = log or logging.getLogger(LOGGER)
        self.persistence = persistence or persistence_for(config, self.log)
        self.backends: Backends | None = None
        self.session: Session | None = None
        self.driver: HandsDriver | None = None
        # The last scan's cost in milliseconds (the session's share is split in `session.last_*`),
        # leaving out the simulated board's virtual hands; `scan_observer` sees every scan (a bench).
        self.last_scan_ms = 0.0
        self.scan_observer: Callable[[Service], None] | None = None
        # Start-up frozen and collections paced by the loop (memory.py) with `settle_memory`: the
        # process does, tests that run many services in one interpreter do not.
        self.settle_memory = False
        self.collector = CollectionPacer()
        self.game: Game | None = None
        self.stop_reason: str | None = None
        self.failure: str | None = None  # why the service failed, if it did
        self._monotonic = monotonic
        self._sleep = sleep
        self._clock: RealClock | VirtualClock | None = None
        self._last_output: TrackerOutput | None = None
        self._last_mode = ""
        self._last_faults: tuple[SensorFault, ...] = ()
        self._fault_changes: dict[str, int] = {}
        self._announced_over = False
        self._hands_done = False
        self._notify_failed = False
        self._closed = False
        self._ready = False
        self._device_state: str | None = None  # the scanner link's state last logged
        self._device_details: set[str] = set()  # the reasons logged in that state
        self.remote: RemoteBoard | None = None  # [remote]: this board on a broker (docs/remote.md)
        self.table = TableControl(self)  # what the screens see and change (table_control.py)

    # --- control -------------------------------------------------------------------------------
    def request_stop(self, reason: str) -> None:
        """Stop after the current scan (safe to call from a signal handler)."""
        if self.stop_reason is None:
            self.stop_reason = reason

    def run(self, limits: Limits = Limits()) -> int:
        """Start, loop until stopped, shut down; the exit status (0 clean, 1 failure)."""
        previous = self._install_signal_handlers()
        status = 0
        try:
            self.start()
            if self.stop_reason is None:
                self._ready = True
                self._notify(self.notifier.ready(self.describe()))
                self.log.info("ready: %s", self.describe())
                if self.settle_memory:
                    self.collector.settle()
                self._loop(limits)
        except (BackendError, OSError, ValueError) as error:
            self.log.error("%s", error)
            self.failure = str(error)
            status = 1
        except Exception as error:
            self.log.exception("the service failed")
            self.failure = f"{type(error).__name__}: {error}"
            status = 1
        finally:
            self.collector.release()
            self.shutdown()
            for signum, handler in previous.items():
                signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        return status

    def start(self) -> None:
        """Bring the hardware up, lay out (or resume) the game and scan once: READY follows only this."""
        config = self.config
        game = config.load_game()
        settings = config.game
        seed = settings.seed if settings.seed is not None else secrets.randbelow(2**31)
        fresh = game.new_game(players=settings.players, seed=seed, **settings.options)
        seats = self.table.configured_seats(fresh.players)
        start = self.table.start_record_of(game, fresh.players, seed, settings.options, seats)
        history = list(self.persistence.resume(game, fresh, start, self.table.fits_board))
        if config.remote is not None:
            broker, spec = config.remote
            remote = self.remote = RemoteBoard(broker, self.log, fits=self.table.fits_board)
            spec = spec or remote_game_of(self.persistence.started)  # else a game started from the lobby
            if spec is not None:
                moves = moves_of(history, self.persistence.standing_actions())
                state_dir = config.service.state_dir
                remote.play = RemotePlay.start(remote.link, spec, history, moves, state_dir, self.log)
            remote.start()
        state = history[-1]
        game = state.game
        profile = config.profile
        self.log.info(
            "%s, %d players, seed %d, board %s (%s sensors); sensors %s, LEDs %s, buttons %s; %g scans/s",
            game.title,
            state.players,
            self.persistence.started.get("seed", seed),
            profile.name,
            config.board.sensor_model or profile.sensor_model,
            config.sensors.backend,
            config.leds.backend,
            config.buttons.backend,
            config.service.scan_hz,
        )
        self.backends = from_config(config)
        self.table.settings.load()
        period_ms = 1000 / config.service.scan_hz
        if self.backends.sim is not None:
            self._clock = VirtualClock(period_ms, config.sim.speed, self._monotonic, self._sleep)
        else:
            self._clock = RealClock(period_ms, self._monotonic, self._sleep)
        self.begin(history, dict(self.persistence.started), self.persistence.standing_actions(), first=True)
        self._scan()  # the hardware answers: sensors read, the first LED frame shown

    def begin(
        self, history: list[State], start: dict[str, Any], actions: Sequence[tuple[str, str]], first: bool = False
    ) -> None:
        """Lay out a game on the board (at start, or a new or resumed game from the lobby): a session
        over the same devices, the move list, and on the simulated board the virtual hands."""
        config = self.config
        backends = self.backends
        assert backends is not None
        if self.remote is not None and not first:
            self.remote.withdraw()  # another game: this board's invitation lapses (docs/remote.md, rule 13)
        state = history[-1]
        game = self.game = state.game
        self.table.start_record = {**start, "id": str(start.get("id") or new_game_id())}  # older journals have none
        self.table.seats = self.table.seats_of(start, state.players)
        self.table.moves = moves_of(history, actions)
        sim = backends.sim
        # Real pieces outlive a restart: so do the simulated ones, in the state directory. A new
        # board starts set up, as the virtual players would have done.
        if sim is not None and first and not sim.board.keep_in(Path(config.service.state_dir) / SIM_BOARD_FILE):
            sim.board.load(state.occupancy())
        session = self.session = Session.create(
            game,
            state,
            config.profile,
            backends.sensors,
            backends.pixels,
            backends.inputs,
            config.board.sensor_model,
            self.table.settings.tracker_config,
            history[:-1],
        )
        guest = self.table.remote_play is not None and self.table.remote_play.guest is not None
        if not guest:  # a guest's game is journaled on its host (docs/remote.md, rule 7)
            session.on_record.append(self.persistence.on_commit)
            session.on_takeback.append(self.persistence.on_takeback)
        session.on_record.append(self._log_commit)
        session.on_record.append(self.table.record_move)
        session.on_takeback.append(self.table.takeback_move)
        session.on_abandon.append(self._abandon)
        if self.table.remote_play is not None:
            session.on_record.append(self.table.remote_play.committed)
            self.table.remote_play.begin(session.tracker, 0)
        link = backends.device_trouble if backends.device_status() is not None else None
        persistence = self.persistence

        def trouble() -> bool:
            """The status light blinks red for a failing scanner link and for a game not being saved."""
            return persistence.trouble is not None or (link is not None and link())

        session.device_trouble = trouble
        self._announced_over = state.is_terminal()
        self._last_mode = ""
        self._last_output = None
        self._hands_done = False
        bots = self.table.bots_for(state)
        if sim is not None:
            self.driver = HandsDriver(sim, session.tracker, config.sim.moves if first else (), bots, self.log.debug)
        else:
            self.table._bots = bots
        self.table._changed = True

    def _log_commit(self, before: State, action: Action, after: State, via: str) -> None:
        """One line per confirmed move, written after the journal has it on disk (or saying that the
        disk refused it: docs/persistence.md, "When the disk fails")."""
        moves = len(self.session.tracker.history) if self.session is not None else 0
        who = seat_name(before, before.current_player)
        unsaved = "; not saved: the disk refused it" if self.persistence.trouble is not None else ""
        self.log.info("confirmed move %d: %s by %s (%s)%s", moves, before.action_to_str(action), who, via, unsaved)

    def _abandon(self, now: int) -> State | None:
        """The players abandoned the game (menu: abandon): it goes to the history, and a new game of
        the same kind starts from set-up. None: the history cannot take it, and it goes on."""
        assert self.game is not None
        try:
            self.table.keep_in_history()
        except CommandError as refusal:
            self.log.warning("abandon refused: %s", refusal)
            self.table.tell([Notice(f"Not abandoned: {refusal}.")])
            return None
        if self.remote is not None:
            self.remote.withdraw()  # another game: this board's invitation lapses (docs/remote.md, rule 13)
        state = self.session.state if self.session is not None else None
        players = state.players if state is not None else self.config.game.players
        options = self.table.start_record.get("options", self.config.game.options)
        seed = secrets.randbelow(2**31)
        fresh = self.game.new_game(players=players, seed=seed, **options)
        origin = self.table.start_record.get("origin")
        start = self.table.start_record_of(self.game, players, seed, options, self.table.seats, origin)
        self.persistence.new_game(start)
        self.table.start_record, self.table.moves = start, []
        self.log.info("game abandoned; a new %s game starts (seed %d): set up the board", self.game.title, seed)
        self._announced_over = False
        self.table._changed = True
        return fresh

    def describe(self) -> str:
        """One line for `systemctl status`: the game and whose turn it is."""
        if self.session is None or self.game is None:
            return "starting"
        state = self.session.state
        moves = len(self.session.tracker.history)
        if state.is_terminal():
            return f"{self.game.title}: game over after {moves} moves ({self._result(state)})"
        mode = self._last_mode or "starting"
        who = seat_name(state, state.current_player)
        return f"{self.game.title}: move {moves + 1}, {who} to move; board {mode}"

    # --- the loop ------------------------------------------------------------------------------
    def _loop(self, limits: Limits) -> None:
        assert self._clock is not None
        started = last_ping = self._monotonic()
        ping_every = watchdog_interval() if self.config.service.watchdog else None
        if ping_every is not None:
            self.log.debug("watchdog: a ping every %.3f s", ping_every)
        scans = 0
        while self.stop_reason is None:
            self._scan()
            scans += 1
            assert self.session is not None
            self.collector.after_scan(quiet=not self.session.tracker.last_evaluated)
            now = self._monotonic()
            if ping_every is not None and now - last_ping >= ping_every:
                self._notify(self.notifier.watchdog())
                last_ping = now
            if limits.max_seconds is not None and now - started >= limits.max_seconds:
                self.request_stop(f"ran for {limits.max_seconds:g} s")
            if limits.until_game_over and self._game_done():
                self.request_stop("the game is over")
            if limits.max_scans is not None and scans >= limits.max_scans:
                self.request_stop(f"made {scans} scans")

    def _scan(self) -> None:
        assert self._clock is not None and self.session is not None
        now = self._clock.tick()
        began = time.perf_counter()
        unsaved = self.persistence.trouble
        self.table.control.drain(self.table.execute, self._command_failed)  # a screen's commands, between scans
        if self.remote is not None:
            self._remote_scan(now)
        driver = self.driver
        if driver is not None:
            hands = time.perf_counter()
            driver.before_scan(now)
            began += time.perf_counter() - hands  # the virtual hands are the board's, not the service's
        output = self.session.step(now)
        if driver is not None:
            hands = time.perf_counter()
            driver.after_scan(now, output)
            began += time.perf_counter() - hands
        self._report(output)
        self.persistence.retry(now)  # a game the disk refused: written again when due
        if self.persistence.trouble != unsaved:
            self.table._changed = True  # the screens say whether the game is being saved
        self._report_device()
        self.table.think(self.session.state)
        self.table.publish(now, output)
        self.last_scan_ms = (time.perf_counter() - began) * 1000.0
        if driver is not None:
            self._pace(driver)
        if self.scan_observer is not None:
            self.scan_observer(self)

    def _pace(self, driver: HandsDriver) -> None:
        """`[sim] speed = 0` hurries only while something on this board is under way: a board
        waiting for another board (its own moves sent), or done, idles in real time and leaves the
        computer to the others."""
        if driver.finished and not self._hands_done:
            self._hands_done = True
            self._report_hands(driver)
        clock = self._clock
        if isinstance(clock, VirtualClock) and self.config.sim.speed == 0:
            idle = driver.waiting and not (self.remote is not None and self.remote.holding)
            speed = 1.0 if idle else 0.0
            if clock.speed != speed:
                clock.set_speed(speed)

    def _remote_scan(self, now: int) -> None:
        """What the other boards sent: the host journals the moves made elsewhere (the tracker
        follows them on the board, `RemotePlay.scan`)."""
        assert self.remote is not None and self.session is not None
        news = self.remote.scan(now, self.session.tracker, self.session.last_scan_changed)
        if news.said or news.changed:
            self.table._changed = True  # an invitation, or a board come or gone: the screens say so
        update = news.update
        told = [*news.said, *(update.said if update is not None else ())]
        private = update.private if update is not None else []
        self.table.tell([*map(Notice, told), *(Notice(words, seat) for seat, words in private)])
        if news.start is not None:
            self.table.start_remote(*news.start)
        if update is None or self.table.remote_play is None:
            return
        if update.took_back:  # the boards agreed to take back moves: the host's journal drops them
            for _ in range(update.took_back):
                self.persistence.on_takeback(self.session.state)
            del self.table.moves[max(0, len(self.table.moves) - update.took_back) :]
        for before, action, after, via in update.played:
            self.persistence.on_commit(before, action, after, via)
            self.table.record_move(before, action, after, via)
        if update.ended is not None:  # the boards ended the game: a restart does not bring it back
            self.persistence.on_ended(*update.ended)
            self.table.keep_in_history()
            self.table._changed = True  # the screens say so
        guest = self.table.remote_play.guest
        if guest is not None and update.position is not None:  # a guest's move list is the host's
            self.table.moves = [
                MoveEntry(seat, text, text, "remote") for seat, text in zip(guest.movers, guest.moves, strict=False)
            ]
        if update.position is not None and update.moved and self.driver is not None:
            self.driver.position_changed()
        if update.position is not None or update.said:
            self.table._changed = True

    def _command_failed(self, command: object, error: Exception) -> None:
        self.log.error("a command from a screen failed: %r: %s", command, error, exc_info=error)

    def _game_done(self) -> bool:
        if self.table.remote_play is not None and not self.table.remote_play.settled:
            return False  # the game is over only once the other boards have this board's last move
        if self.driver is not None:
            return self.driver.finished
        return self.session is not None and self.session.state.is_terminal()

    # --- reporting -----------------------------------------------------------------------------
    def _report(self, output: TrackerOutput) -> None:
        if output is self._last_output:
            return  # the tracker's hot path: nothing new
        self._last_output = output
        session = self.session
        assert session is not None
        changed = False
        if output.happened.transitions:
            changed = True  # each move was logged once, by _log_commit, when the journal had it
        if output.happened.took_back:
            self.log.info("take-back: %d move(s) undone", output.happened.took_back)
            changed = True
        if output.display.mode != self._last_mode:
            self._log_mode(output)
            self._last_mode = output.display.mode
            changed = True
        for message in output.happened.messages:
            self.log.info("%s", message)
        if output.display.faults != self._last_faults:
            for fault in output.display.faults:
                where = self.game.format_cell(fault.cell) if fault.cell is not None and self.game else "no field"
                self.log.warning(
                    "sensor channel %d (%s) reads %d, expected %d: a failed sensor or a stray piece",
                    fault.channel,
                    where,
                    fault.reading,
                    fault.expected,
                )
            if not output.display.faults:
                self.log.info("sensor faults cleared")
            self._last_faults = output.display.faults
        if output.display.state.is_terminal() and not self._announced_over:
            self._announced_over = True
            self.log.info("game over after %d moves: %s", len(self.table.moves), self._result(output.display.state))
        if changed and self._ready:  # before READY, the READY message carries the status
            wait = STATE_CHANGE_WAIT if output.display.state.is_terminal() else 0.0  # the end is worth a wait
            self._notify(self.notifier.status(self.describe(), wait=wait))

    def _report_faults(self) -> None:
        """Log each change of a backend's health once: a failing sensor backend or LED strip does not
        stop the service; the session retries it with back-off and the status light blinks red."""
        session = self.session
        if session is None:
            return
        for fault in (session.sensor_fault, session.led_fault):
            seen = self._fault_changes.get(fault.name, 0)
            if fault.changes == seen:
                continue
            self._fault_changes[fault.name] = fault.changes
            if fault.error is not None:
                self.log.warning("%s failing: %s; retrying, the game waits", fault.name, fault.error)
            else:
                self.log.info("%s working again", fault.name)

    def _report_device(self) -> None:
        """Log the scanner link's state when it changes, and each new reason while it is down. An
        unplugged or restarting RP2040 does not stop the service: its scans count as dropped until
        the link is back (controller.service.backends)."""
        self._report_faults()
        backends = self.backends
        if backends is None or (state := backends.device_status()) is None:
            return
        detail = backends.device_detail()
        if state != self._device_state:
            self._device_state, self._device_details = state, set()
        elif detail in self._device_details:
            return
        self._device_details.add(detail)
        level = logging.INFO
        if backends.device_trouble():
            level = logging.ERROR if state == "error" else logging.WARNING
        self.log.log(level, "scanner link %s: %s", state, detail)

    def _log_mode(self, output: TrackerOutput) -> None:
        mode = output.display.mode
        if mode == "setup":
            self.log.info("set-up: the board does not match the game yet; the LEDs show where pieces go")
        elif mode == "restore":
            self.log.info("the board does not match the game; the LEDs show how to put it back")
        elif mode == "guidance":
            self.log.info("the board matches no legal move; the LEDs guide towards one")
        elif mode == "remote":
            self.log.info("a move from another board: the LEDs show it, to be made on this board")
        elif mode == "confirm":
            shown = ", ".join(map(output.display.text_of, output.display.candidates))
            self.log.info("which move? the sensors cannot tell apart: %s (press confirm while it is shown)", shown)
        elif mode == "takeback":
            self.log.info("the board shows the position before the last move: take it back?")
        else:
            self.log.debug("board %s", mode)

    def _result(self, state: State) -> str:
        return result_line(state)

    def _report_hands(self, driver: HandsDriver) -> None:
        stats = driver.stats
        self.log.info(
            "virtual hands: %d moves intended, %d committed, %d wrong commits%s",
            stats.intended,
            stats.committed,
            stats.wrong_commits,
            f"; {driver.stopped}" if driver.stopped else "",
        )

    def _notify(self, sent: bool) -> None:
        error = self.notifier.last_error
        if not sent and error is not None and not self._notify_failed:
            self._notify_failed = True
            self.log.warning("cannot notify systemd: %s", error)

    # --- shutdown ------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """STOPPING=1, every LED off, devices closed; safe to call after a failed start."""
        status = f"failed: {self.failure}" if self.failure else f"stopping: {self.stop_reason or 'shutdown'}"
        self._notify(self.notifier.stopping(status))
        if self.stop_reason is not None:
            self.log.info("stopping: %s", self.stop_reason)
        backends = self.backends
        if backends is not None and not self._closed:
            self._closed = True
            size = backends.pixels.size
            try:
                backends.pixels.show([OFF] * size)
                self.log.info("LEDs off (%d LEDs)", size)
            except Exception as error:
                self.log.error("could not switch the LEDs off: %s", error)
            for problem in backends.close():
                self.log.warning("%s", problem)
        self.table.close_bots()  # searching bots stop thinking, their workers end
        if self.remote is not None:
            self.remote.close()  # the other boards hear "offline" at once
        if self.driver is not None and not self._hands_done:
            self._hands_done = True
            self._report_hands(self.driver)
        try:
            self.persistence.close()
        finally:
            self.notifier.close()
        self.log.info("stopped")

    def _install_signal_handlers(self) -> dict[int, Handler]:
        if threading.current_thread() is not threading.main_thread():
            return {}  # signals reach the main thread only; whoever runs us elsewhere stops us directly

        def handle(signum: int, frame: FrameType | None) -> None:
            self.request_stop(f"{signal.Signals(signum).name} received")

        previous: dict[int, Handler] = {}
        for signum in (signal.SIGTERM, signal.SIGINT):
            previous[signum] = signal.signal(signum, handle)
        return previous


FrontEnd = Callable[["Service"], Callable[[], None] | None]
"""Starts a front-end beside a service (the web app); returns how to stop it."""


def run_service(
    config_path: str | Path = DEFAULT_CONFIG,
    limits: Limits = Limits(),
    check: bool = False,
    stream: TextIO | None = None,
    front_end: FrontEnd | None = None,
) -> int:
    """`tafel run`: 0 after a clean stop, 1 when the service failed, 2 for a bad configuration.
    `front_end` (the web app) is started beside the service and stopped after it."""
    handler = configure_logging("info", stream)
    log = logging.getLogger(LOGGER)
    try:
        try:
            config = load_config(config_path)
        except ConfigError as error:
            log.error("%s", error)
            return 2
        for advice in config.wiring_advice():
            log.warning("%s: %s", config.source, advice)
        if check:
            log.info("%s: the configuration is valid", config.source)
            return 0
        logging.getLogger().setLevel(config.service.log_level.upper())
        service = Service(config, log=log)
        service.settle_memory = True
        stop_front_end = front_end(service) if front_end is not None else None
        try:
            return service.run(limits)
        finally:
            if stop_front_end is not None:
                stop_front_end()
    finally:
        logging.getLogger().removeHandler(handler)
