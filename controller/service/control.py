"""How a front-end (the web app) talks to the running service: commands in, snapshots out.

The scan loop owns the game, the tracker and the devices, and it runs on its own thread at its own
pace. A front-end on another thread never touches them: it submits a `Command` and gets a future
that the loop resolves at its next scan (a `CommandError` says in the players' words why nothing was
done), and it subscribes to `Snapshot`s, immutable pictures of the table that the loop publishes when
something changed. Publishing is a reference handed to each subscriber, so a slow page can never
hold up a scan.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from controller.games import Game, State
from controller.table.board import BoardMap
from controller.table.palette import RGB
from controller.table.tracker_types import TrackerOutput


class CommandError(ValueError):
    """A command the service refuses; the message says why, in the players' terms. `choices` are
    the actions the player may pick instead (a move that several actions make). `from_rules`: the
    words are the rules' verdict on an action of the seat, so they may tell what its hand holds (a
    front-end passes them only to a page that may know that hand)."""

    def __init__(self, message: str, choices: tuple[str, ...] = (), from_rules: bool = False) -> None:
        super().__init__(message)
        self.choices = choices
        self.from_rules = from_rules


# --- commands ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Press:
    """A button: confirm, undo or menu (as on the board). Pressed on a screen (`from_page`), it
    carries the seat of the page that pressed it (`page_seat`; None: the table view), since who
    may press confirm and next choice is judged again on the board as it is when the press is
    carried out (`deciding.press_refusal`)."""

    button: str
    from_page: bool = False
    page_seat: int | None = None


@dataclass(frozen=True)
class Declare:
    """An action in the game's notation: the answer to a confirmation request, or a decision no sensor
    sees (a card game's draw or discard). `seat` is the seat it acts for (None: the table's);
    `own_page` says that seat's own page sent it, so it is that player's word about their own move
    (the table view acts for whoever decides, and its words carry no seat)."""

    text: str
    seat: int | None = None
    own_page: bool = False


@dataclass(frozen=True)
class ShowCard:
    """A card shown before its move (Zillo): only that card's moves count, and they light up.
    `seat` and `own_page` as for `Declare`."""

    card: str
    seat: int | None = None
    own_page: bool = False


@dataclass(frozen=True)
class Play:
    """On the simulated board: the virtual hands make a move for the player on turn, named by its
    notation (`text`) or by the field a piece leaves and the field it goes to."""

    text: str | None = None
    origin: str | None = None
    target: str | None = None
    seat: int | None = None


@dataclass(frozen=True)
class NewGame:
    """Start a game as the lobby says; `abandon` must be set to end a game still in progress."""

    game: str
    players: int
    seats: tuple[str, ...]  # per seat: "human" or a bot's name
    options: Mapping[str, Any]
    abandon: bool = False
    hotseat: bool = False  # one device plays every seat (docs/web.md, Acting)


@dataclass(frozen=True)
class Resume:
    """Continue an unfinished game of the history (`abandon` as for NewGame)."""

    game_id: str
    abandon: bool = False


@dataclass(frozen=True)
class AnswerInvite:
    """Accept or decline another board's invitation to a game across boards (docs/remote.md)."""

    board: str
    accept: bool
    abandon: bool = False  # the game in progress may be dropped (it stays in the history)


@dataclass(frozen=True)
class AskBoards:
    """In a game across boards: offer the other boards a draw (`draw`) or resign (`resign`)."""

    kind: str


@dataclass(frozen=True)
class Abandon:
    """End the game in progress (it stays in the history) and start the same kind of game afresh."""


@dataclass(frozen=True)
class Settings:
    """Settings players change at the table; None leaves one as it is."""

    brightness: float | None = None
    takeback: str | None = None
    debounce_ms: int | None = None
    settle_ms: int | None = None
    guide_after_ms: int | None = None


@dataclass(frozen=True)
class ShowPin:
    """Light the table PIN on the board's LEDs for a while: only people looking at the board read it."""

    pin: str


@dataclass(frozen=True)
class AnswerBoards:
    """In a game across boards: this board's answer to another board's request, from a screen
    (with the table PIN: docs/web.md); only ever an answer, never a press of the board's button."""

    accept: bool


@dataclass(frozen=True)
class InGame:
    """A command of a seat's page, for the game that page's seat is in (`game_id`): a seat is a
    seat of one game, so once another game is on, the page's commands are refused in words, also
    one let through a moment before the new game began and carried out after it."""

    game_id: str
    command: Command


OLD_SEAT = "this page's seat was in a game that is over: the board plays another game now; open its seat link"


Command = (
    Press
    | Declare
    | ShowCard
    | Play
    | NewGame
    | Resume
    | Abandon
    | Settings
    | ShowPin
    | AnswerInvite
    | AskBoards
    | AnswerBoards
    | InGame
)


# --- snapshots -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveEntry:
    """One move that stands: who made it, its notation, what the other seats may read of it (a card
    laid face down is hidden), and how the board learnt it (sensors, confirm, declare)."""

    seat: int
    text: str
    public: str
    via: str


@dataclass(frozen=True)
class Notice:
    """Something the board said lately; `seat`: said in answer to that seat's own message (a card it
    showed, a move it declared), so only that seat may read it. None: everyone may."""

    text: str
    seat: int | None = None


@dataclass(frozen=True)
class RemoteView:
    """A game played with other boards, as the screens show it (docs/remote.md)."""

    game: str
    host: str
    me: str
    seats: tuple[str, ...]  # the board of each seat
    online: Mapping[str, bool]  # the other boards' presence, as last heard
    waiting: bool  # this board waits for the host's word (on a card only the host knows)
    asked: tuple[str, str] | None = None  # another board's request this board may answer: (what, board)
    ended: str | None = None  # how the boards ended the game, in words ("board club resigned"), if they did
    asking: str | None = None  # this board's own request, while the others have not all answered it

    def here(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat] == self.me


@dataclass(frozen=True)
class LobbyView:
    """This board on a broker, as the lobby shows it: the boards online to invite, the invitations
    it received (board, game, players, this board's seats), and the boards it still waits for."""

    me: str
    online: tuple[str, ...]
    invitations: tuple[tuple[str, str, int, tuple[int, ...]], ...]
    waiting_for: tuple[str, ...]


@dataclass(frozen=True)
class PositionView:
    """The game on the board: its position and how it got there, and who plays each seat."""

    game_id: str
    game: Game
    state: State
    history: tuple[State, ...]  # the states before `state`, oldest first
    moves: tuple[MoveEntry, ...]
    seats: tuple[str, ...]  # per seat: "human" or a bot's name
    bot_move: str | None  # on a real board: the bot's move the players make for it
    hotseat: bool = False  # one device plays every seat: the table view may act for the seat on turn


@dataclass(frozen=True)
class BoardView:
    """What the board shows and senses: the tracker's output, the LEDs and the sensor readings."""

    output: TrackerOutput
    map: BoardMap
    frame: tuple[RGB, ...]  # the LED frame last shown, one colour per LED
    readings: tuple[int, ...]  # the stable sensor readings (what the tracker goes by)
    raw: tuple[int, ...]  # the last scan as read (the health page's live sensor map)
    sensors_only: bool = False  # only the raw sensor readings changed since the last snapshot
    scan_hz: float = 100.0


@dataclass(frozen=True)
class DeviceView:
    """The devices under the board: the backends and how they fare, and the virtual hands."""

    # The sensor and LED backends by name, and their last error (None: working).
    backends: Mapping[str, str | None]
    link: tuple[str, str] | None  # the scanner link's state and detail, if there is a link
    faults: tuple[str, ...]  # failing backends, in words
    sim: bool  # the simulated board: pages may ask the virtual hands to move
    hands_busy: bool  # the virtual hands are making a move


@dataclass(frozen=True)
class Snapshot:
    """Everything a screen may show of the table at one moment, in named parts; immutable, so any
    thread may read it."""

    revision: int
    position: PositionView
    board: BoardView
    devices: DeviceView
    settings: Mapping[str, Any]
    notices: tuple[Notice, ...] = ()  # what the board said lately (refused inputs, take-backs)
    remote: RemoteView | None = None  # a game played with other boards
    lobby: LobbyView | None = None  # this board on a broker: who is online, invitations


# --- the channel ---------------------------------------------------------------------------------


class ControlChannel:
    """Commands from any thread to the loop, snapshots from the loop to subscribers."""

    def __init__(self) -> None:
        self._commands: queue.SimpleQueue[tuple[Command, Future[str]]] = queue.SimpleQueue()
        self._subscribers: list[Callable[[Snapshot], None]] = []
        self._lock = threading.Lock()
        self.latest: Snapshot | None = None
        self.sensor_watchers = 0  # screens showing the live sensor map (set by the front-end)

    # --- front-end side -------------------------------------------------------------------------
    def submit(self, command: Command) -> Future[str]:
        """Queue a command for the loop; the future holds what was done, or a CommandError."""
        future: Future[str] = Future()
        self._commands.put((command, future))
        return future

    def subscribe(self, callback: Callable[[Snapshot], None]) -> None:
        """Call `callback(snapshot)` (on the loop's thread: it must only hand the snapshot over)."""
        with self._lock:
            self._subscribers = [*self._subscribers, callback]

    @property
    def wanted(self) -> bool:
        """Whether anyone listens: without a front-end the loop builds no snapshots."""
        return bool(self._subscribers)

    # --- loop side ------------------------------------------------------------------------------
    def drain(
        self, execute: Callable[[Command], str], on_bug: Callable[[Command, Exception], None] | None = None
    ) -> int:
        """Run every queued command on the loop's thread; how many ran. A command that fails with
        anything but a CommandError is a bug: the page hears that it could not be done, `on_bug`
        hears why, and the loop goes on."""
        count = 0
        while not self._commands.empty():  # the scan loop's hot path: usually nothing is queued
            try:
                command, future = self._commands.get_nowait()
            except queue.Empty:
                break
            count += 1
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(execute(command))
            except CommandError as error:
                future.set_exception(error)
            except Exception as error:  # a bug must not stop the board: report it, keep scanning
                future.set_exception(CommandError("the board could not do that (the log says why)"))
                if on_bug is not None:
                    on_bug(command, error)
        return count

    def publish(self, snapshot: Snapshot) -> list[str]:
        """Hand `snapshot` to every subscriber. A subscriber that fails is dropped (a front-end's
        trouble never stops the board); what went wrong is returned for the log."""
        self.latest = snapshot
        problems = []
        for callback in self._subscribers:
            try:
                callback(snapshot)
            except Exception as error:
                problems.append(f"a screen stopped receiving the table: {error}")
                with self._lock:
                    self._subscribers = [other for other in self._subscribers if other is not callback]
        return problems
