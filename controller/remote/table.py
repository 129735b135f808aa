"""One board's part in a remote game: its link to the broker and its role, host or guest
(docs/remote.md). The service calls `poll` once per scan and `committed` when its tracker commits a
move; both return at once. What comes back says which position the board should now show."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from controller.games import Action, State
from controller.games.seats import seat_name
from controller.remote.guest import ASKED, Guest
from controller.remote.host import Host, Send
from controller.remote.link import Event, Incoming, Link, LinkState
from controller.remote.messages import Ply, Presence, Propose, Refuse


def handle_alone(log: logging.Logger, sender: str, handle: Callable[[], object]) -> None:
    """Handle one message from board `sender`; one it should not have sent (a ValueError in words)
    is logged and ignored. Should handling fail otherwise (a fault the checks missed), the message
    is dropped and the board goes on (docs/remote.md, rule 9): it never stops the scan loop."""
    try:
        handle()
    except ValueError as error:
        log.warning("a message from board %s was ignored: %s", sender, error)
    except Exception as error:
        log.error("a message from board %s could not be handled and was dropped: %s", sender, error or "no words")
        log.debug("the fault, for a report", exc_info=True)


@dataclass
class Update:
    """What the broker brought in one poll: the position to show (with the states before it) if it
    moved on, the moves played on other boards (for the host's journal), and words for the people."""

    position: tuple[State, list[State]] | None = None
    # (before, action, after, via): via "remote", or "correction" where it replaces the move before
    played: list[tuple[State, Action, State, str]] = field(default_factory=list)
    moved: bool = True  # whether `position` differs from what the board shows, as anyone can see
    took_back: int = 0  # moves the boards agreed to take back (the host's journal drops them)
    ended: tuple[str, str] | None = None  # the boards have just ended the game: ("over" or "abandoned", words)
    said: list[str] = field(default_factory=list)  # for everyone at the board, and the log
    private: list[tuple[int, str]] = field(default_factory=list)  # (seat, words) for that seat alone


class RemoteTable:
    """`quiet_ms`: how long the board must stand still after one of its moves before the move
    leaves it (docs/remote.md, rule 5): a hand that lets go on a wrong field and moves on corrects
    the move before anyone else sees it. 0: at once."""

    def __init__(self, link: Link, role: Host | Guest, log: logging.Logger | None = None, quiet_ms: int = 0) -> None:
        self.link = link
        self.role = role
        self.log = log or logging.getLogger("tafel.remote")
        self.online: dict[str, bool] = {}  # the other boards' presence, as last heard
        self.quiet_ms = quiet_ms
        self._unsent: list[Send] = []  # this board's last moves, until the board stands still
        self._local = Update()  # what this board's own answer changed, reported by the next poll
        self._quiet_since = 0

    @property
    def game_id(self) -> str:
        return self.role.game_id

    def poll(self, now: int = 0, board_changed: bool = False) -> Update:
        """What arrived on the link; and this board's moves leave once the board has stood still
        `quiet_ms`."""
        return self.handle(self.link.drain(), now, board_changed)

    def handle(self, events: Sequence[Event], now: int = 0, board_changed: bool = False) -> Update:
        """`poll` for events drained by the caller (a board that also follows its invitations)."""
        if board_changed:
            self._quiet_since = now
        if self._unsent and now - self._quiet_since >= self.quiet_ms:
            self.flush()
        update, self._local = self._local, Update()
        for event in events:
            if isinstance(event, LinkState):
                self._link_changed(event, update)
            else:
                self._incoming(event, update)
        return update

    def committed(self, before: State, action: Action, replace: bool = False) -> None:
        """This board's tracker committed `action` in `before`, or (`replace`) corrected its last
        move into it."""
        role = self.role
        if isinstance(role, Host):
            sends = role.local_move(action, replace)
            self._unsent = sends  # each announcement is the whole position: the last one says all
        else:
            sends = role.local_move(before, action, replace)
            proposal = sends[-1].message
            assert isinstance(proposal, Propose)
            unsent = [s for s in self._unsent if not (isinstance(s.message, Propose) and s.message.ply == proposal.ply)]
            if replace and len(unsent) < len(self._unsent):  # the host never had the move corrected
                sends = [Send(sends[-1].to, dataclasses.replace(proposal, replace=False))]
            self._unsent = unsent + sends
        if not self.quiet_ms:
            self._send(self._unsent)
            self._unsent = []

    @property
    def holding(self) -> bool:
        """Whether moves of this board wait for it to stand still before they leave."""
        return bool(self._unsent)

    @property
    def settled(self) -> bool:
        """Whether every move of this board has left it, and (a guest) the host has taken it."""
        role = self.role
        return not self._unsent and not (isinstance(role, Guest) and role.pending)

    def flush(self) -> None:
        """Send this board's held moves now (a clean stop does not wait for the board to be still)."""
        unsent, self._unsent = self._unsent, []
        self._send(unsent)

    def owns(self, seat: int) -> bool:
        return 0 <= seat < len(self.role.seats) and self.role.seats[seat] == self.link.settings.board

    # --- what arrives -----------------------------------------------------------------------------------
    def _link_changed(self, event: LinkState, update: Update) -> None:
        if not event.up:
            update.said.append(event.reason)
            return
        self.greet()

    def greet(self) -> None:
        """On (re)connecting: the host tells every board where the game stands; a guest asks, and
        sends its moves the host has not answered again."""
        role = self.role
        if isinstance(role, Host):
            self._send(role.greeting())
        else:
            self._send([*role.hello(), *self._unanswered(role)])

    def _unanswered(self, role: Guest) -> list[Send]:
        """This board's moves the host has not answered, sent again: those that have left the board
        (one still held until the board stands still leaves then, or not at all if corrected)."""
        held = {send.message.ply for send in self._unsent if isinstance(send.message, Propose)}
        return [Send(role.host, proposal) for proposal in role.pending if proposal.ply not in held]

    def _incoming(self, event: Incoming, update: Update) -> None:
        message, address = event.message, event.address
        if isinstance(message, Presence):
            if address.board != message.name:
                self.log.warning("board %s announced itself as %s; ignored", address.board, message.name)
                return
            if address.board != self.link.settings.board and address.board in self.role.seats:
                back = message.online and self.online.get(address.board) is False
                if self.online.get(address.board) != message.online:
                    update.said.append(f"board {address.board} is {'online' if message.online else 'offline'}")
                self.online[address.board] = message.online
                if back and isinstance(self.role, Guest) and address.board == self.role.host:
                    self.greet()  # the host is back (from a restart, perhaps): ask it where the game stands
            return
        if address.kind != "inbox" or message.game != self.game_id:
            return  # another game's record or message: not this board's business
        handle_alone(self.log, event.sender, lambda: self._from_board(event.sender, event, update))

    def _from_board(self, sender: str, event: Incoming, update: Update) -> None:
        role = self.role
        if isinstance(role, Host):
            ply, revision, asking = role.ply, role.revision, role.asking
            self._send(role.receive(sender, event.message))
            if role.asking is not None and role.asking is not asking and role.asking.by == sender:  # asked anew
                update.said.append(f"board {sender} asks to {ASKED[role.asking.kind]}: accept or decline")
            self._host_moved(ply, revision, update, f"board {sender}")
            return
        heard = role.receive(sender, event.message)
        update.said.extend(heard.said)
        update.private.extend(heard.private)
        self._send(heard.sends)
        if heard.moved:
            update.position = role.position()
        if isinstance(event.message, Ply) and role.pending and role.pending[0].ply == role.ply:
            # The host speaks at the ply of this board's move without it: the move never reached it
            # (a broker that lost it, or took it before the host listened), so it goes again.
            self._send(self._unanswered(role))

    def _host_moved(self, ply: int, revision: int, update: Update, where: str) -> None:
        """What changed in the host's game since (`ply`, `revision`): moves played elsewhere, a
        correction, or a take-back the boards agreed to."""
        role = self.role
        assert isinstance(role, Host)
        if (role.ply, role.revision) == (ply, revision):
            return
        if role.revision > revision and role.ply < ply:
            update.took_back += ply - role.ply
            update.said.append("the boards agreed to take back the last move")
        elif role.revision > revision:  # a correction replaced the last move
            ply -= 1
        for index in range(ply, role.ply):
            state, played = role.history[index], role.played[index]
            via = "correction" if role.revision > revision and index == ply else "remote"
            update.played.append((state, state.parse_action(played.text), role.history[index + 1], via))
            update.said.append(f"{seat_name(state, played.seat)} played {played.public} on {where}")
        update.position = (role.state, role.history[:-1])

    # --- requests across boards (docs/remote.md, rule 8) ------------------------------------------------
    @property
    def asked(self) -> tuple[str, str] | None:
        """The request this board is asked to answer: (what, by which board); None: none."""
        role, me = self.role, self.link.settings.board
        if isinstance(role, Host):
            asking = role.asking
            return (asking.kind, asking.by) if asking is not None and me in asking.waiting else None
        return (role.asked.kind, role.asked.by) if role.asked is not None else None

    @property
    def asking(self) -> str | None:
        """The request this board asked, while it waits for the others' answer; None: none."""
        role = self.role
        if isinstance(role, Host):
            return role.asking.kind if role.asking is not None and role.asking.by == role.me else None
        return role.own.kind if role.own is not None else None

    def ask(self, kind: str) -> None:
        """This board asks the others; ValueError in words when it cannot now."""
        role = self.role
        if isinstance(role, Host):
            self._send(role.request(role.me, kind, role.ply))
        else:
            self._send(role.request(kind))

    def answer(self, accept: bool) -> None:
        """This board's answer to the request it is asked (see `asked`); what it changes comes with
        the next poll."""
        role, update = self.role, self._local
        if isinstance(role, Host):
            asking = role.asking
            if asking is None:
                raise ValueError("no other board is asking anything")
            ply, revision = role.ply, role.revision
            self._send(role.answer(role.me, asking.kind, asking.ply, accept))
            self._host_moved(ply, revision, update, "this board")
        else:
            self._send(role.answer(accept))

    def _send(self, sends: list[Send]) -> None:
        for send in sends:
            if isinstance(send.message, Refuse):
                self.log.info("board %s's move %s was refused: %s", send.to, send.message.move, send.message.reason)
            self.link.send(send, self.game_id)
