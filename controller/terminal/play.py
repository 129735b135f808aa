"""`tafel play`: a person plays a board game in the terminal against the simulated board.

Commands act on the simulated board as hands would (`lift c7`, `place d7`), or carry out a whole
move (`c7-c4`), or press buttons (`confirm`, `undo`, `menu`); bots take the other seats. After each
command the board runs for a moment of virtual time and is drawn with its LED colours.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TextIO

from controller.bots import make_bot
from controller.bots.seeds import bot_seed
from controller.games import Game, IllegalAction, NotationError, Piece
from controller.terminal.physical import PhysicalTable
from controller.terminal.render import LEGEND, render_board
from hal.profile import load_profile

HELP = """commands:
  lift CELL [N]   lift the top piece (or N pieces) from a field
  place CELL      put the pieces in your hand on a field
  MOVE            carry out a whole move, e.g. c7-c4 (see `moves`)
  confirm | undo | menu   press a button
  declare TEXT    declare an action no sensor sees (or choose among candidates)
  wait [MS]       let time pass (default 1000 ms)
  moves           list the legal moves
  show            draw the board again
  help | quit"""

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
        ansi: bool = False,
        out: Callable[[str], None] = print,
        **options,
    ) -> None:
        self.game = game
        self.out = out
        self.ansi = ansi
        state = game.new_game(players=players, seed=seed, **options)
        profile = load_profile(getattr(game, "board_profile", "square14"))
        self.table = PhysicalTable(game, state, profile, sensor, noise, seed, calm_hands=True)
        self.table.settle()
        self.bot_seats = set(bots)
        self.bots = {seat: make_bot(bot, bot_seed(seed, seat)) for seat in self.bot_seats}
        self.hand: list[Piece] = []

    def draw(self) -> None:
        table = self.table
        output = table.session.last_output
        frame = table.backends.pixels.last
        board = table.session.tracker.board
        leds = {cell: frame[led] for cell, led in board.led_of.items()} if frame else None
        physical = table.sim.occupancy()
        self.out(render_board(self.game, table.state, ansi=self.ansi, leds=leds, occupancy=physical))
        if self.hand:
            self.out(f"in your hand: {', '.join(piece.kind for piece in self.hand)}")
        if not self.ansi:
            self.out(LEGEND)
        state = table.state
        if state.is_terminal():
            self.out(f"game over: returns {state.returns()}")
        else:
            self.out(f"to move: seat {state.current_player}   board: {output.mode if output else '-'}")
            self.show_hand(state)
        if output is not None:
            for message in output.messages:
                self.out(f"  ! {message}")
            for fault in output.faults:
                self.out(f"  ! sensor under {fault.cell} reads {fault.reading}, expected {fault.expected}")
            if output.candidates:
                shown = ", ".join(state.action_to_str(a) for a in output.candidates)
                self.out(f"  please confirm one of: {shown} (confirm / menu / declare)")

    def show_hand(self, state) -> None:
        """Cards of the person on turn (Zillo), from their own observation only: the others' stay hidden."""
        seat = state.current_player
        if seat in self.bot_seats:
            return
        hand = state.observation(seat).get("hand")
        if hand:
            self.out(f"  your cards (seat {seat}): {' '.join(hand)}   (a move names its card, e.g. C-ES:c12-e11/2)")

    def bots_move(self) -> None:
        while not self.table.state.is_terminal() and self.table.state.current_player in self.bot_seats:
            state = self.table.state
            action = self.bots[state.current_player].choose(state)
            self.out(f"seat {state.current_player} plays {state.action_to_str(action)}")
            self.table.perform(action)

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
                self.out(HELP)
                return True
            if verb == "show":
                self.draw()
                return True
            if verb == "moves":
                self.out(" ".join(table.state.legal_action_strings()) or "(none)")
                return True
            if verb == "lift":
                cell = self.game.parse_cell(args[0])
                self.hand.extend(sim.lift(cell, int(args[1]) if len(args) > 1 else 1))
            elif verb == "place":
                if not self.hand:
                    self.out("your hand is empty: lift a piece first")
                    return True
                sim.place(self.game.parse_cell(args[0]), self.hand)
                self.hand = []
            elif verb in ("confirm", "undo", "menu"):
                table.backends.inputs.push("button", verb)
            elif verb == "declare":
                table.backends.inputs.push("declare", " ".join(args))
            elif verb == "wait":
                table.run(int(args[0]) if args else 1000)
                self.draw()
                return True
            else:
                action = table.state.parse_action(line.strip())
                if action not in table.state.legal_actions():
                    table.state.apply(action)  # raises with the reason
                table.perform(action)
        except (IndexError, ValueError) as error:
            reason = error.reason if isinstance(error, IllegalAction | NotationError) else str(error)
            self.out(f"  ! {reason or 'missing argument (see help)'}")
            return True
        table.run(STEP_MS)
        self.bots_move()
        self.draw()
        return True


def play_terminal(
    game: Game,
    players: int,
    seed: int,
    bots: Iterable[int],
    lines: TextIO,
    ansi: bool,
    out: Callable[[str], None] = print,
    **kwargs,
) -> int:
    session = TerminalPlay(game, players, seed, bots, ansi=ansi, out=out, **kwargs)
    out(HELP)
    session.bots_move()
    session.draw()
    for line in lines:
        if not session.command(line):
            break
        if session.table.state.is_terminal():
            break
    return 0
