"""SeededRandom: the randomness a state carries, deterministic and JSON round-tripping."""

from __future__ import annotations

import json
from typing import Any

import pytest

from controller.games.rng import SeededRandom


def test_the_same_seed_and_draws_give_the_same_results() -> None:
    a, b = SeededRandom(7), SeededRandom(7)
    assert a.shuffled(range(20)) == b.shuffled(range(20))
    assert a.below(1000) == b.below(1000)
    assert a.choice("abcdef") == b.choice("abcdef")


def test_every_draw_advances_the_counter_and_leaves_the_value_alone() -> None:
    rng = SeededRandom(3)
    _, after = rng.below(10)
    assert rng == SeededRandom(3, 0) and after == SeededRandom(3, 1)
    _, after = after.shuffled([1, 2, 3])
    _, after = after.choice([1, 2, 3])
    assert after.draws == 3


def test_successive_draws_differ_and_seeds_differ() -> None:
    rng = SeededRandom(1)
    orders = []
    for _ in range(5):
        order, rng = rng.shuffled(range(30))
        orders.append(order)
    assert len(set(orders)) == 5
    assert SeededRandom(1).shuffled(range(30))[0] != SeededRandom(2).shuffled(range(30))[0]


def test_results_are_stable_across_runs() -> None:
    # Seeded through a string (SHA-512), so independent of PYTHONHASHSEED and of the process.
    value, _ = SeededRandom(42, 5).below(1_000_000)
    again, _ = SeededRandom.from_json(json.loads(json.dumps(SeededRandom(42, 5).to_json()))).below(1_000_000)
    assert value == again


def test_shuffled_is_a_permutation_and_does_not_touch_the_input() -> None:
    items = list(range(50))
    order, _ = SeededRandom(9).shuffled(items)
    assert sorted(order) == items and items == list(range(50)) and isinstance(order, tuple)


def test_below_and_choice_stay_in_range() -> None:
    rng = SeededRandom(0)
    seen = set()
    for _ in range(200):
        value, rng = rng.below(6)
        seen.add(value)
    assert seen == set(range(6))
    picked, _ = SeededRandom(0).choice(("x",))
    assert picked == "x"


@pytest.mark.parametrize("n", [0, -3])
def test_below_needs_a_positive_bound(n: int) -> None:
    with pytest.raises(ValueError, match=f"cannot draw below {n}"):
        SeededRandom(0).below(n)


def test_choice_from_nothing_is_an_error() -> None:
    with pytest.raises(ValueError, match="cannot draw below 0"):
        SeededRandom(0).choice(())


def test_json_round_trip_is_exact() -> None:
    rng = SeededRandom(123, 17)
    data = rng.to_json()
    assert data == {"seed": 123, "draws": 17}
    assert SeededRandom.from_json(json.loads(json.dumps(data))) == rng


@pytest.mark.parametrize(
    "data",
    [
        None,
        [1, 2],
        {"seed": 1},
        {"draws": 0},
        {"seed": "1", "draws": 0},
        {"seed": 1, "draws": 0.5},
        {"seed": True, "draws": 0},  # JSON true is no seed
        {"seed": 1, "draws": False},
    ],
)
def test_bad_random_state_json_is_refused(data: Any) -> None:
    with pytest.raises(ValueError, match="random state must be"):
        SeededRandom.from_json(data)


def test_negative_draw_count_is_refused() -> None:
    with pytest.raises(ValueError, match="draws must not be negative"):
        SeededRandom.from_json({"seed": 1, "draws": -1})
