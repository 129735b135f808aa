"""The general card helpers added for the card games (controller/games/cards.py)."""

import pytest

from controller.games import IllegalAction, cards
from controller.games.rng import SeededRandom


def test_build_deck_repeats_each_card_in_order():
    assert cards.build_deck({"a": 2, "b": 1, "c": 0}) == ("a", "a", "b")
    with pytest.raises(ValueError, match="-1 copies"):
        cards.build_deck({"a": -1})


def test_put_under_and_put_on_top():
    assert cards.put_under(("x", "y"), "a", "b") == ("a", "b", "x", "y")
    assert cards.put_on_top(("x",), "a") == ("x", "a")


def test_refill_draws_up_to_the_size_or_until_the_pile_is_empty():
    assert cards.refill(("h",), ("p1", "p2", "p3"), 3) == (("h", "p3", "p2"), ("p1",))
    assert cards.refill(("h",), ("p1",), 3) == (("h", "p1"), ())
    assert cards.refill(("a", "b", "c"), ("p",), 2) == (("a", "b", "c"), ("p",))


def test_draw_until_turns_cards_up_until_one_is_accepted():
    found, turned, rest = cards.draw_until(("a", "B", "c", "d"), str.isupper)
    assert (found, turned, rest) == ("B", ("d", "c"), ("a",))
    assert cards.draw_until(("a", "b"), str.isupper) == (None, ("b", "a"), ())


def test_remove_cards_and_multiset_contains():
    assert cards.remove_cards(("a", "b", "a"), ("a", "a")) == ("b",)
    with pytest.raises(IllegalAction, match="c is not in the hand"):
        cards.remove_cards(("a",), ("c",))
    assert cards.multiset_contains(("a", "a", "b"), ("a", "a"))
    assert not cards.multiset_contains(("a", "b"), ("a", "a"))


def test_seat_views_show_only_the_viewers_hand():
    hands = (("a", "b"), ("c",), ())
    assert cards.seat_views(hands, 1) == [{"count": 2}, ["c"], {"count": 0}]
    assert cards.seat_views(hands, None) == [{"count": 2}, {"count": 1}, {"count": 0}]


def test_pile_from_json_names_the_field():
    assert cards.pile_from_json(["a", "b"], "deck", {"a", "b"}) == ("a", "b")
    with pytest.raises(ValueError, match="deck must be a list of card ids"):
        cards.pile_from_json("ab", "deck")
    with pytest.raises(ValueError, match="hands\\[1\\] holds unknown card"):
        cards.pile_from_json(["z"], "hands[1]", {"a"})


def test_check_card_counts_names_missing_and_surplus_cards():
    cards.check_card_counts({"a": 2, "b": 1}, ["a", "b", "a"], "table")
    with pytest.raises(ValueError, match=r"table: .*missing 1x a; too many 1x c"):
        cards.check_card_counts({"a": 2}, ["a", "c"], "table")


def test_recycle_keeps_the_top_discard_and_shuffles_the_rest_into_a_deck():
    deck, kept, rng = cards.recycle(("a", "b", "c", "top"), SeededRandom(1))
    assert kept == ("top",) and sorted(deck) == ["a", "b", "c"] and rng.draws == 1
