"""What every interactive terminal front-end shares: the prompt, reading a line with editing and
history, and the help layout, so that `tafel play` feels the same for all five games.

Line editing uses the standard library's readline (arrow keys, history with up/down) whenever the
input is an interactive terminal; scripted input (a pipe, a test) is read plainly.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from typing import TextIO

from controller.games import State
from controller.games.seats import seat_name


def prompt_for(state: State, seat: int | None = None) -> str:
    """The prompt: whose decision it is, by seat colour ("Red> ", "seat 5> ")."""
    who = seat_name(state, state.current_player if seat is None else seat)
    return f"{who}> "


class LineReader:
    """Reads one command line; with readline on an interactive terminal."""

    def __init__(self, stdin: TextIO, stdout: TextIO | None = None) -> None:
        """`stdout` None: the caller writes its output elsewhere (a test), so prompts are not echoed."""
        self.stdin = stdin
        self.stdout = stdout
        self.interactive = stdin is sys.stdin and stdout is sys.stdout and _isatty(stdin) and _isatty(stdout)
        if self.interactive:
            with contextlib.suppress(ImportError):  # not on every platform; plain input still works
                import readline  # noqa: F401  (importing it gives input() line editing and history)

    def read(self, prompt: str) -> str | None:
        """The next line without its newline; None at the end of the input (Ctrl-D)."""
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                print()
                return None
        if self.stdout is not None:
            self.stdout.write(prompt)
            self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        return line.rstrip("\n")


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def help_text(commands: Sequence[tuple[str, str]], example: str | None) -> str:
    """The `help` answer: one line per command, and a move of this game as an example."""
    width = max(len(name) for name, _ in commands)
    lines = ["commands:"]
    lines.extend(f"  {name:<{width}}  {what}" for name, what in commands)
    if example:
        lines.append(f"a move of this game, for example: {example}")
    return "\n".join(lines)


def example_move(state: State) -> str | None:
    """A move in this game's notation for the help text: the first legal one, else the game's own
    example (`Capabilities.move_examples`)."""
    actions = () if state.is_terminal() else state.legal_actions()
    if actions:
        return state.action_to_str(actions[0])
    examples = state.game.capabilities.move_examples
    return examples[0] if examples else None


def unknown_command(word: str, known: Sequence[str]) -> str:
    """A wrong command: what would be right."""
    return f"{word!r} is neither a command nor a move of this game; commands: {', '.join(known)} (`help` explains)"
