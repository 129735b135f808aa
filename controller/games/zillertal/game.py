"""The Zillertal game: options, the card set, a new deal (dealt or physical hands) and saved states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games import cards, jsonutil
from controller.games.base import (
    Capabilities,
    Cell,
    Game,
    Option,
    State,
)
from controller.games.cards import UNSEEN, Pile
from controller.games.rng import SeededRandom
from controller.games.zillertal.cards import (
    CONTRACT_VALUES,
    load_card_set,
    parse_card_set,
)
from controller.games.zillertal.model import (
    DEAL,
    DEALT,
    FORMAT_VERSION,
    HAND_SIZE,
    HANDS_MODES,
    PHYSICAL,
    RAIL,
    SOLO_CONTRACTS,
    Held,
    Position,
    _starting_values,
    check_enough,
)
from controller.games.zillertal.serial import _table_from_json
from controller.games.zillertal.state import ZillertalState


class Zillertal(Game):
    name = "zillertal"
    title = "Zillertal"
    player_counts = (1, 2, 3, 4)
    capabilities = Capabilities(
        surface="cards",
        hidden_information=True,
        chance=True,
        card_kinds=("Valley cards", "contract cards"),
        move_examples=("V03@4", "end 2", "claim K1-03 bird"),
        card_example="V03, K1-03",
    )
    options = (
        Option(
            "cards",
            None,
            "path of a card-set TOML file (docs/cards-data.md); None uses the built-in set",
            names_file=True,
        ),
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
            table = Position(
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
        table = Position(
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
        raw_cards: dict[str, Any] | None = jsonutil.field(data, "cards", (dict, type(None)))
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
