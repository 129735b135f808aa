"""Whatever the boards of a game send, in whatever order (docs/remote.md, rules 4, 5, 8, 9 and 10):
random messages of the right form, from the game's boards and from strangers, never make a host or a
guest fail other than in words, never make the host's game one its moves do not replay, and never
bring back a game a board ended."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import GAMES
from controller.remote.guest import Guest
from controller.remote.host import Host, Send
from controller.remote.messages import REQUEST_KINDS, Answer, Message, Ply, Propose, Request, Sync, decode, encode

BOARDS = ["h", "g1", "g2"]
SENDERS = ["g1", "g2", "stranger"]


def texts(host: Host) -> list[str]:
    """Moves worth sending now: the legal ones here and in the position before, and the ones made."""
    found = [played.text for played in host.played[-2:]]
    for state in host.history[-2:]:
        if not state.is_terminal():
            found += [state.action_to_str(action) for action in state.legal_actions()[:6]]
    return [*found, "z9-z9", ""]


def a_message(draw: Callable[[st.SearchStrategy[Any]], Any], host: Host) -> Message:
    ply = draw(st.integers(0, host.ply + 2))
    kind = draw(st.sampled_from(["propose", "correct", "request", "answer", "sync"]))
    if kind in ("propose", "correct"):
        return Propose("x", ply, draw(st.sampled_from(texts(host))), replace=kind == "correct")
    if kind == "request":
        return Request("x", draw(st.sampled_from(REQUEST_KINDS)), ply)
    if kind == "answer":
        return Answer("x", draw(st.sampled_from(REQUEST_KINDS)), ply, draw(st.booleans()))
    return Sync("x", draw(st.integers(0, host.ply + 3)))


def replays(host: Host) -> bool:
    """Whether every move the host kept leads from its position to the next."""
    return len(host.history) == len(host.played) + 1 and all(
        before.apply(before.parse_action(played.text)) == after
        for before, played, after in zip(host.history, host.played, host.history[1:], strict=False)
    )


def route(guests: dict[str, Guest], sends: list[Send]) -> None:
    """The host's answers reach the guests (through the wire's form); what a guest must not take is
    refused in words."""
    for send in sends:
        if send.to in guests:
            with contextlib.suppress(ValueError):
                guests[send.to].receive("h", decode(encode(send.message)))


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(["klotz", "fillit", "zillo", "zodiac"]), st.integers(0, 3))
def test_random_messages_from_any_board_never_corrupt_the_game(data: st.DataObject, name: str, seed: int) -> None:
    game = GAMES[name]
    players = 3 if 3 in game.player_counts else 2
    boards = BOARDS[:players]
    host = Host("h", "x", [game.new_game(players=players, seed=seed)], boards, rng=random.Random(seed))
    guests = {board: Guest(board, "h", "x", game, boards) for board in boards[1:]}
    route(guests, host.announce())
    ended: tuple | None = None
    for _ in range(data.draw(st.integers(5, 40))):
        sender = data.draw(st.sampled_from([board for board in SENDERS if board in boards or board == "stranger"]))
        if data.draw(st.booleans()) and not host.state.is_terminal() and host.seats[host.state.current_player] == "h":
            with contextlib.suppress(ValueError):
                route(guests, host.local_move(host.state.legal_actions()[0]))
        else:
            message = decode(encode(a_message(data.draw, host)))
            try:
                route(guests, host.receive(sender, message))
            except ValueError:
                assert sender == "stranger" or isinstance(message, Ply)
        assert replays(host)
        if ended is not None:
            assert (host.ply, host.revision, host.status, host.result, host.played) == ended
        elif host.result or host.status == "abandoned":  # a board ended it (rule 10)
            ended = (host.ply, host.revision, host.status, host.result, list(host.played))
    for board, guest in guests.items():  # every guest takes the host's word on where the game stands
        guest.receive("h", decode(encode(host.ply_for(board))))
        assert guest.ply == host.ply


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(["klotz", "zillo", "zillertal"]))
def test_a_host_word_changed_at_random_is_taken_whole_or_refused_in_words(data: st.DataObject, name: str) -> None:
    game = GAMES[name]
    host = Host("h", "x", [game.new_game(players=2, seed=1)], ["h", "g1"], rng=random.Random(1))
    for _ in range(3):
        state = host.state
        action = state.legal_actions()[0]
        if host.seats[state.current_player] == "h":
            host.local_move(action)
        else:
            host.receive("g1", Propose("x", host.ply, state.action_to_str(action)))
    guest = Guest("g1", "h", "x", game, ["h", "g1"])
    guest.receive("h", host.ply_for("g1"))
    kept = guest.position()
    word = encode(host.ply_for("g1")).decode()
    changes = {
        "seat": data.draw(st.integers(-3, 4)),
        "ply": data.draw(st.integers(0, 6)),
        "movers": data.draw(st.lists(st.integers(-2, 3), max_size=5)),
        "moves": data.draw(st.lists(st.sampled_from(["a", "", "x1"]), max_size=5)),
        "revision": data.draw(st.integers(0, 2)),
    }
    chosen = data.draw(st.sets(st.sampled_from(sorted(changes)), min_size=1))
    bad = decode(word.encode())
    assert isinstance(bad, Ply)
    bad = replace(
        bad,
        **{key: tuple(value) if isinstance(value, list) else value for key, value in changes.items() if key in chosen},
    )
    try:
        guest.receive("h", decode(encode(bad)))
    except ValueError:
        assert guest.position() == kept
    else:  # taken whole, or a late copy that changes nothing
        assert (guest.ply == bad.ply and len(guest.moves) == bad.ply) or guest.position() == kept
