"""The web app's HTTP and WebSocket API in process, against a running service on the simulated board:
the table view, moves made from a page, confirmation by candidate, checked messages, the PIN, the
lobby, the history and the board's health."""

from __future__ import annotations

import json
from pathlib import Path

from controller.games import load_game
from tests.web.harness import PIN, Page, config_text, running_service, seat_links, web_client

TRACEBACK_WORDS = ("Traceback", "Error:", "Exception", "KeyError", "TypeError", "(<")


def test_the_table_view_shows_the_board_the_leds_and_whose_turn(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        assert "<svg" in client.get("/").text and client.get("/static/app.js").status_code == 200
        with client.websocket_connect("/ws") as socket:
            view = Page(socket).view(lambda v: v["mode"] == "idle")
        frame = service.backends.pixels.last  # what the LEDs show now (the board is idle: no blinking)
        board = service.session.tracker.board
    state = load_game("klotz").new_game(players=2, seed=0)
    assert view["game"] == {"name": "klotz", "title": "Klotz"}
    assert len(view["board"]["cells"]) == 196 and view["board"]["shape"] == "square"
    assert view["turn_name"] == "Red" and view["waiting"] == ["Red to move."]
    assert view["moves"] == [] and view["candidates"] == [] and view["sim"] is True
    assert "pin" not in json.dumps(view) and PIN not in json.dumps(view)  # the PIN is never sent
    pieces = {cell: [piece["kind"] for piece in stack] for cell, stack in view["pieces"].items()}
    game = state.game
    assert pieces == {game.format_cell(c): [p.kind for p in stack] for c, stack in state.occupancy().items()}
    # The LED colour of every field is the frame the LEDs show (marks dimmed, as on the board).
    for cell, led in board.led_of.items():
        assert view["led"][game.format_cell(cell)] == "#{:02x}{:02x}{:02x}".format(*frame[led])


def test_a_move_asked_for_from_the_page_is_made_by_the_virtual_hands(tmp_path: Path) -> None:
    state = load_game("klotz").new_game(players=2, seed=0)
    move = state.legal_actions()[0]
    origin, target = state.action_to_str(move).split("-")
    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            page.view(lambda v: v["mode"] == "idle")
            reply = page.ask({"type": "play", "from": origin, "to": target})
            assert reply["type"] == "reply" and reply["message"] == f"the virtual hands play {origin}-{target}"
            view = page.view(lambda v: len(v["moves"]) == 1)
            assert view["moves"][0] == {"number": 1, "seat": 0, "text": f"{origin}-{target}", "via": "sensors"}
            assert view["turn_name"] == "Yellow" and view["last_move"] == f"Red: {origin}-{target}"
            # Text that is not a move of the game is refused in words, and a field without a legal move says so.
            refused = page.ask({"type": "play", "action": "x"})
            assert refused["type"] == "error" and refused["message"].startswith("x: "), refused
            wrong = page.ask({"type": "play", "from": "a1", "to": "a2"})
            assert wrong["type"] == "error" and wrong["message"] == "no legal move of Yellow takes a piece a1-a2"
            undo = page.ask({"type": "press", "button": "undo"})
            assert undo["message"] == "undo pressed"
            view = page.view(lambda v: v["moves"] == [])
            assert view["mode"] == "restore" and any("Put" in line or "Take" in line for line in view["waiting"])
        assert service.table.moves == []


def test_a_move_several_cards_allow_is_asked_and_confirmed_by_tapping_a_candidate(tmp_path: Path) -> None:
    # Zillo, seed 0: Red may move Catchers c12-f12 with C-E, C-ES or C-EN; the board cannot tell which.
    text = config_text("zillo", options='hands = "dealt"')
    with running_service(tmp_path, text) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            table = Page(socket)
            table.view(lambda v: v["mode"] == "idle")
            red = seat_links(table)[0]
            with client.websocket_connect(f"/ws?seat={red}") as red_socket:
                page = Page(red_socket)
                page.view(lambda v: v["mode"] == "idle")
                reply = page.ask({"type": "play", "from": "c12", "to": "f12"})
                assert reply["type"] == "error" and reply["message"] == "c12-f12 can be several moves: choose one"
                assert "C-E:c12-f12/1" in reply["choices"] and "C-E:c12-f12/2" in reply["choices"]
                assert page.ask({"type": "play", "action": "C-E:c12-f12/1"})["type"] == "reply"
                asked = page.view(lambda v: v["mode"] == "confirm")
                texts = [candidate["action"] for candidate in asked["candidates"]]
                # Binary sensors see c12 still occupied after one Catcher or two left it: six readings of it.
                cards = ("C-E", "C-EN", "C-ES")
                assert sorted(texts) == sorted(f"{card}:c12-f12/{n}" for card in cards for n in (1, 2))
                assert all(set(c["fields"]) == {"c12", "f12"} for c in asked["candidates"])
                assert asked["waiting"][0].startswith("Which move was it?")
                # The table view learns only which fields changed: not which cards Red holds.
                public = table.view(lambda v: v["mode"] == "confirm")
                assert public["candidates"] == [{"text": "a move of Red (c12, f12)", "fields": ["c12", "f12"]}]
                assert not any(card in json.dumps(public) for card in cards)
                # A move the virtual hands did not make (two Catchers, where they moved one) is refused.
                wrong = page.ask({"type": "declare", "action": "C-ES:c12-f12/2"})
                assert wrong["type"] == "error" and "the virtual hands made C-E:c12-f12/1" in wrong["message"]
                assert page.ask({"type": "declare", "action": "C-ES:c12-f12/1"})["type"] == "reply"
                done = page.view(lambda v: len(v["moves"]) == 1)
        assert done["moves"][0]["text"] == "C-ES:c12-f12/1" and done["moves"][0]["via"] == "declare"
        assert service.table.moves[0].text == "C-ES:c12-f12/1"


def test_every_bad_message_gets_words_and_changes_nothing(tmp_path: Path) -> None:
    bad = [
        ("garbage", "a message must be a JSON object"),
        ("[1, 2]", 'a message must be a JSON object with a "type"'),
        (json.dumps({"type": "fly"}), "unknown message type 'fly'"),
        (json.dumps({"type": "press"}), "press: missing button"),
        (json.dumps({"type": "press", "button": 3}), "press: button must be text, not 3"),
        (json.dumps({"type": "press", "button": "confirm", "colour": "red"}), "press: unknown field 'colour'"),
        (json.dumps({"type": "press", "button": "reset"}), "there is no button 'reset'"),
        (json.dumps({"type": "declare", "action": "z9-z99"}), "z9-z99: "),
        (json.dumps({"type": "declare", "action": "c7-c1"}), "c7-c1: "),
        (json.dumps({"type": "new_game", "pin": "1", "game": "klotz", "players": 2, "seats": []}), "wrong table PIN"),
        (json.dumps({"type": "settings", "pin": PIN, "settle_ms": -4}), "settle ms must be a whole number"),
        (json.dumps({"type": "settings", "pin": PIN, "brightness": True}), "settings: brightness must be number"),
        (json.dumps({"type": "new_game", "pin": PIN, "game": "chess", "players": 2, "seats": []}), "unknown game"),
        (json.dumps({"type": "play", "action": "c7-c1"}), "c7-c1: "),
        ("x" * 9000, "message too long"),
    ]
    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            before = page.view(lambda v: v["mode"] == "idle")
            for text, words in bad:
                reply = page.send_raw(text)
                assert reply["type"] == "error" and words in reply["message"], (text, reply)
                assert not any(word in reply["message"] for word in TRACEBACK_WORDS), reply
            assert page.ask({"type": "press", "button": "menu"})["type"] == "reply"
            after = page.view()
        assert after["moves"] == before["moves"] == [] and service.table.settings.now()["settle_ms"] == 250
        assert not (tmp_path / "state" / "settings.json").exists()


def test_a_seat_link_is_unguessable_and_a_stale_one_is_refused(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text("zillo")) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            table = page.view()
            links = [f"/seat/{token}" for token in seat_links(page)]
        assert all(link.startswith("/seat/") and len(link) >= 6 + 22 for link in links)
        assert len(set(links)) == 2 and table["hidden_hands"] is True
        with client.websocket_connect("/ws?seat=not-a-token") as socket:
            refused = json.loads(socket.receive_text())
        assert refused["type"] == "error" and "not for the game now on the board" in refused["message"]
        qr = client.get("/api/qr.svg", params={"link": links[0]})
        assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg")
        assert client.get("/api/qr.svg", params={"link": "https://example.org"}).status_code == 400
        assert service.table.moves == []


def test_the_lobby_keeps_the_game_in_progress_and_the_history_replays_it(tmp_path: Path) -> None:
    state = load_game("klotz").new_game(players=2, seed=0)
    first = state.action_to_str(state.legal_actions()[0])
    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            page.view(lambda v: v["mode"] == "idle")
            lobby = client.get("/api/lobby").json()
            names = {game["name"]: game for game in lobby["games"]}
            assert names["klotz"]["fits"] and not names["fillit"]["fits"]  # a square board
            assert names["zillo"]["options"][0]["doc"].startswith("Z-6")
            assert lobby["bots"] == ["human", "random", "greedy", "search-1", "search-2"]
            assert lobby["current"]["game"] == "klotz" and lobby["current"]["moves"] == 0
            page.ask({"type": "play", "action": first})
            page.view(lambda v: len(v["moves"]) == 1)
            seats = ["human", "random", "human"]
            start = {"type": "new_game", "pin": PIN, "game": "zillo", "players": 3, "seats": seats}
            refused = page.ask(start)
            assert refused["type"] == "error" and "a game of Klotz is in progress (1 moves)" in refused["message"]
            assert page.ask({**start, "abandon": True})["type"] == "reply"
            view = page.view(lambda v: v["game"]["name"] == "zillo")
            assert [seat["player"] for seat in view["seats"]] == ["human", "random", "human"]
            assert view["mode"] == "setup" and view["moves"] == []
            # The Klotz game is in the history: listed, downloadable, replayable, resumable.
            games = client.get("/api/history").json()["games"]
            assert [(g["game"], g["status"], g["moves"]) for g in games] == [("klotz", "abandoned", 1)]
            game_id = games[0]["id"]
            saved = client.get(f"/api/history/{game_id}.json")
            assert saved.json()["actions"] == [first] and "attachment" in saved.headers["content-disposition"]
            assert f"1. {first}" in client.get(f"/api/history/{game_id}.txt").text
            replay = client.get(f"/api/history/{game_id}/replay").json()
            assert len(replay["steps"]) == 2 and replay["steps"][1]["move"] == f"1. Red: {first}"
            assert client.get("/api/history/0123456789ab.json").status_code == 404
            assert client.get("/api/history/..%2fsecrets.json").status_code == 404
            resumable = client.get("/api/lobby").json()["resumable"]
            assert [record["id"] for record in resumable] == [game_id]
            assert page.ask({"type": "resume", "pin": PIN, "game_id": game_id})["type"] == "reply"
            back = page.view(lambda v: v["game"]["name"] == "klotz")
            assert [move["text"] for move in back["moves"]] == [first] and back["turn_name"] == "Yellow"
        assert client.get("/api/history").json()["games"] == []  # back in play, out of the history
        assert service.persistence.standing_actions() == [(first, "resumed")]


def test_board_health_and_settings(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws?view=health") as socket:
            page = Page(socket)
            health = page.view()
            assert health["board"] == "square14" and len(health["sensors"]) == 196 and health["channels"] == 196
            assert health["devices"] == {"sensors": "sim: working", "leds": "sim, 201 LEDs: working"}
            assert health["settings"] == {
                "brightness": 1.0,
                "takeback": "auto",
                "debounce_ms": 40,
                "settle_ms": 250,
                "guide_after_ms": 2500,
            }
            assert all(sensor["reading"] == sensor["expected"] for sensor in health["sensors"])
            wrong = page.ask({"type": "settings", "pin": "0000", "takeback": "off"})
            assert wrong["type"] == "error" and "PIN" in wrong["message"]
            reply = page.ask({"type": "settings", "pin": PIN, "takeback": "offer", "settle_ms": 400, "brightness": 0.5})
            assert reply["message"] == "settings: take-back offer, settle 400 ms, brightness 0.5"
            changed = page.view(lambda v: v["settings"]["settle_ms"] == 400)
        assert changed["settings"]["takeback"] == "offer" and service.session.tracker.config.settle_ms == 400
        saved = json.loads((tmp_path / "state" / "settings.json").read_text())
        assert saved["settle_ms"] == 400 and saved["brightness"] == 0.5


def test_a_lobby_game_and_the_settings_survive_a_restart(tmp_path: Path) -> None:
    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            page.view(lambda v: v["mode"] == "idle")
            start = {"type": "new_game", "pin": PIN, "game": "zillo", "players": 2, "seats": ["human", "greedy"]}
            assert page.ask(start)["type"] == "reply"  # no move made yet: nothing to abandon
            page.view(lambda v: v["game"]["name"] == "zillo")
            assert page.ask({"type": "settings", "pin": PIN, "settle_ms": 300})["type"] == "reply"
        game_id = service.table.game_id
    # The configuration still says Klotz: the game the players chose in the lobby goes on.
    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            view = Page(socket).view()
        assert view["game"]["name"] == "zillo" and view["game_id"] == game_id
        assert [seat["player"] for seat in view["seats"]] == ["human", "greedy"]
        assert service.table.settings.tracker_config.settle_ms == 300
