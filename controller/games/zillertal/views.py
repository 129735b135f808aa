"""Views of a Zillertal position: its saved form, one seat's observation and the board's marks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.games import cards, jsonutil
from controller.games.base import (
    Cell,
    Mark,
    Occupancy,
)
from controller.games.zillertal.cards import (
    CONTRACT_VALUES,
)
from controller.games.zillertal.model import FORMAT_VERSION, token_supply

if TYPE_CHECKING:
    from controller.games.zillertal.state import ZillertalState


def to_json(state: ZillertalState) -> dict[str, Any]:
    t = state._position
    return {
        **jsonutil.header(state._game.name, FORMAT_VERSION),
        "players": t.players,
        "bonuses": t.bonuses,
        "cards": state._set.to_data() if state._custom else None,
        "rng": t.rng.to_json(),
        "deck": list(t.deck),
        "unused": list(t.unused),
        "piles": [list(p) for p in t.piles],
        "hands": [list(h) for h in t.hands],
        "contracts": [[{"id": h.id, "claimed": list(h.claimed)} for h in hs] for hs in t.contracts],
        "completed": [list(c) for c in t.completed],
        "current_player": t.current,
        "valley": [{"card": p.card, "at": p.at} for p in t.placed],
        "gorge": t.gorge,
        "gorges_used": t.gorges_used,
        "crosses": list(t.crosses),
        "tokens": [{"icon": k.icon, "column": k.column, "time": k.time, "blank": k.blank} for k in t.tokens],
        "used": list(t.used),
        "taken": list(t.taken),
        "set_aside": list(t.set_aside),
        "played": t.played,
        "claim_on": t.claim_on,
        "pending": t.pending,
        "tokens_left": t.tokens_left,
        "received": list(t.received),
        "start_completed": t.start_completed,
        "replacements": t.replacements,
        "turns": t.turns,
        "over": t.over,
        "events": list(t.events),
        "hands_mode": t.hands_mode,
        "to_draw": list(t.to_draw),
        "revealed": t.revealed,
    }


def observation(state: ZillertalState, player: int) -> dict[str, Any]:
    """ZT-8: hands are hidden (own hand only); deck and piles as counts; everything else is public."""
    t = state._position
    valley = state.valley
    return {
        **standing(state, player),
        "game": state._game.name,
        "bonuses": t.bonuses,
        "hands_mode": t.hands_mode,
        "to_draw": list(t.to_draw),
        "card_set": state._set.name,
        "hand": list(t.hands[player]),
        "unused": cards.hidden(t.unused),
        "piles": {str(v): len(p) for v, p in zip(CONTRACT_VALUES, t.piles, strict=True)},
        "completed": [list(c) for c in t.completed],
        "valley": [{"card": p.card, "at": p.at} for p in t.placed],
        "lines": [valley.first, valley.last] if not valley.empty else None,
        "heights": {str(line): valley.height(line) for line in valley.lines()},
        "columns": {str(c): list(valley.column_counts(c)) for c in valley.columns()},
        "gorge": t.gorge,
        "gorges_used": t.gorges_used,
        "crosses": list(t.crosses),
        "tokens": [{"icon": k.icon, "column": k.column, "time": k.time, "blank": k.blank} for k in t.tokens],
        "token_supply": token_supply(state._set, t.tokens),
        "used": list(t.used),
        "taken": list(t.taken),
        "set_aside": list(t.set_aside),
        "tokens_left": t.tokens_left,
        "received": list(t.received) if player == t.current else [],
        "returns": list(state.returns()),
        "events": list(t.events),
    }


def standing(state: ZillertalState, player: int) -> dict[str, Any]:
    """The part of `player`'s observation that says how each seat stands: scores, contracts and
    claims, the zones' counts, the turn's progress and the hand sizes. The bots' evaluator reads this
    alone, many times a move, so it is built without the rest."""
    t = state._position
    return {
        "player": player,
        "players": t.players,
        "current_player": t.current,
        "hands": cards.seat_views(t.hands, player),
        "deck": cards.hidden(t.deck),
        "contracts": [[{"id": h.id, "claimed": list(h.claimed)} for h in hs] for hs in t.contracts],
        "points": [state.points(p) for p in range(t.players)],
        "open_tasks": [state.open_tasks(p) for p in range(t.players)],
        "zones": {name: list(totals) for name, totals in state.valley.zone_counts().items()},
        "played": t.played,
        "claim_on": t.claim_on,
        "pending": t.pending,
        "bonus_entitled": state.bonus_entitled() if player == t.current else False,
        "turns": t.turns,
        "terminal": t.over,
    }


def occupancy(state: ZillertalState) -> Occupancy:
    return {}  # cards are not seen by the piece sensors; placements are entered (physical notes)


def marks(state: ZillertalState) -> dict[Cell, Mark]:
    """The Crosses' dotted lines (white) and the Gorge's two lines (blue) on the Valley rail."""
    t = state._position
    marks: dict[Cell, Mark] = {}
    if t.gorge is not None:
        marks[(t.gorge, 0)] = Mark("gorge", "blue")
        marks[(t.gorge + 1, 0)] = Mark("gorge", "blue")
    for line in t.crosses:
        marks[(line, 0)] = Mark("cross", "white")
    return marks
