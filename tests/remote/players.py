"""Boards without pieces for the remote tests: each plays its seats with a bot straight on the
position its RemoteTable says, so the tests exercise the link, the broker and the protocol."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from controller.bots import make_bot
from controller.games import GAMES, State
from controller.remote import topics
from controller.remote.guest import Guest
from controller.remote.host import Host
from controller.remote.link import BrokerSettings, Link
from controller.remote.table import RemoteTable
from tests.remote.conftest import PASSWORDS


class BotBoard:
    """A board whose seats a bot plays the moment the position is theirs."""

    def __init__(self, name: str, table: RemoteTable, seed: int) -> None:
        self.name = name
        self.table = table
        self.position: State | None = table.role.state if isinstance(table.role, Host) else None
        self.journal: list[str] = []  # every move this board saw, as it may read them
        self._bot = make_bot("greedy", seed)
        self.said: list[str] = []

    def step(self) -> None:
        update = self.table.poll()
        self.said += update.said
        if update.position is not None:
            self.position = update.position[0]
        state = self.position
        if state is None or state.is_terminal() or not self.table.owns(state.current_player):
            return
        role = self.table.role
        if isinstance(role, Guest) and role.pending:
            return  # wait for the host's word on the last move
        action = self._bot.choose(state)
        self.table.committed(state, action)
        if isinstance(role, Host):
            self.position = role.state
        else:
            position = role.position()
            assert position is not None
            self.position = position[0]

    def moves(self) -> tuple[str, ...]:
        role = self.table.role
        return tuple(p.public for p in role.played) if isinstance(role, Host) else tuple(role.moves)


def link_for(name: str, port: int) -> Link:
    return Link(BrokerSettings(name, "127.0.0.1", port, name, PASSWORDS[name]), follow=[topics.ALL_PRESENCE])


def board_for(game_name: str, players: int, port: int, index: int, seed: int = 1, game_id: str = "g1") -> BotBoard:
    """Board `index` of a game among boards h, g1, g2, g3 (h hosts), connected; a guest starts
    knowing nothing (as after a power cut) and asks the host."""
    game = GAMES[game_name]
    names = ["h", "g1", "g2", "g3"][:players]
    name = names[index]
    role: Host | Guest
    if index == 0:
        role = Host(name, game_id, [game.new_game(players=players, seed=seed)], names, rng=random.Random(seed))
    else:
        role = Guest(name, "h", game_id, game, names)
    table = RemoteTable(link_for(name, port), role)
    table.link.start()
    return BotBoard(name, table, seed + index)


def boards_for(game_name: str, players: int, port: int, seed: int = 1, game_id: str = "g1") -> list[BotBoard]:
    return [board_for(game_name, players, port, index, seed, game_id) for index in range(players)]


def run_until(boards: list[BotBoard], done: Callable[[], bool], seconds: float = 60.0) -> None:
    """Step every board until `done` (a few milliseconds apart: the broker's thread delivers)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            last = [board.said[-1] for board in boards if board.said]
            raise AssertionError(f"the boards did not get there in time; last said: {last}")
        for board in boards:
            board.step()
        time.sleep(0.002)


def finished(boards: list[BotBoard]) -> bool:
    host = boards[0].table.role
    assert isinstance(host, Host)
    return host.state.is_terminal() and all(
        board.position is not None and board.table.role.ply == host.ply for board in boards[1:]
    )
