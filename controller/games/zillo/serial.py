"""Zillo states as JSON: the full saved state (exact round trip, random state included), the public
part every player may see, and the checks that turn a damaged saved game into a clear error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games import jsonutil
from controller.games.base import Cell, Game
from controller.games.cards import Card
from controller.games.rng import SeededRandom
from controller.games.zillo.deck import CARD_INDEX, CARDS
from controller.games.zillo.layout import AREA, PARTS, Layout, Placement
from controller.games.zillo.model import (
    CATCHERS_PER_PLAYER,
    FORMAT_VERSION,
    HANDS_MODES,
    PHASES,
    PHYSICAL,
    TOP,
    Catch,
    Played,
    Position,
    Stack,
    check_bool,
    check_choice,
    check_max_turns,
)


def public_json(t: Position, game: str) -> dict[str, Any]:
    """Everything about a state that every player may see."""
    return {
        **jsonutil.header(game, FORMAT_VERSION),
        "players": t.players,
        "hands_mode": t.hands_mode,
        "match": t.match,
        "max_turns": t.max_turns,
        "layout": [
            {"part": part, "corner": AREA.format_cell(p.corner), "rotation": p.rotation}
            for part, p in zip(PARTS, t.layout.placements, strict=True)
        ],
        "catchers": [
            {"cell": AREA.format_cell(cell), "player": s.player, "count": s.count}
            for cell, s in sorted(t.catchers.items())
        ],
        "zillo": AREA.format_cell(t.zillo),
        "hand_sizes": list(t.hand_sizes),
        "pile_count": t.pile_count,
        "phase": t.phase,
        "current_player": t.current,
        "start_player": t.start_player,
        "turn": t.turn,
        "ply": t.ply,
        "game_number": t.game_number,
        "scores": list(t.scores),
        "caught": None if t.caught is None else {"player": t.caught.player, "points": t.caught.points},
        "winner": t.winner,
    }


def table_to_json(t: Position, game: str) -> dict[str, Any]:
    data = public_json(t, game)
    data.update(
        random=t.rng.to_json(),
        hands=None if t.hands is None else [list(hand) for hand in t.hands],
        pile=None if t.pile is None else list(t.pile),
        played=[{"player": e.player, "card": e.card, "shown": e.shown} for e in t.played],
    )
    return data


def table_from_json(data: Mapping[str, Any], game: Game) -> Position:
    data = jsonutil.check_header(data, game.name, FORMAT_VERSION)
    players = jsonutil.field(data, "players", int)
    game.check_players(players)

    def seat(value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
            raise ValueError(f"{where} must be a seat 0..{players - 1}, not {value!r}")
        return value

    hands_mode = check_choice("hands_mode", jsonutil.field(data, "hands_mode", str), HANDS_MODES)
    match = check_bool("match", jsonutil.field(data, "match", bool))
    max_turns = check_max_turns(jsonutil.field(data, "max_turns", (int, type(None))))
    layout = _layout(jsonutil.field(data, "layout", list))
    fields = layout.fields()

    catchers: dict[Cell, Stack] = {}
    per_player = [0] * players
    for index, entry in enumerate(jsonutil.field(data, "catchers", list)):
        where = f"catchers[{index}]"
        entry = _object(entry, where)
        try:
            cell = _cell(jsonutil.field(entry, "cell", str))
            owner = seat(jsonutil.field(entry, "player", int), "player")
            count = jsonutil.field(entry, "count", int)
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        if cell not in fields:
            raise ValueError(f"{where}: {AREA.format_cell(cell)} is not on a board part")
        if cell in catchers:
            raise ValueError(f"{where}: two stacks on {AREA.format_cell(cell)}")
        if not 1 <= count <= CATCHERS_PER_PLAYER:
            raise ValueError(f"{where}: a stack holds 1 to 3 Catchers, not {count}")
        catchers[cell] = Stack(owner, count)
        per_player[owner] += count
    for owner, count in enumerate(per_player):
        if count != CATCHERS_PER_PLAYER:
            raise ValueError(f"catchers: seat {owner} has {count} Catchers on the board, not 3")

    zillo = _cell(jsonutil.field(data, "zillo", str), "zillo")
    if zillo not in fields:
        raise ValueError(f"zillo: {AREA.format_cell(zillo)} is not on a board part")

    hand_sizes = [seat_count for seat_count in jsonutil.field(data, "hand_sizes", list)]
    if len(hand_sizes) != players or not all(_natural(n) for n in hand_sizes):
        raise ValueError(f"hand_sizes must be {players} whole numbers >= 0, got {hand_sizes!r}")
    pile_count = jsonutil.field(data, "pile_count", int)
    if pile_count < 0:
        raise ValueError(f"pile_count must not be negative, got {pile_count}")
    played = []
    for index, entry in enumerate(jsonutil.field(data, "played", list)):
        where = f"played[{index}]"
        entry = _object(entry, where)
        try:
            played.append(
                Played(
                    seat(jsonutil.field(entry, "player", int), "player"),
                    _card(jsonutil.field(entry, "card", str)),
                    jsonutil.field(entry, "shown", bool),
                )
            )
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
    raw_hands: list[Any] | None = jsonutil.field(data, "hands", (list, type(None)))
    raw_pile: list[Any] | None = jsonutil.field(data, "pile", (list, type(None)))
    if hands_mode == PHYSICAL:
        if raw_hands is not None or raw_pile is not None:
            raise ValueError("in physical mode the hands and the pile are unknown, so both must be null")
        hands, pile = None, None
        known = [e.card for e in played]
    else:
        if raw_hands is None or raw_pile is None:
            raise ValueError("a dealt game saves the hands and the pile; got null")
        if len(raw_hands) != players or not all(isinstance(h, list) for h in raw_hands):
            raise ValueError(f"hands must be {players} lists of cards")
        hands = tuple(tuple(_card(c) for c in hand) for hand in raw_hands)
        pile = tuple(_card(c) for c in raw_pile)
        if [len(h) for h in hands] != hand_sizes:
            raise ValueError(f"hand_sizes {hand_sizes} do not match the hands")
        if len(pile) != pile_count:
            raise ValueError(f"pile_count {pile_count} does not match the pile of {len(pile)} cards")
        known = [c for hand in hands for c in hand] + list(pile) + [e.card for e in played]
    if len(set(e.card for e in played)) != len(played):
        raise ValueError("played: a card appears twice since the last shuffle")
    total = sum(hand_sizes) + pile_count + len(played)
    if total != len(CARDS) or (hands_mode != PHYSICAL and sorted(known) != sorted(CARDS)):
        raise ValueError("the hands, the pile and the played cards must hold each of the 24 cards once")

    phase = check_choice("phase", jsonutil.field(data, "phase", str), PHASES)
    if phase == TOP and any(hand_sizes):
        raise ValueError("top-card play begins only when every hand is empty")
    scores = jsonutil.field(data, "scores", list)
    if len(scores) != players or not all(_natural(n) for n in scores):
        raise ValueError(f"scores must be {players} whole numbers >= 0, got {scores!r}")
    raw_caught: dict[str, Any] | None = jsonutil.field(data, "caught", (dict, type(None)))
    caught = None
    if raw_caught is not None:
        points = jsonutil.field(raw_caught, "points", int)
        if not 1 <= points <= CATCHERS_PER_PLAYER:
            raise ValueError(f"caught: a catch scores 1 to 3 points, not {points}")
        caught = Catch(seat(jsonutil.field(raw_caught, "player", int), "caught.player"), points)
    elif zillo in catchers:
        raise ValueError("the Zillo shares its field with Catchers although nobody caught it")
    winner: int | None = jsonutil.field(data, "winner", (int, type(None)))
    if winner is not None:
        seat(winner, "winner")
        if caught is None or caught.player != winner:
            raise ValueError("winner must be the player who made the last catch")
    current = seat(jsonutil.field(data, "current_player", int), "current_player")
    if caught is None:
        # Play goes on: the player on turn must have a card to play.
        if phase == TOP and pile_count == 0:
            raise ValueError("top-card play needs a pile: pile_count is 0")
        if phase != TOP and hand_sizes[current] == 0:
            raise ValueError(f"seat {current} is on turn in hand play but holds no card")
    return Position(
        players=players,
        hands_mode=hands_mode,
        match=match,
        max_turns=max_turns,
        layout=layout,
        catchers=catchers,
        zillo=zillo,
        hands=hands,
        hand_sizes=tuple(hand_sizes),
        pile=pile,
        pile_count=pile_count,
        played=tuple(played),
        phase=phase,
        current=current,
        start_player=seat(jsonutil.field(data, "start_player", int), "start_player"),
        turn=_nonnegative(data, "turn"),
        ply=_nonnegative(data, "ply"),
        game_number=_nonnegative(data, "game_number"),
        scores=tuple(scores),
        caught=caught,
        winner=winner,
        rng=SeededRandom.from_json(jsonutil.field(data, "random", dict)),
    )


def _layout(entries: list[Any]) -> Layout:
    if len(entries) != len(PARTS):
        raise ValueError(f"layout must list the 4 board parts, got {len(entries)}")
    placements = []
    for part, entry in zip(PARTS, entries, strict=True):
        where = f"layout[{part - 1}]"
        entry = _object(entry, where)
        try:
            if jsonutil.field(entry, "part", int) != part:
                raise ValueError(f"parts must be listed in order 1..4; expected part {part}")
            corner = _cell(jsonutil.field(entry, "corner", str))
            placements.append(Placement(corner, jsonutil.field(entry, "rotation", int)))
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
    layout = Layout(tuple(placements))
    problem = layout.problem()
    if problem is not None:
        raise ValueError(f"layout: {problem}")
    return layout


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be an object")
    return value


def _cell(text: str, where: str = "cell") -> Cell:
    try:
        return AREA.parse_cell(text)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def _card(value: Any) -> Card:
    if not isinstance(value, str) or value not in CARD_INDEX:
        raise ValueError(f"{value!r} is not a Zillo card")
    return value


def _natural(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _nonnegative(data: Mapping[str, Any], name: str) -> int:
    value = jsonutil.field(data, name, int)
    if value < 0:
        raise ValueError(f"{name} must not be negative, got {value}")
    return value
