"""Playout speeds are measured side by side with python-chess, in rounds, so that a machine whose
speed drifts compares each game with python-chess at the same moment."""

from __future__ import annotations

import random

from controller.games import GAMES
from controller.terminal.bench_playouts import PlayoutMeter, _median_ratio, game_play


def test_a_meter_goes_on_with_the_next_game_and_plays_at_least_one_whole_game() -> None:
    played: list[int] = []

    def play(index: int, rng: random.Random) -> int:
        played.append(index)
        return 10

    meter = PlayoutMeter(play, random.Random(0))
    assert meter.run(0.0) > 0
    assert meter.run(0.0) > 0
    assert played == [0, 1]


def test_each_round_is_compared_with_the_python_chess_slice_of_the_same_round() -> None:
    # The machine ran at half speed in the middle round: the game kept its ratio there too.
    assert _median_ratio([200.0, 100.0, 200.0], [100.0, 50.0, 100.0]) == 2.0
    assert _median_ratio([300.0, 100.0, 200.0], [100.0, 100.0, 100.0]) == 2.0


def test_a_game_play_is_a_whole_random_game_from_its_seed() -> None:
    play = game_play(GAMES["fillit"], seed=3)
    first = play(0, random.Random(1))
    assert first > 0 and play(0, random.Random(1)) == first
