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


def test_resigning_a_game_across_boards_needs_the_table_pin_and_a_draw_offer_does_not() -> None:
    from controller.service.control import AskBoards
    from controller.web.protocol import ADMIN, ProtocolError, command_of

    assert "resign" in ADMIN and "ask" not in ADMIN  # the hub checks a resignation's PIN as abandoning's
    assert command_of({"type": "resign", "pin": "1234"}, None) == AskBoards("resign")
    assert command_of({"type": "ask", "kind": "draw"}, None) == AskBoards("draw")
    with pytest.raises(ProtocolError, match="resigning is a message of its own, with the table PIN"):
        command_of({"type": "ask", "kind": "resign"}, None)
