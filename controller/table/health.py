"""Sensor health: which channels the matching trusts, judged from evidence over time.

A channel is reported faulty (a failed sensor, or a stray piece) for a change of its own that no
move explains (docs/tracker.md, "The evidence model"):

- a single wrong channel that holds for `stuck_after_ms` with nothing else changing; so does each of
  several wrong channels that all read more than the position has (none reads less): pieces do not
  come from nowhere, so no hand is making a move there (two sensors that stuck one after the other);
- a wrong channel that outlived a move made elsewhere (its change is older than the last move and
  not part of it) and has held for `stuck_after_ms`: it is nobody's move;
- wrong channels that changed at one moment, at least three, more than hands can change
  together: at once. A hand lifts a piece off one field or puts one down, slides (or bumps) a piece
  one field, or changes the fields of one legal move together (a Zillo part carried with its
  pieces): fields changed together beyond what two hands do are sensors that failed together (a
  multiplexer, a cable), whatever else the board shows (a piece held for the move under way stays
  the hand's).

Not a piece the player on turn may move, lifted: people hold a piece in the air as long as they
like. Unless it outlived a move made elsewhere and has lasted OUTLIVED_MS: nobody holds a piece
while the game goes on; its sensor has died, or the piece is gone.

A signed reading that turns from one polarity to the other without passing through "empty", with no
other field changing about then, is a fault at once: no hand swaps one piece for another faster than
the debounce time (a board part carried with its pieces changes many fields together).

A channel whose reading changed CHATTER_CHANGES times within CHATTER_MS, each time with no other
field changing in the ALONE_MS before, chatters: no hand lifts and puts down a piece on one field so
fast so often with nothing else moving (a sensor at the edge of its threshold, a contact that
rattles; a field crossed by piece after piece changes as often, but with the moves' other fields).
It is a fault at once; its changes no longer count as the board moving (a move elsewhere settles
and is taken), and it is left out until it has held one reading for CALM_MS.

A faulty channel is reported with its field and (with `mask_stuck`) left out of the matching so
the game goes on; it is trusted again as soon as its reading changes (a chattering one, once calm).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from controller.games import Cell
from controller.table.evidence import more
from controller.table.knocks import Change
from controller.table.tracker_types import Mismatch, SensorFault

ALONE_MS = 500  # a sensor flip with no other field changing this close in time: no hand made it
OUTLIVED_MS = 10_000  # a lifted-looking field that outlived a move made elsewhere, this long: a fault
CHATTER_CHANGES = 6  # a sensor whose reading changed this often (three times there and back)...
CHATTER_MS = 2_000  # ...within this long chatters
CALM_MS = 5_000  # a chattering sensor is trusted again once it has held one reading this long
TOGETHER_MS = 30  # fields that changed this close in time changed at one moment (a scan and a bounce)


@dataclass(frozen=True)
class Timing:
    """What the health judgement needs to know of the evidence's times."""

    now: int
    quiet_since: int  # the last change of the board
    stable_since: Sequence[int]  # per channel, when its stable reading began
    unsure: Collection[int] = ()  # channels whose change was first seen after a scanner outage


@dataclass
class SensorHealth:
    """The masked channels (left out of the matching) and the last move, for judging faults."""

    stuck_after_ms: int
    mask: bool
    masked: dict[int, int] = field(default_factory=dict)  # channel -> the reading it is masked at
    # The last commit: when its move was made (first shown, else committed), and the channels it changed.
    moved: tuple[int, frozenset[int]] | None = None
    chattering: dict[int, int] = field(default_factory=dict)  # channel -> its last change
    _recent: dict[int, list[int]] = field(default_factory=dict)  # channel -> its last few changes' times
    _lately: list[tuple[int, int]] = field(default_factory=list)  # (when, channel): changes within ALONE_MS

    def committed(self, now: int, channels: frozenset[int]) -> None:
        self.moved = (now, channels)

    def taken_back(self) -> None:
        self.moved = None  # the move that stood is gone: nothing outlived it

    def impossible(self, changes: Sequence[Change], stable_since: Sequence[int]) -> tuple[int, ...]:
        """The channels among `changes` that turned from one polarity straight to the other while no
        other field changed within ALONE_MS; masked at their new reading (when masking is on), so the
        matching goes on without them. (Pieces carried on a board part slide over the sensors and
        may pass from one to the next without an empty reading: then every field they cross changes.)
        A change that came before the flipped reading began is not one of those: it belongs to the
        move that put the piece there (a captured piece sent home just before its sensor stuck)."""
        flipped = []
        for change in changes:
            if change.before * change.after >= 0:
                continue
            others = (at for channel, at in enumerate(stable_since) if channel != change.channel)
            if all(abs(at - change.at) > ALONE_MS or at < change.before_since for at in others):
                flipped.append(change.channel)
                if self.mask:
                    self.masked[change.channel] = change.after
        return tuple(flipped)

    def chatters(self, changes: Sequence[Change]) -> tuple[int, ...]:
        """The channels among `changes` found chattering now (masked at their new reading, when
        masking is on); a change of a channel that chatters already is noted, keeping it out. Only
        changes with no other field changing in the ALONE_MS before them count: a field that pieces
        are carried across, move after move, changes as often while hands are at work elsewhere."""
        found = []
        chattering = self.chattering
        if changes:  # every stable change passes here: the board's changes of the last ALONE_MS
            latest = max(change.at for change in changes)
            self._lately = [pair for pair in self._lately if pair[0] > latest - ALONE_MS]
            self._lately += [(change.at, change.channel) for change in changes]
        for change in changes:
            channel = change.channel
            if channel in chattering:
                chattering[channel] = change.at
                continue
            recent = change.at - ALONE_MS
            if any(
                recent < at <= change.at and other != channel and other not in chattering for at, other in self._lately
            ):
                continue
            times = self._recent.setdefault(channel, [])
            times.append(change.at)
            del times[:-CHATTER_CHANGES]
            if len(times) == CHATTER_CHANGES and times[-1] - times[0] <= CHATTER_MS:
                del self._recent[channel]
                self.chattering[channel] = change.at
                found.append(channel)
                if self.mask:
                    self.masked[channel] = change.after
        return tuple(found)

    def calmed(self, now: int) -> tuple[int, ...]:
        """The chattering channels that have held one reading for CALM_MS: judged as any other
        channel from now on."""
        calm = tuple(channel for channel, last in self.chattering.items() if now - last >= CALM_MS)
        for channel in calm:
            del self.chattering[channel]
        return calm

    def outlived(self, channel: int, stable_since: Sequence[int]) -> bool:
        """Whether the channel's change is older than the last move, which was made elsewhere."""
        moved = self.moved
        return moved is not None and stable_since[channel] < moved[0] and channel not in moved[1]

    def judge(
        self,
        mismatch: Mismatch,
        timing: Timing,
        expected: Sequence[int],
        cells: Mapping[int, Cell],
        held: Callable[[int, int], bool] | None,
        set_deadline: Callable[[int | None], None],
        in_hands: Callable[[frozenset[int]], bool] | None = None,
    ) -> tuple[SensorFault, ...]:
        """The faults the evidence shows now (see the module docstring); `held(channel, reading)`
        says whether a reading is a piece the player on turn may hold in the air, `in_hands(channels)`
        whether two hands can have changed those fields at once (None: set-up, for both)."""
        faults: list[SensorFault] = []
        # Judged on its own: a single wrong field, fields that all read more than the position has
        # while none reads less (`evidence.more`), or fields that changed together beyond what two
        # hands can do: no hand is making a move there.
        together = _changed_together(mismatch, timing, in_hands)
        alone = len(mismatch) == 1 or all(more(expected[channel], value) for channel, value in mismatch)
        for channel, value in sorted(mismatch):
            outlived = self.outlived(channel, timing.stable_since)
            since = timing.stable_since[channel]
            dues = [timing.quiet_since + self.stuck_after_ms] if alone else []
            if channel in together:
                dues.append(timing.now)  # no hands: failed at once
            if outlived:
                dues.append(since + self.stuck_after_ms)
            if not dues or timing.now < min(dues):
                set_deadline(min(dues) if dues else None)
                continue
            in_hand = held is not None and held(channel, value) and channel not in together
            if in_hand and (not outlived or timing.now - since < OUTLIVED_MS):
                set_deadline(since + OUTLIVED_MS if outlived else None)
                continue
            faults.append(SensorFault(channel, cells.get(channel), value, expected[channel]))
        if faults and self.mask:
            for fault in faults:
                self.masked[fault.channel] = fault.reading
        return tuple(faults)


def _changed_together(
    mismatch: Mismatch, timing: Timing, in_hands: Callable[[frozenset[int]], bool] | None
) -> frozenset[int]:
    """The wrong channels that changed at one moment, at least three of them and more than two
    hands can change at once (a hand lifts or puts down on one field at a time, or on the fields of
    one legal move together): sensors that failed together. None in set-up (`in_hands` None). A
    change first seen after a scanner outage may have come at any moment of the silence: it is at
    one moment with nothing (hands at work through the outage read as changes seen together)."""
    if in_hands is None or len(mismatch) < 3:
        return frozenset()
    stable_since, unsure = timing.stable_since, timing.unsure
    changed = sorted((stable_since[channel], channel) for channel, _ in mismatch if channel not in unsure)
    largest: list[int] = []
    for index, (first, _) in enumerate(changed):
        moment = [channel for at, channel in changed[index:] if at - first <= TOGETHER_MS]
        if len(moment) > len(largest):
            largest = moment
    group = frozenset(largest)
    return group if len(group) >= 3 and not in_hands(group) else frozenset()
