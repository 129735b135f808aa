"""Views of a Zodiac position: its saved form, one seat's observation and the board's marks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.games import cards, jsonutil
from controller.games.base import (
    Cell,
    Mark,
    Occupancy,
)
from controller.games.zodiac.cards import FORMAT_VERSION
from controller.games.zodiac.model import DRAWN, OVER, PENALTY, TURN, hand_shown_to

if TYPE_CHECKING:
    from controller.games.zodiac.state import ZodiacState


def to_json(state: ZodiacState) -> dict[str, Any]:
    t = state._position
    return {
        **jsonutil.header(state._game.name, FORMAT_VERSION),
        "players": t.players,
        "mode": t.mode,
        "rearrange_before_draw": t.rearrange_before_draw,
        "max_turns": t.max_turns,
        "rng": t.rng.to_json(),
        "deck": list(t.deck),
        "discard": list(t.discard),
        "hands": [list(h) for h in t.hands],
        "up": [list(u) for u in t.up],
        "current_player": t.current,
        "phase": t.phase,
        "dealer": t.dealer,
        "dealer_draws": [[s, c] for s, c in t.dealer_draws],
        "fresh": t.fresh,
        "moved_up": list(t.moved_up),
        "moved_down": list(t.moved_down),
        "skips": list(t.skips),
        "locked": t.locked,
        "penalty": None
        if t.penalty is None
        else {"offender": t.penalty.offender, "owed": t.penalty.owed, "lost": t.penalty.lost},
        "turns": t.turns,
        "winner": t.winner,
        "events": list(t.events),
        "hands_mode": t.hands_mode,
        "revealed": t.revealed,
    }


def observation(state: ZodiacState, player: int) -> dict[str, Any]:
    """Own hand only; other hands and the deck as counts; an offender's hand only to its chooser.

    With physical hands the controller's hands hold unseen cards ('?') and what was shown of them."""
    t = state._position
    data: dict[str, Any] = {
        "game": state._game.name,
        "player": player,
        "players": t.players,
        "mode": t.mode,
        "hands_mode": t.hands_mode,
        "rearrange_before_draw": t.rearrange_before_draw,
        "max_turns": t.max_turns,
        "current_player": t.current,
        "phase": t.phase,
        "dealer": t.dealer,
        "dealer_draws": [[s, c] for s, c in t.dealer_draws],
        "hand": list(t.hands[player]),
        "hands": cards.seat_views(t.hands, player),
        "up": [list(u) for u in t.up],
        "deck": cards.hidden(t.deck),
        "discard": list(t.discard),  # every card on it was seen face up
        "locked": t.locked,
        "moved_up": list(t.moved_up),
        "moved_down": list(t.moved_down),
        "skips": list(t.skips),
        "turns": t.turns,
        "winner": t.winner,
        "terminal": state.is_terminal(),
        "returns": list(state.returns()),
        "events": list(t.events),
        # What was drawn is seen only by the player who drew it.
        "fresh": t.fresh if player == t.current else None,
        "penalty": None,
    }
    if t.penalty is not None:
        penalty: dict[str, Any] = {"offender": t.penalty.offender, "owed": t.penalty.owed}
        shown = hand_shown_to(t, player)
        if shown is not None:
            penalty["shown"] = list(t.hands[shown])
        data["penalty"] = penalty
    return data


def occupancy(state: ZodiacState) -> Occupancy:
    return {}  # no pieces: the cards are not seen by the piece sensors


def marks(state: ZodiacState) -> dict[Cell, Mark]:
    """Seat zones: whose turn (green), who chooses a penalty (amber), pending skips (red), the winner;
    with physical hands a player on turn who may call ZODIAC (white, ZO-E15)."""
    t = state._position
    marks: dict[Cell, Mark] = {}
    for seat in range(t.players):
        if t.skips[seat]:
            marks[(seat, 0)] = Mark("skip", "red", seat)
    if t.phase == OVER:
        if t.winner is not None:
            marks[(t.winner, 0)] = Mark("winner", "green", t.winner)
    elif t.phase == PENALTY:
        marks[(t.current, 0)] = Mark("choose", "amber", t.current)
    elif state.may_call():
        marks[(t.current, 0)] = Mark("call", "white", t.current)  # ZO-E15: shows nothing hidden
    elif t.phase in (TURN, DRAWN):
        marks[(t.current, 0)] = Mark("turn", "green", t.current)
    return marks
