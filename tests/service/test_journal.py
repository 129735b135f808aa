"""The journal: fsynced records, recovery of a damaged tail, snapshots and compaction."""

from pathlib import Path

import pytest

from controller.games import load_game
from controller.service.journal import Journal, JournalError, decode_line, encode_record


def play(journal: Journal, moves: list[str]) -> None:
    for move in moves:
        journal.action(move)


def test_records_round_trip_and_damage_is_detected() -> None:
    line = encode_record({"type": "action", "action": "c7-c4", "seq": 1})
    assert decode_line(line) == {"type": "action", "action": "c7-c4", "seq": 1}
    assert decode_line(line[:-1]) is None  # no newline: incomplete
    assert decode_line(line.replace(b"c4", b"c5")) is None  # checksum
    assert decode_line(b"garbage\n") is None


def test_a_game_is_rebuilt_from_the_journal(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.recover()
    journal.start_game("klotz", 2, 7, {"max_plies": 100})
    play(journal, ["c7-c4", "l7-l4"])
    journal.close()
    recovery = Journal(tmp_path).recover()
    assert recovery.damaged is None
    game, states = recovery.game.replay()
    assert game is load_game("klotz")
    assert len(states) == 3
    assert [a["action"] for a in recovery.game.actions] == ["c7-c4", "l7-l4"]


def test_takeback_and_abandon_records(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.recover()
    journal.start_game("klotz", 2, 0, {})
    play(journal, ["c7-c4", "l7-l4"])
    journal.takeback()
    journal.close()
    recovery = Journal(tmp_path).recover()
    assert [a["action"] for a in recovery.game.actions] == ["c7-c4"]
    journal = Journal(tmp_path)
    journal.recover()
    journal.abandon()
    journal.close()
    assert Journal(tmp_path).recover().game is None


@pytest.mark.parametrize("cut", [1, 5, 20])
def test_a_truncated_tail_is_cut_and_the_last_complete_record_wins(tmp_path: Path, cut: int) -> None:
    journal = Journal(tmp_path)
    journal.recover()
    journal.start_game("klotz", 2, 0, {})
    play(journal, ["c7-c4", "l7-l4"])
    journal.close()
    data = (tmp_path / "journal.log").read_bytes()
    (tmp_path / "journal.log").write_bytes(data[:-cut])
    recovery = Journal(tmp_path).recover()
    assert recovery.damaged is not None and "damaged" in recovery.damaged
    assert [a["action"] for a in recovery.game.actions] == ["c7-c4"]
    # The damaged bytes are gone, so new records follow the last good one.
    journal = Journal(tmp_path)
    journal.recover()
    journal.action("l7-l4")
    journal.close()
    assert [a["action"] for a in Journal(tmp_path).recover().game.actions] == ["c7-c4", "l7-l4"]


def test_a_corrupted_record_ends_the_journal_there(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.recover()
    journal.start_game("klotz", 2, 0, {})
    play(journal, ["c7-c4", "l7-l4", "c8-c11"])
    journal.close()
    lines = (tmp_path / "journal.log").read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b"l7", b"l6")
    (tmp_path / "journal.log").write_bytes(b"".join(lines))
    recovery = Journal(tmp_path).recover()
    assert [a["action"] for a in recovery.game.actions] == ["c7-c4"]
    assert recovery.damaged is not None


def test_compaction_keeps_the_game_and_empties_the_journal(tmp_path: Path) -> None:
    journal = Journal(tmp_path, compact_after=3)
    journal.recover()
    journal.start_game("klotz", 2, 0, {})
    play(journal, ["c7-c4", "l7-l4", "c8-c11", "l8-l11"])
    journal.close()
    assert (tmp_path / "snapshot.json").exists()
    assert len((tmp_path / "journal.log").read_bytes().splitlines()) == 2
    recovery = Journal(tmp_path).recover()
    assert [a["action"] for a in recovery.game.actions] == ["c7-c4", "l7-l4", "c8-c11", "l8-l11"]
    recovery.game.replay()


def test_records_already_in_the_snapshot_are_not_replayed_twice(tmp_path: Path) -> None:
    """A power cut between writing the snapshot and emptying the journal duplicates nothing."""
    journal = Journal(tmp_path)
    journal.recover()
    journal.start_game("klotz", 2, 0, {})
    play(journal, ["c7-c4", "l7-l4"])
    before = (tmp_path / "journal.log").read_bytes()
    journal.compact()
    journal.close()
    (tmp_path / "journal.log").write_bytes(before)  # as if the journal had not been emptied
    recovery = Journal(tmp_path).recover()
    assert [a["action"] for a in recovery.game.actions] == ["c7-c4", "l7-l4"]


def test_an_unreadable_snapshot_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "snapshot.json").write_text("{not json")
    with pytest.raises(JournalError, match=r"snapshot\.json"):
        Journal(tmp_path).recover()


def test_a_journal_action_that_does_not_replay_is_a_clear_error(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.recover()
    journal.start_game("klotz", 2, 0, {})
    journal.action("a1-a2")
    journal.close()
    with pytest.raises(JournalError, match="does not replay"):
        Journal(tmp_path).recover().game.replay()


def test_a_game_the_boards_ended_is_ended_in_the_journal_and_in_its_snapshot(tmp_path: Path) -> None:
    """docs/remote.md, rule 10: a resignation, an agreed draw or abandoning by agreement survives a
    power cut and a compaction, and a restart does not resume the game."""
    journal = Journal(tmp_path)
    journal.recover()
    journal.start_game("klotz", 2, 0, {})
    play(journal, ["c7-c4", "l7-l4"])
    journal.ended("over", "board g1 resigned")
    journal.close()
    recovery = Journal(tmp_path).recover()
    assert recovery.game.ended == {"status": "over", "result": "board g1 resigned"}
    compacting = Journal(tmp_path)
    compacting.recover()
    compacting.compact()
    compacting.close()
    assert Journal(tmp_path).recover().game.ended == {"status": "over", "result": "board g1 resigned"}
    (tmp_path / "snapshot.json").write_text(
        '{"version": 1, "last_seq": 9, "start": {"game": "klotz"}, "actions": [], "ended": {"status": "won"}}'
    )
    with pytest.raises(JournalError, match="'ended' must name a status and a result"):
        Journal(tmp_path).recover()


def test_a_restart_starts_a_new_game_where_the_boards_ended_the_last(tmp_path: Path) -> None:
    from controller.service.persistence import JournalPersistence

    game = load_game("klotz")
    start = {"game": "klotz", "players": 2, "seed": 0, "options": {}, "seats": ["human", "human"]}
    first = JournalPersistence(tmp_path)
    fresh = game.new_game(players=2, seed=0)
    [state] = first.resume(game, fresh, start)
    action = state.legal_actions()[0]
    first.on_commit(state, action, state.apply(action))
    first.on_ended("abandoned", "abandoned by agreement")
    first.close()
    again = JournalPersistence(tmp_path)
    assert again.resume(game, fresh, start) == [fresh]
    assert again.standing_actions() == []
    again.close()
