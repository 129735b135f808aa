"""A guest board's side of a remote game: it follows the host's word and proposes its own seats'
moves (docs/remote.md, rules 2, 4, 5 and 7). Pure: it is handed messages and local commits, and
says what to send and which position the board should show."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from controller.games import Action, Game, State
from controller.games.seats import seat_name
from controller.remote.host import Send
from controller.remote.messages import Answer, Decline, Message, Ply, Propose, Refuse, Request, Sync
from controller.remote.position import digest

ASKED = {
    "takeback": "take back the last move",
    "abandon": "abandon the game",
    "draw": "agree a draw",
    "resign": "resign",
}
ENDING = frozenset({"abandon", "draw"})  # requests whose yes ends the game (on a screen: the PIN's, docs/web.md)


def yes_needs_pin(asked: tuple[str, str]) -> str:
    """What a screen hears when it presses confirm for a yes that ends the game (`asked`: what, by
    which board): that yes needs the table PIN."""
    what, board = asked
    return (
        f"board {board} asks to {ASKED[what]}: accepting ends the game, so it needs the table PIN (Accept…); "
        "undo declines"
    )


@dataclass
class Heard:
    """What one message from the host changed: whether the board's position moved on, and what to
    tell the people (and the log)."""

    moved: bool = False
    said: list[str] = field(default_factory=list)  # for everyone at the board, and the log
    private: list[tuple[int, str]] = field(default_factory=list)  # (seat, words) for that seat alone
    sends: list[Send] = field(default_factory=list)


class Guest:
    """One board's view of a game another board hosts."""

    def __init__(self, me: str, host: str, game_id: str, game: Game, seats: Sequence[str]) -> None:
        self.me = me
        self.host = host
        self.game_id = game_id
        self.game = game
        self.seats = tuple(seats)
        self.ply = -1  # the last ply the host has told this board (-1: none yet)
        self.revision = 0  # of the host's last word (Ply.revision): a copy from before a correction is stale
        self._known: dict[int, State] = {}  # the stand-ins of the plies told, by ply (gaps skipped)
        self.pending: list[Propose] = []  # this board's moves the host has not answered yet
        self._movers: dict[int, int] = {}  # the seat of this board's move at each ply it proposed
        self.disagree: str | None = None
        self.last: Ply | None = None  # the host's last word, kept so a restarted board can show it
        # The plies of this board's moves whose outcome only the host knows (a card drawn): until the
        # host's word on them, this board's stand-in holds a made-up card, and its seats wait.
        self.blind: set[int] = set()
        self.asked: Request | None = None  # another board's request, waiting for this board's answer
        self._answered_last: tuple[Request, Answer] | None = None  # the last request answered here, and how
        # This board's own request, until the host answers it or the game moves on: sent again while
        # the host's word says nothing of it (docs/remote.md, rule 7). Its key tells a repeat from a
        # new request, so the host never asks the other boards' people twice.
        self.own: Request | None = None
        # Whether the host has spoken since this board started: a board back from a power cut shows
        # the host's last word it kept, but its seats wait until the host says where the game is.
        self.synced = False
        self.abandoned = False  # the boards agreed to abandon the game
        self.result = ""  # a draw the boards agreed, or a resignation: the game is over

    @property
    def waiting(self) -> bool:
        """Whether this board's seats must wait for the host's word before they move again."""
        return any(proposal.ply in self.blind for proposal in self.pending)

    @property
    def moves(self) -> list[str]:
        """Every move so far as this board may read them: the host's last word says."""
        return list(self.last.moves) if self.last is not None else []

    @property
    def movers(self) -> list[int]:
        """The seat that made each of `moves`."""
        return list(self.last.movers) if self.last is not None else []

    @property
    def history(self) -> list[State]:
        """The stand-ins of the plies told, oldest first (a ply missed while away is not there)."""
        return [self._known[ply] for ply in sorted(self._known)]

    @property
    def state(self) -> State | None:
        """The host's last word: the stand-in of the last ply told."""
        return self._known.get(self.ply)

    def mine(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat] == self.me

    def hello(self) -> list[Send]:
        """On (re)connecting: ask the host for what this board missed."""
        return [Send(self.host, Sync(self.game_id, max(self.ply, 0)))]

    def position(self) -> tuple[State, list[State]] | None:
        """The position the board should show: the host's last word with this board's unanswered
        moves played on it, and the states before it."""
        state = self.state
        if state is None:
            return None
        history = self.history[:-1]
        for proposal in self.pending:
            try:
                after = state.apply(state.parse_action(proposal.move))
            except ValueError:
                break
            history, state = [*history, state], after
        return state, history

    # --- the board's own moves --------------------------------------------------------------------------
    def local_move(self, before: State, action: Action, replace: bool = False) -> list[Send]:
        """The tracker committed `action` on this board, or (`replace`) corrected this board's last
        move into it: propose it if the seat is this board's."""
        seat = before.current_player
        if not self.mine(seat):
            where = self.seats[seat] if seat < len(self.seats) else "another board"
            raise ValueError(f"{seat_name(before, seat)} plays on board {where}: wait for the move from there")
        text = before.action_to_str(action)
        self._movers[self.ply + len(self.pending) - (1 if replace else 0)] = seat
        if before.apply(action).chance_count() != before.chance_count():
            self.blind.add(self.ply + len(self.pending) - (1 if replace else 0))
        if replace and self.pending:
            proposal = Propose(self.game_id, self.pending[-1].ply, text, replace=True)
            self.pending[-1] = proposal
        else:
            ply = self.ply + len(self.pending) - (1 if replace else 0)
            proposal = Propose(self.game_id, ply, text, replace=replace)
            self.pending.append(proposal)
        return [Send(self.host, proposal)]

    # --- the host's word --------------------------------------------------------------------------------
    def receive(self, sender: str, message: Message) -> Heard:
        if sender != self.host:
            raise ValueError(f"board {sender} is not the host of game {self.game_id}")
        if isinstance(message, Ply):
            return self._ply(message)
        if isinstance(message, Refuse):
            return self._refused(message)
        if isinstance(message, Request):
            return self._requested(message)
        if isinstance(message, Answer):
            return self._answered(message)
        raise ValueError(f"a {message.type} message is not for a guest of game {self.game_id}")

    # --- requests: take-back and abandon, by agreement (docs/remote.md, rule 8) --------------------------
    def request(self, kind: str) -> list[Send]:
        """Ask the other boards (through the host) for a take-back, a draw or to abandon the game;
        or resign, which needs nobody, so it holds here at once, whether or not the host is there to
        hear it now (docs/remote.md, rule 8): a board can always leave a game."""
        if kind != "resign":
            if self.own is not None:
                asking = ASKED[self.own.kind]
                raise ValueError(f"this board is asking the others already to {asking}: wait for their answer")
            self.own = Request(self.game_id, kind, self.ply, self.me, secrets.token_hex(8))
            return [Send(self.host, self.own)]
        sends = [Send(self.host, Request(self.game_id, kind, self.ply, self.me))]
        if kind == "resign":
            if self.abandoned or self.result or (self.state is not None and self.state.is_terminal()):
                raise ValueError("the game is over already")
            self.result = f"board {self.me} resigned"
            self.own = None  # the game is over here, and this board's request with it
            if self.ply < 0:  # the host may still wait for other boards to accept: this one declines
                sends.insert(0, Send(self.host, Decline(self.game_id, f"board {self.me} left before the game began")))
        return sends

    def answer(self, accept: bool) -> list[Send]:
        """This board's answer to the request it was asked."""
        asked, self.asked = self.asked, None
        if asked is None:
            raise ValueError("no other board is asking anything")
        answer = Answer(self.game_id, asked.kind, asked.ply, accept, self.me)
        self._answered_last = (asked, answer)
        return [Send(self.host, answer)]

    def _requested(self, message: Request) -> Heard:
        """The host asks this board's yes: once asked, a repeat (the host asks again after a link
        or broker lost words) asks nobody here again; one answered already is answered again."""
        if self._answered_last is not None and self._answered_last[0] == message:
            return Heard(sends=[Send(self.host, self._answered_last[1])])
        if self.asked == message:
            return Heard()
        self.asked = message
        return Heard(said=[f"board {message.by} asks to {ASKED[message.kind]}: accept or decline"])

    def called_off(self, reason: str) -> str:
        """The host withdrew the invitation this board accepted (docs/remote.md, rule 13): no board
        hosts the game, so it is over here; the words for the people ("" if it was over already)."""
        if self.result or self.abandoned:
            return ""  # over already: nothing changes, nothing to say
        self.result = f"{reason:.200}" if reason else f"board {self.host} called the game off"
        return f"{self.result}: the game is off"

    def _answered(self, message: Answer) -> Heard:
        if self.asked is not None and (self.asked.kind, self.asked.ply) == (message.kind, message.ply):
            self.asked = None
        answered = self._answered_last
        if answered is not None and (answered[0].kind, answered[0].ply) == (message.kind, message.ply):
            self._answered_last = None  # settled: the same request asked again is a new one
        what = ASKED.get(message.kind, message.kind)
        own = self.own is not None and message.key == self.own.key
        if own:
            self.own = None
        if message.reason:
            if not own and message.kind != "resign":
                return Heard()  # a refusal of a repeat that came late: the request was settled already
            return Heard(said=[f"the request to {what} was refused: {message.reason}"])
        if not message.accept:
            return Heard(said=[f"board {message.by} declined to {what}"])
        if message.kind == "abandon":
            self.abandoned = True
        if message.kind == "resign":
            self.result = f"board {message.by} resigned"
            return Heard(said=[f"board {message.by} resigned: the game is over"])
        if message.kind == "draw":
            self.result = "a draw, by agreement"
        return Heard(said=[f"the boards agreed to {what}"])

    def _ply(self, message: Ply) -> Heard:
        # The first word since this board started is the host's, whatever its ply (docs/remote.md,
        # rule 12): what this board kept may be of an earlier game of the same name.
        first, self.synced = not self.synced, True
        newer = first or (message.revision, message.ply) > (self.revision, self.ply)
        self._check_seats(message)
        if not newer:  # a repeat or a late copy: nothing changes but that the game is over, if it says so
            said, sends = self._own_request(message, newer)
            return Heard(said=self._ended(message, newer) + said, sends=self._resign_again(message) + sends)
        try:
            stand_in = self.game.state_from_json(message.state)
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"the host's position at move {message.ply} cannot be read: {error}") from None
        if stand_in.players != len(self.seats):
            raise ValueError(
                f"the host's position at move {message.ply} has {stand_in.players} seats, "
                f"and this game {len(self.seats)}"
            )
        said, sends = self._own_request(message, newer)  # once the word is one this board can take
        heard = Heard(moved=True, said=self._ended(message, newer) + said, sends=self._resign_again(message) + sends)
        if digest(stand_in, message.ply) != message.digest:
            self.disagree = f"this board's position at move {message.ply} differs from the host's"
            heard.said.append(self.disagree + "; the host's position stands")
        if message.ply > self.ply + 1 and self.ply >= 0:
            heard.said.append(f"caught up from move {self.ply + 1} to move {message.ply + 1}")
        back = message.revision > self.revision and message.ply < self.ply
        if back:
            heard.said.append("the last move was taken back: put the pieces back as the LEDs show")
        elif message.revision > self.revision and message.ply == self.ply:
            # A move of this board's seat is in its own notation, which only that seat may read.
            to = "" if self.mine(message.seat) else f" to {message.move}"
            heard.said.append(f"move {message.ply} was corrected{to}")
        self._known = {ply: state for ply, state in self._known.items() if ply < message.ply}
        self._known[message.ply] = stand_in
        self.ply, self.revision = message.ply, message.revision
        self.last = message
        self.pending = [p for p in self.pending if p.ply >= message.ply]
        self.blind = {ply for ply in self.blind if ply >= message.ply}
        self._movers = {ply: seat for ply, seat in self._movers.items() if ply >= message.ply}
        if message.ply > 0 and not back and not self.mine(message.seat):
            who = seat_name(stand_in, message.seat)
            heard.said.append(f"{who} played {message.move} on board {self.seats[message.seat]}: make it on the board")
        return heard

    def _ended(self, message: Ply, newer: bool) -> list[str]:
        """What the host's word says of a game the boards ended (docs/remote.md, rule 10), and the
        words for it if this board did not know: a word of the same ply says it again to a board that
        missed the boards' answer; only a newer word (or the first since this board started) says
        the game goes on, never a late copy of the last move's."""
        knew = (self.result, self.abandoned)
        if message.result or message.abandoned:
            self.result, self.abandoned = message.result, message.abandoned
        elif newer and self.result != f"board {self.me} resigned":  # the host may not have heard it yet
            self.result, self.abandoned = "", False
        if (self.result, self.abandoned) == knew or not (self.result or self.abandoned):
            return []
        return [f"the game is over: {self.result}" if self.result else "the boards agreed to abandon the game"]

    def _own_request(self, message: Ply, newer: bool) -> tuple[list[str], list[Send]]:
        """This board's open request against the host's word (words, sends): a word that ends the
        game or moves it on settles it (a move or a correction made before every board answered lets
        it lapse); one that does neither shows the host may never have had it, so it goes again, and
        the host's answer to a repeat changes nothing (docs/remote.md, "Delivery")."""
        own = self.own
        if own is None:
            return [], []
        if message.result or message.abandoned:
            self.own = None
            return [], []  # the game is over, and the request with it
        if newer and (message.ply, message.revision) != (self.ply, self.revision):
            self.own = None
            if own.kind == "takeback" and message.revision > self.revision and message.ply < self.ply:
                return [], []  # carried out: the word says the move was taken back
            return [f"the request to {ASKED[own.kind]} lapsed: the game moved on before every board answered"], []
        return [], [Send(self.host, own)]

    def _resign_again(self, message: Ply) -> list[Send]:
        """This board resigned and the host's word says the game goes on: the resignation was lost on
        the way (a link or a broker that lost it), so it goes again (docs/remote.md, "Delivery")."""
        if self.result != f"board {self.me} resigned" or message.result or message.abandoned:
            return []
        return [Send(self.host, Request(self.game_id, "resign", message.ply, self.me))]

    def _check_seats(self, message: Ply) -> None:
        """The seats the host's word names are seats of this game (docs/remote.md, rule 9)."""
        seats = range(len(self.seats))
        if not len(message.moves) == len(message.movers) == message.ply:
            raise ValueError(
                f"the host's word at move {message.ply} lists {len(message.moves)} moves by {len(message.movers)} seats"
            )
        if any(seat not in seats for seat in message.movers):
            raise ValueError(f"the host's word at move {message.ply} names a seat beyond the game's {len(seats)}")
        if (message.ply == 0) != (message.seat == -1) or (message.ply > 0 and message.seat not in seats):
            raise ValueError(f"the host's word at move {message.ply} names seat {message.seat} as its mover")

    def _refused(self, message: Refuse) -> Heard:
        if not any(p.ply == message.ply and p.move == message.move for p in self.pending):
            return Heard()  # an answer to a proposal already settled
        self.pending = [p for p in self.pending if p.ply < message.ply]
        words = f"the host refused {message.move}: {message.reason}"  # the seat's own move, its own words
        seat = self._movers.get(message.ply)
        return Heard(moved=True, private=[(seat, words)] if seat is not None else [])
