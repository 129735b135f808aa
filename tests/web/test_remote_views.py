"""What the screens of a board in a game across boards show (docs/remote.md): who plays where, which
board is away, and never the stand-in of a hand played on another board."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

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
