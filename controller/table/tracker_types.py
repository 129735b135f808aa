"""The tracker's vocabulary: its settings, what it reports after every scan, and the names of its
modes and LED hints. Kept apart from the state machine so the LED composer, the service and the
front-ends can speak it without importing the tracker itself."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, fields
from typing import Literal

from controller.games import Action, Cell, State

Mismatch = frozenset[tuple[int, int]]
"""(channel, reading) pairs where the board differs, or would differ, from the game's position."""


def differences(readings: Sequence[int], expected: Sequence[int], masked: Collection[int]) -> Mismatch:
    """Where `readings` differ from the `expected` ones, failed (`masked`) channels left out."""
    return frozenset((ch, v) for ch, v in enumerate(readings) if v != expected[ch] and ch not in masked)


def unmasked(mismatch: Mismatch, masked: Collection[int]) -> Mismatch:
    """`mismatch` without the `masked` channels (stuck sensors, left out of the matching)."""
    if not masked:
        return mismatch
    return frozenset(pair for pair in mismatch if pair[0] not in masked)


HintKind = Literal["origin", "destination", "capture", "return", "remove", "place", "confirm"]
Mode = Literal["setup", "idle", "moving", "acknowledged", "confirm", "takeback", "guidance", "restore", "remote"]
TAKEBACK_MODES = ("auto", "offer", "off")
# The timings players may change at the table (the web app's settings), with the range allowed; their
# defaults are TrackerConfig's.
ADJUSTABLE_MS: dict[str, tuple[int, int]] = {
    "debounce_ms": (0, 1000),
    "settle_ms": (0, 5000),
    "guide_after_ms": (500, 60000),
}


@dataclass(frozen=True)
class TrackerConfig:
    debounce_ms: int = 40
    settle_ms: int = 250
    guide_after_ms: int = 2500
    # Asking for confirmation: 0 (the default) shows one candidate until `menu` steps on, so a press of
    # `confirm` always takes what the player sees; a positive value rotates the candidates that often,
    # and a press then takes what was shown `confirm_grace_ms` earlier if the preview just changed.
    preview_ms: int = 0
    confirm_grace_ms: int = 300
    stuck_after_ms: int = 5000  # a lone wrong channel this long is reported as a sensor fault
    takeback: str = "auto"  # auto: putting the last move back undoes it; offer: needs confirm; off
    mask_stuck: bool = True  # leave a channel reported stuck out of the matching until it changes
    # A take-back by position waits longer than a move: sending a captured piece home first passes
    # through the previous position for a moment.
    takeback_ms: int = 2000

    def __post_init__(self) -> None:
        for name in (spec.name for spec in fields(self) if spec.name.endswith("_ms")):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"tracker {name} must be a whole number of milliseconds >= 0, not {value!r}")
        if self.takeback not in TAKEBACK_MODES:
            raise ValueError(f"tracker takeback must be one of {', '.join(TAKEBACK_MODES)}, not {self.takeback!r}")


@dataclass(frozen=True)
class SensorFault:
    channel: int
    cell: Cell | None
    reading: int
    expected: int


@dataclass(frozen=True)
class Display:
    """What the board shows after a scan. The tracker hands out the same object until the evidence
    changes, so the LEDs and the web app can tell "nothing new" by identity."""

    mode: Mode
    state: State  # the committed game state
    shown: State  # the state whose marks the LEDs show (a provisional successor while acknowledged)
    hints: dict[Cell, HintKind] = field(default_factory=dict)
    acknowledged: Action | None = None
    candidates: tuple[Action, ...] = ()
    previewed: Action | None = None
    faults: tuple[SensorFault, ...] = ()
    # The state an action named above is played in where that is not `state`: before the last move
    # for a correction of it, after the move acknowledged a moment ago for the next player's reply.
    played_in: dict[Action, State] = field(default_factory=dict)
    mover: int | None = None  # in mode `remote`: the seat whose move, made on another board, is shown

    def same_as(self, other: Display | None) -> bool:
        """Whether `other` shows the very same: states compared by identity (a state's equality
        compares whole positions, too slow for every changed scan)."""
        return (
            other is not None
            and self.state is other.state
            and self.shown is other.shown
            and self.mode == other.mode
            and self.hints == other.hints
            and self.acknowledged == other.acknowledged
            and self.candidates == other.candidates
            and self.previewed == other.previewed
            and self.faults == other.faults
            and self.mover == other.mover
            and self.played_in.keys() == other.played_in.keys()
            and all(state is other.played_in[action] for action, state in self.played_in.items())
        )

    def text_of(self, action: Action) -> str:
        """`action` (acknowledged, or a candidate) in notation, read in the state it is played in."""
        return self.played_in.get(action, self.state).action_to_str(action)


@dataclass(frozen=True)
class Happened:
    """What one scan did to the game besides showing something: commits, take-backs, messages.
    Empty on almost every scan; consumers journal and announce it once."""

    committed: tuple[Action, ...] = ()
    transitions: tuple[tuple[State, Action, State], ...] = ()  # (before, action, after) per commit
    commit_via: tuple[str, ...] = ()  # per commit: "sensors", "confirm" (button) or "declare" (input)
    took_back: int = 0
    replaced: int = 0  # commits taken back *before* this scan's transitions (a correction)
    messages: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.committed or self.took_back or self.messages)


NOTHING_HAPPENED = Happened()


@dataclass(frozen=True)
class TrackerOutput:
    """The tracker's report of one scan: what the board shows, and what happened."""

    display: Display
    happened: Happened = NOTHING_HAPPENED


TAKEBACK = "takeback"  # pseudo-candidate: the board shows the position before the last action
