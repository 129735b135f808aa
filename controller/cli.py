"""The `tafel` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from controller.bots import BOTS
from controller.games import GAMES, load_game
from controller.render import render_board
from controller.selfplay import run_selfplay
from hal.sensors import MODEL_NAMES

NOISE_LEVELS = ("none", "low", "high")


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
    options = parse_options(args.option)
    if args.physical:
        from controller.physical import run_physical_selfplay

        summary = run_physical_selfplay(
            game, players, args.games, args.seed, args.bot, args.sensor, args.noise, args.profile, **options
        )
    else:
        summary = run_selfplay(game, players, args.games, args.seed, args.bot, **options)
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{game.title}: {summary['games']} games, {players} players, bot {summary['bot']}")
    for seat, wins in enumerate(summary["wins"]):
        print(f"  seat {seat}: {wins} wins")
    for key, value in summary.items():
        if key not in ("game", "players", "games", "bot", "wins"):
            print(f"  {key}: {value}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """A whole game through the full stack on the simulated board, drawn with its LED colours."""
    import time

    from controller.bots import make_bot
    from controller.physical import PhysicalTable
    from controller.selfplay import bot_seed
    from hal.profile import load_profile

    game = load_game(args.game)
    players = args.players or game.default_players
    ansi = sys.stdout.isatty() and not args.plain
    state = game.new_game(players=players, seed=args.seed, **parse_options(args.option))
    profile = load_profile(args.profile or getattr(game, "board_profile", "square14"))
    table = PhysicalTable(game, state, profile, args.sensor, args.noise, args.seed)
    board = table.session.tracker.board
    table.settle()
    bots = [make_bot(args.bot, bot_seed(args.seed, seat)) for seat in range(players)]

    def leds(frame):
        return {cell: frame[led] for cell, led in board.led_of.items()} if frame else None

    print(f"{game.title} on the simulated {profile.name} board ({table.sim.model_name} sensors, noise {args.noise})")
    print(render_board(game, table.state, ansi=ansi, leds=leds(table.backends.pixels.last)))
    while not table.state.is_terminal():
        before = table.state
        action = bots[before.current_player].choose(before)
        started = table.now
        if not table.perform(action):
            print("the board did not recognise the move; stopping")
            return 1
        stats = table.stats
        print(
            f"\nseat {before.current_player}: {before.action_to_str(action)}   LED answer after "
            f"{stats.ack_ms[-1]} ms, committed after {stats.commit_ms[-1]} ms (board time)"
        )
        print(render_board(game, table.state, ansi=ansi, leds=leds(table.ack_frame)))
        if args.speed > 0:
            time.sleep((table.now - started) / 1000 / args.speed)
    winners = [seat for seat, value in enumerate(table.state.returns()) if value == 1.0]
    print(
        f"\n{game.title} over after {table.stats.committed} moves; winner: "
        f"{', '.join(f'seat {w}' for w in winners) or 'nobody (draw)'}; wrong commits: {table.stats.wrong_commits}"
    )
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from controller.play import play_terminal

    game = load_game(args.game)
    players = args.players or game.default_players
    if args.bots is None:
        bots = list(range(1, players))
    else:
        bots = [int(seat) for seat in args.bots.split(",") if seat.strip()] if args.bots.strip() else []
        bad = [seat for seat in bots if not 0 <= seat < players]
        if bad:
            raise UsageError(f"--bots: no seat {bad[0]} in a {players}-player game")
    ansi = sys.stdout.isatty() and not args.plain
    return play_terminal(
        game,
        players,
        args.seed,
        bots,
        sys.stdin,
        ansi,
        bot=args.bot,
        sensor=args.sensor,
        noise=args.noise,
        **parse_options(args.option),
    )


def cmd_bench(args: argparse.Namespace) -> int:
    from controller.bench import format_bench, run_bench

    result = run_bench(games=args.games, seed=args.seed, noise=args.noise, playout_seconds=args.seconds)
    print(json.dumps(result) if args.json else format_bench(result))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from controller.service import Limits, run_service

    return run_service(args.config, Limits(args.max_seconds, args.until_game_over), args.check)


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sensor", choices=MODEL_NAMES, help="sensor model (default: the profile's)")
    parser.add_argument("--noise", default="none", choices=NOISE_LEVELS, help="simulated sensor noise")
    parser.add_argument("--profile", help="board profile name or path (default: the game's board)")


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
    selfplay.add_argument("--physical", action="store_true", help="through the simulated board and the tracker")
    add_board_arguments(selfplay)
    selfplay.set_defaults(run=cmd_selfplay)

    demo = commands.add_parser("demo", help="watch a bot game on the simulated board")
    demo.add_argument("game")
    demo.add_argument("--players", type=int)
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--bot", default="greedy", choices=sorted(BOTS))
    add_board_arguments(demo)
    demo.add_argument(
        "--speed", type=float, default=0.0, help="real-time factor (1 = as fast as people play; 0 = no waiting)"
    )
    demo.add_argument("--plain", action="store_true", help="no ANSI colours even on a terminal")
    demo.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    demo.set_defaults(run=cmd_demo)

    play = commands.add_parser("play", help="play in the terminal against bots")
    play.add_argument("game")
    play.add_argument("--players", type=int)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--bots", help="comma-separated seats played by bots (default: all but seat 0)")
    play.add_argument("--bot", default="greedy", choices=sorted(BOTS))
    add_board_arguments(play)
    play.add_argument("--plain", action="store_true", help="no ANSI colours even on a terminal")
    play.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    play.set_defaults(run=cmd_play)

    bench = commands.add_parser("bench", help="measure tracker, latency and playout speed")
    bench.add_argument("--games", type=int, default=6, help="physical games per sensor model")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--noise", default="low", choices=NOISE_LEVELS)
    bench.add_argument("--seconds", type=float, default=2.0, help="time per playout measurement")
    bench.add_argument("--json", action="store_true")
    bench.set_defaults(run=cmd_bench)

    run = commands.add_parser("run", help="run the board as a service (what systemd starts); see docs/service.md")
    run.add_argument("--config", default="/etc/tafel/config.toml", help="configuration file")
    run.add_argument("--check", action="store_true", help="validate the configuration and exit")
    run.add_argument("--max-seconds", type=float, help="stop after this many seconds")
    run.add_argument("--until-game-over", action="store_true", help="stop once the game is over")
    run.set_defaults(run=cmd_run)
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
