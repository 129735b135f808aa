"""`tafel relay` follows a club's games on a real Mosquitto with the relay account, serves them live
and keeps every finished game (docs/remote.md, "The club relay")."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from controller.games import GAMES
from controller.remote import topics
from controller.remote.host import Host
from controller.remote.link import BrokerSettings, Incoming
from controller.remote.messages import Record
from controller.remote.position import board_problem, public_board
from controller.remote.relay import LATEST_PER_BOARD, Relay
from controller.web.relay_page import RelayServer, relay_app
from tests.remote.broker import Broker
from tests.remote.conftest import PASSWORDS
from tests.remote.players import boards_for, finished, run_until
from tests.web.browser import browser_problem, chromium, free_port


def test_the_relay_shows_every_game_live_and_keeps_the_finished_ones(broker: Broker, tmp_path: Path) -> None:
    settings = BrokerSettings("relay", "127.0.0.1", broker.port, "relay", PASSWORDS["relay"])
    server = RelayServer(settings, tmp_path / "kept", "127.0.0.1", 0)
    relay = server.relay
    follower = threading.Thread(target=server.follow, daemon=True)  # the page is asked directly below
    follower.start()
    games = [
        boards_for("klotz", 2, broker.port, 1, "a1"),
        boards_for("zillo", 2, broker.port, 2, "b2", names=("g2", "g3")),  # a board's name is its connection
    ]
    everyone = [board for boards in games for board in boards]
    hosts = [boards[0].table.role for boards in games]
    try:
        run_until(everyone, lambda: all(finished(boards) for boards in games))
        assert all(isinstance(host, Host) for host in hosts)
        current = lambda: all(relay.records.get(f"{h.me}_{h.game_id}") == h.record() for h in hosts)  # noqa: E731
        run_until(everyone, current, seconds=10)
    finally:
        for board in everyone:
            board.table.link.close()
        server.stopping.set()
        follower.join(10)
    client = TestClient(relay_app(relay))
    view = client.get("/games.json").json()
    assert {game["key"] for game in view["games"]} == {"h_a1", "g2_b2"}
    for game in view["games"]:
        assert game["status"] == "over" and view["layouts"][game["layout"]]["cells"] and game["board"]
        assert "public" not in game  # the page does not draw it; the kept record has it
    assert set(view["layouts"]) == {"klotz/2", "zillo/2"}
    assert client.get(f"/games.json?since={view['revision']}").json() == {
        "revision": view["revision"],
        "unchanged": True,
    }
    assert client.get("/games.json?since=-1").json()["games"] == view["games"]
    notation = client.get("/games/h_a1.txt")
    assert notation.status_code == 200 and "\n1. " in notation.text
    kept = client.get("/games/g2_b2.json").json()
    assert kept["moves"] == list(hosts[1].record().moves)  # type: ignore[union-attr]
    assert (tmp_path / "kept" / "h_a1.json").exists() and (tmp_path / "kept" / "g2_b2.txt").exists()
    assert client.get("/games/nothing.json").status_code == 404
    assert "tafel relay" in client.get("/").text


def _record(host: str, game: str, status: str = "over", board: dict[str, Any] | None = None) -> Incoming:
    record = Record(
        game,
        "klotz",
        host,
        3,
        "00ff",
        ("a1-b2", "c3-d4", "e5-f6"),
        (host, "club"),
        {},
        "Red wins" if status == "over" else "",
        status,
        {"c7": ["square:0"]} if board is None else board,
        2,
    )
    return Incoming(topics.Address("record", host, game=game), record)


def test_one_boards_game_never_takes_another_boards_place_on_the_page_or_on_disk(tmp_path: Path) -> None:
    """Board names and game ids may hold '-': board a-b's game c and board a's game b-c are two
    games, each with its own files (a board's account may write its own records only, the ACL)."""
    relay = Relay(tmp_path)
    relay.heard(_record("a-b", "c"))
    relay.heard(_record("a", "b-c"))
    assert sorted(relay.records) == ["a-b_c", "a_b-c"]
    assert sorted(path.name for path in tmp_path.glob("*.json")) == ["a-b_c.json", "a_b-c.json"]
    assert json.loads(relay.record_json("a-b_c") or "")["host"] == "a-b"


def test_a_board_that_floods_the_relay_crowds_out_only_its_own_games_and_every_kept_one_stays(
    tmp_path: Path,
) -> None:
    relay = Relay(tmp_path)
    relay.heard(_record("club", "friday", "playing"))
    for number in range(LATEST_PER_BOARD + 5):
        relay.heard(_record("flood", f"g{number}"))
    shown = [game["key"] for game in relay.view()["games"]]
    assert "club_friday" in shown and len(shown) == LATEST_PER_BOARD + 1
    assert "flood_g0" not in shown and f"flood_g{LATEST_PER_BOARD + 4}" in shown
    assert json.loads(relay.record_json("flood_g0") or "")["game"] == "g0"  # off the page, still kept
    assert "\n1. a1-b2\n" in (relay.notation("flood_g0") or "")
    for name in ("../flood_g0", "flood_g0/../x", "nothing_here"):
        assert relay.record_json(name) is None and relay.notation(name) is None
    again = Relay(tmp_path)  # a restart shows each board's latest kept games only
    assert sum(key.startswith("flood_") for key in again.records) == LATEST_PER_BOARD


def test_a_record_the_page_could_not_draw_is_refused_in_words_and_the_relay_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    relay = Relay(tmp_path)
    for board in ({"c7": "square:0"}, {"c7": [7]}, {"c7": ["square:9"]}, {"c7": ["<b>:0"]}):
        relay.heard(_record("odd", "g1", board=board))
    relay.heard(_record("odd", "g2"))
    assert list(relay.records) == ["odd_g2"]
    refused = [r.getMessage() for r in caplog.records if "was ignored" in r.getMessage()]
    assert len(refused) == 4 and all("not a piece" in words or "no list" in words for words in refused)
    assert "Traceback" not in caplog.text


def test_a_game_kept_under_its_older_name_takes_its_key(tmp_path: Path) -> None:
    Relay(tmp_path / "new").heard(_record("a", "b-c"))
    (tmp_path / "new" / "a_b-c.json").rename(tmp_path / "a-b-c.json")
    (tmp_path / "new" / "a_b-c.txt").rename(tmp_path / "a-b-c.txt")
    relay = Relay(tmp_path)
    assert list(relay.records) == ["a_b-c"] and (tmp_path / "a_b-c.txt").exists()


@pytest.mark.skipif(browser_problem() is not None, reason=f"browser tests cannot run: {browser_problem()}")
def test_the_relay_page_in_a_browser_draws_every_game_and_follows_new_ones(tmp_path: Path) -> None:
    import uvicorn
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    relay = Relay(tmp_path)
    relay.heard(_record("kitchen", "g1", "playing"))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(relay_app(relay), host="127.0.0.1", port=port, log_config=None))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(2000):  # start-up only: uvicorn says it listens by setting `started`
        if server.started:
            break
        thread.join(0.01)
    try:
        with chromium() as driver:
            driver.get(f"http://127.0.0.1:{port}/")
            # Read in one step: the page redraws its games whenever the relay has news.
            heading = lambda d: d.execute_script(  # noqa: E731
                "return [...document.querySelectorAll('.game h2')].map(h => h.textContent)"
            )
            WebDriverWait(driver, 20).until(lambda d: heading(d) == ["klotz (g1)"])
            assert driver.find_elements(By.CSS_SELECTOR, ".game svg circle")  # the board, with its piece
            relay.heard(_record("club", "g2"))  # a finished game arrives: the page shows it at its next ask
            WebDriverWait(driver, 20).until(lambda d: sorted(heading(d)) == ["klotz (g1)", "klotz (g2)"])
            links = driver.execute_script("return [...document.querySelectorAll('.game a')].map(a => a.href)")
            assert links == [
                f"http://127.0.0.1:{port}/games/club_g2.json",
                f"http://127.0.0.1:{port}/games/club_g2.txt",
            ]
            assert "2 games; updated" in driver.find_element(By.ID, "status").text
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_kept_file_that_is_not_there_any_more_is_said_and_the_relay_starts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    Relay(tmp_path).heard(_record("club", "g1"))
    (tmp_path / "gone_g2.json").symlink_to(tmp_path / "nowhere.json")  # a link to a file deleted since
    relay = Relay(tmp_path)
    assert list(relay.records) == ["club_g1"]
    assert "kept game gone_g2.json is unreadable" in caplog.text and "Traceback" not in caplog.text


@pytest.mark.parametrize("title", ["klotz", "fillit", "zillo", "zillertal", "zodiac"])
def test_every_board_a_host_writes_is_one_the_relay_takes(title: str) -> None:
    """The relay's check reads what public_board writes: a whole random game of each, every ply."""
    state = GAMES[title].new_game(players=2, seed=5)
    rng = random.Random(5)
    for _ in range(80):
        assert board_problem(public_board(state), state.players) is None
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_actions()))
