"""The security model of docs/web.md at the protocol level: each case a curious or hostile page on
the table's Wi-Fi tried, and what it gets now (words, never a secret, never a stalled board)."""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from controller.files import read_bounded
from controller.games import load_game
from controller.service.control import OLD_SEAT, CommandError, Declare, InGame, Press
from controller.service.loop import Service
from controller.table.pin_display import pin_frame
from controller.table.tracker_types import Display, TrackerOutput
from controller.web import app as web_app_module
from controller.web.access import OWN_PAGE
from controller.web.server import web_app
from controller.web.views import table_view
from tests.web.browser import served
from tests.web.harness import PIN, TEST_CLIENT_NAMES, Page, config_text, running_service, seat_links, web_client

ZILLO = 'hands = "dealt"'


def cards_in(text: str, cards: list[str]) -> list[str]:
    """The card ids of `cards` that `text` names (as whole ids: C-E is not in C-EN)."""
    return [card for card in cards if re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text)]


def wait_for_scan(service: Service, condition, scans: int = 5000) -> bool:
    """Whether `condition(service)` holds at some scan of the next `scans` (waits for scans, not time)."""
    seen = threading.Event()
    count = [0]

    def observe(running: Service) -> None:
        count[0] += 1
        if condition(running) or count[0] >= scans:
            seen.set()

    service.scan_observer = observe
    try:
        assert seen.wait(60), "the service stopped scanning"
        return condition(service)
    finally:
        service.scan_observer = None


def play(page: Page, action: str) -> dict[str, Any]:
    """A seat's page asks the virtual hands for `action`, and names it if the board asks which move
    it was (binary sensors cannot count the Catchers that left a field): the view once it stands."""
    moves = len(page.view()["moves"])
    assert page.ask({"type": "play", "action": action})["type"] == "reply"
    seen = page.view(lambda v: len(v["moves"]) > moves or v["mode"] == "confirm")
    if len(seen["moves"]) == moves:
        assert page.ask({"type": "declare", "action": action})["type"] == "reply"
    return page.view(lambda v: len(v["moves"]) > moves)


# --- 1. The PIN ------------------------------------------------------------------------------------


def test_the_pin_is_never_sent_and_the_board_lights_it(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service:
        hub, app = web_app(service.table.control, tmp_path / "state", names=TEST_CLIENT_NAMES)  # a new PIN
        from starlette.testclient import TestClient

        with TestClient(app) as client:
            pages = {}
            with (
                client.websocket_connect("/ws") as table,
                client.websocket_connect("/ws?view=watch") as watch,
                client.websocket_connect("/ws?view=health") as health,
            ):
                pages = {"table": Page(table), "watch": Page(watch), "health": Page(health)}
                for page in pages.values():
                    page.view()
                links = pages["table"].ask({"type": "links", "pin": hub.pin})["links"]
                with client.websocket_connect(f"/ws?{'seat=' + links[0]['link'][6:]}") as seat:
                    pages["seat"] = Page(seat)
                    pages["seat"].view()
                shown = pages["table"].ask({"type": "show_pin"})
                assert shown["type"] == "reply" and "LEDs" in shown["message"]
                again = pages["health"].ask({"type": "show_pin"})  # nobody may keep the lights hidden
                assert again["type"] == "error" and "can show it again in" in again["message"]
                board = service.session.tracker.board
                lit = pin_frame(board, hub.pin)
                assert wait_for_scan(service, lambda s: s.backends.pixels.last == lit)
        for name, page in pages.items():
            for message in page.received:
                text = json.dumps(message)
                assert '"pin"' not in text and hub.pin not in re.findall(r"\d{4}", text.replace("#", " ")), (
                    name,
                    message,
                )


def test_the_pin_leaves_the_leds_as_soon_as_a_piece_moves(tmp_path: Path) -> None:
    state = load_game("klotz").new_game(players=2, seed=0)
    origin, target = state.action_to_str(state.legal_actions()[0]).split("-")
    with (
        running_service(tmp_path, config_text()) as service,
        web_client(service, tmp_path) as client,
        client.websocket_connect("/ws") as socket,
    ):
        page = Page(socket)
        page.view(lambda v: v["mode"] == "idle")
        lit = pin_frame(service.session.tracker.board, PIN)
        assert page.ask({"type": "show_pin"})["type"] == "reply"
        assert wait_for_scan(service, lambda s: s.backends.pixels.last == lit)
        assert page.ask({"type": "play", "from": origin, "to": target})["type"] == "reply"
        # The hands lift the piece within a second or two: the game's lights are back long before the
        # PIN's 20 s are up (1,500 scans are 15 s at 100 scans a second).
        assert wait_for_scan(service, lambda s: s.backends.pixels.last != lit, scans=1500)
        page.view(lambda v: len(v["moves"]) == 1)


def test_a_page_of_another_site_may_not_connect(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as socket:
            refused = json.loads(socket.receive_text())
        assert refused == {"type": "error", "message": "a page of another site may not connect to the board"}
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as socket:
            assert Page(socket).view()["type"] == "table"  # the board's own pages do


def test_a_wrong_pin_is_refused_and_the_right_one_works(tmp_path: Path) -> None:
    with (
        running_service(tmp_path, config_text()) as service,
        web_client(service, tmp_path) as client,
        client.websocket_connect("/ws") as socket,
    ):
        page = Page(socket)
        page.view()
        for _ in range(4):
            assert "wrong table PIN" in page.ask({"type": "links", "pin": "1357"})["message"]
        assert page.ask({"type": "links", "pin": PIN})["type"] == "reply"  # a right PIN resets the count


# --- 2, 3, 4. Candidates, refusals and who decides -------------------------------------------------


def test_a_seat_move_reveals_no_card_to_the_others_while_it_is_made(tmp_path: Path) -> None:
    with (
        running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service,
        web_client(service, tmp_path) as client,
        client.websocket_connect("/ws") as table_socket,
    ):
        table = Page(table_socket)
        table.view(lambda v: v["mode"] == "idle")
        red, yellow = seat_links(table)
        hand = service.session.state.observation(0)["hand"]
        with (
            client.websocket_connect(f"/ws?seat={red}") as red_socket,
            client.websocket_connect(f"/ws?seat={yellow}") as yellow_socket,
        ):
            mine, theirs = Page(red_socket), Page(yellow_socket)
            mine.view()
            theirs.view()
            play(mine, "C-ES:c12-d10/1")
            table.view(lambda v: len(v["moves"]) == 1)
            theirs.view(lambda v: len(v["moves"]) == 1)
        played = "C-ES"
        for page in (table, theirs):
            for message in page.received:
                # Yellow's own observation (`you`) lists the cards it has not seen: all but its own.
                shown = {key: value for key, value in message.items() if key != "you"}
                named = cards_in(json.dumps(shown), [card for card in hand if card != played])
                assert named == [], message  # no card of Red's but the one played, ever


def test_refusals_to_a_page_that_may_not_act_are_the_same_whatever_it_sent(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            page.view(lambda v: v["mode"] == "idle")
            answers = {
                page.ask({"type": kind, **body})["message"]
                for kind, body in [
                    ("declare", {"action": "C-NE:c12-f12/1"}),
                    ("declare", {"action": "C-N:c12-f12/1"}),
                    ("declare", {"action": "C-E:c12-f12/1"}),
                    ("play", {"action": "C-E:c12-f12/1"}),
                    ("play", {"from": "c12", "to": "f12"}),
                    ("card", {"card": "C-E"}),
                    ("card", {"card": "S-9"}),
                ]
            }
        assert answers == {OWN_PAGE} and service.table.moves == []
    with running_service(tmp_path, config_text("zodiac", 3)) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            page.view()
            said = {page.ask({"type": "declare", "action": text})["message"] for text in ("sun aqu@1", "draw", "moon")}
        assert said == {OWN_PAGE}


def test_a_seat_decides_only_its_own_moves(tmp_path: Path) -> None:
    with (
        running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service,
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
            assert mine.ask({"type": "play", "action": "C-E:c12-f12/1"})["type"] == "reply"
            asked = theirs.view(lambda v: v["mode"] == "confirm")
            assert all("action" not in candidate for candidate in asked["candidates"])
            for message in (
                {"type": "declare", "action": "C-EN:c12-f12/1"},
                {"type": "declare", "action": "S-4:2r0@m12"},
                {"type": "press", "button": "confirm"},
                {"type": "press", "button": "menu"},
            ):
                refused = theirs.ask(message)
                assert refused["type"] == "error" and refused["message"] == "it is Red's decision now, not Yellow's"
            assert table.ask({"type": "press", "button": "confirm"})["message"] == OWN_PAGE
            assert service.table.moves == []
            assert mine.ask({"type": "declare", "action": "C-E:c12-f12/1"})["type"] == "reply"
            done = mine.view(lambda v: len(v["moves"]) == 1)
        assert done["moves"][0]["text"] == "C-E:c12-f12/1" and done["moves"][0]["seat"] == 0


def test_a_press_let_through_on_an_older_picture_is_judged_again_when_carried_out(tmp_path: Path) -> None:
    """A page's press is let through on the picture of the board the server has; the loop carries
    it out between two scans, where the board may have begun to ask which move Red made meanwhile
    (a page that presses confirm twenty times a second would meet that moment). Confirm and next
    choice then choose among Red's cards: a press of Yellow's page or of the table view, let through
    as the table's button a moment before, is refused where it is carried out, and nothing is
    taken (it used to confirm the candidate shown, choosing Red's card for Red)."""
    with (
        running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service,
        web_client(service, tmp_path) as client,
        client.websocket_connect("/ws") as table_socket,
    ):
        table = Page(table_socket)
        table.view(lambda v: v["mode"] == "idle")
        red, _ = seat_links(table)
        with client.websocket_connect(f"/ws?seat={red}") as red_socket:
            mine = Page(red_socket)
            mine.view()
            assert mine.ask({"type": "play", "action": "C-E:c12-f12/1"})["type"] == "reply"
            mine.view(lambda v: v["mode"] == "confirm")
            control = service.table.control
            for page_seat, words in (
                (1, "it is Red's decision now, not Yellow's"),
                (None, "the board now asks which move Red made: in this game only Red's own page answers that"),
            ):
                for button in ("confirm", "menu"):
                    with pytest.raises(CommandError) as refused:
                        control.submit(Press(button, from_page=True, page_seat=page_seat)).result(timeout=30)
                    assert str(refused.value) == words
            assert control.submit(Press("undo", from_page=True, page_seat=1)).result(timeout=30) == "undo pressed"
            assert control.submit(Press("menu")).result(timeout=30) == "menu pressed"  # the board's own button
            assert service.table.moves == []
            assert mine.ask({"type": "declare", "action": "C-E:c12-f12/1"})["type"] == "reply"
            done = mine.view(lambda v: len(v["moves"]) == 1)
        assert done["moves"][0]["text"] == "C-E:c12-f12/1"


def test_a_seat_pages_command_carried_out_after_another_game_began_is_refused(tmp_path: Path) -> None:
    """A seat is a seat of one game. A seat page's command is let through for the game the page
    was opened in and carried out by the loop a moment later: where a new game began meanwhile (the
    lobby, with the PIN), it is refused in words, never taken as a move of that seat in the new
    game (Yellow's phone from the last game would otherwise move for the new game's Yellow)."""
    with (
        running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service,
        web_client(service, tmp_path) as client,
        client.websocket_connect("/ws") as table_socket,
    ):
        table = Page(table_socket)
        table.view(lambda v: v["mode"] == "idle")
        old_game = service.table.game_id
        start = {"type": "new_game", "pin": PIN, "game": "zillo", "players": 2, "seats": ["human", "human"]}
        assert table.ask({**start, "options": {"hands": "dealt"}, "abandon": True})["type"] == "reply"
        table.view(lambda v: v["game"]["name"] == "zillo" and v["moves"] == [])
        new_game = service.table.game_id
        assert new_game != old_game
        control = service.table.control
        state = service.session.state
        move = next(state.action_to_str(action) for action in state.legal_actions())
        for command in (Declare(move, 0, True), Press("confirm", from_page=True, page_seat=0)):
            with pytest.raises(CommandError) as refused:
                control.submit(InGame(old_game, command)).result(timeout=30)
            assert str(refused.value) == OLD_SEAT
        assert service.table.moves == []
        assert control.submit(InGame(new_game, Press("menu", from_page=True, page_seat=0))).result(timeout=30)


def test_hot_seat_is_chosen_with_the_pin_and_still_tells_the_table_nothing(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            page.view()
            start = {"type": "new_game", "game": "zillo", "players": 2, "seats": ["human", "human"]}
            start["options"] = {"hands": "dealt"}
            refused = page.ask({**start, "pin": "0000", "hotseat": True})
            assert "wrong table PIN" in refused["message"]
            assert page.ask({**start, "pin": PIN, "hotseat": True})["type"] == "reply"
            view = page.view(lambda v: v["hotseat"] and v["mode"] == "idle")
            hand = service.session.state.observation(0)["hand"]
            holds = [a for a in service.session.state.legal_action_strings()]
            not_held = next(
                f"{card}:c12-f12/1" for card in ("C-N", "C-NE", "C-NW", "C-S") if f"{card}:c12-f12/1" not in holds
            )
            said = page.ask({"type": "declare", "action": not_held})
            assert said["message"] == "that is not a move Red can make now"  # the same for any card
            choices = page.ask({"type": "play", "from": "a1", "to": "a2"})
            assert "choices" not in choices and choices["message"] == "that is not a move Red can make now"
            before = list(page.received)
            play(page, holds[0])  # it may act for Red
            page.view(lambda v: len(v["moves"]) == 1)
        assert view["hidden_hands"] and not cards_in(json.dumps(before), hand)


# --- 5. A correction offer's view ------------------------------------------------------------------


def test_a_correction_candidate_of_the_last_move_is_drawn_not_an_error(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            page.view(lambda v: v["mode"] == "idle")
            red = seat_links(page)[0]
            with client.websocket_connect(f"/ws?seat={red}") as red_socket:
                play(Page(red_socket), "C-ES:c12-d10/1")
            page.view(lambda v: len(v["moves"]) == 1)
        snapshot = service.table.control.latest
    assert snapshot is not None
    before = snapshot.position.history[-1]
    other = before.parse_action("C-E:c12-f12/1")  # Red's card: not a move of Yellow's now
    asking = TrackerOutput(
        Display(mode="confirm", state=snapshot.position.state, shown=snapshot.position.state, candidates=(other,))
    )
    view = table_view(
        replace(snapshot, board=replace(snapshot.board, output=asking))
    )  # Yellow is on turn: this is Red's move
    was, now = before.occupancy(), before.apply(other).occupancy()
    fields = [before.game.format_cell(cell) for cell in sorted(set(was) | set(now)) if was.get(cell) != now.get(cell)]
    assert view["candidates"] == [{"text": f"a move of Red ({', '.join(fields)})", "fields": fields}]
    assert view["waiting"][0] == "The board asks Red which move it was; Red answers on their own page."


def test_a_view_that_fails_for_one_page_leaves_the_others_alone(tmp_path: Path, monkeypatch) -> None:
    def broken(snapshot: Any, seat: int) -> dict[str, Any]:
        raise RuntimeError("a bug in one view")

    monkeypatch.setattr(web_app_module, "seat_view", broken)
    with running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            table = Page(socket)
            table.view()
            red = seat_links(table)[0]
            with client.websocket_connect(f"/ws?seat={red}") as seat_socket:
                seat = Page(seat_socket)
                failed = seat.until(lambda m: m["type"] == "error")
                assert "could not draw this page" in failed["message"]
                assert seat.ask({"type": "show_pin"})["type"] == "reply"  # the page still talks
            assert table.ask({"type": "press", "button": "menu"})["type"] == "reply"
            table.view(lambda v: v["revision"] > 1)
        assert service.failure is None


# --- 6. The simulated board's hands ---------------------------------------------------------------


def test_hands_that_cannot_make_a_move_set_the_board_right_and_the_service_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    state = load_game("klotz").new_game(players=2, seed=0)
    move = state.legal_actions()[0]
    origin, target = state.action_to_str(move).split("-")
    cell = state.game.parse_cell(origin)
    aside = next(c for c in ((x, y) for x in range(14) for y in range(14)) if c not in state.occupancy())
    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            page.view(lambda v: v["mode"] == "idle")
            taken: list[Any] = []

            def snatch(running: Service) -> None:  # on the loop's thread: a piece is knocked off its field
                driver, board = running.driver, running.backends.sim.board  # type: ignore[union-attr]
                if not taken and driver is not None and driver.current is not None:
                    taken.append(board.lift(cell))
                    board.place(aside, taken[-1])

            service.scan_observer = snatch
            assert page.ask({"type": "play", "from": origin, "to": target})["type"] == "reply"
            # The wait observes the scans in its own way: it snatches too, whenever the hands begin.
            assert wait_for_scan(service, lambda s: snatch(s) is None and bool(taken))
            back = wait_for_scan(service, lambda s: s.backends.sim.board.occupancy() == s.session.state.occupancy())
            assert back  # the hands put the knocked piece back, as the game stands
            assert page.ask({"type": "press", "button": "menu"})["type"] == "reply"
        assert service.failure is None
    assert f"cannot be made (nothing to lift on {origin}" in caplog.text


# --- 7. Files ---------------------------------------------------------------------------------------


def test_file_options_are_chosen_by_name_and_never_block(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        cards = tmp_path / "state" / "cards"
        cards.mkdir(parents=True)
        builtin = Path(__file__).resolve().parents[2] / "controller" / "games" / "data" / "zillertal.toml"
        (cards / "printed").write_bytes(b"")  # not a .toml: not offered
        (cards / "mine.toml").write_bytes(builtin.read_bytes())
        zillertal = next(game for game in client.get("/api/lobby").json()["games"] if game["name"] == "zillertal")
        option = next(option for option in zillertal["options"] if option["name"] == "cards")
        assert option["choices"] == ["built-in", "mine"] and option["default"] == "built-in"
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            page.view()
            start = {"type": "new_game", "pin": PIN, "game": "zillertal", "players": 2, "seats": ["human", "human"]}
            for path in (str(fifo), "/etc/passwd", "/dev/zero", "../../etc/passwd", "mine.toml"):
                refused = page.ask({**start, "options": {"cards": path}})
                assert refused["type"] == "error", refused
                assert refused["message"] == "cards: choose one of the files this board knows: built-in, mine"
            assert page.ask({"type": "press", "button": "menu"})["type"] == "reply"  # the loop never waited
            assert page.ask({**start, "options": {"cards": "mine"}})["type"] == "reply"
            page.view(lambda v: v["game"]["name"] == "zillertal")
        assert service.table.start_record["options"]["cards"].endswith("cards/mine.toml")


def test_a_file_is_read_only_when_it_is_a_regular_file_of_bounded_size(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="is not a regular file"):
        read_bounded(fifo, "the card file")  # opened without waiting for a writer
    with pytest.raises(ValueError, match="is not a regular file"):
        read_bounded("/dev/zero", "the card file")
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 2048)
    with pytest.raises(ValueError, match="too long"):
        read_bounded(big, "the card file", limit=1024)
    assert read_bounded(big, "the card file", limit=4096) == b"#" * 2048
    with pytest.raises(ValueError, match="cannot read the card file"):
        read_bounded(tmp_path / "missing.toml", "the card file")
    with pytest.raises(ValueError, match="is not a regular file"):
        load_game("zillertal").new_game(players=2, seed=0, cards=str(fifo))


# --- 8, 9. Malformed and hostile input -------------------------------------------------------------


def test_malformed_input_gets_words_and_the_page_stays(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            page.view()
            deep = page.send_raw('{"type": "press", "button": ' + "[" * 3000 + "]" * 3000 + "}")
            assert deep["message"] == "message nested too deeply (at most 16 levels)"
            socket.send_bytes(b'{"type": "press", "button": "menu"}')
            binary = page.until(lambda m: m["type"] == "error")
            assert "binary frames are not understood" in binary["message"]
            long_card = page.ask({"type": "card", "card": "X" * 8000})
            assert long_card["message"] == "card: card is too long to be one"
            markup = page.ask({"type": "card", "card": "<b>hi</b>"})  # nothing but a card id is echoed anywhere
            assert markup["message"].startswith("card: not a card id")
            assert page.ask({"type": "show_pin"})["type"] == "reply"  # still talking
        with client.websocket_connect("/ws?seat=%C3%A9t%C3%A9-%E2%9C%93") as socket:
            refused = json.loads(socket.receive_text())
        assert refused["type"] == "error" and "not for the game now on the board" in refused["message"]
        with client.websocket_connect("/ws?view=admin") as socket:
            assert "there is no view 'admin'" in json.loads(socket.receive_text())["message"]
        with client.websocket_connect("/ws?view=watch") as socket:
            watcher = Page(socket)
            watcher.view()
            assert "only watches" in watcher.ask({"type": "press", "button": "undo"})["message"]
        assert service.failure is None


def test_a_flood_is_told_to_slow_down_and_then_closed(tmp_path: Path) -> None:
    from starlette.websockets import WebSocketDisconnect

    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        client.hub.clock = lambda: 100.0  # type: ignore[attr-defined]  # no time passes: a flood
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            page.view()
            answers = [page.ask({"type": "press", "button": "menu"})["message"] for _ in range(40)]
            assert set(answers) == {"menu pressed"}  # a burst of forty is fine
            slowed = [page.send_raw(json.dumps({"type": "press", "button": "menu"}))["message"] for _ in range(39)]
            assert set(slowed) == {"too many messages: slow down"}
            socket.send_text(json.dumps({"type": "press", "button": "menu"}))
            closed = page.until(lambda m: m["type"] == "error")
            assert closed["message"] == "too many messages: slow down; this page is closed"
            with pytest.raises(WebSocketDisconnect):
                page.next()
        with client.websocket_connect("/ws") as socket:  # another page is served as before
            assert Page(socket).view()["type"] == "table"
        assert service.failure is None


def test_a_card_shown_by_a_seat_is_answered_to_that_seat_only(tmp_path: Path) -> None:
    with (
        running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service,
        web_client(service, tmp_path) as client,
        client.websocket_connect("/ws") as table_socket,
    ):
        table = Page(table_socket)
        table.view(lambda v: v["mode"] == "idle")
        red = seat_links(table)[0]
        hand = service.session.state.observation(0)["hand"]
        missing = next(card for card in ("S-4", "S-3", "W-4", "Z-N") if card not in hand)
        with client.websocket_connect(f"/ws?seat={red}") as red_socket:
            mine = Page(red_socket)
            mine.view()
            assert mine.ask({"type": "card", "card": missing})["type"] == "reply"
            told = mine.view(lambda v: any(n.startswith(f"{missing}:") for n in v["notices"]))
            assert told["notices"]
            assert table.ask({"type": "press", "button": "menu"})["type"] == "reply"
            table.view(lambda v: v["revision"] >= told["revision"])
    assert not any(cards_in(json.dumps(message), [missing]) for message in table.received)


def test_a_frame_too_big_is_refused_before_it_is_read_and_the_board_goes_on(tmp_path: Path) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with (
        running_service(tmp_path, config_text()) as service,
        served(service, tmp_path / "state", PIN) as server,
    ):
        url = server.url.replace("http", "ws") + "ws"
        with connect(url) as socket:
            json.loads(socket.recv(timeout=30))
            socket.send("x" * 100_000)
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(100):
                    socket.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        with connect(url) as socket:
            assert json.loads(socket.recv(timeout=30))["type"] == "table"
            socket.send(json.dumps({"type": "press", "button": "menu", "id": 1}))
            reply = json.loads(socket.recv(timeout=30))
            while reply.get("id") != 1:
                reply = json.loads(socket.recv(timeout=30))
            assert reply["type"] == "reply"
        assert service.failure is None


def test_an_unfinished_game_with_hidden_hands_is_downloaded_only_with_the_pin(tmp_path: Path) -> None:
    with (
        running_service(tmp_path, config_text("zillo", 2, ZILLO)) as service,
        web_client(service, tmp_path) as client,
        client.websocket_connect("/ws") as socket,
    ):
        page = Page(socket)
        page.view(lambda v: v["mode"] == "idle")
        red = seat_links(page)[0]
        with client.websocket_connect(f"/ws?seat={red}") as red_socket:
            play(Page(red_socket), "C-ES:c12-d10/1")
        start = {"type": "new_game", "pin": PIN, "game": "klotz", "players": 2, "seats": ["human", "human"]}
        assert page.ask({**start, "abandon": True})["type"] == "reply"
        page.view(lambda v: v["game"]["name"] == "klotz")
        (record,) = client.get("/api/history").json()["games"]
        assert record["status"] == "abandoned"  # it may be resumed: its seed and moves would tell the hands
        bots = {"type": "new_game", "pin": PIN, "game": "zillo", "players": 2, "seats": ["human", "greedy"]}
        assert page.ask({**bots, "options": {"hands": "dealt"}, "abandon": True})["type"] == "reply"
        page.view(lambda v: v["game"]["name"] == "zillo")
        assert [link["seat"] for link in page.ask({"type": "links", "pin": PIN})["links"]] == [0]  # no bot's
        for ending in (".json", ".txt", "/replay"):
            refused = client.get(f"/api/history/{record['id']}{ending}")
            assert refused.status_code == 403 and "needs the table PIN" in refused.text
            assert client.get(f"/api/history/{record['id']}{ending}", params={"pin": "0000"}).status_code == 403
            assert client.get(f"/api/history/{record['id']}{ending}", params={"pin": PIN}).status_code == 200
