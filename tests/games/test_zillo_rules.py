"""Zillo rules: set-up, cards and moves (Z-2), captures, protections, the catch, notation, views.

Positions are built on the starting layout (parts c3..l12) unless a test names another; with two
players Red (seat 0) starts on c12 and Yellow (seat 1) on l3.
"""

from __future__ import annotations

import pytest

from controller.games import IllegalAction, NotationError, Piece
from controller.games.grid import manhattan
from controller.games.zillo import NEW_GAME, Discard, Move, ZilloState
from controller.games.zillo.deck import CARDS, DEAL, kind
from controller.games.zillo.layout import AREA
from tests.games.zillo_helpers import GAME, catchers_of, position, strings, targets

OPEN = {"h8": (0, 1), "c12": (0, 2), "l3": (1, 3)}  # one Red Catcher alone in the middle
GAP_PARTS = [("c8", 0), ("h9", 90), ("h3", 180), ("c3", 270)]  # part 2 one field north: gap h8..l8


def cell(text: str) -> tuple[int, int]:
    return AREA.parse_cell(text)


# --- set-up --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "colours"),
    [(2, ("red", "yellow")), (3, ("red", "blue", "yellow")), (4, ("red", "blue", "yellow", "green"))],
)
def test_rule_each_player_has_three_catchers_on_their_start_field(players: int, colours: tuple[str, ...]) -> None:
    state = GAME.new_game(players=players)
    assert state.seats == colours
    starts = {"red": "c12", "blue": "l12", "yellow": "l3", "green": "c3"}
    assert catchers_of(state) == {starts[colour]: (seat, 3) for seat, colour in enumerate(colours)}


def test_rule_two_players_start_on_diagonally_opposite_corners() -> None:
    state = GAME.new_game(players=2)
    assert (state.start_of(0), state.start_of(1)) == (cell("c12"), cell("l3"))


@pytest.mark.parametrize(("players", "start", "field"), [(2, 0, "f9"), (2, 1, "i6"), (3, 1, "i9"), (4, 3, "f6")])
def test_rule_the_zillo_starts_on_the_small_field_of_the_start_players_colour(
    players: int, start: int, field: str
) -> None:
    state = GAME.new_game(players=players, start_player=start)
    assert state.zillo == cell(field)
    assert state.current_player == start


@pytest.mark.parametrize(("players", "each", "pile"), [(2, 8, 8), (3, 8, 0), (4, 6, 0)])
def test_rule_deal_per_player_count(players: int, each: int, pile: int) -> None:
    state = GAME.new_game(players=players, seed=3)
    assert DEAL[players] == each
    assert state.hand_sizes == (each,) * players
    assert state.pile_count == pile
    dealt = [card for seat in range(players) for card in state.hand(seat) or ()]
    assert len(set(dealt)) == len(dealt) == players * each


def test_Z2_the_24_cards() -> None:
    assert len(CARDS) == len(set(CARDS)) == 24
    kinds = [kind(card) for card in CARDS]
    assert (kinds.count("catcher"), kinds.count("zillo"), kinds.count("wild"), kinds.count("shift")) == (
        12,
        4,
        4,
        4,
    )


def test_rule_the_deal_depends_on_the_seed_only() -> None:
    first, again = GAME.new_game(players=3, seed=5), GAME.new_game(players=3, seed=5)
    other = GAME.new_game(players=3, seed=6)
    assert first == again and first.hand(0) == again.hand(0)
    assert [first.hand(s) for s in range(3)] != [other.hand(s) for s in range(3)]


def test_options_are_checked() -> None:
    for bad in (
        {"hands": "paper"},
        {"match": "yes"},
        {"max_turns": 0},
        {"start_player": 2},
        {"colour": "red"},
    ):
        with pytest.raises(ValueError):
            GAME.new_game(players=2, **bad)


# --- a turn ----------------------------------------------------------------------------------------


def test_rule_play_a_card_face_up_and_move_then_clockwise() -> None:
    state = position(players=3, hand=("C-ES", "Z-N"), current=0)
    after = state.apply(state.parse_action("C-ES:c12-e11/2"))
    assert after.current_player == 1
    assert after.hand(0) == ("Z-N",)
    assert after.played[-1].card == "C-ES" and after.played[-1].shown
    assert catchers_of(after)["e11"] == (0, 2) and catchers_of(after)["c12"] == (0, 1)
    assert after.observation(2)["played"] == [{"player": 0, "card": "C-ES"}]


def test_rule_no_passing_a_player_with_a_playable_card_must_play() -> None:
    state = GAME.new_game(players=4, seed=2)
    assert state.legal_actions()
    assert not any(isinstance(action, Discard) for action in state.legal_actions())
    with pytest.raises(IllegalAction, match="discard only when no card can be played"):
        state.apply(Discard(state.hand(0)[0]))  # type: ignore[index]


def test_rule_a_card_not_in_the_hand_cannot_be_played() -> None:
    state = position(hand=("C-N",))
    with pytest.raises(IllegalAction, match="C-ES is not in Red's hand"):
        state.apply(state.parse_action("C-ES:c12-e11/1"))


# --- Z-2 patterns on an open board ----------------------------------------------------------------

CATCHER_TARGETS = {
    "C-N": {"h11"}, "C-E": {"k8"}, "C-S": {"h5"}, "C-W": {"e8"},
    "C-NE": {"h11", "i10", "j9"}, "C-ES": {"k8", "j7", "i6"},
    "C-SW": {"h5", "g6", "f7"}, "C-WN": {"e8", "f9", "g10"},
    "C-NW": {"h11", "g10", "f9"}, "C-EN": {"k8", "j9", "i10"},
    "C-SE": {"h5", "i6", "j7"}, "C-WS": {"e8", "f7", "g6"},
}  # fmt: skip


@pytest.mark.parametrize("card", sorted(CATCHER_TARGETS))
def test_Z2_catcher_card_pattern_on_an_open_board(card: str) -> None:
    # Straight cards: exactly 3 fields ahead. Bend cards: 3 ahead, or turn once the shown way only.
    state = position(hand=(card,), catchers=OPEN, zillo="c3")
    assert targets(state, card, "h8", 1) == CATCHER_TARGETS[card]


ZILLO_TARGETS = {
    "Z-N": {"h11", "g10", "i10", "f9", "j9"},
    "Z-E": {"k8", "j9", "j7", "i10", "i6"},
    "Z-S": {"h5", "g6", "i6", "f7", "j7"},
    "Z-W": {"e8", "f9", "f7", "g10", "g6"},
}


@pytest.mark.parametrize("card", sorted(ZILLO_TARGETS))
def test_Z2_zillo_card_pattern_on_an_open_board(card: str) -> None:
    # Exactly 3 fields in the card's direction, turning once to either side at most.
    state = position(hand=(card,), zillo="h8")
    assert targets(state, card, "h8") == ZILLO_TARGETS[card]


def test_Z2_wild_card_moves_the_zillo_1_2_or_3_fields_any_way() -> None:
    state = position(hand=("W-3",), zillo="h8")
    expected = {
        AREA.format_cell((x, y)) for x in range(14) for y in range(14) if 1 <= manhattan((x, y), cell("h8")) <= 3
    }
    assert targets(state, "W-3", "h8") == expected
    assert len(expected) == 24


def test_Z2_wild_card_never_goes_back_and_forth() -> None:
    state = position(hand=("W-3",), zillo="h8")
    assert "h8" not in targets(state, "W-3", "h8")
    with pytest.raises(IllegalAction):
        state.apply(Move("W-3", cell("h8"), cell("h8")))


def test_rule_moves_are_orthogonal_never_diagonal() -> None:
    state = position(hand=("W-1", "C-NE"), catchers=OPEN, zillo="c3")
    assert "i9" not in targets(state, "C-NE", "h8", 1)
    with pytest.raises(IllegalAction, match="cannot go from h8 to i9"):
        state.apply(state.parse_action("C-NE:h8-i9/1"))


def test_rule_catchers_move_exactly_3_fields() -> None:
    state = position(hand=("C-N",), catchers=OPEN, zillo="c3")
    for short in ("h9", "h10"):
        with pytest.raises(IllegalAction, match="cannot go"):
            state.apply(state.parse_action(f"C-N:h8-{short}/1"))


def test_rule_pieces_jump_over_catchers_and_the_zillo() -> None:
    state = position(hand=("C-N",), catchers={"h8": (0, 1), "c12": (0, 2), "h9": (1, 3)}, zillo="h10")
    after = state.apply(state.parse_action("C-N:h8-h11/1"))
    assert catchers_of(after)["h11"] == (0, 1)
    assert after.zillo == cell("h10") and after.caught is None  # passing the Zillo is no catch


# --- Z-2 gaps ------------------------------------------------------------------------------------


def gap_position(card: str, red: str, zillo: str = "c3") -> ZilloState:
    return position(hand=(card,), layout=GAP_PARTS, catchers={red: (0, 1), "c12": (0, 2), "l3": (1, 3)}, zillo=zillo)


def test_Z2_a_move_may_not_end_in_a_gap() -> None:
    state = gap_position("C-N", "i5")
    assert targets(state, "C-N", "i5", 1) == set()
    with pytest.raises(IllegalAction, match="must land on a board part"):
        state.apply(state.parse_action("C-N:i5-i8/1"))


def test_Z2_a_move_may_not_cross_a_gap() -> None:
    state = gap_position("C-N", "i6")
    with pytest.raises(IllegalAction, match="must land on a board part"):
        state.apply(state.parse_action("C-N:i6-i9/1"))


def test_Z2_bend_card_near_a_gap_keeps_only_the_paths_over_parts() -> None:
    assert targets(gap_position("C-E", "g8"), "C-E", "g8", 1) == set()
    assert targets(gap_position("C-NE", "g8"), "C-NE", "g8", 1) == {"g11", "i9", "h10"}


def test_Z2_wild_card_cannot_cross_a_gap() -> None:
    state = gap_position("W-1", "e5", zillo="i7")
    reached = targets(state, "W-1", "i7")
    assert "i9" not in reached and "i8" not in reached and "i4" in reached and "g8" in reached


# --- several Catchers -------------------------------------------------------------------------------


def test_rule_a_stack_moves_1_2_or_3_catchers_as_one_piece() -> None:
    state = position(hand=("C-ES",))
    assert {f"C-ES:c12-e11/{n}" for n in (1, 2, 3)} <= strings(state)
    after = state.apply(state.parse_action("C-ES:c12-e11/3"))
    assert catchers_of(after)["e11"] == (0, 3) and "c12" not in catchers_of(after)


def test_rule_split_catchers_may_move_onto_their_own_catchers_again() -> None:
    state = position(hand=("C-N",), catchers={"h8": (0, 1), "h11": (0, 1), "c12": (0, 1), "l3": (1, 3)}, zillo="c3")
    after = state.apply(state.parse_action("C-N:h8-h11/1"))
    # Own Catchers are never captured: they merge, nobody goes to the start field.
    assert catchers_of(after) == {"h11": (0, 2), "c12": (0, 1), "l3": (1, 3)}


# --- captures --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("mover", "victim"), [(1, 2), (3, 1), (2, 2)])
def test_rule_landing_on_an_opponent_sends_them_to_their_start_field(mover: int, victim: int) -> None:
    red = {"h8": (0, mover)} | ({"c12": (0, 3 - mover)} if mover < 3 else {})
    yellow = {"h11": (1, victim)} | ({"l3": (1, 3 - victim)} if victim < 3 else {})
    state = position(hand=("C-N",), catchers=red | yellow, zillo="c3")
    after = state.apply(state.parse_action(f"C-N:h8-h11/{mover}"))
    assert catchers_of(after)["h11"] == (0, mover)
    assert catchers_of(after)["l3"] == (1, 3)


def test_rule_a_third_players_catchers_on_the_captured_start_field_go_home_too() -> None:
    state = position(
        players=3,
        hand=("C-N",),
        zillo="c3",
        catchers={
            "h8": (0, 1),
            "c12": (0, 2),  # Red
            "h11": (1, 2),
            "e5": (1, 1),  # Blue
            "l12": (2, 1),
            "l3": (2, 2),  # Yellow, one Catcher on Blue's start field
        },
    )
    after = state.apply(state.parse_action("C-N:h8-h11/1"))
    assert catchers_of(after) == {"h11": (0, 1), "c12": (0, 2), "l12": (1, 2), "e5": (1, 1), "l3": (2, 3)}


def test_rule_a_capture_without_a_third_player_moves_only_the_victim() -> None:
    state = position(
        players=3,
        hand=("C-N",),
        zillo="c3",
        catchers={
            "h8": (0, 1),
            "c12": (0, 2),
            "h11": (1, 2),
            "e5": (1, 1),
            "k4": (2, 1),
            "l3": (2, 2),
        },
    )
    after = state.apply(state.parse_action("C-N:h8-h11/1"))
    assert catchers_of(after) == {
        "h11": (0, 1),
        "c12": (0, 2),
        "l12": (1, 2),
        "e5": (1, 1),
        "k4": (2, 1),
        "l3": (2, 2),
    }


def test_ZE1_the_third_player_rule_applies_again_down_the_chain() -> None:
    state = position(
        players=4,
        hand=("C-N",),
        zillo="k5",
        catchers={
            "h8": (0, 1),
            "c12": (0, 2),  # Red
            "h11": (1, 3),  # Blue
            "l12": (2, 1),
            "e5": (2, 2),  # Yellow: one on Blue's start field
            "l3": (3, 1),
            "d4": (3, 2),  # Green: one on Yellow's start field
        },
    )
    after = state.apply(state.parse_action("C-N:h8-h11/1"))
    assert catchers_of(after) == {
        "h11": (0, 1),
        "c12": (0, 2),
        "l12": (1, 3),
        "l3": (2, 1),
        "e5": (2, 2),
        "c3": (3, 1),
        "d4": (3, 2),
    }


def test_ZE1_the_movers_own_catchers_on_the_victims_start_field_go_home() -> None:
    state = position(hand=("C-N",), zillo="c3", catchers={"h8": (0, 1), "l3": (0, 2), "h11": (1, 2), "e5": (1, 1)})
    after = state.apply(state.parse_action("C-N:h8-h11/1"))
    assert catchers_of(after) == {"h11": (0, 1), "c12": (0, 2), "l3": (1, 2), "e5": (1, 1)}


def test_ZE1_the_chain_may_send_the_moved_catchers_home_too() -> None:
    # Red lands on Yellow, who stands on Blue's start field; Blue stands on Yellow's start field.
    state = position(players=3, hand=("C-E",), zillo="e5", catchers={
        "i12": (0, 1), "c12": (0, 2), "l3": (1, 3), "l12": (2, 3),
    })  # fmt: skip
    after = state.apply(state.parse_action("C-E:i12-l12/1"))
    # Yellow goes home to l3, Blue from there home to l12, Red from there home to c12.
    assert catchers_of(after) == {"c12": (0, 3), "l12": (1, 3), "l3": (2, 3)}


def test_rule_no_capture_on_the_victims_own_start_field() -> None:
    state = position(hand=("C-S",), zillo="c3", catchers={"l6": (0, 1), "c12": (0, 2), "l3": (1, 3)})
    assert targets(state, "C-S", "l6", 1) == set()
    with pytest.raises(IllegalAction, match="own start field"):
        state.apply(state.parse_action("C-S:l6-l3/1"))


def test_rule_while_the_zillo_stands_on_a_start_field_that_player_cannot_be_captured() -> None:
    state = position(hand=("C-N",), zillo="l3", catchers={"h8": (0, 1), "c12": (0, 2), "h11": (1, 3)})
    with pytest.raises(IllegalAction, match="the Zillo stands on Yellow's start field l3"):
        state.apply(state.parse_action("C-N:h8-h11/1"))


def test_ZE10_fields_of_a_colour_nobody_plays_are_ordinary_fields() -> None:
    # Two players: Blue's start field l12 is an ordinary field; a Catcher captured there goes home.
    state = position(hand=("C-E", "Z-E"), catchers={"i12": (0, 1), "c12": (0, 2), "l12": (1, 1), "l3": (1, 2)})
    assert state.homes() == {0: cell("c12"), 1: cell("l3")}
    after = state.apply(state.parse_action("C-E:i12-l12/1"))
    assert catchers_of(after) == {"l12": (0, 1), "c12": (0, 2), "l3": (1, 3)}


def test_rule_the_zillo_protects_only_the_owner_of_that_start_field() -> None:
    state = position(
        players=3,
        hand=("C-N",),
        zillo="l3",
        catchers={
            "h8": (0, 1),
            "c12": (0, 2),
            "h11": (1, 3),
            "e5": (2, 3),
        },
    )
    after = state.apply(state.parse_action("C-N:h8-h11/1"))
    assert catchers_of(after)["l12"] == (1, 3)


def test_ZE2_nobody_is_sent_home_onto_the_zillo_third_players_included() -> None:
    state = position(
        players=3,
        hand=("C-N",),
        zillo="l3",
        catchers={
            "h8": (0, 1),
            "c12": (0, 2),
            "h11": (1, 3),
            "l12": (2, 1),
            "e5": (2, 2),
        },
    )
    with pytest.raises(IllegalAction, match="send Yellow's Catchers home onto it"):
        state.apply(state.parse_action("C-N:h8-h11/1"))


# --- Zillo card --------------------------------------------------------------------------------------


def test_rule_the_zillo_may_capture_an_opponents_catchers() -> None:
    state = position(hand=("Z-N",), zillo="h8", catchers={"c12": (0, 3), "h11": (1, 2), "l3": (1, 1)})
    after = state.apply(state.parse_action("Z-N:h8-h11"))
    assert after.zillo == cell("h11") and after.caught is None
    assert catchers_of(after) == {"c12": (0, 3), "l3": (1, 3)}


def test_rule_the_zillo_may_not_move_onto_your_own_catchers() -> None:
    state = position(hand=("Z-N",), zillo="h8", catchers={"c12": (0, 2), "h11": (0, 1), "l3": (1, 3)})
    assert "h11" not in targets(state, "Z-N", "h8")
    with pytest.raises(IllegalAction, match="own Catchers"):
        state.apply(state.parse_action("Z-N:h8-h11"))


def test_rule_the_zillo_follows_the_catcher_rules_no_capture_on_an_own_start_field() -> None:
    state = position(hand=("Z-S",), zillo="l6")
    with pytest.raises(IllegalAction, match="own start field"):
        state.apply(state.parse_action("Z-S:l6-l3"))


def test_ZE2_the_zillo_leaving_a_start_field_may_capture_its_owner() -> None:
    state = position(hand=("Z-N",), zillo="l3", catchers={"c12": (0, 3), "l6": (1, 3)})
    after = state.apply(state.parse_action("Z-N:l3-l6"))
    assert catchers_of(after)["l3"] == (1, 3) and after.zillo == cell("l6")


def test_rule_catcher_cards_never_move_the_zillo() -> None:
    state = position(hand=("C-S",), zillo="h8")
    assert state.legal_action_strings() == ("C-S:c12-c9/1", "C-S:c12-c9/2", "C-S:c12-c9/3")
    with pytest.raises(IllegalAction, match="Red has no Catchers on h8"):
        state.apply(Move("C-S", cell("h8"), cell("h5"), 1))


def test_rule_the_zillo_card_moves_only_the_zillo() -> None:
    state = position(hand=("Z-N",), zillo="h8")
    with pytest.raises(IllegalAction, match="moves the Zillo, not Catchers"):
        state.apply(Move("Z-N", cell("c12"), cell("c9"), 1))
    with pytest.raises(IllegalAction, match="the Zillo stands on h8"):
        state.apply(Move("Z-N", cell("c12"), cell("c9")))


# --- the catch ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 3])
def test_rule_catch_with_1_2_or_3_catchers_scores_1_2_or_3_points(count: int) -> None:
    red = {"h8": (0, count)} | ({"c12": (0, 3 - count)} if count < 3 else {})
    state = position(hand=("C-N", "Z-E"), catchers=red | {"l3": (1, 3)}, zillo="h11", match=True)
    after = state.apply(state.parse_action(f"C-N:h8-h11/{count}"))
    assert after.caught is not None and (after.caught.player, after.caught.points) == (0, count)
    assert after.scores == (count, 0)
    assert after.legal_actions() == (NEW_GAME,)


def test_rule_the_catch_wins_a_single_game() -> None:
    state = position(hand=("C-N",), catchers={"h8": (0, 3), "l3": (1, 3)}, zillo="h11")
    after = state.apply(state.parse_action("C-N:h8-h11/2"))
    assert after.is_terminal() and after.returns() == (1.0, 0.0) and after.winner == 0
    assert after.legal_actions() == ()
    assert after.occupancy()[cell("h11")] == (
        Piece("zillo", None, -1),
        Piece("catcher", 0, 1),
        Piece("catcher", 0, 1),
    )


def test_rule_the_zillo_landing_on_a_catcher_is_no_catch() -> None:
    state = position(hand=("W-1",), zillo="h10", catchers={"c12": (0, 3), "h11": (1, 3)})
    after = state.apply(state.parse_action("W-1:h10-h11"))
    assert after.caught is None and not after.is_terminal()
    assert catchers_of(after)["l3"] == (1, 3)


def test_rule_catch_exactly_with_the_cards_direction() -> None:
    state = position(hand=("C-E", "C-NW"), catchers={"h8": (0, 1), "c12": (0, 2), "l3": (1, 3)}, zillo="i10")
    catches = [a for a in state.legal_actions() if isinstance(a, Move) and a.target == cell("i10")]
    assert catches == []  # C-NE or C-EN would reach i10; C-E and C-NW do not
    other = position(hand=("C-EN",), catchers={"h8": (0, 1), "c12": (0, 2), "l3": (1, 3)}, zillo="i10")
    assert other.catching_cards(0) == {"C-NE": 1, "C-EN": 1}
    assert other.apply(other.parse_action("C-EN:h8-i10/1")).winner == 0


# --- notation ------------------------------------------------------------------------------------------


def test_notation_ZE5_examples_of_the_ruling_round_trip() -> None:
    state = position(hand=("C-ES", "Z-N", "W-2", "S-3"))
    for text in ("C-ES:c12-e11/2", "Z-N:f9-g11", "W-2:f9-f10", "S-3:1r90@g12"):
        action = state.parse_action(text)
        assert state.action_to_str(action) == text
        assert action in state.legal_actions()
    assert state.parse_action("discard:C-N") == Discard("C-N")
    assert state.parse_action("new-game") == NEW_GAME and state.action_to_str(NEW_GAME) == "new-game"


@pytest.mark.parametrize(
    "text",
    [
        "pass",
        "C-Q:c12-c9/1",
        "C-N:c12-c15/1",
        "C-N:c12-c9",
        "C-N:c12-c9/4",
        "C-N:c12-c9/01",
        "Z-N:f9-f12/1",
        "S-1:5r90@c7",
        "S-1:1r45@c7",
        "S-1:c12-c9/1",
        "C-N:1r90@c7",
        "discard:X-1",
        "c12-c9",
    ],
)
def test_notation_errors_say_what_is_wrong(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.new_game(players=2).parse_action(text)


# --- views --------------------------------------------------------------------------------------------


def test_occupancy_catchers_are_one_piece_each_and_the_zillo_has_the_other_pole() -> None:
    occupancy = GAME.new_game(players=2).occupancy()
    assert occupancy[cell("c12")] == (Piece("catcher", 0, 1),) * 3
    assert occupancy[cell("l3")] == (Piece("catcher", 1, 1),) * 3
    assert occupancy[cell("f9")] == (Piece("zillo", None, -1),)
    assert len(occupancy) == 3


def test_observation_hides_other_hands_and_the_pile() -> None:
    state = GAME.new_game(players=2, seed=4)
    seen = state.observation(1)
    assert seen["hand"] == list(state.hand(1) or ())
    assert seen["hand_sizes"] == [8, 8] and seen["pile_count"] == 8
    assert "hands" not in seen and "pile" not in seen and "random" not in seen
    text = repr(seen)
    for card in state.hand(0) or ():
        # Red's cards appear only among the cards Yellow has not seen (with the pile's cards).
        assert card in seen["unseen"] and text.count(f"'{card}'") == 1


def test_ruling_ze8_a_discard_from_the_hand_reads_face_down_to_the_others() -> None:
    """ZE-8: a card discarded from the hand goes face down: the move list other seats read says a card
    went, not which; every other card played is shown, so its notation is public."""
    state = GAME.new_game(players=2, seed=0)
    card = state.hand(0)[0]  # type: ignore[index]
    assert state.public_action_to_str(Discard(card)) == "discard (face down)"
    move = state.legal_actions()[0]
    assert state.public_action_to_str(move) == state.action_to_str(move)
