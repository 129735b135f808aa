"""Which legal explanations of the board are physically possible, and which hold when an old change
elsewhere is set aside (docs/tracker.md, "The evidence model"). Pure functions of a `Scene`: the
evidence as the tracker holds it at one scan.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from controller.games import Action, Piece, State
from controller.table.candidates import CandidateTable
from controller.table.corrections import Correction, CorrectionWindow, ThenMove
from controller.table.evidence import (
    Dating,
    began_after,
    came,
    ends,
    in_order,
    left,
    older_apart,
    one_after_other,
    surely_carried,
)
from controller.table.tracker_types import Mismatch, differences, unmasked

# How long before the last commit the next player may have started (a fast reply: a piece lifted
# 40-700 ms after the last one was put down, and the commit follows that placement by `settle_ms`).
REPLY_HEAD_START_MS = 1_500
# The last move is dated when the board first showed it, up to a debounce and a scan after its piece
# landed; a reply's piece lands after that landing (it answers the move it saw), 80 ms at the soonest.
SHOWN_AFTER_LANDING_MS = 80


@dataclass(frozen=True)
class Scene:
    """The evidence at one scan, as the explanations need it."""

    mismatch: Mapping[int, int]  # channel -> reading, where the board differs from the position
    expected: Sequence[int]
    dating: Dating  # per channel, when its stable reading began (as a range)
    masked: Mapping[int, int]  # channels left out of the matching (failed sensors)
    acknowledged: Action | None  # the move shown a moment ago in this position
    moved_at: int | None  # when the last move that stands was made (first shown, else committed)
    beside: Callable[[int, int], bool] | None = None  # whether two channels' fields are neighbours
    acknowledged_at: int | None = None  # when the acknowledged move was first shown (it had landed)
    asked: tuple[Action | str, ...] = ()  # the moves asked about in this position, not answered yet
    blind_until: int = -(10**9)  # the end of the last scanner outage (debounce.Debouncer.blind_until)
    corrected: frozenset[int] = frozenset()  # the fields of a correction shown a moment ago, if any
    # The earliest moment each channel's change may have begun (debounce.Debouncer.began_by).
    began: Callable[[int], int] | None = None

    def unmasked(self, evidence: Mismatch) -> Mismatch:
        return unmasked(evidence, self.masked)


def fresh(actions: list[Action], candidates: CandidateTable, scene: Scene) -> list[Action]:
    """The actions made of changes from this player's turn: a change older than the last move (by
    more than a fast reply's head start) happened before this player could act, and a piece that
    came before the last move landed is no answer to it (whoever reaches early lifts early, but
    lands after the move they answer: a sensor that stuck on meanwhile is no move). That holds for a
    field whose pieces the action all takes away and replaces by others, too, though it reads as
    before: a hand lifts before it puts down, so the field read empty a moment (a Zillo part
    carried with its pieces), and a field that has read as it does since before the turn was never
    touched in it, unless the scanner fell silent since (it may have emptied and filled unseen). A
    masked field has no time."""
    if not actions or scene.moved_at is None:
        return actions
    oldest = scene.moved_at - REPLY_HEAD_START_MS
    landed = scene.moved_at - SHOWN_AFTER_LANDING_MS
    until, expected = scene.dating.until, scene.expected
    blind = scene.blind_until >= oldest  # the scanner fell silent since: a field may have emptied and filled unseen
    return [
        action
        for action in actions
        if all(
            until[ch] >= (landed if came(expected[ch], value) else oldest)
            for ch, value in scene.unmasked(candidates.mismatch(action))
        )
        and (blind or all(until[ch] >= oldest for ch in _replaced(action, candidates) if ch not in scene.masked))
    ]


def _replaced(action: Action, candidates: CandidateTable) -> list[int]:
    """The channels of the fields whose pieces the action all takes away and replaces by others."""
    channel_of, occupancy = candidates.board.channel_of, candidates.occupancy
    found = []
    for cell in candidates.footprint(action).captures:
        if _replaces(occupancy.get(cell, ()), candidates.pieces_after(action, cell)) and cell in channel_of:
            found.append(channel_of[cell])
    return found


def _replaces(before: Sequence[Piece], after: Sequence[Piece]) -> bool:
    """Whether a field that held `before` and holds `after` had every piece taken off and others
    put on: a hand lifts before it puts down, so it read empty a moment."""
    return bool(before) and bool(after) and not set(before) & set(after)


def taken_back(now: CandidateTable, before: CandidateTable, scene: Scene) -> bool:
    """Whether the board, showing the position `before` the last move (`now` the position after
    it), may show that move taken back. One piece carried back is judged as any piece carried (it
    cannot land before it left: `ordered`). Every field whose pieces the take-back all takes away
    and replaces by others (a Klotz capture's target: the capturing piece off, the captured square
    back on) read empty a moment since the move was made, as a hand lifts before it puts down,
    unless the scanner fell silent since (it may have emptied and filled unseen): a field untouched
    since then shows another piece put where the last move left one (a square set down on the
    capturing piece's old field), no take-back."""
    cells = now.occupancy.keys() | before.occupancy.keys()
    moved = [cell for cell in cells if now.occupancy.get(cell, ()) != before.occupancy.get(cell, ())]
    evidence = scene.unmasked(frozenset(scene.mismatch.items()))
    if len(moved) <= 2 and not in_order(evidence, scene.expected, scene.dating, scene.beside):
        return False
    made = scene.moved_at
    if made is None or scene.blind_until >= made:
        return True
    channel_of, until = now.board.channel_of, scene.dating.until
    for cell in moved:
        channel = channel_of.get(cell)
        replaced = _replaces(now.occupancy.get(cell, ()), before.occupancy.get(cell, ()))
        if replaced and channel is not None and channel not in scene.masked and until[channel] < made:
            return False
    return True


def ordered(actions: list[Action], candidates: CandidateTable, scene: Scene) -> list[Action]:
    """The actions whose pieces could have moved in the order the sensors saw: one piece (or one
    stack, carried as one) cannot land before it left, nor fly (evidence.py)."""
    return [
        action
        for action in actions
        if len({(move.origin, move.target) for move in candidates.footprint(action).moves}) != 1
        or in_order(scene.unmasked(candidates.mismatch(action)), candidates.expected, scene.dating, scene.beside)
    ]


def _old(scene: Scene, candidates: CandidateTable) -> frozenset[int]:
    """The old changes to set aside: those well older than every other change, but never the move
    shown a moment ago, nor a correction of the last move shown (it stands first; the recent changes
    may be the next player's after it, and its piece lifted again may be on its way back to it)."""
    old = older_apart(scene.mismatch, scene.dating.since, scene.began) - scene.corrected
    acked = scene.acknowledged
    if acked is not None and candidates.is_legal(acked):
        own = {channel for channel, _ in candidates.mismatch(acked)}
        old = frozenset(channel for channel in old if channel not in own)
    return old


def apart(evidence: Mismatch, candidates: CandidateTable, scene: Scene) -> list[Action]:
    """The moves the recent changes show, when a change on other fields is not part of them: the
    move is judged on its own fields and the other change stays, to be judged on its own. That is
    an old change (a piece held or left lying, a failed sensor), or failing that a piece that came
    where no lift pairs with it (every piece on the board is lifted before it is put down: a sensor
    that sticks as the move lands, or a stray piece). Not while one bigger move may still explain
    it all, nor where what is set apart is itself a move on fields of its own (`two_moves`); where
    several such readings fit, each is a candidate (the board asks)."""
    old = _old(scene, candidates)
    lone = strays(evidence, candidates.expected)
    if not old and not lone:
        return []  # (most scans that match nothing, a piece in the air among them, end here)
    channels = [channel for channel, _ in evidence]
    if any(scene.unmasked(candidates.mismatch(other)) >= evidence for other in candidates.reaching(channels)):
        return []
    found = ordered(set_apart(evidence, old, candidates, scene.masked), candidates, scene)
    found = [action for action in found if not _two_moves(action, evidence, candidates, scene)]
    held: dict[Action, None] = {}
    for action in found:
        held.update(dict.fromkeys(_held_and_reached(action, evidence, old, candidates, scene)))
    return [*found, *(action for action in held if action not in found)]


def _held_and_reached(
    action: Action, evidence: Mismatch, old: frozenset[int], candidates: CandidateTable, scene: Scene
) -> list[Action]:
    """The other reading of a move found with an old lift set apart: the old lift was the mover's
    piece, held as long as they thought, and it is what landed; the move's own lifts are the next
    player reaching early, after the held piece went up and before it came down (docs/tracker.md,
    "What hands can do"). Age tells the two apart no better than a held piece against a carried one
    (`evidence.either_held`), so where a move of the old lift fits the landing, both are readings."""
    own = candidates.mismatch(action)
    expected = scene.expected
    reached = frozenset(pair for pair in own if left(expected[pair[0]], pair[1]) and pair[0] not in old)
    landings = ends(own, expected)[1]
    if not reached or not landings or not any(left(expected[ch], value) for ch, value in evidence if ch in old):
        return []
    landed = min(scene.dating.until[channel] for channel in landings)
    if any(scene.dating.since[channel] > landed for channel, _ in reached):
        return []  # lifted after the landing: the next player's start, judged as such
    rest = evidence - reached
    found = ordered(list(candidates.matching(rest, scene.masked)), candidates, scene)
    return [other for other in found if other != action and candidates.channels(other) & old]


def _two_moves(action: Action, evidence: Mismatch, candidates: CandidateTable, scene: Scene) -> bool:
    """Whether what `action` leaves of the evidence is itself a legal move, on fields of its own: a
    lone arrival it would set apart is then as well that move's landing (its lift unseen: a piece
    taken off a stack, or a field emptied and filled again), and the board shows two moves, the
    next player's among them, not one move and a stray."""
    rest = evidence - candidates.mismatch(action)
    if not rest or candidates.channels(action) & {channel for channel, _ in rest}:
        return False
    return bool(fresh(list(candidates.matching(rest, scene.masked)), candidates, scene))


def set_apart(
    evidence: Mismatch,
    old: frozenset[int],
    table: CandidateTable,
    masked: Collection[int],
    kept: Collection[int] = (),
) -> list[Action]:
    """The actions of `table` the evidence shows with the old changes set apart, or failing those
    (none is old, or the recent changes are no move: the old ones may be the move, and a sensor
    that stuck on since the recent change) with each lone arrival set apart in turn (`strays`),
    never one on `kept`."""
    if old and (found_beside := beside(evidence, old, table, masked)):
        return found_beside
    found: dict[Action, None] = {}
    for stray in strays(evidence, table.expected):
        if stray not in kept:
            found.update(dict.fromkeys(beside(evidence, frozenset((stray,)), table, masked)))
    return list(found)


def strays(evidence: Mismatch, expected: Sequence[int]) -> list[int]:
    """The channels where a piece came and none left, when there is more to the evidence than that:
    each may be a piece no lift pairs with (see `apart`)."""
    if len(evidence) < 2:
        return []
    return sorted(ch for ch, value in evidence if arrived_only(expected[ch], value))


def arrived_only(was: int, now: int) -> bool:
    """Whether a field that read `was` and now reads `now` gained a piece and lost none."""
    return came(was, now) and not left(was, now)


def beside(evidence: Mismatch, aside: frozenset[int], table: CandidateTable, masked: Collection[int]) -> list[Action]:
    """The actions of `table` the evidence shows with the changes on `aside` set apart: none of
    them may touch those fields (a change on a move's own field is never apart from it)."""
    recent = frozenset(pair for pair in evidence if pair[0] not in aside)
    if not recent:
        return []
    found = table.matching(recent, {*masked, *aside})
    return [action for action in found if not table.channels(action) & aside]


def then_next(
    candidates: CandidateTable,
    scene: Scene,
    table: Callable[[State], CandidateTable],
    against: Callable[[tuple[int, ...]], Mismatch],
) -> list[ThenMove]:
    """The move acknowledged a moment ago (failing one, each move asked about in this position and
    not answered yet), then a whole move of the next player after it (failing that, an old change
    elsewhere or a lone arrival set aside, as in `apart`: a second move that explains the old
    change as well, on its own field, is the better reading). Asked beside a move that alone shows
    the same (the piece moved on at once), and the explanation when nothing else fits (the board
    changed during the first move's settle time). Never two moves that undo each other where the
    board shows the position but for such changes: nothing happened."""
    if scene.acknowledged is not None:
        firsts, landed_by = [scene.acknowledged], scene.acknowledged_at
    else:  # the moves asked about in this position, unanswered: one of them was made
        firsts, landed_by = list(scene.asked), None
    found: list[ThenMove] = []
    for first in firsts:
        if candidates.is_legal(first):
            following, seconds = _after(first, candidates, scene, table(candidates.successor(first)), against)
            lifted = _still_lifted(first, candidates, scene)
            found += [
                ThenMove(first, second)
                for second in in_turn(candidates.expected, following, seconds, scene, landed_by)
                if began_after(lifted, _lifts(second, following, scene), scene.dating)
            ]
    return found


def _still_lifted(action: Action, candidates: CandidateTable, scene: Scene) -> list[int]:
    """The channels `action` lifts a piece off that still read so (a field the next move fills
    again has a later time than the lift's)."""
    return [
        channel
        for channel, value in scene.unmasked(candidates.mismatch(action))
        if left(candidates.expected[channel], value) and scene.mismatch.get(channel) == value
    ]


def _after(
    first: Action,
    candidates: CandidateTable,
    scene: Scene,
    following: CandidateTable,
    against: Callable[[tuple[int, ...]], Mismatch],
) -> tuple[CandidateTable, list[Action]]:
    """The next player's whole moves the board shows after `first` (see `then_next`)."""
    evidence = against(following.expected)
    if not evidence:
        return following, []
    found = following.matching(evidence, scene.masked)
    if not found:
        old = _old(scene, candidates)
        expected = scene.expected
        if all(ch in old or arrived_only(expected[ch], value) for ch, value in scene.mismatch.items()):
            return following, []
        found = set_apart(evidence, old, following, scene.masked)
    return following, found


def two_moves(
    evidence: Mismatch,
    candidates: CandidateTable,
    scene: Scene,
    table: Callable[[State], CandidateTable],
    against: Callable[[tuple[int, ...]], Mismatch],
) -> list[ThenMove]:
    """The board shows two whole moves on fields of their own, and no move was shown a moment ago
    (`then_next` reads that case): a move of the player on turn, then one of the next player after
    it, as the sensors saw them in turn. One of them may be a lone arrival (its lift unseen: a piece
    taken off a stack under a presence sensor, or a field emptied and filled again), perhaps old (a
    question about it nobody answered), which `apart` would otherwise set apart as a stray or an
    old change; or the next player reached early, so no moment showed the first move alone (their
    lift came before its landing, which then fitted their piece as well); but never older than this
    player's turn (`fresh`: a sensor that stuck on before the last move was made is no move of this
    player's). Each such reading is asked."""
    if scene.acknowledged is not None:
        return []
    firsts: dict[Action, None] = {}
    for action in set_apart(evidence, _old(scene, candidates), candidates, scene.masked):
        if _two_moves(action, evidence, candidates, scene):
            firsts[action] = None
            firsts.update(dict.fromkeys(candidates.matching(evidence - candidates.mismatch(action), scene.masked)))
    found: list[ThenMove] = []
    for first in fresh(list(firsts), candidates, scene):  # (made in this player's turn)
        found += then_next(candidates, replace(scene, acknowledged=first, acknowledged_at=None), table, against)
    return found + _reached_early(evidence, candidates, scene, table, against)


def _reached_early(
    evidence: Mismatch,
    candidates: CandidateTable,
    scene: Scene,
    table: Callable[[State], CandidateTable],
    against: Callable[[tuple[int, ...]], Mismatch],
) -> list[ThenMove]:
    """Two whole moves in turn with no moment that showed the first alone: the next player lifted
    their piece before the first landed (two hands at the seam, one piece in each). Only pieces
    surely carried: a piece that may have slid to the field beside may have been knocked, and
    knocks.py reads slides."""
    found: list[ThenMove] = []
    expected = candidates.expected
    lifts, arrivals = ends(evidence, expected)
    if len(evidence) != 4 or len(lifts) != 2 or len(arrivals) != 2:
        return found  # one piece carried by each of two hands: two fields left, two reached
    if knock_beside_a_move(evidence, candidates, scene):
        return found  # a reading as well (knocks.py)
    firsts: list[Action] = []
    for lift in lifts:
        for arrival in arrivals:
            part = frozenset(pair for pair in evidence if pair[0] in (lift, arrival))
            firsts += [a for a in candidates.matching(part, scene.masked) if _carried(a, candidates, scene)]
    for first in fresh(firsts, candidates, scene):
        following = table(candidates.successor(first))
        readings = then_next(candidates, replace(scene, acknowledged=first, acknowledged_at=None), table, against)
        lifted = _lifts(first, candidates, scene)
        found += [
            reading
            for reading in readings
            if _carried(reading.second, following, scene)
            and began_after(lifted, _lifts(reading.second, following, scene), scene.dating)
        ]
    return found


def knock_beside_a_move(evidence: Mismatch, candidates: CandidateTable, scene: Scene) -> bool:
    """Whether the evidence reads as well as a piece that slid to the field beside (perhaps knocked)
    and one legal move of the player on turn with the rest: then two moves read from it are not the
    only reading, since which lifted piece went where is a guess."""
    expected = candidates.expected
    lifts, arrivals = ends(evidence, expected)
    for lift in lifts:
        for arrival in arrivals:
            part = frozenset(pair for pair in evidence if pair[0] in (lift, arrival))
            slid = part != evidence and not surely_carried(part, expected, scene.dating, scene.beside)
            if slid and candidates.matching(evidence - part, scene.masked):
                return True
    return False


def _lifts(action: Action, candidates: CandidateTable, scene: Scene) -> list[int]:
    """The channels the action lifts a piece off (as the sensors see it)."""
    return ends(scene.unmasked(candidates.mismatch(action)), candidates.expected)[0]


def _carried(action: Action, candidates: CandidateTable, scene: Scene) -> bool:
    """Whether the action moves one piece (or one stack) and the sensors show it surely carried by a
    hand, landing after it left (a capture moves two, and what its fields show may be other hands')."""
    if len({(move.origin, move.target) for move in candidates.footprint(action).moves}) != 1:
        return False
    evidence, expected = scene.unmasked(candidates.mismatch(action)), candidates.expected
    return surely_carried(evidence, expected, scene.dating, scene.beside) and in_order(
        evidence, expected, scene.dating, scene.beside
    )


def in_turn(
    before: Sequence[int], following: CandidateTable, seconds: list[Action], scene: Scene, landed_by: int | None = None
) -> list[Action]:
    """The moves of `seconds` that can have followed the change from the readings `before` to the
    position of `following` (a move, or a correction, that had landed by `landed_by` if known):
    none ended before that change had landed, and each could have been made in the order the
    sensors saw (`ordered`: its piece did not land before it left)."""
    if not seconds:
        return []
    first = [ch for ch, value in enumerate(following.expected) if value != before[ch] and ch not in scene.masked]
    return [
        second
        for second in ordered(seconds, following, scene)
        if one_after_other(first, [ch for ch, _ in scene.unmasked(following.mismatch(second))], scene.dating, landed_by)
    ]


def sensed_in_turn(
    readings: Sequence[int], candidates: CandidateTable, scene: Scene, table: Callable[[State], CandidateTable]
) -> list[ThenMove]:
    """Where the board read a knock and, so read, nothing fits: the readings as the sensors have them
    as a move of the player on turn, then a whole move of the next player after it. The next player
    reaching early beside the mover's landing lifts a piece just before it lands, which reads as the
    start of a slide there (a slide takes anything up to its time); their piece landing later, too
    late for a slide, shows the two moves. Each such reading is asked (the knock fits as well)."""
    sensed = differences(readings, candidates.expected, scene.masked)
    found: list[ThenMove] = []
    for first in candidates.actions:
        own = scene.unmasked(candidates.mismatch(first))
        if not own or not own < sensed:
            continue
        following = table(candidates.successor(first))
        seconds = following.matching(differences(readings, following.expected, scene.masked), scene.masked)
        found += [ThenMove(first, second) for second in in_turn(candidates.expected, following, seconds, scene)]
    return found


def corrected_as_reached(
    window: CorrectionWindow,
    evidence: Mismatch,
    scene: Scene,
    table: Callable[[State], CandidateTable],
    against: Callable[[tuple[int, ...]], Mismatch],
) -> list[ThenMove]:
    """The last move's piece moved on (a correction of it), then a whole move of the next player,
    who reached for their piece before the moved-on piece came down: the mover let go on the way,
    picked the piece up again and went on, and the next player, seeing it let go, began (two hands
    at the seam: a reply begins once the move it answers has, and lands after it). No moment showed
    the correction alone, so `corrections` sees the next player started and offers none; read as
    two moves in turn, each such reading is asked like any other. The reply may land on the field
    let go on: the board then reads as the last move made, but that field was touched again."""
    since = scene.dating.since
    if not any(channel in window.channels for channel, _ in evidence) and all(
        since[channel] <= window.made_at for channel in window.channels
    ):
        return []  # the last move's fields untouched since: nothing moved on
    before = table(window.before)
    shown = against(before.expected)
    if len(shown) < 4:
        return []
    moved_on = [
        action
        for action in window.alternatives(before.reaching_any(window.channels))
        if (own := scene.unmasked(before.mismatch(action))) and own < shown
    ]
    start = replace(scene, expected=before.expected, mismatch=dict(shown))
    found: list[ThenMove] = []
    for correction in ordered(moved_on, before, start):
        following = table(before.successor(correction))
        rest = against(following.expected)
        seconds = following.matching(rest, scene.masked) if rest else []
        found += [
            ThenMove(Correction(correction), second) for second in in_turn(before.expected, following, seconds, start)
        ]
    return found


def moved_on_as_reached(
    window: CorrectionWindow,
    scene: Scene,
    table: Callable[[State], CandidateTable],
    against: Callable[[tuple[int, ...]], Mismatch],
) -> list[Action]:
    """The last move's piece moved on (a correction of it) while the next player's hand is at a
    piece of theirs, lifted before the moved-on piece came down: `corrections` sees the next player
    started and offers none, and an old lift of the moved-on piece would otherwise be set apart, the
    landing read as the reached piece's move. Only a hand that began after the moved-on piece left a
    field of the last move: one that began before it had started its turn (no correction then). The
    corrections the board shows with those lifts left out, each a reading beside any other
    (`corrected_as_reached` once the reply lands)."""
    expected, since = scene.expected, scene.dating.since
    departures, landings = ends(frozenset(scene.mismatch.items()), expected)
    lifts = {channel for channel in departures if channel not in window.channels}
    moved = [ch for ch in scene.mismatch if ch in window.channels]  # the last move's fields, changed again
    if not lifts or not landings or not moved:
        return []
    first, last = min(since[ch] for ch in lifts), max(since[ch] for ch in lifts)
    if first < min(since[ch] for ch in moved) or last > min(since[ch] for ch in landings):
        return []  # the next player began first (no correction then), or their piece is down
    before = table(window.before)
    shown = frozenset(pair for pair in against(before.expected) if pair[0] not in lifts)
    if not shown:
        return []
    committed = before.mismatch(window.action)
    found = [
        action
        for action in window.alternatives(before.matching(shown, scene.masked))
        if before.mismatch(action) != committed
    ]
    rest = frozenset(pair for pair in scene.mismatch.items() if pair[0] not in lifts)
    return found if found and in_order(scene.unmasked(rest), expected, scene.dating, scene.beside) else []


def at_the_seam(
    window: CorrectionWindow,
    evidence: Mismatch,
    scene: Scene,
    table: Callable[[State], CandidateTable],
    against: Callable[[tuple[int, ...]], Mismatch],
) -> list[ThenMove | Correction]:
    """The last move's piece moved on while the next player reached for theirs (two hands at the
    seam): the correction then the reply once the reply is down, the correction alone while it is
    in the air. Read only where no moment showed the correction alone."""
    reached = moved_on_as_reached(window, scene, table, against)
    return [*corrected_as_reached(window, evidence, scene, table, against), *map(Correction, reached)]
