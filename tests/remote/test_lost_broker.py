"""A broker that loses what it held (docs/remote.md, rule 7, "Delivery"): killed before it saved,
or a new machine, so sessions, queued and retained messages are gone. No board relies on one
message arriving: each repeats what it waits on, and every message is safe to repeat. The first
test crashes a real Mosquitto mid-game; the others script the words that were lost, one by one,
through the real protocol code and message encoding (tests/remote/test_own_moves.py's wire)."""

from __future__ import annotations

import logging

import pytest

from controller.games import GAMES
from controller.remote.guest import Guest
from controller.remote.host import Host, Send
from controller.remote.messages import Answer, Propose, Request, Sync
from controller.remote.table import RemoteTable
from tests.remote.broker import Broker
from tests.remote.players import boards_for, finished, run_until
from tests.remote.test_own_moves import Settings, Wire, deliver


@pytest.mark.parametrize("game", ["klotz", "fillit", "zillo", "zillertal", "zodiac"])
def test_two_boards_finish_a_game_across_three_broker_crashes_that_lose_everything(broker: Broker, game: str) -> None:
    boards = boards_for(game, 2, broker.port)
    try:
        host = boards[0].table.role
        assert isinstance(host, Host)
        for ply in (2, 7, 13):  # the guest's turn at some, the host's at others, in every game
            run_until(boards, lambda ply=ply: host.ply >= ply or host.state.is_terminal())
            broker.crash()
            broker.start()
        run_until(boards, lambda: finished(boards))
        assert boards[0].moves() == boards[1].moves()
        assert len(boards[0].moves()) == host.ply
    finally:
        for board in boards:
            board.table.link.close()


def _pair(game: str = "klotz") -> tuple[RemoteTable, Wire, RemoteTable, Wire]:
    """Board h hosting a two-board game of `game` with board g1, both at the start, talking."""
    start = GAMES[game].new_game(players=2, seed=3, max_plies=40)
    host_wire, guest_wire = Wire(Settings("h")), Wire(Settings("g1"))
    host = RemoteTable(host_wire, Host("h", "t1", [start], ("h", "g1")), logging.getLogger("h"))  # type: ignore[arg-type]
    guest = RemoteTable(guest_wire, Guest("g1", "h", "t1", start.game, ("h", "g1")), logging.getLogger("g1"))  # type: ignore[arg-type]
    guest.greet()
    deliver(guest_wire, host_wire)
    host.poll()
    deliver(host_wire, guest_wire)
    guest.poll()
    return host, host_wire, guest, guest_wire


def _lose(wire: Wire) -> None:
    wire.sent = [send for send in wire.sent if send.to is None]  # the broker lost what it held for the other board


def test_a_guest_move_the_host_never_had_goes_again_when_the_host_speaks_at_its_ply() -> None:
    host, host_wire, guest, guest_wire = _pair()
    role, hosting = guest.role, host.role
    assert isinstance(role, Guest) and isinstance(hosting, Host)
    red = hosting.state.legal_actions()[0]
    host.committed(hosting.state, red)  # Red on board h; its word reaches g1
    deliver(host_wire, guest_wire)
    guest.poll()
    state = role.position()
    assert state is not None
    guest.committed(state[0], state[0].legal_actions()[0])  # Yellow here: the move is lost on the way
    _lose(guest_wire)
    assert role.pending and hosting.ply == 1
    # The host comes back (its link or the broker restarted) and says where the game stands: at the
    # ply of g1's move, without it. The guest sends it again, and the host plays it.
    host.greet()
    deliver(host_wire, guest_wire)
    guest.poll()
    again = [send.message for send in guest_wire.sent if isinstance(send.message, Propose)]
    assert [proposal.ply for proposal in again] == [1]
    deliver(guest_wire, host_wire)
    host.poll()
    deliver(host_wire, guest_wire)
    guest.poll()
    assert hosting.ply == 2 and role.ply == 2 and not role.pending


def test_the_host_asks_its_open_request_again_and_a_board_asked_twice_is_asked_once() -> None:
    host, host_wire, guest, guest_wire = _pair()
    role = guest.role
    assert isinstance(role, Guest)
    host.ask("draw")
    _lose(host_wire)  # the request never reached g1
    assert guest.asked is None and host.asking == "draw" and guest.asking is None
    host.greet()
    deliver(host_wire, guest_wire)
    said = guest.poll().said
    assert guest.asked == ("draw", "h") and said == ["board h asks to agree a draw: accept or decline"]
    host.greet()  # asked again (another restart): nobody here is asked twice
    deliver(host_wire, guest_wire)
    assert guest.poll().said == [] and guest.asked == ("draw", "h")


def test_an_answer_lost_on_the_way_is_given_again_when_the_host_asks_again_without_asking_the_people() -> None:
    host, host_wire, guest, guest_wire = _pair()
    hosting = host.role
    assert isinstance(hosting, Host)
    host.ask("draw")
    deliver(host_wire, guest_wire)
    guest.poll()
    guest.answer(False)
    _lose(guest_wire)  # g1's no never reached the host, which still waits for it
    assert hosting.asking is not None
    guest_wire.sent.clear()
    host.greet()
    deliver(host_wire, guest_wire)
    update = guest.poll()
    assert update.said == [] and guest.asked is None
    answers = [send.message for send in guest_wire.sent if isinstance(send.message, Answer)]
    assert [(answer.kind, answer.accept) for answer in answers] == [("draw", False)]
    deliver(guest_wire, host_wire)
    host.poll()
    assert hosting.asking is None and hosting.result == ""
    deliver(host_wire, guest_wire)
    assert guest.poll().said == ["board g1 declined to agree a draw"]
    # Settled: the same request asked again is a new one, for the people to answer.
    host.ask("draw")
    deliver(host_wire, guest_wire)
    assert guest.poll().said == ["board h asks to agree a draw: accept or decline"]


def test_a_request_the_host_repeats_for_a_board_that_syncs_reaches_only_the_boards_it_waits_for() -> None:
    host, host_wire, _, _ = _pair()
    hosting = host.role
    assert isinstance(hosting, Host)
    host.ask("abandon")
    _lose(host_wire)
    sends = hosting.receive("g1", Sync("t1", 0))
    requests = [(send.to, send.message.kind) for send in sends if isinstance(send.message, Request)]
    assert requests == [("g1", "abandon")]


def test_a_resignation_lost_on_the_way_goes_again_when_the_host_says_the_game_goes_on() -> None:
    """A board that resigned holds the game over at once (rule 8); where the host's word then says
    it goes on, the resignation never arrived, so it goes again, and a repeat the host had already
    heard changes nothing there."""
    host, host_wire, guest, guest_wire = _pair()
    hosting, role = host.role, guest.role
    assert isinstance(hosting, Host) and isinstance(role, Guest)
    guest.ask("resign")
    _lose(guest_wire)  # the broker lost it: the host plays on
    assert role.result == "board g1 resigned" and hosting.result == ""
    host.greet()  # the host comes back and says where the game stands: not over
    deliver(host_wire, guest_wire)
    guest.poll()
    again = [send.message for send in guest_wire.sent if isinstance(send.message, Request)]
    assert [(request.kind, request.by) for request in again] == [("resign", "g1")]
    deliver(guest_wire, host_wire)
    host.poll()
    assert hosting.result == "board g1 resigned"
    # The host's word that the game goes on was already on its way, and g1 resigned again; the
    # host heard the first, so the repeat is answered with where the game stands, not a refusal.
    guest_wire.sent.clear()
    guest_wire.sent.append(Send("h", Request("t1", "resign", hosting.ply, "g1")))
    deliver(guest_wire, host_wire)
    host.poll()
    refusals = [send.message for send in host_wire.sent if isinstance(send.message, Answer) and send.message.reason]
    assert refusals == []
    deliver(host_wire, guest_wire)
    update = guest.poll()
    assert role.result == "board g1 resigned" and not any("refused" in words for words in update.said)
    assert not [send for send in guest_wire.sent if isinstance(send.message, Request)]  # the host heard it: no more


def test_a_guests_request_lost_on_the_way_goes_again_and_the_people_are_asked_once() -> None:
    """A guest's request waits on the others' answer (rule 8): where the host's word says nothing of
    it, it goes again; the host takes a repeat of the request it is asking for what it is, not as a
    second request ("board g1 is asking already") and not as a new question for its people."""
    host, host_wire, guest, guest_wire = _pair()
    hosting, role = host.role, guest.role
    assert isinstance(hosting, Host) and isinstance(role, Guest)
    guest.ask("draw")
    first = role.own
    _lose(guest_wire)  # the broker lost it: nobody is asked
    assert guest.asking == "draw" and hosting.asking is None
    host.greet()  # the host's link comes up: where the game stands, with no request in it
    deliver(host_wire, guest_wire)
    guest.poll()
    again = [send.message for send in guest_wire.sent if isinstance(send.message, Request)]
    assert again == [first]
    deliver(guest_wire, host_wire)
    assert host.poll().said == ["board g1 asks to agree a draw: accept or decline"]
    assert host.asked == ("draw", "g1")
    host.greet()  # and again: g1 sends its request once more, and the host's people are not asked twice
    deliver(host_wire, guest_wire)
    guest.poll()
    deliver(guest_wire, host_wire)
    assert host.poll().said == [] and host.asked == ("draw", "g1")
    refusals = [send.message for send in host_wire.sent if isinstance(send.message, Answer)]
    assert refusals == []
    host.answer(True)
    deliver(host_wire, guest_wire)
    assert "the boards agreed to agree a draw" in guest.poll().said
    assert guest.asking is None and role.result == hosting.result == "a draw, by agreement"


def test_an_answer_to_a_guests_request_lost_on_the_way_is_given_again_without_asking_anyone() -> None:
    host, host_wire, guest, guest_wire = _pair()
    hosting, role = host.role, guest.role
    assert isinstance(hosting, Host) and isinstance(role, Guest)
    guest.ask("abandon")
    deliver(guest_wire, host_wire)
    host.poll()
    host.answer(False)  # the host's people said no, and the word of it was lost
    _lose(host_wire)
    assert guest.asking == "abandon" and hosting.asking is None
    host.greet()
    deliver(host_wire, guest_wire)
    guest.poll()  # the host's word says nothing of the request: it goes again, with its key
    deliver(guest_wire, host_wire)
    assert host.poll().said == [] and host.asked is None  # nobody at the host is asked again
    deliver(host_wire, guest_wire)
    assert guest.poll().said == ["board h declined to abandon the game"]
    assert guest.asking is None and hosting.status == "playing"
    # Settled: a new request is a new question for the host's people.
    guest.ask("abandon")
    deliver(guest_wire, host_wire)
    assert host.poll().said == ["board g1 asks to abandon the game: accept or decline"]


def test_a_guests_request_lapses_when_the_game_moves_on_before_every_board_answered() -> None:
    host, host_wire, guest, guest_wire = _pair()
    hosting, role = host.role, guest.role
    assert isinstance(hosting, Host) and isinstance(role, Guest)
    guest.ask("draw")
    with pytest.raises(ValueError, match="asking the others already to agree a draw"):
        guest.ask("abandon")
    deliver(guest_wire, host_wire)
    host.poll()
    host.committed(hosting.state, hosting.state.legal_actions()[0])  # Red moves instead of answering
    assert hosting.asking is None
    deliver(host_wire, guest_wire)
    said = guest.poll().said
    assert "the request to agree a draw lapsed: the game moved on before every board answered" in said
    assert guest.asking is None
    guest_wire.sent.clear()
    host.greet()  # a later word at the same ply sends nothing again
    deliver(host_wire, guest_wire)
    guest.poll()
    assert not [send for send in guest_wire.sent if isinstance(send.message, Request)]
