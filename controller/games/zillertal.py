"""Zillertal: lay landscape cards into one shared Valley and photograph exactly the icons your contracts ask.

Rule text: shared/rules/seeds/zillertal.txt; rulings ZT-1 to ZT-8: shared/rules/zillertal.md. Where both
are silent the engine decides; those decisions carry ids ZT-E1 ... and are explained in
docs/games/zillertal.md. Card data comes from a data file (zillertal_cards.py); the Valley's geometry
is zillertal_valley.py.

A turn is several actions by the same player: lay a card (or set one aside when none fits), claim
tasks on one contract, use bonuses at any point, then end the turn choosing the piles that replace
completed contracts.

Option `hands="physical"` referees a table of real cards (ZT-E10 ... ZT-E12): hands, the Valley deck and
the unused cards are `cards.UNSEEN` placeholders the controller only counts; it learns each Valley
card as it is laid, and each contract as it is drawn (contracts are public).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement
from typing import Any

from controller.games import cards, jsonutil
from controller.games.base import (
    Action,
    Cell,
    Game,
    IllegalAction,
    Mark,
    NotationError,
    Occupancy,
    Option,
    State,
)
from controller.games.boards import Rail
from controller.games.cards import UNSEEN, Hand, Pile, take_card
from controller.games.rng import SeededRandom
from controller.games.zillertal_cards import (
    BLANK,
    CONTRACT_VALUES,
    ICONS,
    LETTERS,
    CardSet,
    Contract,
    load_card_set,
    parse_card_set,
)
from controller.games.zillertal_valley import ICON_INDEX, Placed, Token, Valley

FORMAT_VERSION = 1
RAIL = Rail()  # the Valley's dotted lines as cells (line, 0), named L<line>
HAND_SIZE = 2
BONUS_AT = (2, 4)  # rule text: a bonus after the 2nd and after the 4th completed contract
SOLO_BONUS_AT = (3,)  # rule text (solo): a bonus after the 3rd completed contract
SOLO_CONTRACTS = 2  # solo: two contracts from each pile
GORGE_CARDS = 2  # the Gorge is the one bonus used twice
TOKENS_PER_BONUS = 3
BONUSES = ("tokens", "task", "exchange", "gorge", "crosses")

# Pending steps inside a bonus.
TOKENS = "tokens"
EXCHANGE = "exchange"
CROSS = "cross"
# Pending steps with physical hands (ZT-E11): contracts drawn by hand are entered one by one.
DEAL = "deal"  # the starting contracts of each seat, before the first turn
DRAW = "draw"  # the contracts replacing completed ones, at the end of a turn
REDRAW = "redraw"  # the contract received for one exchanged in the exchange bonus
PENDING = (TOKENS, EXCHANGE, CROSS, DEAL, DRAW, REDRAW)
HANDS_MODES = ("dealt", "physical")
DEALT, PHYSICAL = HANDS_MODES


# --- actions ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Place:
    """Lay hand card `card` into the Valley with its left edge on dotted line `at` (ZT-2)."""

    card: str
    at: int


@dataclass(frozen=True, slots=True)
class SetAside:
    """ZT-E1: no hand card fits anywhere: set one aside, face up, as this turn's card."""

    card: str


@dataclass(frozen=True, slots=True)
class Claim:
    """ZT-7: put a Z token on the task for `icon` of contract `contract`."""

    contract: str
    icon: str


@dataclass(frozen=True, slots=True)
class BonusTokens:
    """Bonus: place three icon tokens (ZT-4), one action each."""


@dataclass(frozen=True, slots=True)
class PlaceToken:
    """ZT-4: an icon token adds one `icon` on `column`; a blank covers one visible `icon` there."""

    icon: str
    column: int
    blank: bool = False


@dataclass(frozen=True, slots=True)
class BonusTask:
    """Bonus: complete one task of any of your contracts, whatever the Valley shows."""

    contract: str
    icon: str


@dataclass(frozen=True, slots=True)
class BonusExchange:
    """Bonus: exchange any of your hand cards and contracts, one `swap` action each, then `done`."""


@dataclass(frozen=True, slots=True)
class Swap:
    """ZT-E4: exchange a hand card or a contract for the top card of its deck or pile."""

    card: str


@dataclass(frozen=True, slots=True)
class Done:
    """End the exchange bonus."""


@dataclass(frozen=True, slots=True)
class BonusGorge:
    """Bonus: lay the Gorge over `column` (ZT-3)."""

    column: int


@dataclass(frozen=True, slots=True)
class BonusCross:
    """Bonus: lay the first Cross on dotted line `line`; the second follows (ZT-3)."""

    line: int


@dataclass(frozen=True, slots=True)
class SecondCross:
    """The second Cross of the Crosses bonus, on dotted line `line`."""

    line: int


@dataclass(frozen=True, slots=True)
class NewContract:
    """ZT-E11: with physical hands, the contract a player drew from a pile (or was dealt)."""

    contract: str


@dataclass(frozen=True, slots=True)
class End:
    """End the turn: draw back to two; `piles` are the values of the piles replacing completed contracts."""

    piles: tuple[int, ...] = ()


BONUS_TOKENS = BonusTokens()
BONUS_EXCHANGE = BonusExchange()
DONE = Done()

_PLACE_TEXT = re.compile(r"([A-Za-z0-9][A-Za-z0-9_.-]*)\s*@\s*(-?[0-9]+)")
_AT_TEXT = re.compile(r"([a-z]+)\s*@\s*(-?[0-9]+)")


@dataclass(frozen=True, slots=True)
class Held:
    """A contract in front of a player and the icons of its tasks already claimed."""

    id: str
    claimed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Table:
    """Everything on the table: the value a ZillertalState wraps."""

    players: int
    bonuses: bool
    rng: SeededRandom
    deck: Pile
    unused: Pile
    piles: tuple[Pile, ...]  # contract piles by value 1, 2, 3
    hands: tuple[Hand, ...]
    contracts: tuple[tuple[Held, ...], ...]
    completed: tuple[tuple[str, ...], ...]
    current: int = 0
    placed: tuple[Placed, ...] = ()
    gorge: int | None = None
    gorges_used: int = 0
    crosses: tuple[int, ...] = ()
    tokens: tuple[Token, ...] = ()
    used: tuple[str, ...] = ()  # bonuses used up (the Gorge counts in gorges_used)
    taken: tuple[int, ...] = ()  # bonuses each player has claimed
    set_aside: Pile = ()
    played: bool = False  # the turn's card has been laid (or set aside)
    claim_on: str | None = None  # ZT-7: the one contract claimed on this turn
    pending: str | None = None
    tokens_left: int = 0
    received: tuple[str, ...] = ()  # cards received by this turn's exchange: not exchanged again
    start_completed: int = 0  # contracts the player had completed when the turn began
    replacements: int = 0  # contracts completed this turn, to replace at its end
    turns: int = 0
    over: bool = False
    events: tuple[str, ...] = ()
    hands_mode: str = DEALT
    to_draw: tuple[int, ...] = ()  # ZT-E11: pile values of contracts drawn but not entered yet
    revealed: int = 0  # hidden cards drawn so far: no take-back across a draw


def _with_seat(items: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return (*items[:seat], value, *items[seat + 1 :])


class Zillertal(Game):
    name = "zillertal"
    title = "Zillertal"
    player_counts = (1, 2, 3, 4)
    options = (
        Option("cards", None, "path of a card-set TOML file (docs/cards-data.md); None uses the built-in set"),
        Option("bonuses", True, "play with the bonuses; false is the rule text's harder solo challenge"),
        Option(
            "hands",
            DEALT,
            "ZT-E10: 'dealt' (the engine shuffles, deals and knows every hand) or 'physical' (real cards: "
            "each Valley card is declared as it is laid, each contract as it is drawn)",
        ),
    )

    @property
    def default_players(self) -> int:
        return 2

    def new_game(self, players: int | None = None, seed: int = 0, **options: Any) -> ZillertalState:
        count = self.check_players(players)
        settings = self.resolve_options(options)
        path = settings["cards"]
        if path is not None and not isinstance(path, str):
            raise ValueError(f"cards must be the path of a card-set file or None, not {path!r}")
        bonuses = settings["bonuses"]
        if not isinstance(bonuses, bool):
            raise ValueError(f"bonuses must be true or false, not {bonuses!r}")
        hands_mode = settings["hands"]
        if hands_mode not in HANDS_MODES:
            raise ValueError(f"hands must be 'dealt' or 'physical', not {hands_mode!r}")
        card_set = load_card_set(path)
        check_enough(card_set, count)
        rng = SeededRandom(seed)
        if hands_mode == PHYSICAL:
            # ZT-E10: the players shuffle and deal the real cards; the controller counts them. ZT-E11:
            # the contracts dealt are entered seat by seat before the first turn.
            full = card_set.deck()
            in_use = card_set.in_use[count]
            table = Table(
                players=count,
                bonuses=bonuses,
                rng=rng,
                deck=(UNSEEN,) * (in_use - HAND_SIZE * count),
                unused=(UNSEEN,) * (len(full) - in_use),
                piles=tuple(card_set.pile(value) for value in CONTRACT_VALUES),
                hands=((UNSEEN,) * HAND_SIZE,) * count,
                contracts=((),) * count,
                completed=((),) * count,
                taken=(0,) * count,
                pending=DEAL,
                to_draw=_starting_values(count),
                hands_mode=PHYSICAL,
                events=("enter the contracts dealt to player 0 (contract ID)",),
            )
            return ZillertalState(self, card_set, path is not None, table)
        # Rule text: shuffle the Valley cards and use as many as the player count says; the rest are
        # set aside unseen.
        full, rng = cards.shuffle(card_set.deck(), rng)
        in_use = card_set.in_use[count]
        unused, deck = full[: len(full) - in_use], full[len(full) - in_use :]
        hands, deck = cards.deal(deck, count, HAND_SIZE)
        # Contracts: one from each pile per player; solo two from each, never replaced.
        per_pile = SOLO_CONTRACTS if count == 1 else 1
        piles: list[Pile] = []
        held: list[list[Held]] = [[] for _ in range(count)]
        for value in CONTRACT_VALUES:
            pile, rng = cards.shuffle(card_set.pile(value), rng)
            dealt, pile = cards.deal(pile, count, per_pile)
            for seat in range(count):
                held[seat].extend(Held(c) for c in dealt[seat])
            piles.append(pile)
        table = Table(
            players=count,
            bonuses=bonuses,
            rng=rng,
            deck=deck,
            unused=unused,
            piles=tuple(piles),
            hands=hands,
            contracts=tuple(tuple(h) for h in held),
            completed=((),) * count,
            taken=(0,) * count,
        )
        return ZillertalState(self, card_set, path is not None, table)

    def state_from_json(self, data: Mapping[str, Any]) -> ZillertalState:
        data = jsonutil.check_header(data, self.name, FORMAT_VERSION)
        players = jsonutil.field(data, "players", int)
        self.check_players(players)
        raw_cards = jsonutil.field(data, "cards", (dict, type(None)))
        card_set = load_card_set(None) if raw_cards is None else parse_card_set(raw_cards, "saved card set")
        return ZillertalState(self, card_set, raw_cards is not None, _table_from_json(data, players, card_set))

    def cells(self, state: State) -> tuple[Cell, ...]:
        """The dotted lines of the Valley: the positions the LED rail along it can light."""
        assert isinstance(state, ZillertalState)
        return tuple((line, 0) for line in state.valley.lines())

    def format_cell(self, cell: Cell) -> str:
        return RAIL.format_cell(cell)

    def parse_cell(self, text: str) -> Cell:
        return RAIL.parse_cell(text)


def _starting_values(players: int) -> tuple[int, ...]:
    """The pile values of one seat's starting contracts: one from each pile, solo two."""
    per_pile = SOLO_CONTRACTS if players == 1 else 1
    return tuple(value for value in CONTRACT_VALUES for _ in range(per_pile))


def check_enough(card_set: CardSet, players: int) -> None:
    """Refuse a card set too small for the player count, naming what is short."""
    in_use = card_set.in_use[players]
    if in_use < HAND_SIZE * players:
        raise ValueError(f"{players} players need at least {HAND_SIZE * players} Valley cards, the set uses {in_use}")
    needed = SOLO_CONTRACTS if players == 1 else players
    for value in CONTRACT_VALUES:
        if len(card_set.pile(value)) < needed:
            raise ValueError(
                f"{players} player(s) need {needed} contracts worth {value}, the set has {len(card_set.pile(value))}"
            )


def _table_from_json(data: Mapping[str, Any], players: int, card_set: CardSet) -> Table:
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
    gorge = jsonutil.field(data, "gorge", (int, type(None)))
    crosses = tuple(jsonutil.field(data, "crosses", list))
    if len(crosses) > 2 or not all(isinstance(c, int) and not isinstance(c, bool) for c in crosses):
        raise ValueError(f"field 'crosses' must list at most two dotted lines, not {list(crosses)!r}")
    used = tuple(jsonutil.field(data, "used", list))
    if not all(u in BONUSES for u in used):
        raise ValueError(f"field 'used' must list bonuses ({', '.join(BONUSES)}), not {list(used)!r}")
    taken = tuple(per_seat("taken"))
    if not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in taken):
        raise ValueError(f"field 'taken' must be whole numbers >= 0, not {list(taken)!r}")
    pending = jsonutil.field(data, "pending", (str, type(None)))
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
    table = Table(
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
    return table


def token_supply(card_set: CardSet, placed: tuple[Token, ...]) -> dict[str, int]:
    """ZT-4: the tokens still in the supply, by kind (icons and `blank`)."""
    supply = dict(card_set.tokens)
    for token in placed:
        supply[BLANK if token.blank else token.icon] -= 1
    return supply


def parse_icon(text: str) -> str:
    word = text.strip().lower()
    if word in ICONS:
        return word
    if word.upper() in LETTERS:
        return LETTERS[word.upper()]
    if word.endswith("s") and word[:-1] in ICONS:
        return word[:-1]
    raise NotationError(f"{text!r} is not an icon ({', '.join(ICONS)})")


class ZillertalState(State):
    __slots__ = ("_custom", "_game", "_legal", "_set", "_t", "_valley")

    def __init__(self, game: Zillertal, card_set: CardSet, custom: bool, table: Table) -> None:
        self._game = game
        self._set = card_set
        self._custom = custom
        self._t = table
        self._legal: tuple[Action, ...] | None = None
        self._valley: Valley | None = None

    # --- description -------------------------------------------------------------------------
    @property
    def game(self) -> Zillertal:
        return self._game

    @property
    def card_set(self) -> CardSet:
        return self._set

    @property
    def table(self) -> Table:
        """The whole table, hidden cards included: for the engine, tests and saving, never for a player."""
        return self._t

    @property
    def players(self) -> int:
        return self._t.players

    @property
    def current_player(self) -> int:
        return self._t.current

    @property
    def turns(self) -> int:
        return self._t.turns

    @property
    def ply(self) -> int:
        return self._t.turns

    @property
    def solo(self) -> bool:
        return self._t.players == 1

    @property
    def events(self) -> tuple[str, ...]:
        return self._t.events

    @property
    def valley(self) -> Valley:
        if self._valley is None:
            t = self._t
            self._valley = Valley(self._set.valley, t.placed, t.gorge, t.crosses, t.tokens)
        return self._valley

    def contract(self, contract_id: str) -> Contract:
        return self._set.contracts[contract_id]

    def points(self, seat: int) -> int:
        """Points from completed contracts."""
        return sum(self._set.contracts[c].points for c in self._t.completed[seat])

    def open_tasks(self, seat: int) -> int:
        """Tie-break: tasks claimed on contracts not yet completed."""
        return sum(len(h.claimed) for h in self._t.contracts[seat])

    def solo_won(self) -> bool:
        t = self._t
        return self.solo and not t.contracts[0] and bool(t.completed[0])

    def is_terminal(self) -> bool:
        return self._t.over

    def returns(self) -> tuple[float, ...]:
        t = self._t
        if not t.over:
            return (0.0,) * t.players
        if self.solo:
            return (1.0 if self.solo_won() else 0.0,)
        # Rule text: most points wins; a tie goes to more tasks on uncompleted contracts. ZT-E6: players
        # still tied share the win as a draw (0.5 each).
        keys = [(self.points(p), self.open_tasks(p)) for p in range(t.players)]
        best = max(keys)
        winners = [p for p, key in enumerate(keys) if key == best]
        share = 1.0 if len(winners) == 1 else 0.5
        return tuple(share if p in winners else 0.0 for p in range(t.players))

    def bonus_thresholds(self) -> tuple[int, ...]:
        return SOLO_BONUS_AT if self.solo else BONUS_AT

    def bonus_entitled(self) -> bool:
        """Rule text: a bonus after the 2nd and the 4th contract (solo: the 3rd), from the next turn on.

        ZT-E3: a bonus claimed is used at once; a player owed two may use both in one turn.
        """
        t = self._t
        if not t.bonuses or t.pending is not None:
            return False
        earned = sum(1 for n in self.bonus_thresholds() if t.start_completed >= n)
        return t.taken[t.current] < earned

    def placements(self, card: str) -> tuple[int, ...]:
        """ZT-2: every dotted line where `card`'s left edge may go now."""
        return self.valley.placements(self._set.valley[card])

    @property
    def hands_mode(self) -> str:
        return self._t.hands_mode

    @property
    def physical(self) -> bool:
        """ZT-E10: real cards at a table; the controller does not know the hands."""
        return self._t.hands_mode == PHYSICAL

    @property
    def pending(self) -> str | None:
        """The step under way inside a turn (a bonus, or entering a contract drawn), or None."""
        return self._t.pending

    @property
    def to_draw(self) -> tuple[int, ...]:
        """ZT-E11: pile values of contracts drawn but not yet entered."""
        return self._t.to_draw

    def hand_size(self, seat: int) -> int:
        return len(self._t.hands[seat])

    def chance_count(self) -> int:
        """How many draws of hidden cards happened so far: no take-back across one."""
        return self._t.revealed

    def unaccounted(self, card: str) -> int:
        """ZT-E10: copies of Valley card `card` not laid or set aside: one may be in a hand."""
        t = self._t
        laid = sum(1 for p in t.placed if p.card == card) + t.set_aside.count(card)
        return self._set.copies[card] - laid

    def playable_cards(self) -> tuple[str, ...]:
        """The distinct Valley cards the player on turn may lay: their hand, or with physical hands
        every card of which a copy may still be in a hand (ZT-E10), in card-set order."""
        t = self._t
        hand = t.hands[t.current]
        if UNSEEN not in hand:
            return tuple(_distinct(hand))
        return tuple(c for c in self._set.valley if self.unaccounted(c) > 0)

    # --- legality ----------------------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        if self._legal is None:
            self._legal = tuple(self._compute_legal())
        return self._legal

    def _compute_legal(self) -> list[Action]:
        t = self._t
        if t.over:
            return []
        me = t.current
        hand = t.hands[me]
        valley = self.valley
        if t.pending == TOKENS:
            return self._token_actions()
        if t.pending in (DEAL, DRAW, REDRAW):
            return self._contract_entries()
        if t.pending == EXCHANGE:
            actions: list[Action] = []
            if t.deck and UNSEEN in hand:
                # ZT-E12: any card the hand may hold; at most as many swaps as unseen hand cards.
                if hand.count(UNSEEN) > t.received.count(UNSEEN):
                    actions.extend(Swap(c) for c in self.playable_cards())
            elif t.deck:
                actions.extend(Swap(c) for c in _distinct(hand) if hand.count(c) > t.received.count(c))
            for held in t.contracts[me]:
                if held.id not in t.received and t.piles[self._set.contracts[held.id].points - 1]:
                    actions.append(Swap(held.id))
            actions.append(DONE)
            return actions
        if t.pending == CROSS:
            return [SecondCross(line) for line in valley.lines() if line not in t.crosses]
        actions = []
        if not t.played and UNSEEN in hand:
            # ZT-E10: any card a hand may hold is laid where it fits; ZT-E1 with physical hands: one
            # that fits nowhere may be set aside (the controller cannot see the other hand card).
            for card in self.playable_cards():
                found = self.placements(card)
                actions.extend(Place(card, at) for at in found)
                if not found:
                    actions.append(SetAside(card))
        elif not t.played:
            for card in _distinct(hand):
                actions.extend(Place(card, at) for at in self.placements(card))
            if not actions:
                actions.extend(SetAside(card) for card in _distinct(hand))  # ZT-E1
        else:
            actions.extend(self._claims())
        if self.bonus_entitled():
            actions.extend(self._bonus_actions())
        if t.played:
            actions.extend(self._ends())
        return actions

    def _contract_entries(self) -> list[Action]:
        """ZT-E11: the contracts that may have been drawn: any left in a pile of a value still owed.
        ZT-E12: in a redraw the contract just slid under its pile is not the one drawn."""
        t = self._t
        entries: list[Action] = []
        for value in sorted(set(t.to_draw)):
            pile = t.piles[value - 1]
            candidates = pile[1:] if t.pending == REDRAW else pile
            entries.extend(NewContract(c) for c in dict.fromkeys(candidates))
        return entries

    def _claims(self) -> list[Action]:
        t = self._t
        zone_counts = self.valley.zone_counts()
        actions: list[Action] = []
        for held in t.contracts[t.current]:
            if t.claim_on not in (None, held.id):
                continue  # ZT-7: tasks on one contract per turn
            for icon, count in self._set.contracts[held.id].tasks:
                if icon in held.claimed:
                    continue
                index = ICON_INDEX[icon]
                if any(totals[index] == count for totals in zone_counts.values()):
                    actions.append(Claim(held.id, icon))
        return actions

    def _bonus_actions(self) -> list[Action]:
        t = self._t
        valley = self.valley
        actions: list[Action] = []
        if "tokens" not in t.used and any(token_supply(self._set, t.tokens).values()) and not valley.empty:
            actions.append(BONUS_TOKENS)
        if "task" not in t.used:
            for held in t.contracts[t.current]:
                actions.extend(
                    BonusTask(held.id, icon)
                    for icon, _ in self._set.contracts[held.id].tasks
                    if icon not in held.claimed
                )
        if "exchange" not in t.used:
            actions.append(BONUS_EXCHANGE)
        if t.gorge is None and t.gorges_used < GORGE_CARDS and not valley.empty:
            actions.extend(BonusGorge(c) for c in valley.columns())
        if "crosses" not in t.used and not valley.empty:
            actions.extend(BonusCross(line) for line in valley.lines())
        return actions

    def _token_actions(self) -> list[Action]:
        t = self._t
        valley = self.valley
        supply = token_supply(self._set, t.tokens)
        actions: list[Action] = []
        columns = valley.visible_columns()
        for icon in ICONS:
            if supply[icon] > 0:
                actions.extend(PlaceToken(icon, c) for c in columns)
        if supply[BLANK] > 0:
            for icon in ICONS:
                index = ICON_INDEX[icon]
                actions.extend(PlaceToken(icon, c, blank=True) for c in columns if valley.column_counts(c)[index] > 0)
        return actions

    def _ends(self) -> list[Action]:
        """ZT-E7: one pile value per contract completed this turn, from piles that still hold cards."""
        t = self._t
        if self.solo:
            return [End()]  # solo: completed contracts are not replaced
        sizes = {v: len(t.piles[v - 1]) for v in CONTRACT_VALUES}
        wanted = min(t.replacements, sum(sizes.values()))
        available = [v for v in CONTRACT_VALUES if sizes[v]]
        ends: list[Action] = []
        for combo in combinations_with_replacement(available, wanted):
            if all(combo.count(v) <= sizes[v] for v in available):
                ends.append(End(combo))
        return ends

    def apply(self, action: Action) -> ZillertalState:
        if action not in self.legal_actions():
            raise IllegalAction(self._why_illegal(action))
        t = self._t
        me = t.current
        hand = t.hands[me]
        if isinstance(action, Place):
            card = self._set.valley[action.card]
            gorge, events = t.gorge, []
            if gorge is not None and action.at <= gorge < action.at + card.width:
                # ZT-3: a Valley card over the Gorge removes it; the second Gorge may be claimed.
                gorge = None
                events.append("the Gorge is covered: the whole Valley scores again")
            return self._next(
                replace(
                    t,
                    hands=_with_seat(t.hands, me, take_card(hand, action.card)),
                    placed=(*t.placed, Placed(action.card, action.at)),
                    gorge=gorge,
                    played=True,
                    events=tuple(events),
                )
            )
        if isinstance(action, SetAside):
            if t.hands_mode == PHYSICAL:
                event = f"player {me} sets aside {action.card}, which fits nowhere in the Valley"
            else:
                event = f"player {me} cannot lay {action.card} or the other hand card anywhere and sets it aside"
            return self._next(
                replace(
                    t,
                    hands=_with_seat(t.hands, me, take_card(hand, action.card)),
                    set_aside=(*t.set_aside, action.card),
                    played=True,
                    events=(event,),
                )
            )
        if isinstance(action, Claim):
            return self._claim(replace(t, claim_on=action.contract, events=()), action.contract, action.icon)
        if isinstance(action, BonusTask):
            return self._claim(replace(self._take_bonus(t, "task"), events=()), action.contract, action.icon)
        if isinstance(action, BonusTokens):
            # ZT-E5: the three tokens are placed one action each, before anything else happens.
            left = min(TOKENS_PER_BONUS, sum(token_supply(self._set, t.tokens).values()))
            after = replace(self._take_bonus(t, "tokens"), pending=TOKENS, tokens_left=left, events=())
            state = self._next(after)
            return state if state._token_actions() else self._next(replace(after, pending=None, tokens_left=0))
        if isinstance(action, PlaceToken):
            token = Token(action.icon, action.column, len(t.placed), action.blank)
            after = replace(t, tokens=(*t.tokens, token), tokens_left=t.tokens_left - 1, events=())
            state = self._next(after)
            if after.tokens_left == 0 or not state._token_actions():
                state = self._next(replace(after, pending=None, tokens_left=0))
            return state
        if isinstance(action, BonusExchange):
            return self._next(replace(self._take_bonus(t, "exchange"), pending=EXCHANGE, received=(), events=()))
        if isinstance(action, Swap):
            return self._swap(action.card)
        if isinstance(action, NewContract):
            return self._new_contract(action.contract)
        if isinstance(action, Done):
            return self._next(replace(t, pending=None, events=()))
        if isinstance(action, BonusGorge):
            after = self._take_bonus(t, "gorge")
            return self._next(replace(after, gorge=action.column, gorges_used=t.gorges_used + 1, events=()))
        if isinstance(action, BonusCross):  # ZT-E5: the second Cross follows as its own action
            return self._next(replace(self._take_bonus(t, "crosses"), crosses=(action.line,), pending=CROSS, events=()))
        if isinstance(action, SecondCross):
            return self._next(replace(t, crosses=tuple(sorted((*t.crosses, action.line))), pending=None, events=()))
        assert isinstance(action, End)
        return self._end_turn(action.piles)

    def _next(self, table: Table) -> ZillertalState:
        return ZillertalState(self._game, self._set, self._custom, table)

    def _take_bonus(self, t: Table, bonus: str) -> Table:
        """A player claims a bonus: it is used up (the Gorge counts separately) and counts for the player."""
        used = t.used if bonus == "gorge" else (*t.used, bonus)
        return replace(t, used=used, taken=_with_seat(t.taken, t.current, t.taken[t.current] + 1))

    def _claim(self, t: Table, contract_id: str, icon: str) -> ZillertalState:
        me = t.current
        contracts = list(t.contracts[me])
        index = next(i for i, h in enumerate(contracts) if h.id == contract_id)
        held = Held(contract_id, (*contracts[index].claimed, icon))
        contract = self._set.contracts[contract_id]
        events = list(t.events)
        events.append(f"player {me} claims {icon} {contract.target(icon)} on {contract_id}")
        if len(held.claimed) < len(contract.tasks):
            contracts[index] = held
            return self._next(replace(t, contracts=_with_seat(t.contracts, me, tuple(contracts)), events=tuple(events)))
        # All tasks claimed: the contract is complete and scores its points.
        del contracts[index]
        completed = (*t.completed[me], contract_id)
        events.append(f"player {me} completes {contract_id} for {contract.points} point(s)")
        after = replace(
            t,
            contracts=_with_seat(t.contracts, me, tuple(contracts)),
            completed=_with_seat(t.completed, me, completed),
            replacements=t.replacements + (0 if self.solo else 1),
            events=tuple(events),
        )
        if self.solo and not contracts:  # ZT-E8: the solo game is won the moment the last one is done
            events.append("all contracts are complete: the solo game is won")
            after = replace(after, over=True, turns=t.turns + 1, events=tuple(events))
        return self._next(after)

    def _swap(self, card: str) -> ZillertalState:
        """ZT-E4: the new card comes from the top, the old one goes under its deck or pile."""
        t = self._t
        me = t.current
        revealed = t.revealed + 1
        if card in self._set.valley:
            (new,), deck = cards.draw(t.deck)
            # ZT-E12: a card given back into a physical deck is unseen again.
            back = UNSEEN if t.hands_mode == PHYSICAL else card
            hand = (*take_card(t.hands[me], card), new)
            return self._next(
                replace(
                    t,
                    hands=_with_seat(t.hands, me, hand),
                    deck=cards.put_under(deck, back),
                    received=(*t.received, new),
                    revealed=revealed,
                    events=(f"player {me} exchanges a hand card",),
                )
            )
        value = self._set.contracts[card].points
        if t.hands_mode == PHYSICAL:
            # ZT-E12: the contract drawn for it is entered next.
            contracts = tuple(h for h in t.contracts[me] if h.id != card)
            return self._next(
                replace(
                    t,
                    contracts=_with_seat(t.contracts, me, contracts),
                    piles=_with_seat(t.piles, value - 1, cards.put_under(t.piles[value - 1], card)),
                    pending=REDRAW,
                    to_draw=(value,),
                    revealed=revealed,
                    events=(f"player {me} exchanges {card}: enter the contract drawn from pile {value}",),
                )
            )
        (new,), pile = cards.draw(t.piles[value - 1])
        contracts = tuple(Held(new) if h.id == card else h for h in t.contracts[me])
        piles = _with_seat(t.piles, value - 1, cards.put_under(pile, card))
        return self._next(
            replace(
                t,
                contracts=_with_seat(t.contracts, me, contracts),
                piles=piles,
                received=(*t.received, new),
                revealed=revealed,
                events=(f"player {me} exchanges {card} for {new}",),
            )
        )

    def _new_contract(self, contract_id: str) -> ZillertalState:
        """ZT-E11: a contract drawn (or dealt) at a physical table is entered."""
        t = self._t
        me = t.current
        value = self._set.contracts[contract_id].points
        piles = _with_seat(t.piles, value - 1, cards.remove_card(t.piles[value - 1], contract_id))
        contracts = _with_seat(t.contracts, me, (*t.contracts[me], Held(contract_id)))
        owed = list(t.to_draw)
        owed.remove(value)
        event = f"player {me} takes contract {contract_id} (worth {value})"
        after = replace(t, piles=piles, contracts=contracts, to_draw=tuple(owed), events=(event,))
        if owed:
            return self._next(after)
        if t.pending == DEAL:
            if me + 1 < t.players:
                events = (event, f"enter the contracts dealt to player {me + 1}")
                return self._next(replace(after, current=me + 1, to_draw=_starting_values(t.players), events=events))
            return self._next(replace(after, current=0, pending=None, events=(event, "player 0 starts")))
        if t.pending == REDRAW:
            return self._next(replace(after, pending=EXCHANGE, received=(*t.received, contract_id)))
        return self._pass_turn(replace(after, pending=None))

    def _end_turn(self, chosen: tuple[int, ...]) -> ZillertalState:
        t = self._t
        me = t.current
        hand, deck = cards.refill(t.hands[me], t.deck, HAND_SIZE)
        drew = len(hand) > len(t.hands[me]) or bool(chosen)
        t = replace(
            t,
            hands=_with_seat(t.hands, me, hand),
            deck=deck,
            turns=t.turns + 1,
            revealed=t.revealed + (1 if drew else 0),
            events=(),
        )
        if t.hands_mode == PHYSICAL and chosen:
            # ZT-E11: the player draws from the chosen piles; each contract drawn is entered next.
            piles = " and ".join(str(v) for v in chosen)
            event = f"player {me} draws {len(chosen)} contract(s) from pile(s) {piles}: enter them (contract ID)"
            return self._next(replace(t, pending=DRAW, to_draw=chosen, events=(event,)))
        contracts = list(t.contracts[me])
        piles = list(t.piles)
        events = []
        for value in chosen:
            (new,), piles[value - 1] = cards.draw(piles[value - 1])
            contracts.append(Held(new))
            events.append(f"player {me} takes a new contract worth {value}: {new}")
        t = replace(
            t,
            piles=tuple(piles),
            contracts=_with_seat(t.contracts, me, tuple(contracts)),
            events=tuple(events),
        )
        return self._pass_turn(t)

    def _pass_turn(self, t: Table) -> ZillertalState:
        """The turn of the player on turn is over: the next player with cards plays."""
        me = t.current
        events = list(t.events)
        # Rule text: with the deck empty, players play out their hands; a player without cards is passed.
        for step in range(1, t.players + 1):
            seat = (me + step) % t.players
            if t.hands[seat]:
                return self._next(
                    replace(
                        t,
                        current=seat,
                        played=False,
                        claim_on=None,
                        pending=None,
                        tokens_left=0,
                        received=(),
                        start_completed=len(t.completed[seat]),
                        replacements=0,
                        events=tuple(events),
                    )
                )
        events.append("no cards are left to play: the game is over")
        return self._next(replace(t, over=True, played=False, claim_on=None, replacements=0, events=tuple(events)))

    def _why_illegal(self, action: Action) -> str:
        t = self._t
        if t.over:
            return "the game is over"
        kinds = (
            Place,
            SetAside,
            Claim,
            BonusTokens,
            PlaceToken,
            BonusTask,
            BonusExchange,
            Swap,
            Done,
            BonusGorge,
            BonusCross,
            SecondCross,
            End,
            NewContract,
        )
        if not isinstance(action, kinds):
            return f"{action!r} is not a Zillertal action"
        me = t.current
        hand = t.hands[me]
        valley = self.valley
        if t.pending in (DEAL, DRAW, REDRAW):
            return self._why_not_entry(action)
        if isinstance(action, NewContract):
            return "a contract is entered only when one is dealt or drawn (ZT-E11)"
        if t.pending == TOKENS and not isinstance(action, PlaceToken):
            return f"place the bonus tokens first ({t.tokens_left} left)"
        if t.pending == EXCHANGE and not isinstance(action, Swap | Done):
            return "finish the exchange first (swap CARD, or done)"
        if t.pending == CROSS and not isinstance(action, SecondCross):
            return "lay the second Cross first (cross@LINE)"
        if isinstance(action, PlaceToken | Swap | Done | SecondCross) and t.pending is None:
            return "that belongs to a bonus that is not being used"
        if isinstance(action, Place | SetAside):
            if t.played:
                return "you have already laid your card this turn"
            if UNSEEN in hand:
                if action.card not in self._set.valley:
                    return f"{action.card} is not a Valley card of this card set"
                if self.unaccounted(action.card) <= 0:
                    copies = self._set.copies[action.card]
                    return f"all {copies} copies of {action.card} are already in the Valley or set aside (ZT-E10)"
                if isinstance(action, SetAside):
                    lines = ", ".join(map(str, self.placements(action.card)))
                    return f"{action.card} fits in the Valley (left edge on line {lines}): lay it (ZT-E1)"
            elif action.card not in hand:
                return f"{action.card} is not in your hand"
            if isinstance(action, SetAside):
                return "a card may be set aside only when no hand card fits anywhere in the Valley (ZT-E1)"
            reason = valley.why_not(self._set.valley[action.card], action.at)
            return reason or "that placement is not possible"
        if isinstance(action, Claim):
            if not t.played:
                return "tasks are claimed only after laying your card (rule text)"
            return self._why_not_task(action.contract, action.icon, claim=True)
        if isinstance(action, End):
            if not t.played:
                return "lay a card before ending the turn (rule text: you must play a card each turn)"
            if self.solo:
                return "solo contracts are not replaced: end the turn with 'end'"
            return (
                f"choose {min(t.replacements, sum(map(len, t.piles)))} pile value(s) for the contract(s) "
                "completed this turn, from piles that still hold cards (e.g. end 2)"
            )
        if isinstance(action, PlaceToken):
            supply = token_supply(self._set, t.tokens)
            kind = BLANK if action.blank else action.icon
            if supply.get(kind, 0) <= 0:
                return f"no {kind} token is left"
            if action.column not in valley.visible_columns():
                return f"column {action.column} is not a visible column of the Valley"
            return f"there is no visible {action.icon} in column {action.column} to cover"
        if isinstance(action, Swap):
            if action.card in t.received:
                return f"{action.card} was received in this exchange"
            if action.card in self._set.valley and UNSEEN in hand:
                if not t.deck:
                    return "the deck is empty"
                if hand.count(UNSEEN) <= t.received.count(UNSEEN):
                    return "both hand cards have been exchanged already; cards received are not exchanged again"
                return f"all copies of {action.card} are already in the Valley or set aside (ZT-E10)"
            if action.card in self._set.valley:
                return f"{action.card} is not in your hand" if action.card not in hand else "the deck is empty"
            if action.card not in self._set.contracts:
                return f"{action.card} is neither a Valley card nor a contract"
            return f"{action.card} is not one of your open contracts, or its pile is empty"
        if isinstance(action, SecondCross):
            return f"the second Cross goes on another dotted line ({valley.first} to {valley.last})"
        # Bonuses
        bonus = {
            BonusTokens: "tokens",
            BonusTask: "task",
            BonusExchange: "exchange",
            BonusGorge: "gorge",
            BonusCross: "crosses",
        }[type(action)]
        if not t.bonuses:
            return "this game is played without bonuses"
        if not self.bonus_entitled():
            at = " and ".join(str(n) for n in self.bonus_thresholds())
            return (
                f"a bonus is earned after completing contract number {at}, from the next turn on, one per "
                "threshold (rule text)"
            )
        if bonus == "gorge":
            if t.gorge is not None:
                return "a Gorge is already in the Valley"
            if t.gorges_used >= GORGE_CARDS:
                return "both Gorges have been used"
            return f"the Gorge goes over a column of the Valley ({valley.first} to {valley.last - 1})"
        if bonus in t.used:
            return f"the {bonus} bonus has already been used this game"
        if isinstance(action, BonusTask):
            return self._why_not_task(action.contract, action.icon, claim=False)
        if isinstance(action, BonusCross):
            return f"a Cross goes on a dotted line of the Valley ({valley.first} to {valley.last})"
        return "that bonus cannot be used now"

    def _why_not_entry(self, action: Action) -> str:
        """ZT-E11: why `action` is not the contract being entered."""
        t = self._t
        owed = " or ".join(str(v) for v in sorted(set(t.to_draw)))
        if not isinstance(action, NewContract):
            what = "dealt to" if t.pending == DEAL else "drawn by"
            return f"first enter the contract {what} player {t.current} from pile {owed} (contract ID) (ZT-E11)"
        contract = self._set.contracts.get(action.contract)
        if contract is None:
            return f"{action.contract} is not a contract of this card set"
        if contract.points not in t.to_draw:
            return f"{action.contract} is worth {contract.points}: the contract now comes from pile {owed}"
        pile = t.piles[contract.points - 1]
        if t.pending == REDRAW and pile and pile[0] == action.contract:
            return f"{action.contract} was just exchanged: the contract drawn for it is another one"
        owner = next((p for p in range(t.players) if any(h.id == action.contract for h in t.contracts[p])), None)
        if owner is not None:
            return f"{action.contract} is already player {owner}'s contract"
        return f"{action.contract} has been completed and is no longer in pile {contract.points}"

    def _why_not_task(self, contract_id: str, icon: str, claim: bool) -> str:
        t = self._t
        held = next((h for h in t.contracts[t.current] if h.id == contract_id), None)
        if held is None:
            return f"{contract_id} is not one of your open contracts"
        contract = self._set.contracts[contract_id]
        target = contract.target(icon)
        if target is None:
            return f"{contract_id} has no {icon} task"
        if icon in held.claimed:
            return f"the {icon} task of {contract_id} is already claimed"
        if claim and t.claim_on not in (None, contract_id):
            return f"you claim on one contract per turn and have claimed on {t.claim_on} (rule text, ZT-7)"
        counts = {name: totals[ICON_INDEX[icon]] for name, totals in self.valley.zone_counts().items()}
        shown = ", ".join(f"{n} in {name}" for name, n in counts.items()) or "none"
        return f"{contract_id} needs exactly {target} {icon} visible in one zone; the Valley shows {shown}"

    # --- notation ----------------------------------------------------------------------------
    def action_to_str(self, action: Action) -> str:
        if isinstance(action, Place):
            return f"{action.card}@{action.at}"
        if isinstance(action, SetAside):
            return f"aside {action.card}"
        if isinstance(action, Claim):
            return f"claim {action.contract} {action.icon}"
        if isinstance(action, BonusTokens):
            return "bonus tokens"
        if isinstance(action, PlaceToken):
            return f"{'blank' if action.blank else 'token'} {action.icon}@{action.column}"
        if isinstance(action, BonusTask):
            return f"bonus task {action.contract} {action.icon}"
        if isinstance(action, BonusExchange):
            return "bonus exchange"
        if isinstance(action, Swap):
            return f"swap {action.card}"
        if isinstance(action, Done):
            return "done"
        if isinstance(action, BonusGorge):
            return f"bonus gorge@{action.column}"
        if isinstance(action, BonusCross):
            return f"bonus cross@{action.line}"
        if isinstance(action, SecondCross):
            return f"cross@{action.line}"
        if isinstance(action, End):
            return "end" + (f" {','.join(map(str, action.piles))}" if action.piles else "")
        if isinstance(action, NewContract):
            return f"contract {action.contract}"
        raise NotationError(f"{action!r} is not a Zillertal action")

    def card_id(self, text: str) -> str:
        """A card or contract id from text, without regard to case."""
        lowered = text.strip().lower()
        for known in (*self._set.valley, *self._set.contracts):
            if known.lower() == lowered:
                return known
        raise NotationError(f"{text!r} is not a Valley card or contract of this card set")

    def parse_action(self, text: str) -> Action:
        raw = " ".join(text.strip().split())
        low = raw.lower()
        words = low.split(" ")
        try:
            if low == "bonus tokens":
                return BONUS_TOKENS
            if low == "bonus exchange":
                return BONUS_EXCHANGE
            if low == "done":
                return DONE
            if words[0] == "end":
                piles = tuple(int(v) for v in "".join(words[1:]).split(",") if v) if len(words) > 1 else ()
                if any(v not in CONTRACT_VALUES for v in piles):
                    raise NotationError(f"{text!r}: pile values are 1, 2 and 3")
                return End(tuple(sorted(piles)))
            if words[0] == "aside" and len(words) == 2:
                return SetAside(self.card_id(words[1]))
            if words[0] == "swap" and len(words) == 2:
                return Swap(self.card_id(words[1]))
            if words[0] == "contract" and len(words) == 2:
                return NewContract(self.card_id(words[1]))
            if words[0] == "claim" and len(words) == 3:
                return Claim(self.card_id(words[1]), parse_icon(words[2]))
            if words[:2] == ["bonus", "task"] and len(words) == 4:
                return BonusTask(self.card_id(words[2]), parse_icon(words[3]))
            if words[0] in ("token", "blank") and (m := _AT_TEXT.fullmatch(" ".join(words[1:]))):
                return PlaceToken(parse_icon(m.group(1)), int(m.group(2)), blank=words[0] == "blank")
            if words[0] == "bonus" and (m := _AT_TEXT.fullmatch(" ".join(words[1:]))):
                if m.group(1) == "gorge":
                    return BonusGorge(int(m.group(2)))
                if m.group(1) == "cross":
                    return BonusCross(int(m.group(2)))
            if (m := _AT_TEXT.fullmatch(low)) and m.group(1) == "cross":
                return SecondCross(int(m.group(2)))
            if m := _PLACE_TEXT.fullmatch(raw):
                return Place(self.card_id(m.group(1)), int(m.group(2)))
        except ValueError as error:
            if isinstance(error, NotationError):
                raise
            raise NotationError(f"{text!r}: {error}") from None
        raise NotationError(
            f"{text!r} is not a Zillertal action (CARD@LINE, aside CARD, claim CONTRACT ICON, end [1,2,3], "
            "bonus tokens|task CONTRACT ICON|exchange|gorge@COLUMN|cross@LINE, token ICON@COLUMN, "
            "blank ICON@COLUMN, swap CARD, done, cross@LINE, contract CONTRACT)"
        )

    # --- views -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        t = self._t
        return {
            **jsonutil.header(self._game.name, FORMAT_VERSION),
            "players": t.players,
            "bonuses": t.bonuses,
            "cards": self._set.to_data() if self._custom else None,
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

    def observation(self, player: int) -> dict[str, Any]:
        """ZT-8: hands are hidden (own hand only); deck and piles as counts; everything else is public."""
        t = self._t
        valley = self.valley
        zone_counts = valley.zone_counts()
        return {
            "game": self._game.name,
            "player": player,
            "players": t.players,
            "bonuses": t.bonuses,
            "hands_mode": t.hands_mode,
            "to_draw": list(t.to_draw),
            "card_set": self._set.name,
            "current_player": t.current,
            "hand": list(t.hands[player]),
            "hands": cards.seat_views(t.hands, player),
            "deck": cards.hidden(t.deck),
            "unused": cards.hidden(t.unused),
            "piles": {str(v): len(p) for v, p in zip(CONTRACT_VALUES, t.piles, strict=True)},
            "contracts": [[{"id": h.id, "claimed": list(h.claimed)} for h in hs] for hs in t.contracts],
            "completed": [list(c) for c in t.completed],
            "points": [self.points(p) for p in range(t.players)],
            "open_tasks": [self.open_tasks(p) for p in range(t.players)],
            "valley": [{"card": p.card, "at": p.at} for p in t.placed],
            "lines": [valley.first, valley.last] if not valley.empty else None,
            "heights": {str(line): valley.height(line) for line in valley.lines()},
            "columns": {str(c): list(valley.column_counts(c)) for c in valley.columns()},
            "zones": {name: list(totals) for name, totals in zone_counts.items()},
            "gorge": t.gorge,
            "gorges_used": t.gorges_used,
            "crosses": list(t.crosses),
            "tokens": [{"icon": k.icon, "column": k.column, "time": k.time, "blank": k.blank} for k in t.tokens],
            "token_supply": token_supply(self._set, t.tokens),
            "used": list(t.used),
            "taken": list(t.taken),
            "set_aside": list(t.set_aside),
            "played": t.played,
            "claim_on": t.claim_on,
            "pending": t.pending,
            "tokens_left": t.tokens_left,
            "received": list(t.received) if player == t.current else [],
            "bonus_entitled": self.bonus_entitled() if player == t.current else False,
            "turns": t.turns,
            "terminal": t.over,
            "returns": list(self.returns()),
            "events": list(t.events),
        }

    def occupancy(self) -> Occupancy:
        return {}  # cards are not seen by the piece sensors; placements are entered (physical notes)

    def marks(self) -> dict[Cell, Mark]:
        """The Crosses' dotted lines (white) and the Gorge's two lines (blue) on the Valley rail."""
        t = self._t
        marks: dict[Cell, Mark] = {}
        if t.gorge is not None:
            marks[(t.gorge, 0)] = Mark("gorge", "blue")
            marks[(t.gorge + 1, 0)] = Mark("gorge", "blue")
        for line in t.crosses:
            marks[(line, 0)] = Mark("cross", "white")
        return marks

    def __repr__(self) -> str:
        return f"<ZillertalState turn={self._t.turns} player={self._t.current}>"


def _distinct(hand: Hand) -> list[str]:
    """Distinct cards of a hand, in the order they were received."""
    return list(dict.fromkeys(hand))
