"""What the table sees when the board's disk refuses writes (docs/persistence.md, "When the disk
fails"): the table view and the health page say the game is not being saved, the status light
blinks, and what would drop or revert something is refused in words while the game goes on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from controller.games import load_game
from controller.service.loop import Service
from controller.table.session import ABANDON
from hal.protocols import InputEvent
from tests.web.harness import PIN, Page, config_text, running_service, web_client

pytestmark = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a Linux kernel)")


def block_whole_files(state: Path) -> None:
    """Every file written whole is refused: a snapshot, the settings, the history."""
    state.mkdir()
    (state / "snapshot.json.tmp").mkdir()
    (state / "settings.json.tmp").mkdir()
    (state / "games").write_text("")


def fill_under(service: Service) -> None:
    """The disk fills under the open journal: its descriptor now writes to /dev/full, which the kernel
    refuses as a full disk."""
    full = os.open("/dev/full", os.O_WRONLY)
    try:
        os.dup2(full, service.persistence.journal._file)
    finally:
        os.close(full)


def test_a_full_disk_is_said_on_every_page_and_nothing_is_dropped_or_reverted(tmp_path: Path) -> None:
    block_whole_files(tmp_path / "state")
    state = load_game("klotz").new_game(players=2, seed=0)
    first = state.action_to_str(state.legal_actions()[0])
    with running_service(tmp_path, config_text()) as service, web_client(service, tmp_path) as client:
        with client.websocket_connect("/ws") as socket:
            page = Page(socket)
            view = page.view(lambda v: v["mode"] == "idle")
            assert view["troubles"] == []
            fill_under(service)
            page.ask({"type": "play", "action": first})
            view = page.view(lambda v: len(v["moves"]) == 1 and v["troubles"])  # the game goes on
            (trouble,) = view["troubles"]  # the disk is full, or (retried) the snapshot is blocked
            assert trouble.startswith("Not saving the game: ") and f"({tmp_path / 'state'})" in trouble
            assert trouble.endswith("The game goes on; a power cut now loses this game's moves.")
            assert service.session.device_trouble is not None and service.session.device_trouble()
            refused = page.ask({"type": "abandon", "pin": PIN})
            assert refused["type"] == "error"
            assert "the history cannot keep this game (a file stands where a directory should be)" in refused["message"]
            start = {"type": "new_game", "pin": PIN, "game": "klotz", "players": 2, "seats": ["human", "human"]}
            refused = page.ask({**start, "abandon": True})
            assert refused["type"] == "error" and "it stays in progress" in refused["message"]
            refused = page.ask({"type": "settings", "pin": PIN, "settle_ms": 300})
            assert refused["type"] == "error"
            assert "the settings cannot be kept (a directory stands where the file should be)" in refused["message"]
            assert service.table.settings.now()["settle_ms"] != 300  # not applied either
            service.session.inject(InputEvent("menu", ABANDON))  # the board's own menu: abandon
            view = page.view(lambda v: any(notice.startswith("Not abandoned: ") for notice in v["notices"]))
            assert "Not abandoned: the history cannot keep this game" in view["notices"][-1]
            assert len(view["moves"]) == 1 and service.table.moves[0].text == first
        with client.websocket_connect("/ws?view=health") as socket:
            health = Page(socket).view(lambda v: v["type"] == "health")
            assert [fault for fault in health["device_faults"] if fault.startswith("Not saving the game: ")]
        for blocker in ("snapshot.json.tmp", "settings.json.tmp"):
            (tmp_path / "state" / blocker).rmdir()
        with client.websocket_connect("/ws") as socket:
            view = Page(socket).view(lambda v: not v["troubles"])  # the retry wrote the game whole
            assert len(view["moves"]) == 1
    assert "Errno" not in str(refused)
