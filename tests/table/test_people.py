"""The simulated people answer the board as people do: they press a button looking at what the LEDs
show as their finger comes down, not at a picture that changed since (sim/driver.py)."""

from __future__ import annotations

from controller.games import GAMES
from controller.table.tracker_types import Display
from controller.terminal.physical import play_physical_game
from hal.profile import load_profile
from sim.driver import button_for

KLOTZ = GAMES["klotz"]


def test_a_person_confirms_only_the_move_the_leds_preview_now() -> None:
    state = KLOTZ.new_game(players=2)
    mine, other = state.legal_actions()[:2]
    asking = Display("confirm", state, state, candidates=(other, mine), previewed=other)
    assert button_for(mine, asking) == "menu"  # theirs is asked about: step to it
    assert button_for(mine, Display("confirm", state, state, candidates=(other, mine), previewed=mine)) == "confirm"
    # The question changed while the hand moved: it no longer asks about their move, so no press.
    assert button_for(mine, Display("confirm", state, state, candidates=(other,), previewed=other)) is None
    assert button_for(mine, Display("moving", state, state)) is None
    assert button_for(mine, None) is None


def test_a_person_does_not_take_the_same_move_read_after_another_for_their_own() -> None:
    """The board asks about another move followed by the same piece move as a reply: the screen names
    it as the next seat's move after that one, so the person who made it alone does not answer."""
    state = KLOTZ.new_game(players=2)
    other = state.legal_actions()[0]
    after_other = state.apply(other)
    replies = [a for a in after_other.legal_actions() if a in state.legal_actions()]
    mine = replies[0]
    read_after = Display("confirm", state, state, candidates=(mine,), previewed=mine, played_in={mine: after_other})
    assert button_for(mine, read_after, before=state) is None
    assert button_for(mine, read_after, before=after_other) == "confirm"  # the reply's own player
    as_own = Display("confirm", state, state, candidates=(mine,), previewed=mine)
    assert button_for(mine, as_own, before=state) == "confirm"


def test_a_question_that_changes_under_the_finger_takes_no_other_move() -> None:
    """Zillo, three players, binary sensors, high noise (selfplay seed 11, game 15): Red's Wild card
    rests a moment on g13, is put on g12, and the hand knocks a Catcher as it lands. The board asks
    about Red's move for one scan, then about another explanation; Red's confirm, meant for the
    first, took the second (two wrong commits, and the game stalled)."""
    stats, final = play_physical_game(GAMES["zillo"], 3, 1100047, "greedy", load_profile("square14"), "binary", "high")
    assert stats.wrong_commits == 0 and stats.missed == 0 and final.is_terminal()
