"""Zodiac (ChefGames, design Giacomo Gianlorenzi): be the first to hold all twelve signs, six face down
and six face up, with no duplicates and no action cards.

Rule text: shared/rules/seeds/zodiac.txt; rulings ZO-1 to ZO-6: shared/rules/zodiac.md. Where both
are silent the engine decides; those decisions carry ids ZO-E1 ... and are explained in
docs/games/zodiac.md.

A turn is several actions by the same player: draw (or take the top discard), then rearrange cards
between hand and face-up area one card at a time, then discard or pass. Playing an action card from
the hand is a turn of its own.
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
from controller.games.cards import Card, Hand, Pile
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

# Phases of a turn.
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
    """ZO-2: play a Sun to take `card` from `seat`'s face-up cards into the hand."""

    card: Card
    seat: int
    call: bool = False


@dataclass(frozen=True, slots=True)
class PlayMoon:
    """ZO-3: lay a Black Moon on the discard pile; the next player skips a turn."""

    call: bool = False


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

ENDING = (PlaySun, PlayMoon, Discard, Pass)
_SUN_TEXT = re.compile(r"sun\s+([a-z ]+?)\s*@\s*([0-9]+)")


@dataclass(frozen=True, slots=True)
class Penalty:
    """ZO-4: an offender still owes `owed` signs, chosen by the player on turn."""

    offender: int
    owed: int


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
        rng = SeededRandom(seed)
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
        known = set(DECK_COUNTS)

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
        cards.check_card_counts(DECK_COUNTS, (*deck, *discard, *held), "saved zodiac state")
        phase = jsonutil.field(data, "phase", str)
        if phase not in (TURN, DRAWN, PENALTY, OVER):
            raise ValueError(f"field 'phase' must be one of turn, drawn, penalty, over, not {phase!r}")
        skips = jsonutil.field(data, "skips", list)
        if len(skips) != players or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in skips):
            raise ValueError(f"field 'skips' must be {players} whole numbers >= 0, got {skips!r}")
        penalty_data = jsonutil.field(data, "penalty", (dict, type(None)))
        penalty = None
        if penalty_data is not None:
            penalty = Penalty(
                seat(jsonutil.field(penalty_data, "offender", int), "penalty offender"),
                jsonutil.field(penalty_data, "owed", int),
            )
            if penalty.owed < 1:
                raise ValueError(f"penalty owed must be at least 1, not {penalty.owed}")
        if (phase == PENALTY) != (penalty is not None):
            raise ValueError("a penalty is pending exactly when the phase is 'penalty'")
        fresh = jsonutil.field(data, "fresh", (str, type(None)))
        if fresh is not None and fresh not in ACTION_CARDS:
            raise ValueError(f"field 'fresh' must be sun, moon or null, not {fresh!r}")
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
    __slots__ = ("_game", "_legal", "_t")

    def __init__(self, game: Zodiac, table: Table) -> None:
        self._game = game
        self._t = table
        self._legal: tuple[Action, ...] | None = None

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

    def face_up(self, seat: int) -> Hand:
        return self._t.up[seat]

    def is_terminal(self) -> bool:
        return self._t.phase == OVER

    def returns(self) -> tuple[float, ...]:
        t = self._t
        if t.phase != OVER:
            return (0.0,) * t.players
        if t.winner is None:
            return (0.5,) * t.players  # ZO-6, ZO-E11: a game stopped by max_turns is a draw
        return tuple(1.0 if p == t.winner else 0.0 for p in range(t.players))

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

    def _can_play(self, card: Card) -> bool:
        """Whether an action card may be played as the turn (before drawing)."""
        t = self._t
        source = self._source(card)
        if source is None:
            return False
        if card == SUN and source == "up" and t.mode == "referee":
            # ZO-2: the sign taken goes into the hand; the referee refuses a 7th card in hand (ZO-4).
            return len(t.hands[t.current]) < HAND_LIMIT
        return True

    def _movable_up(self) -> list[Card]:
        t = self._t
        hand, up = t.hands[t.current], t.up[t.current]
        if t.mode == "referee" and len(up) >= UP_LIMIT:
            return []  # ZO-E8: the referee never lets the face-up area exceed 6
        # ZO-5: each card moves at most once per turn; a card moved down stays in the hand.
        return [c for c in _distinct(hand) if hand.count(c) > t.moved_down.count(c)]

    def _movable_down(self) -> list[Card]:
        t = self._t
        up = t.up[t.current]
        return [c for c in _distinct(up) if up.count(c) > t.moved_up.count(c)]

    def _discardable(self) -> list[Card]:
        """ZO-E2: a discard is a sign from the hand; an action card only when the hand holds no sign."""
        hand = self._t.hands[self._t.current]
        signs = [c for c in _distinct(hand) if is_sign(c)]
        return signs if signs else _distinct(hand)

    def _ends(self, base: list[Action]) -> list[Action]:
        """Turn-ending actions, with their ZODIAC-call variants in table mode (ZO-E7)."""
        if self._t.mode != "table":
            return base
        out: list[Action] = []
        for action in base:
            out.append(action)
            out.append(replace(action, call=True))
        return out

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
        if t.phase == PENALTY:
            assert t.penalty is not None
            off = t.penalty.offender
            return [Lose("up", c) for c in _distinct_signs(t.up[off])] + [
                Lose("hand", c) for c in _distinct_signs(t.hands[off])
            ]
        actions: list[Action] = []
        if t.phase == TURN:
            starts: list[Action] = []
            if t.deck:
                starts.append(DRAW)
            if self.can_take():
                starts.append(TAKE)
            actions.extend(starts)
            if self._can_play(SUN):
                # Rule text: played from the player's own cards, a Sun is the whole turn (ZO-2).
                actions.extend(self._ends([PlaySun(c, s) for c, s in self.sun_targets()]))
            if self._can_play(MOON):
                actions.extend(self._ends([PlayMoon()]))
            if not actions:
                actions.extend(self._ends([Pass()]))  # ZO-E4: nothing possible, the turn passes
            if t.rearrange_before_draw:  # ZO-5 option: the English text allows it before drawing
                actions.extend(Up(c) for c in self._movable_up())
                actions.extend(Down(c) for c in self._movable_down())
            return actions
        # DRAWN
        if t.fresh == SUN:
            actions.extend(PlaySun(c, s) for c, s in self.sun_targets())  # ZO-2: at once, turn goes on
        elif t.fresh == MOON:
            actions.extend(self._ends([PlayMoon()]))  # ZO-3: at once, ends the turn
        actions.extend(Up(c) for c in self._movable_up())
        actions.extend(Down(c) for c in self._movable_down())
        referee = t.mode == "referee"
        discards: list[Action] = []
        for card in self._discardable():
            rest = cards.remove_card(hand, card)
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
        if isinstance(action, Lose):
            return self._lose(action)
        if isinstance(action, Draw):
            (card,), deck = cards.draw(t.deck)
            fresh = card if card in ACTION_CARDS else None
            return self._next(
                replace(
                    t,
                    deck=deck,
                    hands=_with_seat(t.hands, me, (*hand, card)),
                    phase=DRAWN,
                    fresh=fresh,
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
            return self._next(
                replace(
                    t,
                    hands=_with_seat(t.hands, me, cards.remove_card(hand, action.card)),
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
        if isinstance(action, PlaySun):
            if self._source(SUN) == "hand":
                hands = _with_seat(t.hands, me, (*cards.remove_card(hand, SUN), action.card))
                ups = t.up
            else:
                hands = _with_seat(t.hands, me, (*hand, action.card))
                ups = _with_seat(t.up, me, cards.remove_card(up, SUN))
            ups = _with_seat(ups, action.seat, cards.remove_card(ups[action.seat], action.card))
            event = f"player {me} plays a Sun and takes {card_name(action.card)} from player {action.seat}"
            after = replace(t, hands=hands, up=ups, discard=(*t.discard, SUN), fresh=None, events=(event,))
            if t.phase == DRAWN:
                return self._next(after)  # ZO-2: drawn and played at once, the draw turn goes on
            return self._end_turn(after, action.call)
        if isinstance(action, PlayMoon):
            skips = list(t.skips)
            skips[(me + 1) % t.players] += 1  # ZO-3: skips accumulate on the next player
            event = f"player {me} plays a Black Moon: player {(me + 1) % t.players} skips a turn"
            if self._source(MOON) == "hand":
                hands, ups = _with_seat(t.hands, me, cards.remove_card(hand, MOON)), t.up
            else:
                hands, ups = t.hands, _with_seat(t.up, me, cards.remove_card(up, MOON))
            after = replace(
                t,
                hands=hands,
                up=ups,
                discard=(*t.discard, MOON),
                skips=tuple(skips),
                fresh=None,
                events=(event,),
            )
            return self._end_turn(after, action.call)
        if isinstance(action, Discard):
            after = replace(
                t,
                hands=_with_seat(t.hands, me, cards.remove_card(hand, action.card)),
                discard=(*t.discard, action.card),
                events=(),
            )
            return self._end_turn(after, action.call)
        assert isinstance(action, Pass)
        return self._end_turn(replace(t, events=()), action.call)

    def _next(self, table: Table) -> ZodiacState:
        return ZodiacState(self._game, table)

    def _end_turn(self, t: Table, call: bool) -> ZodiacState:
        """The end of a turn: the call or the referee's check, penalties, then the turn passes."""
        me = t.current
        hand, up = t.hands[me], t.up[me]
        events = list(t.events)
        owed = 0
        skips = list(t.skips)
        if t.mode == "referee":
            # ZO-4: the referee detects a completed Zodiac itself.
            if has_zodiac(hand, up):
                events.append(f"player {me} completes the Zodiac and wins")
                return self._next(replace(t, phase=OVER, winner=me, turns=t.turns + 1, events=tuple(events)))
        else:
            if call:
                shown = " ".join(sorted(hand, key=_order))
                if has_zodiac(hand, up):
                    events.append(f"player {me} calls ZODIAC, shows {shown} and wins")
                    return self._next(replace(t, phase=OVER, winner=me, turns=t.turns + 1, events=tuple(events)))
                events.append(f"player {me} calls ZODIAC and shows {shown or 'no cards'}: a false call costs two signs")
                owed += 2  # rule text: a false call costs two signs chosen by an opponent
            if over_limits(hand, up):
                events.append(
                    f"player {me} ends the turn over the limits ({len(hand)} in hand, "
                    f"{len(up)} face up): one sign lost and a turn skipped"
                )
                owed += 1  # rule text: one sign chosen by another player, and a skipped turn
                skips[me] += 1
        t = replace(t, skips=tuple(skips), events=tuple(events))
        if owed and any(is_sign(c) for c in (*hand, *up)):  # ZO-E6: without signs nothing more is lost
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
            hands = _with_seat(t.hands, off, cards.remove_card(t.hands[off], action.card))
            ups = t.up
        where = "face up" if action.area == "up" else "from the hand"
        event = f"player {off} loses {card_name(action.card)} ({where})"
        owed = t.penalty.owed - 1
        after = replace(t, hands=hands, up=ups, discard=(*t.discard, action.card), events=(event,))
        if owed and any(is_sign(c) for c in (*hands[off], *ups[off])):
            return self._next(replace(after, penalty=Penalty(off, owed)))
        # ZO-4: a card lost to a penalty cannot be drawn by the next player; ZO-E10: it stays locked
        # until the end of the next turn played.
        return self._pass_turn(replace(after, penalty=None), off, lock=True)

    def _pass_turn(self, t: Table, ended: int, lock: bool) -> ZodiacState:
        """The turn of `ended` is over: recycle the deck if needed, then find the next player."""
        events = list(t.events)
        deck, discard, rng = t.deck, t.discard, t.rng
        if not deck and len(discard) >= 2:
            # Rule text and ZO-E5: the discard pile but its top card becomes the new deck.
            deck, discard, rng = cards.recycle(discard, rng, keep_top=1)
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

    def _why_illegal(self, action: Action) -> str:
        t = self._t
        if t.phase == OVER:
            return "the game is over"
        me = t.current
        hand, up = t.hands[me], t.up[me]
        kinds = (Draw, Take, PlaySun, PlayMoon, Up, Down, Discard, Pass, Lose)
        if not isinstance(action, kinds):
            return f"{action!r} is not a Zodiac action"
        if t.phase == PENALTY:
            assert t.penalty is not None
            if not isinstance(action, Lose):
                off = t.penalty.offender
                return f"player {me} must first choose the sign player {off} loses (lose up|hand SIGN)"
            where = "face-up cards" if action.area == "up" else "hand"
            return f"player {t.penalty.offender} has no {card_name(action.card)} in their {where}"
        if isinstance(action, Lose):
            return "no penalty is being paid"
        if getattr(action, "call", False) and t.mode != "table":
            return "ZODIAC is called only in table mode; the referee detects a completed Zodiac itself (ZO-4)"
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
            if drawn and t.fresh != card:
                return (
                    f"after drawing, only a {card_name(card)} just drawn may be played, and only at once (ZO-2, ZO-3)"
                )
            if self._source(card) is None:
                return f"you hold no {card_name(card)}"
            if isinstance(action, PlaySun):
                if not drawn and not self._can_play(SUN):
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
            source, area = (hand, "hand") if isinstance(action, Up) else (up, "face-up cards")
            if action.card not in source:
                return f"there is no {card_name(action.card)} in your {area}"
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
            if action.card not in hand:
                return f"there is no {card_name(action.card)} in your hand"
            if not is_sign(action.card):
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
        word, _, rest = raw.partition(" ")
        action: Action
        if word == "draw" and not rest:
            action = DRAW
        elif word == "take" and not rest:
            action = TAKE
        elif word == "moon" and not rest:
            action = PlayMoon()
        elif word == "pass" and not rest:
            action = Pass()
        elif word in ("up", "down") and rest:
            action = Up(parse_card(rest)) if word == "up" else Down(parse_card(rest))
        elif word == "discard" and rest:
            action = Discard(parse_card(rest))
        elif word == "lose" and rest.partition(" ")[0] in ("up", "hand") and rest.partition(" ")[2]:
            area, _, card = rest.partition(" ")
            action = Lose(area, parse_card(card))
        elif word == "sun" and (match := _SUN_TEXT.fullmatch(raw)):
            action = PlaySun(parse_card(match.group(1)), int(match.group(2)))
        else:
            raise NotationError(
                f"{text!r} is not a Zodiac action (draw, take, sun SIGN@SEAT, moon, up SIGN, down SIGN, "
                "discard CARD, pass, lose up|hand SIGN; add 'zodiac' to call)"
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
            "penalty": None if t.penalty is None else {"offender": t.penalty.offender, "owed": t.penalty.owed},
            "turns": t.turns,
            "winner": t.winner,
            "events": list(t.events),
        }

    def observation(self, player: int) -> dict[str, Any]:
        """Own hand only; other hands and the deck as counts; an offender's hand only to its chooser."""
        t = self._t
        data: dict[str, Any] = {
            "game": self._game.name,
            "player": player,
            "players": t.players,
            "mode": t.mode,
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
        """Seat zones: whose turn (green), who chooses a penalty (amber), pending skips (red), the winner."""
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
        else:
            marks[(t.current, 0)] = Mark("turn", "green", t.current)
        return marks

    def __repr__(self) -> str:
        return f"<ZodiacState turn={self._t.turns} player={self._t.current} phase={self._t.phase}>"


def _action_text(action: Action) -> str:
    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, Take):
        return "take"
    if isinstance(action, PlaySun):
        return f"sun {action.card}@{action.seat}"
    if isinstance(action, PlayMoon):
        return "moon"
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
    raise NotationError(f"{action!r} is not a Zodiac action")


_ORDER = {card: index for index, card in enumerate((*SIGNS, SUN, MOON))}


def _order(card: Card) -> int:
    return _ORDER.get(card, len(_ORDER))


def _distinct(items: Hand) -> list[Card]:
    """The distinct cards of a hand in the fixed card order (signs, Sun, Black Moon)."""
    return sorted(set(items), key=_order)


def _distinct_signs(items: Hand) -> list[Card]:
    return [c for c in _distinct(items) if is_sign(c)]
