"""A guest board's own moves while the host's word on them is on its way (docs/remote.md, rules 5
and 6): the host confirming this board's last move but one changes nothing on the board, so the
move just made may still be corrected. The two boards' roles talk through the real protocol code
and message encoding, delivered by hand here so the test says when each word arrives."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from controller.games import State
from controller.remote.guest import Guest
from controller.remote.host import Host, Played, Send
from controller.remote.link import Event, Incoming
from controller.remote.messages import decode, encode
from controller.remote.table import RemoteTable
from controller.remote.topics import Address
from controller.service.remote_play import QUIET_MS, RemotePlay
from tests.table.test_tracker_klotz import FOUR, Table, move

SEATS = ("h", "g1", "g1", "h")  # Red and Blue play on board h, Yellow and Green here


@dataclass
class Settings:
    board: str


@dataclass
class Wire:
    """One board's end of the link: what it sent, and what is delivered to it when the test says."""

    settings: Settings
    connected: bool = True
    sent: list[Send] = field(default_factory=list)
    inbox: list[Event] = field(default_factory=list)

    def drain(self) -> list[Event]:
        events, self.inbox = self.inbox, []
        return events

    def send(self, send: Send, host_of: str | None = None) -> None:
        self.sent.append(send)


def deliver(sender: Wire, to: Wire) -> int:
    """Deliver what `sender` sent to `to`'s inbox, encoded and decoded as on the wire; how many."""
    mine = [send for send in sender.sent if send.to == to.settings.board]
    sender.sent = [send for send in sender.sent if send not in mine]
    for send in mine:
        address = Address("inbox", to.settings.board, sender.settings.board)
        to.inbox.append(Incoming(address, decode(encode(send.message))))
    return len(mine)


class GuestBoard:
    """Board g1: the scripted Klotz table, its tracker's commits told to its RemotePlay as the
    service does (session.on_record), and the RemotePlay scanned before each scan."""

    def __init__(self, after_red: State, tmp: Path) -> None:
        self.wire = Wire(Settings("g1"))
        role = Guest("g1", "h", "t1", FOUR.game, SEATS)
        self.play = RemotePlay(
            RemoteTable(self.wire, role, logging.getLogger("g1"), QUIET_MS), tmp, logging.getLogger()
        )
        self.table = Table(after_red)

    def run(self, ms: int) -> None:
        for _ in range(ms // 10):
            changed = self.table.physical.session.last_scan_changed
            self.play.scan(self.table.now, self.table.tracker, changed, self.wire.drain())
            before = len(self.table.log)
            self.table.run(10)
            for _, output in self.table.log[before:]:
                for state, action, after in output.happened.transitions:
                    via = "correction" if output.happened.replaced else "sensors"
                    self.play.committed(state, action, after, via)


def test_the_hosts_word_on_the_last_move_but_one_leaves_the_move_just_made_open_to_correction(tmp_path: Path) -> None:
    red = move("c7-e6")
    after_red = FOUR.apply(red)
    host_wire = Wire(Settings("h"))
    host = RemoteTable(host_wire, Host("h", "t1", [FOUR, after_red], SEATS, [Played(0, "c7-e6", "c7-e6")]), None, 0)
    guest = GuestBoard(after_red, tmp_path)
    guest.play.table.greet()
    deliver(guest.wire, host_wire)
    host.poll()
    deliver(host_wire, guest.wire)
    guest.play.begin(guest.table.tracker, guest.table.now)
    guest.run(300)
    now_here = guest.table.tracker.state
    assert now_here.occupancy() == after_red.occupancy() and now_here.current_player == 1
    # Yellow moves here; once the board has stood still QUIET_MS the move leaves for the host.
    guest.table.carry("c8", "a7")
    guest.run(QUIET_MS + 500)
    assert deliver(guest.wire, host_wire) == 1
    host.poll()  # the host takes it and confirms: its word is on its way
    # Green lets its piece go on a wrong field long enough to be taken, the host's word arrives,
    # and the hand carries the piece on to the field meant: a correction of Green's move.
    after_yellow = after_red.apply(move("c8-a7"))
    pieces = guest.table.lift("g3")
    guest.run(200)
    guest.table.place("e2", pieces)
    guest.run(400)
    assert guest.table.texts()[-1] == "g3-e2"
    assert deliver(host_wire, guest.wire) >= 1
    guest.run(100)
    pieces = guest.table.lift("e2")
    guest.run(200)
    guest.table.place("e4", pieces)
    guest.run(1500)
    assert guest.table.texts() == ["c8-a7", "g3-e2", "g3-e4"] and guest.table.vias()[-1] == "correction"
    final = guest.table.state
    assert final.occupancy() == after_yellow.apply(move("g3-e4")).occupancy() and final.current_player == 3
    assert guest.table.output.display.mode == "idle"
    # The move as corrected is the one that leaves the board: the host never had the other.
    assert deliver(guest.wire, host_wire) == 1
    host.poll()
    role = host.role
    assert isinstance(role, Host) and [played.text for played in role.played] == ["c7-e6", "c8-a7", "g3-e4"]
