"""Bots: deterministic for a seed, legal, and the greedy bot plays Klotz sensibly."""

from __future__ import annotations

import pytest

from controller.bots import BOTS, GreedyBot, RandomBot, make_bot
from controller.games.klotz import PASS, Klotz, KlotzState, Move
from controller.terminal.selfplay import play_game
from tests.games.klotz_positions import cell, full_board, position

KLOTZ = Klotz()


def wins_at_once(state: KlotzState) -> bool:
    """Whether the player on turn has a move that wins immediately."""
    return any(state.apply(action).winner == state.current_player for action in state.legal_actions())


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_bots_are_deterministic_for_a_seed(bot: str) -> None:
    plies = 12 if bot.startswith("search") else 40  # a searching move costs a hundred playouts
    for players in (2, 4):
        first = play_game(KLOTZ, players, 11, bot, max_plies=plies)
        second = play_game(KLOTZ, players, 11, bot, max_plies=plies)
        assert first == second


def test_random_bot_depends_on_its_seed() -> None:
    state = KLOTZ.new_game(4)
    assert len({RandomBot(seed).choose(state) for seed in range(10)}) > 1
    games = {play_game(KLOTZ, 3, seed, "random", max_plies=40).actions for seed in range(4)}
    assert len(games) == 4


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_choose_only_legal_actions(players: int) -> None:
    state = KLOTZ.new_game(players, max_plies=120)
    bots = [GreedyBot(seat) if seat % 2 else RandomBot(seat) for seat in range(players)]
    while not state.is_terminal():
        action = bots[state.current_player].choose(state)
        assert action in state.legal_actions()
        state = state.apply(action)


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_a_bot_without_a_move_passes(bot: str) -> None:
    assert make_bot(bot, 0).choose(position(2, full_board(2))) == PASS


def test_unknown_bot_name_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"unknown bot 'smart' \(bots: random, greedy, search-1, search-2\)"):
        make_bot("smart", 0)


def test_greedy_takes_an_immediate_win() -> None:
    state = position(2, {"a10": "square0", "h7": "square1", "e5": "cyl1", "c12": "cyl2", "k4": "cyl3"})
    assert len(state.legal_actions()) > 10
    for seed in range(5):
        assert GreedyBot(seed).choose(state) == Move(cell("a10"), cell("a14"))


def test_greedy_does_not_open_the_way_for_the_next_players_win() -> None:
    # Red's square on n3 is all that stops Yellow's n5 -> n1. Every square move would open the way
    # (and bring Red nearer a14); only the cylinder moves are safe.
    state = position(2, {"n3": "square0", "n5": "square1", "e5": "cyl1", "c12": "cyl2"})
    losing = [a for a in state.legal_actions() if wins_at_once(state.apply(a))]
    safe = [a for a in state.legal_actions() if a not in losing]
    assert losing and safe
    for seed in range(10):
        choice = GreedyBot(seed).choose(state)
        assert choice in safe
        assert not wins_at_once(state.apply(choice))


def test_greedy_beats_random_in_two_player_klotz() -> None:
    greedy_wins = random_wins = 0
    for game in range(10):
        greedy_seat = game % 2  # half the games with the first move, half without
        bots = {greedy_seat: GreedyBot(game), 1 - greedy_seat: RandomBot(game)}
        state = KLOTZ.new_game(2, max_plies=200)
        while not state.is_terminal():
            state = state.apply(bots[state.current_player].choose(state))
        greedy_wins += state.winner == greedy_seat
        random_wins += state.winner == 1 - greedy_seat
    assert greedy_wins >= 8 and random_wins <= 1
