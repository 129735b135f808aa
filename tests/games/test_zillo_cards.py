"""Zillo card flow: played pile, top-card play (Z-5), discards (Z-4), physical cards (Z-6), the match
and the turn limit (Z-7), and saved states."""

from __future__ import annotations

import pytest

from controller.games import Action, IllegalAction
from controller.games.zillo import NEW_GAME, Discard, Move, Shift, ZilloState
from controller.games.zillo.deck import CARDS
from controller.games.zillo.layout import AREA, INITIAL_LAYOUT
from tests.games.zillo_helpers import GAME, catchers_of, position, strings


def quiet_action(state: ZilloState) -> Action:
    """The first legal action that does not catch the Zillo (to play a deal through)."""
    for action in state.legal_actions():
        if not (isinstance(action, Move) and action.count is not None and action.target == state.zillo):
            return action
    raise AssertionError("every action catches")


def play_through_hands(state: ZilloState) -> ZilloState:
    while state.phase == "hands":
        state = state.apply(quiet_action(state))
    return state


# --- played cards and top-card play ----------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_rule_all_cards_played_the_start_player_shuffles_and_plays_the_top_card(players: int) -> None:
    state = GAME.new_game(players=players, seed=11, start_player=1)
    turns = sum(state.hand_sizes)
    top = play_through_hands(state)
    assert top.turn == turns
    assert top.phase == "top" and top.current_player == 1
    assert top.pile_count == 24 and top.played == () and top.hand_sizes == (0,) * players
    card = top.position.pile[-1]  # type: ignore[index]
    assert {card} == {action.card for action in top.legal_actions()}  # type: ignore[attr-defined]
    assert top.observation(0)["face_up"] == card
    after = top.apply(top.legal_actions()[0])
    assert after.played[-1].card == card and after.played[-1].shown  # not back on the pile
    assert after.pile_count == 23 and after.current_player == 2


def test_rule_when_the_hands_are_used_up_parts_and_pieces_stay() -> None:
    # Yellow's last card cannot move (its Catchers sit in the south-east corner): it is discarded.
    state = position(hand=("C-S",), others=(), current=1, zillo="h8", catchers={"e10": (0, 3), "l3": (1, 3)})
    top = state.apply(Discard("C-S"))
    assert top.phase == "top" and top.current_player == 0
    assert (top.layout, top.catchers, top.zillo) == (state.layout, state.catchers, state.zillo)


def test_Z5_two_players_shuffle_played_and_undealt_cards_together() -> None:
    state = GAME.new_game(players=2, seed=3)
    undealt = set(state.position.pile or ())
    assert len(undealt) == 8
    top = play_through_hands(state)
    assert top.phase == "top" and top.pile_count == 24 and set(top.position.pile or ()) == set(CARDS)
    assert top.current_player == 0


def test_ZE3_when_the_pile_runs_out_again_the_played_cards_are_shuffled_again() -> None:
    state = GAME.new_game(players=2, seed=3)
    top = play_through_hands(state)
    while top.pile_count > 1:
        top = top.apply(quiet_action(top))
    assert len(top.played) == 23
    again = top.apply(quiet_action(top))
    assert again.phase == "top" and again.pile_count == 24 and again.played == ()


def test_rule_in_top_card_play_only_the_top_card_may_be_played() -> None:
    top = play_through_hands(GAME.new_game(players=4, seed=5))
    card = (top.position.pile or ())[-1]
    other = next(c for c in CARDS if c != card)
    with pytest.raises(IllegalAction, match=f"must play the top card of the pile, {card}"):
        top.apply(Discard(other))


def test_ZE12_the_chance_count_changes_exactly_when_hidden_cards_come_to_light() -> None:
    states = [GAME.new_game(players=2, seed=3)]
    while states[-1].phase == "hands":
        states.append(states[-1].apply(quiet_action(states[-1])))
    counts = [state.chance_count() for state in states]
    # Cards from the hands show nothing new; the last one shuffles the pile and turns up its top card.
    assert len(set(counts[:-1])) == 1 and counts[-1] != counts[-2]
    top = states[-1]
    assert top.apply(quiet_action(top)).chance_count() != top.chance_count()  # the next top card


def test_ZE12_a_catch_in_top_card_play_turns_up_nothing_and_the_next_deal_does() -> None:
    pile = [card for card in CARDS if card != "C-S"] + ["C-S"]
    state = position(hand=(), others=(), phase="top", pile=pile, pile_count=24, zillo="c9", match=True)
    caught = state.apply(state.parse_action("C-S:c12-c9/1"))
    assert caught.caught is not None and caught.chance_count() == state.chance_count()
    assert caught.apply(NEW_GAME).chance_count() != caught.chance_count()


# --- Z-4 discards -------------------------------------------------------------------------------------


def test_Z4_ZE8_with_no_playable_card_the_player_discards_one_face_down() -> None:
    # Red's Catchers on c12 (the north-west corner) cannot go north or west.
    state = position(hand=("C-N", "C-W"))
    assert state.legal_actions() == (Discard("C-N"), Discard("C-W"))
    after = state.apply(Discard("C-W"))
    assert after.hand(0) == ("C-N",) and after.current_player == 1 and after.layout == state.layout
    # Face down: the other player sees that a card went, not which.
    assert after.observation(1)["played"] == [{"player": 0, "card": None}]
    assert after.observation(0)["played"] == [{"player": 0, "card": "C-W"}]
    assert "C-W" in after.unseen_by(1) and "C-W" not in after.unseen_by(0)


def test_Z4_a_shift_card_is_always_playable_so_never_discarded() -> None:
    state = position(hand=("C-N", "S-2"))
    assert not any(isinstance(a, Discard) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="Z-4"):
        state.apply(Discard("C-N"))


def test_Z4_in_top_card_play_an_unplayable_top_card_is_discarded() -> None:
    rest = [c for c in CARDS if c != "C-N"]
    state = position(
        hand=(),
        others=(),
        phase="top",
        pile=["C-N"],
        pile_count=1,
        hand_sizes=[0, 0],
        played=[{"player": i % 2, "card": c, "shown": True} for i, c in enumerate(rest)],
    )
    assert state.legal_actions() == (Discard("C-N"),)
    after = state.apply(Discard("C-N"))
    assert after.played == () and after.pile_count == 24  # the pile was used up: shuffled again
    assert after.current_player == 1


# --- Z-6 physical cards ---------------------------------------------------------------------------------


def test_Z6_physical_mode_any_unseen_card_may_be_declared_with_its_moves() -> None:
    state = GAME.new_game(players=3, hands="physical")
    assert state.hand(0) is None and state.hand_sizes == (8, 8, 8) and state.pile_count == 0
    cards = {action.card for action in state.legal_actions()}  # type: ignore[attr-defined]
    # Catcher cards pointing off the board corner have no move: they are declared as discards.
    assert cards == set(CARDS)
    assert set(state.card_moves("C-ES")) == {a for a in state.legal_actions() if getattr(a, "card", "") == "C-ES"}
    assert Discard("C-N") in state.legal_actions() and not state.card_moves("C-N")
    after = state.apply(state.parse_action("C-ES:c12-e11/1"))
    assert after.hand_sizes == (7, 8, 8) and "C-ES" not in after.unseen_cards()
    with pytest.raises(IllegalAction, match="already been played"):
        after.apply(Move("C-ES", AREA.parse_cell("l12"), AREA.parse_cell("j11"), 1))


def test_Z6_ZE9_physical_mode_refuses_discarding_a_card_that_has_a_move() -> None:
    state = GAME.new_game(players=2, hands="physical")
    with pytest.raises(IllegalAction, match="must be played"):
        state.apply(Discard("S-1"))


def test_Z6_physical_mode_counts_hands_into_top_card_play() -> None:
    state = play_through_hands(GAME.new_game(players=4, hands="physical", seed=2))
    assert state.phase == "top" and state.pile_count == 24 and state.played == ()
    assert state.observation(0)["face_up"] is None
    after = state.apply(quiet_action(state))
    assert after.pile_count == 23 and len(after.unseen_cards()) == 23


def test_Z6_physical_mode_saves_no_hands_and_no_pile() -> None:
    state = GAME.new_game(players=2, hands="physical")
    data = state.to_json()
    assert data["hands"] is None and data["pile"] is None and data["pile_count"] == 8
    assert GAME.state_from_json(data) == state


# --- Z-7 the match ----------------------------------------------------------------------------------------


def test_Z7_ZE6_a_catch_in_a_match_leads_to_a_new_deal_with_the_next_start_player() -> None:
    state = position(
        players=3,
        hand=("C-N",),
        catchers={"h8": (0, 1), "c12": (0, 2), "l12": (1, 3), "l3": (2, 3)},
        zillo="h11",
        match=True,
        scores=[1, 2, 0],
    )
    caught = state.apply(state.parse_action("C-N:h8-h11/1"))
    assert caught.scores == (2, 2, 0) and not caught.is_terminal()
    assert caught.current_player == 1 and caught.legal_actions() == (NEW_GAME,)
    with pytest.raises(IllegalAction, match="deal the next game"):
        caught.apply(Discard("C-N"))
    fresh = caught.apply(NEW_GAME)
    assert fresh.start_player == 1 and fresh.current_player == 1 and fresh.position.game_number == 2
    assert fresh.layout == INITIAL_LAYOUT and fresh.zillo == AREA.parse_cell("i9")  # Blue's small field
    assert catchers_of(fresh) == {"c12": (0, 3), "l12": (1, 3), "l3": (2, 3)}
    assert fresh.hand_sizes == (8, 8, 8) and fresh.turn == 0 and fresh.scores == (2, 2, 0)


def test_Z7_the_match_ends_when_someone_reaches_4_points() -> None:
    state = position(
        hand=("C-N",),
        catchers={"h8": (0, 2), "c12": (0, 1), "l3": (1, 3)},
        zillo="h11",
        match=True,
        scores=[2, 3],
    )
    over = state.apply(state.parse_action("C-N:h8-h11/2"))
    assert over.is_terminal() and over.winner == 0 and over.scores == (4, 3)
    assert over.returns() == (1.0, 0.0) and over.legal_actions() == ()


def test_Z7_a_whole_match_played_by_bots_ends_at_4_points() -> None:
    from controller.bots import GreedyBot

    state = GAME.new_game(players=2, seed=1, match=True, max_turns=None)
    bot = GreedyBot(1)
    games = 1
    while not state.is_terminal():
        action = bot.choose(state)
        games += action == NEW_GAME
        state = state.apply(action)
    assert max(state.scores) >= 4 and state.winner == state.scores.index(max(state.scores))
    assert games >= 2 and state.position.game_number == games


def test_Z7_ZE7_max_turns_ends_a_game_and_the_match_as_a_draw() -> None:
    state = position(hand=("S-1",), max_turns=5, turn=4, match=True)
    after = state.apply(state.legal_actions()[0])
    assert after.is_terminal() and after.returns() == (0.5, 0.5) and after.legal_actions() == ()
    with pytest.raises(IllegalAction, match="the game is over"):
        after.apply(after.parse_action("S-1:1r90@g12"))


# --- saved states ------------------------------------------------------------------------------------


def test_json_round_trip_keeps_the_random_state() -> None:
    state = GAME.new_game(players=2, seed=9)
    top = play_through_hands(state)
    copy = GAME.state_from_json(top.to_json())
    assert copy == top and copy.position.pile == top.position.pile
    assert strings(copy.apply(quiet_action(copy))) == strings(top.apply(quiet_action(top)))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "klotz"}, "not 'zillo'"),
        (
            {"catchers": [{"cell": "c12", "player": 0, "count": 2}, {"cell": "l3", "player": 1, "count": 3}]},
            "seat 0 has 2 Catchers",
        ),
        (
            {"catchers": [{"cell": "a1", "player": 0, "count": 3}, {"cell": "l3", "player": 1, "count": 3}]},
            "not on a board part",
        ),
        ({"zillo": "n14"}, "zillo: n14 is not on a board part"),
        ({"zillo": "c12"}, "shares its field"),
        (
            {
                "layout": [
                    {"part": 1, "corner": "d8", "rotation": 0},
                    {"part": 2, "corner": "h8", "rotation": 90},
                    {"part": 3, "corner": "h3", "rotation": 180},
                    {"part": 4, "corner": "c3", "rotation": 270},
                ]
            },
            "parts 1 and 2 would overlap",
        ),
        ({"hands": None}, "saves the hands"),
        ({"pile": ["C-N"] * 8}, "each of the 24 cards"),
        ({"hands_mode": "paper"}, "hands_mode must be one of"),
        ({"current_player": 2}, "current_player must be a seat"),
        ({"phase": "top"}, "every hand is empty"),
        ({"winner": 1}, "the last catch"),
    ],
)
def test_damaged_saved_states_are_refused_with_a_clear_message(change: dict, message: str) -> None:
    data = GAME.new_game(players=2).to_json() | change
    with pytest.raises(ValueError, match=message):
        GAME.state_from_json(data)


def test_a_saved_state_where_the_player_on_turn_has_no_card_is_refused() -> None:
    data = GAME.new_game(players=2).to_json()
    data["pile"] += data["hands"][0]
    data.update(hands=[[], data["hands"][1]], hand_sizes=[0, 8], pile_count=16)
    with pytest.raises(ValueError, match="seat 0 is on turn in hand play but holds no card"):
        GAME.state_from_json(data)


def test_cheap_successors_for_a_declared_card() -> None:
    # What the tracker needs: the moves of one declared card and the board each leads to.
    state = GAME.new_game(players=2, hands="physical")
    shifts = state.card_moves("S-1")
    assert shifts and all(isinstance(a, Shift) for a in shifts)
    boards = {frozenset(state.apply(a).occupancy().items()) for a in state.card_moves("C-ES")}
    assert len(boards) == len(state.card_moves("C-ES"))
