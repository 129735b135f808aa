"""`tafel play` for the board games: a person plays in the terminal against the simulated board.

Commands act on the simulated board as hands would (`lift c7`, `place d7`), or carry out a whole
move (`c7-c4`), or press buttons (`confirm`, `menu`); `undo` takes back the person's last move (and
the bots' replies) and the hands put the pieces back. Bots take the other seats. After each command
the board runs for a moment of virtual time and is drawn with its LED colours.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from controller.bots import make_bot
from controller.bots.seeds import bot_seed
from controller.games import Cell, Game, IllegalAction, Piece, State
from controller.games.seats import result_line, seat_name
from controller.terminal.cells import legend
from controller.terminal.physical import PhysicalTable
from controller.terminal.prompt import LineReader, example_move, help_text, prompt_for, unknown_command
from controller.terminal.render import render_board
from hal.profile import load_profile

COMMANDS = (
    ("MOVE", "make a whole move, e.g. the example below"),
    ("lift FIELD [N]", "lift the top piece (or N pieces) from a field"),
    ("place FIELD", "put the pieces in your hand on a field"),
    ("confirm", "press the confirm button (take the move the LEDs preview)"),
    ("menu", "press the menu button (the next previewed move, or moves no sensor sees)"),
    ("undo", "take back your last move (the bots' replies too); the pieces go back"),
    ("declare TEXT", "declare a move no sensor sees, or choose among candidates"),
    ("wait [MS]", "let time pass on the board (default 1000 ms)"),
    ("moves | ?", "list the legal moves"),
    ("show", "draw the board again"),
    ("help", "this list"),
    ("quit", "stop (so does Ctrl-D)"),
)
VERBS = ("lift", "place", "confirm", "menu", "undo", "declare", "wait", "moves", "show", "help", "quit")
STEP_MS = 600  # virtual time that passes after each command: enough to debounce and settle


class TerminalPlay:
    def __init__(
        self,
        game: Game,
        players: int,
        seed: int,
        bots: Iterable[int],
        bot: str = "greedy",
        sensor: str | None = None,
        noise: str = "none",
        profile: str | None = None,
        ansi: bool = False,
        out: Callable[[str], None] = print,
        **options: Any,
    ) -> None:
        self.game = game
        self.out = out
        self.ansi = ansi
        state = game.new_game(players=players, seed=seed, **options)
        board = load_profile(profile or game.capabilities.board_profile)
        self.table = PhysicalTable(game, state, board, sensor, noise, seed, calm_hands=True)
        self.table.settle()
        self.bot_seats = set(bots)
        self.bots = {seat: make_bot(bot, bot_seed(seed, seat)) for seat in self.bot_seats}
        self.hand: list[Piece] = []

    @property
    def state(self) -> State:
        return self.table.state

    def help(self) -> str:
        return help_text(COMMANDS, example_move(self.state))

    def draw(self) -> None:
        table = self.table
        output = table.session.last_output
        frame = table.backends.pixels.last
        board = table.session.tracker.board
        leds = {cell: frame[led] for cell, led in board.led_of.items()} if frame else None
        physical = table.sim.occupancy()
        self.out(render_board(self.game, self.state, ansi=self.ansi, leds=leds, occupancy=physical))
        self.out(legend(self.ansi))
        if self.hand:
            self.out(f"in your hand: {', '.join(piece.kind for piece in self.hand)}")
        state = self.state
        if state.is_terminal():
            self.out(f"{self.game.title} is over: {result_line(state)}")
        else:
            who = seat_name(state, state.current_player)
            self.out(f"{who} to move   board: {output.display.mode if output else '-'}")
            self.show_hand(state)
        for message in table.messages:
            self.out(f"  ! {message}")
        table.messages.clear()
        if output is not None:
            for fault in output.display.faults:
                where = table.sim.field_name(fault.cell) if fault.cell is not None else f"channel {fault.channel}"
                self.out(f"  ! the sensor under {where} reads {fault.reading}, expected {fault.expected}")
            if output.display.candidates:
                shown = ", ".join(map(output.display.text_of, output.display.candidates))
                self.out(f"  which move? {shown} (confirm takes the one the LEDs show, menu the next)")

    def show_hand(self, state: State) -> None:
        """Cards of the person on turn (Zillo), from their own observation only: the others' stay hidden."""
        seat = state.current_player
        if seat in self.bot_seats:
            return
        hand = state.observation(seat).get("hand")
        if hand:
            example = example_move(state)
            self.out(f"  your cards: {' '.join(hand)}   (a move names its card, e.g. {example})")

    def bots_move(self) -> None:
        while not self.state.is_terminal() and self.state.current_player in self.bot_seats:
            state = self.state
            action = self.bots[state.current_player].choose(state)
            self.out(f"{seat_name(state, state.current_player)} plays {state.action_to_str(action)}")
            self.table.perform(action)

    def undo(self) -> None:
        """Take back moves until it is a person's turn again; the hands put the pieces back."""
        tracker = self.table.session.tracker
        if not tracker.history:
            self.out("  ! undo: no move to take back yet")
            return
        taken = 0
        while tracker.history:
            before = len(tracker.history)
            self.table.backends.inputs.push("button", "undo")
            self.table.run(STEP_MS)
            if len(tracker.history) == before:
                break  # refused (the board said why)
            taken += 1
            if self.state.current_player not in self.bot_seats:
                break
        self.table.restore()
        if taken:
            self.out(f"took back {taken} move{'s' if taken > 1 else ''}; the pieces are back")

    def _field(self, args: list[str], verb: str) -> Cell:
        if not args:
            raise IllegalAction(
                f"{verb} needs a field, e.g. {verb} {self.game.format_cell(self.game.cells(self.state)[0])}"
            )
        return self.game.parse_cell(args[0])

    def command(self, line: str) -> bool:
        """Run one command; False when the player wants to stop."""
        words = line.split()
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        table = self.table
        sim = table.sim
        try:
            if verb in ("quit", "exit"):
                return False
            if verb == "help":
                self.out(self.help())
                return True
            if verb == "show":
                self.draw()
                return True
            if verb in ("moves", "?"):
                self.out(" ".join(self.state.legal_action_strings()) or "(no legal move)")
                return True
            if verb == "undo":
                self.undo()
                self.draw()
                return True
            if verb == "lift":
                cell = self._field(args, "lift")
                if len(args) > 1 and not args[1].isdigit():
                    raise IllegalAction(f"lift {args[0]} N: N is how many pieces, a whole number, not {args[1]!r}")
                self.hand.extend(sim.lift(cell, int(args[1]) if len(args) > 1 else 1))
            elif verb == "place":
                cell = self._field(args, "place")
                if not self.hand:
                    self.out("  ! your hand is empty: lift a piece first")
                    return True
                sim.place(cell, self.hand)
                self.hand = []
            elif verb in ("confirm", "menu"):
                table.backends.inputs.push("button", verb)
            elif verb == "declare":
                if not args:
                    raise IllegalAction(
                        "declare needs a move in the game's notation, e.g. declare " + (example_move(self.state) or "")
                    )
                table.backends.inputs.push("declare", " ".join(args))
            elif verb == "wait":
                if args and not args[0].isdigit():
                    raise IllegalAction(f"wait MS: MS is a whole number of milliseconds, not {args[0]!r}")
                table.run(int(args[0]) if args else 1000)
                self.draw()
                return True
            else:
                self._move(line.strip())
        except (IllegalAction, ValueError) as error:
            self.out(f"  ! {error.reason if isinstance(error, IllegalAction) else error}")
            return True
        table.run(STEP_MS)
        self.bots_move()
        self.draw()
        return True

    def _move(self, text: str) -> None:
        state = self.state
        if state.is_terminal():
            raise IllegalAction("the game is over")
        try:
            action = state.parse_action(text)
        except IllegalAction as error:
            word = text.split()[0]
            if word.isalpha() and word.lower() not in VERBS:
                raise IllegalAction(unknown_command(word, VERBS)) from None
            raise error from None
        if action not in state.legal_actions():
            state.apply(action)  # raises with the reason
        self.table.perform(action)


def play_terminal(
    game: Game,
    players: int,
    seed: int,
    bots: Iterable[int],
    lines: TextIO,
    ansi: bool,
    out: Callable[[str], None] = print,
    **kwargs: Any,
) -> int:
    """Play until the game ends, the person quits or the input ends; prompts go to standard output
    when `out` is print (a test collecting `out` sees no prompts)."""
    session = TerminalPlay(game, players, seed, bots, ansi=ansi, out=out, **kwargs)
    reader = LineReader(lines, sys.stdout if out is print else None)
    people = [seat_name(session.state, seat) for seat in range(players) if seat not in session.bot_seats]
    out(f"{game.title}: you play {', '.join(people) or 'no seat (bots only)'}")
    out(session.help())
    session.bots_move()
    session.draw()
    while not session.state.is_terminal():
        line = reader.read(prompt_for(session.state))
        if line is None or not session.command(line):
            break
    if not session.state.is_terminal():
        out("game stopped")
    return 0
