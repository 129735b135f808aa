"""`tafel bench --web` reports medians of its runs against the budgets (the runs themselves take
minutes and are measured by the command, not here)."""

from __future__ import annotations

from controller.terminal.bench_web import _median_run, format_web


def run(pages: int, jitter: float, rss: float, p50: float | None, worst: float | None, moves: int) -> dict:
    return {
        "pages": pages,
        "scans": 3000,
        "jitter_ms_p99": jitter,
        "jitter_ms_p50": 0.03,
        "rss_mb": rss,
        "commit_to_pages_ms_p50": p50,
        "commit_to_pages_ms_max": worst,
        "moves_seen": moves,
    }


def test_medians_of_the_runs_and_the_worst_commit() -> None:
    merged = _median_run(
        [run(8, 3.0, 50.0, 2.0, 4.0, 30), run(8, 4.0, 51.0, 3.0, 9.0, 33), run(8, 9.0, 49.0, 2.5, 3.0, 31)]
    )
    assert merged["jitter_ms_p99"] == 4.0 and merged["rss_mb"] == 50.0 and merged["commit_to_pages_ms_p50"] == 2.5
    assert merged["commit_to_pages_ms_max"] == 9.0 and merged["moves_seen"] == 94 and merged["scans"] == 9000
    without = _median_run([run(0, 2.0, 38.0, None, None, 0)])
    assert without["commit_to_pages_ms_p50"] is None and without["commit_to_pages_ms_max"] is None


def test_the_report_names_every_figure_and_its_budget() -> None:
    result = {
        "without_web": _median_run([run(0, 2.5, 37.5, None, None, 0)]),
        "with_pages": _median_run([run(8, 3.5, 50.0, 2.5, 3.5, 30)]),
        "jitter_p99_growth_ms": 1.0,
        "rss_growth_mb": 12.5,
        "page_load": None,
    }
    text = format_web(result)
    assert "+1.000 ms; budget +2 ms" in text and "+12.5 MB; budget +15 MB" in text
    assert "median 2.5 ms, max 3.5 ms over 30 moves (budget 100 ms)" in text
    assert "page load: not measured (no Chromium and chromedriver here)" in text
    result["page_load"] = {"interactive_ms_max": 120.0, "board_drawn_ms_max": 150.0, "loads": 5}
    assert "interactive after 120.0 ms, board drawn after 150.0 ms (worst of 5 loads; budget 1000 ms)" in format_web(
        result
    )


def test_the_thinking_report_compares_the_jitter_with_its_budget() -> None:
    from controller.terminal.bench_web import format_thinking

    instant = {**run(0, 2.0, 38.0, None, None, 0), "moves": 90}
    thinking = {**run(0, 2.6, 41.0, None, None, 0), "moves": 40}
    text = format_thinking(
        {"level": "search-2", "random_bots": instant, "thinking_bots": thinking, "jitter_p99_growth_ms": 0.6}
    )
    assert "2.000 ms with random bots, 2.600 ms with search-2 bots thinking (+0.600 ms; budget +2 ms)" in text
    assert "40 moves in a run" in text


def test_a_thinking_run_seats_the_bots_it_names() -> None:
    """The run's configuration seats the level asked for (the runs themselves are the command's)."""
    from controller.terminal.bench_web import CONFIG, ROOT

    text = CONFIG.format(wiring=ROOT / "wiring", web="false", port=1, bot="search-2")
    assert 'bot = "search-2"' in text
