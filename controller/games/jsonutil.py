"""JSON helpers shared by the engines: a checked header, typed field access and cell encoding.

Errors name the field that is wrong, so a damaged saved game says where it is damaged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from controller.games.base import Cell

T = TypeVar("T")


def header(game: str, version: int) -> dict[str, Any]:
    """The first keys of every `State.to_json()`."""
    return {"game": game, "version": version}


def check_header(data: Any, game: str, version: int) -> Mapping[str, Any]:
    """Raise ValueError unless `data` is a saved state of `game` in format `version`."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a saved {game} state must be a JSON object, got {type(data).__name__}")
    if data.get("game") != game:
        raise ValueError(f"this saved state is of game {data.get('game')!r}, not {game!r}")
    if data.get("version") != version:
        raise ValueError(f"saved {game} state has format version {data.get('version')!r}; expected {version}")
    return data


def field(data: Mapping[str, Any], name: str, kind: type[T] | tuple[type, ...]) -> T:
    """`data[name]`, checked to be of `kind`; booleans never pass for integers."""
    if name not in data:
        raise ValueError(f"saved state lacks the field {name!r}")
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise ValueError(f"field {name!r} must be {_names(kinds)}, got {value!r}")
    if not isinstance(value, kinds):
        raise ValueError(f"field {name!r} must be {_names(kinds)}, got {value!r}")
    return value  # type: ignore[return-value]


def optional(data: Mapping[str, Any], name: str, kind: type[T] | tuple[type, ...], default: T) -> T:
    """Like `field`, but `default` when the field is absent (a field added after format 1 was saved)."""
    return field(data, name, kind) if name in data else default


def _names(kinds: tuple[type, ...]) -> str:
    return " or ".join("null" if k is type(None) else k.__name__ for k in kinds)


def cell_to_json(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


def cell_from_json(value: Any, where: str) -> Cell:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"{where}: a cell must be a pair of integers, got {value!r}")
    return (value[0], value[1])


def dumps(data: Any) -> str:
    """Canonical compact JSON (sorted keys) so equal states give equal text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
