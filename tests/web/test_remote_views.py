"""What the screens of a board in a game across boards show (docs/remote.md): who plays where, which
board is away, and never the stand-in of a hand played on another board."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest

from controller.service.control import RemoteView, Snapshot
from controller.web.views import seat_view, table_view, viewer_parts
from tests.web.harness import config_text, running_service


def a_snapshot(tmp_path: Path) -> Snapshot:
    """A Zillo game with dealt hands as its service publishes it."""
    got: list[Snapshot] = []
    ready = threading.Event()

    def keep(snapshot: Snapshot) -> None:
        got.append(snapshot)
        ready.set()

    with running_service(tmp_path, config_text("zillo", 2)) as service:
        service.table.control.subscribe(keep)
        assert ready.wait(30)
    return got[-1]


def test_a_seat_played_on_another_board_shows_no_hand_and_the_screens_say_who_plays_where(tmp_path: Path) -> None:
    snapshot = a_snapshot(tmp_path)
    assert snapshot.position.state.observation(0).get("hand")
    remote = RemoteView("friday-1", "kitchen", "club", ("kitchen", "club"), {"kitchen": False}, False)
    across = dataclasses.replace(snapshot, remote=remote)
    elsewhere = seat_view(across, 0)  # Red plays on board kitchen: this board has only a stand-in
    assert not elsewhere["hand"] and not elsewhere.get("actions")
    assert seat_view(across, 1)["hand"] == snapshot.position.state.observation(1)["hand"]
    view = table_view(across)
    assert view["remote"]["boards"] == [
        {"name": "kitchen", "online": False, "seats": [0]},
        {"name": "club", "online": True, "seats": [1]},
    ]
    assert table_view(snapshot)["remote"] is None
    waiting = viewer_parts(across, 1, True)["waiting"]
    assert snapshot.position.state.current_player == 0
    assert "Red plays on board kitchen." in waiting
    assert "Offline: board kitchen; the game goes on when it is back." in waiting


def test_a_game_the_boards_ended_reads_as_over_on_every_page(tmp_path: Path) -> None:
    """docs/remote.md, rule 10: the banner says who resigned, no seat is on turn, no moves offered."""
    snapshot = a_snapshot(tmp_path)
    remote = RemoteView(
        "friday-1", "kitchen", "club", ("kitchen", "club"), {"kitchen": True}, False, None, "board kitchen resigned"
    )
    ended = dataclasses.replace(snapshot, remote=remote)
    view = table_view(ended)
    assert view["terminal"] and view["result"] == "board kitchen resigned" and view["turn"] is None
    assert viewer_parts(ended, 1, True)["waiting"] == ["Game over: board kitchen resigned."]
    assert not seat_view(ended, 1).get("actions")
    assert seat_view(ended, 1)["hand"] == snapshot.position.state.observation(1)["hand"]


def test_what_ends_a_game_across_boards_needs_the_table_pin_on_a_page(tmp_path: Path) -> None:
    """docs/web.md, the principals: resigning, offering a draw and accepting another board's request
    to abandon or agree a draw end the game for every board, as abandoning ends this board's: they
    need the table PIN (the hub checks it for every message that carries one). A take-back request's
    yes, and any no, stay the board's buttons."""
    from controller.service.control import AnswerBoards, AskBoards
    from controller.web.access import TABLE, Principal, acting_seat
    from controller.web.protocol import ADMIN, ProtocolError, command_of

    assert {"resign", "ask", "answer"} <= ADMIN
    assert command_of({"type": "resign", "pin": "1234"}, None) == AskBoards("resign")
    assert command_of({"type": "ask", "kind": "draw", "pin": "1234"}, None) == AskBoards("draw")
    assert command_of({"type": "answer", "accept": True, "pin": "1234"}, None) == AnswerBoards(True)
    with pytest.raises(ProtocolError, match="resigning is a message of its own, with the table PIN"):
        command_of({"type": "ask", "kind": "resign", "pin": "1234"}, None)
    snapshot = a_snapshot(tmp_path)
    for kind, ends in (("abandon", True), ("draw", True), ("takeback", False)):
        remote = RemoteView("g", "kitchen", "club", ("kitchen", "club"), {}, False, (kind, "kitchen"))
        asked = dataclasses.replace(snapshot, remote=remote)
        for page in (TABLE, Principal("seat", 1)):
            confirm = {"type": "press", "button": "confirm"}
            if ends:
                with pytest.raises(ProtocolError, match="accepting ends the game, so it needs the table PIN"):
                    acting_seat(page, confirm, asked)
            else:
                assert acting_seat(page, confirm, asked) is None
            assert acting_seat(page, {"type": "press", "button": "undo"}, asked) is None  # a no keeps the game
        waiting = viewer_parts(asked, 1, True)["waiting"]
        assert any(("with the table PIN" in line) == ends for line in waiting if "asks to" in line)
        assert table_view(asked)["remote"]["asked"] == {"kind": kind, "board": "kitchen"}


def test_a_board_waiting_for_the_answer_to_its_own_request_says_so_on_its_screens(tmp_path: Path) -> None:
    snapshot = a_snapshot(tmp_path)
    remote = RemoteView("g", "kitchen", "club", ("kitchen", "club"), {"kitchen": True}, False, asking="takeback")
    across = dataclasses.replace(snapshot, remote=remote)
    assert table_view(across)["remote"]["asking"] == "takeback"
    waiting = viewer_parts(across, 1, True)["waiting"]
    assert "This board asks the others to take back the last move: waiting for their answer." in waiting
    quiet = dataclasses.replace(snapshot, remote=dataclasses.replace(remote, asking=None))
    assert not any("waiting for their answer" in line for line in viewer_parts(quiet, 1, True)["waiting"])
