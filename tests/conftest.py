"""Suite-wide: say at the top of every run whether the browser tests can run, and why not; and how
many workers `-n auto` starts."""

from __future__ import annotations

import os

MAX_WORKERS = 8


def pytest_report_header(config) -> str:
    from tests.web.browser import browser_problem

    problem = browser_problem()
    if problem is None:
        return "browser tests: run in headless Chromium"
    return f"browser tests: SKIPPED, {problem}"


def pytest_xdist_auto_num_workers(config) -> int:
    """Two workers per core: much of the suite waits (on `tafel run` processes, a broker, a
    browser), and a second worker per core fills those waits with work."""
    return min(MAX_WORKERS, 2 * (os.cpu_count() or 1))
