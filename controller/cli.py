"""The `tafel` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from controller.bots import BOTS
from controller.games import GAMES, State, load_game
from controller.render import render_square_board
from controller.selfplay import play_game, run_selfplay


class UsageError(Exception):
    """A bad command-line value: printed as one line, exit status 2."""


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """`NAME=VALUE` pairs; VALUE is read as JSON when it can be (numbers, null, true), else as text."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"--option takes NAME=VALUE, not {pair!r}")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        options[name.strip()] = value
    return options


def cmd_games(args: argparse.Namespace) -> int:
    for game in GAMES.values():
        counts = ", ".join(str(n) for n in game.player_counts)
        print(f"{game.name:<10} {game.title:<10} players: {counts}")
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    players = args.players or game.default_players
    summary = run_selfplay(game, players, args.games, args.seed, args.bot, **parse_options(args.option))
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{game.title}: {summary['games']} games, {players} players, bot {summary['bot']}")
        for seat, wins in enumerate(summary["wins"]):
            print(f"  seat {seat}: {wins} wins")
        print(f"  draws: {summary['draws']}")
        print(f"  average plies: {summary['avg_plies']}")
        print(f"  actions/s: {summary['actions_per_s']}")
    return 0


HOTSEAT_GAMES = ("zodiac", "zillertal")


def cmd_demo(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    players = args.players or game.default_players
    ansi = sys.stdout.isatty() and not args.plain

    def draw(state: State) -> str:
        if game.name in HOTSEAT_GAMES:  # card games: the view of the player to act (bots hide nothing)
            from controller.cardview import render_view

            return render_view(state, state.current_player)
        return render_square_board(game, state, ansi=ansi)

    def show(state: State, text: str) -> None:
        print(f"\nply {getattr(state, 'ply', '?')}: {text}")
        print(draw(state))

    initial = game.new_game(players=players, seed=args.seed, **parse_options(args.option))
    print(draw(initial))
    record = play_game(game, players, args.seed, args.bot, on_action=show, **parse_options(args.option))
    winners = ", ".join(f"seat {seat}" for seat in record.winners) or "nobody (draw)"
    print(f"\n{game.title} over after {record.plies} plies; winner: {winners}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Hot-seat play in the terminal (controller/hotseat.py): people share the screen, bots fill seats."""
    from controller.hotseat import run_hotseat, seats_from

    game = load_game(args.game)
    if game.name not in HOTSEAT_GAMES:
        raise UsageError(f"tafel play supports {', '.join(HOTSEAT_GAMES)}; not {game.name}")
    players = game.check_players(args.players)
    if args.humans is not None:
        humans = seats_from(args.humans, players, "--humans")
    else:
        humans = frozenset(range(players)) - seats_from(args.bots, players, "--bots")
    run_hotseat(
        game,
        players,
        args.seed,
        humans,
        args.bot,
        sys.stdin,
        sys.stdout,
        clear=sys.stdout.isatty(),
        **parse_options(args.option),
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tafel", description="Controller of the tafel smart board.")
    commands = parser.add_subparsers(dest="command", required=True)

    games = commands.add_parser("games", help="list the games and their player counts")
    games.set_defaults(run=cmd_games)

    selfplay = commands.add_parser("selfplay", help="play bot games and print a summary")
    selfplay.add_argument("game")
    selfplay.add_argument("--players", type=int)
    selfplay.add_argument("--games", type=int, default=10)
    selfplay.add_argument("--seed", type=int, default=0)
    selfplay.add_argument("--bot", default="greedy", choices=sorted(BOTS))
    selfplay.add_argument("--json", action="store_true", help="print one JSON object")
    selfplay.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    selfplay.set_defaults(run=cmd_selfplay)

    demo = commands.add_parser("demo", help="watch a bot game in the terminal")
    demo.add_argument("game")
    demo.add_argument("--players", type=int)
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--bot", default="greedy", choices=sorted(BOTS))
    demo.add_argument("--plain", action="store_true", help="no ANSI colours even on a terminal")
    demo.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    demo.set_defaults(run=cmd_demo)

    play = commands.add_parser("play", help="play in the terminal: hot seat, bots on any seats")
    play.add_argument("game")
    play.add_argument("--players", type=int)
    play.add_argument("--seed", type=int, default=0)
    seats = play.add_mutually_exclusive_group()
    seats.add_argument("--bots", metavar="SEATS", help="seats played by bots, e.g. 1,2 (others are people)")
    seats.add_argument("--humans", metavar="SEATS", help="seats played by people, e.g. 0 (others are bots)")
    play.add_argument("--bot", default="greedy", choices=sorted(BOTS))
    play.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    play.set_defaults(run=cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (UsageError, ValueError) as error:
        print(f"tafel: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
