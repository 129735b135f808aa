"""Collections paced by the scan loop (controller/service/memory.py): none in a busy scan unless
long overdue, one after a quiet scan once due, and Python's own collection back after the loop."""

import gc
from collections.abc import Iterator

import pytest

from controller.service.memory import OVERDUE, YOUNG_OBJECTS, CollectionPacer


@pytest.fixture
def pacer() -> Iterator[CollectionPacer]:
    pacer = CollectionPacer()
    pacer.settle()
    try:
        yield pacer
    finally:
        pacer.release()


def pile_up(count: int) -> list[list[int]]:
    return [[index] for index in range(count)]  # containers: each counts as a new tracked object


def test_settling_freezes_start_up_and_turns_automatic_collection_off(pacer: CollectionPacer) -> None:
    assert not gc.isenabled()
    assert gc.get_freeze_count() > 0
    pacer.release()
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_busy_scan_leaves_a_due_collection_for_the_next_quiet_one(pacer: CollectionPacer) -> None:
    kept = pile_up(2 * YOUNG_OBJECTS)
    pacer.after_scan(quiet=False)
    assert pacer.collections == 0 and gc.get_count()[0] >= YOUNG_OBJECTS
    pacer.after_scan(quiet=True)
    assert pacer.collections == 1 and gc.get_count()[0] < YOUNG_OBJECTS
    assert len(kept) == 2 * YOUNG_OBJECTS


def test_a_long_overdue_collection_runs_even_in_a_busy_scan(pacer: CollectionPacer) -> None:
    kept = pile_up(OVERDUE * YOUNG_OBJECTS + 10)
    pacer.after_scan(quiet=False)
    assert pacer.collections == 1 and gc.get_count()[0] < YOUNG_OBJECTS
    assert kept


def test_garbage_cycles_are_still_collected(pacer: CollectionPacer) -> None:
    class Node:
        other: object = None

    for _ in range(YOUNG_OBJECTS):
        first, second = Node(), Node()
        first.other, second.other = second, first
    collected: list[int] = []
    gc.callbacks.append(lambda phase, info: collected.append(info["collected"]) if phase == "stop" else None)
    try:
        pacer.after_scan(quiet=True)
    finally:
        gc.callbacks.pop()
    assert sum(collected) >= YOUNG_OBJECTS  # the cycles made since the last collection are gone


def test_an_idle_pacer_does_nothing() -> None:
    pacer = CollectionPacer()
    pile_up(2 * YOUNG_OBJECTS)
    pacer.after_scan(quiet=True)
    assert pacer.collections == 0 and gc.isenabled()
