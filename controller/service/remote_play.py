"""The service's side of a game played with other boards (docs/remote.md): the board's link and its
role (host or guest), fed once per scan. It tells the tracker which seats move on this board and
which position another board's move made; it sends this board's own moves; the host journals the
moves made elsewhere, a guest keeps the host's last word so that it can show the game after a power
cut before the host answers."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from controller.files import UnreadableFile, read_bounded
from controller.games import Action, Game, State
from controller.remote.guest import ASKED, ENDING, Guest, yes_needs_pin
from controller.remote.host import Host, Played
from controller.remote.link import Event, Link, RemoteGame
from controller.remote.messages import MAX_PAYLOAD, MessageError, Ply, decode, encode
from controller.remote.position import digest
from controller.remote.table import RemoteTable, Update
from controller.remote.topics import check_name
from controller.service.control import (
    Abandon,
    AnswerBoards,
    AskBoards,
    Command,
    CommandError,
    MoveEntry,
    NewGame,
    Press,
    RemoteView,
    Resume,
)
from controller.service.disk import atomic_write
from controller.table.tracker import Tracker

QUIET_MS = 1000  # longer than a hand rests on a wrong field before moving on (sim/hands.py: 300-800 ms)


def _answer_of(command: Command, asked: tuple[str, str] | None) -> bool | None:
    """The yes or no `command` gives another board's request, if it answers one: a screen's answer
    (`AnswerBoards`, with the PIN), or the board's confirm and undo while a request is open."""
    if isinstance(command, AnswerBoards):
        return command.accept
    if isinstance(command, Press) and asked is not None and command.button in ("confirm", "undo"):
        if command.button == "confirm" and command.from_page and asked[0] in ENDING:
            # A page's press let through before the request came (the hub judged an older picture).
            raise ValueError(yes_needs_pin(asked))
        return command.button == "confirm"
    return None


def remote_game_of(start: Mapping[str, Any]) -> RemoteGame | None:
    """The game across boards a journal's start record names (one started from the lobby), if any."""
    remote = start.get("remote")
    if not isinstance(remote, Mapping):
        return None
    try:
        seats = remote["seats"]
        if not isinstance(seats, list) or not all(isinstance(seat, str) for seat in seats):
            return None
        return RemoteGame(check_name(remote["game"], "game"), check_name(remote["host"], "host"), tuple(seats))
    except (KeyError, ValueError):
        return None


class RemotePlay:
    def __init__(self, table: RemoteTable, state_dir: Path, log: logging.Logger) -> None:
        self.table = table
        self._saved = state_dir / f"remote-{table.game_id}.json"
        self.log = log
        self._tracker: Tracker | None = None
        self._ended_told: tuple[str, str] | None = None  # the end by the boards last reported (Update.ended)

    @classmethod
    def start(
        cls,
        link: Link,
        spec: RemoteGame,
        history: Sequence[State],
        moves: Sequence[MoveEntry],
        state_dir: Path,
        log: logging.Logger,
    ) -> RemotePlay:
        """Take this board's role in game `spec` over `link`; `history` and `moves` are the host's
        journal (a guest's are only the stand-in it starts from)."""
        game = history[-1].game
        me = link.settings.board
        role: Host | Guest
        if spec.host == me:
            played = [Played(move.seat, move.text, move.public) for move in moves]
            role = Host(me, spec.game, history, spec.seats, played)
        else:
            role = Guest(me, spec.host, spec.game, game, spec.seats)
        play = cls(RemoteTable(link, role, log, QUIET_MS), Path(state_dir), log)
        if isinstance(role, Guest):
            play._load_saved(game)
        play._ended_told = play.ended
        if link.connected:
            play.table.greet()  # the link is up already: say hello now (else on connecting)
        return play

    @property
    def seats_here(self) -> frozenset[int]:
        me = self.table.link.settings.board
        return frozenset(seat for seat, board in enumerate(self.table.role.seats) if board == me)

    @property
    def role(self) -> Host | Guest:
        return self.table.role

    @property
    def guest(self) -> Guest | None:
        role = self.table.role
        return role if isinstance(role, Guest) else None

    def begin(self, tracker: Tracker, now: int) -> None:
        """The tracker of this game: which seats move here, and the host's last word if known."""
        self._tracker = tracker
        tracker.seats_here = self.seats_here
        position = self.position()
        if position is not None and position[0] is not tracker.state:
            tracker.follow(now, *position)

    def position(self) -> tuple[State, list[State]] | None:
        role = self.role
        return (role.state, role.history[:-1]) if isinstance(role, Host) else role.position()

    def committed(self, before: State, action: Action, after: State, via: str) -> None:
        """A move the tracker committed on this board (session.on_record): one of this board's
        seats' (the tracker commits no other, `Tracker.seats_here`)."""
        try:
            self.table.committed(before, action, replace=via == "correction")
        except ValueError as error:
            self.log.error("%s", error)
        guest = self.guest
        if guest is not None and guest.waiting and self._tracker is not None:
            self._tracker.seats_here = frozenset()  # a card only the host knows was drawn: wait for it

    def scan(self, now: int, tracker: Tracker, board_changed: bool, events: Sequence[Event]) -> Update:
        """Once per scan: what arrived (`events`, drained from the link), and the position the
        board now follows."""
        update = self.table.handle(events, now, board_changed)
        ended = self.ended
        if ended != self._ended_told:
            self._ended_told = update.ended = ended
        for line in [*update.said, *(words for _, words in update.private)]:
            self.log.info("%s", line)
        guest = self.guest
        waiting = guest is not None and (guest.waiting or not guest.synced)
        tracker.seats_here = frozenset() if waiting or not self.playing else self.seats_here
        if update.position is not None:
            state, history = update.position
            # The host's word on this board's own moves changes nothing anyone can see: the hands
            # here go on (`moved` stays False), and the tracker keeps what it knows of the board
            # (a move just made may still be corrected); only another board's move or a refusal
            # moves them.
            update.moved = digest(state, len(history)) != digest(tracker.state, len(tracker.history))
            if update.moved:
                tracker.follow(now, state, history)
            if isinstance(self.role, Guest):
                self._save()
        return update

    def view(self) -> RemoteView:
        role, me = self.role, self.table.link.settings.board
        host = role.me if isinstance(role, Host) else role.host
        guest = self.guest
        waiting = guest is not None and guest.waiting
        ended = self.ended
        return RemoteView(
            role.game_id,
            host,
            me,
            role.seats,
            dict(self.table.online),
            waiting,
            self.table.asked,
            ended[1] if ended is not None else None,
            self.table.asking,
        )

    def command(self, command: Command) -> str | None:
        """A screen's command in a game across boards (docs/remote.md, rule 8): undo and abandon
        become requests to the other boards, and confirm and undo answer another board's; None:
        the command is this board's own business."""
        asked = self.table.asked
        try:
            accept = _answer_of(command, asked)
            if accept is not None:
                if asked is None:
                    raise ValueError("no other board is asking anything")
                self.table.answer(accept)
                return f"{'accepted' if accept else 'declined'}: board {asked[1]} asked to {ASKED[asked[0]]}"
            if (isinstance(command, Press) and command.button == "undo") or isinstance(command, Abandon):
                kind = "takeback" if isinstance(command, Press) else "abandon"
                self.table.ask(kind)
                return f"the other boards are asked to {ASKED[kind]}"
            if isinstance(command, AskBoards):
                self.table.ask(command.kind)
                return (
                    "this board resigned"
                    if command.kind == "resign"
                    else f"the other boards are asked to {ASKED[command.kind]}"
                )
        except ValueError as error:
            raise CommandError(str(error)) from None
        if isinstance(command, NewGame | Resume) and self.playing:
            raise CommandError("a game across boards is on: ask the other boards to abandon it first")
        return None

    @property
    def ended(self) -> tuple[str, str] | None:
        """How the boards ended the game (docs/remote.md, rule 10), if they did: ("over", the result
        in words) for a resignation or an agreed draw, ("abandoned", words) if abandoned."""
        role = self.role
        abandoned = role.status == "abandoned" if isinstance(role, Host) else role.abandoned
        if abandoned:
            return "abandoned", "the boards agreed to abandon it"
        return ("over", role.result) if role.result else None

    @property
    def playing(self) -> bool:
        state = self.role.state
        return self.ended is None and not (state is not None and state.is_terminal())

    @property
    def holding(self) -> bool:
        """Whether this board's last moves are still held until the board stands still (rule 5)."""
        return self.table.holding

    @property
    def settled(self) -> bool:
        """Whether this board's moves have all reached the host and been taken."""
        return self.table.settled

    def close(self) -> None:
        self.table.flush()  # a move made just before a clean stop still leaves

    # --- a guest's memory of the host's last word ------------------------------------------------------
    def _save(self) -> None:
        role = self.role
        assert isinstance(role, Guest)
        if role.last is None:
            return
        atomic_write(self._saved, encode(role.last))

    def _load_saved(self, game: Game) -> None:
        role = self.role
        assert isinstance(role, Guest)
        try:
            message = decode(read_bounded(self._saved, "the last position heard from the host", MAX_PAYLOAD))
        except UnreadableFile as error:
            if not error.missing:
                self.log.warning("%s", error)
            return
        except MessageError as error:
            self.log.warning("the last position heard from the host (%s) is unreadable: %s", self._saved, error)
            return
        if isinstance(message, Ply):
            try:
                role.receive(role.host, message)
            except ValueError as error:
                self.log.warning("the last position heard from the host cannot be used: %s", error)
            role.synced = False  # kept from before: the host's word now is yet to come
