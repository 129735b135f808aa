"""The `tafel` command line."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from controller.bots import BOTS, SEARCH_LEVELS
from controller.files import UnreadableFile, read_text
from controller.games import GAMES, Capabilities, Game, State, load_game
from controller.games.seats import result_line, seat_name
from controller.terminal import arguments
from controller.terminal.progress import progress_bar
from controller.terminal.selfplay import play_game, run_selfplay

DEMO_SPEED = 4.0  # the demo's default pace on a terminal: four times as fast as people play
CARD_DEMO_PAUSE_S = 2.0  # a card game's demo: board-time seconds per action
PASSWORD_FILE_LIMIT = 4096  # a password is a line


class UsageError(Exception):
    """A bad command-line value: printed as one line, exit status 2."""


COMMAND_OWN = {
    "players": "not a game option: --players chooses it (a ladder's games are two-player)",
    "seed": "not a game option; the seed is the command's own (--seed)",
}
"""What a new game takes besides its options, so never an --option."""


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """`NAME=VALUE` pairs; VALUE is read as JSON when it can be (numbers, null, true), else as text."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"--option takes NAME=VALUE, not {pair!r}")
        if name.strip() in COMMAND_OWN:
            raise UsageError(f"--option {name.strip()}: {COMMAND_OWN[name.strip()]}")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        options[name.strip()] = value
    return options


def cmd_games(args: argparse.Namespace) -> int:
    if args.game is None:
        for game in GAMES.values():
            counts = ", ".join(str(n) for n in game.player_counts)
            print(f"{game.name:<10} {game.title:<10} players: {counts}")
        print("\n`tafel games GAME` lists a game's options.")
        return 0
    game = load_game(args.game)
    counts = ", ".join(str(n) for n in game.player_counts)
    print(f"{game.title}: {counts} players (usually {game.default_players}); rules: docs/games/{game.name}.md")
    for line in capability_lines(game.capabilities):
        print(line)
    searches = ", ".join(
        f"{name} {level.simulations[game.name]} simulations a move" for name, level in SEARCH_LEVELS.items()
    )
    print(f"bot levels, weakest first (--bot): {', '.join(BOTS)} ({searches}); strength in docs/bots.md")
    if not game.options:
        print("no options")
        return 0
    print("options (-o NAME=VALUE):")
    for option in game.options:
        print(f"  {option.name} (default {json.dumps(option.default)})")
        print(textwrap.fill(option.doc, width=96, initial_indent="      ", subsequent_indent="      "))
    return 0


def capability_lines(capabilities: Capabilities) -> list[str]:
    """What `tafel games GAME` says of a game's declared capabilities."""
    if capabilities.surface == "cards":
        where = "played with real cards at a card table; the board lights the seats (tafel companion)"
    else:
        where = f"played on the {capabilities.geometry} board {capabilities.board_profile}"
    secrets = "hidden hands" if capabilities.hidden_information else "nothing hidden"
    luck = "cards shuffled and drawn" if capabilities.chance else "no chance"
    lines = [f"{where}; {secrets}; {luck}"]
    if capabilities.card_kinds:
        lines.append(f"cards: {', '.join(capabilities.card_kinds)}")
    if capabilities.move_examples:
        lines.append(f"moves, e.g.: {', '.join(capabilities.move_examples)}")
    return lines


def cmd_selfplay(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    players = game.check_players(args.players)
    options = parse_options(args.option)
    with progress_bar(args.games, f"{game.title} games", "game", enabled=not args.json) as advance:
        summary = _selfplay(game, players, options, args, advance)
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{game.title}: {summary['games']} games, {players} players, bot {summary['bot']}")
    for seat, wins in enumerate(summary["wins"]):
        print(f"  {seat_label(game, players, seat)}: {wins} wins")
    for key, value in summary.items():
        if key not in ("game", "players", "games", "bot", "wins"):
            print(f"  {key}: {value}")
    return 0


def seat_label(game: Game, players: int, seat: int) -> str:
    """'seat 0 (Red)' where the seat has a colour."""
    name = seat_name(game.new_game(players=players), seat)
    return f"seat {seat}" if name.startswith("seat") else f"seat {seat} ({name})"


def _selfplay(
    game: Game, players: int, options: dict[str, Any], args: argparse.Namespace, advance: Callable[[], None]
) -> dict[str, Any]:
    if args.physical:
        from controller.terminal.physical import run_physical_selfplay

        return run_physical_selfplay(
            game,
            players,
            args.games,
            args.seed,
            args.bot,
            args.sensor,
            args.noise,
            args.profile,
            args.show_cards,
            advance,
            hand_style=args.hands,
            **options,
        )
    else:
        summary = run_selfplay(game, players, args.games, args.seed, args.bot, advance, **options)
    return summary


def cmd_demo(args: argparse.Namespace) -> int:
    """A whole game through the full stack on the simulated board, narrated and drawn with its LEDs."""
    game = load_game(args.game)
    players = game.check_players(args.players)
    if game.capabilities.surface == "cards":
        return _demo_cards(game, players, args)
    from controller.terminal.demo import run_demo

    ansi = sys.stdout.isatty() and not args.plain
    paced = sys.stdout.isatty() and not args.fast
    speed = (args.speed or DEMO_SPEED) if paced else None
    return run_demo(
        game,
        players,
        args.seed,
        args.bot,
        args.profile,
        args.sensor,
        args.noise,
        ansi,
        speed,
        **parse_options(args.option),
    )


def cmd_play(args: argparse.Namespace) -> int:
    """Play in the terminal: board games on the simulated board, card games in hot seat."""
    game = load_game(args.game)
    if game.capabilities.surface == "cards":
        return _play_cards(game, args)
    if args.humans is not None:
        raise UsageError("--humans is for the card games; board games take --bots")
    from controller.terminal.play import play_terminal

    players = game.check_players(args.players)
    bots = list(range(1, players)) if args.bots is None else sorted(arguments.seats_from(args.bots, players, "--bots"))
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
        profile=args.profile,
        **parse_options(args.option),
    )


def _play_cards(game: Game, args: argparse.Namespace) -> int:
    """Hot-seat play in the terminal (controller/terminal/hotseat.py): people share the screen, bots fill seats."""
    from controller.terminal.hotseat import run_hotseat

    players = game.check_players(args.players)
    if args.humans is not None:
        humans = arguments.seats_from(args.humans, players, "--humans")
    else:
        humans = frozenset(range(players)) - arguments.seats_from(args.bots, players, "--bots")
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

    paced = sys.stdout.isatty() and not args.fast
    shown = 0

    def show(state: State, text: str) -> None:
        nonlocal shown
        if paced:
            time.sleep(CARD_DEMO_PAUSE_S / (args.speed or DEMO_SPEED))
        shown += 1
        print(f"\nply {shown}: {text}")
        print(render_view(state, state.current_player))

    initial = game.new_game(players=players, seed=args.seed, **parse_options(args.option))
    print(render_view(initial, initial.current_player))
    final: list[State] = []

    def keep(state: State, text: str) -> None:
        show(state, text)
        final[:] = [state]

    record = play_game(game, players, args.seed, args.bot, on_action=keep, **parse_options(args.option))
    print(f"\n{game.title} over after {record.plies} plies: {result_line(final[0] if final else initial)}")
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
    from controller.terminal.bench import bench_steps, format_bench, run_bench

    if args.bots:
        from controller.terminal.bench_web import bench_thinking, format_thinking

        thinking = bench_thinking()
        print(json.dumps(thinking) if args.json else format_thinking(thinking))
        return 0
    if args.remote:
        from controller.terminal.bench_remote import bench_remote, format_remote

        try:
            remote = bench_remote(seed=args.seed)
        except OSError as error:
            print(f"tafel bench --remote: {error}", file=sys.stderr)
            return 2
        print(json.dumps(remote) if args.json else format_remote(remote))
        return 0
    if args.web:
        from controller.terminal.bench_web import bench_web, format_web

        web = bench_web()
        print(json.dumps(web) if args.json else format_web(web))
        return 0
    try:
        steps = bench_steps(args.games, args.only, service=not args.no_service)
    except ValueError as error:
        print(f"tafel bench: {error}", file=sys.stderr)
        return 2
    with progress_bar(steps, "bench", "step", enabled=not args.json) as advance:
        result = run_bench(
            games=args.games,
            seed=args.seed,
            noise=args.noise,
            playout_seconds=args.seconds,
            only=args.only,
            service=not args.no_service,
            on_step=advance,
        )
    print(json.dumps(result) if args.json else format_bench(result))
    return 0


def cmd_diagnose(args: argparse.Namespace) -> int:
    from controller.service.backends import BackendError
    from controller.service.config import ConfigError, load_config
    from controller.terminal.diagnose import check_imports, run_diagnose
    from hal.errors import HardwareError

    try:
        config = load_config(args.config)
        for advice in config.wiring_advice():
            print(f"tafel: advice: {advice}", file=sys.stderr)
        if args.imports:
            return check_imports(config)
        report = run_diagnose(config, args.seconds, args.walk)
    except (ConfigError, BackendError, HardwareError) as error:
        print(f"tafel: {error}", file=sys.stderr)
        return 2
    return 1 if report.always_read or report.together or report.unmapped else 0


def cmd_wiring(args: argparse.Namespace) -> int:
    from controller.service.config import ConfigError, load_config
    from controller.terminal.wiring_diagram import wiring_svg, wiring_table

    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"tafel: {error}", file=sys.stderr)
        return 2
    text = wiring_svg(config) if args.svg else wiring_table(config)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"tafel: cannot write {args.output}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"tafel: wrote {args.output}")
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    from controller.service.config import ConfigError, load_config
    from controller.terminal.calibrate import run_calibrate
    from hal.errors import HardwareError

    try:
        result = run_calibrate(load_config(args.config), write=args.write)
    except (ConfigError, HardwareError, ValueError) as error:
        print(f"tafel: {error}", file=sys.stderr)
        return 2
    return 1 if result.tight else 0


def cmd_run(args: argparse.Namespace) -> int:
    from controller.service.loop import Limits, run_service

    front_end = None
    if not args.no_web:
        from controller.web.server import start_web

        front_end = start_web
    return run_service(args.config, Limits(args.max_seconds, args.until_game_over), args.check, front_end=front_end)


def cmd_broker_config(args: argparse.Namespace) -> int:
    from controller.remote.broker import system_broker
    from controller.remote.topics import RELAY, check_name
    from controller.terminal.files import check_writable

    accounts = list(dict.fromkeys(name.strip() for name in args.accounts.split(",") if name.strip()))
    try:
        if not accounts:
            raise ValueError("name the accounts to make, comma-separated: boards and relay, e.g. kitchen,club,relay")
        for name in accounts:
            if name != RELAY:
                check_name(name)
        if args.passwords:  # before the broker's accounts change: new passwords must not be lost
            check_writable(Path(args.passwords), "--passwords")
        passwords = system_broker(Path(args.dir), accounts, args.port)
    except (OSError, ValueError) as error:
        print(f"tafel broker-config: {error}", file=sys.stderr)
        return 2
    lines = "".join(f"{name} {password}\n" for name, password in passwords.items())
    if args.passwords:
        from controller.service.disk import atomic_write, trouble_of

        path = Path(args.passwords)
        try:  # whole or not at all, and private from its first byte
            atomic_write(path, lines.encode("utf-8"), mode=0o600)
        except OSError as error:  # the accounts have changed: their passwords must reach someone
            print(
                f"tafel broker-config: could not write the passwords to {path} ({trouble_of(error)}); "
                "here they are instead, keep them:",
                file=sys.stderr,
            )
            print(lines, end="")
            return 1
        print(f"tafel broker-config: {len(accounts)} accounts; their passwords are in {path}")
    else:
        print(lines, end="")
    print(f"tafel broker-config: wrote {Path(args.dir) / 'conf.d' / 'tafel.conf'}; restart mosquitto", file=sys.stderr)
    return 0


def cmd_relay(args: argparse.Namespace) -> int:
    import signal

    from controller.remote.link import BrokerSettings
    from controller.web.relay_page import RelayServer

    password = None
    if args.password_file:
        try:
            password = read_text(args.password_file, "the password file", PASSWORD_FILE_LIMIT).strip()
        except UnreadableFile as error:
            print(f"tafel relay: {error}", file=sys.stderr)
            return 2
    settings = BrokerSettings("relay", args.broker, args.port, args.username, password, args.tls)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    server = RelayServer(settings, Path(args.games_dir), args.listen, args.http_port)
    signal.signal(signal.SIGTERM, lambda *_: server.stopping.set())
    print(f"tafel relay: following {args.broker}:{args.port}; the page is on port {args.http_port}")
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0


def cmd_ladder(args: argparse.Namespace) -> int:
    from controller.terminal.files import check_writable
    from controller.terminal.ladder import format_ladder, ladder_svg, run_ladder, schedule

    game = load_game(args.game)
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    results = Path(args.results or f"ladder-{game.name}.jsonl")
    if args.svg:
        check_writable(Path(args.svg), "--svg")  # before the ladder plays, not after
    total = len(schedule(levels, max(args.games, 0), args.seed))
    with progress_bar(total, f"{game.title} ladder", "game", enabled=not args.json) as advance:
        summary = run_ladder(
            game, levels, args.games, args.seed, results, parse_options(args.option), advance, args.jobs
        )
    if args.svg:
        Path(args.svg).write_text(ladder_svg(summary), encoding="utf-8")
    print(json.dumps(summary) if args.json else format_ladder(summary))
    return 0


COMMANDS: dict[str, arguments.Command] = {
    "games": cmd_games,
    "selfplay": cmd_selfplay,
    "demo": cmd_demo,
    "play": cmd_play,
    "companion": cmd_companion,
    "bench": cmd_bench,
    "run": cmd_run,
    "diagnose": cmd_diagnose,
    "wiring": cmd_wiring,
    "calibrate": cmd_calibrate,
    "ladder": cmd_ladder,
    "relay": cmd_relay,
    "broker-config": cmd_broker_config,
}


def build_parser() -> argparse.ArgumentParser:
    return arguments.build_parser(COMMANDS)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
        return status
    except (UsageError, ValueError) as error:
        print(f"tafel: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ntafel: stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`tafel demo zodiac | head`): stop quietly. Point stdout at /dev/null
        # so that the interpreter's final flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as error:  # a file that cannot be read or written: said in words, not a traceback
        where = f"{error.filename}: " if error.filename else ""
        print(f"tafel: {where}{(error.strerror or str(error)).lower()}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
