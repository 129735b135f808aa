"""Bot-versus-bot games and their summary (`tafel selfplay`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.bots import make_bot
from controller.bots.seeds import bot_seed, game_seed
from controller.games import Game, State


@dataclass(frozen=True)
class GameRecord:
    seed: int
    actions: tuple[str, ...]
    returns: tuple[float, ...]

    @property
    def plies(self) -> int:
        return len(self.actions)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that won (a team game has several); empty for a draw."""
        return tuple(seat for seat, value in enumerate(self.returns) if value == 1.0)


def play_game(
    game: Game,
    players: int,
    seed: int,
    bot: str,
    on_action: Callable[[State, str], None] | None = None,
    **options: Any,
) -> GameRecord:
    """One bot game from the initial state to the end; `on_action` sees each new state."""
    state = game.new_game(players=players, seed=seed, **options)
    bots = [make_bot(bot, bot_seed(seed, seat)) for seat in range(players)]
    actions: list[str] = []
    while not state.is_terminal():
        action = bots[state.current_player].choose(state)
        text = state.action_to_str(action)
        state = state.apply(action)
        actions.append(text)
        if on_action is not None:
            on_action(state, text)
    return GameRecord(seed, tuple(actions), state.returns())


def run_selfplay(
    game: Game,
    players: int,
    games: int,
    seed: int,
    bot: str,
    on_game: Callable[[], None] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Play `games` games and summarise them; everything but `actions_per_s` depends only on the seed.
    `on_game` is called after each game (a progress bar)."""
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    players = game.check_players(players)
    started = time.perf_counter()
    records = []
    for index in range(games):
        records.append(play_game(game, players, game_seed(seed, index), bot, **options))
        if on_game is not None:
            on_game()
    elapsed = time.perf_counter() - started
    wins = [0] * players
    draws = 0
    losses = 0  # nobody won and nobody shared a result: a lost solo game
    for record in records:
        if not record.winners and any(record.returns):
            draws += 1
        elif not record.winners:
            losses += 1
        for seat in record.winners:
            wins[seat] += 1
    total = sum(record.plies for record in records)
    return {
        "game": game.name,
        "players": players,
        "games": games,
        "seed": seed,
        "bot": bot,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "avg_plies": round(total / games, 2),
        "actions_per_s": round(total / elapsed, 1) if elapsed > 0 else None,
    }
