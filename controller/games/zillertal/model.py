"""Zillertal's table (the value a state wraps), its constants and pending steps, and small helpers on them."""

from __future__ import annotations

from dataclasses import dataclass

from controller.games.boards import Rail
from controller.games.cards import Hand, Pile
from controller.games.records import record
from controller.games.rng import SeededRandom
from controller.games.zillertal.cards import (
    BLANK,
    CONTRACT_VALUES,
    CardSet,
)
from controller.games.zillertal.valley import Placed, Token

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


@dataclass(frozen=True, slots=True)
class Held:
    """A contract in front of a player and the icons of its tasks already claimed."""

    id: str
    claimed: tuple[str, ...] = ()


@record()
class Position:
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


def token_supply(card_set: CardSet, placed: tuple[Token, ...]) -> dict[str, int]:
    """ZT-4: the tokens still in the supply, by kind (icons and `blank`)."""
    supply = dict(card_set.tokens)
    for token in placed:
        supply[BLANK if token.blank else token.icon] -= 1
    return supply


def _distinct(hand: Hand) -> list[str]:
    """Distinct cards of a hand, in the order they were received."""
    return list(dict.fromkeys(hand))
