"""What is physically possible, judged from the readings and their times (docs/tracker.md, "The
evidence model"). Pure functions: the tracker asks them before it believes an explanation.

- **A piece cannot arrive before it left.** When one piece moves from one field to another, the
  field it lands on fills after the field it left empties. A field that filled well before the only
  field the move empties did not receive that piece: something else (a stray piece, a stuck sensor)
  filled it.
- **A carry takes time.** A piece lifted and set down on a field that is not beside its own was
  carried by a hand, which takes longer than the contact bounce that may date a lift late: its
  landing is never dated before its lift (a slide to the field beside, as a knock, can be faster;
  two changes first seen in the same scan, after a scanner outage, tell no order at all).
- **One move after the other.** The next player may reach for a piece early, but makes the move
  once the one before has landed: two moves read one after the other never have the second
  finished before the first, nor begun before it.
- **One hand, one move.** A change that started long before the changes of a move, on fields the
  move does not touch, is not part of it: a piece lifted and held, a piece left lying, or a failed
  sensor. The move can be judged on its own fields; the old change stays unexplained and is judged
  on its own (a fault, once it has lasted).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from controller.table.tracker_types import Mismatch

ORDER_SLACK_MS = 30  # contact bounce may date a lift up to this much late
SLIDE_MS = 60  # a piece slid (or knocked) to the field beside leaves and lands within this (scans and bounce included)
CARRY_MS = 60  # the least time a hand takes to lift a piece, carry it past the next field and put it down
APART_MS = 500  # an old change this much older than every other change is not part of their move
HELD_MS = 2_000  # a piece in the air longer than any carry (slow hands carry up to 2 s) was held


@dataclass(frozen=True)
class Dating:
    """When each channel's stable reading began, as well as the sensors tell it (docs/tracker.md,
    "The evidence model"): at some moment from `since` (the first raw change of its episode) to
    `until` (the last: a flicker just before a piece landed began the episode), or any time before
    `since` back to the last scan for channels first seen changed after a scanner outage (`unsure`).
    A judgement that rules an explanation out by order rules it out only where no moment of these
    ranges fits. (The sequences are the debouncer's own, read when judged.)"""

    since: Sequence[int]
    until: Sequence[int]
    unsure: Collection[int] = ()


def left(was: int, now: int) -> bool:
    """Whether a field that read `was` and now reads `now` lost a piece (or one of a stack): fewer
    magnets, or the other pole on top."""
    return was != 0 and (abs(now) < abs(was) or now * was < 0)


def more(was: int, now: int) -> bool:
    """Whether a field that should read `was` reads more pieces (magnets) than that: a piece no
    move of the five games can have brought, as none puts a sensed piece on the board from outside
    it (a sensor stuck on, a stray piece), unless another field lost one."""
    return abs(now) > abs(was)


def came(was: int, now: int) -> bool:
    """Whether a field that read `was` and now reads `now` gained a piece."""
    return now != 0 and (abs(now) > abs(was) or now * was < 0)


def leaves(channel: int, reading: int, expected: Sequence[int]) -> bool:
    """Whether `reading` on `channel` means a piece (or one of a stack) left the field."""
    return left(expected[channel], reading)


def arrives(channel: int, reading: int, expected: Sequence[int]) -> bool:
    """Whether `reading` on `channel` means a piece arrived on the field."""
    return came(expected[channel], reading)


def in_order(
    evidence: Mismatch, expected: Sequence[int], dating: Dating, beside: Callable[[int, int], bool] | None = None
) -> bool:
    """Whether a one-piece move with this evidence could have happened in the order the sensors saw:
    its landing field did not fill before its origin emptied (by more than the bounce of a lift,
    for a piece that may have slid to the field beside; `beside` tells which fields neighbour), and
    a piece carried further landed at least CARRY_MS after it left (less the bounce that may have
    dated the lift late), unless a scanner outage hid when: no hand carries a piece across fields
    faster (a field that empties as a sensor dies, just before a piece lands three fields away, is
    not that piece's departure).
    Judged on the latest the landing may have been. Moves of several pieces from several fields (a
    capture sent home, a board part carried) are not judged here; a stack carried as one is."""
    piece = _one_piece(evidence, expected)
    if piece is None:
        return True
    departure, arrival = piece
    carried = beside is not None and not beside(departure, arrival)
    landed, lifted = dating.until[arrival], dating.since[departure]
    if carried and departure not in dating.unsure and arrival not in dating.unsure:
        return landed - lifted >= CARRY_MS - ORDER_SLACK_MS
    return landed >= lifted - (0 if carried else ORDER_SLACK_MS)


def one_after_other(
    first: Collection[int], second: Collection[int], dating: Dating, landed_by: int | None = None
) -> bool:
    """Whether a move on the channels `second` could have followed one on `first`: the next player
    may reach for a piece early, but makes the move once the one before has landed, so the second's
    own fields did not all settle before the last of the first's (but for the bounce of a lift;
    the second's judged on the latest they may have). Fields both moves touch tell nothing.
    `landed_by`: when the first is known to have landed (the board showed it), however late a hand
    touched its fields again since."""
    own_first = [channel for channel in first if channel not in second]
    own_second = [channel for channel in second if channel not in first]
    if not own_first or not own_second:
        return True
    landed = max(dating.since[channel] for channel in own_first)
    if landed_by is not None:
        landed = min(landed, landed_by)
    return max(dating.until[channel] for channel in own_second) >= landed - ORDER_SLACK_MS


def began_after(first: Collection[int], second: Collection[int], dating: Dating) -> bool:
    """Whether a move that lifted pieces off the channels `second` can have begun after one that
    lifted them off `first`: the next player reaches early only for a move under way (two hands meet
    at the seam between moves), so their first lift is never before the mover's first. Judged on the
    latest the second's lifts may have been."""
    own = [channel for channel in second if channel not in first]
    if not first or not own:
        return True
    return max(dating.until[channel] for channel in own) >= min(dating.since[channel] for channel in first)


def older_apart(
    mismatch: Mapping[int, int], since: Sequence[int], began: Callable[[int], int] | None = None
) -> frozenset[int]:
    """The channels whose change is older, by APART_MS or more, than every other change of the board
    may be (`began`: the earliest moment a change may have begun, before `since` where a scanner
    outage hid when); none, when every change is recent or every change is old."""
    if len(mismatch) < 2:
        return frozenset()
    ordered = sorted(mismatch, key=lambda channel: since[channel])
    earliest = [since[channel] if began is None else began(channel) for channel in ordered]
    for split in range(len(ordered) - 2, -1, -1):  # the earliest any change from `split` on may be
        earliest[split] = min(earliest[split], earliest[split + 1])
    for split in range(1, len(ordered)):
        if earliest[split] - since[ordered[split - 1]] >= APART_MS:
            return frozenset(ordered[:split])
    return frozenset()


def surely_carried(
    evidence: Mismatch, expected: Sequence[int], dating: Dating, beside: Callable[[int, int], bool] | None
) -> bool:
    """Whether a move with this evidence was made by a hand that carried its piece, never a slide
    to the field beside (which a knock makes as well, knocks.py): its piece went further than the
    field beside, or landed later after it left than any slide takes, or it moved several pieces.
    A scanner outage that hid when either field changed leaves a slide possible."""
    piece = _one_piece(evidence, expected)
    if piece is None:
        return True
    departure, arrival = piece
    if beside is None or not beside(departure, arrival):
        return True
    if departure in dating.unsure or arrival in dating.unsure:
        return False
    return dating.since[arrival] - dating.until[departure] > SLIDE_MS


def ends(evidence: Mismatch, expected: Sequence[int]) -> tuple[list[int], list[int]]:
    """The channels the evidence shows a piece leave, and those it shows a piece reach."""
    departures = [channel for channel, reading in evidence if leaves(channel, reading, expected)]
    arrivals = [channel for channel, reading in evidence if arrives(channel, reading, expected)]
    return departures, arrivals


def _one_piece(evidence: Mismatch, expected: Sequence[int]) -> tuple[int, int] | None:
    """The field left and the field reached, where the evidence is one piece (or one stack) moved."""
    departures, arrivals = ends(evidence, expected)
    if len(departures) != 1 or len(arrivals) != 1 or len(evidence) != 2:
        return None
    return departures[0], arrivals[0]


def either_held(board: Mismatch, move: Mismatch, expected: Sequence[int], dating: Dating) -> bool:
    """Whether a move (`move`: its own changes) was a piece held longer than any carry, while the
    board (`board`: every change) shows another piece lifted before it landed: either may be the
    one held and landed, and the other a piece still in the air or a sensor that died under it.
    Age tells them apart no better than that: people hold pieces as long as they think."""
    lifts, landings = ends(move, expected)
    if not lifts or not landings:
        return False
    landed = min(dating.until[channel] for channel in landings)
    if landed - max(dating.until[channel] for channel in lifts) <= HELD_MS:
        return False
    return any(
        (channel, value) not in move and left(expected[channel], value) and dating.since[channel] < landed
        for channel, value in board
    )
