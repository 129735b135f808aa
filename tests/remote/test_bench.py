"""`tafel bench --remote` measures what it says, on its own private Mosquitto."""

from __future__ import annotations

import pytest

from controller.remote.broker import broker_problem
from controller.terminal import bench_remote


def test_the_remote_bench_plays_every_game_to_the_end_and_counts_its_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    if broker_problem() is not None:
        pytest.skip(f"remote bench needs Mosquitto: {broker_problem()}")
    monkeypatch.setattr(bench_remote, "PACES", {"people": (0.0, 0.01), "flat-out": (0.0, 0.0)})
    results = bench_remote.bench_remote(games=3)
    for pace, result in results.items():
        assert result["pace"] == pace and result["boards"] == 6 and result["games"] == 3
        assert result["moves"] == 3 * bench_remote.PLIES
        assert (result["lost"], result["duplicated"], result["unfinished"]) == (0, 0, 0)
        assert 0 < result["latency_ms"]["p50"] <= result["latency_ms"]["p99"]
    text = bench_remote.format_remote(results)
    assert "remote, people: 6 boards in 3 klotz games" in text and "lost 0, duplicated 0" in text
