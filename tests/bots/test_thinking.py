"""The service's bots (controller/bots/thinking.py): a searching bot thinks in a worker process,
the loop polls without ever waiting, a new position interrupts the old thought."""

from __future__ import annotations

from controller.bots import make_bot
from controller.bots.search import SearchBot, SearchBudget
from controller.bots.thinking import JOIN_S, AtOnce, Ending, InWorker, thinking_bot
from controller.games import State, load_game

FILLIT = load_game("fillit")
WAIT_S = 120.0  # how long a test lets a worker think at most (a loaded CI machine is slow)


def decided(bot: InWorker, state: State) -> object:
    """Poll as the loop does, resting between polls until the worker answers."""
    for _ in range(int(WAIT_S * 10)):
        action = bot.poll(state)
        if action is not None:
            return action
        bot.wait(0.1)
    raise AssertionError("the worker never answered")


def test_instant_bots_answer_within_the_scan_and_once_per_position() -> None:
    state = FILLIT.new_game(seed=1)
    bot = thinking_bot("greedy", 3)
    assert isinstance(bot, AtOnce)
    action = bot.poll(state)
    assert action == make_bot("greedy", 3).choose(state) and bot.poll(state) is action


def test_a_searching_bot_thinks_in_its_own_process_and_answers_what_it_would_have_chosen() -> None:
    state = FILLIT.new_game(seed=1)
    bot = thinking_bot("search-1", 5)
    assert isinstance(bot, InWorker)
    try:
        assert decided(bot, state) == make_bot("search-1", 5).choose(state)  # the same seed, the same move
        after = state.apply(state.legal_actions()[0])
        assert decided(bot, after) in after.legal_actions()
    finally:
        bot.close()  # told to end, not waited for: the worker ends by itself
    bot._process.join(WAIT_S)
    assert bot._process.exitcode == 0


class FakeWorker:
    """A worker process as `Ending` sees it: alive until it ends or is stopped."""

    def __init__(self) -> None:
        self.alive, self.joined, self.stopped = True, False, False

    def is_alive(self) -> bool:
        return self.alive

    def join(self, timeout: float | None = None) -> None:
        self.joined = not self.alive

    def terminate(self) -> None:
        self.stopped, self.alive = True, False


def test_workers_told_to_end_are_joined_when_they_have_and_stopped_when_they_take_too_long() -> None:
    now = [0.0]
    ending = Ending(clock=lambda: now[0])
    quick, stuck = FakeWorker(), FakeWorker()
    ending.add(quick)  # type: ignore[arg-type]
    ending.add(stuck)  # type: ignore[arg-type]
    assert len(ending) == 2 and not quick.joined and not stuck.stopped  # nobody waited for
    quick.alive = False
    now[0] = JOIN_S - 0.1
    ending.reap()
    assert quick.joined and not stuck.stopped and len(ending) == 1
    now[0] = JOIN_S
    ending.reap()
    assert stuck.stopped and len(ending) == 1  # stopped, joined once gone
    ending.reap()
    assert stuck.joined and len(ending) == 0


def test_a_new_position_interrupts_the_old_thought() -> None:
    first = FILLIT.new_game(seed=1)
    second = first.apply(first.legal_actions()[0])
    bot = InWorker("search-2", 0)
    try:
        bot.poll(first)  # thinking about the first position...
        answer = decided(bot, second)  # ...when the game moved on: the answer is for the new one
        assert answer in second.legal_actions()
    finally:
        bot.close()


def test_a_thought_that_runs_past_the_longest_wait_ends_with_the_best_move_so_far() -> None:
    """With no time to think the worker stops after its first simulation (a search always runs one):
    its answer is the one-simulation search's, not its level's."""
    state = FILLIT.new_game(seed=1)
    bot = InWorker("search-2", 0, longest_think_s=0.0)
    try:
        answer = decided(bot, state)
    finally:
        bot.close()
    assert answer == SearchBot(0, SearchBudget(1)).choose(state)
    assert answer != make_bot("search-2", 0).choose(state)  # (seed 0: the two differ here)


def test_a_worker_that_died_hands_its_seat_to_the_greedy_bot() -> None:
    state = FILLIT.new_game(seed=1)
    bot = InWorker("search-1", 0)
    bot._process.kill()
    bot._process.join()
    action = None
    for _ in range(100):
        action = bot.poll(state)
        if action is not None:
            break
        bot.wait(0.05)
    assert action in state.legal_actions()
    bot.close()
