"""What goes wrong at a real table besides the move itself: a piece knocked by the hand, the player
who has just moved touching their piece again, and a sensor that dies, sticks or comes loose
mid-game.

Each is a timed disturbance on the simulated board, apart from the move the hands make, so the judge
of the move is not fooled by it: a knocked piece is not part of anybody's move, and a commit of the
move meant is right however long the knocked piece lies beside its field. Seeded like the hands, so
a game replays exactly; `VirtualHands.counts` counts each by name.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from controller.games import Cell, Occupancy
from sim.board import SimBoard
from sim.hands import HandStep, VirtualHands

KNOCK_SLIDE_MS = (5, 30)  # a knocked piece leaves its field and lands beside it almost at once
FAULT_KINDS = ("dead", "stuck", "loose")  # the high mix's; `chip` and `chatter` are set by tests
LOOSE_DROP_MS = (30, 800)  # a loose contact reads nothing for this long...
LOOSE_GAP_MS = (1_000, 8_000)  # ...then what stands there for this long, and again
CHATTER_MS = (40, 150)  # a chattering sensor reads a piece and nothing by turns, this long each
CHIP_CHANNELS = 16  # a multiplexer chip's channels: one that dies takes them all


@dataclass(frozen=True)
class FaultOnset:
    """A sensor that fails at `at`: `dead` reads nothing, `stuck` reads a piece, whatever stands there;
    `loose` (a contact that comes and goes) reads nothing now and then, for moments. A loose contact
    shows only under a piece: it comes loose under a field that holds one when it sets in (`cell`
    if that does). `chatter` reads a piece and nothing by turns, every few scans, from then on;
    `chip`: the multiplexer chip of `cell`'s channel dies, and every field on it reads nothing."""

    at: int
    cell: Cell
    kind: str


@dataclass
class LooseContact:
    """A sensor that drops out for moments, again and again, from its onset to the end of the game."""

    cell: Cell
    rng: random.Random
    next_at: int  # when it next drops out or comes back
    out: bool = False

    def due(self, now: int, board: SimBoard) -> None:
        while self.next_at <= now:
            if self.out:
                board.unstick(self.cell)
                self.next_at += self.rng.randint(*LOOSE_GAP_MS)
            else:
                board.stick(self.cell, 0)
                self.next_at += self.rng.randint(*LOOSE_DROP_MS)
            self.out = not self.out


@dataclass
class Chatter:
    """A sensor that reads a piece and nothing by turns, from its onset to the end of the game."""

    cell: Cell
    rng: random.Random
    next_at: int  # when it next turns
    on: bool = False

    def due(self, now: int, board: SimBoard) -> None:
        while self.next_at <= now:
            if self.on:
                board.unstick(self.cell)
            else:
                board.stick(self.cell, 1)
            self.on = not self.on
            self.next_at += self.rng.randint(*CHATTER_MS)


@dataclass
class Mishaps:
    """Disturbances due at absolute times, applied before each scan (`before_scan`)."""

    board: SimBoard
    counts: Counter[str]  # the hands' counts: a fault is counted when it sets in
    # Disturbance steps due, with their time and whether they are a knocked piece's (see `holds_up`).
    steps: list[tuple[int, HandStep, bool]] = field(default_factory=list)
    faults: list[FaultOnset] = field(default_factory=list)
    loose: list[LooseContact] = field(default_factory=list)
    chatter: list[Chatter] = field(default_factory=list)

    @property
    def pending(self) -> bool:
        """Whether a knocked or touched piece is still away from its field."""
        return bool(self.steps)

    @property
    def busy(self) -> set[Cell]:
        """The fields a knocked or touched piece is still to leave or come back to."""
        return {step.cell for _, step, _ in self.steps}

    def holds_up(self, fields: set[Cell]) -> bool:
        """Whether the next player waits before a move on `fields`: while a knocked piece lies
        beside its field (the board shows it, and people put it back first), or while a piece
        lifted to look is on one of them. A piece the last mover lifts to look elsewhere does not
        hold the next player up: people move while the other looks."""
        return any(knocked for _, _, knocked in self.steps) or bool(self.busy & fields)

    def add(self, start: int, steps: Iterable[HandStep], knock: bool = False) -> None:
        """Disturbance steps from `start`; `knock`: a knocked piece (see `holds_up`)."""
        self.steps.extend((start + step.at, step, knock) for step in steps)
        self.steps.sort(key=lambda entry: entry[0])

    def before_scan(self, now: int, apply: Callable[[SimBoard, HandStep], None]) -> None:
        while self.steps and self.steps[0][0] <= now:
            _, step, _ = self.steps.pop(0)
            try:
                apply(self.board, step)
            except ValueError:  # the piece went elsewhere meanwhile (a move took it): nothing to put back
                self.steps = [entry for entry in self.steps if entry[1].cell != step.cell]
        while self.faults and self.faults[0].at <= now:
            onset = self.faults.pop(0)
            if onset.kind == "loose":
                self.loose.append(self._come_loose(onset))
            elif onset.kind == "chatter":
                self.chatter.append(Chatter(onset.cell, random.Random(onset.at), onset.at))
            elif onset.kind == "chip":
                for cell in self._chip_of(onset):
                    self.board.stick(cell, 0)
            else:
                self.board.stick(onset.cell, 0 if onset.kind == "dead" else 1)
            self.counts[onset.kind] += 1
        for contact in self.loose:
            contact.due(now, self.board)
        for sensor in self.chatter:
            sensor.due(now, self.board)

    def _chip_of(self, onset: FaultOnset) -> list[Cell]:
        """The fields on the chip of `onset.cell`'s channel, or if no piece stands on any of them,
        on the chip of a field that holds one (a dead chip shows only under pieces)."""
        channel_of = self.board.channel_of

        def chip(cell: Cell) -> list[Cell]:
            first = channel_of[cell] // CHIP_CHANNELS * CHIP_CHANNELS
            return [field for field, channel in channel_of.items() if first <= channel < first + CHIP_CHANNELS]

        fields = chip(onset.cell)
        if any(self.board.pieces.get(cell) for cell in fields):
            return fields
        held = sorted(cell for cell, pieces in self.board.pieces.items() if pieces and cell in channel_of)
        return chip(random.Random(onset.at).choice(held)) if held else fields

    def _come_loose(self, onset: FaultOnset) -> LooseContact:
        rng = random.Random(onset.at)
        held = sorted(cell for cell, pieces in self.board.pieces.items() if pieces)
        cell = onset.cell if onset.cell in held or not held else rng.choice(held)
        return LooseContact(cell, rng, onset.at)


def knock(
    hands: VirtualHands,
    after: Occupancy,
    landing: Cell,
    moving: Iterable[Cell],
    is_field: Callable[[Cell], bool],
    neighbours: Callable[[Cell], Iterable[Cell]],
) -> list[HandStep]:
    """A piece beside `landing` knocked one field over by the hand, and put back once the person
    notices (times from the knock); [] when no piece stands where a hand could knock it."""
    busy = set(moving) | {landing}
    standing = [cell for cell in neighbours(landing) if after.get(cell) and cell not in busy and is_field(cell)]
    options = [
        (cell, aside)
        for cell in standing
        for aside in neighbours(cell)
        if is_field(aside) and not after.get(aside) and aside not in busy
    ]
    if not options:
        return []
    cell, aside = options[hands.between((0, len(options) - 1))]
    piece = after[cell][-1:]
    slide = hands.between(KNOCK_SLIDE_MS)
    back = slide + hands.between(hands.style.knock_back_ms)
    travel = hands.between(hands.style.travel_ms)
    return [
        HandStep(0, "lift", cell, piece),
        HandStep(slide, "place", aside, piece),
        HandStep(back, "lift", aside, piece),
        HandStep(back + travel, "place", cell, piece),
    ]


def touch(hands: VirtualHands, after: Occupancy, cell: Cell) -> list[HandStep]:
    """The player who has just moved lifts their piece again to look, and puts it back."""
    piece = after.get(cell, ())[-1:]
    if not piece:
        return []
    return [HandStep(0, "lift", cell, piece), HandStep(hands.between(hands.style.touch_ms), "place", cell, piece)]


def fault_onsets(rate: float, cells: list[Cell], seed: int) -> list[FaultOnset]:
    """With chance `rate`, one sensor of the board fails during the game (some seconds in)."""
    rng = random.Random(seed * 7919 + 17)
    if not cells or rng.random() >= rate:
        return []
    return [FaultOnset(rng.randint(3_000, 60_000), rng.choice(cells), rng.choice(FAULT_KINDS))]
