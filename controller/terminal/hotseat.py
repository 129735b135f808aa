"""Hot-seat play in the terminal: people share one screen, bots may take any seats.

Before a person acts, the screen asks to pass it to them and waits for Enter, then shows only what
that player may see (their own hand). Between two people the screen is cleared. Every action is
public, so each person is told what happened since their last view. Input and output are streams,
so the loop is tested with scripted input.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, TextIO

from controller.bots import Bot, make_bot
from controller.bots.seeds import bot_seed
from controller.games import Game, IllegalAction, State
from controller.games.seats import result_line, seat_name
from controller.terminal.cardview import render_view
from controller.terminal.prompt import LineReader, example_move, help_text, prompt_for

CLEAR = "\x1b[2J\x1b[H"
COMMANDS = (
    ("ACTION", "an action in the game's notation (example below), or its number from the list"),
    ("moves | ?", "list the legal actions, numbered"),
    ("undo", "take back your last action of this turn (not a draw: it showed a hidden card)"),
    ("show", "show your view again"),
    ("help", "this list"),
    ("quit", "stop (so does Ctrl-D)"),
)


def hotseat_help(state: State) -> str:
    return help_text(COMMANDS, example_move(state))


class Quit(Exception):
    """The players stopped the game (typed quit, or the input ended)."""


class HotSeat:
    """One hot-seat game: a state, which seats are people, and the screen."""

    def __init__(
        self,
        state: State,
        humans: Collection[int],
        bots: dict[int, Bot],
        stdin: TextIO,
        stdout: TextIO,
        clear: bool = False,
        view: Callable[[State, int], str] = render_view,
    ) -> None:
        self.state = state
        self.humans = frozenset(humans)
        self.bots = bots
        self.stdin = stdin
        self.stdout = stdout
        self.clear = clear
        self.view = view
        self.log: list[str] = []
        self.seen: dict[int, int] = dict.fromkeys(self.humans, 0)
        self.shown: int | None = None  # the person whose view is on the screen
        self.reader = LineReader(stdin, stdout)
        self.undoable: list[State] = []  # states before the person's own actions of this turn

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        line = self.reader.read(prompt)
        if line is None:
            raise Quit
        return line.strip()

    def name(self, seat: int) -> str:
        return seat_name(self.state, seat)

    def record(self, seat: int, text: str, kind: str) -> None:
        """Log and show an action (all actions are public) and the events it caused."""
        entries = [f"{self.name(seat)}{kind}: {text}", *(f"  {event}" for event in self.state.events)]
        self.log.extend(entries)
        for entry in entries:
            self.say(entry)

    def hand_over(self, seat: int) -> None:
        """Hide the screen, ask for the next person, then show them what happened since their last view."""
        handed = self.shown is not None or len(self.humans) > 1
        if handed:
            self.say(CLEAR if self.clear else "\n" + "-" * 60)
            self.ask(f"Pass the screen to {self.name(seat)} and press Enter. ")
        self.shown = seat
        news = self.log[self.seen[seat] :]
        if news and handed:
            self.say("Since your last turn:")
            for entry in news:
                self.say(f"  {entry}")
        self.seen[seat] = len(self.log)

    def human_turn(self, seat: int) -> None:
        if self.shown != seat:
            self.hand_over(seat)
            self.undoable = []
        self.say()
        self.say(self.view(self.state, seat))
        while True:
            text = self.ask(prompt_for(self.state, seat))
            if text in ("?", "moves"):
                for number, action in enumerate(self.state.legal_actions(), start=1):
                    self.say(f"  {number:>3}. {self.state.action_to_str(action)}")
                continue
            if text in ("help", "h"):
                self.say(hotseat_help(self.state))
                continue
            if text == "show":
                self.say(self.view(self.state, seat))
                continue
            if text in ("quit", "exit", "q"):
                raise Quit
            if text == "undo":
                self.undo(seat)
                continue
            if not text:
                continue
            before = self.state
            try:
                action = self._read(text)
                self.state = before.apply(action)
            except IllegalAction as error:
                self.say(f"Not possible: {error.reason} ('?' lists the legal actions, 'help' the commands)")
                continue
            self.record(seat, before.action_to_str(action), "")
            self.seen[seat] = len(self.log)
            same_turn = self.state.current_player == seat and self.state.chance_count() == before.chance_count()
            self.undoable = [*self.undoable, before] if same_turn else []
            return

    def undo(self, seat: int) -> None:
        """Take back the person's last action of this turn, if it showed no hidden card."""
        if not self.undoable:
            self.say(
                "Nothing to undo: only your own actions of this turn can be taken back, and not a draw "
                "or anything else that showed a hidden card."
            )
            return
        self.state = self.undoable.pop()
        entry = f"{self.name(seat)}: took back the last action"
        self.log.append(entry)
        self.say(entry)
        self.seen[seat] = len(self.log)
        self.say(self.view(self.state, seat))

    def _read(self, text: str) -> Any:
        if text.isdigit():
            actions = self.state.legal_actions()
            number = int(text)
            if not 1 <= number <= len(actions):
                raise IllegalAction(f"there is no action number {number} (1 to {len(actions)}; '?' lists them)")
            return actions[number - 1]
        return self.state.parse_action(text)

    def bot_turn(self, seat: int) -> None:
        before = self.state
        action = self.bots[seat].choose(before)
        self.state = before.apply(action)
        self.record(seat, before.action_to_str(action), " (bot)")

    def run(self) -> State:
        """Play until the game ends or the players quit; the last state either way."""
        try:
            while not self.state.is_terminal():
                seat = self.state.current_player
                if seat in self.humans:
                    self.human_turn(seat)
                else:
                    self.bot_turn(seat)
        except Quit:
            self.say("\nGame stopped.")
            return self.state
        self.finish()
        return self.state

    def finish(self) -> None:
        self.say(CLEAR if self.clear and len(self.humans) > 1 else "\n" + "=" * 60)
        self.say(f"{self.state.game.title} is over: {result_line(self.state)}.")


def run_hotseat(
    game: Game,
    players: int | None,
    seed: int,
    humans: Collection[int],
    bot: str,
    stdin: TextIO,
    stdout: TextIO,
    clear: bool = False,
    **options: Any,
) -> State:
    """Play `game` with people on `humans` and bots of kind `bot` on every other seat."""
    state = game.new_game(players=players, seed=seed, **options)
    bots = {seat: make_bot(bot, bot_seed(seed, seat)) for seat in range(state.players) if seat not in humans}
    table = HotSeat(state, humans, bots, stdin, stdout, clear=clear)
    people = ", ".join(seat_name(state, seat) for seat in sorted(humans)) or "none"
    machines = ", ".join(seat_name(state, seat) for seat in sorted(bots)) or "none"
    table.say(f"{game.title}, {state.players} players; people: {people}; bots: {machines}")
    table.say(hotseat_help(state))
    for event in state.events:
        table.say(event)
    return table.run()
