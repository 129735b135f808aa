"""Seat colours: assigned clockwise from the north-west seat (rules README); games pick subsets."""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")


def colour_title(colour: str) -> str:
    return colour.capitalize()
