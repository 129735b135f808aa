"""The part of a state every seat sees alike, found from the seats' own observations (a value that
differs between seats is somebody's secret and is left out, counts of hidden cards excepted), so no
game needs a second, hand-written list of its secrets. The web app's public view and the boards of a
remote game (docs/remote.md) share it.
"""

from __future__ import annotations

from typing import Any

from controller.games.base import State

HIDDEN = None  # what a secret becomes in the public view


def _agree(values: list[Any]) -> Any:
    """What every seat sees alike of one value; differing parts become HIDDEN (a count of hidden
    cards, `{"count": n}`, is kept: everyone sees how many; a seat's own cards in its place are
    hidden)."""
    first = values[0]
    if all(value == first for value in values[1:]):
        return first
    if all(isinstance(value, dict) for value in values):
        keys = [key for key in first if all(key in value for value in values)]
        return {key: _agree([value[key] for value in values]) for key in keys}
    if (
        all(isinstance(value, list) for value in values)
        and len({len(value) for value in values}) == 1
        and all(isinstance(item, dict | list) for value in values for item in value)
    ):
        # Records (one per seat, one per card played): compared one by one. A differing list of plain
        # values (a hand) is hidden whole: element by element it would leak the cards two hands share.
        return [_agree([value[index] for value in values]) for index in range(len(first))]
    counts = [value for value in values if isinstance(value, dict) and set(value) == {"count"}]
    if counts and all(count == counts[0] for count in counts):
        return counts[0]
    return HIDDEN


def has_hidden_hands(state: State) -> bool:
    """Whether any seat holds cards the others do not see (then each seat gets its own page)."""
    return any(state.observation(seat).get("hand") for seat in range(state.players))


def public_observation(state: State) -> tuple[dict[str, Any], bool]:
    """The part of the state every seat sees alike (see the module docstring), and whether any seat
    holds a hand of its own (then each seat gets its own page)."""
    views = [state.observation(seat) for seat in range(state.players)]
    hidden = any(view.get("hand") for view in views)
    for view in views:
        view.pop("player", None)
    return _agree(views), hidden
