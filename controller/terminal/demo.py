"""`tafel demo`: a bot game on the simulated board, narrated as it happens.

Each move is told the way a person at the table would see it: the hand lifts a piece, slides over
fields or puts it on a wrong one first, the LEDs answer (acknowledgement, a confirmation request),
and the board commits the move. On a terminal the narration is paced so it can be watched (`--speed`
sets the pace, `--fast` prints everything at once, as it does when the output is not a terminal).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from controller.bots import make_bot
from controller.bots.seeds import bot_seed
from controller.games import Cell, Game, Piece, State
from controller.games.seats import result_line, seat_name
from controller.table.tracker import TrackerOutput
from controller.terminal.cells import legend
from controller.terminal.physical import PhysicalTable
from controller.terminal.render import render_board
from hal.profile import load_profile
from hal.protocols import RGB
from sim.hands import HandStep

MODE_WORDS = {
    "moving": "a piece is in the air: the LEDs show where it came from and where it may go",
    "acknowledged": "the board recognises {move} and lights where it lands; it commits once the hand is away",
    "confirm": "the sensors cannot tell these moves apart: {candidates}; the LEDs ask to confirm",
    "guidance": "the board matches no legal move: the LEDs show what to put right",
    "takeback": "the board shows the position before the last move",
}


class Narrator:
    """Prints what happens on the board, pausing so that the board time passes at `speed`."""

    def __init__(self, game: Game, table: PhysicalTable, out: Callable[[str], None], speed: float | None) -> None:
        self.game = game
        self.table = table
        self.out = out
        self.speed = speed  # None: no pauses
        self._said_at = 0
        self._mode = "idle"
        self._started = 0

    def _say(self, now: int, text: str) -> None:
        if self.speed:
            time.sleep(max(0, now - self._said_at) / 1000 / self.speed)
        self._said_at = now
        self.out(f"  {now - self._started:>5} ms  {text}")

    def _pieces(self, pieces: tuple[Piece, ...], state: State) -> str:
        names = []
        for piece in pieces:
            owner = f"{seat_name(state, piece.owner)}'s " if piece.owner is not None else ""
            names.append(f"{owner}{piece.kind}")
        return " and ".join(names)

    def hand(self, now: int, step: HandStep) -> None:
        field = self.table.sim.field_name(step.cell)
        pieces = self._pieces(step.pieces, self.table.state)
        verb = "lifts" if step.op == "lift" else "puts down"
        self._say(now, f"hand {verb} {pieces} {'from' if step.op == 'lift' else 'on'} {field}")

    def board(self, now: int, output: TrackerOutput) -> None:
        for before, action, _ in output.happened.transitions:
            self._say(now, f"board commits {before.action_to_str(action)}")
        if output.display.mode == self._mode:
            return
        self._mode = output.display.mode
        template = MODE_WORDS.get(output.display.mode)
        if template is None:
            return
        move = output.display.text_of(output.display.acknowledged) if output.display.acknowledged is not None else ""
        candidates = ", ".join(map(output.display.text_of, output.display.candidates))
        self._say(now, "LEDs: " + template.format(move=move, candidates=candidates))

    def start(self, now: int) -> None:
        self._started = self._said_at = now


def run_demo(
    game: Game,
    players: int,
    seed: int,
    bot: str,
    profile_name: str | None,
    sensor: str | None,
    noise: str,
    ansi: bool,
    speed: float | None,
    out: Callable[[str], None] = print,
    **options: Any,
) -> int:
    """Play and narrate one game; 0 when it ran to the end, 1 when the board lost track of a move."""
    state = game.new_game(players=players, seed=seed, **options)
    profile = load_profile(profile_name or game.capabilities.board_profile)
    table = PhysicalTable(game, state, profile, sensor, noise, seed)
    board = table.session.tracker.board
    table.settle()
    bots = [make_bot(bot, bot_seed(seed, seat)) for seat in range(players)]
    narrator = Narrator(game, table, out, speed)

    def leds(frame: tuple[RGB, ...] | None) -> dict[Cell, RGB] | None:
        return {cell: frame[led] for cell, led in board.led_of.items()} if frame else None

    out(f"{game.title} on the simulated {profile.name} board ({table.sim.model_name} sensors, noise {noise})")
    out(legend(ansi))
    out(render_board(game, table.state, ansi=ansi, leds=leds(table.backends.pixels.last)))
    while not table.state.is_terminal():
        before = table.state
        action = bots[before.current_player].choose(before)
        out(f"\n{seat_name(before, before.current_player)} plays {before.action_to_str(action)}")
        narrator.start(table.now)
        if not table.perform(action, watch=narrator.board, on_hand=narrator.hand):
            out("the board did not recognise the move; stopping")
            return 1
        stats = table.stats
        out(f"  LED answer {stats.ack_ms[-1]} ms after the hand let go, committed after {stats.commit_ms[-1]} ms")
        out(render_board(game, table.state, ansi=ansi, leds=leds(table.ack_frame)))
    out(
        f"\n{game.title} over after {table.stats.committed} moves: {result_line(table.state)}. "
        f"Wrong commits: {table.stats.wrong_commits}"
    )
    return 0
