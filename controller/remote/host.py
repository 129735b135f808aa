"""The host board's side of a remote game: it referees and holds what is hidden (docs/remote.md,
rules 1, 2, 4, 5 and 7). Pure: it is handed the moves and messages, and returns what to send."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from controller.games import Action, IllegalAction, State
from controller.games.public import public_observation
from controller.games.seats import result_line, seat_name
from controller.remote.messages import Answer, Message, Ply, Propose, Record, Refuse, Request, Sync
from controller.remote.position import digest, public_board


@dataclass(frozen=True)
class Send:
    """One message to send: to a board, or (`to` None) the game's public record."""

    to: str | None
    message: Message


ASKABLE = ("takeback", "abandon", "draw", "resign")


@dataclass
class Asking:
    """An open request: what, at which ply, by whom, and the boards whose yes it still needs."""

    kind: str
    ply: int
    by: str
    waiting: set[str]
    key: str = ""  # the asking board's key for it (Request.key): a repeat carries the same


@dataclass(frozen=True)
class Played:
    """One move of the game as the host keeps it."""

    seat: int
    text: str  # the move's notation, for the board that owns the seat
    public: str  # as every other board may read it


class Host:
    """The referee of one remote game: the true state, and which board owns each seat."""

    def __init__(
        self,
        me: str,
        game_id: str,
        history: Sequence[State],
        seats: Sequence[str],
        played: Sequence[Played] = (),
        rng: random.Random | None = None,
    ) -> None:
        if len(history) != len(played) + 1:
            raise ValueError("a host's history has one state more than it has moves")
        state = history[-1]
        if len(seats) != state.players:
            raise ValueError(f"{state.game.title} here has {state.players} seats, and {len(seats)} boards were named")
        self.me = me
        self.game_id = game_id
        self.seats = tuple(seats)
        self.history = list(history)
        self.played = list(played)
        self._rng = rng or random.Random()
        self.status = "playing"
        self.revision = 0  # corrections and take-backs of moves already sent (Ply.revision)
        self.asking: Asking | None = None  # the open request, if any
        self.result = ""  # a result the boards agreed (a draw) or a resignation, where the rules gave none
        # The last answer each guest was given to a request of its own, so that a repeat of it (the
        # answer was lost on the way) is answered again as it was, asking nobody (docs/remote.md, rule 7).
        self.told: dict[str, Answer] = {}

    @property
    def state(self) -> State:
        return self.history[-1]

    @property
    def ply(self) -> int:
        return len(self.played)

    @property
    def guests(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(board for board in self.seats if board != self.me))

    def owns(self, board: str, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat] == board

    # --- what happens here ----------------------------------------------------------------------------
    def local_move(self, action: Action, replace: bool = False) -> list[Send]:
        """A seat of this board moved (the local tracker committed it), or (`replace`) its last move
        was corrected into `action`: tell everyone."""
        ended = self.ended_by_boards()
        if ended is not None:
            raise ValueError(f"{ended}: start a new one")
        if replace:
            self._take_back_last()
        state = self.state
        if not self.owns(self.me, state.current_player):
            raise ValueError(self._elsewhere(state))
        self._play(action)
        return self.announce()

    def _take_back_last(self) -> None:
        """The last move is replaced by a correction (docs/remote.md, rule 5): the boards that have
        it take the corrected position, which a higher revision marks as newer."""
        self.history.pop()
        self.played.pop()
        self.revision += 1
        self.status, self.result = "playing", ""
        self.asking = None  # a request was about the position that is gone

    def announce(self, boards: Sequence[str] | None = None) -> list[Send]:
        """The current ply to `boards` (default: every guest), and the public record."""
        sends = [Send(board, self.ply_for(board)) for board in (self.guests if boards is None else boards)]
        return [*sends, Send(None, self.record())]

    def greeting(self, boards: Sequence[str] | None = None) -> list[Send]:
        """Where the game stands, for `boards` (default: every guest) that may have missed words: the
        current ply, and the open request to those whose answer it awaits (docs/remote.md, rule 7)."""
        boards = self.guests if boards is None else boards
        asking = self.asking
        if asking is None:
            return self.announce(boards)
        request = Request(self.game_id, asking.kind, asking.ply, asking.by, asking.key)
        return [*self.announce(boards), *(Send(board, request) for board in boards if board in asking.waiting)]

    def receive(self, sender: str, message: Message) -> list[Send]:
        """A guest's message; a board without a seat here is ignored (the caller logs it)."""
        if sender not in self.guests:
            raise ValueError(f"board {sender} has no seat in game {self.game_id}")
        if isinstance(message, Sync):
            return self.greeting([sender])
        if isinstance(message, Propose):
            return self._proposed(sender, message)
        if isinstance(message, Request):
            return self.request(sender, message.kind, message.ply, message.key)
        if isinstance(message, Answer):
            return self.answer(sender, message.kind, message.ply, message.accept)
        raise ValueError(f"a {message.type} message is not for the host of game {self.game_id}")

    # --- requests: take-back and abandon, by agreement (docs/remote.md, rule 8) --------------------------
    @property
    def boards(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.seats))

    def request(self, by: str, kind: str, ply: int, key: str = "") -> list[Send]:
        """Board `by` asks the others for a take-back, a draw or to abandon the game, or resigns
        (which needs nobody's yes); refused in words (to `by`) when it cannot be asked now. A guest's
        repeat of its request (`key`) changes nothing: one still open is still being asked, one
        settled is answered again as it was (docs/remote.md, rule 7)."""
        if kind == "resign" and by != self.me and self.result == f"board {by} resigned":
            return self.announce([by])  # a repeat (the board had not heard that it was heard): harmless
        if by != self.me and key:
            asking, told = self.asking, self.told.get(by)
            if asking is not None and (asking.by, asking.key) == (by, key):
                return []
            if told is not None and told.key == key:
                return [Send(by, told), *(self.announce([by]) if told.accept else [])]
        refusal = self._why_not(kind, ply)
        if refusal is not None:
            if by == self.me:
                raise ValueError(refusal)
            return [Send(by, self._tell(by, Answer(self.game_id, kind, ply, False, self.me, refusal, key)))]
        if kind == "resign":
            self.status, self.result, self.asking = "over", f"board {by} resigned", None
            others = [board for board in self.boards if board != self.me]
            return [*(Send(board, Answer(self.game_id, kind, ply, True, by)) for board in others), *self.announce()]
        self.asking = Asking(kind, ply, by, set(self.boards) - {by}, key)
        return [
            Send(board, Request(self.game_id, kind, ply, by, key))
            for board in self.boards
            if board not in (by, self.me)
        ]

    def _tell(self, board: str, answer: Answer) -> Answer:
        """`answer` to a request of `board`, kept to be given again should the board ask again."""
        if board != self.me:
            self.told[board] = answer
        return answer

    def ended_by_boards(self) -> str | None:
        """Why the game takes nothing more, in words, if a board ended it (docs/remote.md, rule 10):
        a resignation, an agreed draw, or abandoned. A game its rules ended is not: its last move
        may still be corrected or taken back."""
        if self.status == "abandoned":
            return "the game was abandoned by agreement"
        if self.result:
            return f"the game is over: {self.result}"
        return None

    def _why_not(self, kind: str, ply: int) -> str | None:
        if kind not in ASKABLE:
            return f"there is no request {kind!r} (requests: {', '.join(ASKABLE)})"
        ended = self.ended_by_boards()
        if ended is not None:
            return ended
        if kind != "takeback" and (self.status != "playing" or self.state.is_terminal()):
            return "the game is over already"
        if kind == "resign":
            return None  # needs nobody's yes, whatever move it was made at, and ends an open request
        if self.asking is not None:
            return f"board {self.asking.by} is asking the others already"
        if ply != self.ply:
            return f"the game is at move {self.ply + 1}, not {ply + 1}"
        if kind == "takeback" and not self.played:
            return "no move has been made yet"
        return None

    def answer(self, by: str, kind: str, ply: int, accept: bool) -> list[Send]:
        """Board `by` answers the open request; the first no ends it, the last yes carries it out."""
        asking = self.asking
        if asking is None or (asking.kind, asking.ply) != (kind, ply) or by not in asking.waiting:
            return []  # an answer to a request already settled, or not this board's to give
        others = [board for board in self.boards if board != self.me]
        if not accept:
            self.asking = None
            settled = self._tell(asking.by, Answer(self.game_id, kind, ply, False, by, key=asking.key))
            return [Send(board, settled) for board in others]
        asking.waiting.discard(by)
        if asking.waiting:
            return []
        self.asking = None
        settled = self._tell(asking.by, Answer(self.game_id, kind, ply, True, by, key=asking.key))
        if kind == "takeback":
            self._take_back_last()
        elif kind == "draw":
            self.status, self.result = "over", "a draw, by agreement"
        else:
            self.status = "abandoned"
        return [*(Send(board, settled) for board in others), *self.announce()]

    def _proposed(self, sender: str, message: Propose) -> list[Send]:
        if message.ply < self.ply:
            played = self.played[message.ply]
            if played.text == message.move and self.owns(sender, played.seat):
                return [Send(sender, self.ply_for(sender))]  # a repeat: it was played, the board may have missed it
        ended = self.ended_by_boards()
        if ended is not None:
            return self._refuse(sender, message, ended)
        if message.replace and message.ply == self.ply - 1 and self.owns(sender, self.played[-1].seat):
            before = self.history[-2]
            try:
                action = before.parse_action(message.move)
                before.apply(action)
            except IllegalAction as error:
                return self._refuse(sender, message, f"{message.move} is not legal here: {error.reason}")
            self._take_back_last()
            self._play(action)
            return self.announce()
        if message.ply < self.ply:
            late = f"the game is at move {self.ply + 1} already; {message.move} came late"
            return self._refuse(sender, message, late)
        if message.ply > self.ply:
            return self._refuse(sender, message, f"the game is at move {self.ply + 1}, not {message.ply + 1}")
        state = self.state
        if state.is_terminal():
            return self._refuse(sender, message, "the game is over")
        if not self.owns(sender, state.current_player):
            return self._refuse(sender, message, self._elsewhere(state))
        try:
            action = state.parse_action(message.move)
            self._play(action)
        except IllegalAction as error:
            return self._refuse(sender, message, f"{message.move} is not legal here: {error.reason}")
        return self.announce()

    def _refuse(self, sender: str, message: Propose, reason: str) -> list[Send]:
        refusal = Refuse(self.game_id, message.ply, message.move, reason)
        return [Send(sender, refusal), Send(sender, self.ply_for(sender))]

    def _elsewhere(self, state: State) -> str:
        seat = state.current_player
        return f"{seat_name(state, seat)} is to move, and plays on board {self.seats[seat]}"

    def _play(self, action: Action) -> None:
        state = self.state
        after = state.apply(action)
        text, public = state.action_to_str(action), state.public_action_to_str(action)
        self.played.append(Played(state.current_player, text, public))
        self.asking = None  # a request was about the position before this move
        self.history.append(after)
        if after.is_terminal():
            self.status = "over"

    # --- what each board may read ----------------------------------------------------------------------
    def ply_for(self, board: str) -> Ply:
        """The current ply as `board` may read it: its stand-in, and the last move in the notation
        its seats may read."""
        state = self.state
        mine = [seat for seat, owner in enumerate(self.seats) if owner == board]
        stand_in = state.sample_unseen(frozenset(mine), self._rng) if mine else state
        moves = tuple(played.text if played.seat in mine else played.public for played in self.played)
        movers = tuple(played.seat for played in self.played)
        return Ply(
            self.game_id,
            self.ply,
            moves[-1] if moves else "",
            movers[-1] if movers else -1,
            digest(state, self.ply),
            stand_in.to_json(),
            moves,
            movers,
            self.revision,
            self.result,
            self.status == "abandoned",
        )

    def record(self) -> Record:
        state = self.state
        public, _ = public_observation(state)
        return Record(
            self.game_id,
            state.game.name,
            self.me,
            self.ply,
            digest(state, self.ply),
            tuple(played.public for played in self.played),
            self.seats,
            public,
            self.result or (result_line(state) if state.is_terminal() else ""),
            self.status,
            public_board(state),
            state.players,
        )
