"""The games' tables as records, and their successors, made quickly.

A game state wraps one record (its table) and makes every successor by changing a few of its fields;
random playouts make millions of them.

- `record` declares a table: frozen to the type checker (mypy rejects any assignment to a field),
  and at run time a plain slotted dataclass, because a frozen dataclass's `__init__` sets each field
  through `object.__setattr__`, which makes a 24-field table cost eight times as much to build.
- `replaced` is `dataclasses.replace` without looking the fields up anew on every call: it reads them
  all at once through a getter kept per class and builds the new table with the class's `__init__`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import cache
from operator import attrgetter
from typing import Any, TypeVar, cast, dataclass_transform

Record = TypeVar("Record")
Class = TypeVar("Class", bound=type)


@dataclass_transform(frozen_default=True)
def record(*, eq: bool = True) -> Callable[[Class], Class]:
    """A game table: a slotted dataclass never assigned to (checked by mypy, see above); with `eq`,
    compared and hashed by value like a frozen dataclass."""

    def make(cls: Class) -> Class:
        return cast(Class, dataclass(slots=True, eq=eq, unsafe_hash=eq)(cls))

    return make


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
