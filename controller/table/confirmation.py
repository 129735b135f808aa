"""Choosing among moves the sensors cannot tell apart: a confirmation request, the menu's offer of
moves no sensor sees, and the card a player showed before its move.

When the board matches several legal actions (or a take-back), the LEDs preview the candidates in
turn; `menu` steps on, `confirm` takes the one shown. When the board shows no change but the rules
allow invisible moves (a Fillit stone-stone swap), `menu` offers them the same way. A card shown to
the reader (Zillo's Z-6) narrows every choice to that card's moves.
"""

from __future__ import annotations

from collections.abc import Iterable

from controller.games import Action


class Confirmation:
    """The candidates being asked about, which one is previewed now, and the card shown, if any."""

    def __init__(self, preview_ms: int) -> None:
        self.preview_ms = preview_ms
        self.asking: tuple[Action | str, ...] = ()  # the candidates of the current request
        self.offer: tuple[Action, ...] = ()  # invisible actions offered by the menu button
        self.offer_since = 0
        self.card: str | None = None  # the card shown before its move, if any
        self._offset = 0  # menu presses since the request began

    def reset(self) -> None:
        """A new position: no request, no offer, no card."""
        self.asking = ()
        self.offer = ()
        self.card = None
        self._offset = 0

    def ask(self, candidates: Iterable[Action | str]) -> None:
        """Ask about `candidates`; a request for the same candidates goes on where it was."""
        candidates = tuple(candidates)
        if candidates != self.asking:
            self.asking = candidates
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

    def step(self) -> None:
        """`menu` during a request: show the next candidate."""
        self._offset += 1

    def previewed(self, now: int, mismatch_since: int) -> Action | str:
        """The candidate shown at `now`: they rotate every `preview_ms`, `menu` presses step on."""
        since = self.offer_since if self.offer else mismatch_since
        index = (now - since) // self.preview_ms + self._offset
        return self.asking[index % len(self.asking)]

    def next_change(self, now: int, since: int) -> int:
        """When the preview moves on to the next candidate (the tracker's next deadline)."""
        elapsed = now - since
        return now + self.preview_ms - elapsed % self.preview_ms

    def with_card(self, actions: Iterable[Action]) -> list[Action]:
        """Only the moves of the card shown, when a card was shown."""
        if self.card is None:
            return list(actions)
        return [action for action in actions if getattr(action, "card", None) == self.card]
