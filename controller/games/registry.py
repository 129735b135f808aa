"""A registry whose entries are made on first lookup: the games, and the bots' evaluators of them.
A name's package is imported only when something asks for that name."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

T = TypeVar("T")


class LazyRegistry(Mapping[str, T]):
    """Entries by name, in registration order; each made by its maker the first time it is looked
    up, then kept."""

    def __init__(self, makers: Mapping[str, Callable[[], T]]) -> None:
        self._makers = dict(makers)
        self._made: dict[str, T] = {}

    def __getitem__(self, name: str) -> T:
        entry = self._made.get(name)
        if entry is None:
            entry = self._made[name] = self._makers[name]()  # KeyError for a name not registered
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)

    def __contains__(self, name: object) -> bool:
        return name in self._makers
