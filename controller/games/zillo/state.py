"""A Zillo position: the board parts, Catchers and the Zillo, hands and pile, movement and the legal actions.

Rule text summary and rulings (Z-1 ... and the engine's own decisions ZE-1 ...): docs/games/zillo.md.
What an action does to the pieces (board_side.py), the reasons of illegal actions (reasons.py),
notation and views (views.py) are functions of the state that this class calls.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from controller.games.base import Action, Cell, Mark, Occupancy, State
from controller.games.cards import Card, Hand, Pile, deal, remove_card, shuffle
from controller.games.records import replaced
from controller.games.seats import colour_title, with_seat
from controller.games.zillo import board_side, movegen, reasons, unseen, views
from controller.games.zillo.actions import NEW_GAME, Discard, Move, NewGame, Shift, card_of
from controller.games.zillo.deck import (
    CARD_INDEX,
    CARDS,
    CATCHER_PATHS_TO,
    DEAL,
)
from controller.games.zillo.layout import (
    AREA,
    INITIAL_LAYOUT,
    Field,
    Layout,
)
from controller.games.zillo.model import (
    CATCHERS_PER_PLAYER,
    DEALT,
    HANDS,
    MATCH_POINTS,
    PHYSICAL,
    SEATS,
    TOP,
    Catch,
    Played,
    Position,
    Stack,
)
from controller.games.zillo.reach import Landing, captures_nothing, send_home
from controller.games.zillo.views import laid_face_down


def _set_up(table: Position, start: int) -> Position:
    """A new game: parts and pieces as at the start, `start` to play, cards shuffled and dealt."""
    seats = SEATS[table.players]
    # Rule text: each player's 3 Catchers on their start field; the Zillo on the start player's small field.
    catchers = {INITIAL_LAYOUT.start_of(colour): Stack(seat, CATCHERS_PER_PLAYER) for seat, colour in enumerate(seats)}
    zillo = INITIAL_LAYOUT.zillo_field_of(seats[start])
    per_player = DEAL[table.players]
    rng = table.rng
    if table.hands_mode == DEALT:
        deck, rng = shuffle(CARDS, rng)
        hands, pile = deal(deck, table.players, per_player)
        hands = tuple(_sorted_cards(hand) for hand in hands)
        pile_count = len(pile)
    else:
        hands, pile, pile_count = None, None, len(CARDS) - per_player * table.players
    return replaced(
        table,
        layout=INITIAL_LAYOUT,
        catchers=catchers,
        zillo=zillo,
        hands=hands,
        hand_sizes=(per_player,) * table.players,
        pile=pile,
        pile_count=pile_count,
        played=(),
        phase=HANDS,
        current=start,
        start_player=start,
        turn=0,
        caught=None,
        rng=rng,
    )


def _sorted_cards(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=CARD_INDEX.__getitem__))


if TYPE_CHECKING:
    from controller.games.zillo.game import Zillo


class LegalIndex(NamedTuple):
    """The legal actions, their objects' ids, and (as asked for) the legal actions of each card."""

    actions: tuple[Action, ...]
    ids: frozenset[int]
    by_card: dict[Card | None, frozenset[Action]]


class ZilloState(State):
    __slots__ = ("_card_moves", "_game", "_legal", "_legal_set", "_on_parts", "_position")

    def __init__(self, game: Zillo, table: Position) -> None:
        self._game = game
        self._position = table
        self._legal: tuple[Action, ...] | None = None
        # The legal actions, their objects' ids and (as asked for) the legal actions of each card.
        self._legal_set: LegalIndex | None = None
        self._card_moves: dict[Card, tuple[Action, ...]] = {}
        self._on_parts: dict[int, tuple[tuple[Cell, Cell], ...]] | None = None

    def forget_derived(self) -> None:
        self._legal = self._legal_set = self._on_parts = None
        self._card_moves = {}

    # --- description -------------------------------------------------------------------------
    @property
    def game(self) -> Zillo:
        return self._game

    @property
    def position(self) -> Position:
        return self._position

    @property
    def players(self) -> int:
        return self._position.players

    @property
    def current_player(self) -> int:
        return self._position.current

    @property
    def seats(self) -> tuple[str, ...]:
        """The colour of each seat, in turn order."""
        return SEATS[self._position.players]

    def action_card(self, action: Action) -> str | None:
        """The card a move, a shift or a discard plays (Z-6: shown to the reader before its move)."""
        return action.card if isinstance(action, Move | Shift | Discard) else None

    @property
    def ply(self) -> int:
        return self._position.ply

    @property
    def turn(self) -> int:
        return self._position.turn

    @property
    def layout(self) -> Layout:
        return self._position.layout

    @property
    def catchers(self) -> Mapping[Cell, Stack]:
        return dict(self._position.catchers)

    @property
    def zillo(self) -> Cell:
        return self._position.zillo

    @property
    def phase(self) -> str:
        return self._position.phase

    @property
    def hands_mode(self) -> str:
        return self._position.hands_mode

    @property
    def scores(self) -> tuple[int, ...]:
        return self._position.scores

    @property
    def caught(self) -> Catch | None:
        return self._position.caught

    @property
    def winner(self) -> int | None:
        return self._position.winner

    @property
    def start_player(self) -> int:
        return self._position.start_player

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return self._position.hand_sizes

    @property
    def pile_count(self) -> int:
        return self._position.pile_count

    @property
    def played(self) -> tuple[Played, ...]:
        return self._position.played

    def hand(self, player: int) -> Hand | None:
        """`player`'s hand (only that player may look at it); None in physical mode."""
        return None if self._position.hands is None else self._position.hands[player]

    def field_layout(self) -> dict[Cell, Field]:
        """Which board field belongs to which part and printed field, as the parts lie now."""
        return dict(self._position.layout.fields())

    def start_of(self, player: int) -> Cell:
        """`player`'s big start field, wherever its part lies now (Z-1)."""
        return self._position.layout.start_of(self.seats[player])

    def homes(self) -> dict[int, Cell]:
        """Each seat's start field. ZE-10: colours nobody plays have no home, their fields are ordinary."""
        return {seat: self._position.layout.start_of(colour) for seat, colour in enumerate(self.seats)}

    def colour(self, player: int) -> str:
        return colour_title(self.seats[player])

    def unseen_cards(self) -> tuple[Card, ...]:
        """Z-6: the cards not played since the pile was last shuffled (all deals and reshuffles
        bring every card back), in card order: what a physical player may still declare."""
        gone = {entry.card for entry in self._position.played}
        return tuple(card for card in CARDS if card not in gone)

    def face_up(self) -> Card | None:
        """In dealt top-card play, the card the player on turn has turned up (rule text: the top
        card is placed face up before the move); None otherwise."""
        t = self._position
        if t.phase != TOP or not t.pile or t.caught is not None or self.is_terminal():
            return None
        return t.pile[-1]

    def chance_count(self) -> int:
        """Changes exactly when hidden cards come to light, so that no action is taken back across
        that (ZE-12): the ply of the last deal, shuffle or top card turned up.

        Every action of top-card play turns up the next top card (the one that ends the pile also
        shuffles a new one, ZE-3); the action that empties the hands shuffles the pile and turns up
        its top card; `new-game` deals. A catch or a draw ends the game before a card is turned.
        """
        t = self._position
        if t.phase != TOP:
            return t.ply - t.turn  # this game's deal: `turn` counts the cards played since
        if t.caught is not None or self.is_draw():
            return t.ply - 1  # the game stopped: the last action turned up nothing
        return t.ply

    def sample_unseen(self, player: int | frozenset[int], rng: random.Random) -> ZilloState:
        return unseen.sample_unseen(self, player, rng)

    def unseen_by(self, player: int) -> tuple[Card, ...]:
        """The cards `player` cannot place: in other hands or in the pile (or discarded face down by
        someone else) since the last shuffle, in card order."""
        t = self._position
        seen = {e.card for e in t.played if e.shown or e.player == player}
        seen.update(self.hand(player) or ())
        turned = self.face_up()
        if turned is not None:
            seen.add(turned)
        return tuple(card for card in CARDS if card not in seen)

    def playable_cards(self) -> tuple[Card, ...]:
        """The cards the player on turn may play now, in card order."""
        t = self._position
        if t.hands_mode == PHYSICAL:
            return self.unseen_cards()
        if t.phase == TOP:
            assert t.pile is not None
            return (t.pile[-1],)
        assert t.hands is not None
        return t.hands[t.current]

    # --- end ---------------------------------------------------------------------------------
    def is_draw(self) -> bool:
        # Z-7: max_turns ends a game without a catch; ZE-7: in a match it ends the match too.
        t = self._position
        return t.winner is None and t.caught is None and t.max_turns is not None and t.turn >= t.max_turns

    def is_terminal(self) -> bool:
        return self._position.winner is not None or self.is_draw()

    def returns(self) -> tuple[float, ...]:
        t = self._position
        if t.winner is not None:
            return tuple(1.0 if p == t.winner else 0.0 for p in range(t.players))
        if self.is_draw():
            return (0.5,) * t.players
        return (0.0,) * t.players

    # --- movement ----------------------------------------------------------------------------
    def landing(self, player: int, origin: Cell, target: Cell, count: int | None) -> Landing | str:
        """The pieces after `player` moves `count` of their Catchers (None: the Zillo) from `origin`
        onto `target`, or why the capture rules forbid ending there. Does not check the path."""
        t = self._position
        if not t.layout.covers(target):
            return f"{AREA.format_cell(target)} is not on a board part"
        occupant = t.catchers.get(target)
        zillo = target if count is None else t.zillo
        if captures_nothing(occupant, player, count):
            if count is None:
                return Landing(dict(t.catchers), zillo, False)
            catchers = self._lift(origin, count)
            there = catchers.get(target)
            catchers[target] = Stack(player, count + (there.count if there else 0))
            return Landing(catchers, zillo, target == t.zillo)
        assert occupant is not None  # a field without Catchers captures nothing
        where = AREA.format_cell(target)
        if occupant.player == player:
            return f"the Zillo may not move onto your own Catchers on {where}"
        victim = self.colour(occupant.player)
        if target == self.start_of(occupant.player):
            return f"{victim}'s Catchers on {where} stand on their own start field: no capture there"
        catchers = dict(t.catchers) if count is None else self._lift(origin, count)
        del catchers[target]
        if count is not None:
            catchers[target] = Stack(player, count)
        # The mover stands on the field first: if the returns reach a start field it stands on, it goes
        # home as well (ZE-1).
        for owner, home in send_home(catchers, occupant, self.homes()):
            if home == zillo:
                # Rule text: no capture of a player while the Zillo stands on their start field.
                # ZE-2: nobody is sent home onto the Zillo, third players included.
                return (
                    f"the Zillo stands on {self.colour(owner)}'s start field {AREA.format_cell(home)}: "
                    f"this capture would send {self.colour(owner)}'s Catchers home onto it"
                )
        return Landing(catchers, zillo, count is not None and target == t.zillo)

    def _lift(self, origin: Cell, count: int) -> dict[Cell, Stack]:
        catchers = dict(self._position.catchers)
        stack = catchers.pop(origin)
        if stack.count > count:
            catchers[origin] = Stack(stack.player, stack.count - count)
        return catchers

    def catching_cards(self, player: int) -> dict[Card, int]:
        """Public: the Catcher cards with which `player` could catch the Zillo in this position, each
        with the most points it would score (the largest stack that can make the catch)."""
        t = self._position
        fields = t.layout.fields()
        found: dict[Card, int] = {}
        for (x, y), stack in t.catchers.items():
            if stack.player != player:
                continue
            offset = (t.zillo[0] - x, t.zillo[1] - y)
            for card, path in CATCHER_PATHS_TO.get(offset, ()):
                if stack.count > found.get(card, 0) and all((x + dx, y + dy) in fields for dx, dy in path):
                    # Nothing but the Zillo stands on its field, so landing there is always allowed.
                    found[card] = stack.count
        return found

    def card_moves(self, card: Card) -> tuple[Action, ...]:
        """Every move the player on turn could make with `card` in this position, whether or not
        they hold it (Z-6: what lights up for a declared card)."""
        cached = self._card_moves.get(card)
        if cached is None:
            cached = self._card_moves[card] = movegen.card_moves(self, card)
        return cached

    def legal_actions(self) -> tuple[Action, ...]:
        legal = self._legal  # read once: another thread may make the state forget it (forget_derived)
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[Action, ...]:
        if self.is_terminal():
            return ()
        if self._position.caught is not None:
            return (NEW_GAME,)
        cards = self.playable_cards()
        if self._position.hands_mode == PHYSICAL:
            # Z-6: any card still unseen may be declared; ZE-9: one without a move may only be discarded.
            found: list[Action] = []
            for card in cards:
                allowed = self.card_moves(card)
                found.extend(allowed if allowed else (Discard(card),))
            return tuple(found)
        moves: list[Action] = []
        for card in cards:
            moves.extend(self.card_moves(card))
        # Z-4: with no playable card the player discards one of their choice (in top-card play: the top card).
        return tuple(moves) if moves else tuple(Discard(card) for card in cards)

    def is_legal(self, action: Action) -> bool:
        """Whether `action` is among the legal actions: at once for one of this state's own action
        objects (the usual case: a player or bot picks from `legal_actions`), else among those of its
        card only, compared by value."""
        legal = self.legal_actions()
        known = self._legal_set  # read once (see legal_actions); it keeps `legal` alive with its ids
        if known is None or known.actions is not legal:
            known = self._legal_set = LegalIndex(legal, frozenset(map(id, legal)), {})
        if id(action) in known.ids:
            return True
        card = self.action_card(action)
        by_card = known.by_card
        found = by_card.get(card)
        if found is None:
            found = by_card[card] = frozenset(a for a in legal if self.action_card(a) == card)
        return action in found

    def apply_legal(self, action: Action) -> ZilloState:
        t = self._position
        if isinstance(action, NewGame):
            # Rule text: the new start player sits left of (clockwise after) the previous one.
            start = (t.start_player + 1) % t.players
            table = _set_up(replaced(t, game_number=t.game_number + 1, ply=t.ply + 1), start)
            return ZilloState(self._game, table)
        card = card_of(action)
        assert card is not None
        layout, catchers, zillo, caught = self._board_after(action)
        changes: dict[str, Any] = dict(layout=layout, catchers=catchers, zillo=zillo, ply=t.ply + 1, turn=t.turn + 1)
        # ZE-8: a discard from the hand is face down; everything else is shown.
        changes.update(self._card_leaves(card, shown=not laid_face_down(action, t.phase)))
        if caught:
            assert isinstance(action, Move) and action.count is not None
            changes.update(self._score(action.count))
        else:
            changes.update(self._next_turn(changes))
        return ZilloState(self._game, replaced(t, **changes))

    def _board_after(self, action: Action) -> tuple[Layout, Mapping[Cell, Stack], Cell, bool]:
        """Layout, Catchers and Zillo after a legal card action, and whether it caught the Zillo."""
        t = self._position
        if isinstance(action, Move):
            landing = self.landing(t.current, action.origin, action.target, action.count)
            assert isinstance(landing, Landing)
            return t.layout, landing.catchers, landing.zillo, landing.caught
        if isinstance(action, Shift):
            return (*board_side._shifted(self, action), False)
        return t.layout, t.catchers, t.zillo, False

    def _card_leaves(self, card: Card, *, shown: bool) -> dict[str, Any]:
        """The card leaves the player's hand (or the pile's top) and lies on the played pile."""
        t = self._position
        player = t.current
        played = (*t.played, Played(player, card, shown))
        if t.phase == TOP:
            pile = None if t.pile is None else t.pile[:-1]
            return dict(pile=pile, pile_count=t.pile_count - 1, played=played)
        hands = t.hands
        if hands is not None:
            hands = with_seat(hands, player, remove_card(hands[player], card))
        sizes = with_seat(t.hand_sizes, player, t.hand_sizes[player] - 1)
        return dict(hands=hands, hand_sizes=sizes, played=played)

    def _score(self, points: int) -> dict[str, Any]:
        """Rule text: a catch by a stack of 1, 2 or 3 Catchers scores 1, 2 or 3 points."""
        t = self._position
        player = t.current
        scores = tuple(s + points if seat == player else s for seat, s in enumerate(t.scores))
        ends = not t.match or scores[player] >= MATCH_POINTS
        # Z-7, ZE-6: between two games of a match the next start player deals (`new-game`).
        current = player if ends else (t.start_player + 1) % t.players
        winner = player if ends else None
        return dict(scores=scores, caught=Catch(player, points), winner=winner, current=current)

    def _next_turn(self, changes: dict[str, Any]) -> dict[str, Any]:
        t = self._position
        following: dict[str, Any] = dict(current=(t.current + 1) % t.players)
        if t.phase == HANDS and not any(changes["hand_sizes"]):
            # Rule text, Z-5: hands used up: the start player shuffles the played cards (with two
            # players also the undealt rest) into the pile and starts top-card play.
            following.update(self._reshuffled(changes), phase=TOP, current=t.start_player)
        elif t.phase == TOP and changes["pile_count"] == 0:
            # ZE-3: the pile is used up again: the played cards are shuffled into a new pile.
            following.update(self._reshuffled(changes))
        return following

    def _reshuffled(self, changes: dict[str, Any]) -> dict[str, Any]:
        pile: Pile | None = changes.get("pile", self._position.pile)
        cards = [entry.card for entry in changes["played"]]
        count = changes.get("pile_count", self._position.pile_count) + len(cards)
        if pile is None:  # physical mode: the players shuffle the real cards
            return dict(pile_count=count, played=())
        pile, rng = shuffle((*cards, *pile), self._position.rng)
        return dict(pile=pile, pile_count=count, played=(), rng=rng)

    # --- the board side, reasons, notation and views (board_side.py, reasons.py, views.py) -----
    def layout_after(self, action: Action) -> Layout:
        return board_side.layout_after(self, action)

    def occupancy_after(self, action: Action) -> Occupancy:
        return board_side.occupancy_after(self, action)

    def occupancy_changes(self, action: Action) -> Occupancy:
        return board_side.occupancy_changes(self, action)

    def action_effect(self, action: Action) -> Hashable:
        return board_side.action_effect(self, action)

    def action_reach(self, action: Action) -> list[Cell] | None:
        return board_side.action_reach(self, action)

    def why_illegal(self, action: Action) -> str:
        return reasons.why_illegal(self, action)

    def action_to_str(self, action: Action) -> str:
        return views.action_to_str(self, action)

    def parse_action(self, text: str) -> Action:
        return views.parse_action(self, text)

    def public_action_to_str(self, action: Action) -> str:
        return views.public_action_to_str(self, action)

    def to_json(self) -> dict[str, Any]:
        return views.to_json(self)

    def observation(self, player: int) -> dict[str, Any]:
        return views.observation(self, player)

    def occupancy(self) -> Occupancy:
        return views.occupancy(self)

    def marks(self) -> dict[Cell, Mark]:
        return views.marks(self)

    def __repr__(self) -> str:
        t = self._position
        return f"<ZilloState game={t.game_number} turn={t.turn} to_move={self.seats[t.current]}>"
