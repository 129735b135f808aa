"""The tracker's inputs besides the sensors: buttons (confirm, menu, undo), a card shown to the
reader, and a move declared by name. A mixin of `Tracker` (it reads the tracker's evidence and
tables and commits through it); docs/tracker.md describes what each input does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.games import Action, IllegalAction, State
from controller.table.candidates import CandidateTable, chance_count
from controller.table.confirmation import Confirmation
from controller.table.corrections import Correction, CorrectionWindow
from controller.table.debounce import Debouncer
from controller.table.following import Choice
from controller.table.tracker_types import TAKEBACK, Mismatch
from hal.protocols import InputEvent

if TYPE_CHECKING:
    from collections.abc import Callable


class TrackerInputs:
    """What the buttons, the card reader and declared moves do (mixed into `Tracker`)."""

    _choice: Confirmation
    _provisional: Choice | None
    _mismatch: dict[int, int]
    _masked: dict[int, int]
    _debouncer: Debouncer
    _mismatch_since: int
    _history: list[State]
    _restore: bool
    _state: State
    _table: Callable[[State], CandidateTable]
    _unmasked: Callable[[Mismatch], Mismatch]
    _declared: Callable[..., bool]
    _accept: Callable[..., int]
    _last_commit: tuple[State, Action] | None
    _correction: CorrectionWindow | None
    _evidence_against: Callable[[tuple[int, ...]], Mismatch]
    _take_back: Callable[[int], None]

    def _handle_event(self, now: int, event: InputEvent, committed: list[Action], messages: list[str]) -> int:
        if event.kind == "button":
            return self._button(now, event.value, committed, messages)
        if event.kind == "card" and self._select_card(event.value, messages):
            return 0
        if event.kind in ("declare", "card", "menu"):
            self._declare(now, event.value, committed, messages)
            return 0
        messages.append(f"ignored input {event.kind}:{event.value}")
        return 0

    def _button(self, now: int, name: str, committed: list[Action], messages: list[str]) -> int:
        choice_ = self._choice
        if name == "confirm":
            if choice_.asking:
                choice = choice_.pressed(now, self._mismatch_since)
                return self._accept(now, choice, committed)
            if self._provisional is not None:
                return self._accept(now, self._provisional, committed)
            messages.append("nothing to confirm")
            return 0
        if name == "menu":
            if choice_.asking:
                choice_.step(now)
                return 0
            invisible = () if self._mismatch else tuple(choice_.with_card(self._table(self._state).invisible))
            if invisible:
                # The board shows no change, but the rules allow moves no sensor sees (a stone-stone
                # swap): offer them in turn; `menu` steps on, `confirm` takes the one shown.
                choice_.make_offer(invisible, now)
                return 0
            messages.append("menu: nothing to choose")
            return 0
        if name == "undo":
            if not self._history:
                messages.append("undo: no move to take back")
                return 0
            if chance_count(self._history[-1]) != chance_count(self._state):
                messages.append("undo: the last move revealed hidden information and cannot be taken back")
                return 0
            self._take_back(now)
            self._restore = True
            return 1
        messages.append(f"unknown button {name!r}")
        return 0

    def _select_card(self, card: str, messages: list[str]) -> bool:
        """A card shown to the reader (or chosen on the screen) before its move: from now on only the
        moves of that card count, and they light up (Zillo's Z-6). Actions that play a card carry it
        as their `card` attribute; False when this game has no such actions (the text is then
        taken as a declared action)."""
        if self._state.is_terminal():
            return False
        legal = self._table(self._state).actions
        if not any(getattr(action, "card", None) is not None for action in legal):
            return False
        if not any(getattr(action, "card", None) == card for action in legal):
            messages.append(f"{card}: no legal move with this card now (not in the hand, already played, or no room)")
            return True
        self._choice.card = card
        return True

    def _declared_instead(self, text: str) -> Action | None:
        """A move declared for the player who moved last, in place of the move the board took: legal
        in the position before it, shown by the board there (but for one field that is no part of
        it: an unrelated change), and no hidden information between. The declaration of the person
        who made it settles what the sensors could not."""
        last = self._last_commit
        if last is None or not self._history or self._history[-1] is not last[0]:
            return None
        before, taken = last
        if chance_count(before) != chance_count(self._state):
            return None
        try:
            meant = before.parse_action(text)
        except IllegalAction:
            return None
        table = self._table(before)
        if meant == taken or not table.is_legal(meant):
            return None
        shown = self._unmasked(table.mismatch(meant))
        board = self._evidence_against(table.expected)
        differing = {channel for channel, _ in shown ^ board}
        if len(differing) > 1 or any(channel == moved for channel in differing for moved, _ in shown):
            return None
        self._correction = CorrectionWindow(before, taken, frozenset())
        return meant

    def _declare(self, now: int, text: str, committed: list[Action], messages: list[str]) -> None:
        """A decision no sensor sees, or the choice among candidates: validated by the rules."""
        if self._state.is_terminal():
            messages.append(f"{text}: the game is over")
            return
        for asked in self._choice.asking:  # a candidate of the request, named (a correction too)
            if asked != TAKEBACK and self._declared(asked, text):
                self._accept(now, asked, committed, via="declare")
                return
        try:
            action = self._state.parse_action(text)
            if not self._table(self._state).is_legal(action):
                self._state.apply(action)  # raises IllegalAction with the reason
        except IllegalAction as error:
            meant = self._declared_instead(text)
            if meant is not None:  # the last move was taken wrongly: the player says what they did
                self._accept(now, Correction(meant), committed, via="declare")
                return
            messages.append(f"{text}: {error.reason}")
            return
        cands = self._table(self._state)
        shown = self._unmasked(cands.mismatch(action))
        board = frozenset(self._mismatch.items())
        if shown != board:
            differing = {channel for channel, _ in shown ^ board}
            # Only a board no legal move explains may hide a failed sensor; one field off, no more.
            if len(differing) != 1 or (board and cands.matching(board, self._masked)):
                messages.append(f"{text}: the board does not show this move; make it on the board first")
                return
            # One field does not show what the move says: the person at the table says the move was
            # made, so that field's sensor missed it (it is left out until it changes), or it holds an
            # old change that is not part of the move (it stays, to be judged on its own).
            (channel,) = differing
            if any(channel == moved for moved, _ in shown):
                self._masked[channel] = self._debouncer.stable[channel]
                self._mismatch.pop(channel, None)
        self._accept(now, action, committed, via="declare")
