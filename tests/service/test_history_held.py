"""A finished game the history cannot take is not lost when the next game starts over the journal
(docs/persistence.md, "When the disk fails"): it is held, said once, and kept as soon as the disk
takes a write of the history again."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from controller.service.config import load_config
from controller.service.control import NewGame
from controller.service.loop import Limits, Service
from controller.service.sdnotify import Notifier
from controller.web.server import web_app
from tests.service.configs import sim_config, write


def test_a_finished_game_the_history_cannot_take_is_held_until_it_can(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    (state_dir / "games").write_text("")  # a file where the history's folder should be: every write fails
    service = Service(load_config(write(tmp_path, sim_config(max_plies=4))), Notifier(environ={}))
    with caplog.at_level(logging.INFO, logger="tafel"):
        assert service.run(Limits(until_game_over=True)) == 0
        finished = service.table.game_id
        assert service.session.state.is_terminal() and service.table.archive.waiting == (finished,)
        fresh = NewGame("klotz", 2, ("human", "human"), {})
        said = service.table.execute(fresh)  # a finished game may be left: the table plays on
        assert said.startswith("a new game of Klotz starts")
        assert service.table.game_id != finished and service.table.archive.waiting == (finished,)
        (state_dir / "games").unlink()  # room again
        service.table.execute(fresh)  # the next write of the history takes the held game too
    assert service.table.archive.waiting == ()
    (kept,) = service.table.archive.games()
    assert kept.game_id == finished and kept.status == "finished" and len(kept.actions) == 4
    messages = [record.getMessage() for record in caplog.records]
    held = [m for m in messages if m.startswith(f"history: could not keep game {finished}")]
    assert held == [
        f"history: could not keep game {finished} (a file stands where a directory should be); it is held here "
        "and kept with the next game the history keeps (a restart before then loses it)"
    ]  # once, though the new game's start tried again
    assert f"history: game {finished} is kept now ({kept.result})" in messages


def test_the_history_page_shows_a_held_game_as_not_saved_yet_and_serves_it(tmp_path: Path) -> None:
    """The web app reads the service's own history, so a game held until the disk takes it is listed
    (marked not saved yet), downloadable and replayable like any other."""
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    (state_dir / "games").write_text("")
    service = Service(load_config(write(tmp_path, sim_config(max_plies=4))), Notifier(environ={}))
    assert service.run(Limits(until_game_over=True)) == 0
    finished = service.table.game_id
    _, app = web_app(service.table.control, state_dir, "1234", ("testserver",), service.table.archive)
    with TestClient(app) as client:
        (listed,) = client.get("/api/history").json()["games"]
        assert (listed["id"], listed["held"], listed["moves"]) == (finished, True, 4)
        assert client.get(f"/api/history/{finished}.json").status_code == 200
        assert client.get(f"/api/history/{finished}.txt").text.count("\n") >= 4
        (state_dir / "games").unlink()
        service.table.execute(NewGame("klotz", 2, ("human", "human"), {}))
        (listed,) = client.get("/api/history").json()["games"]
        assert (listed["id"], listed["held"]) == (finished, False)
