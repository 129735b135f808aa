"""Card piles shared by the card-driven games: shuffle, draw, deal, recycle, remove, hidden views."""

from __future__ import annotations

import json

import pytest

from controller.games.base import IllegalAction
from controller.games.cards import (
    count_by_id,
    deal,
    draw,
    hidden,
    put_on_top,
    recycle,
    remove_card,
    shuffle,
    top,
)
from controller.games.rng import SeededRandom

PILE = ("c1", "c2", "c3", "c4", "c5", "c6", "c7")  # bottom to top: c7 is the top card


def test_shuffle_is_seeded_and_advances_the_random_state() -> None:
    deck, rng = shuffle(PILE, SeededRandom(5))
    again, _ = shuffle(PILE, SeededRandom(5))
    assert deck == again and sorted(deck) == sorted(PILE) and rng == SeededRandom(5, 1)
    other, _ = shuffle(PILE, rng)
    assert other != deck  # the next draw of the same seed gives another order


def test_shuffle_accepts_any_iterable() -> None:
    deck, _ = shuffle(iter(PILE), SeededRandom(0))
    assert isinstance(deck, tuple) and sorted(deck) == sorted(PILE)


def test_draw_takes_from_the_top_first_card_first() -> None:
    taken, rest = draw(PILE, 3)
    assert taken == ("c7", "c6", "c5") and rest == ("c1", "c2", "c3", "c4")
    assert draw(PILE) == (("c7",), PILE[:-1])
    assert draw(PILE, 0) == ((), PILE)
    assert draw(PILE, len(PILE)) == (tuple(reversed(PILE)), ())


def test_drawing_more_cards_than_the_pile_holds_is_illegal() -> None:
    with pytest.raises(IllegalAction, match=r"cannot draw 8 card\(s\): the pile has 7"):
        draw(PILE, 8)
    with pytest.raises(IllegalAction, match="the pile has 0"):
        draw((), 1)


def test_drawing_a_negative_number_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="cannot draw -1 cards"):
        draw(PILE, -1)


def test_deal_goes_round_the_table_one_card_at_a_time_from_seat_0() -> None:
    hands, rest = deal(PILE, 3, 2)
    assert hands == (("c7", "c4"), ("c6", "c3"), ("c5", "c2"))
    assert rest == ("c1",)


def test_deal_needs_enough_cards_and_players() -> None:
    with pytest.raises(IllegalAction, match="cannot draw 8"):
        deal(PILE, 4, 2)
    with pytest.raises(ValueError, match="cannot deal to 0 players"):
        deal(PILE, 0, 1)
    assert deal(PILE, 2, 0) == (((), ()), PILE)


def test_put_on_top_and_top() -> None:
    pile = put_on_top(("a",), "b", "c")
    assert pile == ("a", "b", "c") and top(pile) == "c"
    assert top(()) is None
    assert draw(put_on_top(PILE, "x"))[0] == ("x",)


def test_recycle_keeps_the_top_card_and_shuffles_the_rest_into_a_deck() -> None:
    deck, kept, rng = recycle(PILE, SeededRandom(3))
    assert kept == ("c7",)
    assert sorted(deck) == sorted(PILE[:-1])
    assert rng == SeededRandom(3, 1)
    assert recycle(PILE, SeededRandom(3)) == (deck, kept, rng)


def test_recycle_can_keep_several_or_none() -> None:
    deck, kept, _ = recycle(PILE, SeededRandom(1), keep_top=2)
    assert kept == ("c6", "c7") and sorted(deck) == sorted(PILE[:-2])
    deck, kept, _ = recycle(PILE, SeededRandom(1), keep_top=0)
    assert kept == () and sorted(deck) == sorted(PILE)


def test_recycle_of_a_short_or_empty_pile() -> None:
    deck, kept, _ = recycle(("only",), SeededRandom(1), keep_top=3)
    assert deck == () and kept == ("only",)
    deck, kept, _ = recycle((), SeededRandom(1))
    assert deck == () and kept == ()


def test_remove_card_takes_one_copy() -> None:
    assert remove_card(("a", "b", "a"), "a") == ("b", "a")
    assert remove_card(["x"], "x") == ()


def test_removing_a_card_the_hand_lacks_is_illegal() -> None:
    with pytest.raises(IllegalAction, match="z is not in the hand"):
        remove_card(("a", "b"), "z")


def test_hidden_shows_how_many_never_which() -> None:
    view = hidden(("secret1", "secret2"))
    assert view == {"count": 2}
    assert "secret" not in json.dumps(view)
    assert hidden(()) == {"count": 0}


def test_count_by_id() -> None:
    assert count_by_id(("a", "b", "a")) == {"a": 2, "b": 1}
    assert count_by_id(()) == {}


def test_nothing_is_mutated() -> None:
    hand = ["a", "b"]
    remove_card(hand, "a")
    assert hand == ["a", "b"]
    pile = list(PILE)
    shuffle(pile, SeededRandom(0))
    assert pile == list(PILE)
