"""Game tables are records: frozen to the type checker, compared and hashed by value (or by identity
with eq=False), and `replaced` changes only the fields it names."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

from controller.games.records import record, replaced
from tests.service.configs import ROOT


@record()
class Pair:
    left: int
    right: tuple[int, ...] = ()


@record(eq=False)
class Table:
    turn: int


def test_records_with_eq_compare_and_hash_by_value_and_others_by_identity() -> None:
    assert Pair(1, (2,)) == Pair(1, (2,))
    assert len({Pair(1, (2,)), Pair(1, (2,)), Pair(2)}) == 2
    assert Table(1) != Table(1)
    assert len({Table(1), Table(1)}) == 2


def test_replaced_changes_the_named_fields_only_and_refuses_unknown_ones() -> None:
    before = Pair(1, (2,))
    after = replaced(before, right=(3,))
    assert (before, after) == (Pair(1, (2,)), Pair(1, (3,)))
    with pytest.raises(TypeError, match="Pair has no field 'middle'"):
        replaced(before, middle=0)


def test_mypy_rejects_an_assignment_to_a_field_of_a_record(tmp_path: Path) -> None:
    source = tmp_path / "assigns.py"
    source.write_text(
        "from controller.games.zillo.model import Position\n\ndef f(p: Position) -> None:\n    p.turn = 3\n",
        encoding="utf-8",
    )
    config = str(ROOT / "pyproject.toml")
    out, _, status = api.run(
        ["--config-file", config, "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"), str(source)]
    )
    assert status == 1
    assert 'Property "turn" defined in "Position" is read-only' in out
