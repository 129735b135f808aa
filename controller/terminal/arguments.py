"""The `tafel` command line's grammar: every command and option with its help text.

Kept apart from the commands themselves (cli.py) so that `tafel --help` and `tafel CMD --help` can be
read in one place and tested for completeness.
"""

from __future__ import annotations

import argparse
import functools
import math
from collections.abc import Callable, Iterator

from controller import __version__
from controller.bots import BOTS
from controller.games import GAMES
from hal.sensors import MODEL_NAMES
from sim.hands import HAND_STYLES

NOISE_LEVELS = ("none", "low", "high", "rough")
GAME_LIST = ", ".join(GAMES)
EPILOG = """examples:
  tafel demo klotz                     watch four bots play Klotz on the simulated board
  tafel play fillit                    play Fillit against a bot (type `help` at the prompt)
  tafel games zillo                    Zillo's player counts and options
  tafel selfplay zillo --games 20      twenty bot games and their summary
  tafel ladder fillit --games 20       rate Fillit's bot levels against each other
  tafel run --config wiring/examples/sim.toml   the service on the simulated board
"""

Command = Callable[[argparse.Namespace], int]


def positive(text: str) -> float:
    """A time or pace on the command line: a number more than 0 (and not endless)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number more than 0, not {text}")
    return value


def port(text: str) -> int:
    """A network port: a whole number from 1 to 65535."""
    if not text.strip().isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, not {text!r}")
    return int(text)


@functools.cache
def card_games() -> tuple[str, ...]:
    """The games played at a card table (their capabilities say so)."""
    return tuple(name for name, game in GAMES.items() if game.capabilities.surface == "cards")


class CardGames:
    """The companion's game choices, worked out when argparse first asks (parsing or printing the
    companion's arguments), so that no other command loads every game to build its parser."""

    def __iter__(self) -> Iterator[str]:
        return iter(card_games())

    def __contains__(self, name: object) -> bool:
        return name in card_games()


def _game(parser: argparse.ArgumentParser, choices: CardGames | None = None) -> None:
    """The game argument; checked by the rules (`unknown game 'chess' (games: ...)`) unless `choices`."""
    if choices is None:
        parser.add_argument("game", metavar="GAME", help=f"one of: {GAME_LIST}")
    else:
        parser.add_argument("game", choices=choices, metavar="GAME", help="one of: %(choices)s")


def _players(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, metavar="N", help="number of players (default: the game's usual number)")


def _seed(parser: argparse.ArgumentParser, default: int = 0) -> None:
    parser.add_argument(
        "--seed",
        type=int,
        default=default,
        metavar="N",
        help=f"seed of the deal and the bots: same seed, same game (default {default})",
    )


def _bot(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bot",
        default="greedy",
        choices=list(BOTS),
        help="which bot plays the bot seats, weakest first (default greedy; docs/bots.md)",
    )


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. -o max_plies=null (repeatable; `tafel games GAME` lists them)",
    )


def _board(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sensor", choices=MODEL_NAMES, help="sensor model of the simulated board (default: the profile's)"
    )
    parser.add_argument("--noise", default="none", choices=NOISE_LEVELS, help="simulated sensor noise (default none)")
    parser.add_argument("--profile", metavar="BOARD", help="board profile name or path (default: the game's board)")


def _plain(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--plain", action="store_true", help="no ANSI colours, even on a terminal")


def build_parser(commands: dict[str, Command]) -> argparse.ArgumentParser:
    """The parser; `commands` maps each command name to the function that runs it."""
    parser = argparse.ArgumentParser(
        prog="tafel",
        description="Controller of the tafel smart board: five games refereed on a board of sensors and LEDs.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tafel {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    games = sub.add_parser("games", help="list the games, or one game's players and options")
    games.add_argument("game", nargs="?", metavar="GAME", help=f"one of: {GAME_LIST}")
    games.set_defaults(run=commands["games"])

    selfplay = sub.add_parser("selfplay", help="play bot games and print a summary")
    _game(selfplay)
    _players(selfplay)
    selfplay.add_argument("--games", type=int, default=10, metavar="N", help="how many games (default 10)")
    _seed(selfplay)
    _bot(selfplay)
    selfplay.add_argument("--json", action="store_true", help="print one JSON object (and no progress bar)")
    _options(selfplay)
    selfplay.add_argument(
        "--physical", action="store_true", help="play through the simulated board, virtual hands and the tracker"
    )
    selfplay.add_argument(
        "--show-cards", action="store_true", help="with --physical: players show each card to the reader first"
    )
    selfplay.add_argument(
        "--hands",
        choices=tuple(HAND_STYLES),
        help="with --physical: the virtual players' habits (default: the noise level's; docs/tracker.md)",
    )
    _board(selfplay)
    selfplay.set_defaults(run=commands["selfplay"])

    demo = sub.add_parser("demo", help="watch a bot game on the simulated board")
    _game(demo)
    _players(demo)
    _seed(demo)
    _bot(demo)
    _board(demo)
    demo.add_argument(
        "--fast", action="store_true", help="no pauses: print the whole game at once (default when not on a terminal)"
    )
    demo.add_argument(
        "--speed",
        type=positive,
        default=None,
        metavar="X",
        help="pace of the hands on a terminal: 1 = as fast as people play, 4 = four times faster (default 4)",
    )
    _plain(demo)
    _options(demo)
    demo.set_defaults(run=commands["demo"])

    play = sub.add_parser("play", help="play in the terminal against bots (type `help` at the prompt)")
    _game(play)
    _players(play)
    _seed(play)
    seats = play.add_mutually_exclusive_group()
    seats.add_argument("--bots", metavar="SEATS", help="seats played by bots, e.g. 1,2 (default: all but seat 0)")
    seats.add_argument("--humans", metavar="SEATS", help="card games: seats played by people, e.g. 0,2")
    _bot(play)
    _board(play)
    _plain(play)
    _options(play)
    play.set_defaults(run=commands["play"])

    companion = sub.add_parser("companion", help="referee a table of real cards (Zillertal, Zodiac)")
    _game(companion, CardGames())
    _players(companion)
    _seed(companion)
    companion.add_argument("--profile", metavar="BOARD", help="board profile name or path (default: cards)")
    _plain(companion)
    companion.add_argument("--neopixel", action="store_true", help="also drive the real LED strip (on the Pi)")
    companion.add_argument(
        "--config",
        metavar="FILE",
        help="service configuration whose [neopixel] table wires the strip (with --neopixel)",
    )
    _options(companion)
    companion.set_defaults(run=commands["companion"])

    bench = sub.add_parser(
        "bench", help="measure the tracker, LED latency, playout speed and the service over whole games"
    )
    bench.add_argument(
        "--games", type=int, default=4, metavar="N", help="physical games per game and sensor model (default 4)"
    )
    bench.add_argument("--only", metavar="GAME", help="bench one game only (its physical games and service run)")
    bench.add_argument(
        "--no-service", action="store_true", help="leave out the whole-game service runs (memory, GC, cost per scan)"
    )
    _seed(bench, 1)
    bench.add_argument("--noise", default="low", choices=NOISE_LEVELS, help="simulated sensor noise (default low)")
    bench.add_argument(
        "--seconds",
        type=positive,
        default=2.0,
        metavar="S",
        help="playout time for each game and for python-chess, in rounds side by side (default 2)",
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object (and no progress bar)")
    bench.add_argument(
        "--web",
        action="store_true",
        help="measure the web app instead: scan jitter and memory with 8 pages connected, commit-to-page time,"
        " page load in Chromium (about a minute)",
    )
    bench.add_argument(
        "--bots",
        action="store_true",
        help="measure the scan jitter with the strongest bots thinking instead of random ones (about two minutes)",
    )
    bench.add_argument(
        "--remote",
        action="store_true",
        help="measure remote play instead: 100 boards in 50 games through a private Mosquitto and a relay,"
        " at people's pace and flat out (about two minutes; docs/remote.md)",
    )
    bench.set_defaults(run=commands["bench"])

    run = sub.add_parser("run", help="run the board as a service (what systemd starts); see docs/service.md")
    run.add_argument(
        "--config",
        default="/etc/tafel/config.toml",
        metavar="FILE",
        help="configuration file (default /etc/tafel/config.toml; examples in wiring/examples/)",
    )
    run.add_argument("--check", action="store_true", help="validate the configuration and exit")
    run.add_argument("--max-seconds", type=positive, metavar="S", help="stop after this many seconds")
    run.add_argument("--until-game-over", action="store_true", help="stop once the game is over")
    run.add_argument("--no-web", action="store_true", help="do not serve the web app ([web] in the configuration)")
    run.set_defaults(run=commands["run"])

    diagnose = sub.add_parser("diagnose", help="check a board's sensors and LEDs before playing (wiring/README.md)")
    diagnose.add_argument(
        "--config", default="/etc/tafel/config.toml", metavar="FILE", help="the board's service configuration"
    )
    diagnose.add_argument(
        "--seconds", type=positive, default=60.0, metavar="S", help="how long to read the sensors (default 60)"
    )
    diagnose.add_argument("--walk", action="store_true", help="first light each LED in profile order, one at a time")
    diagnose.add_argument(
        "--imports",
        action="store_true",
        help="only check that every library the configured backends load is installed, and name what is missing",
    )
    diagnose.set_defaults(run=commands["diagnose"])

    calibrate = sub.add_parser("calibrate", help="measure an analog hall board and choose its thresholds")
    calibrate.add_argument(
        "--config", default="/etc/tafel/config.toml", metavar="FILE", help="the board's service configuration"
    )
    calibrate.add_argument(
        "--write", action="store_true", help="store the thresholds in the configuration's [gpio.analog] table"
    )
    calibrate.set_defaults(run=commands["calibrate"])

    wiring = sub.add_parser("wiring", help="show how a configuration is wired: its header pins, chips and LED chain")
    wiring.add_argument("config", metavar="CONFIG", help="a service configuration (e.g. wiring/examples/gpio-mux.toml)")
    wiring.add_argument("--svg", action="store_true", help="draw the wiring as an SVG picture instead of a pin list")
    wiring.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of the terminal")
    wiring.set_defaults(run=commands["wiring"])

    broker = sub.add_parser("broker-config", help="set up Mosquitto for a club's boards (docs/remote.md)")
    broker.add_argument("accounts", help="the boards' names and relay, comma-separated, e.g. kitchen,club,relay")
    broker.add_argument("--dir", default="/etc/mosquitto", help="Mosquitto's configuration directory")
    broker.add_argument("--port", type=port, default=1883, metavar="N", help="the port to listen on (default 1883)")
    broker.add_argument(
        "--passwords", metavar="FILE", help="write the new accounts' passwords here (mode 600) instead of printing them"
    )
    broker.set_defaults(run=commands["broker-config"])

    relay = sub.add_parser("relay", help="serve a club's games live from the broker (docs/remote.md)")
    relay.add_argument("--broker", default="localhost", metavar="HOST", help="the MQTT broker (default localhost)")
    relay.add_argument("--port", type=port, default=1883, metavar="N", help="the broker's port (default 1883)")
    relay.add_argument("--username", default="relay", help="the relay's broker account (default relay)")
    relay.add_argument("--password-file", metavar="FILE", help="a file holding the account's password")
    relay.add_argument("--tls", action="store_true", help="connect with TLS (the system's certificate authorities)")
    relay.add_argument("--listen", default="0.0.0.0", metavar="ADDRESS", help="where the page listens (default all)")
    relay.add_argument("--http-port", type=port, default=8090, metavar="N", help="the page's port (default 8090)")
    relay.add_argument("--games-dir", default="relay-games", metavar="DIR", help="where finished games are kept")
    relay.set_defaults(run=commands["relay"])

    ladder = sub.add_parser("ladder", help="rate the bot levels of a game against each other (docs/bots.md)")
    _game(ladder)
    ladder.add_argument(
        "--levels",
        default=",".join(BOTS),
        metavar="A,B,...",
        help=f"the levels to pair, weakest first (default {','.join(BOTS)})",
    )
    ladder.add_argument("--games", type=int, default=20, metavar="N", help="games per pairing (default 20)")
    _seed(ladder)
    _options(ladder)
    ladder.add_argument(
        "--results",
        metavar="FILE",
        help="where each game's result is kept, so an interrupted ladder goes on (default ladder-GAME.jsonl)",
    )
    ladder.add_argument("--svg", metavar="FILE", help="also draw rating against level into FILE")
    ladder.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="play N games at a time, one per core (default 1); the results are the same",
    )
    ladder.add_argument("--json", action="store_true", help="print one JSON object (and no progress bar)")
    ladder.set_defaults(run=commands["ladder"])
    return parser


def seats_from(text: str | None, players: int, what: str) -> frozenset[int]:
    """Seats from a comma list like `1,2`; a clear error for seats the game does not have."""
    if text is None or not text.strip():
        return frozenset()
    seats = set()
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or not 0 <= int(part) < players:
            hint = "; a bot's level is chosen with --bot" if part in BOTS else ""
            raise ValueError(f"{what}: {part!r} is not a seat (0 to {players - 1}){hint}")
        seats.add(int(part))
    return frozenset(seats)
