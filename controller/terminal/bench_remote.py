"""`tafel bench --remote`: many boards in many games at once through one private Mosquitto and one
relay, bots moving as fast as the protocol lets them (docs/remote.md, "Measured").

Every board is a RemoteTable with its own broker connection, as on a real board; a bot plays its
seats straight on the position it is told (no pieces, so the broker and the protocol are what is
measured). A move's latency is from the moment the moving board hands it to its link until the other
board has the position after it; the relay's lag is from the host's record of a ply until the relay
has it."""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from controller.bots import make_bot
from controller.games import GAMES, State
from controller.remote import topics
from controller.remote.broker import PrivateBroker
from controller.remote.guest import Guest
from controller.remote.host import Host
from controller.remote.link import KEEPALIVE_S, BrokerSettings, Incoming, Link
from controller.remote.messages import Record
from controller.remote.relay import Relay
from controller.remote.table import RemoteTable


class BotBoard:
    """A board without pieces: a bot plays its seats the moment the position is theirs."""

    def __init__(
        self,
        table: RemoteTable,
        bot: str,
        seed: int,
        clock: Callable[[], float] = time.monotonic,
        think_s: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        self.table = table
        self._think_s = think_s
        self._rng = random.Random(seed)
        self._due: tuple[State, float] | None = None  # the position on turn here, and when to move in it
        self.position: State | None = table.role.state if isinstance(table.role, Host) else None
        self.said: list[str] = []
        self.private: list[tuple[int, str]] = []  # words for one seat alone (a refusal of its move)
        self._bot = make_bot(bot, seed)
        self._clock = clock
        self.sent: dict[int, float] = {}  # ply reached by this board's move -> when it was handed over
        self.arrived: dict[int, float] = {}  # ply -> when this board had the position after it

    @property
    def name(self) -> str:
        return self.table.link.settings.board

    def step(self) -> None:
        update = self.table.poll()
        self.said += update.said
        self.private += update.private
        role = self.table.role
        if update.position is not None:
            self.position = update.position[0]
            self.arrived.setdefault(role.ply, self._clock())
        state = self.position
        if state is None or state.is_terminal() or not self.table.owns(state.current_player):
            return
        if isinstance(role, Guest) and (role.pending or role.ply < 0):
            return  # wait for the host's word on the last move
        now = self._clock()
        if self._due is None or self._due[0] is not state:
            self._due = (state, now + self._rng.uniform(*self._think_s))
        if now < self._due[1]:
            return  # thinking, as a person does
        self.sent[role.ply + 1] = now
        self.table.committed(state, self._bot.choose(state))
        position = (role.state, []) if isinstance(role, Host) else role.position()
        assert position is not None
        self.position = position[0]

    def moves(self) -> tuple[str, ...]:
        role = self.table.role
        return tuple(p.public for p in role.played) if isinstance(role, Host) else tuple(role.moves)


def make_board(
    start: State,
    names: Sequence[str],
    index: int,
    port: int,
    passwords: Mapping[str, str],
    seed: int,
    game_id: str,
    bot: str,
    think_s: tuple[float, float] = (0.0, 0.0),
    keepalive_s: int = KEEPALIVE_S,
    ca_file: str | None = None,
) -> BotBoard:
    """Board `names[index]` of a game starting at `start`, one seat each, connected; `names[0]`
    hosts, a guest starts knowing nothing and asks the host. With `ca_file` the link speaks TLS
    and trusts that certificate authority."""
    name = names[index]
    role: Host | Guest
    if index == 0:
        role = Host(name, game_id, [start], names, rng=random.Random(seed))
    else:
        role = Guest(name, names[0], game_id, start.game, names)
    tls = ca_file is not None
    settings = BrokerSettings(name, "127.0.0.1", port, name, passwords[name], tls, ca_file, keepalive_s=keepalive_s)
    link = Link(settings, follow=[topics.ALL_PRESENCE])
    table = RemoteTable(link, role)
    link.start()
    return BotBoard(table, bot, seed + index, think_s=think_s)


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


PACES = {"people": (0.5, 3.0), "flat-out": (0.0, 0.0)}  # seconds a bot thinks before each move
PLIES = 40  # each bench game is a Klotz game of this many moves (max_plies)


def bench_remote(games: int = 50, seed: int = 1, limit_s: float = 600) -> dict[str, Any]:
    """`games` two-board Klotz games at once through one private broker and one relay: once with
    bots that think as long as people do, once flat out."""
    return {pace: _bench(games, think_s, seed, limit_s) | {"pace": pace} for pace, think_s in PACES.items()}


def _bench(games: int, think_s: tuple[float, float], seed: int, limit_s: float) -> dict[str, Any]:
    game, bot = "klotz", "random"
    names = [f"b{index:03d}" for index in range(2 * games)]
    passwords = {name: f"pw-{name}" for name in [*names, topics.RELAY]}
    with tempfile.TemporaryDirectory(prefix="tafel-bench-remote-") as scratch:
        broker = PrivateBroker(Path(scratch), passwords)
        broker.start()
        relay = Relay(Path(scratch) / "relay")
        relay_link = Link(
            BrokerSettings(topics.RELAY, "127.0.0.1", broker.port, topics.RELAY, passwords[topics.RELAY]),
            follow=[topics.ALL_RECORDS],
        )
        relay_link.start()
        relay_seen: dict[tuple[str, int], float] = {}
        tables = []
        try:
            for index in range(games):
                named = names[2 * index : 2 * index + 2]
                start = GAMES[game].new_game(players=2, seed=seed + index, max_plies=PLIES)
                tables.append(
                    [
                        make_board(start, named, seat, broker.port, passwords, seed + index, f"x{index}", bot, think_s)
                        for seat in range(2)
                    ]
                )
            boards = [board for pair in tables for board in pair]
            started = time.monotonic()
            while time.monotonic() - started < limit_s:
                for board in boards:
                    board.step()
                for event in relay_link.drain():
                    if isinstance(event, Incoming) and isinstance(event.message, Record):
                        relay.heard(event)
                        relay_seen.setdefault((event.address.game, event.message.ply), time.monotonic())
                if all(_over(pair) for pair in tables):
                    break
                time.sleep(0.001)
            elapsed = time.monotonic() - started
        finally:
            for pair in tables:
                for board in pair:
                    board.table.link.close()
            relay_link.close()
            broker.stop()
    return _summary(tables, relay_seen, elapsed, game, bot)


def _over(pair: list[BotBoard]) -> bool:
    host = pair[0].table.role
    assert isinstance(host, Host)
    return host.state.is_terminal() and all(board.table.role.ply == host.ply for board in pair[1:])


def _summary(
    tables: list[list[BotBoard]], relay_seen: dict[tuple[str, int], float], elapsed: float, game: str, bot: str
) -> dict[str, Any]:
    latencies, relay_lags = [], []
    lost = duplicated = unfinished = moves = 0
    for pair in tables:
        host = pair[0].table.role
        assert isinstance(host, Host)
        moves += host.ply
        if not _over(pair):
            unfinished += 1
        reference = pair[0].moves()
        for board in pair[1:]:
            got = board.moves()
            lost += max(0, len(reference) - len(got))
            duplicated += max(0, len(got) - len(reference))
        for mover in pair:
            for ply, sent in mover.sent.items():
                for other in pair:
                    if other is not mover and ply in other.arrived:
                        latencies.append((other.arrived[ply] - sent) * 1000)
        hosted = {ply: at for ply, at in pair[0].arrived.items()} | pair[0].sent
        for ply, at in hosted.items():
            seen = relay_seen.get((host.game_id, ply))
            if seen is not None:
                relay_lags.append(max(0.0, (seen - at) * 1000))
    return {
        "boards": sum(len(pair) for pair in tables),
        "games": len(tables),
        "game": game,
        "bot": bot,
        "moves": moves,
        "seconds": round(elapsed, 1),
        "lost": lost,
        "duplicated": duplicated,
        "unfinished": unfinished,
        "latency_ms": {"p50": round(_percentile(latencies, 0.5), 1), "p99": round(_percentile(latencies, 0.99), 1)},
        "relay_lag_ms": {
            "p50": round(_percentile(relay_lags, 0.5), 1),
            "p99": round(_percentile(relay_lags, 0.99), 1),
            "max": round(max(relay_lags, default=0.0), 1),
        },
    }


def format_remote(results: dict[str, Any]) -> str:
    return "\n".join(_format(result) for result in results.values())


def _format(result: dict[str, Any]) -> str:
    latency, lag = result["latency_ms"], result["relay_lag_ms"]
    return "\n".join(
        [
            f"remote, {result['pace']}: {result['boards']} boards in {result['games']} {result['game']} games "
            f"({result['bot']} bots), {result['moves']} moves in {result['seconds']} s",
            f"  lost {result['lost']}, duplicated {result['duplicated']}, unfinished games {result['unfinished']}",
            f"  board-to-board move latency: p50 {latency['p50']} ms, p99 {latency['p99']} ms",
            f"  relay lag behind the host: p50 {lag['p50']} ms, p99 {lag['p99']} ms, max {lag['max']} ms",
        ]
    )
