"""The rules-engine API every game implements: an immutable Game description and immutable States.

The split follows OpenSpiel (a Game is a factory and description, a State is one position); the
value types follow python-chess (small, frozen, hashable, with notation that round-trips).
Nothing here does I/O, reads a clock or touches hardware.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Collection, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Self

from controller.games.seats import COLOURS

Cell = tuple[int, int]
"""A field in board coordinates: `(x, y)` on square boards, axial `(q, r)` on hex boards."""

Action = Hashable
"""A game's action value: small, frozen and hashable; each game defines its own types."""

Occupancy = dict[Cell, tuple["Piece", ...]]
"""What physically stands on each occupied field, bottom to top."""


class IllegalAction(ValueError):
    """An action that the rules do not allow here; `reason` says why in words a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotationError(IllegalAction):
    """Text that is not an action in the game's notation (so it cannot be legal either)."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One physical piece as the sensors see it.

    `magnet` is the pole facing the sensor (+1 or -1); a signed sensor can tell the two apart.
    """

    kind: str
    owner: int | None = None
    magnet: int = 1


def changed_fields(before: Occupancy, after: Occupancy) -> Occupancy:
    """The fields whose pieces differ between two occupancies, with what stands there `after`
    (`()` where it is empty): the form of `State.occupancy_changes`."""
    changes: Occupancy = {cell: () for cell in before if cell not in after}
    changes.update((cell, pieces) for cell, pieces in after.items() if before.get(cell) != pieces)
    return changes


@dataclass(frozen=True, slots=True)
class Mark:
    """What the LED under a field shows as part of the game state (not a hint).

    `kind` names the meaning (e.g. "corner", "inner", "tile", "chip"); `colour` is a palette
    colour name; `player` is the seat the mark belongs to, if any.
    """

    kind: str
    colour: str
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Option:
    """A documented game option accepted by `Game.new_game(**options)`."""

    name: str
    default: Any
    doc: str
    names_file: bool = False  # the value is a file's path: screens choose among files the board knows


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a game is and needs, declared as data (as OpenSpiel's GameType) so that every front-end
    reads it and none probes the game for it. With `Game.player_counts` and `Game.options` it is
    the whole description a screen, the command line or the service starts from."""

    surface: Literal["board", "cards"] = "board"  # pieces on the sensed board, or real cards at a card table
    geometry: Literal["square", "hex"] = "square"  # how the board is drawn and wired
    board_profile: str = "square14"  # the board it is played on (wiring/*.toml)
    hidden_information: bool = False  # a seat holds what the others may not see
    chance: bool = False  # cards are shuffled and drawn during play
    card_kinds: tuple[str, ...] = ()  # the kinds of card it is played with, in words
    move_examples: tuple[str, ...] = ()  # moves in its notation, the commonest first, for help texts
    card_example: str = ""  # cards as a card reader reads them (a card table)


class Game(ABC):
    """An immutable description of one game and the factory of its states."""

    name: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    options: ClassVar[tuple[Option, ...]] = ()
    capabilities: ClassVar[Capabilities] = Capabilities()

    @property
    def default_players(self) -> int:
        return self.player_counts[0]

    @abstractmethod
    def new_game(self, players: int | None = None, seed: int = 0, **options: Any) -> State:
        """The initial state; `options` are documented in `self.options`."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from `State.to_json()`; raises ValueError naming what is wrong."""

    @abstractmethod
    def cells(self, state: State) -> tuple[Cell, ...]:
        """The fields this game uses on the board, in board coordinates."""

    @abstractmethod
    def format_cell(self, cell: Cell) -> str:
        """Board notation of a field, e.g. `a1`."""

    @abstractmethod
    def parse_cell(self, text: str) -> Cell:
        """Inverse of `format_cell`; raises NotationError for text that names no field."""

    def check_players(self, players: int | None) -> int:
        """The player count to use; a clear error for one the game does not support."""
        if players is None:
            return self.default_players
        if players not in self.player_counts:
            counts = ", ".join(str(n) for n in self.player_counts)
            raise ValueError(f"{self.title} is played by {counts} players, not {players}")
        return players

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Fill in defaults and reject options this game does not know."""
        known = {option.name: option.default for option in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            raise ValueError(f"{self.title} has no option {', '.join(unknown)} (options: {names})")
        return {**known, **given}

    def __repr__(self) -> str:
        return f"<Game {self.name}>"


class State(ABC):
    """One position of a game. Immutable: `apply` returns a new state."""

    @property
    @abstractmethod
    def game(self) -> Game: ...

    @property
    @abstractmethod
    def players(self) -> int: ...

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act; meaningless once the state is terminal."""

    @abstractmethod
    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action, in a deterministic order."""

    def apply(self, action: Action) -> Self:
        """The state after `action`; raises IllegalAction with a reason if it is not legal. Legality
        is checked here, once for every game; a game fills in `apply_legal` and `why_illegal`."""
        self.check_legal(action)
        return self.apply_legal(action)

    @abstractmethod
    def apply_legal(self, action: Action) -> Self:
        """The state after the legal `action` (`apply` has checked it; a search that takes its
        actions from `legal_actions` may call it directly)."""

    @abstractmethod
    def why_illegal(self, action: Action) -> str:
        """Why `action` is not legal here, in the player's terms (the text of IllegalAction)."""

    def is_legal(self, action: Action) -> bool:
        """Whether `action` is legal here. Default: it is one of `legal_actions`; games with a
        faster test override it."""
        return action in self.legal_actions()

    def check_legal(self, action: Action) -> None:
        """Raise IllegalAction, with the reason in words, unless `action` is legal here."""
        if not self.is_legal(action):
            raise IllegalAction(self.why_illegal(action))

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """One value per player: win 1, loss 0, draw 0.5; all 0 while the game goes on."""

    @abstractmethod
    def action_to_str(self, action: Action) -> str: ...

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Inverse of `action_to_str`; raises NotationError for text that is not an action."""

    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """A JSON-able view of the state that hides what `player` may not see."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Everything needed to rebuild this exact state, random state included."""

    @abstractmethod
    def occupancy(self) -> Occupancy:
        """What physically stands on each field (fields without pieces are left out)."""

    @abstractmethod
    def marks(self) -> dict[Cell, Mark]:
        """What the LEDs show as part of the state."""

    def action_reach(self, action: Action) -> Collection[Cell] | None:
        """Every field whose pieces the legal `action` may change: where pieces leave, land and are
        sent home (a superset is fine), found without playing the action; None: it may change any
        field. The board weighs only the actions that reach the fields it saw change, so a game with
        many legal actions names their reach."""
        return None

    def action_effect(self, action: Action) -> Hashable:
        """What of the legal `action` the board can see: two actions with the same effect leave the
        same pieces on the same fields (a Zillo move is the same whichever card allows it), so the
        board weighs each effect once. Default: every action is its own effect."""
        return action

    def occupancy_after(self, action: Action) -> Occupancy:
        """What will stand on the board after the legal `action`. Games override it where that is
        cheaper than playing the action."""
        return self.apply(action).occupancy()

    def occupancy_changes(self, action: Action) -> Occupancy:
        """What will stand, after the legal `action`, on the fields it changes (a field it empties
        maps to `()`, a field left out keeps its pieces; naming an unchanged field is fine). The
        board compares and lights only these fields, so games whose actions move few of many pieces
        override it where that is cheaper than `occupancy_after`."""
        return changed_fields(self.occupancy(), self.occupancy_after(action))

    def forget_derived(self) -> None:  # noqa: B027 (a hook: most states remember nothing)
        """Drop what this state worked out from its position and would work out again when asked
        (its legal actions): a state that only waits in a long game's history then weighs no more
        than its position. Games that remember such things forget them here."""

    @property
    def seats(self) -> tuple[str, ...]:
        """The colour of each seat that has one. Default: the first four colours clockwise; seats
        beyond four have no colour (games/seats.py)."""
        return COLOURS[: min(self.players, len(COLOURS))]

    def action_card(self, action: Action) -> str | None:
        """The card the legal `action` plays, if it plays one (the board lights a card's moves when
        the card is shown). Default: actions play no card."""
        return None

    def action_fields(self, action: Action) -> tuple[tuple[Cell, ...], tuple[Cell, ...]] | None:
        """Where the legal `action`'s piece leaves and where it goes, for games whose actions name
        them but whose pieces the sensors cannot tell apart (a Fillit chip from the supply). None:
        the board finds them from the occupancy (the default)."""
        return None

    @property
    def events(self) -> tuple[str, ...]:
        """What the last action brought about besides itself, in words every seat may read (a card
        drawn, a penalty owed). Default: nothing."""
        return ()

    def chance_count(self) -> int:
        """How many hidden random events (a card drawn or shown, a reshuffle) this state has seen: an
        action across which it changes had an outcome only the dealer knew. Default: none ever."""
        return 0

    def sample_unseen(self, player: int | frozenset[int], rng: random.Random) -> State:
        """A state `player` (or a set of seats, together) cannot tell from this one: what they cannot
        see (other hands, the order of face-down piles, the random state that decides future
        shuffles) dealt anew from `rng`, everything they see kept. Search bots plan on such samples
        so they never peek; a board playing several seats of a game across boards holds one
        (docs/remote.md). Default: a game without hidden information or chance to come is its own
        only sample."""
        return self

    def public_action_to_str(self, action: Action) -> str:
        """The action as the other seats may read it: its notation, unless it hides something (a card
        laid face down); played in this state."""
        return self.action_to_str(action)

    def legal_action_strings(self) -> tuple[str, ...]:
        return tuple(self.action_to_str(action) for action in self.legal_actions())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.game.name == other.game.name and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash((self.game.name, repr(self.to_json())))
