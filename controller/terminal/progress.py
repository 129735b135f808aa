"""Progress bars for long runs (`selfplay`, `bench`): tqdm on a terminal, nothing otherwise.

tqdm is the well-kept standard for this (rate, remaining time, correct redraws on narrow terminals);
the bar goes to standard error, so a summary or JSON on standard output stays clean, and it is off
whenever standard error is not a terminal or the caller asked for JSON.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Advance = Callable[[], None]


def _nothing() -> None:
    return None


@contextmanager
def progress_bar(total: int, description: str, unit: str, enabled: bool = True) -> Iterator[Advance]:
    """A bar of `total` steps; yields the function that advances it by one."""
    if not enabled or total <= 1 or not sys.stderr.isatty():
        yield _nothing
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=description, unit=unit, leave=False, file=sys.stderr, dynamic_ncols=True) as bar:
        yield lambda: bar.update(1)
