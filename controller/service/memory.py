"""Garbage collection paced by the scan loop, so that no collection stalls a scan.

Python collects when enough new objects pile up, wherever the program happens to be: in the middle of
a commit, a full collection walking every object the process holds can pause the loop for tens of
milliseconds on a Pi. The board does it the other way round:

- once the board is up, one collection clears start-up's garbage and `gc.freeze()` moves everything
  left (modules, the game's tables, the web app) out of every later collection;
- automatic collection is then off, and the loop collects itself, right after a quiet scan (nothing
  new on the board: the time until the next scan is idle anyway): the young generation as often as
  Python would, the middle one every tenth time, everything (the game's history: small once frozen)
  every few minutes;
- a collection that is long overdue (a board busy for many scans in a row) runs at once, young
  generation only, so memory stays bounded whatever happens.

The loop's own work makes almost no reference cycles, so these collections find little and take a
fraction of a millisecond; `tafel bench` reports every pause.
"""

from __future__ import annotations

import gc

YOUNG_OBJECTS = 700  # new objects that make a young collection due (Python's own threshold)
OVERDUE = 20  # ... and this many times as many make it overdue, quiet or not
MIDDLE_EVERY = 10  # every tenth collection takes the middle generation too
FULL_EVERY_SCANS = 30_000  # a full collection at most this often: five minutes at 100 scans/s


class CollectionPacer:
    """Collects garbage between scans; `settle` once the board is up, `after_scan` after each scan,
    `release` when the loop ends (everything collectable again, automatic collection back on)."""

    def __init__(self) -> None:
        self.active = False
        self.collections = 0
        self._scans_since_full = 0

    def settle(self) -> None:
        gc.collect()
        gc.freeze()
        gc.disable()
        self.active = True
        self._scans_since_full = 0

    def release(self) -> None:
        if self.active:
            self.active = False
            gc.unfreeze()
            gc.enable()

    def after_scan(self, quiet: bool) -> None:
        """A scan is done; `quiet`: it brought nothing new (the idle time before the next is free)."""
        if not self.active:
            return
        self._scans_since_full += 1
        young = gc.get_count()[0]
        if young < YOUNG_OBJECTS or (not quiet and young < OVERDUE * YOUNG_OBJECTS):
            return
        self.collections += 1
        generation = 1 if self.collections % MIDDLE_EVERY == 0 else 0
        if quiet and self._scans_since_full >= FULL_EVERY_SCANS:
            generation = 2
            self._scans_since_full = 0
        gc.collect(generation)
