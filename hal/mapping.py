"""Reading one table of a TOML configuration with errors that name the table and the key.

The service parses `/etc/tafel/config.toml` with `tomllib` and hands each hardware table to a
`from_mapping` constructor; this reader is what those constructors share, so that a maker who typed
`signal_pin` instead of `signal_pins` is told exactly that.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hal.errors import WiringError, wiring_error
from hal.pins import check_gpio

_REQUIRED: Any = object()


def child_where(where: str, key: str) -> str:
    """`config.toml [gpio]` + `mux` -> `config.toml [gpio.mux]`; any other location gets `.key`."""
    if where.endswith("]") and "[" in where:
        return f"{where[:-1]}.{key}]"
    return f"{where}.{key}"


class Table:
    """One configuration table; every read marks its key as known, `finish()` rejects the rest."""

    def __init__(self, data: Mapping[str, Any] | None, where: str) -> None:
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise wiring_error(where, None, f"expected a table of settings, not {data!r}")
        self.data = data
        self.where = where
        self._known: set[str] = set()

    def error(self, key: str, message: str) -> WiringError:
        return wiring_error(self.where, key, message)

    def has(self, key: str) -> bool:
        self._known.add(key)
        return key in self.data

    def raw(self, key: str, default: Any = _REQUIRED) -> Any:
        self._known.add(key)
        if key in self.data:
            return self.data[key]
        if default is _REQUIRED:
            raise wiring_error(self.where, None, f"missing the key {key!r}")
        return default

    def text(self, key: str, default: Any = _REQUIRED, choices: Iterable[str] = ()) -> str:
        value = self.raw(key, default)
        allowed = tuple(choices)
        if not isinstance(value, str) or (allowed and value not in allowed):
            expected = f"one of {', '.join(repr(c) for c in allowed)}" if allowed else "a text value"
            raise self.error(key, f"must be {expected}, not {value!r}")
        return value

    def flag(self, key: str, default: Any = _REQUIRED) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.error(key, f"must be true or false, not {value!r}")
        return value

    def integer(
        self, key: str, default: Any = _REQUIRED, minimum: int | None = None, maximum: int | None = None
    ) -> Any:
        value = self.raw(key, default)
        if value is None and default is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"must be a whole number, not {value!r}")
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            low = "" if minimum is None else f">= {minimum}"
            high = "" if maximum is None else f"<= {maximum}"
            raise self.error(key, f"must be {' and '.join(part for part in (low, high) if part)}, not {value}")
        return value

    def number(self, key: str, default: Any = _REQUIRED) -> float:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(key, f"must be a number, not {value!r}")
        return float(value)

    def numbers(self, key: str, default: Any = _REQUIRED) -> tuple[float, ...]:
        value = self.raw(key, default)
        if not isinstance(value, list | tuple) or not value:
            raise self.error(key, f"must be a non-empty list of numbers, not {value!r}")
        for item in value:
            if isinstance(item, bool) or not isinstance(item, int | float):
                raise self.error(key, f"must be a list of numbers; {item!r} is not a number")
        return tuple(float(item) for item in value)

    def gpio(self, key: str, default: Any = _REQUIRED) -> Any:
        """A BCM GPIO number on the 40-pin header, or `default` (which may be None: optional pin)."""
        value = self.raw(key, default)
        if value is None and default is None:
            return None
        return check_gpio(value, self.where, key)

    def gpios(self, key: str, length: int | None = None) -> tuple[int, ...]:
        value = self.raw(key)
        if not isinstance(value, list | tuple) or not value:
            raise self.error(key, f"must be a non-empty list of GPIO numbers, not {value!r}")
        if length is not None and len(value) != length:
            raise self.error(key, f"must list exactly {length} GPIO numbers, not {len(value)}")
        return tuple(check_gpio(item, self.where, key) for item in value)

    def table(self, key: str) -> Table | None:
        """A nested table (e.g. `[gpio.mux]` inside `[gpio]`), or None if absent."""
        value = self.raw(key, None)
        if value is None:
            return None
        return Table(value, child_where(self.where, key))

    def finish(self) -> None:
        unknown = sorted(set(self.data) - self._known)
        if unknown:
            known = ", ".join(sorted(self._known))
            message = f"unknown key(s) {', '.join(unknown)} (known keys: {known})"
            raise WiringError(f"{self.where}: {message}", self.where, unknown[0])
