"""The `tafel` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from controller.bots import BOTS
from controller.games import GAMES, Game, State, load_game
from controller.terminal.render import render_board
from controller.terminal.selfplay import play_game, run_selfplay
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
        from controller.terminal.physical import run_physical_selfplay

        summary = run_physical_selfplay(
            game,
            players,
            args.games,
            args.seed,
            args.bot,
            args.sensor,
            args.noise,
            args.profile,
            args.show_cards,
            **options,
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


HOTSEAT_GAMES = ("zodiac", "zillertal")


def cmd_demo(args: argparse.Namespace) -> int:
    """A whole game through the full stack on the simulated board, drawn with its LED colours."""
    import time

    from controller.bots import make_bot
    from controller.bots.seeds import bot_seed
    from controller.terminal.physical import PhysicalTable
    from hal.profile import load_profile

    game = load_game(args.game)
    players = args.players or game.default_players
    if game.name in HOTSEAT_GAMES:
        return _demo_cards(game, players, args)
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
    """Play in the terminal: board games on the simulated board, card games in hot seat."""
    game = load_game(args.game)
    if game.name in HOTSEAT_GAMES:
        return _play_cards(game, args)
    if args.humans is not None:
        raise UsageError("--humans is for the card games; board games take --bots")
    from controller.terminal.play import play_terminal

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


def _play_cards(game: Game, args: argparse.Namespace) -> int:
    """Hot-seat play in the terminal (controller/terminal/hotseat.py): people share the screen, bots fill seats."""
    from controller.terminal.hotseat import run_hotseat, seats_from

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


def _demo_cards(game: Game, players: int, args: argparse.Namespace) -> int:
    """A bot game of a card game, shown as the view of the player to act after each action."""
    from controller.terminal.cardview import render_view

    def show(state: State, text: str) -> None:
        print(f"\nply {getattr(state, 'ply', '?')}: {text}")
        print(render_view(state, state.current_player))

    initial = game.new_game(players=players, seed=args.seed, **parse_options(args.option))
    print(render_view(initial, initial.current_player))
    record = play_game(game, players, args.seed, args.bot, on_action=show, **parse_options(args.option))
    winners = ", ".join(f"seat {seat}" for seat in record.winners) or "nobody (draw)"
    print(f"\n{game.title} over after {record.plies} plies; winner: {winners}")
    return 0


def cmd_companion(args: argparse.Namespace) -> int:
    """Referee a table of real cards (controller/table/companion.py): typed card ids and actions, LEDs drawn."""
    from controller.terminal.companion import run_companion
    from hal.errors import HardwareError

    game = load_game(args.game)
    ansi = sys.stdout.isatty() and not args.plain
    pixels = None
    if args.neopixel:
        from functools import partial

        from controller.service.backends import led_strip

        pixels = partial(led_strip, config=args.config)
    options = parse_options(args.option)
    try:
        run_companion(game, args.players, args.seed, sys.stdin, sys.stdout, args.profile, ansi, pixels, **options)
    except HardwareError as error:
        print(f"tafel: {error}", file=sys.stderr)
        return 1
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from controller.terminal.bench import format_bench, run_bench

    result = run_bench(games=args.games, seed=args.seed, noise=args.noise, playout_seconds=args.seconds)
    print(json.dumps(result) if args.json else format_bench(result))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from controller.service.loop import Limits, run_service

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
    selfplay.add_argument(
        "--show-cards", action="store_true", help="physical: players show each card to the reader before its move"
    )
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
    seats = play.add_mutually_exclusive_group()
    seats.add_argument("--bots", metavar="SEATS", help="seats played by bots, e.g. 1,2 (default: all but seat 0)")
    seats.add_argument("--humans", metavar="SEATS", help="card games: seats played by people, e.g. 0")
    play.add_argument("--bot", default="greedy", choices=sorted(BOTS))
    add_board_arguments(play)
    play.add_argument("--plain", action="store_true", help="no ANSI colours even on a terminal")
    play.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    play.set_defaults(run=cmd_play)

    companion = commands.add_parser("companion", help="referee a table of real cards (Zillertal, Zodiac)")
    companion.add_argument("game", choices=HOTSEAT_GAMES)
    companion.add_argument("--players", type=int)
    companion.add_argument("--seed", type=int, default=0)
    companion.add_argument("--profile", help="board profile name or path (default: cards)")
    companion.add_argument("--plain", action="store_true", help="no ANSI colours even on a terminal")
    companion.add_argument("--neopixel", action="store_true", help="also drive the real LED strip (on the Pi)")
    companion.add_argument("--config", help="service configuration with the [neopixel] table (with --neopixel)")
    companion.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    companion.set_defaults(run=cmd_companion)

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
