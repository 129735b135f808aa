"""The candidate table weighs only the actions the evidence asks about, and answers exactly what
weighing every action would: over random positions of every game, on every sensor model."""

from __future__ import annotations

import pytest

from controller.bots import make_bot
from controller.games import GAMES
from controller.table.board import board_map
from controller.table.candidates import NARROW_REACH, CandidateTable
from controller.table.tables import TABLES_KEPT, WEIGHED_PER_QUIET_SCAN
from controller.terminal.physical import PhysicalTable, default_profile
from hal.profile import load_profile
from tests.games.test_action_reach import CASES, random_states


@pytest.mark.parametrize("model", ["binary", "count", "signed"])
@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_matching_by_reach_finds_exactly_the_actions_a_full_search_finds(
    name: str, players: int, options: dict, model: str
) -> None:
    game = GAMES[name]
    states = random_states(name, players, options, games=1, seed=5)[::7]
    board = board_map(load_profile(default_profile(game)), game, states[0], model)
    for state in states:
        full = CandidateTable(state, board)
        everything = {action: full.mismatch(action) for action in full.actions}
        alike: dict[frozenset, list] = {}  # each evidence -> the actions that show it, in legal order
        for action, seen in everything.items():
            alike.setdefault(seen, []).append(action)
        # One table asked about every evidence in turn, as the tracker asks one position's table; its
        # first question finds nothing weighed yet. A second one is asked with a channel masked.
        table, masking = CandidateTable(state, board), CandidateTable(state, board)
        for evidence, expected in alike.items():
            if not evidence:
                continue
            assert table.matching(evidence) == expected
            # With one channel of the evidence masked (a stuck sensor), the rest must still match.
            masked = min(evidence)[0]
            rest = frozenset(pair for pair in evidence if pair[0] != masked)
            if rest:
                visible = [
                    other
                    for other, seen in everything.items()
                    if frozenset(pair for pair in seen if pair[0] != masked) == rest
                ]
                assert masking.matching(rest, {masked}) == visible
        assert table.evaluated <= len(everything)
        assert full.invisible == [action for action, seen in everything.items() if not seen]


def test_a_lifted_klotz_block_weighs_only_the_moves_that_reach_its_field() -> None:
    game = GAMES["klotz"]
    state = game.new_game(players=4)
    board = board_map(load_profile("square14"), game, state, "binary")
    table = CandidateTable(state, board)
    origin = state.legal_actions()[0].origin
    channel = board.channel_of[origin]
    reached = table.reaching([channel])
    assert reached and all(action.origin == origin or action.target == origin for action in reached)
    assert table.evaluated == 0
    assert len(reached) < len(table.actions) / 4


def test_a_long_games_history_keeps_positions_not_their_legal_actions() -> None:
    """Only the states whose tables the tracker keeps remember their legal actions; the rest of the
    history forgot them (memory stays bounded over any game length), and a take-back still works."""
    game = GAMES["klotz"]
    table = PhysicalTable(game, game.new_game(players=4, seed=3), load_profile("square14"), "binary")
    table.settle()
    bots = [make_bot("random", seat) for seat in range(4)]
    for _ in range(3 * TABLES_KEPT):
        assert table.perform(bots[table.state.current_player].choose(table.state))
    history = table.session.tracker.history
    assert len(history) == 3 * TABLES_KEPT
    remembering = [state for state in history if state._legal is not None]  # type: ignore[attr-defined]
    assert len(remembering) < TABLES_KEPT
    before = history[-1]
    table.backends.inputs.push("button", "undo")
    table.restore()
    assert table.state is before and table.state.legal_actions()


def test_groups_by_effect_hold_every_reaching_action_once_in_legal_order() -> None:
    """Zillo moves allowed by several cards are one effect: a group weighs as one."""
    game = GAMES["zillo"]
    for state in random_states("zillo", 4, {"hands": "physical"}, games=1, seed=8)[::11]:
        board = board_map(load_profile(default_profile(game)), game, state, "count")
        table = CandidateTable(state, board)
        position = {action: number for number, action in enumerate(table.actions)}
        for channel in list(board.channel_of.values())[::9]:
            reaching = table.reaching([channel])
            for card in (None, *{action.card for action in reaching}):
                groups = table.reaching_groups([channel], card)
                grouped = [action for group in groups for action in group]
                assert sorted(grouped, key=position.get) == [a for a in reaching if card in (None, a.card)]
                assert len(grouped) == len(set(grouped))
                firsts = [position[group[0]] for group in groups]
                assert firsts == sorted(firsts)
                for group in groups:
                    assert [position[a] for a in group] == sorted(position[a] for a in group)
                    assert len({state.action_effect(action) for action in group}) == 1


def test_quiet_scans_index_the_new_position_then_weigh_its_effects_ahead() -> None:
    """The first scan with nothing new after a move indexes the position, the quiet scans after it
    weigh a few effects each (nobody waits then), so a piece lifted or a card shown later finds its
    matching and hints worked out; the scans themselves stay quiet ones."""
    game = GAMES["zillo"]
    state = game.new_game(players=4, seed=2, hands="dealt")
    table = PhysicalTable(game, state, load_profile(default_profile(game)), "count")
    table.settle()
    tracker = table.session.tracker
    bots = [make_bot("greedy", seat) for seat in range(4)]
    while True:
        assert table.perform(bots[table.state.current_player].choose(table.state))
        candidates = tracker.candidates_of(tracker.state)
        if candidates._legal is None:
            table.tick()
            assert not tracker.last_evaluated
            if len(candidates._reach) > 2 * WEIGHED_PER_QUIET_SCAN:
                break
        table.run(2000)
    assert candidates._legal is not None and candidates.evaluated == 0  # the indexing scan only lists
    table.tick()
    table.tick()
    assert not tracker.last_evaluated
    assert candidates.evaluated == 2 * WEIGHED_PER_QUIET_SCAN
    table.run(10 * len(candidates._reach))
    assert len(candidates._mismatch) == len(candidates._footprints) == len(candidates._reach)  # every effect
    assert all(candidates._reach)  # (Zillo names every action's reach)


def test_quiet_scans_while_a_move_is_acknowledged_work_for_the_position_it_leads_to() -> None:
    """While the board shows a move acknowledged and waits for it to settle, the quiet scans index
    and weigh the position after it: the next player, who may show a card or lift a piece as soon as
    the move is taken, finds it worked out."""
    game = GAMES["zillo"]
    state = game.new_game(players=4, seed=2, hands="physical")
    table = PhysicalTable(game, state, load_profile(default_profile(game)), "binary", show_cards=True)
    table.settle()
    tracker = table.session.tracker
    bots = [make_bot("greedy", seat) for seat in range(4)]
    ready: list[tuple[bool, int]] = []

    def at_commit(now: int, output) -> None:
        if output.happened.committed:
            taken = tracker.candidates_of(tracker.state)  # made in the commit's own step if nobody worked ahead
            ready.append((taken._legal is not None, taken.evaluated))

    for _ in range(6):
        table.run(500)  # the next player thinks
        assert table.perform(bots[table.state.current_player].choose(table.state), watch=at_commit)
    assert len(ready) == 6
    assert all(indexed and weighed >= 8 * WEIGHED_PER_QUIET_SCAN for indexed, weighed in ready)


def test_a_tables_cards_are_the_cards_its_actions_play() -> None:
    """`cards` and `card_actions` answer what filtering every legal action by its card answers."""
    for name, players, options in CASES:
        game = GAMES[name]
        states = random_states(name, players, options, games=1, seed=3)[::11]
        board = board_map(load_profile(default_profile(game)), game, states[0], "count")
        for state in states:
            table = CandidateTable(state, board)
            played = {state.action_card(action) for action in table.actions} - {None}
            assert table.cards == played
            for card in played:
                assert table.card_actions(card) == tuple(a for a in table.actions if state.action_card(a) == card)
            assert table.card_actions("no such card") == ()
    assert any(name == "zillo" for name, _, _ in CASES)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_weighing_ahead_weighs_each_effect_once_widest_first(name: str, players: int, options: dict) -> None:
    """`weigh_ahead` leaves the table answering exactly what it answers unweighed, and weighs the
    widest effects (a Zillo shift carries a part's pieces) first; narrow ones (a move's fields and
    a home: all of Klotz and Fillit) only where actions play cards."""
    game = GAMES[name]
    states = random_states(name, players, options, games=1, seed=5)[::13]
    board = board_map(load_profile(default_profile(game)), game, states[0], "count")
    for state in states:
        ahead, fresh = CandidateTable(state, board), CandidateTable(state, board)
        rounds = 1
        weighed: list[int] = []
        while True:
            done = ahead.weigh_ahead(5)
            weighed += [effect for effect in ahead._mismatch if effect not in weighed]
            if done:
                break
            rounds += 1
        widths = [len(ahead._reach[effect] or ()) for effect in weighed]
        assert widths == sorted(widths, reverse=True)
        fewest = 1 if ahead.cards else NARROW_REACH + 1  # narrow effects too where a card lights them all
        chosen = [effect for effect, reach in enumerate(ahead._reach) if reach and len(reach) >= fewest]
        assert ahead.evaluated == len(chosen)
        assert rounds == max(1, -(-len(chosen) // 5))
        for action in ahead.actions:
            assert ahead.mismatch(action) == fresh.mismatch(action)
            assert ahead.footprint(action) == fresh.footprint(action)
        assert ahead.evaluated == fresh.evaluated  # nothing weighed twice


@pytest.mark.parametrize("model", ["binary", "count"])
@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_lifted_hints_kept_field_by_field_are_those_worked_out_at_once(
    name: str, players: int, options: dict, model: str
) -> None:
    """A lifted field's hints are kept per position (`CandidateTable.lift_hints`) and merged: two
    or three pieces lifted read the same whether each field was worked out before, in any order, or
    all at once on a fresh table, with each card shown too; each field's own marks are kept, an
    origin over any other field's mark for it, and otherwise the first lifted field's mark."""
    from controller.table.guidance import lifted_hints

    game = GAMES[name]
    states = random_states(name, players, options, games=1, seed=7)[::5]
    board = board_map(load_profile(default_profile(game)), game, states[0], model)
    for number, state in enumerate(states):
        at_once, field_by_field = CandidateTable(state, board), CandidateTable(state, board)
        expected = at_once.expected
        occupied = [channel for channel, reading in enumerate(expected) if reading]
        lifted = occupied[number % 3 :: max(1, len(occupied) // 3)][:3]
        for card in [None, *sorted(at_once.cards)[:2]]:
            alone = [lifted_hints({channel: 0}, expected, board, state, field_by_field, card) for channel in lifted]
            everything = {channel: 0 for channel in lifted}
            merged = lifted_hints(everything, expected, board, state, field_by_field, card)
            assert merged == lifted_hints(everything, expected, board, state, at_once, card)
            for cell, kind in merged.items():
                marks = [hints[cell] for hints in alone if cell in hints]
                assert kind == ("origin" if "origin" in marks else marks[0])
