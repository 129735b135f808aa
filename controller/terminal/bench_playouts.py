"""Random playout speed of every game against python-chess's, measured side by side.

A playout speed is one game's actions per second when every action is chosen at random from the
legal ones: what a search gets per second. python-chess on the same machine is the reference. On a
shared machine the speed of everything drifts by several per cent within seconds, so one long
measurement per game compares games measured at different moments. Instead the time is cut into
rounds, and each round measures python-chess and every game one after the other in short slices:
each figure is the median of its rounds, and each game's ratio to python-chess the median of its
rounds' ratios (each against the python-chess slice of the same round).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from controller.games import Game

ROUNDS = 8
WARM_UP = 0.25
"""Of each meter's share of the time, the part played untimed first: the engines fill their tables
(Zillo's card ends, Klotz's paths) on first use, and a search, which runs for seconds in a process
that lives for hours, meets them full."""

Play = Callable[[int, random.Random], int]
"""Plays one whole random game (the game's index in the run, the random source): its actions."""


@dataclass
class PlayoutMeter:
    """Plays game after game for as long as asked, continuing with the next game each time."""

    play: Play
    rng: random.Random
    games: int = 0
    speeds: list[float] = field(default_factory=list)

    def run(self, seconds: float) -> float:
        """Actions per second over about `seconds` of whole games (at least one)."""
        actions = 0
        started = time.perf_counter()
        while True:
            actions += self.play(self.games, self.rng)
            self.games += 1
            elapsed = time.perf_counter() - started
            if elapsed >= seconds:
                return actions / elapsed


def game_play(game: Game, seed: int) -> Play:
    def play(index: int, rng: random.Random) -> int:
        state = game.new_game(seed=seed + index)
        actions = 0
        while not state.is_terminal():
            state = state.apply_legal(rng.choice(state.legal_actions()))
            actions += 1
        return actions

    return play


def chess_play() -> Play | None:
    """python-chess random games to the end or 300 plies (None if python-chess is not installed)."""
    try:
        import chess
    except ImportError:
        return None

    def play(index: int, rng: random.Random) -> int:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.ply() < 300:
            board.push(rng.choice(list(board.legal_moves)))
        return board.ply()

    return play


@dataclass(frozen=True)
class PlayoutSpeeds:
    speeds: dict[str, float]  # actions per second, by game (median of the rounds)
    chess: float | None  # python-chess's, or None where it is not installed
    ratios: dict[str, float]  # by game: median of the rounds' ratios to python-chess


def playout_speeds(
    games: Mapping[str, Game], seconds: float, seed: int = 0, on_round: Callable[[], None] | None = None
) -> PlayoutSpeeds:
    """Every game's random playout speed and python-chess's, `seconds` for each in all, in rounds."""
    plays: dict[str, Play] = {name: game_play(game, seed) for name, game in games.items()}
    reference = chess_play()
    meters = {name: PlayoutMeter(play, random.Random(seed)) for name, play in plays.items()}
    chess = PlayoutMeter(reference, random.Random(seed)) if reference is not None else None
    everything: list[PlayoutMeter] = [*([chess] if chess else []), *meters.values()]
    for meter in everything:
        meter.run(seconds * WARM_UP)
    slice_seconds = seconds / ROUNDS
    for _ in range(ROUNDS):
        for meter in everything:
            meter.speeds.append(meter.run(slice_seconds))
        if on_round is not None:
            on_round()
    chess_speed = statistics.median(chess.speeds) if chess else None
    ratios = {name: _median_ratio(meter.speeds, chess.speeds) for name, meter in meters.items()} if chess else {}
    return PlayoutSpeeds({name: statistics.median(meter.speeds) for name, meter in meters.items()}, chess_speed, ratios)


def _median_ratio(speeds: Iterable[float], references: Iterable[float]) -> float:
    return statistics.median(speed / reference for speed, reference in zip(speeds, references, strict=True))
