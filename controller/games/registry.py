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
            # KeyError for a name not registered. Two threads asking at once both make one, and
            # both get the one kept first (setdefault is atomic): a game is one object everywhere.
            entry = self._made.setdefault(name, self._makers[name]())
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)

    def __contains__(self, name: object) -> bool:
        return name in self._makers
