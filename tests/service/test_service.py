"""The service loop in process: a simulated game to its end, READY/WATCHDOG/STOPPING, the persistence
seam, clocks, failures, and the journald log format. Time is faked where timing is asserted."""

from __future__ import annotations

import io
import logging
import sys
import types
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType

import pytest

import controller.service.loop
from controller.games import Action, Game, State, load_game
from controller.service.backends import Devices, from_config
from controller.service.clocks import RealClock, VirtualClock
from controller.service.config import load_config
from controller.service.logs import JournalFormatter, sd_level
from controller.service.loop import Limits, Service, run_service
from controller.service.persistence import NoPersistence
from controller.service.sdnotify import Notifier
from controller.table.palette import OFF
from tests.service.configs import EXAMPLES, opening_moves, sim_config, write
from tests.service.notify import NotifyListener
from tests.service.scanner import ScannerCable


class FakeTime:
    """monotonic() and sleep() where only sleeping makes time pass."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[NotifyListener, Notifier]]:
    systemd = NotifyListener(tmp_path / "notify")
    yield systemd, Notifier(environ={"NOTIFY_SOCKET": systemd.path})
    systemd.close()


def datagrams(systemd: NotifyListener) -> list[list[str]]:
    """Every notification of a service that has stopped (STOPPING=1 is the last one it sends)."""
    return systemd.wait_for("STOPPING=1")


class Recording(NoPersistence):
    """A persistence that remembers what the service reported to it, and resumes a given history."""

    def __init__(self, history: Sequence[State] = ()) -> None:
        super().__init__()
        self.history = list(history)
        self.commits: list[str] = []
        self.takebacks = 0
        self.closed = False

    def resume(self, game: Game, fresh: State, start, fits=None) -> Sequence[State]:
        super().resume(game, fresh, start, fits)
        return self.history or [fresh]

    def on_commit(self, before: State, action: Action, after: State, via: str = "sensors") -> None:
        super().on_commit(before, action, after, via)
        self.commits.append(before.action_to_str(action))

    def new_game(self, start) -> None:
        super().new_game(start)
        self.commits.append("new game")

    def on_takeback(self, state: State) -> None:
        super().on_takeback(state)
        self.takebacks += 1

    def close(self) -> None:
        self.closed = True


# --- a whole game ------------------------------------------------------------------------------------


def test_the_service_plays_the_simulated_game_to_its_end(tmp_path: Path, listener) -> None:
    sock, notifier = listener
    config = load_config(write(tmp_path, sim_config(max_plies=8)))
    record = Recording()
    service = Service(config, notifier, record)
    assert service.run(Limits(until_game_over=True)) == 0
    state = service.session.state
    assert state.is_terminal() and len(service.session.tracker.history) == 8
    stats = service.driver.stats
    assert (stats.intended, stats.committed, stats.wrong_commits, stats.missed) == (8, 8, 0, 0)
    assert len(record.commits) == 8 and record.closed
    messages = datagrams(sock)
    assert messages[0][0] == "READY=1" and messages[0][1].startswith("STATUS=Klotz: move 1, Red to move")
    assert messages[-1][0] == "STOPPING=1"
    assert any(line.startswith("STATUS=Klotz: game over after 8 moves") for m in messages for line in m)
    pixels = service.backends.pixels
    assert pixels.last == (OFF,) * config.profile.led_count  # the last frame: every LED off
    assert any(colour != OFF for _, frame in pixels.frames[:-1] for colour in frame)


def test_scripted_moves_are_played_in_order_and_then_the_hands_stop(tmp_path: Path, listener) -> None:
    _, notifier = listener
    moves = opening_moves(5)
    config = load_config(write(tmp_path, sim_config(moves=moves, bots=False)))
    record = Recording()
    service = Service(config, notifier, record)
    assert service.run(Limits(until_game_over=True)) == 0
    assert tuple(record.commits) == moves
    assert not service.session.state.is_terminal() and service.driver.finished


def test_scripted_moves_then_bots_to_the_end(tmp_path: Path, listener) -> None:
    _, notifier = listener
    moves = opening_moves(3)
    record = Recording()
    service = Service(load_config(write(tmp_path, sim_config(max_plies=7, moves=moves))), notifier, record)
    assert service.run(Limits(until_game_over=True)) == 0
    assert tuple(record.commits[:3]) == moves and len(record.commits) == 7


def test_a_resumed_game_continues_from_the_saved_position(tmp_path: Path, listener) -> None:
    _, notifier = listener
    game = load_game("klotz")
    fresh = game.new_game(players=2, seed=3, max_plies=6)
    second = fresh.apply(fresh.legal_actions()[0])
    record = Recording([fresh, second])
    service = Service(load_config(write(tmp_path, sim_config(max_plies=6))), notifier, record)
    assert service.run(Limits(until_game_over=True)) == 0
    assert service.session.tracker.history[:2] == (fresh, second)
    assert len(record.commits) == 5  # the sixth move of the game ends it; one was played before


def test_the_log_tells_the_game_with_journald_levels(tmp_path: Path) -> None:
    out = io.StringIO()
    path = write(tmp_path, sim_config(max_plies=4))
    assert run_service(path, Limits(until_game_over=True), stream=out) == 0
    lines = out.getvalue().splitlines()
    assert all(line[:3] in ("<6>", "<4>", "<3>", "<7>") for line in lines), lines
    assert lines[0].startswith("<6>Klotz, 2 players, seed 3, board square14 (binary sensors); sensors sim")
    assert "<6>ready: Klotz: move 1, Red to move; board idle" in lines
    moves = [line for line in lines if line.startswith("<6>confirmed move ")]
    assert len(moves) == 4, moves  # one line per move
    assert moves[0].startswith("<6>confirmed move 1: ") and moves[0].endswith(" by Red (sensors)")
    assert moves[3].startswith("<6>confirmed move 4: ") and moves[3].endswith(" by Yellow (sensors)")
    assert "<6>game over after 4 moves: Draw" in lines
    assert "<6>virtual hands: 4 moves intended, 4 committed, 0 wrong commits" in lines
    assert lines[-3:] == ["<6>stopping: the game is over", "<6>LEDs off (201 LEDs)", "<6>stopped"]


def test_a_bad_configuration_is_an_error_line_and_status_2(tmp_path: Path) -> None:
    out = io.StringIO()
    path = write(tmp_path, sim_config().replace('name = "klotz"', 'name = "chess"'))
    assert run_service(path, stream=out) == 2
    assert out.getvalue().startswith(f"<3>{path}:")
    assert "[game] name: unknown game 'chess'" in out.getvalue()


def test_check_validates_without_starting(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run_service(EXAMPLES / "gpio-mux.toml", check=True, stream=out) == 0
    assert out.getvalue() == f"<6>{EXAMPLES / 'gpio-mux.toml'}: the configuration is valid\n"


def test_journal_prefixes_cover_every_line_and_level() -> None:
    assert [sd_level(level) for level in (50, 40, 30, 20, 10)] == [2, 3, 4, 6, 7]
    try:
        raise RuntimeError("scanner gone")
    except RuntimeError:
        record = logging.LogRecord("t", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    lines = JournalFormatter("%(message)s").format(record).splitlines()
    assert lines[0] == "<3>failed" and len(lines) > 2
    assert all(line.startswith("<3>") for line in lines)


# --- time and the watchdog ---------------------------------------------------------------------------


def test_watchdog_pings_come_every_half_timeout_of_service_time(tmp_path: Path, listener, monkeypatch) -> None:
    sock, notifier = listener
    monkeypatch.setenv("WATCHDOG_USEC", "1000000")  # a ping every 0.5 s
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    clock = FakeTime()
    config = load_config(write(tmp_path, sim_config(speed=1, max_plies=600)))
    service = Service(config, notifier, monotonic=clock.monotonic, sleep=clock.sleep)
    assert service.run(Limits(max_seconds=3)) == 0
    lines = [m[0] for m in datagrams(sock)]
    assert lines[0] == "READY=1" and lines[-1] == "STOPPING=1"
    assert 5 <= lines.count("WATCHDOG=1") <= 6
    assert lines.index("READY=1") < lines.index("WATCHDOG=1")
    assert service.stop_reason == "ran for 3 s"
    # At speed 1 the board runs in step with the (fake) clock: 3 s are about 300 scans of 10 ms.
    assert 290 <= service.backends.sensors.scans <= 310


def test_no_watchdog_pings_when_the_config_turns_them_off(tmp_path: Path, listener, monkeypatch) -> None:
    sock, notifier = listener
    monkeypatch.setenv("WATCHDOG_USEC", "100000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    clock = FakeTime()
    text = sim_config(speed=1, service="watchdog = false")
    service = Service(load_config(write(tmp_path, text)), notifier, monotonic=clock.monotonic, sleep=clock.sleep)
    assert service.run(Limits(max_seconds=1)) == 0
    assert "WATCHDOG=1" not in [m[0] for m in datagrams(sock)]


def test_real_clock_scans_on_a_fixed_period_and_does_not_make_up_missed_scans() -> None:
    time = FakeTime()
    clock = RealClock(10, time.monotonic, time.sleep)
    assert [clock.tick(), clock.tick(), clock.tick()] == [0, 10, 20]
    time.now += 0.035  # a slow scan: 35 ms of work
    assert clock.tick() == 55  # at once, no sleep
    assert clock.tick() == 65  # then the period again


def test_virtual_clock_runs_board_time_at_the_chosen_speed() -> None:
    time = FakeTime()
    clock = VirtualClock(10, 2.0, time.monotonic, time.sleep)
    assert [clock.tick() for _ in range(4)] == [0, 10, 20, 30]
    assert time.slept == pytest.approx([0.005] * 3)  # 10 ms of board time per 5 ms of wall time
    fast = VirtualClock(10, 0, time.monotonic, time.sleep)
    before = len(time.slept)
    assert [fast.tick() for _ in range(100)][-1] == 990
    assert len(time.slept) == before  # speed 0 never waits
    fast.set_speed(1.0)
    assert fast.tick() == 1000
    assert time.slept[-1] == pytest.approx(0.010)  # no jump: one period after the last scan


# --- failures ----------------------------------------------------------------------------------------


def fake_module(monkeypatch: pytest.MonkeyPatch, name: str, **classes: type) -> None:
    module = types.ModuleType(name)
    for key, value in classes.items():
        setattr(module, key, value)
    monkeypatch.setitem(sys.modules, name, module)


class BrokenStrip:
    @classmethod
    def from_profile(cls, profile, wiring) -> BrokenStrip:
        raise OSError("no /dev/spidev0.0")


def test_a_device_that_fails_at_start_means_no_ready_and_status_1(tmp_path: Path, listener, monkeypatch) -> None:
    sock, notifier = listener
    fake_module(monkeypatch, "hal.neopixel", NeoPixelSink=BrokenStrip)
    text = sim_config().replace('[leds]\nbackend = "sim"', '[leds]\nbackend = "neopixel"')
    service = Service(load_config(write(tmp_path, text)), notifier)
    assert service.run() == 1
    lines = [line for m in datagrams(sock) for line in m]
    assert "READY=1" not in lines
    assert lines[-2:] == ["STOPPING=1", "STATUS=failed: [leds] neopixel: no /dev/spidev0.0"]


class Unplugging(FakeTime):
    """The service's time, during which the scanner's USB cable is pulled at 1 s and put back at 2 s."""

    def __init__(self, cable: ScannerCable) -> None:
        super().__init__()
        self.start = self.now
        self.cable = cable
        self.frames_seen: list[tuple] = []

    def ms(self) -> int:
        return round(self.now * 1000)

    def sleep(self, seconds: float) -> None:
        super().sleep(seconds)
        elapsed = self.now - self.start
        if self.cable.plugged and 1.0 <= elapsed < 2.0:
            self.cable.unplug()
        elif not self.cable.plugged and elapsed >= 2.0:
            self.cable.plug()
        elif elapsed >= 3.5 and not self.frames_seen:
            self.frames_seen.append(self.cable.shown())


def test_an_unplugged_scanner_does_not_stop_the_service(
    tmp_path: Path, listener, monkeypatch, firmware_main: ModuleType
) -> None:
    sock, notifier = listener
    clock = Unplugging(None)  # type: ignore[arg-type]
    cable = clock.cable = ScannerCable(firmware_main, clock.ms)
    devices = Devices(serial_opener=cable.opener, serial_clock=clock.ms)
    monkeypatch.setattr(controller.service.loop, "from_config", lambda config: from_config(config, devices))
    log = logging.getLogger("tests.service.unplug")
    log.setLevel(logging.INFO)  # whatever level another test left the root logger at
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    log.addHandler(handler)
    text = sim_config().replace('backend = "sim"', 'backend = "serial"')  # sensors and LEDs on the RP2040
    service = Service(
        load_config(write(tmp_path, text)), notifier, monotonic=clock.monotonic, sleep=clock.sleep, log=log
    )
    try:
        assert service.run(Limits(max_seconds=4)) == 0
    finally:
        log.removeHandler(handler)
    assert service.failure is None and service.stop_reason == "ran for 4 s"
    link = [(record.levelname, record.getMessage()) for record in records if "scanner link" in record.getMessage()]
    states = [message.split(":")[0] for _, message in link]
    assert link[0][0] == "INFO" and states[:2] == ["scanner link connected", "scanner link reconnecting"]
    assert states[-1] == "scanner link connected" and states.count("scanner link connected") == 2
    assert link[1] == ("WARNING", "scanner link reconnecting: read from /dev/tafel-scanner failed: Input/output error")
    assert ("WARNING", "scanner link reconnecting: cannot open /dev/tafel-scanner: No such file or directory") in link
    assert len(link) == 4  # a reason is logged once, however often the port is tried
    assert service.session.tracker.history == ()  # nothing committed on a board it could not see
    assert any(colour != OFF for colour in clock.frames_seen[0])  # the set-up guidance reached the board again
    messages = datagrams(sock)
    assert messages[0][0] == "READY=1" and messages[-1][0] == "STOPPING=1"
    cable.run_board()  # the board takes the last frame the service sent: every LED off
    assert cable.shown() == (OFF,) * 201


def test_a_scanner_missing_at_start_is_a_warning_not_a_failure(tmp_path: Path, firmware_main: ModuleType) -> None:
    clock = FakeTime()
    cable = ScannerCable(firmware_main, lambda: round(clock.now * 1000))
    cable.unplug()
    out = io.StringIO()
    log = logging.getLogger("tests.service.missing")
    log.setLevel(logging.INFO)  # whatever level another test left the root logger at
    handler = logging.StreamHandler(out)
    handler.setFormatter(JournalFormatter("%(message)s"))
    log.addHandler(handler)
    config = load_config(write(tmp_path, sim_config().replace('backend = "sim"', 'backend = "serial"')))
    service = Service(config, Notifier(environ={}), monotonic=clock.monotonic, sleep=clock.sleep, log=log)
    devices = Devices(serial_opener=cable.opener, serial_clock=lambda: round(clock.now * 1000))
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(controller.service.loop, "from_config", lambda config: from_config(config, devices))
            assert service.run(Limits(max_seconds=1)) == 0
    finally:
        log.removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert "<4>scanner link connecting: cannot open /dev/tafel-scanner: No such file or directory" in lines
    assert [line for line in lines if "scanner link" in line] == [lines[1]]  # once, however often it is tried
    assert service.backends.device_status() == "connecting"


def test_a_real_boards_bot_thinks_off_the_loop_and_its_move_is_news_for_the_screens(tmp_path: Path) -> None:
    """Without virtual hands the players make a bot's move: a searching bot answers when it has
    thought, each scan only asks, and its answer makes the screens show it."""
    from controller.bots.thinking import InWorker, thinking_bot

    service = Service(load_config(write(tmp_path, sim_config())))
    state = load_game("klotz").new_game(players=2, seed=3)
    bot = thinking_bot("search-1", 0)
    assert isinstance(bot, InWorker)
    service.table._bots = [bot, None]
    try:
        service.table._changed = False
        for _ in range(1200):
            service.table.think(state)
            if service.table._bot_move(state) is not None:
                break
            bot.wait(0.1)
        text = service.table._bot_move(state)
        assert text is not None and state.parse_action(text) in state.legal_actions()
        assert service.table._changed  # the screens are told
        service.table._changed = False
        service.table.think(state)
        assert not service.table._changed and service.table._bot_move(state) == text  # asked once per position
    finally:
        service.table.close_bots()
        bot.close()


def test_at_speed_zero_a_board_hurries_only_while_something_on_it_is_under_way(tmp_path: Path) -> None:
    """`[sim] speed = 0`: board time runs as fast as the computer can while the hands set up or make
    a move here; while the seat to move plays on another board (or the game is over), nothing here
    can happen until something outside does, and the board idles in real time (docs/service.md)."""
    clock = FakeTime()
    config = load_config(write(tmp_path, sim_config(max_plies=6)))
    service = Service(config, Notifier(environ={}), NoPersistence(), monotonic=clock.monotonic, sleep=clock.sleep)
    service.start()
    assert service.session is not None and service.driver is not None
    tracker = service.session.tracker
    tracker.seats_here = frozenset({0})  # Yellow plays on another board
    paced: dict[tuple[int, bool], int] = {}  # (seat to move, hands waiting) -> scans that slept
    for _ in range(3000):
        seat = tracker.state.current_player
        slept = len(clock.slept)
        service._scan()
        key = (seat, service.driver.waiting)
        paced[key] = paced.get(key, 0) + (len(clock.slept) > slept)
        if seat == 1 and service.driver.waiting:
            break
    assert tracker.state.current_player == 1 and len(tracker.history) == 1  # Red's move made here, then Yellow's turn
    assert paced.get((0, False)) == 0  # no scan slept while Red's move was under way
    for _ in range(5):
        slept = len(clock.slept)
        service._scan()
        assert len(clock.slept) == slept + 1 and clock.slept[-1] == pytest.approx(0.01, abs=0.002)
    tracker.seats_here = None  # Yellow's board is this one again: the hands play at once
    slept = len(clock.slept)
    for _ in range(200):
        service._scan()
        if service.driver.current is not None:
            break
    assert service.driver.current is not None and len(clock.slept) <= slept + 1
    service.shutdown()
