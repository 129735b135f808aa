"""A disk that refuses writes (docs/persistence.md, "When the disk fails"): the game goes on in
memory, the board says it is not saving, nothing after a failed write is appended, and a retry puts
the whole game back on the disk. The failures are the kernel's own: /dev/full (a full disk), a
directory where a file should be, and a file size limit that cuts a record in half."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from controller.games import load_game
from controller.service.disk import trouble_of
from controller.service.journal import SNAPSHOT, Journal, JournalError
from controller.service.persistence import JournalPersistence

ROOT = Path(__file__).resolve().parents[2]
MOVES = ["c7-c4", "l7-l4", "c4-c5", "l4-l5"]

needs_dev_full = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a Linux kernel)")


def started(directory: Path) -> Journal:
    journal = Journal(directory)
    journal.recover()
    journal.start_game("klotz", 2, 7, {"max_plies": 100})
    return journal


def actions_on_disk(directory: Path) -> list[str]:
    journal = Journal(directory)
    recovery = journal.recover()
    journal.close()
    return [entry["action"] for entry in recovery.game.actions] if recovery.game is not None else []


def fill_disk(directory: Path) -> None:
    """From now on the journal's writes go to /dev/full, which refuses every byte as a full disk."""
    journal_path = directory / "journal.log"
    journal_path.unlink()
    journal_path.symlink_to("/dev/full")


def block_snapshots(directory: Path) -> Path:
    """A snapshot cannot be written either: its temporary file's name is taken by a directory."""
    blocker = directory / (SNAPSHOT + ".tmp")
    blocker.mkdir()
    return blocker


@needs_dev_full
def test_a_full_disk_keeps_the_game_in_memory_and_a_retry_writes_it_whole(tmp_path: Path) -> None:
    journal = started(tmp_path)
    journal.action(MOVES[0])
    journal.close()
    journal = Journal(tmp_path)
    journal.recover()
    fill_disk(tmp_path)
    journal.close()
    journal._open()  # the board opens its journal: on /dev/full
    for move in MOVES[1:]:
        journal.action(move)
    assert journal.behind == "the disk is full"
    assert journal.saved_moves == 1
    assert [entry["action"] for entry in journal.game.actions] == MOVES  # the game is whole in memory
    assert journal.catch_up()  # the snapshot and a fresh journal replace the refused one
    assert journal.behind is None
    journal.action("c5-c6")
    journal.close()
    assert actions_on_disk(tmp_path) == [*MOVES, "c5-c6"]


def test_nothing_is_appended_after_a_failed_write_and_a_failing_retry_stays_behind(tmp_path: Path) -> None:
    journal = started(tmp_path)
    journal.action(MOVES[0])
    blocker = block_snapshots(tmp_path)
    os.chmod(tmp_path / "journal.log", 0o644)
    journal._fall_behind(OSError(28, "No space left on device"))  # as append does when the disk refuses
    size = (tmp_path / "journal.log").stat().st_size
    for move in MOVES[1:]:
        journal.action(move)
    assert (tmp_path / "journal.log").stat().st_size == size  # nothing after the failure
    assert not journal.catch_up()
    assert journal.behind == "a directory stands where the file should be"
    blocker.rmdir()
    assert journal.catch_up()
    journal.close()
    assert actions_on_disk(tmp_path) == MOVES


def test_a_record_cut_in_half_by_the_disk_is_replaced_by_the_retry(tmp_path: Path) -> None:
    """A file size limit lets the kernel write part of a record, then refuses the rest (EFBIG): the
    short write is no write, and the retry, once there is room, leaves no half record behind."""
    journal = started(tmp_path)
    journal.action(MOVES[0])
    journal.close()
    size = (tmp_path / "journal.log").stat().st_size
    script = textwrap.dedent(
        f"""
        import resource, sys
        from controller.service.journal import Journal
        journal = Journal({str(tmp_path)!r})
        journal.recover()
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({size} + 20, hard))
        journal.action({MOVES[1]!r})
        print(journal.behind, journal.saved_moves)
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        print(open({str(tmp_path / "journal.log")!r}, "rb").read().count(b"\\n"))
        print(journal.catch_up())
        journal.action({MOVES[2]!r})
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    behind, half_lines, caught_up = result.stdout.splitlines()
    assert behind == "the file has grown past the size this system allows 1"
    assert half_lines == "2"  # the start, the first move, and part of the second with no end of line
    assert caught_up == "True"
    assert actions_on_disk(tmp_path) == MOVES[:3]


@pytest.mark.parametrize("kind", ["directory", "device"])
def test_an_unreadable_journal_is_left_as_it_is_and_said_in_words(tmp_path: Path, kind: str) -> None:
    journal_path = tmp_path / "journal.log"
    if kind == "directory":
        journal_path.mkdir()
    else:
        journal_path.symlink_to("/dev/zero")  # reads for ever: never read whole
    with pytest.raises(JournalError) as raised:
        Journal(tmp_path).recover()
    message = str(raised.value)
    said = "is a directory, not a file" if kind == "directory" else "is not a regular file"
    assert f"the saved game {journal_path} {said}" in message
    assert "it is left as it is, so that no new game is written over it" in message
    assert "Errno" not in message
    assert journal_path.exists() and not (tmp_path / SNAPSHOT).exists()


def test_a_state_directory_that_cannot_be_made_plays_on_unsaved(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    journal = Journal(tmp_path / "file" / "state")
    recovery = journal.recover()
    assert recovery.game is None
    assert journal.behind == "a file stands where a directory should be"
    journal.start_game("klotz", 2, 7, {})
    journal.action(MOVES[0])
    assert [entry["action"] for entry in journal.game.actions] == MOVES[:1]


def test_the_board_says_it_is_not_saving_once_and_says_when_it_is_again(tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.INFO)
    game = load_game("klotz")
    persistence = JournalPersistence(tmp_path, logging.getLogger("tafel.test"))
    fresh = game.new_game(players=2, seed=7, max_plies=100)
    states = list(persistence.resume(game, fresh, {"game": "klotz", "players": 2, "seed": 7, "options": {}}))
    state = states[-1]
    played = []
    for number in range(4):
        if number == 2:
            blocker = block_snapshots(tmp_path)
            persistence.journal._fall_behind(OSError(28, "No space left on device"))
        action = state.legal_actions()[0]
        played.append(state.action_to_str(action))
        persistence.on_commit(state, action, state.apply(action))
        state = state.apply(action)
        persistence.retry(number * 100)
        if number == 2:
            trouble = persistence.trouble
    assert trouble == (
        f"Not saving the game: the disk is full ({tmp_path}). The game goes on; a power cut now loses the "
        "moves from move 3 on."
    )
    for now in range(300, 5000, 10):  # retries with back-off, each failing on the blocked snapshot
        persistence.retry(now)
    assert persistence.trouble == persistence_words(tmp_path)
    blocker.rmdir()
    persistence.retry(100_000)
    assert persistence.trouble is None
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert warnings == [
        f"journal: {trouble} It tries again.",
        f"journal: {persistence_words(tmp_path)} It tries again.",
    ]
    assert "journal: saving again: the game is saved up to move 4" in caplog.text
    assert "Errno" not in caplog.text
    persistence.close()
    assert actions_on_disk(tmp_path) == played


def persistence_words(directory: Path) -> str:
    return (
        f"Not saving the game: a directory stands where the file should be ({directory}). The game goes on; "
        "a power cut now loses the moves from move 3 on."
    )


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (28, "the disk is full"),
        (30, "the disk is read-only (a card the system remounted read-only after errors?)"),
        (5, "the disk reports an input/output error (a failing card?)"),
        (13, "tafel may not write there (check who owns the directory)"),
    ],
)
def test_a_refused_write_is_said_by_its_cause(number: int, words: str) -> None:
    assert trouble_of(OSError(number, os.strerror(number))) == words
