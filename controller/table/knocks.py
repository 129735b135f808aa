"""Knocked pieces: a piece the hand bumps one field over while it puts another piece down.

What the sensors can tell (docs/tracker.md, "The evidence model"): a person moves a piece on purpose
by lifting it, carrying it and setting it down, which takes a tenth of a second or more between its
leaving one field and arriving on another. A knocked piece *slides*: it leaves a field and lands on
the field beside it within a few tens of milliseconds. One hand puts down one piece at a time, so a
standing piece that slides next to where a piece is being put down (just before it lands, or just
after) was bumped by that hand: nobody moved it on purpose.

A knock changes nothing in the game. `KnockWatch` recognises it from the stable changes and their
times, and from then on the matching sees the board as it was before the knock (`overrides`), while
the LEDs ask for the knocked piece to be put back. Putting it back ends the knock; so does the piece
going anywhere else, or a long time passing (then the board is read as it is).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from controller.games import Cell
from controller.table.board import BoardMap
from controller.table.evidence import SLIDE_MS, came, left
from controller.table.tracker_types import HintKind

NEVER = -(10**9)  # a change whose reading before it has no known start
TIE_MS = 10  # arrivals this close in time cannot be told apart (one scan)
BOUNCE_MS = 25  # contact bounce may date a lift this much after the piece really left
KNOCK_MS = 200  # ... this close (before or after) to the hand putting a piece down next to it
# A hand that has put a piece down may still bump its neighbour while it lets go and withdraws,
# this long after; by then the next player may as well be sliding that piece on purpose (a fast
# reply starts 40-700 ms after the last placement). Both fit: such a slide is asked, never taken.
# The same holds the other way round: a hand on its way may bump a piece this long before it puts
# its own down beside it, so a slide read as a move is not taken before it is this old.
DOUBT_MS = 700
STANDING_MS = 500  # the knocked piece had been standing still at least this long
FORGET_MS = 10_000  # a knocked piece not put back in this long: the board is read as it is
RECENT_MS = 1_000  # how long changes are remembered for pairing


@dataclass(frozen=True)
class Change:
    """A stable change of one sensor channel, dated by the raw change that started it.

    The sensors date a change only to within its episode: the raw readings that went back and forth
    before it held (a flicker just before a piece landed, the bounce of a contact) are all part of
    it, so the hand acted at some moment from the first of them to the last (`latest`)."""

    channel: int
    before: int
    after: int
    at: int
    before_since: int = NEVER  # when the reading it replaced began
    # The earliest it may have happened, where the scanner was silent before it was seen (an
    # outage): any time from then to `at`. None: at `at`, to a scan.
    earliest: int | None = None
    latest: int | None = None  # the last raw change of its episode, where later than `at`

    @property
    def first_possible(self) -> int:
        return self.at if self.earliest is None else self.earliest

    @property
    def last_possible(self) -> int:
        return self.at if self.latest is None else self.latest

    @property
    def arrival(self) -> bool:
        """A piece (or one more piece) arrived on the field."""
        return came(self.before, self.after)

    @property
    def departure(self) -> bool:
        """A piece (or one of a stack) left the field."""
        return left(self.before, self.after)


@dataclass(frozen=True)
class Knock:
    """A piece knocked from `origin` onto `aside`, with both channels' readings before the knock."""

    origin: int
    aside: int
    before: tuple[int, int]  # readings of origin and aside before the knock
    at: int
    landing: Change | None = None  # the knocked piece's arrival beside its field
    # Arrivals beside the origin at the very same moment as `aside`: the sensors cannot tell which
    # one was the knocked piece and which the hand's, so both wait until the piece is back home.
    also: tuple[tuple[int, int], ...] = ()
    # Other fields beside the origin that filled within a slide's time of it leaving (not the
    # hand's piece back where it left a moment ago): no time tells which landing was the knocked
    # piece's and which the hand's, so a move onto one of them is asked, never taken alone.
    tied: frozenset[int] = frozenset()
    dated: tuple[int, int] = (NEVER, NEVER)  # when origin's and aside's readings before the knock began
    # Landings beside the origin that may have ended its slide but were taken for the hand's piece
    # back on a field it had just emptied: the knocked piece may have gone there instead.
    handed: tuple[Change, ...] = ()


class KnockWatch:
    """Recognises knocked pieces from stable changes (see the module docstring) and keeps the board
    as it was before each knock until the piece is back."""

    def __init__(
        self, cell_of_channel: Mapping[int, Cell], neighbours: Callable[[Cell], Iterable[Cell]], debounce_ms: int = 0
    ) -> None:
        channel_of = {cell: channel for channel, cell in cell_of_channel.items()}
        self._beside: dict[int, frozenset[int]] = {
            channel: frozenset(channel_of[other] for other in neighbours(cell) if other in channel_of)
            for channel, cell in cell_of_channel.items()
        }
        self._cells = cell_of_channel
        # A slide waits KNOCK_MS for a placement beside it, and that placement is known only once
        # its reading has settled: it is kept this much longer.
        self._slide_wait = KNOCK_MS + debounce_ms
        self._recent: list[Change] = []
        self._last_change: dict[int, int] = {}
        self._slides: list[tuple[Change, Change]] = []  # slides not (yet) known to be knocks
        # Slides that began KNOCK_MS to DOUBT_MS after a piece was put down beside them: a late
        # knock or the next player's slide, until the piece goes back or the players say.
        self._doubtful: list[tuple[Change, Change]] = []
        # Slides no piece was put down beside within KNOCK_MS, younger than DOUBT_MS: read as moves,
        # but a hand still on its way may land beside them (it knocked the piece early), which
        # makes them doubtful. Not taken before they are DOUBT_MS old.
        self._settling: list[tuple[Change, Change]] = []
        self._restored: dict[int, int] = {}  # channel -> when a knocked piece was put back on it
        # Fields a knocked piece has left again (home, or put back on its own field): their reading
        # is the one they had before the knock, dated as it was then (`take_redated`).
        self._redated: dict[int, int] = {}
        self._together: list[int] = []  # when pieces that slid at once left (read as they are)
        self._homing: list[Change] = []  # a knocked piece lifted from beside its field, and put back
        # Fields of the last move taken whose readings no hand changed this turn (a Catcher put on a
        # stack, a piece swapped for a like one): a hand was there unseen, at some moment from the
        # turn's start to the move's taking, dated so (a placement as far as knocks go).
        self._unseen_placements: list[Change] = []
        self.turn_began = 0  # when the last move was taken (board time): the turn since
        self._returning: dict[int, int] = {}  # channel -> its reading once a doubtful slide's piece is back
        self.knocks: list[Knock] = []
        # Fields whose sensor is out where the move the board shows or asks about puts a piece: a
        # hand may be there unseen, so a slide beside one is its knock.
        self.unseen_hands: frozenset[int] = frozenset()

    def beside(self, one: int, other: int) -> bool:
        """Whether the fields of two channels are neighbours (a piece may slide from one to the other)."""
        return other in self._beside.get(one, frozenset())

    @property
    def overrides(self) -> dict[int, int]:
        """Channel -> the reading the matching uses instead of the sensor's: the board before a knock,
        and before a slide that may yet turn out to be one (a piece put down beside it within
        KNOCK_MS): until then the board waits rather than take the slide for a move."""
        found: dict[int, int] = {}
        for departure, arrival in self._slides:
            found.setdefault(departure.channel, departure.before)
            found.setdefault(arrival.channel, arrival.before)
        for knock in self.knocks:
            if knock.origin >= 0:
                found.setdefault(knock.origin, knock.before[0])
            if knock.aside >= 0:
                found.setdefault(knock.aside, knock.before[1])
            for channel, before in knock.also:
                found.setdefault(channel, before)
        return found

    def hints(self) -> dict[Cell, HintKind]:
        """Where the knocked pieces lie (take them off) and where they belong (put them back)."""
        hints: dict[Cell, HintKind] = {}
        for knock in self.knocks:
            if knock.aside in self._cells:
                hints[self._cells[knock.aside]] = "remove"
            if knock.origin in self._cells:
                hints[self._cells[knock.origin]] = "place"
        return hints

    def observe(self, changes: Iterable[Change], now: int) -> list[Knock]:
        """Feed the stable changes of one scan; the knocks they complete."""
        found: list[Knock] = []
        for change in sorted(changes, key=lambda c: (c.at, c.arrival)):  # at one time: a piece leaves, then lands
            homing = self._end_knocks(change)
            if homing:
                self._homing.append(change)  # a knocked piece taken home: neither end of a slide
            standing_since = self._last_change.get(change.channel)
            self._last_change[change.channel] = change.at
            self._recent.append(change)
            knocked: list[Knock] = []
            if change.arrival and not homing:
                knocked = self._slide_to(change, standing_since)
            elif change.departure and not homing:
                knocked = self._slide_from(change, standing_since)
            if change.arrival and not knocked and change not in self._landings():
                knocked = self._anchored(change)  # a sliding piece's landing is no hand putting one down
            self.knocks += knocked
            found += knocked
        horizon = now - RECENT_MS
        self._recent = [c for c in self._recent if c.at >= horizon]
        self._unseen_placements = [c for c in self._unseen_placements if c.at >= horizon]
        self._together = [at for at in self._together if at >= horizon]
        self._homing = [c for c in self._homing if c.at >= horizon]
        return [knock for knock in found if knock in self.knocks]  # (a slide beside it may undo one)

    def _redate(self, channel: int, since: int) -> None:
        if since != NEVER:
            self._redated[channel] = since

    def take_redated(self) -> dict[int, int]:
        """The fields a knocked piece left again since the last call, each with when its reading
        began before the knock: the knocked piece's visit was no hand's change there, so the
        field is judged by the change a hand made (the mover's lift off the field a piece was
        knocked back onto, once that piece goes home)."""
        redated, self._redated = self._redated, {}
        return redated

    def expire(self, now: int) -> bool:
        """Forget knocks nobody put right for FORGET_MS, and slides no piece was put down beside
        within KNOCK_MS (a piece moved by sliding it); True if the board is to be read afresh."""
        kept = [k for k in self.knocks if now - k.at < FORGET_MS]
        slides = [pair for pair in self._slides if now - pair[0].at < self._slide_wait]
        expired = len(kept) != len(self.knocks) or len(slides) != len(self._slides)
        self._settling += [pair for pair in self._slides if pair not in slides and pair not in self._doubtful]
        self._settling = [pair for pair in self._settling if now - pair[0].at < DOUBT_MS]
        self.knocks = kept
        self._slides = slides
        return expired

    def forget(self) -> None:
        """A new game, or the board read afresh: no knock is outstanding."""
        self.knocks = []
        self._slides = []
        self._doubtful = []
        self._settling = []
        self._restored = {}
        self._redated = {}
        self._returning = {}
        self._together = []
        self._homing = []
        self._unseen_placements = []

    def moved(self, channels: frozenset[int], unseen: frozenset[int] = frozenset(), now: int | None = None) -> None:
        """The game took a move on these fields: a knock or slide there is over, its piece is the
        move's now (a knocked piece picked up and moved on, say), and the board is read as it is.
        `unseen`: the move's fields whose readings no hand changed this turn; a hand was there, at
        some moment of the turn, and a piece that slides beside one may be its knock."""
        if now is not None:
            self._unseen_placements = [Change(channel, 0, 1, now, earliest=self.turn_began) for channel in unseen]
            self.turn_began = now

        def apart(pair: tuple[Change, Change]) -> bool:
            return pair[0].channel not in channels and pair[1].channel not in channels

        self.knocks = [k for k in self.knocks if k.origin not in channels and k.aside not in channels]
        self._slides = [pair for pair in self._slides if apart(pair)]
        self._doubtful = [pair for pair in self._doubtful if apart(pair)]
        self._settling = [pair for pair in self._settling if apart(pair)]

    def doubts(self, channels: frozenset[int]) -> bool:
        """Whether a move on `channels` is a slide that may as well be a late knock (DOUBT_MS), or
        lands where a knocked piece may have landed instead (`Knock.tied`), or moves a piece on a
        knock's own fields: the readings the board took for a knock, which a move may leave too."""
        return any(
            departure.channel in channels and arrival.channel in channels for departure, arrival in self._doubtful
        ) or any(knock.tied & channels or {knock.origin, knock.aside} & channels for knock in self.knocks)

    def settles_at(self, channels: frozenset[int]) -> int:
        """When a move on `channels` that is a slide read as a move may be taken: once no hand can
        land beside it any more as the one that knocked it (DOUBT_MS); 0 for other moves."""
        return max(
            (d.at + DOUBT_MS for d, a in self._settling if d.channel in channels and a.channel in channels), default=0
        )

    @property
    def next_expiry(self) -> int | None:
        times = [k.at + FORGET_MS for k in self.knocks] + [pair[0].at + self._slide_wait for pair in self._slides]
        return min(times, default=None)

    # --- recognising --------------------------------------------------------------------------
    def _slide_to(self, arrival: Change, _arrived_since: int | None) -> list[Knock]:
        beside = self._beside.get(arrival.channel, frozenset())
        departures = [  # a piece lands after it leaves, never before (but for the bounce of the lift)
            c
            for c in self._recent[:-1]
            if c.channel in beside and c.departure and _within_slide(c, arrival) and c not in self._homing
        ]
        if not departures:
            return []
        # Of pieces that left within a slide's time, one just put down was lifted by the hand (its
        # own slide would leave the other lift to a second hand); the one that had stood still is
        # the piece it bumped; one whose slide has already ended beside it did not end here. Of
        # pieces that left at the same moment, one beside a field a hand put a piece on lately may
        # have been knocked: no time tells them apart, and that reading is the one that doubts.
        departure = min(
            departures,
            key=lambda c: (
                self._just_put_down(c),
                self._partner_of(c) is not None,
                _apart(c, arrival),
                len(departures) > 1 and not self._arrived_beside(c, arrival, -KNOCK_MS, DOUBT_MS, surely=False),
            ),
        )
        partner = self._partner_of(departure)
        if partner is not None and self._landing_rank(departure, partner) <= self._landing_rank(departure, arrival):
            return []  # that piece already slid to a field nearer in time: this one was put down
        self._repair(departure, arrival)
        return self._slid(departure, arrival)

    def _partner_of(self, departure: Change) -> Change | None:
        """The arrival a departure is already paired with, as a slide or a knock."""
        for first, second in self._slides:
            if first == departure:
                return second
        for knock in self.knocks:
            if knock.origin == departure.channel and knock.at == departure.at:
                return knock.landing
        return None

    def _slide_from(self, departure: Change, standing: int | None) -> list[Knock]:
        beside = self._beside.get(departure.channel, frozenset())
        arrivals = [  # a piece lands after it leaves, never before (but for the bounce of the lift)
            c
            for c in self._recent[:-1]
            if c.channel in beside
            and c.arrival
            and _within_slide(departure, c)
            and c not in self._homing
            and not self._landed_already(departure, c)
        ]
        if not arrivals:
            return []
        return self._slid(departure, min(arrivals, key=lambda c: self._landing_rank(departure, c)), standing)

    def _landing_rank(self, departure: Change, arrival: Change) -> tuple[bool, float]:
        """How likely `arrival` is the end of the slide that `departure` began (lower: likelier). A
        field a hand emptied a moment ago gets the hand's piece back, not a sliding one; then the
        nearer in time."""
        return self._emptied_just_before(arrival), _apart(departure, arrival)

    def _landed_already(self, departure: Change, arrival: Change) -> bool:
        """Whether `arrival` already ended another piece's slide: one piece lands once, so the
        piece that left with `departure` was lifted, not slid there."""
        started = (departure.channel, departure.at)
        return any(landing == arrival and start != started for start, landing in self._slid_pieces())

    def _repair(self, departure: Change, arrival: Change) -> None:
        """A departure already paired with an arrival further off in time belongs with this one: the
        other arrival was a piece put down (the hand's), not the slide's end."""
        self._slides = [pair for pair in self._slides if pair[0] != departure]
        self.knocks = [k for k in self.knocks if not (k.origin == departure.channel and k.at == departure.at)]

    def _slid(self, departure: Change, arrival: Change, standing: int | None = None) -> list[Knock]:
        """A slide of one piece: a knock if a piece was put down beside it at about the same time."""
        if standing is None:
            standing = self._standing_before(departure)
        if (
            standing is not None
            and departure.at - standing < STANDING_MS
            and self._restored.get(departure.channel) != standing
            and not self._arrived_beside(departure, arrival, BOUNCE_MS, departure.at - standing - 1)
            and not self._arrived_beside(departure, arrival, 1, BOUNCE_MS, surely=False)
        ):
            # The piece had only just arrived there: a hand is moving it (not one put back after a
            # knock, nor one another piece was put down beside since, before this slide began: its
            # own hand is done with it; nor one beside which a piece came down the scan before it
            # left, too close to tell by a lift's bounce which came first: a hand holds one piece,
            # so that was another hand's, which knocked it).
            return []
        slides_now = [pair for pair in self._slides if abs(pair[0].at - departure.at) <= SLIDE_MS]
        knocks_now = [k for k in self.knocks if k.origin != departure.channel and abs(k.at - departure.at) <= SLIDE_MS]
        if slides_now or knocks_now or any(abs(at - departure.at) <= SLIDE_MS for at in self._together):
            # Several pieces slide at once: a board part carried with its pieces, or one slid by
            # hand beside one knocked; no time tells which. The board is read as the sensors have it.
            self._together += [departure.at, *(pair[0].at for pair in slides_now), *(k.at for k in knocks_now)]
            self._slides = [pair for pair in self._slides if pair not in slides_now]
            self.knocks = [k for k in self.knocks if k not in knocks_now]
            return []
        slide = (departure, arrival)
        self._slides.append(slide)
        if self._anchor_for(departure, arrival):
            return [self._knock(departure, arrival)]
        # A piece that slid beside it at about the same time may have been the hand's move and this
        # its knock, or this the hand's move and that its knock on the way, or this the next
        # player's move: each of the two slides is asked, never taken.
        slid_beside = [
            pair
            for pair in [*self._slides, *self._settling]
            if pair != slide and (self._beside_slide(pair, departure) or self._beside_slide(slide, pair[0]))
        ]
        if slid_beside or self._arrived_beside(departure, arrival, -KNOCK_MS, DOUBT_MS, surely=False):
            self._doubtful += [slide, *(pair for pair in slid_beside if pair not in self._doubtful)]
            self._settling = [pair for pair in self._settling if pair not in slid_beside]
        return []

    def _beside_slide(self, slide: tuple[Change, Change], departure: Change) -> bool:
        """Whether `slide` landed beside the field `departure` left, within KNOCK_MS of it."""
        landing = slide[1]
        return (
            self.beside(departure.channel, landing.channel)
            and landing.channel != departure.channel
            and abs(departure.at - landing.at) <= KNOCK_MS
        )

    def _just_put_down(self, departure: Change) -> bool:
        standing = self._standing_before(departure)
        return standing is not None and departure.at - standing < STANDING_MS

    def _standing_before(self, departure: Change) -> int | None:
        earlier = [c.at for c in self._recent if c.channel == departure.channel and c.at < departure.at]
        return max(earlier, default=None)

    def _anchored(self, placement: Change) -> list[Knock]:
        """A piece put down: any slide just before it, beside it, was its hand's knock; one up to
        DOUBT_MS before it may have been (the hand on its way knocked it early), so it is asked."""
        found = []
        for pair in [*self._slides, *self._settling]:
            departure, arrival = pair
            if placement.channel in (departure.channel, arrival.channel):
                continue
            if departure.channel not in self._beside.get(placement.channel, frozenset()):
                continue
            known = any(k.origin == departure.channel for k in self.knocks)
            least, most = _gap_range(placement, departure)
            if pair in self._slides and least >= -KNOCK_MS and most <= KNOCK_MS and not known:
                found.append(self._knock(departure, arrival))
            elif least <= DOUBT_MS and most > KNOCK_MS:
                self._slides = [other for other in self._slides if other != pair]
                self._settling = [other for other in self._settling if other != pair]
                self._doubtful.append(pair)
        return found

    def _anchor_for(self, departure: Change, arrival: Change) -> bool:
        """Whether a piece was put down beside the sliding piece within KNOCK_MS of it leaving,
        before or after: a slide whose end settles last is judged when it ends, so a placement that
        came between its start and its end counts too."""
        beside = self._beside.get(departure.channel, frozenset())
        unseen = any(channel in beside for channel in self.unseen_hands - {departure.channel, arrival.channel})
        landings = self._landings()  # a piece that slid there was put down by no hand
        return unseen or any(c not in landings for c in self._arrived_beside(departure, arrival, -KNOCK_MS, KNOCK_MS))

    def _slid_pieces(self) -> list[tuple[tuple[int, int], Change]]:
        """Each slide the board knows of, as (its field and time of leaving, its landing)."""
        pairs = [*self._slides, *self._settling, *self._doubtful]
        known = [((k.origin, k.at), k.landing) for k in self.knocks if k.landing is not None]
        return [((d.channel, d.at), a) for d, a in pairs] + known

    def slid_from(self) -> frozenset[int]:
        """The fields pieces slid from (knocked or not): no proof of whose hand, if any, moved them."""
        return frozenset(channel for (channel, _), _ in self._slid_pieces())

    def _landings(self) -> list[Change]:
        """The arrivals that ended a slide: pieces that slid there, none put down by a hand."""
        return [landing for _, landing in self._slid_pieces()]

    def _arrived_beside(
        self, departure: Change, arrival: Change, earliest: int, latest: int, surely: bool = True
    ) -> list[Change]:
        """The pieces that arrived beside the sliding piece from `earliest` to `latest` ms before it
        left (negative: after), whether put down by a hand or slid there: at every moment a scanner
        outage leaves open for either, or (not `surely`) at some such moment."""
        beside = self._beside.get(departure.channel, frozenset())
        found = []
        for change in [*self._recent, *self._unseen_placements]:
            if (
                not change.arrival
                or change.channel not in beside
                or change.channel in (departure.channel, arrival.channel)
            ):
                continue
            least, most = _gap_range(departure, change)
            if (earliest <= least and most <= latest) if surely else (least <= latest and most >= earliest):
                found.append(change)
        return found

    def _knock(self, departure: Change, arrival: Change) -> Knock:
        self._slides = [pair for pair in self._slides if pair != (departure, arrival)]
        self._doubtful = [pair for pair in self._doubtful if pair != (departure, arrival)]
        beside = self._beside.get(departure.channel, frozenset())
        # The other landings beside the knocked piece's field: in the same scan as its own (`also`),
        # or within a slide's time of it leaving (`tied`). A field the hand emptied a moment ago gets
        # the hand's piece back: no landing of a sliding piece.
        landings = [c for c in self._recent if c.arrival and c.channel in beside and c.channel != arrival.channel]
        others = [c for c in landings if not self._emptied_just_before(c)]
        also = tuple(
            (c.channel, c.before) for c in others if abs(c.at - arrival.at) <= TIE_MS and _within_slide(departure, c)
        )
        tied = frozenset(c.channel for c in others if _may_have_ended(departure, c))
        handed = tuple(c for c in landings if c not in others and _may_have_ended(departure, c))
        before, dated = (departure.before, arrival.before), (departure.before_since, arrival.before_since)
        return Knock(departure.channel, arrival.channel, before, departure.at, arrival, also, tied, dated, handed)

    def _emptied_just_before(self, arrival: Change) -> bool:
        """Whether a piece left the arrival's field less than STANDING_MS before it (the hand's)."""
        return any(
            c.channel == arrival.channel and c.departure and 0 <= arrival.at - c.at < STANDING_MS for c in self._recent
        )

    def _end_knocks(self, change: Change) -> bool:
        """The knocked piece put back (or gone elsewhere): its knock is over for that channel. True
        where the change takes a knocked piece home: lifted from beside its field, or put back."""
        homing = False
        self._slides = [pair for pair in self._slides if change.channel not in (pair[0].channel, pair[1].channel)]
        back = self._returning.pop(change.channel, None)
        if back is not None and change.after == back:
            self._restored[change.channel] = change.at  # a doubtful slide undone: the piece stands again
        for departure, arrival in self._doubtful:
            if change.channel == departure.channel and change.after == departure.before:
                self._restored[change.channel] = change.at
            elif change.channel == arrival.channel and change.after == arrival.before:
                self._returning[departure.channel] = departure.before  # taken off beside: on its way back
        self._doubtful = [pair for pair in self._doubtful if change.channel not in (pair[0].channel, pair[1].channel)]
        self._settling = [pair for pair in self._settling if change.channel not in (pair[0].channel, pair[1].channel)]
        kept = []
        for knock in self.knocks:
            also = tuple(pair for pair in knock.also if pair[0] != change.channel)
            if change.channel == knock.origin and change.after == knock.before[0]:
                self._restored[change.channel] = change.at  # it stands again: a hand may knock it anew
                self._redate(change.channel, knock.dated[0])
                for landing in knock.handed:  # the piece home came from there: its visit, not the hand's
                    there = [c for c in self._recent if c.channel == landing.channel and c.at > landing.at]
                    if there and max(there, key=lambda c: c.at).after == landing.before:  # it reads as before
                        self._redate(landing.channel, landing.before_since)
                homing = True
                continue  # back on its field: whatever stands beside it now is real
            if change.channel == knock.aside and change.after == knock.before[1]:
                # lifted from beside it
                homing = True
                self._redate(change.channel, knock.dated[1])
                knock = replace(knock, aside=-1, also=also)
            elif change.channel in (knock.origin, knock.aside):
                continue  # something else happened there: read the board as it is
            else:
                knock = replace(knock, also=also)
            if knock.origin != -1 or knock.aside != -1:
                kept.append(knock)
        self.knocks = kept
        return homing


def _gap_range(later: Change, earlier: Change) -> tuple[int, int]:
    """The least and the most time from `earlier` to `later` as the scanner saw them: each seen
    when it was, or (after an outage) any time during the silence before."""
    return later.first_possible - earlier.at, later.at - earlier.first_possible


def _gaps(departure: Change, arrival: Change) -> tuple[int, int]:
    """The least and the most time from a departure to an arrival (either may have happened any
    time during a scanner outage before it was seen, or during its episode's raw changes)."""
    return arrival.first_possible - departure.last_possible, arrival.last_possible - departure.first_possible


def _within_slide(departure: Change, arrival: Change) -> bool:
    """Whether the arrival may have ended a slide the departure began: within SLIDE_MS after it
    (or BOUNCE_MS before, for a lift its bounce dates late), and the same piece as far as the
    sensors tell (a polarity sensor sees a piece of the other pole arrive: not the one that left)."""
    least, most = _gaps(departure, arrival)
    return most >= -BOUNCE_MS and least <= SLIDE_MS and _same_pole(departure, arrival)


def _may_have_ended(departure: Change, arrival: Change) -> bool:
    """Whether the arrival may have been the end of the slide the departure began, as the sensors
    dated both: at or after it, within SLIDE_MS, the same piece as far as they tell."""
    least, most = _gaps(departure, arrival)
    return most >= 0 and least <= SLIDE_MS and _same_pole(departure, arrival)


def _same_pole(departure: Change, arrival: Change) -> bool:
    """Whether the piece that arrived may be the one that left: not where a polarity sensor saw
    the other pole arrive (other sensors cannot tell)."""
    return (departure.before - departure.after) * (arrival.after - arrival.before) >= 0


def _apart(departure: Change, arrival: Change) -> float:
    """How far apart in time a departure and an arrival are, as a slide (as near as an outage
    allows): an arrival after the departure is the likelier partner at equal distance (a lift is
    dated late by its bounce)."""
    least, most = _gaps(departure, arrival)
    gap = most if most < 0 else max(least, 0)
    return abs(gap) + (0.5 if gap < 0 else 0.0)


def neighbours_on(board: BoardMap) -> Callable[[Cell], Iterable[Cell]]:
    """The fields beside a field (a hand knocks a piece onto one of them): six on a hex board, the
    eight around it on a square one."""
    if board.profile.geometry == "hex":
        from controller.games.hexgrid import HexGrid

        return HexGrid(*board.profile.size).neighbours

    def around(cell: Cell) -> tuple[Cell, ...]:
        x, y = cell[0], cell[1]
        return tuple((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)

    return around
