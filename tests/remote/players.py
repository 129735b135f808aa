"""Boards without pieces for the remote tests: the bench's bot boards (controller.terminal.bench_remote),
each playing its seats straight on the position its RemoteTable says, so the tests exercise the
link, the broker and the protocol."""

from __future__ import annotations

import time
from collections.abc import Callable

from controller.games import GAMES
from controller.remote.guest import Guest
from controller.remote.host import Host
from controller.terminal.bench_remote import BotBoard, make_board
from tests.remote.conftest import PASSWORDS

NAMES = ("h", "g1", "g2", "g3")


def board_for(
    game_name: str,
    players: int,
    port: int,
    index: int,
    seed: int = 1,
    game_id: str = "g1",
    keepalive_s: int = 15,
    names: tuple[str, ...] = NAMES,
    ca_file: str | None = None,
) -> BotBoard:
    """Board `index` of a game among boards h, g1, g2, g3 (h hosts), connected, playing greedily; a
    guest starts knowing nothing (as after a power cut) and asks the host."""
    state = GAMES[game_name].new_game(players=players, seed=seed)
    return make_board(
        state,
        names[:players],
        index,
        port,
        PASSWORDS,
        seed,
        game_id,
        "greedy",
        keepalive_s=keepalive_s,
        ca_file=ca_file,
    )


def boards_for(
    game_name: str, players: int, port: int, seed: int = 1, game_id: str = "g1", names: tuple[str, ...] = NAMES
) -> list[BotBoard]:
    """The boards of one game (`names[0]` hosts); each name is one board, on one connection."""
    return [board_for(game_name, players, port, index, seed, game_id, names=names) for index in range(players)]


def run_until(boards: list[BotBoard], done: Callable[[], bool], seconds: float = 60.0) -> None:
    """Step every board until `done` (a few milliseconds apart: the broker's thread delivers)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError("the boards did not get there in time:\n" + "\n".join(map(where, boards)))
        for board in boards:
            board.step()
        time.sleep(0.002)


def where(board: BotBoard) -> str:
    """Where one board stands, for a test that gives up: its ply, its link, and what it last said."""
    role = board.table.role
    stand = f"board {board.name}: at move {role.ply + 1}, link {'up' if board.table.link.connected else 'down'}"
    if isinstance(role, Guest):
        stand += f", waiting on {[p.move for p in role.pending]}, synced {role.synced}"
    else:
        stand += f", over {role.state.is_terminal()}"
    return f"{stand}; said {board.said[-6:]}; private {board.private[-3:]}"


def finished(boards: list[BotBoard]) -> bool:
    host = boards[0].table.role
    assert isinstance(host, Host)
    return host.state.is_terminal() and all(
        board.position is not None and board.table.role.ply == host.ply for board in boards[1:]
    )
