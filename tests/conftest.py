"""Suite-wide: say at the top of every run whether the browser tests can run, and why not."""

from __future__ import annotations


def pytest_report_header(config) -> str:
    from tests.web.browser import browser_problem

    problem = browser_problem()
    if problem is None:
        return "browser tests: run in headless Chromium"
    return f"browser tests: SKIPPED, {problem}"
