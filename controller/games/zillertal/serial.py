"""Reading a saved Zillertal table back, checking every part against the card set and the Valley."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games import cards, jsonutil
from controller.games.cards import UNSEEN
from controller.games.rng import SeededRandom
from controller.games.zillertal.cards import (
    CONTRACT_VALUES,
    ICONS,
    CardSet,
)
from controller.games.zillertal.model import (
    BONUSES,
    DEAL,
    DEALT,
    DRAW,
    HANDS_MODES,
    PENDING,
    PHYSICAL,
    REDRAW,
    Held,
    Position,
    token_supply,
)
from controller.games.zillertal.valley import Placed, Token


def _table_from_json(data: Mapping[str, Any], players: int, card_set: CardSet) -> Position:
    valley_ids, contract_ids = set(card_set.valley), set(card_set.contracts)

    def seat(value: Any, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
            raise ValueError(f"{what} {value!r} is not a seat of a {players}-player game")
        return value

    def per_seat(name: str) -> list[Any]:
        value = jsonutil.field(data, name, list)
        if len(value) != players:
            raise ValueError(f"field {name!r} needs one entry per seat ({players}), not {len(value)}")
        return value

    def whole(name: str) -> int:
        value = jsonutil.field(data, name, int)
        if value < 0:
            raise ValueError(f"field {name!r} must be >= 0, not {value}")
        return value

    hands_mode = jsonutil.optional(data, "hands_mode", str, DEALT)
    if hands_mode not in HANDS_MODES:
        raise ValueError(f"field 'hands_mode' must be dealt or physical, not {hands_mode!r}")
    physical = hands_mode == PHYSICAL
    hidden_ids = valley_ids | {UNSEEN} if physical else valley_ids
    hands = tuple(cards.pile_from_json(h, f"hands[{i}]", hidden_ids) for i, h in enumerate(per_seat("hands")))
    deck = cards.pile_from_json(jsonutil.field(data, "deck", list), "deck", hidden_ids)
    unused = cards.pile_from_json(jsonutil.field(data, "unused", list), "unused", hidden_ids)
    set_aside = cards.pile_from_json(jsonutil.field(data, "set_aside", list), "set_aside", valley_ids)
    placed = []
    for index, entry in enumerate(jsonutil.field(data, "valley", list)):
        where = f"valley[{index}]"
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where} must be an object")
        card = jsonutil.field(entry, "card", str)
        if card not in valley_ids:
            raise ValueError(f"{where}: unknown Valley card {card!r}")
        placed.append(Placed(card, jsonutil.field(entry, "at", int)))
    check = cards.check_partly_known_counts if physical else cards.check_card_counts
    check(
        {c: card_set.copies[c] for c in card_set.valley},
        (*deck, *unused, *set_aside, *(c for h in hands for c in h), *(p.card for p in placed)),
        "saved Valley cards",
    )
    raw_piles = jsonutil.field(data, "piles", list)
    if len(raw_piles) != len(CONTRACT_VALUES):
        raise ValueError("field 'piles' must hold the three contract piles (values 1, 2, 3)")
    piles = tuple(cards.pile_from_json(p, f"piles[{i}]", contract_ids) for i, p in enumerate(raw_piles))
    for value, pile in zip(CONTRACT_VALUES, piles, strict=True):
        wrong = [c for c in pile if card_set.contracts[c].points != value]
        if wrong:
            raise ValueError(f"piles[{value - 1}] holds contracts not worth {value}: {', '.join(wrong)}")
    contracts = []
    for i, seat_contracts in enumerate(per_seat("contracts")):
        held = []
        if not isinstance(seat_contracts, list):
            raise ValueError(f"contracts[{i}] must be a list")
        for j, entry in enumerate(seat_contracts):
            where = f"contracts[{i}][{j}]"
            if not isinstance(entry, Mapping):
                raise ValueError(f"{where} must be an object")
            cid = jsonutil.field(entry, "id", str)
            if cid not in contract_ids:
                raise ValueError(f"{where}: unknown contract {cid!r}")
            claimed = cards.pile_from_json(jsonutil.field(entry, "claimed", list), f"{where}.claimed")
            contract = card_set.contracts[cid]
            if any(contract.target(icon) is None for icon in claimed) or len(set(claimed)) != len(claimed):
                raise ValueError(f"{where}: claimed {list(claimed)} are not distinct tasks of {cid}")
            held.append(Held(cid, claimed))
        contracts.append(tuple(held))
    completed = tuple(
        cards.pile_from_json(c, f"completed[{i}]", contract_ids) for i, c in enumerate(per_seat("completed"))
    )
    every = [
        *(c for p in piles for c in p),
        *(h.id for hs in contracts for h in hs),
        *(c for cs in completed for c in cs),
    ]
    cards.check_card_counts(dict.fromkeys(card_set.contracts, 1), every, "saved contracts")
    tokens = []
    for index, entry in enumerate(jsonutil.field(data, "tokens", list)):
        where = f"tokens[{index}]"
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where} must be an object")
        icon = jsonutil.field(entry, "icon", str)
        if icon not in ICONS:
            raise ValueError(f"{where}: {icon!r} is not an icon")
        tokens.append(
            Token(
                icon,
                jsonutil.field(entry, "column", int),
                jsonutil.field(entry, "time", int),
                jsonutil.field(entry, "blank", bool),
            )
        )
    gorge: int | None = jsonutil.field(data, "gorge", (int, type(None)))
    crosses = tuple(jsonutil.field(data, "crosses", list))
    if len(crosses) > 2 or not all(isinstance(c, int) and not isinstance(c, bool) for c in crosses):
        raise ValueError(f"field 'crosses' must list at most two dotted lines, not {list(crosses)!r}")
    used = tuple(jsonutil.field(data, "used", list))
    if not all(u in BONUSES for u in used):
        raise ValueError(f"field 'used' must list bonuses ({', '.join(BONUSES)}), not {list(used)!r}")
    taken = tuple(per_seat("taken"))
    if not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in taken):
        raise ValueError(f"field 'taken' must be whole numbers >= 0, not {list(taken)!r}")
    pending: str | None = jsonutil.field(data, "pending", (str, type(None)))
    if pending not in (None, *PENDING):
        raise ValueError(f"field 'pending' must be one of {', '.join(PENDING)} or null, not {pending!r}")
    to_draw = tuple(jsonutil.optional(data, "to_draw", list, []))
    if not all(v in CONTRACT_VALUES and not isinstance(v, bool) for v in to_draw):
        raise ValueError(f"field 'to_draw' must list pile values 1, 2, 3, not {list(to_draw)!r}")
    if bool(to_draw) != (pending in (DEAL, DRAW, REDRAW)):
        raise ValueError("contracts are owed ('to_draw') exactly while one is being entered (deal, draw, redraw)")
    events = jsonutil.field(data, "events", list)
    if not all(isinstance(e, str) for e in events):
        raise ValueError("field 'events' must be a list of strings")
    table = Position(
        players=players,
        bonuses=jsonutil.field(data, "bonuses", bool),
        rng=SeededRandom.from_json(jsonutil.field(data, "rng", dict)),
        deck=deck,
        unused=unused,
        piles=piles,
        hands=hands,
        contracts=tuple(contracts),
        completed=completed,
        current=seat(jsonutil.field(data, "current_player", int), "current_player"),
        placed=tuple(placed),
        gorge=gorge,
        gorges_used=whole("gorges_used"),
        crosses=crosses,
        tokens=tuple(tokens),
        used=used,
        taken=taken,
        set_aside=set_aside,
        played=jsonutil.field(data, "played", bool),
        claim_on=jsonutil.field(data, "claim_on", (str, type(None))),
        pending=pending,
        tokens_left=whole("tokens_left"),
        received=cards.pile_from_json(jsonutil.field(data, "received", list), "received"),
        start_completed=whole("start_completed"),
        replacements=whole("replacements"),
        turns=whole("turns"),
        over=jsonutil.field(data, "over", bool),
        events=tuple(events),
        hands_mode=hands_mode,
        to_draw=to_draw,
        revealed=whole("revealed") if "revealed" in data else 0,
    )
    supply = token_supply(card_set, table.tokens)
    if any(n < 0 for n in supply.values()):
        raise ValueError("more tokens lie in the Valley than the card set has")
    _check_in_valley(table, card_set)
    return table


def _check_in_valley(table: Position, card_set: CardSet) -> None:
    """The Gorge, the Crosses and every token lie in the Valley (ZT-3, ZT-4): on one of its columns,
    or for a Cross on one of its dotted lines, and a token no later than the cards it lies on."""
    placed = table.placed
    if placed:
        first = min(p.at for p in placed)
        last = max(p.at + card_set.valley[p.card].width for p in placed)
        columns = f"columns {first} to {last - 1}"
    else:
        first = last = 0
        columns = "no columns yet (no card has been laid)"
    if table.gorge is not None and not first <= table.gorge < last:
        raise ValueError(f"field 'gorge': column {table.gorge} is outside the Valley, which has {columns}")
    for cross in table.crosses:
        if not placed or not first <= cross <= last:
            lines = f"dotted lines {first} to {last}" if placed else "no dotted lines yet"
            raise ValueError(f"field 'crosses': dotted line {cross} is outside the Valley, which has {lines}")
    if len(set(table.crosses)) != len(table.crosses):
        raise ValueError(f"field 'crosses': both Crosses stand on dotted line {table.crosses[0]}")
    for index, token in enumerate(table.tokens):
        if not first <= token.column < last:
            raise ValueError(f"tokens[{index}]: column {token.column} is outside the Valley, which has {columns}")
        if not 0 < token.time <= len(placed):
            raise ValueError(
                f"tokens[{index}]: 'time' {token.time} must count the cards laid before the token (1 to {len(placed)})"
            )
