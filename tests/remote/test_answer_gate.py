"""A yes that ends a game across boards needs the table PIN on a screen (docs/web.md, the
principals), judged where the command is carried out: a page's confirm is let through on the
picture of the board the web server has, and the loop carries it out a moment later, when another
board's request may have arrived meanwhile. The boards' roles talk through the real protocol code
and message encoding, delivered by hand so the test says when each word arrives."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from controller.remote.host import Host, Played
from controller.remote.table import RemoteTable
from controller.service.control import AnswerBoards, CommandError, Press
from controller.service.remote_play import RemotePlay
from tests.remote.test_own_moves import SEATS, GuestBoard, Settings, Wire, deliver
from tests.table.test_tracker_klotz import FOUR, move


def asked_by_the_guest(kind: str, tmp_path: Path) -> tuple[RemotePlay, GuestBoard, Wire]:
    """Board h hosts a Klotz game with board g1, and g1 asks it `kind`: h's RemotePlay, g1, h's wire."""
    after_red = FOUR.apply(move("c7-e6"))
    host_wire = Wire(Settings("h"))
    (tmp_path / "h").mkdir(parents=True)
    role = Host("h", "t1", [FOUR, after_red], SEATS, [Played(0, "c7-e6", "c7-e6")])
    host = RemotePlay(RemoteTable(host_wire, role, logging.getLogger("h"), 0), tmp_path / "h", logging.getLogger())
    guest = GuestBoard(after_red, tmp_path)
    guest.play.table.greet()
    deliver(guest.wire, host_wire)
    host.table.poll()
    deliver(host_wire, guest.wire)
    guest.play.begin(guest.table.tracker, guest.table.now)
    guest.run(300)
    guest.play.table.ask(kind)
    guest.run(100)
    assert deliver(guest.wire, host_wire) >= 1
    host.table.poll()
    assert host.table.asked == (kind, "g1")
    return host, guest, host_wire


@pytest.mark.parametrize("kind", ["abandon", "draw"])
def test_a_pages_confirm_that_meets_a_request_ending_the_game_is_refused_where_it_is_carried_out(
    kind: str, tmp_path: Path
) -> None:
    host, _, _ = asked_by_the_guest(kind, tmp_path)
    for page_seat in (None, 0):  # the table view, Red's page
        with pytest.raises(CommandError, match="accepting ends the game, so it needs the table PIN"):
            host.command(Press("confirm", from_page=True, page_seat=page_seat))
    assert host.table.asked == (kind, "g1") and host.ended is None  # still asked, nothing ended
    asked = "abandon the game" if kind == "abandon" else "agree a draw"
    assert host.command(AnswerBoards(True)) == f"accepted: board g1 asked to {asked}"  # with the PIN, on a page


def test_the_boards_own_button_and_a_no_stay_the_tables(tmp_path: Path) -> None:
    """The board's confirm button is pressed by someone at the table (as the PIN proves on a page),
    and a no keeps the game: neither needs the PIN, nor does a take-back's yes."""
    host, _, _ = asked_by_the_guest("abandon", tmp_path)
    assert host.command(Press("undo", from_page=True)) == "declined: board g1 asked to abandon the game"
    host, _, _ = asked_by_the_guest("abandon", tmp_path / "h2")
    assert host.command(Press("confirm")) == "accepted: board g1 asked to abandon the game"
    host, _, _ = asked_by_the_guest("takeback", tmp_path / "h3")
    assert host.command(Press("confirm", from_page=True)) == "accepted: board g1 asked to take back the last move"
