"""Virtual hands that carry out actions on the simulated board, scan by scan, and the judge of what
the tracker made of them.

Whoever owns the scan loop — the physical self-play harness, or the `tafel run` service on a
simulated board — calls `before_scan(now)` and `after_scan(now, output)` around every scan. Every
commit is checked against what was intended: a different action, or a commit before the hands
finished, is a wrong commit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.bots.thinking import Thinking
from controller.games import Action, Cell, Piece, State
from controller.table.tracker import Tracker, TrackerOutput
from controller.table.tracker_types import Display
from hal.protocols import RGB
from sim.backends import SimBackends
from sim.board import SimBoard
from sim.hands import HandStep
from sim.mishaps import knock, touch
from sim.sight import MoveSight
from sim.stats import PhysicalStats

REACTION_MS = 400  # how long a player takes to answer a confirmation request
GIVE_UP_MS = 20_000  # a move the tracker has not committed this long after the hands finished


@dataclass(frozen=True)
class Judged:
    """What a judge keeps of a finished move whose commit it has judged (a take-back may have it
    judged again)."""

    action: Action
    hands_done: bool


class Judge:
    """Checks every commit against the moves the hands meant, in order.

    It mirrors the tracker's history: a take-back or a correction removes the latest commits, a
    commit adds one. The commit at position k is right when it is the k-th intended move and the
    hands had finished it; a wrong commit that a correction replaces is forgiven (counted as
    `corrected`), every other one counts in `wrong_commits`.
    """

    def __init__(self, stats: PhysicalStats, base: int = 0) -> None:
        self.stats = stats
        self._base = base  # commits in the history before these hands started
        # The moves meant, in order: a move stays whole until its commit is judged, then only its
        # action and whether its hands had finished are kept (a service's hands play for hours).
        self._intended: list[Performance | Judged] = []
        self._live: list[bool] = []  # per commit since the start: right?

    def intend(self, move: Performance) -> None:
        self._intended.append(move)

    def withdraw(self, move: Performance) -> None:
        """A move the hands gave up before its commit (the game moved on elsewhere): never meant.
        If the board had already taken it where the hand let go on the way (a wrong field held past
        the settle time), and another board answered before the hand moved on, the person keeps the
        move the board took, as after a correction: that commit is forgiven (`corrected`)."""
        if self._intended and self._intended[-1] is move:
            index = len(self._intended) - 1
            if index < len(self._live):
                if not self._live[index]:
                    self._live[index] = True
                    self.stats.wrong_commits -= 1
                    self.stats.corrected += 1
                return
            self._intended.pop()
            self.stats.intended -= 1

    def see(self, output: TrackerOutput) -> None:
        for _ in range(output.happened.took_back):
            if self._live:
                self._live.pop()
        for _ in range(output.happened.replaced):
            self.stats.committed -= 1  # a replaced commit does not stand
            if self._live and not self._live.pop():
                self.stats.wrong_commits -= 1  # the player corrected it before the next one acted
                self.stats.corrected += 1
        for _, action, _ in output.happened.transitions:
            index = len(self._live)
            move = self._intended[index] if index < len(self._intended) else None
            right = move is not None and action == move.action and move.hands_done
            if move is not None and move.hands_done:  # final: hands that finished stay finished
                self._intended[index] = Judged(move.action, True)
            self._live.append(right)
            self.stats.committed += 1
            if not right:
                self.stats.wrong_commits += 1


def offered(action: Action, shown: Display, before: State | None = None) -> bool:
    """Whether the board names `action`, made in `before`, among its candidates: as a move of that
    position, not the same move read after another one the player did not make (the screen names
    each candidate's seat and the position it is played in)."""
    if action not in shown.candidates:
        return False
    if before is None:
        return True
    # (A candidate the display does not place elsewhere is played in the game's position.)
    named = shown.played_in.get(action, shown.state)
    return named is before or named == before


def button_for(action: Action, shown: Display | None, before: State | None = None) -> str | None:
    """The button a player who made `action` (in `before`) presses, looking at the board as their
    finger comes down: `confirm` if it previews their move, `menu` if it asks about it among others,
    none if it no longer asks about it (a person does not confirm a move the LEDs do not show as
    theirs, however the question looked a moment ago)."""
    if shown is None or shown.mode != "confirm" or not offered(action, shown, before):
        return None
    return "confirm" if shown.previewed == action else "menu"


def speaks_on_own_page(seat: int) -> bool:
    """Where a simulated player says a move (a declaration, a tap on a candidate): the players in
    seats 0 and 2 on their own seat's page, so the board knows whose word it is; the others on the
    table's shared screen, which does not. Every game has both kinds."""
    return seat % 2 == 0


class Performance:
    """One action carried out by the virtual hands, scan by scan, until the tracker commits it.

    Whoever owns the scan loop (`PhysicalTable.perform`, or the `tafel run` service through
    `HandsDriver`) calls `before_scan(now)` (the hands act) and `after_scan(now, output)` (judge what
    the tracker made of it) around every scan; `after_scan` returns True once the action is committed,
    False when the tracker never committed it, and None while it goes on. Every commit is checked
    against the intended action: a different action, or a commit before the hands finished, counts as
    a wrong commit in `stats`.
    """

    def __init__(
        self,
        backends: SimBackends,
        tracker: Tracker,
        action: Action,
        start: int,
        stats: PhysicalStats,
        show_card: bool = False,
        on_hand: Callable[[int, HandStep], None] | None = None,
        before: State | None = None,
        answers: bool = True,
    ) -> None:
        self.action = action
        # Whether the hands' owner answers a confirmation request by itself (a bot or a script does;
        # a person who asked for the move from a screen answers it there).
        self.answers = answers
        self._on_hand = on_hand  # told of every step as the hands make it
        self.before = before if before is not None else tracker.state  # a fast reply starts from the move meant
        self.text = self.before.action_to_str(action)
        mover = self.before.current_player
        self._speaker = mover if speaks_on_own_page(mover) else None  # whose word a declaration is, if the board knows
        self.ack_frame: tuple[RGB, ...] | None = None  # the LED frame that acknowledged the action
        self._backends = backends
        self._stats = stats
        stats.intended += 1
        self.after = self.before.apply(action)
        is_field = backends.board.channel_of.__contains__
        hands = backends.hands
        sight = sight_of(tracker)
        alternatives = _other_targets(sight, self.before, action) if hands.style.let_go else ()
        self._steps: list[HandStep] = hands.plan(
            self.before.occupancy(), self.after.occupancy(), is_field, alternatives
        )
        # The player thinks, shows the card to the reader, then reaches for the piece (Zillo's Z-6):
        # only the card's moves count.
        self._card = self.before.action_card(action) if show_card else None
        first = self._steps[0].at if self._steps else 0
        self._card_at = start + max(0, first - hands.between(hands.style.card_lead_ms)) if self._card else start
        # An action no sensor sees still moves pieces (a swap of like pieces): the hands make it, then
        # the player declares it once the board has settled.
        self._declare = sight.is_invisible(self.before, action)
        if self._declare:
            stats.declared += 1
        self._start = start
        self.finished_at = start if not self._steps else start + self._steps[-1].at
        self._landing = self._plan_knock(is_field)
        self._declared_unseen = False
        self._board_took_something = False  # the board committed some move while this one was made
        self._taken_early = False  # the board took this very move before the hands had finished it
        self._index = 0
        self._asked = False
        self._confirm_at: int | None = None
        self._buttons = False  # answering the confirmation with menu/confirm
        self._press: tuple[int, str] | None = None  # a button the player is about to press
        self._shown: Display | None = None  # what the board showed at the last scan
        self._acked = False
        self.reply_at: int | None = None  # when the next player starts (a fast reply), once decided
        self.acknowledged_at: int | None = None  # when the LEDs acknowledged the finished move
        # Acknowledgement latency is measured on a recording pixel sink (the simulated LEDs) only.
        self._recorder = backends.pixels if hasattr(backends.pixels, "frames") else None
        self._frames_before = self._recorder.count if self._recorder is not None else 0

    @property
    def hands_done(self) -> bool:
        return self._index >= len(self._steps)

    def _plan_knock(self, is_field: Callable[[Cell], bool]) -> Cell | None:
        """Where the moving piece lands (its last placement), and whether the hand knocks a piece
        beside it on the way: just before it lands, or just after (sim/mishaps.py)."""
        places = [step for step in self._steps if step.op == "place"]
        if not places:
            return None
        landing = places[-1]
        hands = self._backends.hands
        if not hands.chance("knock"):
            return landing.cell
        # Not a piece the last mover holds up to look, nor one knocked before and not yet back.
        moving = {step.cell for step in self._steps} | self._backends.mishaps.busy
        steps = knock(hands, self.after.occupancy(), landing.cell, moving, is_field, hands.neighbours)
        if not steps:
            hands.counts["knock"] -= 1  # nothing stands beside it to knock
            return landing.cell
        offset = hands.between(hands.style.knock_ms)
        first_lift = min(step.at for step in self._steps)
        in_move = hands.between((0, 1)) == 1 and landing.at - offset > first_lift
        if in_move:
            hands.counts["knock_in_move"] += 1
        at = landing.at - offset if in_move else landing.at + offset
        self._backends.mishaps.add(self._start + at, steps, knock=True)
        return landing.cell

    def _not_taken(self, output: TrackerOutput) -> bool:
        """Whether the board shows nothing of this move: no match, a question about other moves (a
        take-back offered, where the move's landing is under a failed sensor and its departure is
        the last move undone), or no change at all (every field of the move under a failed sensor
        or a stack)."""
        mode = output.display.mode
        other = mode == "confirm" and not offered(self.action, output.display, self.before)
        asked_other = mode == "takeback" or other
        unseen = mode == "idle" and not self._board_took_something
        return mode in ("moving", "guidance") or asked_other or unseen

    def touch_again(self, now: int) -> None:
        """After the commit: the player lifts the piece just moved to look, and puts it back."""
        hands = self._backends.hands
        if self._landing is None or self.after.is_terminal() or not hands.chance("touch"):
            return
        steps = touch(hands, self.after.occupancy(), self._landing)
        self._backends.mishaps.add(now + hands.between((200, 800)), steps)

    def before_scan(self, now: int) -> None:
        """The hands carry out every step that is due, and answer a confirmation request in time."""
        steps = self._steps
        board = self._backends.board
        if self._card is not None and now >= self._card_at:
            self._backends.inputs.push("card", self._card)
            self._card = None
        while self._index < len(steps) and self._start + steps[self._index].at <= now:
            step = steps[self._index]
            apply_step(board, step)
            if self._on_hand is not None:
                self._on_hand(now, step)
            self._index += 1
        if self._confirm_at is not None and now >= self._confirm_at:
            # The player taps their move among the candidates on the screen, if the board still
            # offers it as their finger comes down (as with the buttons); else they wait to be asked.
            shown = self._shown
            if shown is not None and shown.mode == "confirm" and offered(self.action, shown, self.before):
                self._backends.inputs.push("declare", self.text, self._speaker)
            else:
                self._asked = False
            self._confirm_at = None
        if self._press is not None and now >= self._press[0]:
            button = button_for(self.action, self._shown, self.before)
            if button is not None:
                self._backends.inputs.push("button", button)
            else:
                self._asked = False  # the board asks something else now: the player waits to be asked again
            self._press = None

    def after_scan(self, now: int, output: TrackerOutput) -> bool | None:
        self._shown = output.display
        stats = self._stats
        action = self.action
        done = self.hands_done
        if output.happened.transitions:
            if not done and action in output.happened.committed:
                self._taken_early = True  # counted wrong by the judge; the person still finishes the move
            elif done:
                self._board_took_something = True  # (the last player's move, taken meanwhile, is not)
        if done and self._taken_early:
            return True
        if any(message.startswith(f"{self.text}: ") for message in output.happened.messages):
            self._asked = False  # the answer was refused (the board changed meanwhile): asked again, answer again
        if done and any(message.endswith(f"declare {self.text} again") for message in output.happened.messages):
            # The board names a field that does not show the move; the person sees it empty (or full):
            # its sensor has failed, and they say the move again.
            self._backends.inputs.push("declare", self.text, self._speaker)
        if done and self._declare and output.display.mode == "idle":
            self._backends.inputs.push("declare", self.text, self._speaker)
            self._declare = False
        if done and output.display.acknowledged == action and self.acknowledged_at is None:
            self.acknowledged_at = now  # the green light: the next player may go
        answered = (
            output.display.acknowledged == action
            or action in output.happened.committed
            or offered(action, output.display, self.before)
        )
        if done and not self._acked and answered:
            recorder = self._recorder
            since = recorder.frames[-1][0] if recorder is not None and recorder.count > self._frames_before else None
            # The LEDs show the answer from this scan on, or already did when the hand let go (a move
            # whose landing no sensor sees is asked about as soon as its piece is lifted).
            if recorder is not None and since is not None and (since == now or since <= self.finished_at):
                stats.ack_ms.append(now - self.finished_at)
                self.ack_frame = recorder.frames[-1][1]
                self._acked = True
        if done and action in output.happened.committed:
            stats.commit_ms.append(now - self.finished_at)
            if not self._acked:
                stats.ack_ms.append(now - self.finished_at)
                self.ack_frame = self._recorder.last if self._recorder is not None else None
            return True
        if not self.answers and (output.happened.transitions or output.happened.took_back):
            return True  # the person chose (this move or another): the hands are done
        if output.happened.took_back:
            return True  # somebody took a move back meanwhile: the game is elsewhere, the move is void
        if done and output.display.mode == "confirm" and offered(action, output.display, self.before) and self.answers:
            if not self._asked:
                # The player sees the amber request in this scan's frame: they answer on the screen
                # REACTION_MS later, or step with menu to their move and press confirm.
                stats.confirmations += 1
                self._asked = True
                self._buttons = self._backends.hands.chance("buttons")
                if not self._buttons:
                    self._confirm_at = now + REACTION_MS
            if self._buttons and self._press is None:
                hands = self._backends.hands
                wanted = output.display.previewed == action
                self._press = (now + hands.between(hands.style.press_ms), "confirm" if wanted else "menu")
        hands = self._backends.hands
        if (
            done
            and self.answers
            and not self._declared_unseen
            and self._not_taken(output)
            and not self._backends.mishaps.pending
            and now - self.finished_at >= hands.style.declare_after_ms
        ):
            # The board does not take the move (a failed sensor under it): the player says it.
            self._declared_unseen = True
            hands.counts["declared_unseen"] += 1
            self._backends.inputs.push("declare", self.text, self._speaker)
        if done and self.answers and now - self.finished_at >= GIVE_UP_MS:
            stats.missed += 1
            return False
        return None


def sight_of(tracker: Tracker) -> MoveSight:
    """The hands' own view of the moves on the tracker's board (one per board, shared by the moves)."""
    sight = _SIGHTS.get(id(tracker.board))
    if sight is None or sight.board is not tracker.board:
        if len(_SIGHTS) > 4:
            _SIGHTS.clear()
        sight = _SIGHTS[id(tracker.board)] = MoveSight(tracker.board)
    return sight


_SIGHTS: dict[int, MoveSight] = {}


def _other_targets(sight: MoveSight, before: State, action: Action) -> list[Cell]:
    """Other fields the piece this action moves may legally go to (for a player letting go on a
    wrong legal field): the targets of the legal actions that move the same single piece."""
    own = sight.footprint(before, action)
    if len(own.moves) != 1:
        return []
    origin = own.moves[0].origin
    targets = []
    for other in before.legal_actions():
        if other == action:
            continue
        footprint = sight.footprint(before, other)
        if len(footprint.moves) == 1 and footprint.moves[0].origin == origin and footprint.moves[0].target is not None:
            targets.append(footprint.moves[0].target)
    return targets


def apply_step(board: SimBoard, step: HandStep) -> None:
    """Make one step of the hands on the board."""
    if step.op == "lift":
        _lift(board, step.cell, step.pieces)
    else:
        board.place(step.cell, step.pieces)


def _lift(board: SimBoard, cell: Cell, pieces: tuple[Piece, ...]) -> None:
    """Lift `pieces` off `cell`: the top of the stack, or one particular piece from under others."""
    stack = board.pieces.get(cell, [])
    if len(pieces) == 1 and stack and stack[-1] != pieces[0] and pieces[0] in stack:
        board.lift_piece(cell, pieces[0])
    else:
        board.lift(cell, len(pieces))


class HandsDriver:
    """Virtual hands that play on the simulated board, scan by scan, for a loop that owns the clock
    (the `tafel run` service): the scripted moves first, then the moves people ask for (`request`,
    from a screen) and the bots' (`bots`: one per seat, None for a seat people play), until the game
    is over. Nothing starts before the board first matches the game (set-up is done)."""

    def __init__(
        self,
        backends: SimBackends,
        tracker: Tracker,
        moves: Sequence[str] = (),
        bots: Sequence[Thinking | None] = (),
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.stats = PhysicalStats()
        self.judge = Judge(self.stats)
        self._judged_from: int | None = None
        self.current: Performance | None = None
        self.stopped: str | None = None  # why the hands gave up, if they did
        self._backends = backends
        self._tracker = tracker
        self._moves = list(moves)
        self._next_move = 0
        self._bots = list(bots)
        self._log = log or (lambda message: None)
        self._ready = False
        self._restoring: tuple[int, list[HandStep], int] | None = None
        self._requested: list[Action] = []
        self._thinking = False  # the seat to move is a bot whose answer has not come yet

    @property
    def finished(self) -> bool:
        """Nothing left to play by itself: the game is over, the script ran out and no bot plays, or
        the hands gave up."""
        if self.current is not None or self._requested:
            return False
        if self.stopped is not None or self._tracker.state.is_terminal():
            return True
        return self._next_move >= len(self._moves) and not any(bot is not None for bot in self._bots)

    @property
    def busy(self) -> bool:
        """Whether the hands are making a move or setting the board up (a new request must wait)."""
        return self.current is not None or bool(self._requested) or not self._ready

    @property
    def waiting(self) -> bool:
        """Whether nothing on this board can happen until something outside it does: the board
        stands set, no move or mishap is under way, and the seat to move plays on another board,
        or is a bot still thinking in its worker, or nothing is left to play by itself (the game
        is over, or only a person's request can start the next move). A board that hurries
        through board time idles in real time then."""
        if self.current is not None or self._requested or self._restoring is not None or not self._ready:
            return False
        if self._backends.mishaps.pending:
            return False
        seat = self._tracker.state.current_player
        return self.finished or not self._tracker.plays_here(seat) or self._thinking

    def request(self, action: Action) -> None:
        """A person asked for `action` (legal in the current state): the hands make it next, and the
        person answers any confirmation request it raises."""
        self._requested.append(action)

    def position_changed(self) -> None:
        """The game moved on without these hands (another board's move, docs/remote.md): set the
        board to the new position before the next move; a move under way is given up, as a person
        stops when the LEDs show another board's move."""
        if self.current is not None:
            self._log(f"virtual hands: {self.current.text} given up; the game moved on elsewhere")
            self.judge.withdraw(self.current)
            self.current = None
        self._ready = False
        # The history is the host's now: judge this board's commits afresh from the next move on (a
        # commit the host refused, made on a position gone by, is not one the tracker misread).
        self._judged_from = None

    def before_scan(self, now: int) -> None:
        if self.current is None and (not self._ready or self._restoring is not None):
            self._restore(now)
        seat = self._tracker.state.current_player
        if (
            self.current is None
            and self._ready
            and self._tracker.plays_here(seat)
            and not self.finished
            and not self._backends.mishaps.pending
        ):
            asked = bool(self._requested)
            action = self._next_action(self._tracker.state)
            if action is not None:
                if self._judged_from is None:  # a resumed game: judge from here on
                    self._judged_from = len(self._tracker.history)
                    self.judge = Judge(self.stats)
                self.current = Performance(self._backends, self._tracker, action, now, self.stats, answers=not asked)
                self.judge.intend(self.current)
                self._log(f"virtual hands: seat {self.current.before.current_player} plays {self.current.text}")
        self._backends.mishaps.before_scan(now, apply_step)
        if self.current is not None:
            try:
                self.current.before_scan(now)
            except ValueError as error:  # the pieces are not where the move needs them: set the board right
                self._log(f"virtual hands: {self.current.text} cannot be made ({error}); setting the board right")
                self.current = None
                self._ready = False
        self._backends.board.now = now

    def _restore(self, now: int) -> None:
        """Before play (set-up, or after a restart mid-move), make the board match the game: the
        pieces go where the LEDs ask, as players do when the board comes back after a power cut."""
        board = self._backends.board
        if self._restoring is None:
            target = self._tracker.state.occupancy()
            if board.occupancy() == target:
                return
            is_field = board.channel_of.__contains__
            self._restoring = (now, self._backends.hands.plan(board.occupancy(), target, is_field), 0)
            self._log("virtual hands: setting the board to the game's position")
        start, steps, index = self._restoring
        while index < len(steps) and start + steps[index].at <= now:
            apply_step(board, steps[index])
            index += 1
        self._restoring = (start, steps, index) if index < len(steps) else None

    def after_scan(self, now: int, output: TrackerOutput) -> None:
        if output.display.mode == "idle" and self._restoring is None:
            # Ready once the pieces really stand where the game says: sensors that cannot count a
            # stack may read idle while a restore is still putting pieces back.
            self._ready = True
        elif (
            output.display.mode in ("guidance", "restore", "remote")
            and self.current is None
            and self._restoring is None
        ):
            self._ready = False  # the game went another way than the board (a take-back): set it right
        if self._judged_from is not None:
            self.judge.see(output)
        move = self.current
        if move is None:
            return
        result = move.after_scan(now, output)
        if result is False:
            self.stopped = f"the board did not recognise {move.text}; the virtual hands stop"
            self._log(self.stopped)
        if result is not None:
            self.current = None

    def _next_action(self, state: State) -> Action | None:
        self._thinking = False
        if self._requested:
            action = self._requested.pop(0)
            if action in state.legal_actions():
                return action
            self._log("virtual hands: a requested move is no longer legal; dropped")
            return None
        if self._next_move < len(self._moves):
            text = self._moves[self._next_move]
            self._next_move += 1
            try:
                return state.parse_action(text)
            except ValueError as error:
                self.stopped = f"scripted move {text!r} does not fit the game: {error}"
                self._log(self.stopped)
                return None
        bot = self._bots[state.current_player] if state.current_player < len(self._bots) else None
        action = bot.poll(state) if bot is not None else None  # None while the bot still thinks
        self._thinking = bot is not None and action is None
        return action
