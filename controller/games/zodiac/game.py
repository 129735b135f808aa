"""The Zodiac game: options, a new deal (dealt or physical hands) and saved states read back."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from controller.games import cards, jsonutil
from controller.games.base import (
    Capabilities,
    Cell,
    Game,
    NotationError,
    Option,
    State,
)
from controller.games.cards import UNSEEN, Card, Hand
from controller.games.rng import SeededRandom
from controller.games.zodiac.cards import ACTION_CARDS, DEAL, DECK_COUNTS, FORMAT_VERSION, is_sign
from controller.games.zodiac.model import (
    DEALER,
    DEALT,
    DRAWN,
    OPEN,
    OVER,
    PENALTY,
    PHYSICAL,
    TURN,
    Penalty,
    Position,
    _check_bool,
    _check_count,
    _check_hands,
    _check_max_turns,
    _check_mode,
)
from controller.games.zodiac.state import ZodiacState


class Zodiac(Game):
    name = "zodiac"
    title = "Zodiac"
    player_counts = (2, 3, 4, 5, 6, 7, 8)
    capabilities = Capabilities(
        surface="cards",
        hidden_information=True,
        chance=True,
        card_kinds=("sign cards", "Suns", "Black Moons"),
        move_examples=("sun leo@1", "draw", "discard leo", "pass"),
        card_example="leo, sun",
    )
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
            table = Position(
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
        table = Position(
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
        penalty_data: dict[str, Any] | None = jsonutil.field(data, "penalty", (dict, type(None)))
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
        fresh: str | None = jsonutil.field(data, "fresh", (str, type(None)))
        if fresh not in ((None, UNSEEN) if physical else (None, *ACTION_CARDS)):
            wanted = "'?' (a card just drawn) or null" if physical else "sun, moon or null"
            raise ValueError(f"field 'fresh' must be {wanted}, not {fresh!r}")
        draws = jsonutil.field(data, "dealer_draws", list)
        dealer_draws = []
        for index, entry in enumerate(draws):
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str) and entry[1] in known):
                raise ValueError(f"dealer_draws[{index}] must be [seat, card], got {entry!r}")
            dealer_draws.append((seat(entry[0], f"dealer_draws[{index}]"), entry[1]))
        winner: int | None = jsonutil.field(data, "winner", (int, type(None)))
        events = jsonutil.field(data, "events", list)
        if not all(isinstance(e, str) for e in events):
            raise ValueError("field 'events' must be a list of strings")
        turns = jsonutil.field(data, "turns", int)
        if turns < 0:
            raise ValueError(f"field 'turns' must be >= 0, not {turns}")
        table = Position(
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
