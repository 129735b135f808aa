"""Zillertal's card set: Valley cards, contracts and tokens, read from a TOML data file.

The built-in set (`controller/games/data/zillertal.toml`, rulings ZT-5 and ZT-6) ships inside the
package; owners of a printed copy can enter their real cards in a file of the same format
(docs/cards-data.md) and pass its path as the game option `cards`. Parsing is pure
(`parse_card_set`); `load_card_set` is the one place that reads a file.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from controller.files import read_bounded
from controller.games.cards import Pile

FORMAT = 1
ICONS: tuple[str, ...] = ("bird", "cow", "person", "house", "tree")
LETTERS: dict[str, str] = {"B": "bird", "C": "cow", "P": "person", "H": "house", "T": "tree"}
LETTER_OF: dict[str, str] = {icon: letter for letter, icon in LETTERS.items()}
BLANK = "blank"
TOKEN_KINDS: tuple[str, ...] = (*ICONS, BLANK)
PLAYER_COUNTS: tuple[int, ...] = (1, 2, 3, 4)
CONTRACT_VALUES: tuple[int, ...] = (1, 2, 3)

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_COLUMN_ITEM = re.compile(r"([BCPHT])([0-9]+)")

Counts = tuple[int, ...]
"""Icon counts in ICONS order."""


@dataclass(frozen=True, slots=True)
class ValleyCard:
    """ZT-1: a landscape card: land-line heights at its dotted lines, icons in the columns between."""

    id: str
    heights: tuple[int, ...]
    columns: tuple[Counts, ...]

    @property
    def width(self) -> int:
        return len(self.columns)

    def icon_total(self) -> Counts:
        return tuple(sum(column[i] for column in self.columns) for i in range(len(ICONS)))


@dataclass(frozen=True, slots=True)
class Contract:
    """ZT-6: a contract: `points` for completing every task "exactly N of an icon visible"."""

    id: str
    points: int
    tasks: tuple[tuple[str, int], ...]

    def target(self, icon: str) -> int | None:
        for name, count in self.tasks:
            if name == icon:
                return count
        return None


@dataclass(frozen=True)
class CardSet:
    name: str
    valley: Mapping[str, ValleyCard]
    contracts: Mapping[str, Contract]
    copies: Mapping[str, int]
    in_use: Mapping[int, int]
    tokens: Mapping[str, int]

    def deck(self) -> Pile:
        """Every Valley card as often as it is printed, in file order (unshuffled)."""
        return tuple(card for card in self.valley for _ in range(self.copies[card]))

    def pile(self, points: int) -> Pile:
        """The contracts worth `points`, in file order (unshuffled)."""
        return tuple(c.id for c in self.contracts.values() if c.points == points)

    def to_data(self) -> dict[str, Any]:
        """The set in the data-file layout (JSON-able); `parse_card_set(to_data())` gives it back."""
        default = _most_common(self.copies.values())
        valley = []
        for card in self.valley.values():
            entry: dict[str, Any] = {
                "id": card.id,
                "heights": list(card.heights),
                "columns": [column_text(column) for column in card.columns],
            }
            if self.copies[card.id] != default:
                entry["copies"] = self.copies[card.id]
            valley.append(entry)
        return {
            "format": FORMAT,
            "name": self.name,
            "deck": {"copies": default, "in_use": {str(n): k for n, k in self.in_use.items()}},
            "tokens": dict(self.tokens),
            "valley": valley,
            "contract": [{"id": c.id, "points": c.points, "tasks": dict(c.tasks)} for c in self.contracts.values()],
        }


def column_text(column: Counts) -> str:
    """Icons of one column in the file's letter form, e.g. `B1 C2`."""
    return " ".join(f"{LETTER_OF[icon]}{n}" for icon, n in zip(ICONS, column, strict=True) if n)


def _most_common(values: Any) -> int:
    counts: dict[int, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return max(counts, key=lambda v: (counts[v], -v)) if counts else 1


def _int(value: Any, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{where} must be a whole number >= {low}, not {value!r}")
    return value


def _table(data: Mapping[str, Any], key: str, source: str) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise ValueError(f"{source}: missing table [{key}]")
    return value


def _parse_column(text: Any, where: str) -> Counts:
    if not isinstance(text, str):
        raise ValueError(f'{where} must be a string of icon letters and counts like "B1 C2", not {text!r}')
    counts = dict.fromkeys(ICONS, 0)
    for item in text.split():
        match = _COLUMN_ITEM.fullmatch(item)
        if match is None:
            raise ValueError(f"{where}: {item!r} is not an icon letter (B, C, P, H, T) followed by a count")
        icon = LETTERS[match.group(1)]
        if counts[icon]:
            raise ValueError(f"{where}: the letter {match.group(1)} appears twice")
        counts[icon] = _int(int(match.group(2)), f"{where}: the count of {icon}", 1)
    return tuple(counts[icon] for icon in ICONS)


def parse_card_set(data: Mapping[str, Any], source: str = "card set") -> CardSet:
    """A validated card set from the data-file layout; ValueError naming the file and entry otherwise."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{source}: a card set is a table, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise ValueError(f"{source}: format must be {FORMAT}, not {data.get('format')!r}")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise ValueError(f"{source}: name must be a string")
    deck = _table(data, "deck", source)
    default_copies = _int(deck.get("copies", 1), f"{source}: deck.copies", 1)
    raw_in_use = deck.get("in_use")
    if not isinstance(raw_in_use, Mapping):
        raise ValueError(f"{source}: deck.in_use must be a table like {{ 1 = 18, 2 = 18, 3 = 27, 4 = 36 }}")
    in_use: dict[int, int] = {}
    for key, value in raw_in_use.items():
        if str(key) not in {str(n) for n in PLAYER_COUNTS}:
            raise ValueError(f"{source}: deck.in_use has a key {key!r}; player counts are 1, 2, 3 and 4")
        in_use[int(key)] = _int(value, f"{source}: deck.in_use.{key}", 1)
    missing = [n for n in PLAYER_COUNTS if n not in in_use]
    if missing:
        raise ValueError(f"{source}: deck.in_use lacks player count(s) {', '.join(map(str, missing))}")
    in_use = {n: in_use[n] for n in PLAYER_COUNTS}

    raw_tokens = _table(data, "tokens", source)
    tokens: dict[str, int] = {}
    for kind in raw_tokens:
        if kind not in TOKEN_KINDS:
            raise ValueError(f"{source}: tokens.{kind} is not a token kind ({', '.join(TOKEN_KINDS)})")
    for kind in TOKEN_KINDS:
        tokens[kind] = _int(raw_tokens.get(kind, 0), f"{source}: tokens.{kind}")

    ids: set[str] = set()

    def check_id(value: Any, where: str) -> str:
        if not isinstance(value, str) or _ID.fullmatch(value) is None:
            raise ValueError(f"{where}: id must be letters, digits, '-', '_' or '.', not {value!r}")
        if value.lower() in ids:
            raise ValueError(f"{where}: the id {value} is used twice (ids are compared without case)")
        ids.add(value.lower())
        return value

    raw_valley = data.get("valley")
    if not isinstance(raw_valley, list) or not raw_valley:
        raise ValueError(f"{source}: no [[valley]] cards")
    valley: dict[str, ValleyCard] = {}
    copies: dict[str, int] = {}
    for index, entry in enumerate(raw_valley):
        where = f"{source}: valley[{index}]"
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where} must be a table")
        card_id = check_id(entry.get("id"), where)
        where = f"{where} ({card_id})"
        heights = entry.get("heights")
        if not isinstance(heights, list) or len(heights) < 2:
            raise ValueError(f"{where}: heights must list the land line's height at every dotted line")
        heights_t = tuple(_int(h, f"{where}: heights[{i}]") for i, h in enumerate(heights))
        columns = entry.get("columns")
        if not isinstance(columns, list) or len(columns) != len(heights) - 1:
            raise ValueError(
                f"{where}: columns must give one icon string per column, {len(heights) - 1} for {len(heights)} heights"
            )
        parsed = tuple(_parse_column(c, f"{where}: columns[{i}]") for i, c in enumerate(columns))
        valley[card_id] = ValleyCard(card_id, heights_t, parsed)
        copies[card_id] = _int(entry.get("copies", default_copies), f"{where}: copies", 1)
    total = sum(copies.values())
    for players, count in in_use.items():
        if count > total:
            raise ValueError(f"{source}: deck.in_use.{players} is {count}, the deck has only {total} cards")

    raw_contracts = data.get("contract")
    if not isinstance(raw_contracts, list) or not raw_contracts:
        raise ValueError(f"{source}: no [[contract]] cards")
    contracts: dict[str, Contract] = {}
    for index, entry in enumerate(raw_contracts):
        where = f"{source}: contract[{index}]"
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where} must be a table")
        contract_id = check_id(entry.get("id"), where)
        where = f"{where} ({contract_id})"
        points = entry.get("points")
        if points not in CONTRACT_VALUES or isinstance(points, bool):
            raise ValueError(f"{where}: points must be 1, 2 or 3, not {points!r}")
        tasks = entry.get("tasks")
        if not isinstance(tasks, Mapping) or not tasks:
            raise ValueError(f"{where}: tasks must be a table like {{ bird = 6, cow = 2 }}")
        for icon in tasks:
            if icon not in ICONS:
                raise ValueError(f"{where}: task {icon!r} is not an icon ({', '.join(ICONS)})")
        if len(tasks) != points + 1:
            # Rule text: contracts worth 1, 2 or 3 points have 2, 3 or 4 tasks.
            raise ValueError(f"{where}: a contract worth {points} has {points + 1} tasks, not {len(tasks)}")
        contracts[contract_id] = Contract(
            contract_id, points, tuple((icon, _int(n, f"{where}: tasks.{icon}")) for icon, n in tasks.items())
        )
    return CardSet(name, valley, contracts, copies, in_use, tokens)


def load_card_set(path: str | Path | None = None) -> CardSet:
    """The card set in the TOML file at `path`, or the built-in one for None."""
    if path is None:
        return _builtin()
    file = Path(path).expanduser()
    raw = read_bounded(file, "the Zillertal card file")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"{file}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{file}: not valid TOML: {error}") from None
    return parse_card_set(data, str(file))


@cache
def _builtin() -> CardSet:
    text = resources.files("controller.games").joinpath("data/zillertal.toml").read_text(encoding="utf-8")
    return parse_card_set(tomllib.loads(text), "zillertal.toml (built in)")


def builtin_card_set() -> CardSet:
    return _builtin()
