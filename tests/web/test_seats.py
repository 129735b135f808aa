"""Seats at the protocol level: a seat's hand goes to that seat's connections only, never to the table
view or another seat, in every game with hidden hands; and a seat plays its own decisions."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from controller.games import load_game
from controller.web.seats import SEATS_FILE, SeatLinks
from tests.web.harness import PIN, Page, config_text, running_service, seat_links, web_client

HIDDEN_HAND_GAMES = [("zillo", 2, 'hands = "dealt"'), ("zodiac", 3, ""), ("zillertal", 2, "")]


def secrets_outside(message: Any, path: tuple = ()) -> list[tuple]:
    """Paths where a hand is shown: any `hand` with cards, any `hands` entry that is not a count."""
    found = []
    if isinstance(message, dict):
        for key, value in message.items():
            where = (*path, key)
            if key in ("hand", "unseen") and value:
                found.append(where)
            elif key == "hands" and isinstance(value, list):
                shown = [i for i, entry in enumerate(value) if entry is not None and set(entry) != {"count"}]
                found.extend((*where, i) for i in shown)
            else:
                found.extend(secrets_outside(value, where))
    elif isinstance(message, list):
        for index, value in enumerate(message):
            found.extend(secrets_outside(value, (*path, index)))
    return found


@pytest.mark.parametrize(("game", "players", "options"), HIDDEN_HAND_GAMES)
def test_a_hand_is_sent_to_its_own_seat_only(tmp_path: Path, game: str, players: int, options: str) -> None:
    text = config_text(game, players, options)
    with (
        running_service(tmp_path, text) as service,
        web_client(service, tmp_path) as client,
        client.websocket_connect("/ws") as table_socket,
    ):
        table = Page(table_socket)
        first = table.view()
        assert all("link" not in seat for seat in first["seats"])  # links go to a page with the PIN only
        links = seat_links(table)
        state = service.session.state
        for seat, link in enumerate(links):
            with client.websocket_connect(f"/ws?seat={link}") as seat_socket:
                page = Page(seat_socket)
                mine = page.view()
                assert mine["you"]["seat"] == seat and mine["you"]["hand"] == state.observation(seat)["hand"]
                assert mine["you"]["hand"], "every seat holds cards at the start"
                # Everything this seat is sent besides its own part is public.
                assert secrets_outside({k: v for k, v in mine.items() if k != "you"}) == []
                assert not any(link in json.dumps(mine) for link in links)
        table.view(lambda v: all(seat["joined"] for seat in v["seats"]))
    for message in table.received:
        assert "you" not in message and secrets_outside(message) == [], message


def test_a_seat_plays_its_card_decisions_and_only_on_its_turn(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text("zodiac", 3)) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            links = seat_links(Page(socket))
        turn = service.session.state.current_player
        other = (turn + 1) % 3
        with (
            client.websocket_connect(f"/ws?seat={links[turn]}") as mine,
            client.websocket_connect(f"/ws?seat={links[other]}") as theirs,
        ):
            me, them = Page(mine), Page(theirs)
            view = me.view()
            assert view["you"]["on_turn"] and "draw" in view["you"]["actions"]
            assert them.view()["you"]["actions"] == []
            refused = them.ask({"type": "declare", "action": "draw"})
            name = view["seats"][turn]["name"]
            assert refused["type"] == "error" and refused["message"].startswith(f"it is {name}'s decision now")
            assert me.ask({"type": "declare", "action": "draw"})["message"] == "draw declared"
            drawn = me.view(lambda v: len(v["moves"]) == 1)
        assert drawn["moves"][0]["text"] == "draw" and len(drawn["you"]["hand"]) == len(view["you"]["hand"]) + 1


def test_a_zillo_card_chosen_on_the_seat_page_lights_its_moves(tmp_path: Path) -> None:
    text = config_text("zillo", 2, 'hands = "dealt"')
    with running_service(tmp_path, text) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            table = Page(socket)
            table.view(lambda v: v["mode"] == "idle")
            link = seat_links(table)[0]
            with client.websocket_connect(f"/ws?seat={link}") as seat_socket:
                page = Page(seat_socket)
                hand = page.view()["you"]["hand"]
                card = hand[0]
                assert page.ask({"type": "card", "card": card})["message"] == f"card {card} shown"
                lit = table.view(lambda v: bool(v["hints"]))
        state = load_game("zillo").new_game(players=2, seed=0, hands="dealt")
        game = state.game
        moves = [a for a in state.legal_actions() if getattr(a, "card", None) == card]
        targets = {game.format_cell(a.target) for a in moves if hasattr(a, "target")}
        assert targets and targets <= set(lit["hints"])
        assert service.table.moves == []


def test_a_new_game_ends_the_old_games_seat_pages(tmp_path: Path) -> None:
    text = config_text("zillo", 2, 'hands = "dealt"')
    with (
        running_service(tmp_path, text) as service,
        web_client(service, tmp_path) as client,
        client.websocket_connect("/ws") as socket,
    ):
        table = Page(socket)
        table.view()
        link = seat_links(table)[0]
        with client.websocket_connect(f"/ws?seat={link}") as seat_socket:
            seat = Page(seat_socket)
            assert seat.view()["you"]["hand"]
            new = {"type": "new_game", "pin": PIN, "game": "zillo", "players": 2, "seats": ["human", "human"]}
            assert table.ask(new)["type"] == "reply"
            ended = seat.until(lambda m: m["type"] == "error")
            assert "not for the game now on the board" in ended["message"]
        table.view(lambda v: v["game_id"] == service.table.game_id)
        assert seat_links(table)[0] != link  # new links for the new game


def test_the_seat_on_turn_says_its_own_move_while_the_board_asks_about_the_next_seats(tmp_path: Path) -> None:
    """A piece slides i9-i10 (a move of Red's, shown as made), then c7 goes to e6: the board asks
    whether that was Yellow's reply, a question for Yellow. Red knows better (the slide was a piece
    it knocked, c7-e6 its move) and says so on its own page: the seat on turn may always say its own
    move, and the board takes it as Red's, alone (before: refused, "it is Yellow's decision now")."""
    game = load_game("klotz")
    cell = game.parse_cell
    steps = {0: ("lift", "i9"), 1: ("place", "i10"), 30: ("lift", "c7"), 50: ("place", "e6")}  # scan -> step
    with (
        running_service(tmp_path, config_text("klotz", 2)) as service,
        web_client(service, tmp_path) as client,
        client.websocket_connect("/ws") as table_socket,
    ):
        table = Page(table_socket)
        table.view(lambda v: v["mode"] == "idle")
        red, yellow = seat_links(table)
        with (
            client.websocket_connect(f"/ws?seat={red}") as red_socket,
            client.websocket_connect(f"/ws?seat={yellow}") as yellow_socket,
        ):
            mine, theirs = Page(red_socket), Page(yellow_socket)
            mine.view()
            scans, held = [0], []

            def hands(running: Any) -> None:  # on the loop's thread, one step at a given scan
                board = running.backends.sim.board
                step = steps.get(scans[0])
                scans[0] += 1
                if step is not None and step[0] == "lift":
                    held.append(board.lift(cell(step[1])))
                elif step is not None:
                    board.place(cell(step[1]), held.pop())

            service.scan_observer = hands
            asked = theirs.view(lambda v: v["mode"] == "confirm")
            service.scan_observer = None
            assert [candidate["text"] for candidate in asked["candidates"]] == ["c7-e6"]
            assert mine.ask({"type": "declare", "action": "c7-e6"})["type"] == "reply"
            done = mine.view(lambda v: len(v["moves"]) == 1)
        assert done["moves"][0]["text"] == "c7-e6" and done["moves"][0]["seat"] == 0


def test_seat_links_survive_a_restart_and_a_file_that_cannot_be_read_gives_new_ones_with_a_word(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The phones keep their seats across a restart; a seat-links file that cannot be read (not
    allowed, not a file of seat links, a token that is not one, a folder where the file should be)
    gives the game new links, and the log says why: a phone that lost its seat is never a mystery."""
    links = SeatLinks(tmp_path)
    tokens = links.tokens("g1", 2)
    links.join(1)
    again = SeatLinks(tmp_path)
    assert again.tokens("g1", 2) == tokens and again.joined() == {1} and again.seat_of("g1", tokens[1]) == 1
    path = tmp_path / SEATS_FILE
    broken = {
        "not JSON": "{not json",
        "a list": "[1, 2]",
        "no tokens": json.dumps({"game_id": "g1"}),
        "a token that is not one": json.dumps({"game_id": "g1", "tokens": ["ü" * 20, "x" * 22]}),
        "a seat that is not a number": json.dumps({"game_id": "g1", "tokens": tokens, "joined": ["one"]}),
    }
    for what, text in broken.items():
        path.write_text(text)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="tafel.web"):
            fresh = SeatLinks(tmp_path)
        assert fresh.game_id is None and fresh.seat_of("g1", tokens[0]) is None, what
        said = [record.getMessage() for record in caplog.records]
        assert said == [
            f"seat links: {path} is not a file of seat links; the phones need the game's new seat links "
            "(listed to an admin on the table view)"
        ], what
        assert fresh.tokens("g1", 2) != tokens
    path.unlink()
    path.mkdir()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tafel.web"):
        assert SeatLinks(tmp_path).game_id is None
    assert [r.getMessage() for r in caplog.records] == [
        f"seat links: the seat links {path} is a directory, not a file; the phones need the game's new seat links "
        "(listed to an admin on the table view)"
    ]
