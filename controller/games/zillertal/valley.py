"""Zillertal's Valley: where cards may go, what is visible, and the icon counts per scoring zone.

ZT-2: the Valley is a row of unit columns; a card whose left edge is on dotted line `at` covers the
columns `at .. at + width - 1` and the dotted lines `at .. at + width`. Later cards hide earlier ones
where they overlap. Column `c` lies between dotted lines `c` and `c + 1`; the first card starts at 0.
ZT-3: a Gorge hides one column and splits the Valley; two Crosses on dotted lines add the zone
between them. ZT-4: tokens add or cover icons in a visible column until a later card covers it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.games.zillertal.cards import ICONS, Counts, ValleyCard

ZERO: Counts = (0,) * len(ICONS)
ICON_INDEX = {icon: index for index, icon in enumerate(ICONS)}


def _cover(col_top: list[int], line_top: list[int], index: int, offset: int, width: int) -> None:
    """ZT-2: card `index`, its left edge `offset` lines from the Valley's first, now lies on top of
    the columns and dotted lines it covers."""
    col_top[offset : offset + width] = [index] * width
    line_top[offset : offset + width + 1] = [index] * (width + 1)


@dataclass(frozen=True, slots=True)
class Placed:
    """A Valley card laid with its left edge on dotted line `at`."""

    card: str
    at: int


@dataclass(frozen=True, slots=True)
class Token:
    """ZT-4: an icon token (adds one `icon`) or a blank (covers one `icon`) on `column`.

    `time` is how many cards the Valley had when it was placed: a card laid later that covers the
    column hides it.
    """

    icon: str
    column: int
    time: int
    blank: bool = False


class Valley:
    """A computed view of the Valley; build one per position and ask it questions."""

    __slots__ = (
        "_cards",
        "_col_top",
        "_counts",
        "_line_heights",
        "_line_top",
        "_shown",
        "_zone_counts",
        "crosses",
        "first",
        "gorge",
        "last",
        "placed",
        "tokens",
    )

    def __init__(
        self,
        cards: Mapping[str, ValleyCard],
        placed: tuple[Placed, ...],
        gorge: int | None = None,
        crosses: tuple[int, ...] = (),
        tokens: tuple[Token, ...] = (),
    ) -> None:
        self._cards = cards
        self.placed = placed
        self.gorge = gorge
        self.crosses = crosses
        self.tokens = tokens
        if placed:
            self.first = min(p.at for p in placed)
            self.last = max(p.at + cards[p.card].width for p in placed)
        else:
            self.first = self.last = 0
        size = self.last - self.first
        # The topmost card over each column and at (covering or bordering) each dotted line.
        col_top = [-1] * size
        line_top = [-1] * (size + 1)
        for index, p in enumerate(placed):
            _cover(col_top, line_top, index, p.at - self.first, cards[p.card].width)
        self._col_top = col_top
        self._line_top = line_top
        self._line_heights: list[int | None] | None = None
        counts: list[list[int]] = []
        for offset, index in enumerate(col_top):
            p = placed[index]
            counts.append(list(cards[p.card].columns[offset + self.first - p.at]))
        for token in tokens:
            offset = token.column - self.first
            if col_top[offset] < token.time:  # ZT-4: hidden once a later card covers the column
                counts[offset][ICON_INDEX[token.icon]] += -1 if token.blank else 1
        if gorge is not None:
            counts[gorge - self.first] = list(ZERO)  # ZT-3: the Gorge hides its column
        self._counts: tuple[Counts, ...] = tuple(tuple(c) for c in counts)
        self._zone_counts: dict[str, Counts] | None = None
        self._shown: frozenset[tuple[str, int]] | None = None

    def laid(self, card: Placed, gorge: int | None) -> Valley:
        """This Valley with `card` laid on top (ZT-2), and the Gorge now at `gorge` (None once the
        card covers it, ZT-3): the same view as one built from scratch, worked out from this one.
        The new card hides the tokens in the columns it covers (ZT-4: they were all placed before
        it) and shows its own icons there; every other column stays as it was."""
        cards = self._cards
        width = cards[card.card].width
        placed = (*self.placed, card)
        if not self.placed:
            return Valley(cards, placed, gorge, self.crosses, self.tokens)
        first, last = min(self.first, card.at), max(self.last, card.at + width)
        shift = self.first - first
        size = last - first
        index = len(self.placed)
        col_top = [-1] * size
        col_top[shift : shift + len(self._col_top)] = self._col_top
        line_top = [-1] * (size + 1)
        line_top[shift : shift + len(self._line_top)] = self._line_top
        counts: list[Counts] = [ZERO] * size
        counts[shift : shift + len(self._counts)] = self._counts
        offset = card.at - first
        _cover(col_top, line_top, index, offset, width)
        counts[offset : offset + width] = cards[card.card].columns
        valley = Valley.__new__(Valley)
        valley._cards = cards
        valley.placed = placed
        valley.gorge = gorge
        valley.crosses = self.crosses
        valley.tokens = self.tokens
        valley.first, valley.last = first, last
        valley._col_top, valley._line_top = col_top, line_top
        valley._line_heights = None
        if self._line_heights is not None:  # the card's own heights now show at every line it covers
            heights: list[int | None] = [None] * (size + 1)
            heights[shift : shift + len(self._line_heights)] = self._line_heights
            heights[offset : offset + width + 1] = cards[card.card].heights
            valley._line_heights = heights
        valley._counts = tuple(counts)
        valley._zone_counts = None
        valley._shown = None
        return valley

    # --- geometry ----------------------------------------------------------------------------
    @property
    def empty(self) -> bool:
        return not self.placed

    def columns(self) -> range:
        return range(self.first, self.last)

    def lines(self) -> range:
        return range(self.first, self.last + 1) if self.placed else range(0)

    def top_card(self, column: int) -> Placed:
        return self.placed[self._col_top[column - self.first]]

    def height(self, line: int) -> int | None:
        """ZT-2: the visible land-line height at a dotted line (None outside the Valley)."""
        if not self.placed or not self.first <= line <= self.last:
            return None
        p = self.placed[self._line_top[line - self.first]]
        return self._cards[p.card].heights[line - p.at]

    def why_not(self, card: ValleyCard, at: int) -> str | None:
        """ZT-2: None if `card` may be laid with its left edge on line `at`, else the reason in words."""
        if not self.placed:  # ZT-E2: the first card starts the Valley; lines are counted from its left edge
            return None if at == 0 else "the first card starts the Valley at line 0"
        right = at + card.width
        if right < self.first or at > self.last:
            return (
                f"a card at line {at} leaves a gap: it must touch or overlap the Valley "
                f"(lines {self.first} to {self.last})"
            )
        for line, own in ((at, card.heights[0]), (right, card.heights[-1])):
            there = self.height(line)
            if there is not None and there != own:
                return (
                    f"the land line does not meet: {card.id} has height {own} at its edge on line "
                    f"{line}, the Valley has {there}"
                )
        return None

    def placements(self, card: ValleyCard) -> tuple[int, ...]:
        """ZT-2: every legal left-edge line for `card`, ascending: touching or overlapping the Valley, its
        edges at the Valley's height where they lie within it (`why_not`, without the words)."""
        if not self.placed:
            return (0,)
        first, last = self.first, self.last
        heights = self._heights()
        width = card.width
        left, right = card.heights[0], card.heights[-1]
        found = []
        for at in range(first - width, last + 1):
            if at >= first and heights[at - first] != left:
                continue
            end = at + width
            if end <= last and heights[end - first] != right:
                continue
            found.append(at)
        return tuple(found)

    def _heights(self) -> list[int | None]:
        """The visible land-line height at each dotted line, from the first (kept by the view)."""
        heights = self._line_heights
        if heights is None:
            placed, cards, first = self.placed, self._cards, self.first
            heights = self._line_heights = [
                cards[placed[top].card].heights[first + offset - placed[top].at] if top >= 0 else None
                for offset, top in enumerate(self._line_top)
            ]
        return heights

    # --- what is visible ---------------------------------------------------------------------
    def column_counts(self, column: int) -> Counts:
        """Visible icons in one column (cards and tokens; nothing in the Gorge's column)."""
        return self._counts[column - self.first]

    def visible_columns(self) -> tuple[int, ...]:
        return tuple(c for c in self.columns() if c != self.gorge)

    def zones(self) -> dict[str, tuple[int, ...]]:
        """ZT-3: the active scoring zones and their columns.

        `valley` (the whole Valley, only while no Gorge is visible), `left` and `right` of the Gorge,
        and `crosses` (between the two Crosses, across a Gorge).
        """
        spans = self._zone_spans().items()
        return {name: tuple(c for c in range(low, high) if c != self.gorge) for name, (low, high) in spans}

    def _zone_spans(self) -> dict[str, tuple[int, int]]:
        """ZT-3: each active zone's columns from `low` up to `high`, the Gorge's among them only in
        `crosses` (where it shows nothing, so counting it adds nothing)."""
        spans: dict[str, tuple[int, int]] = {}
        if not self.placed:
            return spans
        if self.gorge is None:
            spans["valley"] = (self.first, self.last)
        else:
            spans["left"] = (self.first, self.gorge)
            spans["right"] = (self.gorge + 1, self.last)
        if len(self.crosses) == 2:
            low, high = sorted(self.crosses)
            spans["crosses"] = (low, high)
        return spans

    def zone_counts(self) -> dict[str, Counts]:
        """Visible icon counts per active zone, in ICONS order."""
        if self._zone_counts is not None:
            return dict(self._zone_counts)
        result: dict[str, Counts] = {}
        counts, first = self._counts, self.first
        for name, (low, high) in self._zone_spans().items():
            # Per icon, the sum over the zone's columns (the Gorge's column counts nothing).
            columns = counts[low - first : high - first]
            result[name] = tuple(map(sum, zip(*columns, strict=True))) if columns else ZERO
        self._zone_counts = result
        return dict(result)

    def shown_tasks(self) -> frozenset[tuple[str, int]]:
        """ZT-3 and ZT-7: every (icon, count) some active zone shows exactly, as a contract names
        its tasks. Asked for every open task of every turn, so it is kept per view."""
        shown = self._shown
        if shown is None:
            shown = self._shown = frozenset(
                (ICONS[index], count) for totals in self.zone_counts().values() for index, count in enumerate(totals)
            )
        return shown

    def meets(self, icon: str, count: int) -> tuple[str, ...]:
        """ZT-3 and ZT-7: the zones in which exactly `count` of `icon` are visible."""
        index = ICON_INDEX[icon]
        return tuple(name for name, totals in self.zone_counts().items() if totals[index] == count)
