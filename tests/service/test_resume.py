"""The service resumes the game in its journal: after a restart, after a damaged journal tail, and
the players can abandon a game for a new one."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from controller.service.config import load_config
from controller.service.journal import Journal
from controller.service.loop import Limits, Service
from controller.service.persistence import JournalPersistence
from controller.service.sdnotify import Notifier
from tests.service.configs import opening_moves, sim_config, write


def run_service(tmp_path: Path, moves: tuple[str, ...], caplog: pytest.LogCaptureFixture) -> Service:
    config = load_config(write(tmp_path, sim_config(moves=moves, bots=False, max_plies=100)))
    service = Service(config, Notifier(environ={}))
    with caplog.at_level(logging.INFO, logger="tafel"):
        assert service.run(Limits(until_game_over=True)) == 0
    return service


def journal_actions(state_dir: Path) -> list[str]:
    journal = Journal(state_dir)
    recovery = journal.recover()
    journal.close()
    return [entry["action"] for entry in recovery.game.actions] if recovery.game else []


def test_a_restarted_service_resumes_the_game_where_it_stood(tmp_path: Path, caplog) -> None:
    moves = opening_moves(3)
    run_service(tmp_path, moves, caplog)
    assert journal_actions(tmp_path / "state") == list(moves)
    caplog.clear()
    service = run_service(tmp_path, (), caplog)
    assert len(service.session.tracker.history) == 3
    assert [r.getMessage() for r in caplog.records if "resumed" in r.getMessage()] == [
        f"resumed Klotz after 3 moves from the journal in {tmp_path / 'state'}"
    ]
    assert (
        service.session.tracker.history[-1].apply(service.session.tracker.history[-1].parse_action(moves[-1]))
        == service.session.state
    )


@pytest.mark.parametrize("cut", [1, 7, 30])
def test_a_truncated_journal_resumes_from_the_last_complete_record_with_one_log_line(
    tmp_path: Path, caplog, cut: int
) -> None:
    moves = opening_moves(3)
    run_service(tmp_path, moves, caplog)
    journal = tmp_path / "state" / "journal.log"
    journal.write_bytes(journal.read_bytes()[:-cut])
    caplog.clear()
    service = run_service(tmp_path, (), caplog)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "damaged byte(s)" in warnings[0]
    assert len(service.session.tracker.history) == 2  # the cut record is gone, the rest stands
    assert journal_actions(tmp_path / "state") == list(moves[:2])


def test_a_corrupted_record_ends_the_journal_there(tmp_path: Path, caplog) -> None:
    moves = opening_moves(4)
    run_service(tmp_path, moves, caplog)
    journal = tmp_path / "state" / "journal.log"
    lines = journal.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2][:20] + b"#" + lines[2][21:]  # the second move's record
    journal.write_bytes(b"".join(lines))
    caplog.clear()
    service = run_service(tmp_path, (), caplog)
    assert len(service.session.tracker.history) == 1
    assert sum("damaged" in r.getMessage() for r in caplog.records) == 1


def test_a_finished_game_is_not_resumed(tmp_path: Path, caplog) -> None:
    config = load_config(write(tmp_path, sim_config(max_plies=4)))
    assert Service(config, Notifier(environ={})).run(Limits(until_game_over=True)) == 0
    caplog.clear()
    service = run_service(tmp_path, (), caplog)
    assert service.session.tracker.history == ()
    assert any("was over: starting a new game" in r.getMessage() for r in caplog.records)


def test_a_journal_of_another_game_is_closed_and_a_new_game_starts(tmp_path: Path, caplog) -> None:
    journal = Journal(tmp_path / "state")
    journal.recover()
    journal.start_game("fillit", 2, 1, {})
    journal.close()
    service = run_service(tmp_path, (), caplog)
    assert service.session.tracker.history == ()
    assert any("the saved game is fillit" in r.getMessage() for r in caplog.records)
    recovery = Journal(tmp_path / "state").recover()
    assert recovery.game.start["game"] == "klotz"


def test_abandoning_starts_a_new_game_in_the_journal_and_on_the_board(tmp_path: Path) -> None:
    from controller.games import load_game
    from controller.terminal.physical import PhysicalTable
    from hal.profile import load_profile

    klotz = load_game("klotz")
    persistence = JournalPersistence(tmp_path)
    first = klotz.new_game(players=2, seed=1)
    start = {"game": "klotz", "players": 2, "seed": 1, "options": {}}
    persistence.resume(klotz, first, start)
    table = PhysicalTable(klotz, first, load_profile("square14"), calm_hands=True)
    table.session.on_record.append(persistence.on_commit)
    fresh = klotz.new_game(players=2, seed=2)

    def abandon(now: int):
        persistence.new_game({**start, "seed": 2})
        return fresh

    table.session.on_abandon.append(abandon)
    table.settle()
    state = table.state
    assert table.perform(state.legal_actions()[0])
    table.backends.inputs.push("menu", "abandon")
    out = table.run(100)
    assert table.state is fresh and table.session.tracker.history == ()
    assert out.display.mode == "setup"  # the moved piece must go back for the new game
    persistence.close()
    recovery = Journal(tmp_path).recover()
    assert recovery.game.start["seed"] == 2 and recovery.game.actions == []
