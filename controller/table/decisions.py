"""What the tracker decides after a scan: one value of a small closed set.

The tracker weighs the evidence and returns one decision. Two kinds change the game and are carried
out at once, after which the tracker decides again on the same evidence (`Commit`, `TakeBack`; a
correction is a commit of a `Correction`). The others say what the board shows until the evidence
changes (`Idle`, `Acknowledge`, `Ask`, `OfferTakeBack`, `Guide`). The step loops over decisions
until one of the second kind; nothing recurses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from controller.games import Action, Cell, State
from controller.table.corrections import Correction, ThenMove
from controller.table.tracker_types import Display, HintKind, Mode, SensorFault

Choice = Action | str | Correction | ThenMove
"""What the board may take or ask about: a legal action, the take-back ("takeback"), a correction of
the last commit, or two moves (the last one and the next player's)."""

Hints = dict[Cell, HintKind]


@dataclass(frozen=True)
class Idle:
    """The board shows the game's position (with a card's moves lit, if one was shown)."""

    hints: Hints = field(default_factory=dict)


@dataclass(frozen=True)
class Acknowledge:
    """One explanation fits; it is shown at once and taken when the board has settled."""

    action: Action
    shown: State  # the position after it
    hints: Hints = field(default_factory=dict)
    played_in: dict[Action, State] = field(default_factory=dict)  # where not the game's position


@dataclass(frozen=True)
class Ask:
    """Several explanations fit (or one no sensor can confirm): the players choose."""

    candidates: tuple[Action, ...]
    previewed: Action | None
    shown: State
    hints: Hints = field(default_factory=dict)
    played_in: dict[Action, State] = field(default_factory=dict)  # where not the game's position


@dataclass(frozen=True)
class OfferTakeBack:
    """The board shows the position before the last move; it is taken back when confirmed (or by
    itself after `takeback_ms`, when nothing else can be meant)."""

    shown: State
    hints: Hints = field(default_factory=dict)


@dataclass(frozen=True)
class Guide:
    """No explanation fits yet: a move under way (`moving`), the way to the nearest legal position
    (`guidance`), the way back to the game's position (`setup`, `restore`), or the way to the
    position another board's move made (`remote`, with the seat that moved); with any sensor
    faults found."""

    mode: Literal["moving", "guidance", "setup", "restore", "remote"]
    hints: Hints = field(default_factory=dict)
    faults: tuple[SensorFault, ...] = ()
    mover: int | None = None


@dataclass(frozen=True)
class Commit:
    """Take `choice` now (a move, a correction, or two moves)."""

    choice: Action | Correction | ThenMove
    via: str = "sensors"


@dataclass(frozen=True)
class TakeBack:
    """Take the last move back now."""


Decision = Idle | Acknowledge | Ask | OfferTakeBack | Guide | Commit | TakeBack
Shown = Idle | Acknowledge | Ask | OfferTakeBack | Guide  # the decisions the board shows


def display(decision: Shown, state: State, hints: Hints, faults: tuple[SensorFault, ...]) -> Display:
    """What the board shows for `decision` (with `hints` and `faults`) in the game's `state`."""
    mode: Mode
    shown: State = state
    acknowledged: Action | None = None
    candidates: tuple[Action, ...] = ()
    previewed: Action | None = None
    played_in: dict[Action, State] = {}
    if isinstance(decision, Idle):
        mode = "idle"
    elif isinstance(decision, Acknowledge):
        mode, shown, acknowledged = "acknowledged", decision.shown, decision.action
        played_in = decision.played_in
    elif isinstance(decision, Ask):
        mode, shown, candidates, previewed = "confirm", decision.shown, decision.candidates, decision.previewed
        played_in = decision.played_in
    elif isinstance(decision, OfferTakeBack):
        mode, shown = "takeback", decision.shown
    else:
        mode = decision.mode
    mover = decision.mover if isinstance(decision, Guide) else None
    return Display(mode, state, shown, hints, acknowledged, candidates, previewed, faults, played_in, mover)
