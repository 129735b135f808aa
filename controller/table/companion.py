"""The companion of a card table (Zillertal, Zodiac): real cards, no piece sensors, LEDs only.

Cards are entered by id (a card reader, or typed) and actions declared; every action is validated by
the rules engine before it is committed, and refusals come back as the engine's reasons. The LEDs
show what the table needs: on Zillertal's Valley rail the dotted lines where the entered card may go
(green) and the one previewed (amber); in the seat zones whose turn it is, pending skips and a player
who may call ZODIAC.

Like the tracker, the companion is a pure state machine: `step(now_ms, events) -> CompanionOutput`
is its only input and output; it never sleeps and reads no clock.

Entering a card selects it: the candidates are the legal actions that use every card selected so far
(a Sun, then the sign it takes). One candidate that is not a placement is committed at once; several,
or a placement, are previewed in turn: `menu` steps, a menu choice (`L-4`, an action's text or its
number) picks one, `confirm` commits it. `undo` first drops a selection, then takes back the last
action unless hidden cards were drawn since (`chance_count`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from controller.games import Action, IllegalAction, NotationError, State
from controller.games import zillertal as zt
from controller.games import zodiac as zo
from controller.table.board import field_cells
from controller.table.leds import FrameGate
from controller.table.palette import HINT_COLOURS, OFF, RGB, mark_colour, scale
from hal.profile import BoardProfile
from hal.protocols import InputEvent, InputSource, PixelSink

GAMES = ("zillertal", "zodiac")
IDLE_GLOW = 0.05  # seats in play that are not on turn glow faintly, so the table sees who plays
ERROR_MS = 1500  # the status LED flashes red this long after a refused input
# Entered cards that still need a confirm when they are the only choice: where a card goes is the
# player's decision, shown on the rail first.
CONFIRMED = (zt.Place, zt.SetAside)


@dataclass(frozen=True)
class CompanionOutput:
    state: State  # the committed game state
    frame: tuple[RGB, ...]  # one colour per LED of the profile
    selected: tuple[str, ...] = ()  # card ids entered for the next action
    candidates: tuple[Action, ...] = ()  # legal actions using every selected card
    previewed: Action | None = None  # the candidate a confirm would commit
    offsets: tuple[int, ...] = ()  # Zillertal: left-edge lines where the selected card may go
    committed: tuple[Action, ...] = ()
    transitions: tuple[tuple[State, Action, State], ...] = ()  # (before, action, after) per commit
    took_back: int = 0
    messages: tuple[str, ...] = ()


# --- which cards an action uses -----------------------------------------------------------------
def _zodiac_cards(action: Action) -> tuple[str, ...]:
    if isinstance(action, zo.PlaySun):
        return (zo.SUN, action.card)
    if isinstance(action, zo.PlayMoon):
        return (zo.MOON,)
    if isinstance(action, zo.Up | zo.Down | zo.Discard | zo.Lose | zo.Open):
        return (action.card,)
    return ()


def _zillertal_cards(action: Action) -> tuple[str, ...]:
    if isinstance(action, zt.Place | zt.SetAside | zt.Swap):
        return (action.card,)
    if isinstance(action, zt.NewContract):
        return (action.contract,)
    if isinstance(action, zt.Claim | zt.BonusTask):
        return (action.contract,)
    return ()


def _zodiac_card_id(state: State, text: str) -> str:
    return zo.parse_card(text)


def _zillertal_card_id(state: State, text: str) -> str:
    assert isinstance(state, zt.ZillertalState)
    return state.card_id(text)


CARDS_OF: dict[str, Callable[[Action], tuple[str, ...]]] = {"zodiac": _zodiac_cards, "zillertal": _zillertal_cards}
CARD_ID: dict[str, Callable[[State, str], str]] = {"zodiac": _zodiac_card_id, "zillertal": _zillertal_card_id}


def cards_of(state: State, action: Action) -> tuple[str, ...]:
    """The card ids an action uses (what a card reader can name)."""
    return CARDS_OF[state.game.name](action)


def parse_card_id(state: State, text: str) -> str:
    """A card id of `state`'s game from what a reader or a person entered; NotationError if none."""
    return CARD_ID[state.game.name](state, text)


# --- seat zones ---------------------------------------------------------------------------------
def seat_zone_colours(state: State) -> dict[int, str]:
    """The palette colour of each seat zone that is lit at full brightness.

    Zodiac's own marks say it (turn green, choosing a penalty amber, may call ZODIAC white, the
    winner green); in Zillertal the player on turn is green, and the winners at the end.
    """
    if state.game.name == "zodiac":
        return {cell[0]: mark.colour for cell, mark in state.marks().items() if mark.kind != "skip"}
    if state.is_terminal():
        returns = state.returns()
        best = max(returns)
        return {seat: "green" for seat, value in enumerate(returns) if value == best and value > 0}
    return {state.current_player: "green"}


def pending_skips(state: State) -> tuple[int, ...]:
    """ZO-3: turns each seat will skip (Zodiac's Black Moon); none in other games."""
    return tuple(state.skips) if isinstance(state, zo.ZodiacState) else (0,) * state.players


@dataclass(frozen=True)
class TableLeds:
    """Where the companion's lights are: rail lines, seat zones and the status LED of a profile."""

    profile: BoardProfile
    rail: Mapping[int, int]  # dotted line -> LED
    zones: Mapping[int, tuple[int, ...]]  # seat -> LEDs
    status: int | None

    @classmethod
    def of(cls, profile: BoardProfile, state: State) -> TableLeds:
        """Lay a card game onto `profile`; a clear error if a seat on the table has no zone."""
        game = state.game
        if game.name not in GAMES:
            raise ValueError(f"the companion plays {' and '.join(GAMES)}, not {game.title}")
        rail: dict[int, int] = {}
        if game.name == "zillertal":  # Zodiac has no Valley: its rail stays dark
            if profile.geometry != "rail":
                raise ValueError(f"board {profile.name} has no Valley rail (geometry 'rail'); Zillertal needs one")
            rail = {cell[0]: profile.fields[name].led for name, cell in field_cells(profile).items()}
        zones: dict[int, tuple[int, ...]] = {}
        for seat in range(state.players):
            leds = profile.seat_zones.get(f"seat{seat}")
            if leds is None:
                raise ValueError(f"board {profile.name} has no seat zone seat{seat} for a {state.players}-player game")
            zones[seat] = leds
        return cls(profile, rail, zones, profile.extra_leds.get("status"))


# --- the companion ------------------------------------------------------------------------------
class Companion:
    def __init__(self, state: State, profile: BoardProfile, history: Sequence[State] = (), blink_ms: int = 400) -> None:
        self.leds = TableLeds.of(profile, state)
        self.blink_ms = blink_ms
        self._state = state
        self._history: list[State] = list(history)
        self._actions: list[Action | None] = [None] * len(self._history)  # what led from each
        self._selected: list[str] = []
        self._candidates: tuple[Action, ...] = ()
        self._preview: int | None = None
        self._error_until = -1
        self._transitions: list[tuple[State, Action, State]] = []  # of the step under way
        self._messages: list[str] = []
        self._refused = False  # whether the event under way was refused

    @property
    def state(self) -> State:
        return self._state

    @property
    def history(self) -> tuple[State, ...]:
        return tuple(self._history)

    # --- the step ------------------------------------------------------------------------------
    def step(self, now: int, events: Iterable[InputEvent] = ()) -> CompanionOutput:
        """Handle the input events that arrived; get the LED frame and what happened."""
        self._transitions, self._messages = [], []
        took_back = 0
        for event in events:
            took_back += self._handle(event)
            if self._refused:
                self._error_until = now + ERROR_MS
        return CompanionOutput(
            state=self._state,
            frame=self.frame(now),
            selected=tuple(self._selected),
            candidates=self._candidates,
            previewed=self.previewed,
            offsets=self.offsets,
            committed=tuple(action for _, action, _ in self._transitions),
            transitions=tuple(self._transitions),
            took_back=took_back,
            messages=tuple(self._messages),
        )

    @property
    def previewed(self) -> Action | None:
        return None if self._preview is None else self._candidates[self._preview]

    @property
    def offsets(self) -> tuple[int, ...]:
        """Zillertal: the left-edge lines of the placements among the candidates, ascending."""
        return tuple(sorted({a.at for a in self._candidates if isinstance(a, zt.Place)}))

    # --- events --------------------------------------------------------------------------------
    def _handle(self, event: InputEvent) -> int:
        self._refused = False
        if event.kind == "button":
            return self._button(event.value.strip().lower())
        if event.kind == "card":
            self._card(event.value)
        elif event.kind == "menu":
            self._menu(event.value)
        else:
            self._declare(event.value)
        return 0

    def _refuse(self, message: str) -> None:
        self._refused = True
        self._messages.append(message)

    def _button(self, name: str) -> int:
        if name == "confirm":
            if self.previewed is None:
                self._refuse("nothing to confirm: enter a card or declare an action")
            else:
                self._commit(self.previewed)
            return 0
        if name == "menu":
            if len(self._candidates) < 2:
                self._refuse("menu: nothing to choose")
            else:
                self._preview = 0 if self._preview is None else (self._preview + 1) % len(self._candidates)
            return 0
        if name == "undo":
            if self._selected:
                self._clear()
                self._messages.append("selection cleared")
                return 0
            return self._take_back()
        self._refuse(f"unknown button {name!r} (confirm, undo, menu)")
        return 0

    def _card(self, text: str) -> None:
        state = self._state
        if state.is_terminal():
            self._refuse(f"{text}: the game is over")
            return
        try:
            card = parse_card_id(state, text)
        except NotationError as error:
            self._refuse(error.reason)
            return
        selected = [*self._selected, card]
        found = self._using(selected)
        if not found and self._selected:
            selected, found = [card], self._using([card])  # a new card starts a new selection
        if not found:
            self._refuse(f"{card}: {self._why_not(card)}")
            return
        self._selected, self._candidates = selected, found
        if len(found) == 1 and not isinstance(found[0], CONFIRMED):
            self._commit(found[0])  # the card says it all: commit it
            return
        self._preview = 0
        if self.offsets:
            lines = ", ".join(f"L{at}" for at in self.offsets)
            self._messages.append(f"{card} may go with its left edge on {lines}: choose with menu, then confirm")
        elif isinstance(found[0], zt.SetAside):
            self._messages.append(f"{card} fits nowhere in the Valley: confirm sets it aside")
        else:
            self._messages.append(f"{len(found)} choices for {' '.join(selected)}: menu steps through them, confirm")

    def _using(self, selected: Sequence[str]) -> tuple[Action, ...]:
        state = self._state
        wanted = list(selected)
        found = []
        for action in state.legal_actions():
            used = list(cards_of(state, action))
            if all(used.count(card) >= wanted.count(card) for card in wanted):
                found.append(action)
        return tuple(found)

    def _why_not(self, card: str) -> str:
        """The engine's reason why no action uses `card` now: asked of the action the card would be."""
        state = self._state
        probe: Action
        if isinstance(state, zt.ZillertalState):
            if state.pending in (zt.DEAL, zt.DRAW, zt.REDRAW):
                probe = zt.NewContract(card)
            elif state.pending == zt.EXCHANGE:
                probe = zt.Swap(card)
            elif card in state.card_set.contracts:
                probe = zt.Claim(card, state.contract(card).tasks[0][0])
            else:
                probe = zt.SetAside(card)
        else:
            assert isinstance(state, zo.ZodiacState)
            phase = state.phase
            probe = (
                zo.Open(card)
                if phase == zo.OPEN
                else zo.Lose("hand", card)
                if phase == zo.PENALTY
                else zo.Discard(card)
            )
        try:
            state.apply(probe)
        except IllegalAction as error:
            return error.reason
        return "it cannot be played now"

    def _menu(self, text: str) -> None:
        choice = text.strip()
        if not self._candidates:
            self._refuse(f"menu {choice}: nothing to choose; enter a card first")
            return
        index = self._pick(choice)
        if index is None:
            self._refuse(f"menu {choice}: not one of the {len(self._candidates)} choices")
            return
        self._preview = index

    def _pick(self, choice: str) -> int | None:
        state = self._state
        if choice.isdigit() and 1 <= int(choice) <= len(self._candidates):
            return int(choice) - 1
        if state.game.name == "zillertal":
            try:
                line = state.game.parse_cell(choice)[0]
            except NotationError:
                line = None
            if line is not None:
                return next(
                    (i for i, a in enumerate(self._candidates) if isinstance(a, zt.Place) and a.at == line), None
                )
        try:
            action = state.parse_action(choice)
        except NotationError:
            return None
        return self._candidates.index(action) if action in self._candidates else None

    def _declare(self, text: str) -> None:
        state = self._state
        if state.is_terminal():
            self._refuse(f"{text}: the game is over")
            return
        try:
            action = state.parse_action(text)
            state.apply(action)  # IllegalAction with the reason
        except IllegalAction as error:
            self._refuse(f"{text}: {error.reason}")
            return
        self._commit(action)

    # --- commit and take-back ------------------------------------------------------------------
    def _commit(self, action: Action) -> None:
        before = self._state
        after = before.apply(action)
        self._history.append(before)
        self._actions.append(action)
        self._state = after
        self._transitions.append((before, action, after))
        self._clear()

    def _take_back(self) -> int:
        if not self._history:
            self._refuse("undo: no action to take back")
            return 0
        previous = self._history[-1]
        if previous.chance_count() != self._state.chance_count():
            self._refuse("undo: the last action drew a hidden card and cannot be taken back")
            return 0
        self._history.pop()
        action = self._actions.pop()
        self._messages.append("took back " + ("the last action" if action is None else previous.action_to_str(action)))
        self._state = previous
        self._clear()
        return 1

    def _clear(self) -> None:
        self._selected, self._candidates, self._preview = [], (), None

    # --- the LED frame -------------------------------------------------------------------------
    def frame(self, now: int) -> tuple[RGB, ...]:
        """Rail (state marks, legal offsets green, the previewed one amber), seat zones, status."""
        leds = self.leds
        frame = [OFF] * leds.profile.led_count
        state = self._state
        blink = (now // self.blink_ms) % 2 == 1
        if leds.rail and isinstance(state, zt.ZillertalState):
            for cell, mark in state.marks().items():  # the Gorge's lines and the Crosses
                led = leds.rail.get(cell[0])
                if led is not None and cell[1] == 0:
                    frame[led] = mark_colour(mark.colour)
            for at in self.offsets:
                led = leds.rail.get(at)
                if led is not None:
                    frame[led] = HINT_COLOURS["green"]
            previewed = self.previewed
            if isinstance(previewed, zt.Place) and previewed.at in leds.rail:
                frame[leds.rail[previewed.at]] = HINT_COLOURS["amber"]
        lit = seat_zone_colours(state)
        skips = pending_skips(state)
        for seat, zone in leds.zones.items():
            colour = _full(lit[seat]) if seat in lit else scale(HINT_COLOURS["white"], IDLE_GLOW)
            if skips[seat] and blink:
                colour = HINT_COLOURS["red"]  # ZO-3: a pending skip blinks red
            for led in zone:
                frame[led] = colour
        if leds.status is not None:
            if now < self._error_until:
                frame[leds.status] = HINT_COLOURS["red"] if not blink else OFF
            elif self._candidates:
                frame[leds.status] = HINT_COLOURS["amber"]
            else:
                frame[leds.status] = scale(HINT_COLOURS["green"], 0.1)
        return tuple(frame)


def _full(name: str) -> RGB:
    return HINT_COLOURS[name]


@dataclass
class CompanionSession:
    """The companion with its backends: input events in, LED frames out (pushed when they change)."""

    companion: Companion
    pixels: PixelSink
    inputs: InputSource | None = None
    gate: FrameGate = field(default_factory=FrameGate)

    def step(self, now: int, events: Iterable[InputEvent] = ()) -> CompanionOutput:
        polled = self.inputs.poll() if self.inputs is not None else []
        output = self.companion.step(now, [*polled, *events])
        self.gate.push(self.pixels, output.frame, now)
        return output
