"""Corrections before the next player acts: what a referee at the table allows.

A player who lets go of a piece on a legal field, then moves it on to the field they meant, has made
one move, not two. After a commit, until the next player's move has begun, a settled board that
shows the position before the commit plus a *different* legal action of the same player replaces
the commit. Never across hidden randomness (a card drawn, a deck shuffled): that cannot be undone;
a move that played a hidden card may only be corrected to another move of the same card.

The window closes with the next commit or take-back. While a piece is lifted from a field the
committed move did not touch, the next player has started and nothing is a correction; a piece put
back on its field made no move (a touch, or a sensor that dropped out for a moment), and then the
window is open as before. (Putting the moved piece down on a new field is no start: that is the
correction itself. Nor is a lift that began after the board already showed the piece moved on: what
happened before the next player started may still be the correction.)

Every reading of the move the board showed stays one the next player may have moved on from: a
piece a correction took as moved on once (the next player's let go on the way, say, of a piece any
seat may move) may be the next player's move from an earlier reading, and then both are asked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from controller.games import Action, State
from controller.table.evidence import left


@dataclass(frozen=True)
class Correction:
    """A candidate that replaces the last commit: take it back, then play `action` instead."""

    action: Action


@dataclass(frozen=True)
class ThenMove:
    """A candidate of two moves: `first` (the move the board showed a moment ago, by this player,
    or the correction of their last move it showed), then `second` (by the next player). Asked about
    when the board could also be one other move of this player: a piece moved on at once is either a
    correction or a fast reply."""

    first: Action | Correction
    second: Action


def reveals(before: State, after: State, action: Action, legal: Iterable[Action], shown: str | None) -> bool:
    """Whether taking `action` brought hidden cards to light that no correction may cross: hidden
    randomness moved on (Zillo's ZE-12: the next top card turned up) and the card the move played was
    known, shown to the reader (Z-6) or the only card its player could play. A card the board only
    inferred from where the piece stood (physical cards, none shown) may still have been another:
    the piece moved on shows which."""
    if after.chance_count() == before.chance_count():
        return False
    card = before.action_card(action)
    return card is None or shown == card or all(before.action_card(other) in (None, card) for other in legal)


@dataclass(frozen=True)
class Reading:
    """A reading of the last move the board took (made at `made_at`), since replaced by a correction."""

    action: Action
    made_at: int


@dataclass(frozen=True)
class CorrectionWindow:
    """The last commit, while it may still be corrected."""

    before: State  # the state the committed action was played in
    action: Action
    channels: frozenset[int]  # the sensor channels the committed action changed
    revealed: bool = False  # the commit brought hidden information to light (a card played)
    # The readings of the same move the board showed before in this window (each replaced by a
    # correction since), with when each was taken: the next player may have started from any.
    earlier: tuple[Reading, ...] = ()
    made_at: int = 0  # when `action` was made: when the board first showed it, or its fields settled

    def readings(self, shown: bool) -> tuple[Reading, ...]:
        """The readings of the move shown in this window, with its own if it was `shown`."""
        return (*self.earlier, Reading(self.action, self.made_at)) if shown else self.earlier

    def next_player_started(
        self, evidence: frozenset[tuple[int, int]], expected: tuple[int, ...], since: Sequence[int]
    ) -> bool:
        """Whether the evidence (channel, reading) against the position after the commit shows a piece
        lifted from a field outside the committed move, before the rest of the evidence was made
        (`since`: when each reading began). A lift after all of it comes after the piece was moved
        on: the next player may have started then, but that cannot make the move-on theirs."""
        lifted = {
            channel
            for channel, reading in evidence
            if channel not in self.channels and left(expected[channel], reading)
        }
        if not lifted:
            return False
        rest = [since[channel] for channel, _ in evidence if channel not in lifted]
        return not rest or min(since[channel] for channel in lifted) <= max(rest)

    def alternatives(self, actions: list[Action]) -> list[Action]:
        """The same player's other actions among those the board matches in the state before.

        When the commit brought hidden information to light (a hidden card played), only actions
        that reveal the very same (the same card) may replace it: nothing is taken back across it.
        """
        card = self.before.action_card(self.action)
        return [
            action
            for action in actions
            if action != self.action
            and (not self.revealed or (card is not None and self.before.action_card(action) == card))
        ]
