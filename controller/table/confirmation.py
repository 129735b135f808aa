"""Choosing among moves the sensors cannot tell apart: a confirmation request, the menu's offer of
moves no sensor sees, and the card a player showed before its move.

When the board matches several legal actions (or a take-back), the LEDs preview one candidate;
`menu` steps to the next, `confirm` takes the one shown. A press can therefore never take a candidate
the player did not see. (With `preview_ms` set, candidates also rotate by themselves; a press then
takes what was shown `confirm_grace_ms` earlier when the preview changed just before it, since
nobody reacts that fast to a new colour.) When the board shows no change but the rules
allow invisible moves (a Fillit stone-stone swap), `menu` offers them the same way. A card shown to
the reader (Zillo's Z-6) narrows every choice to that card's moves; one shown once the board has read
the move on turn from its pieces, and that does not play it, waits for the next move (`CardAhead`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from controller.games import Action, State
from controller.table.corrections import ThenMove


@dataclass(frozen=True)
class CardAhead:
    """A card shown for the move after the one the board has read from the pieces (acknowledged or
    asked about) but not taken yet: the next player's, shown to the inputs again once the position it
    was shown in (`shown_in`) has moved on by a commit, and dated as shown (`shown_at`: the next
    player has started then). `seat`: the seat whose page showed it (None for the reader or a
    shared screen)."""

    card: str
    seat: int | None
    shown_in: State
    shown_at: int


class Confirmation:
    """The candidates being asked about, which one is previewed now, and the card shown, if any."""

    def __init__(self, preview_ms: int = 0, grace_ms: int = 300) -> None:
        self.preview_ms = preview_ms  # 0: no rotation, `menu` steps
        self.grace_ms = grace_ms
        self.asking: tuple[Action | str, ...] = ()  # the candidates of the current request
        # Every candidate asked about in this position since the board last showed it as it is.
        self.asked_here: tuple[Action | str, ...] = ()
        self.offer: tuple[Action, ...] = ()  # invisible actions offered by the menu button
        self.offer_since = 0
        self.card: str | None = None  # the card shown before its move, if any
        self.card_at = 0  # when it was shown
        # Cards shown (by the reader or a shared screen) while the move was under way and not read yet,
        # in the order shown, with when: the first that plays the move the board then takes is the
        # mover's (where the card chosen before does not: a card shown by mistake), the last of the
        # others the next player's.
        self.card_late: dict[str, int] = {}
        self.card_ahead: CardAhead | None = None  # a card shown for the next move (kept across its commit)
        self._offset = 0  # menu presses since the request began
        self._stepped_at: int | None = None  # when menu was last pressed

    def reset(self, moved_from: State | None = None) -> None:
        """A new position: no request, no offer, no card; but the one kept for the next move where
        the move that waited for it was taken (from the position it was shown in, `moved_from`): a
        card kept is for one move, and never outlives the next player's move, whatever it played."""
        self.asking = ()
        self.asked_here = ()
        self.offer = ()
        self.card, self.card_late = None, {}
        ahead = self.card_ahead
        self.card_ahead = ahead if ahead is not None and ahead.shown_in is moved_from else None
        self._offset = 0

    def card_played(self, state: State, action: Action) -> str | None:
        """The card shown for `action`, the move of `state` being taken, if one was: the one chosen,
        or one shown late that plays it; the last other one shown late is the next player's (kept)."""
        late, self.card_late = self.card_late, {}
        played = state.action_card(action)
        others = [card for card in late if card != played]
        if others:
            self.card_ahead = self.card_ahead or CardAhead(others[-1], None, state, late[others[-1]])
        return played if played is not None and (played == self.card or played in late) else None

    def kept_card_plays(
        self, state: State, readings: Iterable[ThenMove], played: Callable[[ThenMove], tuple[str | None, int]]
    ) -> list[ThenMove]:
        """Of `readings` (the move on turn, then the next player's), those whose next move plays the
        card kept for it (shown in `state`) and began after it was shown: the next player had started
        (`played`: the card a reading's next move plays, and when its first change began)."""
        ahead = self.card_ahead
        if ahead is None or ahead.shown_in is not state:
            return []  # (no card kept: `played`, which builds the next position's table, is never asked)
        return [then for then in readings if self.kept_card_first(state, *played(then))]

    def kept_card_first(self, state: State, card: str | None, began: int) -> bool:
        """Whether `card` is the card kept for the next move (shown in `state`), shown before `began`."""
        ahead = self.card_ahead
        return ahead is not None and ahead.shown_in is state and ahead.card == card and ahead.shown_at <= began

    def card_first(self, began: Callable[[int], int], channels: Iterable[int]) -> bool:
        """Whether a card was shown for the move on turn before every change on `channels` (`began`:
        the earliest moment a channel's change may have begun)."""
        return self.card is not None and all(began(channel) >= self.card_at for channel in channels)

    def ask(self, candidates: Iterable[Action | str]) -> None:
        """Ask about `candidates`; a request for the same candidates goes on where it was."""
        candidates = tuple(candidates)
        if candidates != self.asking:
            self.asking = candidates
            self.asked_here = tuple(dict.fromkeys((*self.asked_here, *candidates)))
            self._offset = 0

    def show_offer(self) -> None:
        """Ask about the offered invisible moves."""
        if self.asking != self.offer:
            self.asking = self.offer

    def make_offer(self, invisible: tuple[Action, ...], now: int) -> None:
        """`menu` on an unchanged board: offer the moves no sensor sees, from the first."""
        self.offer = invisible
        self.offer_since = now
        self._offset = 0

    def step(self, now: int) -> None:
        """`menu` during a request: show the next candidate."""
        self._offset += 1
        self._stepped_at = now

    def previewed(self, now: int, mismatch_since: int) -> Action | str:
        """The candidate shown at `now`: the first, `menu` presses step on (and, with rotation,
        one more every `preview_ms`)."""
        return self.asking[self._index(now, mismatch_since) % len(self.asking)]

    def pressed(self, now: int, mismatch_since: int) -> Action | str:
        """The candidate a `confirm` pressed at `now` takes: what the player saw."""
        earlier = now - self.grace_ms
        stepped = self._stepped_at is not None and self._stepped_at > earlier  # the player stepped: they saw it
        if self.preview_ms and not stepped and earlier >= self._since(mismatch_since):
            shown_before = self._index(earlier, mismatch_since)
            if shown_before != self._index(now, mismatch_since):
                return self.asking[shown_before % len(self.asking)]  # the preview changed a moment ago
        return self.previewed(now, mismatch_since)

    def _since(self, mismatch_since: int) -> int:
        return self.offer_since if self.offer else mismatch_since

    def _index(self, now: int, mismatch_since: int) -> int:
        rotation = (now - self._since(mismatch_since)) // self.preview_ms if self.preview_ms else 0
        return rotation + self._offset

    def next_change(self, now: int, since: int) -> int | None:
        """When the preview moves on by itself (the tracker's next deadline); None without rotation."""
        if not self.preview_ms:
            return None
        elapsed = now - since
        return now + self.preview_ms - elapsed % self.preview_ms

    def plays_shown(self, state: State, action: Action) -> bool:
        """Whether `action` (of `state`) plays the card shown for it, or one shown late; True when
        none was shown."""
        return self.card is None or state.action_card(action) in (self.card, *self.card_late)

    def with_card(self, state: State, actions: Iterable[Action]) -> list[Action]:
        """Only the moves of the card shown, when a card was shown: `actions` of `state`. A card shown
        late narrows them where the first card plays none of them and it plays some."""
        actions = list(actions)
        for card in (self.card, *self.card_late):
            played = [action for action in actions if state.action_card(action) == card] if card else []
            if played:
                return played
        return [] if self.card is not None else actions
