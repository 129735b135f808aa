"""The tracker's inputs besides the sensors: buttons (confirm, menu, undo), a card shown to the
reader, and a move declared by name (docs/tracker.md describes what each does).

A composed part of the tracker: `Inputs.handle` reads what an input needs from a `Board` snapshot
the tracker hands it and returns an `Outcome`: a decision to carry out (a commit, a take-back), a
message, fields whose sensor missed a declared move, or the choice among candidates stepped on. It
changes no game state itself; the tracker carries out the decision as it carries out its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from controller.games import Action, IllegalAction, State
from controller.games.seats import in_words, seat_name
from controller.table.candidates import CandidateTable
from controller.table.confirmation import CardAhead, Confirmation
from controller.table.corrections import Correction, CorrectionWindow, ThenMove, reveals
from controller.table.decisions import Choice, Commit, TakeBack
from controller.table.evidence import left, more
from controller.table.tracker_types import TAKEBACK, Mismatch
from hal.protocols import InputEvent


@dataclass(frozen=True)
class Board:
    """What the inputs may read of the tracker's evidence and position, at the moment of an input."""

    now: int
    state: State
    previous: State | None  # the position before the last move that stands
    last_commit: tuple[State, Action] | None  # that move, with its position
    mismatch: Mapping[int, int]  # channel -> reading, where the board differs from `state`
    quiet_since: int  # the board's last change
    provisional: Choice | None  # the one explanation shown, if any
    masked: Mapping[int, int]
    stable: tuple[int, ...]  # the stable readings
    candidates_of: Callable[[State], CandidateTable]
    unmasked: Callable[[Mismatch], Mismatch]
    against: Callable[[tuple[int, ...]], Mismatch]  # the board's evidence against a position's readings
    names: Callable[[Choice, str, int | None], bool]  # whether a text names a candidate (of that seat's)
    field_name: Callable[[int], str]  # a channel's field in the game's notation
    acknowledged: Action | None = None  # the move the board showed as made in this position
    # The scanner is silent now (an outage), a reading is still settling, or the sensors show a change
    # the board reads otherwise (a slide held as a knock): a move may be under way that the board
    # has not read yet.
    unseen: bool = False


@dataclass
class Outcome:
    """What one input asks of the tracker."""

    decision: Commit | TakeBack | None = None
    message: str | None = None
    restore: bool = False  # an undo: guide the pieces back to the position taken back to
    missed: dict[int, int] = field(default_factory=dict)  # channels whose sensor missed a declared move
    window: CorrectionWindow | None = None  # the last move, reopened for a declared correction


class Inputs:
    """Turns buttons, cards and declarations into outcomes (see the module docstring)."""

    def __init__(self, choice: Confirmation) -> None:
        self.choice = choice
        # A declared move some of whose fields read otherwise, doubted once: (its text, those fields'
        # channels, the board's evidence then). The same declaration on the same board takes it.
        self._doubted: tuple[str, frozenset[int], frozenset[tuple[int, int]]] | None = None
        self._reshown: CardAhead | None = None  # the card kept for the next move, shown again this scan

    def handle(self, event: InputEvent, board: Board) -> Outcome:
        if event.kind == "button":
            return self._button(event.value, board)
        if event.kind == "card":
            shown = self._select_card(event.value, board, event.seat)
            if shown is not None:
                return shown
        if event.kind in ("declare", "card", "menu"):
            return self._declare(event.value, board, event.seat)
        return Outcome(message=f"ignored input {event.kind}:{event.value}")

    def _button(self, name: str, board: Board) -> Outcome:
        choice = self.choice
        if name == "confirm":
            if choice.asking:
                return Outcome(_decision(choice.pressed(board.now, board.quiet_since), "confirm"))
            if board.provisional is not None:
                return Outcome(_decision(board.provisional, "confirm"))
            return Outcome(message="nothing to confirm")
        if name == "menu":
            if choice.asking:
                choice.step(board.now)
                return Outcome()
            invisible = (
                ()
                if board.mismatch
                else tuple(choice.with_card(board.state, board.candidates_of(board.state).invisible))
            )
            if invisible:
                # The board shows no change, but the rules allow moves no sensor sees (a stone-stone
                # swap): offer them in turn; `menu` steps on, `confirm` takes the one shown.
                choice.make_offer(invisible, board.now)
                return Outcome()
            return Outcome(message="menu: nothing to choose")
        if name == "undo":
            if board.previous is None:
                return Outcome(message="undo: no move to take back")
            if board.previous.chance_count() != board.state.chance_count():
                return Outcome(message="undo: the last move revealed hidden information and cannot be taken back")
            return Outcome(TakeBack(), restore=True)
        return Outcome(message=f"unknown button {name!r}")

    def _select_card(self, card: str, board: Board, seat: int | None = None) -> Outcome | None:
        """A card shown to the reader (or chosen on the screen) before its move: from now on only the
        moves of that card count, and they light up (Zillo's Z-6). Actions that play a card name it
        (`State.action_card`); None when this game has no such actions (the text is then taken as a
        declared action). Whose card it is follows from when it is shown (docs/tracker.md, "A card
        shown first"): before the move, the mover's; once the board has read the move from its
        pieces, the mover's only if it plays that move, else the next player's, kept for the next
        move; while the move is under way and not read yet, the mover's if it plays the move then
        read, and a card shown before does not (`Confirmation.card_late`). A card on the page of a
        seat not on turn is never checked against the hand on turn: the answer tells nothing of it."""
        state, at = board.state, self._shown_at(card, board)
        if state.is_terminal():
            return None
        mover, choice, under_way = state.current_player, self.choice, bool(board.mismatch) or board.unseen
        if seat is not None and seat != mover and not under_way:
            on_turn = seat_name(state, mover)
            return Outcome(message=f"{card}: a card is shown for a move of the seat on turn, {on_turn}")
        cards = board.candidates_of(state).cards
        if not cards:
            return None
        read = self._read_moves(board)
        plays_read = any(state.action_card(move) == card for move in read)
        if under_way and seat is not None and seat != mover:
            return self._keep_for_next_move(CardAhead(card, seat, state, at))  # another seat's page
        if read and seat is None and (not plays_read or choice.card not in (None, card)):
            return self._keep_for_next_move(CardAhead(card, seat, state, at))  # not the move read, or a second card
        if card not in cards:
            if under_way and seat is None:  # no card of the mover's: the next player's
                return self._keep_for_next_move(CardAhead(card, seat, state, at))
            return Outcome(
                message=f"{card}: no legal move with this card now (not in the hand, already played, or no room)"
            )
        if under_way and seat is None and not read:
            choice.card_late.setdefault(card, at)  # the mover's if the move read plays it first, else the next's
            return Outcome()
        choice.card, choice.card_late, choice.card_at = card, {}, at
        return Outcome()

    def _shown_at(self, card: str, board: Board) -> int:
        """When `card` was shown: now, or when it was first shown, where it is the card kept for the
        next move, shown again now that its move is on turn (the next player started then)."""
        reshown, self._reshown = self._reshown, None
        return reshown.shown_at if reshown is not None and reshown.card == card else board.now

    def with_card_ahead(
        self, events: tuple[InputEvent, ...], state: State, indexed: Callable[[State], bool]
    ) -> tuple[InputEvent, ...]:
        """`events`, after the card kept for the next move once the move it waited for is taken (the
        game is in another position than the one it was shown in): shown again, now for its move,
        once the position's moves are listed (`indexed`: a quiet scan lists them, so no scan waits)."""
        ahead = self.choice.card_ahead
        if ahead is None or ahead.shown_in is state or not indexed(state):
            return events
        self.choice.card_ahead, self._reshown = None, ahead
        return (InputEvent("card", ahead.card, ahead.seat), *events)

    def _keep_for_next_move(self, ahead: CardAhead) -> Outcome:
        self.choice.card_ahead = ahead
        return Outcome(message=f"{ahead.card}: kept for the next move, once this one is taken")

    def _read_moves(self, board: Board) -> list[Action]:
        """The moves on turn the board has read from the pieces and not taken yet: the one shown as
        made, or the candidates asked about."""
        asked = [move for move in self.choice.asking if not isinstance(move, str | Correction | ThenMove)]
        return [board.acknowledged, *asked] if board.acknowledged is not None else asked

    def _declare(self, text: str, board: Board, seat: int | None = None) -> Outcome:
        """A decision no sensor sees, or the choice among candidates: validated by the rules. Where
        the declaration says whose it is (`seat`), it is that seat's word about its own move: a
        candidate of the request that is that seat's move, else its move in the game's position
        (the seat on turn), else a correction of its last move (the seat that made it)."""
        state = board.state
        if state.is_terminal():
            return Outcome(message=f"{text}: the game is over")
        named = [asked for asked in self.choice.asking if asked != TAKEBACK and board.names(asked, text, seat)]
        here = _move_here(text, board)
        said = next((asked for asked in named if seat is not None or not _adds_a_move(asked, board, here)), None)
        if said is not None:  # a candidate of the request, named (a correction too)
            return Outcome(_decision(said, "declare"))
        if named and here is None:
            return Outcome(_decision(named[0], "declare"))  # the move named after another: no other reading
        last = board.last_commit
        may_correct = seat is None or (last is not None and last[0].current_player == seat)
        if seat is not None and seat != state.current_player:
            instead = self._declared_instead(text, board) if may_correct else None
            return instead or Outcome(message=f"{text}: it is {seat_name(state, state.current_player)}'s move now")
        try:
            action = state.parse_action(text)
            if not board.candidates_of(state).is_legal(action):
                state.apply(action)  # raises IllegalAction with the reason
        except IllegalAction as error:
            instead = self._declared_instead(text, board) if may_correct else None
            if instead is not None:  # the last move was taken wrongly: the player says what they did
                return instead
            return Outcome(message=f"{text}: {error.reason}")
        candidates = board.candidates_of(state)
        shown = board.unmasked(candidates.mismatch(action))
        missed = {} if _then_a_move(action, candidates, board) else _one_field_off(shown, board, candidates)
        if missed is None:
            evidence = frozenset(board.mismatch.items())
            fields = candidates.channels(action)
            doubted = self._doubt(text, action, shown, fields, evidence, candidates.expected, board)
            return doubted or Outcome(message=f"{text}: the board does not show this move; make it on the board first")
        self._doubted = None
        return Outcome(Commit(action, "declare"), missed=missed)

    def _doubt(
        self,
        text: str,
        choice: Action | Correction,
        shown: Mismatch,
        fields: frozenset[int],
        evidence: Mismatch,
        expected: tuple[int, ...],
        board: Board,
        window: CorrectionWindow | None = None,
    ) -> Outcome | None:
        """A declared move the board contradicts (`shown`: the move's changes, `evidence`: the
        board's, both against the position it is played in, whose readings are `expected`;
        `fields`: the channels of every field the move moves a piece off or onto, whether or not
        its reading changes there: a Catcher left on a stack under a presence sensor). When
        one field of the move alone reads otherwise, the person at the table may know that its
        sensor has failed: the board says which field, and the same declaration again, on the same
        board, takes the move with that field left out. So too where the fields that read otherwise
        all read fewer pieces than the move leaves there (its landing reading as before it, a stack
        it leaves reading empty), while the rest of the move shows it and every other field that
        differs lost a piece (no piece went there, and none came from there: the move's own fields
        show where it left): sensors that failed together (a chip under them), or a piece held; the
        board names them all, leaves the move's out, and those beside the move are judged on their
        own afterwards. None for anything else (a field the piece should have left still full, a
        piece arrived elsewhere): the board does not show the move."""
        differing = _differing(shown, evidence)
        moved = fields | {channel for channel, _ in shown}
        off = frozenset(differing & moved)
        one = len(off) == 1 and differing == off
        if not off or not (one or _sensors_lost(off, shown, differing - moved, board, expected)):
            self._doubted = None
            return None
        if self._doubted == (text, off, evidence):
            self._doubted = None
            missed = {channel: board.stable[channel] for channel in off}
            return Outcome(Commit(choice, "declare"), missed=missed, window=window)
        self._doubted = (text, off, evidence)
        named = in_words([board.field_name(channel) for channel in sorted(off)])
        others = sorted(differing - off)
        if one:
            return Outcome(
                message=f"{text}: {named} does not show this move; if its sensor has failed, declare {text} again"
            )
        lost = f" and {in_words([board.field_name(other) for other in others])} lost a piece" if others else ""
        return Outcome(
            message=f"{text}: {named} {'does' if len(off) == 1 else 'do'} not show this move{lost}; "
            f"if their sensors have failed, declare {text} again"
        )

    def _declared_instead(self, text: str, board: Board) -> Outcome | None:
        """A move declared for the player who moved last, in place of the move the board took: legal
        in the position before it, shown by the board there but for one field at most (a sensor that
        missed it, or an unrelated change), and no hidden information between but the card it
        played. The declaration of the person who made it settles what the sensors could not."""
        last = board.last_commit
        if last is None or board.previous is not last[0]:
            return None
        before, taken = last
        try:
            meant = before.parse_action(text)
        except IllegalAction:
            return None
        before_table = board.candidates_of(before)
        # As for a correction the board sees: never across hidden randomness, except to another move
        # of the very card the last move brought to light, where that card was known (the player's
        # word here stands for a card the board only inferred, or the reader misread).
        revealed = reveals(before, board.state, taken, before_table.actions, None)
        window = CorrectionWindow(before, taken, frozenset(), revealed)
        if not before_table.is_legal(meant) or not window.alternatives([meant]):
            return None
        shown = board.unmasked(before_table.mismatch(meant))
        evidence = board.against(before_table.expected)
        missed = _one_field_off(shown, board, board.candidates_of(board.state), evidence, before_table.expected)
        if missed is None:
            fields = before_table.channels(meant)
            return self._doubt(text, Correction(meant), shown, fields, evidence, before_table.expected, board, window)
        self._doubted = None
        return Outcome(Commit(Correction(meant), "declare"), missed=missed, window=window)


def _adds_a_move(asked: Choice, board: Board, here: Action | None) -> bool:
    """Whether a candidate named by a declared move puts another move before it that nobody declared
    and the board does not show as made: a declaration names one move, so where its words are a
    move of the game's position too (`here`), that is the move declared (judged as declared moves
    are). A move the board showed as made a moment ago stands before it, unless the sensors now read
    the declared move alone, that earlier move's fields as before it (a knocked piece put back: what
    the board showed was no move)."""
    if not isinstance(asked, ThenMove) or isinstance(asked.first, Correction):
        return False
    return asked.first != board.acknowledged or (here is not None and _sensed_alone(asked.first, here, board))


def _sensed_alone(first: Action, action: Action, board: Board) -> bool:
    """Whether the sensors read exactly `action` in the game's position, where the move `first`
    would have changed what they read."""
    candidates = board.candidates_of(board.state)
    if not board.unmasked(candidates.mismatch(first)):
        return False
    return board.unmasked(candidates.mismatch(action)) == _sensed(board, candidates.expected)


def _sensed(board: Board, expected: tuple[int, ...]) -> Mismatch:
    """The board's differences from a position's readings as the sensors read them, no knock
    undone, failed channels left out."""
    return frozenset(
        (channel, reading)
        for channel, reading in enumerate(board.stable)
        if reading != expected[channel] and channel not in board.masked
    )


def _move_here(text: str, board: Board) -> Action | None:
    """The move `text` names in the game's position, if it is a legal one there."""
    try:
        action = board.state.parse_action(text)
    except (IllegalAction, ValueError):
        return None
    return action if board.candidates_of(board.state).is_legal(action) else None


def _then_a_move(action: Action, candidates: CandidateTable, board: Board) -> bool:
    """Whether the board shows the declared `action` followed by a whole move of the next player
    (both asked about, the first named): the fields where the board differs from the declared
    move are the next move's, no sensor's fault."""
    following = board.candidates_of(candidates.successor(action))
    rest = board.against(following.expected)
    return bool(rest) and bool(following.matching(rest, board.masked))


def _one_field_off(
    shown: Mismatch,
    board: Board,
    candidates: CandidateTable,
    evidence: Mismatch | None = None,
    expected: tuple[int, ...] | None = None,
) -> dict[int, int] | None:
    """Whether the board shows a declared move (`shown`: its changes against the position it is
    played in, whose readings are `expected`; `evidence`: the board's against the same, by default
    against the game's position), and which sensors missed it; None when it does not.

    When the sensors read exactly the move, it was made, whatever the board read into them (a
    knock among its fields: the person who made the move knows better). Only a board no legal move
    of the position now explains may hide a failed sensor. When every field of the move shows it,
    the move was made, whatever else differs: those fields stay, to be judged on their own
    (sensors stuck or dead beside the move, a piece held). When one field of the move does not
    show it, its sensor missed the move (it is left out until it changes), unless its reading is
    the move's (the board held an older reading there, a knock it kept); then no field beside the
    move may read fewer pieces than the position has (the piece may have come from there: another
    move was made), while fields that read more do not count (`evidence.more`: pieces do not come
    from nowhere). Two fields of the move off: not this move."""
    evidence = frozenset(board.mismatch.items()) if evidence is None else evidence
    if shown == evidence:
        return {}
    expected = candidates.expected if expected is None else expected
    if shown == _sensed(board, expected):
        return {}  # every sensor reads the move: a knock the board read among its fields was the move's hand
    if board.mismatch and candidates.matching(frozenset(board.mismatch.items()), board.masked):
        return None
    moved = {channel for channel, _ in shown}
    differing = _differing(shown, evidence)
    off = differing & moved
    if not off:
        return {}
    beside = {channel for channel in differing - moved if not more(expected[channel], board.stable[channel])}
    if len(off) > 1 or beside:
        return None
    (channel,) = off
    if (channel, board.stable[channel]) in shown:
        return {}  # its sensor reads the move: the board held an older reading there (a knock it kept)
    return {channel: board.stable[channel]}


def _sensors_lost(
    off: frozenset[int], shown: Mismatch, others: set[int], board: Board, expected: tuple[int, ...]
) -> bool:
    """Whether every field of a declared move that reads otherwise (`off`) reads fewer pieces than
    the move leaves there (a sensor that died, before or after the move), while some field of the
    move shows it, and every other field that differs from the position (whose readings are
    `expected`) lost a piece (`_doubt`)."""
    move = dict(shown)
    return (
        len(off) < len(move)
        and all(left(move.get(channel, expected[channel]), board.stable[channel]) for channel in off)
        and all(left(expected[other], board.stable[other]) for other in others)
    )


def _differing(shown: Mismatch, evidence: Mismatch) -> set[int]:
    """The channels where a declared move's picture and the board's evidence disagree."""
    return {channel for channel, _ in shown ^ evidence}


def _decision(choice: Choice, via: str) -> Commit | TakeBack:
    """A choice taken by a press or a declaration: the take-back, or a commit."""
    if isinstance(choice, str):
        return TakeBack()
    return Commit(choice, via)
