"""Whose card a card shown is (docs/tracker.md, "A card shown first"): the mover's before the move,
the mover's late only where it plays the move the board reads, and otherwise the next player's, kept
for their move while the last one settles or is asked about. A card never decides whose a change
already on the board was."""

from __future__ import annotations

import pytest

from controller.games import State
from tests.games.zillo_helpers import position
from tests.table.test_tracker_zillo import MODELS, SLOW_PREVIEW, Table, fields, start, texts

KEPT = "C-N: kept for the next move, once this one is taken"
YELLOWS_MOVE = {"l3": "origin", "l6": "destination"}  # C-N: Yellow's three Catchers from l3 north


def opening(cards: str) -> State:
    """Red to play: holding C-E and C-ES (dealt, Yellow holds C-N), or any unseen card (physical)."""
    return start("C-E", "C-ES") if cards == "dealt" else position(hands_mode="physical")


def messages(table: Table) -> list[str]:
    return [message for _, output in table.log for message in output.happened.messages]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("cards", ["dealt", "physical"])
@pytest.mark.parametrize("after_ms", [20, 100, 200])
def test_the_next_players_card_shown_while_the_last_move_settles_is_kept_for_their_move(
    model: str, cards: str, after_ms: int
) -> None:
    """Red shows C-E and moves; Yellow shows C-N `after_ms` after Red's Catchers land, before the
    board takes Red's move. Before: refused as not Red's (dealt hands), or taken as Red's card, so
    that Red's move matched nothing and the game stood still (physical cards)."""
    table = Table(opening(cards), model)
    table.physical.backends.inputs.push("card", "C-E")
    table.run(20)
    table.move("c12", "f12")
    table.run(after_ms)
    table.physical.backends.inputs.push("card", "C-N")
    out = table.run(1000)
    assert table.commits() == ["C-E:c12-f12/3"] and table.state.current_player == 1
    assert messages(table) in ([KEPT], [])  # (none where the board had not read Red's move yet: it may be Red's)
    assert out.display.mode == "idle" and fields(out.display.hints) == YELLOWS_MOVE  # C-N's moves lit
    table.move("l3", "l6")
    table.run(1000)
    assert table.commits() == ["C-E:c12-f12/3", "C-N:l3-l6/3"]


@pytest.mark.parametrize("cards", ["dealt", "physical"])
def test_a_card_that_plays_none_of_the_moves_asked_about_waits_and_the_question_stays(cards: str) -> None:
    """Red moves three east without a card: the board asks which card. Yellow's C-N plays none of
    them: the question stays as it was (before, with physical cards, it vanished: every candidate
    was filtered out), and C-N is Yellow's once Red's move is taken."""
    table = Table(opening(cards), "binary", SLOW_PREVIEW)
    table.move("c12", "f12")
    asked = texts(table.state, table.run(1000).display.candidates)
    table.physical.backends.inputs.push("card", "C-N")
    out = table.run(100)
    assert out.display.mode == "confirm" and texts(table.state, out.display.candidates) == asked
    assert messages(table) == [KEPT]
    table.declare("C-E:c12-f12/3")
    out = table.run(20)
    assert table.commits() == ["C-E:c12-f12/3"] and fields(out.display.hints) == YELLOWS_MOVE


@pytest.mark.parametrize("cards", ["dealt", "physical"])
@pytest.mark.parametrize("card", ["C-E", "C-ES"])
def test_a_card_shown_while_the_piece_is_in_the_air_is_the_movers_where_it_plays_the_move(
    cards: str, card: str
) -> None:
    """Shown late (the Catchers lifted, not yet down) by the reader: both cards move them three east,
    so the card settles which one was played."""
    table = Table(opening(cards), "binary", SLOW_PREVIEW)
    pieces = table.lift("c12")
    table.run(100)
    table.physical.backends.inputs.push("card", card)
    table.run(100)
    table.place("f12", pieces)
    table.run(1000)
    assert table.commits() == [f"{card}:c12-f12/3"] and messages(table) == []


def test_a_card_shown_while_the_piece_is_in_the_air_that_does_not_play_the_move_is_the_next_players() -> None:
    """Physical cards: C-N, shown while Red's Catchers are in the air, could be Red's until they
    land three east, which it cannot play: the board asks which card Red played, and C-N is
    Yellow's once Red's move is taken."""
    table = Table(opening("physical"), "binary", SLOW_PREVIEW)
    pieces = table.lift("c12")
    table.run(100)
    table.physical.backends.inputs.push("card", "C-N")
    table.run(100)
    table.place("f12", pieces)
    out = table.run(1000)
    assert out.display.mode == "confirm" and "C-E:c12-f12/3" in texts(table.state, out.display.candidates)
    table.declare("C-E:c12-f12/3")
    out = table.run(20)
    assert table.commits() == ["C-E:c12-f12/3"] and fields(out.display.hints) == YELLOWS_MOVE


def test_a_card_on_the_next_seats_page_while_the_move_is_under_way_is_kept_for_its_move() -> None:
    """Yellow's own page shows C-N while Red's Catchers are down and not yet taken: Yellow's card,
    whether Red could play it or not (nothing is checked against Red's hand)."""
    table = Table(opening("dealt"), "binary")
    table.move("c12", "e11")  # only C-ES
    table.run(100)
    table.physical.backends.inputs.push("card", "C-N", 1)
    out = table.run(1000)
    assert table.commits() == ["C-ES:c12-e11/3"] and messages(table) == [KEPT]
    assert fields(out.display.hints) == YELLOWS_MOVE


def test_a_card_on_the_movers_own_page_that_does_not_play_the_move_read_is_theirs_and_the_move_is_asked() -> None:
    """Red's page shows C-E once Red's move, which only C-ES plays, is read: Red's word about their
    own card, so the card or the move was not the one meant, and the board asks."""
    table = Table(opening("dealt"), "binary", SLOW_PREVIEW)
    table.move("c12", "e11")  # only C-ES
    table.run(100)
    table.physical.backends.inputs.push("card", "C-E", 0)
    out = table.run(1000)
    assert out.display.mode == "confirm" and table.commits() == []
    table.press("confirm")
    assert table.commits() == ["C-ES:c12-e11/3"]


def test_the_next_players_card_that_plays_none_of_the_moves_asked_stays_theirs_through_the_correction() -> None:
    """Red's Zillo, let go on e9 and taken, moves on to d9: Red's hand going on, or Yellow's W-1.
    Yellow's page shows C-N, which plays neither: Yellow's card for Yellow's move, so the question
    stays, and once Red says it was the hand going on, C-N's moves light for Yellow (before: refused
    as not Red's move's card, and lost)."""
    table = Table(position(hand=["W-2"], others=["W-1", "C-N"]), "binary", SLOW_PREVIEW)
    table.move("f9", "e9")
    table.run(1000)
    table.move("e9", "d9")
    table.run(500)
    table.physical.backends.inputs.push("card", "C-N", 1)
    out = table.run(1000)
    assert out.display.mode == "confirm" and table.commits() == ["W-2:f9-e9"]
    assert [out.display.text_of(action) for action in out.display.candidates] == ["W-1:e9-d9", "W-2:f9-d9"]
    table.physical.backends.inputs.push("declare", "W-2:f9-d9", 0)
    out = table.run(30)
    assert table.commits() == ["W-2:f9-e9", "W-2:f9-d9"] and fields(out.display.hints) == YELLOWS_MOVE


@pytest.mark.parametrize("card_first", [False, True])
def test_a_card_shown_after_a_change_on_the_last_moves_fields_does_not_decide_whose_it_was(card_first: bool) -> None:
    """Red's Zillo, let go on e9 (W-2) and taken, moves on to d9: Red's hand going on (W-2:f9-d9) or
    Yellow's W-1. Yellow's page then shows W-1: the card comes before its move (Z-6), so a change
    already on the board is no part of it, and the board still asks (before: taken as Yellow's
    W-1). Red says it was the hand going on: Yellow's card stays Yellow's for the move from d9
    (before: forgotten with the correction). Shown before the Zillo moves on, it is Yellow's start,
    and the move is Yellow's."""
    table = Table(position(hand=["W-2"], others=["W-1"]), "binary", SLOW_PREVIEW)
    table.move("f9", "e9")
    table.run(1000)
    if card_first:
        table.physical.backends.inputs.push("card", "W-1", 1)
    table.move("e9", "d9")
    table.run(500)
    if not card_first:
        table.physical.backends.inputs.push("card", "W-1", 1)
    out = table.run(1000)
    if card_first:
        assert table.commits() == ["W-2:f9-e9", "W-1:e9-d9"]
    else:
        assert out.display.mode == "confirm" and table.commits() == ["W-2:f9-e9"]
        assert [out.display.text_of(action) for action in out.display.candidates] == ["W-1:e9-d9", "W-2:f9-d9"]
        table.physical.backends.inputs.push("declare", "W-2:f9-d9", 0)
        out = table.run(30)
        assert table.commits() == ["W-2:f9-e9", "W-2:f9-d9"] and table.state.current_player == 1
        assert set(fields(out.display.hints).values()) == {"origin", "destination"}  # W-1's moves from d9


@pytest.mark.parametrize("cards", ["dealt", "physical"])
def test_a_second_card_shown_while_the_piece_is_in_the_air_is_the_movers_where_only_it_plays_the_move(
    cards: str,
) -> None:
    """Red shows C-E, lifts the Catchers, sees C-E's fields lit and shows C-ES instead, then moves
    two east and one south, which only C-ES plays: Red's card, the move taken (before: C-ES was kept
    for Yellow, and Red's move matched no card shown). Once Red's move is read, a second card is
    Yellow's (the first test)."""
    table = Table(opening(cards), "binary")
    table.physical.backends.inputs.push("card", "C-E")
    table.run(20)
    pieces = table.lift("c12")
    table.run(100)
    table.physical.backends.inputs.push("card", "C-ES")
    table.run(100)
    table.place("e11", pieces)
    table.run(1000)
    assert table.commits() == ["C-ES:c12-e11/3"] and table.tracker._choice.card is None


@pytest.mark.parametrize("cards", ["dealt", "physical"])
def test_a_move_the_card_shown_does_not_play_is_asked_never_taken_nor_left_unanswered(cards: str) -> None:
    """Red shows C-E and moves two east and one south, which only C-ES plays (or C-SE, with
    physical cards): the card or the move was not the one meant. The board asks about the moves
    that fit (before: nothing fitted the card, and the board stood in guidance with nothing lit),
    and a confirmation takes the one shown."""
    table = Table(opening(cards), "binary", SLOW_PREVIEW)
    table.physical.backends.inputs.push("card", "C-E")
    table.run(20)
    table.move("c12", "e11")
    out = table.run(3000)
    assert out.display.mode == "confirm" and table.commits() == []
    assert texts(table.state, out.display.candidates)[0] == "C-ES:c12-e11/3"
    table.press("confirm")
    assert table.commits() == ["C-ES:c12-e11/3"]


def test_a_card_shown_while_the_scanner_was_silent_does_not_decide_whose_the_hidden_change_was() -> None:
    """Red's Zillo, let go on e9 and taken, moves on to d9 while the scanner is silent, and
    Yellow's page shows W-1 before it speaks again: the change may have come before the card, so
    it may be Red's hand going on, and the board asks (before: taken as Yellow's W-1, the card
    read as Yellow's start; three-player Zillo, fumbling hands, rough noise)."""
    table = Table(position(hand=["W-2"], others=["W-1"]), "binary", SLOW_PREVIEW)
    table.move("f9", "e9")
    table.run(1000)
    table.sim.noise.silence(table.now + 600)
    zillo = table.lift("e9")
    table.run(150)
    table.place("d9", zillo)
    table.run(300)
    table.physical.backends.inputs.push("card", "W-1", 1)
    out = table.run(1500)
    assert out.display.mode == "confirm" and table.commits() == ["W-2:f9-e9"]
    assert [out.display.text_of(action) for action in out.display.candidates] == ["W-1:e9-d9", "W-2:f9-d9"]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("after_ms", [10, 60, 120])
def test_a_second_card_shown_while_a_move_seen_after_an_outage_is_still_read_is_the_next_players(
    model: str, after_ms: int
) -> None:
    """Red shows W-4 and moves the Zillo one field while the scanner is silent; the reader gets W-2
    `after_ms` after it speaks again, while the board still weighs the one-field move as a possible
    knock. The sensors show a change: the move is under way, so W-2 is a second card, the next
    player's (before: it replaced Red's W-4 as if nothing had moved, and Red's move was taken as
    W-2's; three-player Zillo, physical cards, rough noise)."""
    table = Table(opening("physical"), model)
    table.physical.backends.inputs.push("card", "W-4")
    table.run(20)
    table.sim.noise.silence(table.now + 400)
    table.run(50)
    zillo = table.lift("f9")
    table.run(100)
    table.place("e9", zillo)
    table.run(250 + after_ms)
    table.physical.backends.inputs.push("card", "W-2")
    table.run(1000)
    assert table.commits() == ["W-4:f9-e9"] and table.tracker._choice.card == "W-2"


def test_of_two_cards_shown_while_a_piece_is_lifted_the_first_that_plays_the_move_is_the_movers() -> None:
    """A piece stands lifted (Red looks at its Catchers) when Red shows W-4, so both cards come
    while the board shows a change: Red moves the Zillo one field, Yellow's W-2 comes through the
    reader, and the Catchers go back. W-4, shown first, plays the move: Red's; W-2 is Yellow's
    (before: the second replaced the first, and Red's move was taken as W-2's; three-player Zillo,
    physical cards, quick hands)."""
    table = Table(opening("physical"), "binary")
    catchers = table.lift("c12")
    table.run(100)
    table.physical.backends.inputs.push("card", "W-4")
    table.run(100)
    zillo = table.lift("f9")
    table.run(100)
    table.place("e9", zillo)
    table.run(100)
    table.physical.backends.inputs.push("card", "W-2")
    table.run(300)
    table.place("c12", catchers)
    table.run(1500)
    assert table.commits() == ["W-4:f9-e9"] and table.tracker._choice.card == "W-2"


def test_a_partial_board_on_the_way_is_never_asked_about_as_another_cards_move() -> None:
    """A card shown, its move under way: a board on the way may fit a move of another card (one
    Catcher of a part lifted reads, under presence sensors, as a Catcher moved onto its own stack).
    The card rules that out, and only a settled board that no move of the card fits is asked about
    (before: asked at the first lift, and the shift, once made, asked again among those readings
    until its player declared it; four-player Zillo, physical cards, the bench's second game)."""
    from controller.terminal.physical import play_physical_game
    from tests.table.test_tracker_zillo import GAME, SQUARE14

    stats, final = play_physical_game(
        GAME, 4, 100004, "greedy", SQUARE14, "binary", "low", show_cards=True, hands="physical"
    )
    assert stats.wrong_commits == 0 and final.is_terminal()
    assert stats.behaviours.get("declared_unseen", 0) == 0 and max(stats.ack_ms) < 1000


def test_a_piece_held_with_a_card_shown_leaves_the_scans_on_the_hot_path() -> None:
    """A card shown and a piece held in the air, which no move of any card fits yet: once the board
    has waited the settle time to ask, the quiet scans after it do no work (before: every scan
    judged the board again, the deadline to ask having passed)."""
    table = Table(opening("dealt"), "binary")
    table.physical.backends.inputs.push("card", "C-E")
    table.run(20)
    table.lift("c12")
    table.run(500)
    judged = 0
    for _ in range(300):
        table.run(10)
        judged += table.tracker.last_evaluated
    assert judged <= 2


W1_KEPT = "W-1: kept for the next move, once this one is taken"


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("lift_ms", [40, 120])
def test_the_move_shown_moved_on_after_the_next_players_card_is_the_move_then_theirs(model: str, lift_ms: int) -> None:
    """Red shows W-2 and moves the Zillo f9-e9; Yellow shows W-1 while it settles (kept), then
    lifts the Zillo before the board has taken Red's move and puts it on d9. Yellow had started
    when the card came (Z-6): Red's W-2:f9-e9, then Yellow's W-1:e9-d9, taken without a question
    (before: asked whether it was Red's W-2:f9-d9, the hand going on). The card, spent with
    Yellow's move, is never shown to Red (before: refused as no legal move of Red's)."""
    table = Table(position(hand=["W-2"], others=["W-1"]), model, SLOW_PREVIEW)
    table.physical.backends.inputs.push("card", "W-2")
    table.run(20)
    table.move("f9", "e9")
    table.run(60)
    table.physical.backends.inputs.push("card", "W-1")
    table.run(lift_ms)
    start = table.now
    table.move("e9", "d9")
    out = table.run(1500)
    assert table.commits() == ["W-2:f9-e9", "W-1:e9-d9"] and "confirm" not in table.modes(start)
    assert messages(table) == [W1_KEPT] and out.display.mode == "idle" and not out.display.hints


@pytest.mark.parametrize("kept", ["C-N", None])
def test_the_move_shown_moved_on_is_asked_where_no_card_kept_plays_the_next_move(kept: str | None) -> None:
    """The same, with Yellow's card kept a Catcher card, or none shown: the piece moved on is Red's
    hand going on (W-2:f9-d9) or Yellow's W-1 after Red's move, and both stay asked."""
    table = Table(position(hand=["W-2"], others=["W-1", "C-N"]), "binary", SLOW_PREVIEW)
    table.physical.backends.inputs.push("card", "W-2")
    table.run(20)
    table.move("f9", "e9")
    table.run(60)
    if kept is not None:
        table.physical.backends.inputs.push("card", kept)
    table.run(40)
    table.move("e9", "d9")
    out = table.run(1500)
    assert out.display.mode == "confirm" and table.commits() == []
    assert sorted(out.display.text_of(action) for action in out.display.candidates) == ["W-1:e9-d9", "W-2:f9-d9"]


def test_readings_are_not_weighed_for_a_kept_card_where_none_is_kept() -> None:
    """Where no card is kept for the next move (every game but Zillo, and most Zillo moves), the
    readings of a move then the next player's are not worked out for one: that costs a table of the
    next position per reading, on the tracker's step."""
    from controller.table.confirmation import Confirmation
    from controller.table.corrections import ThenMove

    def played(then: ThenMove) -> tuple[str | None, int]:
        raise AssertionError("worked out with no card kept")

    state = opening("dealt")
    assert (
        Confirmation().kept_card_plays(state, [ThenMove(state.legal_actions()[0], state.legal_actions()[1])], played)
        == []
    )
