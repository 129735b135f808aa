"""Headless Chromium for `tafel bench --web` (and the browser tests): Debian's `chromium` driven by
Selenium through Debian's `chromedriver`. Selenium is given the system driver's path, so its driver
manager never runs and nothing is downloaded."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
INSTALL = "apt-get install chromium chromium-driver (.ci/run does this on CI)"


def _first(names: tuple[str, ...]) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def browser_problem() -> str | None:
    """Why no headless Chromium can be driven here, in words; None when it can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (it is in the dev extras: make test installs it)"
    if _first(CHROMIUM_NAMES) is None:
        return f"no Chromium browser on this machine: {INSTALL}"
    if shutil.which("chromedriver") is None:
        return f"no chromedriver on this machine: {INSTALL}"
    return None


@contextmanager
def headless_chromium(width: int = 1100, height: int = 900, arguments: tuple[str, ...] = ()) -> Iterator[Any]:
    """A Selenium driver of a headless Chromium window of this size, started with these further
    command-line `arguments`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as DriverService

    options = webdriver.ChromeOptions()
    options.binary_location = _first(CHROMIUM_NAMES) or ""
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        *arguments,
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=DriverService(executable_path=shutil.which("chromedriver")))
    try:
        yield driver
    finally:
        driver.quit()
