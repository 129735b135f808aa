"""Seat colours and seat names: colours are assigned clockwise from the north-west seat (Red, Blue,
Yellow, Green); games pick subsets. Games with more than four seats (Zodiac) name the others by
number, as the command line does."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")


def colour_title(colour: str) -> str:
    return colour.capitalize()


def seat_colours(state: Any) -> tuple[str, ...]:
    """The colour of each seat that has one (`State.seats`: the game's own, else the first four
    seats in the clockwise order); seats beyond four have no colour."""
    return tuple(state.seats)


def seat_name(state: Any, seat: int) -> str:
    """How players call a seat: its colour ("Red") when it has one, else "seat 5"."""
    colours = seat_colours(state)
    return colour_title(colours[seat]) if seat < len(colours) else f"seat {seat}"


def in_words(names: list[str]) -> str:
    """Names as a sentence lists them: "Red", "Red and Blue", "Red, Yellow and Blue" (seats, fields)."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def result_line(state: Any) -> str:
    """The end of a game in words: "Red wins", "Red and Yellow win", "Draw between Red and Blue",
    "Nobody wins" (a lost solo game)."""
    returns = state.returns()
    winners = [seat for seat, value in enumerate(returns) if value == 1.0]
    if winners:
        return f"{in_words([seat_name(state, s) for s in winners])} {'wins' if len(winners) == 1 else 'win'}"
    best = max(returns, default=0.0)
    if best > 0:
        sharing = [seat_name(state, s) for s, value in enumerate(returns) if value == best]
        if len(sharing) == len(returns):
            return "Draw"
        return f"Draw between {in_words(sharing)}"
    return "Nobody wins"


def with_seat(items: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    """`items`, one per seat, with `seat`'s replaced by `value` (a hand, a score)."""
    return (*items[:seat], value, *items[seat + 1 :])
