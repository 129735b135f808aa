"""Messages of the right form that make no sense where the game is (docs/remote.md, rules 9, 10 and
12): a game a board ended stays ended, a host's word names only seats and positions of its game,
and a board back from a power cut takes the host's first word, whatever its ply."""

from __future__ import annotations

import dataclasses
import logging
import random

import pytest

from controller.bots import make_bot
from controller.games import GAMES
from controller.remote.guest import Guest
from controller.remote.host import Host
from controller.remote.messages import Answer, Ply, Propose, Refuse, Request, decode, encode
from controller.remote.table import handle_alone
from tests.remote.test_protocol import deliver, three_boards

ENDINGS = ["resign", "draw", "abandon"]


def ended(how: str) -> tuple[Host, dict[str, Guest]]:
    """Three boards of a Klotz game after 3 moves (the last one board g2's), ended `how` by the boards."""
    host, guests = three_boards(3)
    deliver(host, guests, guests["g1"].request(how), "g1")
    if how != "resign":
        deliver(host, guests, guests["g2"].answer(True), "g2")
        deliver(host, guests, host.answer("h", how, host.ply, True))
    assert host.ended_by_boards() is not None
    return host, guests


def other_move(host: Host) -> str:
    """A move the last mover could have made instead of its own."""
    before = host.history[-2]
    return next(text for text in map(before.action_to_str, before.legal_actions()) if text != host.played[-1].text)


def frozen(host: Host) -> tuple:
    return host.ply, host.revision, host.status, host.result, list(host.played), host.asking


@pytest.mark.parametrize("how", ENDINGS)
def test_10_a_game_a_board_ended_takes_no_correction_move_or_request_from_anyone(how: str) -> None:
    host, _ = ended(how)
    words = host.ended_by_boards()
    assert words in ("the game is over: board g1 resigned", "the game is over: a draw, by agreement") or (
        how == "abandon" and words == "the game was abandoned by agreement"
    )
    before = frozen(host)
    correction = Propose("x", host.ply - 1, other_move(host), replace=True)
    [refusal, _] = [send.message for send in host.receive("g2", correction)]
    assert isinstance(refusal, Refuse) and refusal.reason == words
    state = host.state
    move = state.action_to_str(state.legal_actions()[0])
    owner = host.seats[state.current_player]
    if owner != "h":
        [refusal, _] = [send.message for send in host.receive(owner, Propose("x", host.ply, move))]
        assert isinstance(refusal, Refuse) and refusal.reason == words
    for kind in ("takeback", "draw", "abandon", "resign"):
        said = [send.message for send in host.receive("g1", Request("x", kind, host.ply, "g1"))]
        if kind == "resign" and how == "resign":  # g1's own resignation again (its word was lost): where it stands
            assert isinstance(said[0], Ply) and said[0].result == "board g1 resigned"
            continue
        [answer] = said
        assert isinstance(answer, Answer) and not answer.accept and answer.reason == words
    with pytest.raises(ValueError, match="start a new one"):
        host.local_move(state.legal_actions()[0], replace=True)
    with pytest.raises(ValueError, match=words):
        host.request("h", "takeback", host.ply)
    assert frozen(host) == before
    # A repeat of a move the game had is still answered with the position: it changes nothing.
    last = host.played[-1]
    [send] = host.receive("g2", Propose("x", host.ply - 1, last.text))
    assert isinstance(send.message, Ply) and frozen(host) == before


def test_10_the_last_move_of_a_game_its_rules_ended_may_still_be_corrected() -> None:
    game = GAMES["fillit"]
    boards = ["h", "g"]
    for seed in range(40):
        host = Host("h", "x", [game.new_game(players=2, seed=seed)], boards, rng=random.Random(seed))
        bot = make_bot("random", seed)
        while not host.state.is_terminal():
            state = host.state
            action = bot.choose(state)
            if boards[state.current_player] == "h":
                host.local_move(action)
            else:
                host.receive("g", Propose("x", host.ply, state.action_to_str(action)))
        if host.played[-1].seat == 1 and len(host.history[-2].legal_actions()) > 1:
            break
    assert host.status == "over" and host.ended_by_boards() is None
    ply = host.ply
    sends = host.receive("g", Propose("x", ply - 1, other_move(host), replace=True))
    assert not any(isinstance(send.message, Refuse) for send in sends)
    assert host.ply == ply and host.revision == 1


def test_8_a_board_resigns_while_another_request_is_open_and_the_request_lapses() -> None:
    host, guests = three_boards(3)
    deliver(host, guests, guests["g1"].request("draw"), "g1")
    assert host.asking is not None
    said = deliver(host, guests, guests["g2"].request("resign"), "g2")
    assert host.result == "board g2 resigned" and host.asking is None
    assert "board g2 resigned: the game is over" in said
    assert deliver(host, guests, guests["g2"].answer(True) if guests["g2"].asked else [], "g2") == []
    assert host.result == "board g2 resigned"


def word(host: Host, board: str = "g1", **changes) -> Ply:
    return dataclasses.replace(host.ply_for(board), **changes)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"seat": 7}, "names seat 7 as its mover"),
        ({"seat": -1}, "names seat -1 as its mover"),
        ({"movers": (0, 9, 2, 0)}, "names a seat beyond the game's 3"),
        ({"movers": (0, 1, 2)}, "lists 4 moves by 3 seats"),
        ({"ply": 9}, "lists 4 moves by 4 seats"),
    ],
)
def test_9_a_host_word_naming_seats_the_game_does_not_have_is_refused_in_words(changes: dict, words: str) -> None:
    host, guests = three_boards(3)
    guest = guests["g1"]
    kept = guest.position()
    now = host.ply_for("g1")
    bad = word(host, **{"ply": 4, "seat": 0, "moves": (*now.moves, "x"), "movers": (*now.movers, 0), **changes})
    with pytest.raises(ValueError, match=words):
        guest.receive("h", decode(encode(bad)))
    assert guest.position() == kept


def test_9_a_host_word_holding_another_game_or_another_number_of_seats_is_refused() -> None:
    host, guests = three_boards(3)
    guest = guests["g1"]
    kept = guest.position()
    two = GAMES["klotz"].new_game(players=2, seed=1).to_json()
    with pytest.raises(ValueError, match="has 2 seats, and this game 3"):
        guest.receive("h", word(host, ply=4, moves=(*host.ply_for("g1").moves, "x"), movers=(0, 1, 2, 0), state=two))
    fillit = GAMES["fillit"].new_game(players=3).to_json()
    with pytest.raises(ValueError, match="cannot be read"):
        guest.receive("h", word(host, ply=4, moves=("a", "b", "c", "x"), movers=(0, 1, 2, 0), state=fillit))
    assert guest.position() == kept


def test_12_a_board_back_from_a_power_cut_takes_the_host_first_word_whatever_its_ply() -> None:
    host, _ = three_boards(3)
    kept = host.ply_for("g1")  # what board g1 kept of an earlier game of the same name, at move 4
    game = GAMES["klotz"]
    fresh = Host("h", "x", [game.new_game(players=3, seed=2)], ["h", "g1", "g2"], rng=random.Random(2))
    guest = Guest("g1", "h", "x", game, ["h", "g1", "g2"])
    guest.receive("h", kept)
    guest.synced = False  # as RemotePlay leaves a board that shows what it kept
    guest.receive("h", fresh.ply_for("g1"))
    assert guest.ply == 0 and guest.state == fresh.state
    guest.receive("h", kept)  # from now on a word is taken only when it is newer
    assert guest.ply == 3
    guest.receive("h", fresh.ply_for("g1"))
    assert guest.ply == 3


def test_9_a_fault_on_one_message_is_logged_and_the_board_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("tafel.test")

    def broken() -> None:
        raise IndexError("tuple index out of range")

    def refused() -> None:
        raise ValueError("board g1 has no seat in game x")

    with caplog.at_level(logging.WARNING, logger="tafel.test"):
        handle_alone(log, "g1", broken)
        handle_alone(log, "g1", refused)
    assert [record.getMessage() for record in caplog.records] == [
        "a message from board g1 could not be handled and was dropped: tuple index out of range",
        "a message from board g1 was ignored: board g1 has no seat in game x",
    ]


def test_10_a_board_that_missed_the_end_hears_it_from_the_host_word_and_a_late_copy_does_not_undo_it() -> None:
    host, guests = three_boards(3)
    guest = guests["g1"]
    before = host.ply_for("g1")  # a copy of the last move's word, from before the end
    host.request("h", "resign", host.ply)  # board g1's link was down: it never got the answer
    assert guest.result == ""
    heard = guest.receive("h", decode(encode(host.ply_for("g1"))))  # its sync after reconnecting
    assert guest.result == "board h resigned" and heard.said == ["the game is over: board h resigned"]
    assert guest.receive("h", before).said == [] and guest.result == "board h resigned"
    abandoned, others = ended("abandon")
    assert abandoned.ply_for("g1").abandoned and others["g1"].abandoned


def test_8_a_board_resigns_at_once_even_while_the_host_cannot_hear_it() -> None:
    host, guests = three_boards(3)
    guest = guests["g1"]
    [send] = guest.request("resign")  # the host is away: the message waits for it on the broker
    assert guest.result == "board g1 resigned"
    assert host.seats[host.state.current_player] == "h"
    host.local_move(host.state.legal_actions()[0])
    guest.receive("h", decode(encode(host.ply_for("g1"))))  # a newer word, from before the host heard it
    assert guest.result == "board g1 resigned"
    stale = Request("x", "resign", 0, "g1")  # made at an earlier move: a resignation holds whatever the move
    deliver(host, guests, host.receive("g1", stale))
    assert host.result == "board g1 resigned" and guests["g2"].result == "board g1 resigned"
    with pytest.raises(ValueError, match="the game is over already"):
        guest.request("resign")
    assert send.message.kind == "resign"


def test_5_a_refusal_is_told_to_the_seat_whose_move_it_was_alone() -> None:
    """The refused move is in the seat's own notation and the reason is the rules' word on it: only
    that seat may read them (docs/web.md), not the table's other seats on the same board."""
    host, guests = three_boards(1)
    guest = guests["g1"]
    state = guest.state
    assert state is not None and guest.mine(state.current_player)
    [send] = guest.local_move(state, state.legal_actions()[0])
    host.request("h", "resign", host.ply)  # before the move reaches the host
    refusal = next(s.message for s in host.receive("g1", send.message) if isinstance(s.message, Refuse))
    heard = guest.receive("h", decode(encode(refusal)))
    words = f"the host refused {refusal.move}: the game is over: board h resigned"
    assert heard.said == [] and heard.private == [(state.current_player, words)]
