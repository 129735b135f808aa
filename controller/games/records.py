"""Successors of the games' frozen tables, made quickly.

A game state wraps one frozen dataclass (its table) and makes every successor by changing a few of
its fields. `dataclasses.replace` looks the fields up anew on every call; `replaced` reads them all
at once through a getter kept per class and builds the new table with the class's own `__init__`,
so the result is the same, in about half the time (random playouts make millions of them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from functools import cache
from operator import attrgetter
from typing import Any, TypeVar

Record = TypeVar("Record")


@cache
def _shape(cls: type) -> tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]:
    """A getter of every field of the dataclass `cls` in order, and each field's position."""
    names = [field.name for field in fields(cls)]
    if any(not field.init for field in fields(cls)):
        raise TypeError(f"{cls.__name__} has fields its __init__ does not take: use dataclasses.replace")
    get: Callable[[Any], tuple[Any, ...]] = attrgetter(*names)
    if len(names) == 1:  # attrgetter of one name gives the value itself, not a tuple
        single = attrgetter(names[0])
        get = lambda record: (single(record),)  # noqa: E731
    return get, {name: number for number, name in enumerate(names)}


def replaced(record: Record, **changes: Any) -> Record:
    """`record` with `changes` to some of its fields, like `dataclasses.replace`."""
    cls = type(record)
    get, position = _shape(cls)  # type: ignore[arg-type]  # (a class is hashable; mypy's Record is not bound)
    values = list(get(record))
    for name, value in changes.items():
        number = position.get(name)
        if number is None:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
        values[number] = value
    return cls(*values)
