"""`tafel companion`: the card table's companion in the terminal.

Typed lines stand in for the card reader, the buttons and the screen's menu: a card id is a card read,
`confirm`, `undo` and `menu` are the buttons, `L-4` or a number picks a previewed choice, and anything
else is declared as an action. After each line the screen shows what happened, the LEDs of the rail
and of the seat zones (ANSI colours on a terminal, letters elsewhere) and, for Zillertal, the Valley
with its icon counts per zone. Input and output are streams, so the loop is tested with scripted input.

With a real LED strip (`--neopixel`) the frames also go to the strip, and while nobody types the loop
keeps refreshing them in real time, so that a pending skip blinks.
"""

from __future__ import annotations

import select
import time
from collections.abc import Callable
from typing import Any, TextIO

from controller.games import GAMES, Game, NotationError, State
from controller.games.seats import result_line, seat_name
from controller.table.companion import Companion, CompanionOutput, parse_card_id, pending_skips, seat_zone_colours
from controller.table.leds import FrameGate
from controller.table.palette import HINT_COLOURS, OFF, PLAYER_COLOURS, RGB, mark_colour
from controller.terminal.cardview import render_view
from controller.terminal.prompt import LineReader, help_text, prompt_for
from controller.terminal.render import HINT_SYMBOLS, ansi_block
from hal.profile import BoardProfile, load_profile
from hal.protocols import BUTTONS, InputEvent, PixelSink

COMMANDS = (
    ("CARD", "a card read by the card reader (e.g. {cards})"),
    ("ACTION", "declare an action in the game's notation (e.g. {actions})"),
    ("confirm | undo | menu", "the buttons: commit the previewed choice / take back / next choice"),
    ("L-4 | N", "pick a previewed choice: a dotted line of the rail, or its number"),
    ("moves | ?", "list the legal actions"),
    ("show", "draw the table again"),
    ("help", "this list"),
    ("quit", "stop (so does Ctrl-D)"),
)


def companion_help(game_name: str) -> str:
    """The commands, with card and action examples of this game."""
    capabilities = GAMES[game_name].capabilities  # what a player types at the table
    cards_example, actions_example = capabilities.card_example, ", ".join(capabilities.move_examples)
    commands = [(name, what.format(cards=cards_example, actions=actions_example)) for name, what in COMMANDS]
    return help_text(commands, None)


RAIL_LEGEND = "+ may go here   ? previewed   b Gorge   w Cross   . dark"
STEP_MS = 250  # virtual time between two typed lines (for blinking), without a real strip
REFRESH_S = 0.1  # with a real strip: how long to wait for a line before refreshing the LEDs


def led_cell(colour: RGB, ansi: bool, symbol: Callable[[RGB], str] | None = None) -> str:
    """One LED as one character: a coloured block on a terminal, else `symbol` (rail symbols)."""
    if not ansi:
        return (symbol or led_symbol)(colour)
    return "." if colour == OFF else ansi_block(colour)


def colour_initial(colour: RGB) -> str:
    """A seat zone's LED in plain text: a palette colour's initial, capital at full brightness."""
    if colour == OFF:
        return "."
    for name, full in HINT_COLOURS.items():
        if full == colour:
            return name[0].upper()
        if mark_colour(name) == colour:
            return name[0]
    return "~"  # a faint glow: a seat in play, not on turn


def led_symbol(colour: RGB) -> str:
    """A letter for one LED in plain text: the hint symbols, else a palette colour's initial."""
    if colour == OFF:
        return "."
    symbol = HINT_SYMBOLS.get(colour)
    if symbol is not None:
        return symbol
    for name in ("blue", "white", "red", "amber", "green", *PLAYER_COLOURS):
        if mark_colour(name) == colour:
            return name[0]
    return "~"  # a faint glow


def render_rail(companion: Companion, frame: tuple[RGB, ...], ansi: bool) -> str:
    rail = companion.leds.rail
    if not rail:
        return ""
    first, last = min(rail), max(rail)
    ruler = [" "] * (last - first + 1)
    for line in range(first, last + 1):
        if line % 10 == 0:
            label = str(line)
            start = max(0, min(len(ruler) - len(label), line - first - len(label) // 2))
            for offset, char in enumerate(label):
                if 0 <= start + offset < len(ruler):
                    ruler[start + offset] = char
    cells = "".join(led_cell(frame[rail[line]], ansi) for line in range(first, last + 1))
    title = f"Valley rail (dotted lines L{first} to L{last})" + ("" if ansi else f":  {RAIL_LEGEND}")
    return f"{title}\n  {''.join(ruler)}\n  {cells}"


ZONE_WORDS = {"green": "on turn", "amber": "chooses a penalty", "white": "may call ZODIAC"}


def render_zones(companion: Companion, frame: tuple[RGB, ...], ansi: bool) -> str:
    state = companion.state
    lit = seat_zone_colours(state)
    skips = pending_skips(state)
    parts = []
    for seat, leds in companion.leds.zones.items():
        words = []
        if seat in lit:
            words.append("wins" if state.is_terminal() else ZONE_WORDS.get(lit[seat], lit[seat]))
        if skips[seat]:
            words.append(f"skips {skips[seat]} (blinks red)")
        marker = "[" + "".join(led_cell(frame[led], ansi, colour_initial) for led in leds) + "]"
        parts.append(f"seat{seat} {marker} {', '.join(words) or '-'}")
    return "Seat zones: " + "   ".join(parts)


def render_table(companion: Companion, output: CompanionOutput, ansi: bool) -> str:
    """The screen: the game as the player on turn sees it, the LEDs, and what is being entered."""
    state = companion.state
    viewer = state.current_player if not state.is_terminal() else 0
    lines = [render_view(state, viewer)]
    rail = render_rail(companion, output.frame, ansi)
    if rail:
        lines.append(rail)
    lines.append(render_zones(companion, output.frame, ansi))
    if output.offsets:
        card = output.selected[-1]
        lines.append(f"{card} may go with its left edge on: {', '.join(f'L{at}' for at in output.offsets)}")
    if output.candidates:
        lines.append(f"Choices for {' '.join(output.selected)} (menu steps, confirm commits):")
        for number, action in enumerate(output.candidates, start=1):
            mark = "  <- previewed" if action == output.previewed else ""
            lines.append(f"  {number:>3}. {state.action_to_str(action)}{mark}")
    return "\n".join(lines)


def event_for(state: State, text: str, choosing: bool) -> InputEvent:
    """The input event a typed line stands for (see COMMANDS)."""
    word, _, rest = text.partition(" ")
    if word in ("card", "menu", "declare") and rest.strip():
        return InputEvent(word, rest.strip())  # type: ignore[arg-type]
    if text in BUTTONS:
        return InputEvent("button", text)
    if choosing and (text.isdigit() or _is_line(state, text)):
        return InputEvent("menu", text)
    if " " not in text:
        try:
            parse_card_id(state, text)
        except NotationError:
            pass
        else:
            return InputEvent("card", text)
    return InputEvent("declare", text)


def _is_line(state: State, text: str) -> bool:
    try:
        state.game.parse_cell(text)
    except (NotationError, ValueError):
        return False
    return state.game.name == "zillertal"


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class CompanionTerminal:
    def __init__(
        self,
        companion: Companion,
        stdin: TextIO,
        stdout: TextIO,
        ansi: bool = False,
        pixels: PixelSink | None = None,
        clock: Callable[[], int] = monotonic_ms,
    ) -> None:
        self.companion = companion
        self.stdin = stdin
        self.stdout = stdout
        self.ansi = ansi
        self.pixels = pixels
        self.clock = clock
        self.gate = FrameGate()
        self.now = clock() if pixels is not None else 0
        self.output = companion.step(self.now)
        self._push(self.output.frame)

    def _tick(self) -> int:
        """The time of the next step: real with a strip (it blinks), else a fixed step per line."""
        self.now = self.clock() if self.pixels is not None else self.now + STEP_MS
        return self.now

    def _push(self, frame: tuple[RGB, ...]) -> None:
        if self.pixels is not None:
            self.gate.push(self.pixels, frame, self.now)

    def refresh(self) -> None:
        """Show the LEDs as they are now (blinking goes on while nobody enters anything)."""
        self._push(self.companion.frame(self._tick()))

    def read_line(self) -> str:
        """The next typed line ('' at the end of input); with a strip, refresh it while waiting."""
        if self.pixels is not None:
            try:
                selectable = self.stdin.fileno() >= 0
            except (OSError, ValueError):
                selectable = False
            while selectable and not select.select([self.stdin], [], [], REFRESH_S)[0]:
                self.refresh()
        return self.stdin.readline()

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def show(self) -> None:
        self.say(render_table(self.companion, self.output, self.ansi))

    def enter(self, text: str, show: bool = False) -> CompanionOutput:
        """One typed line: its event through the companion, then what happened; with `show`, the
        table is drawn before the messages, so that a message stays in view."""
        event = event_for(self.companion.state, text, bool(self.output.candidates))
        output = self.companion.step(self._tick(), [event])
        self.output = output
        self._push(output.frame)
        if not show:
            self._messages(output)
        for before, action, after in output.transitions:
            self.say(f"{seat_name(before, before.current_player)}: {before.action_to_str(action)}")
            for line in after.events:
                self.say(f"  {line}")
        if show:
            self.show()
            self._messages(output)
        return output

    def _messages(self, output: CompanionOutput) -> None:
        for message in output.messages:
            self.say(f"  ! {message}")

    def list_actions(self, most: int = 60) -> None:
        state = self.companion.state
        actions = state.legal_actions()
        self.say(f"Legal actions of {seat_name(state, state.current_player)}:")
        for action in actions[:most]:
            self.say(f"  {state.action_to_str(action)}")
        if len(actions) > most:
            self.say(f"  ... and {len(actions) - most} more")

    def run(self) -> State:
        state = self.companion.state
        self.say(companion_help(state.game.name))
        for event in state.events:
            self.say(event)
        self.show()
        reader = LineReader(self.stdin, self.stdout) if self.pixels is None else None
        while not self.companion.state.is_terminal():
            prompt = prompt_for(self.companion.state)
            if reader is not None:
                line = reader.read(prompt)
            else:
                self.stdout.write(prompt)
                self.stdout.flush()
                raw = self.read_line()
                line = raw.rstrip("\n") if raw else None
            if line is None:
                break
            text = " ".join(line.strip().split())
            if text in ("quit", "exit", "q"):
                break
            if text == "help":
                self.say(companion_help(self.companion.state.game.name))
                continue
            if text in ("?", "moves"):
                self.list_actions()
                continue
            if text == "show" or not text:
                self.show()
                continue
            self.enter(text, show=True)
        state = self.companion.state
        if state.is_terminal():
            self.say(f"\n{state.game.title} is over: {result_line(state)}.")
        else:
            self.say("\nCompanion stopped.")
        return state


def run_companion(
    game: Game,
    players: int | None,
    seed: int,
    stdin: TextIO,
    stdout: TextIO,
    profile: str | None = None,
    ansi: bool = False,
    pixels: Callable[[BoardProfile], PixelSink] | None = None,
    **options: Any,
) -> State:
    """Referee a table of real cards of `game`: physical hands unless `hands` says otherwise.

    `pixels` builds the LED strip for the profile (the frames are always drawn on the screen too).
    """
    options.setdefault("hands", "physical")
    state = game.new_game(players=players, seed=seed, **options)
    board = load_profile(profile or "cards")
    companion = Companion(state, board)
    terminal = CompanionTerminal(companion, stdin, stdout, ansi, pixels(board) if pixels is not None else None)
    terminal.say(f"{game.title} at the table, {state.players} players ({options['hands']} hands)")
    return terminal.run()
