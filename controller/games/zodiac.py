"""Zodiac (ChefGames, design Giacomo Gianlorenzi): be the first to hold all twelve signs, six face down
and six face up, with no duplicates and no action cards.

Rule text: shared/rules/seeds/zodiac.txt; rulings ZO-1 to ZO-6: shared/rules/zodiac.md. Where both
are silent the engine decides; those decisions carry ids ZO-E1 ... and are explained in
docs/games/zodiac.md.

A turn is several actions by the same player: draw (or take the top discard), then rearrange cards
between hand and face-up area one card at a time, then discard or pass. Playing an action card from
the hand is a turn of its own.

Option `hands="physical"` referees a table of real cards (ZO-E12 ... ZO-E15): the controller does not
know the hands or the deck order; hands and deck hold `cards.UNSEEN` placeholders, a card becomes known
when it is shown (taken from the discard pile, moved, played), and a declared card is accepted while
the player may still hold it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
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
from controller.games.cards import UNSEEN, Card, Hand, Pile, take_card
from controller.games.rng import SeededRandom

FORMAT_VERSION = 1

SIGNS: tuple[Card, ...] = ("ari", "tau", "gem", "can", "leo", "vir", "lib", "sco", "sag", "cap", "aqu", "pis")
SUN: Card = "sun"
MOON: Card = "moon"
ACTION_CARDS: frozenset[Card] = frozenset((SUN, MOON))
SIGN_SET: frozenset[Card] = frozenset(SIGNS)
CARD_NAMES: dict[Card, str] = {
    "ari": "Aries",
    "tau": "Taurus",
    "gem": "Gemini",
    "can": "Cancer",
    "leo": "Leo",
    "vir": "Virgo",
    "lib": "Libra",
    "sco": "Scorpio",
    "sag": "Sagittarius",
    "cap": "Capricorn",
    "aqu": "Aquarius",
    "pis": "Pisces",
    SUN: "Sun",
    MOON: "Black Moon",
}
# Rule text: 100 cards, seven of each sign, eight Suns and eight Black Moons.
DECK_COUNTS: dict[Card, int] = {**{sign: 7 for sign in SIGNS}, SUN: 8, MOON: 8}
ALIASES: dict[str, Card] = {
    **{card: card for card in CARD_NAMES},
    **{name.lower().replace(" ", ""): card for card, name in CARD_NAMES.items()},
    "blackmoon": MOON,
    "bm": MOON,
}

DEAL = 6
HAND_LIMIT = 6
UP_LIMIT = 6
TOTAL_LIMIT = 12
MODES = ("referee", "table")
HANDS_MODES = ("dealt", "physical")
DEALT, PHYSICAL = HANDS_MODES

# Phases of a turn.
DEALER = "dealer"  # physical hands: the table names the dealer (ZO-E12)
OPEN = "open"  # physical hands: the table names the sign that starts the discard pile (ZO-E12)
TURN = "turn"  # nothing drawn yet: draw, take, or play an action card
DRAWN = "drawn"  # drew or took a card: rearrange, then discard or pass
PENALTY = "penalty"  # table mode: the next player picks the signs an offender loses
OVER = "over"


# --- actions ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the deck."""


@dataclass(frozen=True, slots=True)
class Take:
    """Take the top card of the discard pile (ZO-1: only a sign, never a locked card)."""


@dataclass(frozen=True, slots=True)
class PlaySun:
    """ZO-2: play a Sun to take `card` from `seat`'s face-up cards into the hand.

    `area` is where the Sun comes from: None with dealt hands (ZO-E9 decides), "hand" or "up" with
    physical hands, where the table sees it and the controller cannot decide (ZO-E14).
    """

    card: Card
    seat: int
    call: bool = False
    area: str | None = None


@dataclass(frozen=True, slots=True)
class PlayMoon:
    """ZO-3: lay a Black Moon on the discard pile; the next player skips a turn (`area` as for PlaySun)."""

    call: bool = False
    area: str | None = None


@dataclass(frozen=True, slots=True)
class Spare:
    """ZO-E6 with physical hands: the offender's cards, shown to the chooser, hold no sign to lose."""


@dataclass(frozen=True, slots=True)
class Dealer:
    """ZO-E12: at a physical table, the seat that deals (found by the players' own draw)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Open:
    """ZO-E12: at a physical table, the sign the dealer turned up to start the discard pile."""

    card: Card


@dataclass(frozen=True, slots=True)
class Up:
    """ZO-5: move one card from the hand to the face-up area."""

    card: Card


@dataclass(frozen=True, slots=True)
class Down:
    """ZO-5: move one card from the face-up area to the hand."""

    card: Card


@dataclass(frozen=True, slots=True)
class Discard:
    """Lay a card from the hand on the discard pile; ends the turn."""

    card: Card
    call: bool = False


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without discarding ("PASS")."""

    call: bool = False


@dataclass(frozen=True, slots=True)
class Lose:
    """ZO-4: the chooser names a sign the offender loses, from `area` ("hand" or "up")."""

    area: str
    card: Card


DRAW = Draw()
TAKE = Take()
SPARE = Spare()

ENDING = (PlaySun, PlayMoon, Discard, Pass)
_SUN_TEXT = re.compile(r"sun\s+([a-z ]+?)\s*@\s*([0-9]+)")
FACE_UP_WORD = "faceup"  # ZO-E14: suffix of an action card played from the face-up area (physical hands)


@dataclass(frozen=True, slots=True)
class Penalty:
    """ZO-4: an offender still owes `owed` signs, chosen by the player on turn; `lost` already paid."""

    offender: int
    owed: int
    lost: int = 0


@dataclass(frozen=True, slots=True)
class Table:
    """Everything on the table: the value a ZodiacState wraps."""

    players: int
    mode: str
    rearrange_before_draw: bool
    max_turns: int | None
    rng: SeededRandom
    deck: Pile
    discard: Pile
    hands: tuple[Hand, ...]
    up: tuple[Hand, ...]
    current: int
    phase: str
    dealer: int
    dealer_draws: tuple[tuple[int, Card], ...]
    fresh: Card | None = None  # an action card just drawn from the deck, playable at once (ZO-E3)
    moved_up: Hand = ()
    moved_down: Hand = ()
    skips: tuple[int, ...] = ()
    locked: bool = False
    penalty: Penalty | None = None
    turns: int = 0
    winner: int | None = None
    events: tuple[str, ...] = ()
    hands_mode: str = DEALT
    revealed: int = 0  # hidden cards shown so far (draws, shuffles, hands shown): no take-back across them


def is_sign(card: Card) -> bool:
    return card in SIGN_SET


def card_name(card: Card) -> str:
    return CARD_NAMES.get(card, card)


def parse_card(text: str) -> Card:
    """A card id from its id or English name (`leo`, `Aries`, `black moon`)."""
    card = ALIASES.get(text.strip().lower().replace(" ", ""))
    if card is None:
        raise NotationError(f"{text!r} is not a Zodiac card (signs: {', '.join(SIGNS)}; sun; moon)")
    return card


def has_zodiac(hand: Hand, up: Hand) -> bool:
    """The winning set: six face down and six face up, all twelve signs, nothing else."""
    return len(hand) == HAND_LIMIT and len(up) == UP_LIMIT and set(hand) | set(up) == SIGN_SET


def _why_no_zodiac(t: Table, seat: int) -> str | None:
    """ZO-E15: why `seat`'s cards cannot be a Zodiac as far as the controller has seen them, or None.

    A Zodiac needs six distinct signs face up and six cards in the hand; the known hand cards must be
    other signs, and every sign still missing needs a copy the controller has not seen (that may be
    among the unseen hand cards)."""
    hand, up = t.hands[seat], t.up[seat]
    if len(hand) != HAND_LIMIT or len(up) != UP_LIMIT:
        return f"a Zodiac is {HAND_LIMIT} cards in the hand and {UP_LIMIT} face up, not {len(hand)} and {len(up)}"
    known = [c for c in hand if c != UNSEEN]
    shown = [*up, *known]
    if not set(shown) <= SIGN_SET:
        return "a Zodiac holds no action cards"
    if len(set(shown)) != len(shown):
        return "a Zodiac holds each sign once"
    seen = cards.count_by_id((*t.discard, *(c for u in t.up for c in u), *(c for h in t.hands for c in h)))
    gone = [sign for sign in SIGNS if sign not in shown and seen.get(sign, 0) >= DECK_COUNTS[sign]]
    if gone:
        return f"every copy of {', '.join(card_name(s) for s in gone)} has been seen elsewhere"
    return None


def _zodiac_possible(t: Table, seat: int) -> bool:
    return _why_no_zodiac(t, seat) is None


def over_limits(hand: Hand, up: Hand) -> bool:
    """Rule text: at most 6 in hand and 6 face up; 7 in hand or 13 in all at the end of a turn is too many."""
    return len(hand) > HAND_LIMIT or len(up) > UP_LIMIT or len(hand) + len(up) > TOTAL_LIMIT


def _with_seat(items: tuple[Hand, ...], seat: int, value: Hand) -> tuple[Hand, ...]:
    return (*items[:seat], value, *items[seat + 1 :])


class Zodiac(Game):
    name = "zodiac"
    title = "Zodiac"
    player_counts = (2, 3, 4, 5, 6, 7, 8)
    options = (
        Option(
            "mode",
            "referee",
            "ZO-4: 'referee' enforces limits and detects the Zodiac; 'table' keeps "
            "the printed penalties and ZODIAC calls",
        ),
        Option("rearrange_before_draw", False, "ZO-5: allow rearranging before drawing (English text)"),
        Option("max_turns", 1000, "ZO-6: end the game as a draw after this many turns; None switches it off"),
        Option(
            "hands",
            DEALT,
            "ZO-E12: 'dealt' (the engine shuffles, deals and knows every hand) or 'physical' (real cards: "
            "the controller learns a card when it is shown and accepts it while the player may hold it)",
        ),
    )

    @property
    def default_players(self) -> int:
        return 4

    def new_game(self, players: int | None = None, seed: int = 0, **options: Any) -> ZodiacState:
        count = self.check_players(players)
        settings = self.resolve_options(options)
        mode = _check_mode(settings["mode"])
        before = _check_bool(settings["rearrange_before_draw"], "rearrange_before_draw")
        max_turns = _check_max_turns(settings["max_turns"])
        hands_mode = _check_hands(settings["hands"])
        rng = SeededRandom(seed)
        if hands_mode == PHYSICAL:
            # ZO-E12: the players find the dealer and deal the real cards; the controller counts them.
            table = Table(
                players=count,
                mode=mode,
                rearrange_before_draw=before,
                max_turns=max_turns,
                rng=rng,
                deck=(UNSEEN,) * (len(cards.build_deck(DECK_COUNTS)) - DEAL * count),
                discard=(),
                hands=((UNSEEN,) * DEAL,) * count,
                up=((),) * count,
                current=0,
                phase=DEALER,
                dealer=0,
                dealer_draws=(),
                skips=(0,) * count,
                hands_mode=PHYSICAL,
                events=("the players choose the dealer and deal six cards each: name the dealer (dealer SEAT)",),
            )
            return ZodiacState(self, table)
        full = cards.build_deck(DECK_COUNTS)
        # Rule text: everyone draws a card; the first to draw an action card deals. ZO-E1: seats draw in
        # turn order from seat 0, one card each, round after round.
        pile, rng = cards.shuffle(full, rng)
        draws: list[tuple[int, Card]] = []
        seat = 0
        while True:
            card = pile[-(len(draws) + 1)]
            draws.append((seat, card))
            if card in ACTION_CARDS:
                break
            seat = (seat + 1) % count
        dealer = seat
        # All cards back; the dealer shuffles and deals 6 each, starting at the dealer's left.
        pile, rng = cards.shuffle(full, rng)
        dealt, pile = cards.deal(pile, count, DEAL)
        hands = tuple(dealt[(seat - dealer - 1) % count] for seat in range(count))
        # Turn up cards until a sign starts the discard pile; ZO-1: action cards turned up go back into
        # the deck, which is shuffled again.
        first, turned, pile = cards.draw_until(pile, is_sign)
        assert first is not None  # 84 signs: the deck cannot run out of them
        if turned:
            pile, rng = cards.shuffle((*pile, *turned), rng)
        table = Table(
            players=count,
            mode=mode,
            rearrange_before_draw=before,
            max_turns=max_turns,
            rng=rng,
            deck=pile,
            discard=(first,),
            hands=hands,
            up=((),) * count,
            current=(dealer + 1) % count,
            phase=TURN,
            dealer=dealer,
            dealer_draws=tuple(draws),
            skips=(0,) * count,
            events=(f"player {dealer} deals; player {(dealer + 1) % count} starts",),
        )
        return ZodiacState(self, table)

    def state_from_json(self, data: Mapping[str, Any]) -> ZodiacState:
        data = jsonutil.check_header(data, self.name, FORMAT_VERSION)
        players = jsonutil.field(data, "players", int)
        self.check_players(players)
        hands_mode = _check_hands(jsonutil.optional(data, "hands_mode", str, DEALT))
        physical = hands_mode == PHYSICAL
        known = set(DECK_COUNTS) | ({UNSEEN} if physical else set())

        def seat(value: Any, what: str) -> int:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
                raise ValueError(f"{what} {value!r} is not a seat of a {players}-player game")
            return value

        def per_seat(name: str) -> tuple[Hand, ...]:
            value = jsonutil.field(data, name, list)
            if len(value) != players:
                raise ValueError(f"field {name!r} needs one entry per seat ({players}), not {len(value)}")
            return tuple(cards.pile_from_json(v, f"{name}[{i}]", known) for i, v in enumerate(value))

        hands = per_seat("hands")
        up = per_seat("up")
        deck = cards.pile_from_json(jsonutil.field(data, "deck", list), "deck", known)
        discard = cards.pile_from_json(jsonutil.field(data, "discard", list), "discard", known)
        held = [c for h in (*hands, *up) for c in h]
        if physical:
            if UNSEEN in (*discard, *(c for u in up for c in u)):
                raise ValueError("the discard pile and the face-up cards are seen: they cannot hold unseen cards")
            cards.check_partly_known_counts(DECK_COUNTS, (*deck, *discard, *held), "saved zodiac state")
        else:
            cards.check_card_counts(DECK_COUNTS, (*deck, *discard, *held), "saved zodiac state")
        phase = jsonutil.field(data, "phase", str)
        phases = (DEALER, OPEN, TURN, DRAWN, PENALTY, OVER) if physical else (TURN, DRAWN, PENALTY, OVER)
        if phase not in phases:
            raise ValueError(f"field 'phase' must be one of {', '.join(phases)}, not {phase!r}")
        skips = jsonutil.field(data, "skips", list)
        if len(skips) != players or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in skips):
            raise ValueError(f"field 'skips' must be {players} whole numbers >= 0, got {skips!r}")
        penalty_data = jsonutil.field(data, "penalty", (dict, type(None)))
        penalty = None
        if penalty_data is not None:
            penalty = Penalty(
                seat(jsonutil.field(penalty_data, "offender", int), "penalty offender"),
                jsonutil.field(penalty_data, "owed", int),
                _check_count(jsonutil.optional(penalty_data, "lost", int, 0), "penalty lost"),
            )
            if penalty.owed < 1:
                raise ValueError(f"penalty owed must be at least 1, not {penalty.owed}")
        if (phase == PENALTY) != (penalty is not None):
            raise ValueError("a penalty is pending exactly when the phase is 'penalty'")
        fresh = jsonutil.field(data, "fresh", (str, type(None)))
        if fresh not in ((None, UNSEEN) if physical else (None, *ACTION_CARDS)):
            wanted = "'?' (a card just drawn) or null" if physical else "sun, moon or null"
            raise ValueError(f"field 'fresh' must be {wanted}, not {fresh!r}")
        draws = jsonutil.field(data, "dealer_draws", list)
        dealer_draws = []
        for index, entry in enumerate(draws):
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str) and entry[1] in known):
                raise ValueError(f"dealer_draws[{index}] must be [seat, card], got {entry!r}")
            dealer_draws.append((seat(entry[0], f"dealer_draws[{index}]"), entry[1]))
        winner = jsonutil.field(data, "winner", (int, type(None)))
        events = jsonutil.field(data, "events", list)
        if not all(isinstance(e, str) for e in events):
            raise ValueError("field 'events' must be a list of strings")
        turns = jsonutil.field(data, "turns", int)
        if turns < 0:
            raise ValueError(f"field 'turns' must be >= 0, not {turns}")
        table = Table(
            players=players,
            mode=_check_mode(jsonutil.field(data, "mode", str)),
            rearrange_before_draw=jsonutil.field(data, "rearrange_before_draw", bool),
            max_turns=_check_max_turns(jsonutil.field(data, "max_turns", (int, type(None)))),
            rng=SeededRandom.from_json(jsonutil.field(data, "rng", dict)),
            deck=deck,
            discard=discard,
            hands=hands,
            up=up,
            current=seat(jsonutil.field(data, "current_player", int), "current_player"),
            phase=phase,
            dealer=seat(jsonutil.field(data, "dealer", int), "dealer"),
            dealer_draws=tuple(dealer_draws),
            fresh=fresh,
            moved_up=cards.pile_from_json(jsonutil.field(data, "moved_up", list), "moved_up", known),
            moved_down=cards.pile_from_json(jsonutil.field(data, "moved_down", list), "moved_down", known),
            skips=tuple(skips),
            locked=jsonutil.field(data, "locked", bool),
            penalty=penalty,
            turns=turns,
            winner=None if winner is None else seat(winner, "winner"),
            events=tuple(events),
            hands_mode=hands_mode,
            revealed=_check_count(jsonutil.optional(data, "revealed", int, 0), "revealed"),
        )
        return ZodiacState(self, table)

    # Zodiac has no piece board; its fields are the LED zones in front of the seats (seat, 0).
    def cells(self, state: State) -> tuple[Cell, ...]:
        return tuple((seat, 0) for seat in range(state.players))

    def format_cell(self, cell: Cell) -> str:
        if cell[1] != 0 or not 0 <= cell[0] < max(self.player_counts):
            raise ValueError(f"{cell} is not a Zodiac seat zone")
        return f"seat{cell[0]}"

    def parse_cell(self, text: str) -> Cell:
        match = re.fullmatch(r"seat([0-7])", text.strip())
        if match is None:
            raise NotationError(f"{text!r} is not a Zodiac seat zone (seat0 to seat7)")
        return (int(match.group(1)), 0)


def _check_mode(value: Any) -> str:
    if value not in MODES:
        raise ValueError(f"mode must be 'referee' or 'table', not {value!r}")
    return value


def _check_count(value: int, name: str) -> int:
    if value < 0:
        raise ValueError(f"field {name!r} must be >= 0, not {value}")
    return value


def _check_hands(value: Any) -> str:
    if value not in HANDS_MODES:
        raise ValueError(f"hands must be 'dealt' or 'physical', not {value!r}")
    return value


def _check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {value!r}")
    return value


def _check_max_turns(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_turns must be a positive whole number or None, not {value!r}")
    return value


class ZodiacState(State):
    __slots__ = ("_game", "_legal", "_seen", "_t")

    def __init__(self, game: Zodiac, table: Table) -> None:
        self._game = game
        self._t = table
        self._legal: tuple[Action, ...] | None = None
        self._seen: dict[Card, int] | None = None

    # --- description -------------------------------------------------------------------------
    @property
    def game(self) -> Zodiac:
        return self._game

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
    def phase(self) -> str:
        return self._t.phase

    @property
    def mode(self) -> str:
        return self._t.mode

    @property
    def winner(self) -> int | None:
        return self._t.winner

    @property
    def turns(self) -> int:
        return self._t.turns

    @property
    def ply(self) -> int:
        return self._t.turns

    @property
    def events(self) -> tuple[str, ...]:
        """What happened in the last step besides the action itself, in words; all public."""
        return self._t.events

    @property
    def hands_mode(self) -> str:
        return self._t.hands_mode

    @property
    def physical(self) -> bool:
        """ZO-E12: real cards at a table; the controller does not know the hands."""
        return self._t.hands_mode == PHYSICAL

    @property
    def skips(self) -> tuple[int, ...]:
        """ZO-3: the turns each seat will skip (public)."""
        return self._t.skips

    def face_up(self, seat: int) -> Hand:
        return self._t.up[seat]

    def hand_size(self, seat: int) -> int:
        return len(self._t.hands[seat])

    def chance_count(self) -> int:
        """How many times hidden cards were shown (draws, reshuffles, hands shown to a player): an
        action across which this count changes cannot be taken back."""
        return self._t.revealed

    def source_of(self, card: Card) -> str | None:
        """ZO-E9 (dealt hands): where the player on turn would play action card `card` from."""
        return self._source(card)

    def is_terminal(self) -> bool:
        return self._t.phase == OVER

    def returns(self) -> tuple[float, ...]:
        t = self._t
        if t.phase != OVER:
            return (0.0,) * t.players
        if t.winner is None:
            return (0.5,) * t.players  # ZO-6, ZO-E11: a game stopped by max_turns is a draw
        return tuple(1.0 if p == t.winner else 0.0 for p in range(t.players))

    # --- what a physical table may hold (ZO-E13) -----------------------------------------------
    def _unaccounted(self, card: Card) -> int:
        """Copies of `card` the controller has not seen anywhere: they may be in any unseen card."""
        if self._seen is None:
            t = self._t
            seen = cards.count_by_id((*t.discard, *(c for u in t.up for c in u), *(c for h in t.hands for c in h)))
            seen.pop(UNSEEN, None)
            self._seen = seen
        return DECK_COUNTS[card] - self._seen.get(card, 0)

    def _may_hold(self, seat: int, card: Card) -> bool:
        """Whether `seat`'s hand may hold `card`: a known copy, or an unseen card that may be one."""
        hand = self._t.hands[seat]
        return card in hand or (UNSEEN in hand and self._unaccounted(card) > 0)

    def _hand_choices(self, seat: int) -> list[Card]:
        """The distinct cards `seat` may hold in the hand, in card order (all of them, when dealt)."""
        hand = self._t.hands[seat]
        if UNSEEN not in hand:
            return _distinct(hand)
        return [c for c in _ORDER if c in hand or self._unaccounted(c) > 0]

    # --- legality ----------------------------------------------------------------------------
    def _missing(self, seat: int) -> frozenset[Card]:
        """ZO-2: the signs a player has neither in hand nor face up."""
        t = self._t
        return SIGN_SET - set(t.hands[seat]) - set(t.up[seat])

    def sun_targets(self) -> tuple[tuple[Card, int], ...]:
        """ZO-2: (sign, seat) pairs the player on turn could take with a Sun, in seat then sign order."""
        t = self._t
        missing = self._missing(t.current)
        targets = []
        for seat in range(t.players):
            if seat == t.current:
                continue
            for card in SIGNS:
                if card in missing and card in t.up[seat]:
                    targets.append((card, seat))
        return tuple(targets)

    def can_take(self) -> bool:
        """ZO-1 and ZO-4: the top discard can be taken if it is a sign and not a penalty card."""
        t = self._t
        return bool(t.discard) and is_sign(t.discard[-1]) and not t.locked

    def _source(self, card: Card) -> str | None:
        """ZO-E9: where an action card is played from: the hand if it holds one, else the face-up area."""
        t = self._t
        if card in t.hands[t.current]:
            return "hand"
        return "up" if card in t.up[t.current] else None

    def _areas(self, card: Card) -> list[str | None]:
        """The `area` values of the plays of action card `card` open to the player on turn.

        Dealt hands: one play, from where ZO-E9 says. Physical hands (ZO-E14): from the hand if it may
        hold one, and from the face-up area if one lies there.
        """
        t = self._t
        if not self.physical:
            return [None] if self._source(card) is not None else []
        areas: list[str | None] = []
        if self._may_hold(t.current, card):
            areas.append("hand")
        if card in t.up[t.current]:
            areas.append("up")
        return areas

    def _area_of(self, card: Card, area: str | None) -> str | None:
        """Where a play with this `area` takes the card from (ZO-E9 when dealt)."""
        return self._source(card) if area is None else area

    def _can_play(self, card: Card, area: str | None) -> bool:
        """Whether an action card may be played from `area` as the turn (before drawing)."""
        t = self._t
        if area not in self._areas(card):
            return False
        if card == SUN and self._area_of(card, area) == "up" and t.mode == "referee":
            # ZO-2: the sign taken goes into the hand; the referee refuses a 7th card in hand (ZO-4).
            return len(t.hands[t.current]) < HAND_LIMIT
        return True

    def _movable_up(self) -> list[Card]:
        t = self._t
        hand, up = t.hands[t.current], t.up[t.current]
        if t.mode == "referee" and len(up) >= UP_LIMIT:
            return []  # ZO-E8: the referee never lets the face-up area exceed 6
        # ZO-5: each card moves at most once per turn; a card moved down stays in the hand.
        unseen = UNSEEN in hand
        return [
            c
            for c in self._hand_choices(t.current)
            if hand.count(c) > t.moved_down.count(c) or (unseen and self._unaccounted(c) > 0)
        ]

    def _movable_down(self) -> list[Card]:
        t = self._t
        up = t.up[t.current]
        return [c for c in _distinct(up) if up.count(c) > t.moved_up.count(c)]

    def _discardable(self) -> list[Card]:
        """ZO-E2: a discard is a sign from the hand; an action card only when the hand holds no sign.

        ZO-E13: with physical hands the controller cannot see whether the hand holds a sign, so any
        card the hand may hold is accepted (the table checks, as it would without the controller).
        """
        choices = self._hand_choices(self._t.current)
        if self.physical:
            return choices
        signs = [c for c in choices if is_sign(c)]
        return signs if signs else choices

    def _ends(self, base: list[Action]) -> list[Action]:
        """Turn-ending actions, with their ZODIAC-call variants in table mode (ZO-E7) and, with
        physical hands, in referee mode where the call may be true (ZO-E15)."""
        t = self._t
        if t.mode != "table" and not self.physical:
            return base
        out: list[Action] = []
        for action in base:
            out.append(action)
            called = replace(action, call=True)
            if t.mode == "table" or self._call_possible(called):
                out.append(called)
        return out

    def _call_possible(self, action: Action) -> bool:
        """ZO-E15: whether the cards after this turn-ending action may make a Zodiac."""
        return _zodiac_possible(self._ending(action), self._t.current)

    def may_call(self) -> bool:
        """ZO-E15 (physical hands): the player on turn may end the turn with a true ZODIAC call, as
        far as the controller can tell from what was shown (so showing it reveals nothing)."""
        if not self.physical or self._t.phase not in (TURN, DRAWN):
            return False
        return any(getattr(a, "call", False) and self._call_possible(a) for a in self.legal_actions())

    def legal_actions(self) -> tuple[Action, ...]:
        if self._legal is None:
            self._legal = tuple(self._compute_legal())
        return self._legal

    def _compute_legal(self) -> list[Action]:
        t = self._t
        if t.phase == OVER:
            return []
        me = t.current
        hand, up = t.hands[me], t.up[me]
        if t.phase == DEALER:
            return [Dealer(seat) for seat in range(t.players)]
        if t.phase == OPEN:
            return [Open(sign) for sign in SIGNS]
        if t.phase == PENALTY:
            assert t.penalty is not None
            off = t.penalty.offender
            loses: list[Action] = [Lose("up", c) for c in _distinct_signs(t.up[off])]
            loses.extend(Lose("hand", c) for c in self._hand_choices(off) if is_sign(c))
            if self.physical and not _distinct_signs(t.up[off]) and self._may_lack_signs(off):
                loses.append(SPARE)  # ZO-E6: the chooser sees no sign in the cards shown
            return loses
        actions: list[Action] = []
        if t.phase == TURN:
            starts: list[Action] = []
            if t.deck:
                starts.append(DRAW)
            if self.can_take():
                starts.append(TAKE)
            actions.extend(starts)
            for area in self._areas(SUN):
                if self._can_play(SUN, area):
                    # Rule text: played from the player's own cards, a Sun is the whole turn (ZO-2).
                    actions.extend(self._ends([PlaySun(c, s, area=area) for c, s in self.sun_targets()]))
            for area in self._areas(MOON):
                actions.extend(self._ends([PlayMoon(area=area)]))
            if not actions:
                actions.extend(self._ends([Pass()]))  # ZO-E4: nothing possible, the turn passes
            if t.rearrange_before_draw:  # ZO-5 option: the English text allows it before drawing
                actions.extend(Up(c) for c in self._movable_up())
                actions.extend(Down(c) for c in self._movable_down())
            return actions
        # DRAWN
        fresh_area = "hand" if self.physical else None
        if t.fresh == SUN or (t.fresh == UNSEEN and self._unaccounted(SUN) > 0):
            # ZO-2: at once, the turn goes on. ZO-E13: an unseen card just drawn may be a Sun.
            actions.extend(PlaySun(c, s, area=fresh_area) for c, s in self.sun_targets())
        if t.fresh == MOON or (t.fresh == UNSEEN and self._unaccounted(MOON) > 0):
            actions.extend(self._ends([PlayMoon(area=fresh_area)]))  # ZO-3: at once, ends the turn
        actions.extend(Up(c) for c in self._movable_up())
        actions.extend(Down(c) for c in self._movable_down())
        referee = t.mode == "referee"
        discards: list[Action] = []
        for card in self._discardable():
            rest = take_card(hand, card)
            if not referee or not over_limits(rest, up):
                discards.append(Discard(card))
        actions.extend(self._ends(discards))
        if not referee or not over_limits(hand, up):
            actions.extend(self._ends([Pass()]))
        return actions

    def apply(self, action: Action) -> ZodiacState:
        if action not in self.legal_actions():
            raise IllegalAction(self._why_illegal(action))
        t = self._t
        me = t.current
        hand, up = t.hands[me], t.up[me]
        if isinstance(action, Dealer):
            # ZO-E12: the dealer turns up the card that starts the discard pile.
            event = f"player {action.seat} deals; name the sign turned up to start the discard pile (open SIGN)"
            return self._next(replace(t, dealer=action.seat, current=action.seat, phase=OPEN, events=(event,)))
        if isinstance(action, Open):
            first = (t.dealer + 1) % t.players
            event = f"{card_name(action.card)} starts the discard pile; player {first} starts"
            return self._next(
                replace(
                    t,
                    deck=t.deck[1:],
                    discard=(action.card,),
                    current=first,
                    phase=TURN,
                    events=(event,),
                )
            )
        if isinstance(action, Lose):
            return self._lose(action)
        if isinstance(action, Spare):
            assert t.penalty is not None
            off = t.penalty.offender
            event = f"player {off} shows no sign: nothing more is lost"
            after = replace(t, penalty=None, events=(event,))
            return self._pass_turn(after, off, lock=t.penalty.lost > 0)
        if isinstance(action, Draw):
            (card,), deck = cards.draw(t.deck)
            # ZO-E13: a physical draw is unseen; whatever it is may be played at once if an action card.
            fresh = UNSEEN if card == UNSEEN else card if card in ACTION_CARDS else None
            return self._next(
                replace(
                    t,
                    deck=deck,
                    hands=_with_seat(t.hands, me, (*hand, card)),
                    phase=DRAWN,
                    fresh=fresh,
                    revealed=t.revealed + 1,
                    events=(),
                )
            )
        if isinstance(action, Take):
            card = t.discard[-1]
            return self._next(
                replace(
                    t,
                    discard=t.discard[:-1],
                    hands=_with_seat(t.hands, me, (*hand, card)),
                    phase=DRAWN,
                    fresh=None,
                    events=(),
                )
            )
        if isinstance(action, Up):
            # ZO-5: a card moved down this turn stays in the hand, so another copy (maybe unseen) moves.
            if hand.count(action.card) > t.moved_down.count(action.card):
                rest = cards.remove_card(hand, action.card)
            else:
                rest = cards.remove_card(hand, UNSEEN)
            return self._next(
                replace(
                    t,
                    hands=_with_seat(t.hands, me, rest),
                    up=_with_seat(t.up, me, (*up, action.card)),
                    moved_up=(*t.moved_up, action.card),
                    fresh=None,
                    events=(),
                )
            )
        if isinstance(action, Down):
            return self._next(
                replace(
                    t,
                    up=_with_seat(t.up, me, cards.remove_card(up, action.card)),
                    hands=_with_seat(t.hands, me, (*hand, action.card)),
                    moved_down=(*t.moved_down, action.card),
                    fresh=None,
                    events=(),
                )
            )
        if isinstance(action, PlaySun) and t.phase == DRAWN:
            return self._next(self._ending(action))  # ZO-2: drawn and played at once, the draw turn goes on
        assert isinstance(action, ENDING)
        return self._end_turn(self._ending(action), action.call)

    def _ending(self, action: Action) -> Table:
        """The table after the cards of a Sun, Black Moon, discard or pass have moved, before the end
        of the turn is settled (calls, limits, the next player)."""
        t = self._t
        me = t.current
        hand, up = t.hands[me], t.up[me]
        if isinstance(action, PlaySun):
            if self._area_of(SUN, action.area) == "hand":
                hands = _with_seat(t.hands, me, (*take_card(hand, SUN), action.card))
                ups = t.up
            else:
                hands = _with_seat(t.hands, me, (*hand, action.card))
                ups = _with_seat(t.up, me, cards.remove_card(up, SUN))
            ups = _with_seat(ups, action.seat, cards.remove_card(ups[action.seat], action.card))
            event = f"player {me} plays a Sun and takes {card_name(action.card)} from player {action.seat}"
            return replace(t, hands=hands, up=ups, discard=(*t.discard, SUN), fresh=None, events=(event,))
        if isinstance(action, PlayMoon):
            skips = list(t.skips)
            skips[(me + 1) % t.players] += 1  # ZO-3: skips accumulate on the next player
            event = f"player {me} plays a Black Moon: player {(me + 1) % t.players} skips a turn"
            if self._area_of(MOON, action.area) == "hand":
                hands, ups = _with_seat(t.hands, me, take_card(hand, MOON)), t.up
            else:
                hands, ups = t.hands, _with_seat(t.up, me, cards.remove_card(up, MOON))
            return replace(
                t,
                hands=hands,
                up=ups,
                discard=(*t.discard, MOON),
                skips=tuple(skips),
                fresh=None,
                events=(event,),
            )
        if isinstance(action, Discard):
            return replace(
                t,
                hands=_with_seat(t.hands, me, take_card(hand, action.card)),
                discard=(*t.discard, action.card),
                events=(),
            )
        assert isinstance(action, Pass)
        return replace(t, events=())

    def _next(self, table: Table) -> ZodiacState:
        return ZodiacState(self._game, table)

    def _end_turn(self, t: Table, call: bool) -> ZodiacState:
        """The end of a turn: the call or the referee's check, penalties, then the turn passes."""
        me = t.current
        hand, up = t.hands[me], t.up[me]
        events = list(t.events)
        owed = 0
        skips = list(t.skips)
        physical = t.hands_mode == PHYSICAL
        revealed = t.revealed
        if t.mode == "referee" and not physical and has_zodiac(hand, up):
            # ZO-4: the referee detects a completed Zodiac itself.
            events.append(f"player {me} completes the Zodiac and wins")
            return self._next(replace(t, phase=OVER, winner=me, turns=t.turns + 1, events=tuple(events)))
        if call:
            # ZO-E7: the hand is shown to everyone. ZO-E15: with physical hands the controller accepts a
            # call that may be true; the table sees the cards.
            revealed += 1
            shown = "their hand" if physical else " ".join(sorted(hand, key=_order))
            if _zodiac_possible(t, me) if physical else has_zodiac(hand, up):
                events.append(f"player {me} calls ZODIAC, shows {shown} and wins")
                return self._next(
                    replace(t, phase=OVER, winner=me, turns=t.turns + 1, revealed=revealed, events=tuple(events))
                )
            events.append(f"player {me} calls ZODIAC and shows {shown or 'no cards'}: a false call costs two signs")
            owed += 2  # rule text: a false call costs two signs chosen by an opponent
        if t.mode == "table" and over_limits(hand, up):
            events.append(
                f"player {me} ends the turn over the limits ({len(hand)} in hand, "
                f"{len(up)} face up): one sign lost and a turn skipped"
            )
            owed += 1  # rule text: one sign chosen by another player, and a skipped turn
            skips[me] += 1
        t = replace(t, skips=tuple(skips), revealed=revealed, events=tuple(events))
        if owed and ZodiacState(self._game, t)._loseable(me):
            # ZO-E6: without signs nothing more is lost; the offender shows the cards to the chooser.
            chooser = (me + 1) % t.players  # ZO-4: the next player chooses
            events.append(f"player {chooser} chooses the sign(s) player {me} loses")
            return self._next(
                replace(
                    t,
                    phase=PENALTY,
                    penalty=Penalty(me, owed),
                    current=chooser,
                    fresh=None,
                    moved_up=(),
                    moved_down=(),
                    revealed=t.revealed + (0 if call else 1),
                    events=tuple(events),
                )
            )
        if owed:
            events.append(f"player {me} has no sign to lose")
            t = replace(t, events=tuple(events))
        return self._pass_turn(t, me, lock=False)

    def _lose(self, action: Lose) -> ZodiacState:
        t = self._t
        assert t.penalty is not None
        off = t.penalty.offender
        if action.area == "up":
            ups = _with_seat(t.up, off, cards.remove_card(t.up[off], action.card))
            hands = t.hands
        else:
            hands = _with_seat(t.hands, off, take_card(t.hands[off], action.card))
            ups = t.up
        where = "face up" if action.area == "up" else "from the hand"
        event = f"player {off} loses {card_name(action.card)} ({where})"
        owed = t.penalty.owed - 1
        after = replace(t, hands=hands, up=ups, discard=(*t.discard, action.card), events=(event,))
        if owed and ZodiacState(self._game, after)._loseable(off):
            return self._next(replace(after, penalty=Penalty(off, owed, t.penalty.lost + 1)))
        # ZO-4: a card lost to a penalty cannot be drawn by the next player; ZO-E10: it stays locked
        # until the end of the next turn played.
        return self._pass_turn(replace(after, penalty=None), off, lock=True)

    def _may_lack_signs(self, seat: int) -> bool:
        """Whether `seat`'s hand may hold no sign: its known cards are action cards and its unseen
        cards may all be action cards too."""
        hand = self._t.hands[seat]
        if any(is_sign(c) for c in hand):
            return False
        return hand.count(UNSEEN) <= self._unaccounted(SUN) + self._unaccounted(MOON)

    def _loseable(self, seat: int) -> bool:
        """Whether `seat` may still hold a sign to lose (ZO-E6)."""
        return any(is_sign(c) for c in self._t.up[seat]) or any(is_sign(c) for c in self._hand_choices(seat))

    def _pass_turn(self, t: Table, ended: int, lock: bool) -> ZodiacState:
        """The turn of `ended` is over: recycle the deck if needed, then find the next player."""
        events = list(t.events)
        deck, discard, rng, revealed = t.deck, t.discard, t.rng, t.revealed
        if not deck and len(discard) >= 2:
            # Rule text and ZO-E5: the discard pile but its top card becomes the new deck. ZO-E13: at a
            # physical table the players shuffle it; its cards are unseen again.
            if t.hands_mode == PHYSICAL:
                deck, discard = (UNSEEN,) * (len(discard) - 1), discard[-1:]
            else:
                deck, discard, rng = cards.recycle(discard, rng, keep_top=1)
            revealed += 1
            events.append("the deck is empty: the discard pile is shuffled into a new deck")
        turns = t.turns + 1
        common = dict(
            deck=deck,
            discard=discard,
            rng=rng,
            turns=turns,
            fresh=None,
            moved_up=(),
            moved_down=(),
            penalty=None,
            locked=lock,
            revealed=revealed,
        )
        if t.max_turns is not None and turns >= t.max_turns:
            events.append(f"{turns} turns played: the game ends in a draw (ZO-6)")
            return self._next(replace(t, phase=OVER, events=tuple(events), **common))
        skips = list(t.skips)
        seat = (ended + 1) % t.players
        while skips[seat] > 0:  # ZO-3: a skipped player is passed over, one skip per pass
            skips[seat] -= 1
            events.append(f"player {seat} skips a turn")
            seat = (seat + 1) % t.players
        return self._next(replace(t, phase=TURN, current=seat, skips=tuple(skips), events=tuple(events), **common))

    def _not_held(self, seat: int, card: Card) -> str:
        """Why `seat` cannot play or move `card` from the hand."""
        if not self.physical:
            return f"there is no {card_name(card)} in {'your' if seat == self._t.current else 'their'} hand"
        if UNSEEN not in self._t.hands[seat]:
            return f"every card in that hand has been seen, and none is a {card_name(card)}"
        return f"all {DECK_COUNTS[card]} copies of {card_name(card)} have been seen elsewhere (ZO-E13)"

    def _why_illegal(self, action: Action) -> str:
        t = self._t
        if t.phase == OVER:
            return "the game is over"
        me = t.current
        hand, up = t.hands[me], t.up[me]
        kinds = (Dealer, Open, Draw, Take, PlaySun, PlayMoon, Up, Down, Discard, Pass, Lose, Spare)
        if not isinstance(action, kinds):
            return f"{action!r} is not a Zodiac action"
        if t.phase == DEALER:
            if isinstance(action, Dealer):
                return f"player {action.seat} is not at this table (seats 0 to {t.players - 1})"
            return "first name the dealer (dealer SEAT): the player who drew the first action card (ZO-E12)"
        if t.phase == OPEN:
            if isinstance(action, Open):
                return "the discard pile starts with a sign: action cards turned up go back into the deck (ZO-1)"
            return "name the sign the dealer turned up to start the discard pile (open SIGN) (ZO-E12)"
        if isinstance(action, Dealer | Open):
            return "the dealer and the first discard are named only before the first turn, at a physical table"
        if t.phase == PENALTY:
            assert t.penalty is not None
            off = t.penalty.offender
            if isinstance(action, Spare):
                if not self.physical:
                    return "the controller sees the cards: it knows whether a sign is left to lose"
                return f"player {off} still holds a sign to lose"
            if not isinstance(action, Lose):
                return f"player {me} must first choose the sign player {off} loses (lose up|hand SIGN)"
            if not is_sign(action.card):
                return "a penalty costs signs, not action cards (rule text)"
            if action.area == "up":
                return f"player {off} shows no {card_name(action.card)} face up"
            return self._not_held(off, action.card)
        if isinstance(action, Lose | Spare):
            return "no penalty is being paid"
        if getattr(action, "call", False):
            if t.mode != "table" and not self.physical:
                return "ZODIAC is called only in table mode; the referee detects a completed Zodiac itself (ZO-4)"
            fresh_sun = t.phase == DRAWN and isinstance(action, PlaySun)
            if not fresh_sun and replace(action, call=False) in self.legal_actions():
                reason = _why_no_zodiac(self._ending(action), me)
                return f"that ZODIAC call cannot be true: {reason} (ZO-E15)"
        drawn = t.phase == DRAWN
        if isinstance(action, Draw | Take):
            if drawn:
                return "you have already drawn this turn"
            if isinstance(action, Draw):
                return "the deck is empty"
            if not t.discard:
                return "the discard pile is empty"
            if t.locked:
                return "the top discard was lost to a penalty: the next player may not take it (ZO-4)"
            return (
                f"{card_name(t.discard[-1])} is an action card: action cards are never taken from the "
                "discard pile (ZO-1)"
            )
        if isinstance(action, PlaySun | PlayMoon):
            card = SUN if isinstance(action, PlaySun) else MOON
            name = card_name(card)
            if drawn:
                if t.fresh not in (card, UNSEEN):
                    return f"after drawing, only a {name} just drawn may be played, and only at once (ZO-2, ZO-3)"
                if t.fresh == UNSEEN and self._unaccounted(card) == 0:
                    return f"all {DECK_COUNTS[card]} copies of {name} have been seen: the card you drew is not one"
                if action.area not in (None, "hand"):
                    return f"only the {name} just drawn may be played now, from your hand (ZO-2, ZO-3)"
            elif action.area not in self._areas(card):
                if self.physical and action.area is None:
                    return (
                        f"at a physical table say where the {name} comes from: from the hand, or from the "
                        f"face-up area with '{FACE_UP_WORD}' (ZO-E14)"
                    )
                if action.area == "up":
                    return f"you show no {name} face up"
                if action.area == "hand":
                    return self._not_held(me, card)
                return f"you hold no {name}"
            if isinstance(action, PlaySun):
                if not drawn and not self._can_play(SUN, action.area):
                    return (
                        "your Sun lies face up and your hand is full: the sign taken would be a 7th card "
                        "in your hand (ZO-2, ZO-4)"
                    )
                if drawn and action.call:
                    return "a Sun played at once does not end the turn: call ZODIAC when you end it"
                if not self.sun_targets():
                    return "no player shows a sign you are missing: the Sun cannot be used now (rule text)"
                if action.seat == me or not 0 <= action.seat < t.players:
                    return f"player {action.seat} is not an opponent"
                if action.card not in self._missing(me):
                    return f"you already have {card_name(action.card)}: a Sun takes a missing sign (ZO-2)"
                return f"player {action.seat} shows no {card_name(action.card)} face up"
            return "you cannot play that now"
        if isinstance(action, Up | Down):
            if not drawn and not t.rearrange_before_draw:
                return "cards are rearranged only after drawing (ZO-5)"
            if isinstance(action, Up) and not self._may_hold(me, action.card):
                return self._not_held(me, action.card)
            if isinstance(action, Down) and action.card not in up:
                return f"there is no {card_name(action.card)} in your face-up cards"
            if isinstance(action, Up) and t.mode == "referee" and len(up) >= UP_LIMIT:
                return f"you already show {UP_LIMIT} cards face up, the most allowed"
            return f"that {card_name(action.card)} has already moved this turn (ZO-5: each card moves once)"
        if isinstance(action, Discard | Pass):
            if not drawn:
                if isinstance(action, Pass):
                    return "you can still draw, take or play an action card: pass only after drawing"
                return "draw or take a card first: a discard ends a draw turn"
            if isinstance(action, Pass):
                return (
                    f"you hold {len(hand)} in hand and {len(up)} face up: at most {HAND_LIMIT} in hand "
                    f"and {TOTAL_LIMIT} in all at the end of a turn, so discard one"
                )
            if not self._may_hold(me, action.card):
                return self._not_held(me, action.card)
            if not is_sign(action.card) and not self.physical:
                return "action cards are played, not discarded, while you hold a sign (ZO-E2)"
            return (
                f"after that discard you would still hold {len(hand) - 1} in hand and {len(up)} face up: "
                "more than the limits allow"
            )
        return "you cannot do that now"

    # --- notation ----------------------------------------------------------------------------
    def action_to_str(self, action: Action) -> str:
        text = _action_text(action)
        return f"{text} zodiac" if getattr(action, "call", False) else text

    def parse_action(self, text: str) -> Action:
        raw = " ".join(text.strip().lower().split())
        call = False
        if raw.endswith(" zodiac") or raw == "zodiac":
            call, raw = True, raw.removesuffix("zodiac").strip() or "pass"
        # ZO-E14: with physical hands an action card comes from the hand unless `faceup` says otherwise;
        # with dealt hands the engine knows where it is (ZO-E9), so the word changes nothing.
        area: str | None = "hand" if self.physical else None
        if raw.endswith(f" {FACE_UP_WORD}") and raw.split(" ")[0] in ("sun", "moon"):
            raw = raw.removesuffix(FACE_UP_WORD).strip()
            area = "up" if self.physical else None
        word, _, rest = raw.partition(" ")
        action: Action
        if word == "dealer" and rest.isdigit():
            action = Dealer(int(rest))
        elif word == "open" and rest:
            action = Open(parse_card(rest))
        elif word == "draw" and not rest:
            action = DRAW
        elif word == "take" and not rest:
            action = TAKE
        elif word == "moon" and not rest:
            action = PlayMoon(area=area)
        elif word == "pass" and not rest:
            action = Pass()
        elif word in ("up", "down") and rest:
            action = Up(parse_card(rest)) if word == "up" else Down(parse_card(rest))
        elif word == "discard" and rest:
            action = Discard(parse_card(rest))
        elif word == "lose" and rest == "nothing":
            action = SPARE
        elif word == "lose" and rest.partition(" ")[0] in ("up", "hand") and rest.partition(" ")[2]:
            area, _, card = rest.partition(" ")
            action = Lose(area, parse_card(card))
        elif word == "sun" and (match := _SUN_TEXT.fullmatch(raw)):
            action = PlaySun(parse_card(match.group(1)), int(match.group(2)), area=area)
        else:
            raise NotationError(
                f"{text!r} is not a Zodiac action (draw, take, sun SIGN@SEAT, moon, up SIGN, down SIGN, "
                "discard CARD, pass, lose up|hand SIGN; add 'zodiac' to call; at a physical table also "
                f"'{FACE_UP_WORD}' after sun/moon, dealer SEAT, open SIGN)"
            )
        if call:
            if not isinstance(action, ENDING):
                raise NotationError(f"{text!r}: ZODIAC is called only with an action that ends the turn")
            action = replace(action, call=True)
        return action

    # --- views -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        t = self._t
        return {
            **jsonutil.header(self._game.name, FORMAT_VERSION),
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

    def observation(self, player: int) -> dict[str, Any]:
        """Own hand only; other hands and the deck as counts; an offender's hand only to its chooser.

        With physical hands the controller's hands hold unseen cards ('?') and what was shown of them."""
        t = self._t
        data: dict[str, Any] = {
            "game": self._game.name,
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
            "terminal": self.is_terminal(),
            "returns": list(self.returns()),
            "events": list(t.events),
            # What was drawn is seen only by the player who drew it.
            "fresh": t.fresh if player == t.current else None,
            "penalty": None,
        }
        if t.penalty is not None:
            penalty: dict[str, Any] = {"offender": t.penalty.offender, "owed": t.penalty.owed}
            if player == t.current:
                # ZO-E6: the offender shows their cards to the player who chooses.
                penalty["shown"] = list(t.hands[t.penalty.offender])
            data["penalty"] = penalty
        return data

    def occupancy(self) -> Occupancy:
        return {}  # no pieces: the cards are not seen by the piece sensors

    def marks(self) -> dict[Cell, Mark]:
        """Seat zones: whose turn (green), who chooses a penalty (amber), pending skips (red), the winner;
        with physical hands a player on turn who may call ZODIAC (white, ZO-E15)."""
        t = self._t
        marks: dict[Cell, Mark] = {}
        for seat in range(t.players):
            if t.skips[seat]:
                marks[(seat, 0)] = Mark("skip", "red", seat)
        if t.phase == OVER:
            if t.winner is not None:
                marks[(t.winner, 0)] = Mark("winner", "green", t.winner)
        elif t.phase == PENALTY:
            marks[(t.current, 0)] = Mark("choose", "amber", t.current)
        elif self.may_call():
            marks[(t.current, 0)] = Mark("call", "white", t.current)  # ZO-E15: shows nothing hidden
        elif t.phase in (TURN, DRAWN):
            marks[(t.current, 0)] = Mark("turn", "green", t.current)
        return marks

    def __repr__(self) -> str:
        return f"<ZodiacState turn={self._t.turns} player={self._t.current} phase={self._t.phase}>"


def _action_text(action: Action) -> str:
    if isinstance(action, Dealer):
        return f"dealer {action.seat}"
    if isinstance(action, Open):
        return f"open {action.card}"
    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, Take):
        return "take"
    face_up = f" {FACE_UP_WORD}" if getattr(action, "area", None) == "up" else ""
    if isinstance(action, PlaySun):
        return f"sun {action.card}@{action.seat}{face_up}"
    if isinstance(action, PlayMoon):
        return f"moon{face_up}"
    if isinstance(action, Up):
        return f"up {action.card}"
    if isinstance(action, Down):
        return f"down {action.card}"
    if isinstance(action, Discard):
        return f"discard {action.card}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Lose):
        return f"lose {action.area} {action.card}"
    if isinstance(action, Spare):
        return "lose nothing"
    raise NotationError(f"{action!r} is not a Zodiac action")


_ORDER = {card: index for index, card in enumerate((*SIGNS, SUN, MOON))}


def _order(card: Card) -> int:
    return _ORDER.get(card, len(_ORDER))


def _distinct(items: Hand) -> list[Card]:
    """The distinct cards of a hand in the fixed card order (signs, Sun, Black Moon)."""
    return sorted(set(items), key=_order)


def _distinct_signs(items: Hand) -> list[Card]:
    return [c for c in _distinct(items) if is_sign(c)]
