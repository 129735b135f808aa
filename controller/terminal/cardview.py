"""Text views of the card games for one player: built from `state.observation(player)` only (plus the
public card data), so a view can never show a hand or a deck order that player may not see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.games import State
from controller.games.cards import UNSEEN
from controller.games.zillertal import ZillertalState
from controller.games.zillertal.cards import ICONS, CardSet, column_text
from controller.games.zodiac import CARD_NAMES, SIGNS

CELL = 3  # characters per Valley column in the drawing


def render_view(state: State, player: int) -> str:
    """What `player` may see of the position, as text."""
    obs = state.observation(player)
    if state.game.name == "zodiac":
        return render_zodiac(obs)
    if isinstance(state, ZillertalState):
        return render_zillertal(obs, state.card_set)
    raise ValueError(f"no card view for {state.game.title}")


# --- Zodiac -------------------------------------------------------------------------------------
def _cards_text(cards: Sequence[str]) -> str:
    order = {card: i for i, card in enumerate((*SIGNS, "sun", "moon"))}
    return " ".join(sorted(cards, key=lambda c: order.get(c, 99))) or "-"


def render_zodiac(obs: Mapping[str, Any]) -> str:
    me = obs["player"]
    lines = [
        f"Zodiac ({obs['mode']} mode) - turn {obs['turns'] + 1}, dealer player {obs['dealer']}",
        f"Deck: {obs['deck']['count']} cards.  Discard pile: {len(obs['discard'])} cards, top: "
        + (obs["discard"][-1] if obs["discard"] else "-")
        + (" (lost to a penalty: may not be taken)" if obs["locked"] else ""),
    ]
    for seat in range(obs["players"]):
        hand = obs["hands"][seat]
        size = len(hand) if isinstance(hand, list) else hand["count"]
        tags = []
        if seat == me:
            tags.append("you")
        if seat == obs["current_player"] and not obs["terminal"]:
            tags.append("to play" if obs["phase"] != "penalty" else "chooses a penalty")
        if obs["skips"][seat]:
            tags.append(f"skips {obs['skips'][seat]}")
        label = f"player {seat}" + (f" ({', '.join(tags)})" if tags else "")
        lines.append(f"  {label}: {size} in hand; face up: {_cards_text(obs['up'][seat])}")
    hand = obs["hand"]
    if UNSEEN in hand:  # physical hands: the controller knows only the cards shown
        known = [card for card in hand if card != UNSEEN]
        lines.append(f"Hand of player {me}: {len(hand)} cards; shown to the table: {_cards_text(known)}")
    else:
        held = set(hand) | set(obs["up"][me])
        missing = [sign for sign in SIGNS if sign not in held]
        lines.append(f"Your hand: {_cards_text(hand)}")
        lines.append(f"Missing signs: {' '.join(missing) or 'none'}")
    if obs["fresh"] in CARD_NAMES:
        lines.append(f"You drew a {CARD_NAMES[obs['fresh']]}: you may play it now, or keep it.")
    elif obs["fresh"]:
        lines.append("If the card you drew is a Sun or a Black Moon, you may play it now.")
    if obs["moved_up"] or obs["moved_down"]:
        lines.append(f"Moved this turn: up {_cards_text(obs['moved_up'])}; down {_cards_text(obs['moved_down'])}")
    penalty = obs.get("penalty")
    if penalty:
        lines.append(f"Penalty: player {penalty['offender']} loses {penalty['owed']} sign(s).")
        if "shown" in penalty:
            lines.append(f"  Their hand, shown to you: {_cards_text(penalty['shown'])}")
    return "\n".join(lines)


# --- Zillertal ----------------------------------------------------------------------------------
def render_valley(obs: Mapping[str, Any]) -> str:
    """The Valley: the land line, the visible icons per column, the Gorge and Crosses, zone counts."""
    if obs["lines"] is None:
        return "The Valley is empty: the first card starts it at line 0."
    first, last = obs["lines"]
    heights = {int(k): v for k, v in obs["heights"].items()}
    columns = {int(k): v for k, v in obs["columns"].items()}
    width = (last - first) * CELL + 1
    rows = [f"{level:>7} " + "".join(row).rstrip() for level, row in _land_rows(first, last, heights)]
    marks = [" "] * width
    for line in obs["crosses"]:
        marks[(line - first) * CELL] = "X"
    label = 8
    out = [f"Valley: dotted lines {first} to {last}" + _valley_notes(obs)]
    out.append(" land   " + "".join(f"{line:<{CELL}}" for line in range(first, last + 1)).rstrip())
    out.extend(rows)
    if obs["crosses"]:
        out.append(" crosses" + "".join(marks).rstrip())
    out.append(" column " + "".join(f"{c:>{CELL}}" for c in range(first, last)))
    for index, icon in enumerate(ICONS):
        cells = []
        for c in range(first, last):
            if c == obs["gorge"]:
                cells.append(f"{'##':>{CELL}}")
            else:
                n = columns[c][index]
                cells.append(f"{n if n else '.':>{CELL}}")
        out.append(f"{icon:<{label}}" + "".join(cells))
    out.append("Visible icons per zone:")
    out.append(f"  {'zone':<8}" + "".join(f"{icon:>8}" for icon in ICONS))
    for zone, totals in obs["zones"].items():
        out.append(f"  {zone:<8}" + "".join(f"{n:>8}" for n in totals))
    return "\n".join(out)


def _land_rows(first: int, last: int, heights: Mapping[int, int]) -> list[tuple[int, list[str]]]:
    """The land line as rows of characters, highest level first: `o` at each dotted line's height,
    `--` for a flat column, `/` and `\\` for slopes (`|` for steep ones)."""
    top = max(heights.values())
    grid = {level: [" "] * ((last - first) * CELL + 1) for level in range(top + 1)}
    for c in range(first, last):
        a, b = heights[c], heights[c + 1]
        x = (c - first) * CELL
        grid[a][x] = "o"
        grid[b][x + CELL] = "o"
        if a == b:
            grid[a][x + 1 : x + CELL] = ["-"] * (CELL - 1)
        elif b > a:
            if b - a == 1:
                grid[a][x + 2] = "/"
            else:
                grid[a][x + 1] = "/"
                grid[a + 1][x + 2] = "/"
                for level in range(a + 2, b):
                    grid[level][x + 2] = "|"
        elif a - b == 1:
            grid[b][x + 1] = "\\"
        else:
            grid[a - 1][x + 1] = "\\"
            grid[a - 2][x + 2] = "\\"
            for level in range(b, a - 2):
                grid[level][x + 2] = "|"
    bottom = min(heights.values())
    return [(level, grid[level]) for level in range(top, bottom - 1, -1)]


def _valley_notes(obs: Mapping[str, Any]) -> str:
    notes = []
    if obs["gorge"] is not None:
        notes.append(f"Gorge over column {obs['gorge']}")
    if len(obs["crosses"]) == 2:
        notes.append(f"Crosses on lines {obs['crosses'][0]} and {obs['crosses'][1]}")
    elif obs["crosses"]:
        notes.append(f"first Cross on line {obs['crosses'][0]}")
    return f" ({'; '.join(notes)})" if notes else ""


def _contract_text(card_set: CardSet, held: Mapping[str, Any]) -> str:
    contract = card_set.contracts[held["id"]]
    tasks = ", ".join(f"{icon} {n}" + (" [Z]" if icon in held["claimed"] else "") for icon, n in contract.tasks)
    return f"{contract.id} ({contract.points} pt): {tasks}"


def render_zillertal(obs: Mapping[str, Any], card_set: CardSet) -> str:
    me = obs["player"]
    out = [f"Zillertal - turn {obs['turns'] + 1}, player {obs['current_player']} to play"]
    out.append(render_valley(obs))
    piles = ", ".join(f"{v}: {n}" for v, n in obs["piles"].items())
    out.append(f"Deck: {obs['deck']['count']} Valley cards.  Contract piles (by value): {piles}")
    for seat in range(obs["players"]):
        hand = obs["hands"][seat]
        size = len(hand) if isinstance(hand, list) else hand["count"]
        who = f"player {seat}" + (" (you)" if seat == me else "")
        out.append(
            f"  {who}: {obs['points'][seat]} points, {obs['open_tasks'][seat]} open task(s), {size} in hand, "
            f"completed: {' '.join(obs['completed'][seat]) or '-'}"
        )
        for held in obs["contracts"][seat]:
            out.append(f"      {_contract_text(card_set, held)}")
    used = [b for b in obs["used"]] + (["gorge x" + str(obs["gorges_used"])] if obs["gorges_used"] else [])
    supply = ", ".join(f"{k} {n}" for k, n in obs["token_supply"].items())
    out.append(f"Bonuses used: {', '.join(used) or 'none'}.  Tokens left: {supply}")
    if obs["bonus_entitled"]:
        out.append("You have earned a bonus you may use this turn.")
    if obs["pending"] == "tokens":
        out.append(f"Place {obs['tokens_left']} more token(s).")
    elif obs["pending"] == "exchange":
        out.append("Exchange: swap cards or contracts, then 'done'.")
    elif obs["pending"] == "cross":
        out.append("Lay the second Cross (cross@LINE).")
    if obs["claim_on"]:
        out.append(f"This turn you claim on {obs['claim_on']}.")
    out.append("Your hand:")
    unseen = obs["hand"].count(UNSEEN)
    if unseen:
        out.append(f"  {unseen} card(s) in your hand, not shown to the controller")
    for card_id in obs["hand"]:
        if card_id == UNSEEN:
            continue
        card = card_set.valley[card_id]
        cols = " | ".join(column_text(column) or "-" for column in card.columns)
        out.append(f"  {card_id}: land {'-'.join(map(str, card.heights))}; icons {cols}")
    return "\n".join(out)
