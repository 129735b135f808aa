"""Virtual hands: carry out an action as the timed lift/place steps a person makes.

A plan is derived from the occupancy before and after the action (the same footprint the tracker
uses), then dressed with human habits, each drawn from a seeded generator: thinking time, lifting a
piece and putting it back, sliding over fields on the way, putting a piece on a wrong field first and
correcting it, and sending a captured piece home before or after the capturing piece lands.

The human behaviours (`HUMAN`, part of the `--noise low/high` mixes) go further, with timings from
how people move pieces: grazing the destination and taking the piece back, letting go on a wrong
legal field for 300-800 ms and then moving on, pausing seconds after sending a captured piece home,
holding a piece in the air for 5-9 s, replying 40-700 ms after the previous move (the harness starts
the next move early), and answering a confirmation request with the buttons. `counts` says how
often each was used.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

from controller.games import Cell, Occupancy, Piece
from controller.games.footprint import footprint

Op = Literal["lift", "place"]


@dataclass(frozen=True)
class HandStep:
    at: int  # milliseconds after the hand starts
    op: Op
    cell: Cell
    pieces: tuple[Piece, ...]


@dataclass(frozen=True)
class HandStyle:
    think_ms: tuple[int, int] = (200, 800)
    travel_ms: tuple[int, int] = (150, 400)
    hesitate: float = 0.1  # lift a piece and put it back first
    slide: float = 0.3  # touch fields on the way
    slide_dwell_ms: tuple[int, int] = (15, 120)
    wrong_field: float = 0.1  # put the piece on a wrong field first, then correct it
    wrong_dwell_ms: tuple[int, int] = (60, 200)  # shorter than the tracker's settle time
    victim_first: float = 0.5  # a captured piece goes home before the capturing piece lands
    # Human behaviours (off here; see HUMAN):
    graze: float = 0.0  # touch the destination 60-120 ms, take the piece back, think, then move
    graze_ms: tuple[int, int] = (60, 120)
    let_go: float = 0.0  # let go on another legal field 300-800 ms, then move on to the one meant
    let_go_ms: tuple[int, int] = (300, 800)
    victim_pause: float = 0.0  # after sending a captured piece home first, pause 2-3 s
    victim_pause_ms: tuple[int, int] = (2000, 3000)
    long_hold: float = 0.0  # hold the piece in the air 5-9 s before putting it down
    long_hold_ms: tuple[int, int] = (5000, 9000)
    think_long_ms: tuple[int, int] = (1000, 3000)  # the hesitation after a graze
    fast_reply: float = 0.0  # the next move starts 40-700 ms after this one's last placement
    fast_reply_ms: tuple[int, int] = (40, 700)
    # Cards (Zillo, Z-6): the player thinks, shows the card, then reaches for the piece this long after.
    card_lead_ms: tuple[int, int] = (100, 400)
    early_card: float = 0.0  # the next player shows their card while the last move settles
    early_card_ms: tuple[int, int] = (20, 400)  # after the last move's last placement
    buttons: float = 0.0  # answer a confirmation request with menu/confirm instead of the screen
    press_ms: tuple[int, int] = (250, 650)  # from seeing the wanted candidate to pressing confirm
    # Mishaps (sim/mishaps.py): the hand knocks a piece beside the field it puts a piece on, one field
    # over, 10-150 ms after the placement or just before it, and puts it back once it notices.
    knock: float = 0.0
    knock_ms: tuple[int, int] = (10, 150)
    knock_back_ms: tuple[int, int] = (400, 2500)
    # The player who has just moved lifts their piece again to look and puts it back, while the next
    # player thinks.
    touch: float = 0.0
    touch_ms: tuple[int, int] = (300, 3000)
    # A sensor fails (dies, sticks or comes loose) at some moment of the game: the chance per game.
    fault: float = 0.0
    # A player whose move the board does not take (a failed sensor under it) says it on the screen.
    declare_after_ms: int = 4000


CALM = HandStyle(hesitate=0.0, slide=0.0, wrong_field=0.0)
HUMAN = HandStyle(
    graze=0.08, let_go=0.08, victim_pause=0.3, long_hold=0.03, fast_reply=0.3, early_card=0.3, buttons=0.5
)  # the behaviours people show at a real table, for the noisy mixes
# The high noise mix adds the mishaps: knocked pieces, touches by the player who has just moved, and
# a sensor failing in some games.
CLUMSY = HandStyle(
    graze=0.08, let_go=0.08, victim_pause=0.3, long_hold=0.03, fast_reply=0.3, early_card=0.3, buttons=0.5,
    knock=0.05, touch=0.05, fault=0.3,
)  # fmt: skip
# Named styles for `tafel selfplay --physical --hands STYLE`: the noise mixes' own, and the high mix
# pushed past the ranges above, in one direction or two, to try the tracker on hands nobody tuned it to.
# Blitz: think and carry in a blink, and answer the last move at once nearly always.
# A piece is carried for half the travel time (the other half is the reach): 60-200 ms here, no faster
# than a hand lifts a piece, carries it past the next field and puts it down (evidence.CARRY_MS).
QUICK: dict[str, Any] = dict(think_ms=(50, 200), travel_ms=(120, 400), fast_reply=0.8, fast_reply_ms=(20, 300))
# A piece carried through the air for up to two seconds, after up to four of thought.
SLOW: dict[str, Any] = dict(think_ms=(500, 4000), travel_ms=(400, 2000))
# A knock in three moves of ten, up to 400 ms after the placement, put back after up to 5 s.
KNOCKY: dict[str, Any] = dict(knock=0.3, knock_ms=(0, 400), knock_back_ms=(100, 5000))
# Pieces let go on the way, grazed and set down on wrong fields often, and left there longer.
FUMBLING: dict[str, Any] = dict(graze=0.3, let_go=0.4, let_go_ms=(300, 1500), slide=0.6, slide_dwell_ms=(50, 400))
# A piece set down on the field beside the one meant, in three moves of ten, and left there until the
# LEDs say it is no move, or another one (0.8-3 s), then carried on: a miscount.
MISCOUNT: dict[str, Any] = dict(wrong_field=0.3, wrong_dwell_ms=(800, 3000))
HAND_STYLES: dict[str, HandStyle] = {
    "calm": CALM,
    "human": HUMAN,
    "clumsy": CLUMSY,
    "quick": replace(CLUMSY, **QUICK),
    "slow": replace(CLUMSY, **SLOW),
    "knocky": replace(CLUMSY, **KNOCKY),
    "fumbling": replace(CLUMSY, **FUMBLING),
    "hasty": replace(CLUMSY, **QUICK, **KNOCKY),  # blitz hands that knock
    "rushed": replace(CLUMSY, **QUICK, **FUMBLING),  # blitz hands that fumble
    "miscounting": replace(CLUMSY, **QUICK, **MISCOUNT),  # blitz hands that miscount
}
# The hands each noisy mix brings (people come with the noise; the high mixes bring their mishaps
# too). Without noise the hands keep HandStyle's plain habits.
NOISE_HANDS = {"low": "human", "high": "clumsy", "rough": "clumsy"}


def hands_for(noise: str, hand_style: str | None = None) -> str | None:
    """The name of the hands a simulated game uses: `hand_style`, else the noise level's."""
    return hand_style or NOISE_HANDS.get(noise)


BEHAVIOURS = (
    "graze", "let_go", "victim_pause", "long_hold", "fast_reply", "early_card", "buttons", "knock", "knock_in_move",
    "touch", "dead", "stuck", "loose", "declared_unseen",
)  # fmt: skip


@dataclass
class _Group:
    pieces: tuple[Piece, ...]
    origin: Cell | None
    target: Cell | None


def square_neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The four fields beside `cell` on a square board (a slip of the hand lands on one of them)."""
    x, y = cell
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


class VirtualHands:
    def __init__(
        self,
        seed: int = 0,
        style: HandStyle | None = None,
        neighbours: Callable[[Cell], Iterable[Cell]] | None = None,
    ) -> None:
        self._neighbours = neighbours or square_neighbours
        self._rng = random.Random(seed)
        self.style = style or HandStyle()
        self.counts: Counter[str] = Counter()  # how often each human behaviour was used

    def chance(self, behaviour: str) -> bool:
        """Draw whether this move shows `behaviour` (a HandStyle chance); counted when it does."""
        rate = getattr(self.style, behaviour)
        if rate > 0 and self._rng.random() < rate:  # a behaviour that is off draws nothing: seeds replay
            self.counts[behaviour] += 1
            return True
        return False

    def neighbours(self, cell: Cell) -> Iterable[Cell]:
        """The fields beside `cell` on this board."""
        return self._neighbours(cell)

    def between(self, bounds: tuple[int, int]) -> int:
        """A duration drawn from a human range."""
        return self._between(bounds)

    def _between(self, bounds: tuple[int, int]) -> int:
        return self._rng.randint(*bounds)

    def plan(
        self,
        before: Occupancy,
        after: Occupancy,
        is_field: Callable[[Cell], bool],
        alternatives: Iterable[Cell] = (),
    ) -> list[HandStep]:
        """The steps that turn `before` into `after` on the board. `alternatives` are other fields
        the moving piece may legally go to (a wrong legal field to let go on)."""
        moves = footprint(before, after).moves
        groups: list[_Group] = []
        for move in moves:
            last = groups[-1] if groups else None
            if last is not None and last.origin == move.origin and last.target == move.target:
                last.pieces = (*last.pieces, move.piece)
            else:
                groups.append(_Group((move.piece,), move.origin, move.target))
        # As in the footprint: a group is displaced when an earlier group lands on its field (a
        # captured or swapped piece); the others are movers. Swaps and chains have both kinds.
        movers: list[_Group] = []
        displaced: list[_Group] = []
        landed: set[Cell] = set()
        for group in groups:
            (displaced if group.origin is not None and group.origin in landed else movers).append(group)
            if group.target is not None:
                landed.add(group.target)
        occupied = {cell for cell, pieces in before.items() if pieces} | {c for c, p in after.items() if p}
        steps: list[HandStep] = []
        t = self._between(self.style.think_ms)
        in_hand: set[int] = set()  # ids of the groups lifted so far

        def add(op: Op, cell: Cell | None, pieces: tuple[Piece, ...], pause: int) -> None:
            nonlocal t
            if cell is not None:
                steps.append(HandStep(t, op, cell, pieces))
            t += pause

        def take(group: _Group, pause: int) -> None:
            if id(group) not in in_hand:
                in_hand.add(id(group))
                add("lift", group.origin, group.pieces, pause)

        def clear(cell: Cell | None) -> None:
            """Lift what still has to leave `cell` before anything is put there."""
            for group in groups:
                if cell is not None and group.origin == cell and id(group) not in in_hand:
                    take(group, self._between((80, 200)))

        origins = {g.origin for g in groups}
        if len(movers) > 1 or len(groups) > 2 or any(g.target in origins for g in displaced):
            return self._carry(groups, before, t)
        victim_first = (
            bool(displaced)
            and self._rng.random() < self.style.victim_first
            and all(g.target is None or g.target not in origins for g in displaced)
        )
        if movers and movers[0].origin is not None and self._rng.random() < self.style.hesitate:
            first = movers[0]
            add("lift", first.origin, first.pieces, self._between((100, 300)))
            add("place", first.origin, first.pieces, self._between((200, 500)))
        single = len(movers) == 1 and not displaced and movers[0].origin is not None and movers[0].target is not None
        if single and self.chance("graze"):
            first = movers[0]  # touch the destination, take the piece back, think again
            add("lift", first.origin, first.pieces, self._between(self.style.travel_ms))
            add("place", first.target, first.pieces, self._between(self.style.graze_ms))
            add("lift", first.target, first.pieces, self._between(self.style.travel_ms))
            add("place", first.origin, first.pieces, self._between(self.style.think_long_ms))
        if victim_first:
            for group in displaced:
                take(group, self._between(self.style.travel_ms))
                pause = self.style.victim_pause_ms if self.chance("victim_pause") else (100, 300)
                add("place", group.target, group.pieces, self._between(pause))
        choices = [c for c in alternatives if c not in occupied and is_field(c)]
        for group in movers:
            take(group, self._between(self.style.travel_ms) // 2)
            if group.origin is not None and self.chance("long_hold"):
                t += self._between(self.style.long_hold_ms)  # the piece stays in the air
            if group.origin is not None and group.target is not None:
                for cell in self._path_touches(group.origin, group.target, occupied, is_field):
                    add("place", cell, group.pieces, self._between(self.style.slide_dwell_ms))
                    add("lift", cell, group.pieces, self._between((20, 60)))
                wrong = self._wrong_field(group.target, occupied, is_field)
                if wrong is not None:
                    add("place", wrong, group.pieces, self._between(self.style.wrong_dwell_ms))
                    add("lift", wrong, group.pieces, self._between((40, 120)))
                if single and choices and self.chance("let_go"):
                    # let go on another legal field, then take it on to the one meant
                    other = self._rng.choice(choices)
                    add("place", other, group.pieces, self._between(self.style.let_go_ms))
                    add("lift", other, group.pieces, self._between((150, 400)))
            clear(group.target)
            add("place", group.target, group.pieces, self._between((100, 300)))
        if not victim_first:
            for group in displaced:
                if id(group) not in in_hand:  # a chain: nothing landed on this piece's field yet
                    take(group, self._between(self.style.travel_ms))
                clear(group.target)
                add("place", group.target, group.pieces, self._between((150, 400)))
        return steps

    def _carry(self, groups: list[_Group], before: Occupancy, t: int) -> list[HandStep]:
        """Many pieces at once (a board part shifted with its pieces, a chain of pieces sent home):
        everything that moves is picked up first, then put down, as a person carries a board part.

        Pieces landing where something still stands go down first: a sensor may not notice them, so
        the move is only complete once the visible ones are down.
        """
        steps: list[HandStep] = []
        for group in groups:
            if group.origin is not None:
                steps.append(HandStep(t, "lift", group.origin, group.pieces))
                t += self._between((30, 80))
        t += self._between(self.style.travel_ms)
        staying = {cell for cell, pieces in before.items() if pieces} - {g.origin for g in groups}
        for group in sorted(groups, key=lambda g: g.target not in staying):
            if group.target is not None:
                steps.append(HandStep(t, "place", group.target, group.pieces))
                t += self._between((30, 80))
        return steps

    def _path_touches(
        self, origin: Cell, target: Cell, occupied: set[Cell], is_field: Callable[[Cell], bool]
    ) -> list[Cell]:
        """Empty fields the piece brushes on its way (a straight or L-shaped line), when it slides."""
        if self._rng.random() >= self.style.slide:
            return []
        (x0, y0), (x1, y1) = origin, target
        cells = []
        x, y = x0, y0
        while (x, y) != (x1, y1):
            if x != x1:
                x += 1 if x1 > x else -1
            else:
                y += 1 if y1 > y else -1
            cells.append((x, y))
        touches = [c for c in cells[:-1] if c not in occupied and is_field(c)]
        return touches[: self._rng.randint(0, len(touches))] if touches else []

    def _wrong_field(self, target: Cell, occupied: set[Cell], is_field: Callable[[Cell], bool]) -> Cell | None:
        if self._rng.random() >= self.style.wrong_field:
            return None
        options = [c for c in self._neighbours(target) if c not in occupied and is_field(c)]
        return self._rng.choice(options) if options else None
