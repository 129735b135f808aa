"""Footprints: which pieces an action moves, from the occupancy before and after it."""

from controller.games import Piece, load_game
from controller.games.footprint import Footprint, PieceMove, footprint, occupancy_magnets
from controller.games.klotz import Move

KLOTZ = load_game("klotz")
A, B, C, D = (0, 0), (1, 0), (2, 0), (3, 0)
P = Piece("cylinder1", None, 1)
Q = Piece("square", 0, -1)
R = Piece("stone", 1, 1)


def test_plain_move() -> None:
    print_ = footprint({A: (P,), C: (Q,)}, {B: (P,), C: (Q,)})
    assert print_ == Footprint((PieceMove(P, A, B),), frozenset({A}), frozenset({B}), frozenset(), frozenset())
    assert print_.changed == {A, B}


def test_capture_sends_the_victim_to_its_return_field() -> None:
    print_ = footprint({A: (P,), B: (Q,)}, {B: (P,), D: (Q,)})
    assert print_.moves == (PieceMove(P, A, B), PieceMove(Q, B, D))
    assert print_.origins == {A} and print_.targets == {B}
    assert print_.captures == {B} and print_.returns == {D}
    assert print_.changed == {A, B, D}


def test_capture_is_found_whatever_the_field_order() -> None:
    # The mover comes from a field sorted after the victim's: still the mover, not the victim.
    print_ = footprint({D: (P,), B: (Q,)}, {B: (P,), A: (Q,)})
    assert print_.moves[0] == PieceMove(P, D, B)
    assert print_.origins == {D} and print_.captures == {B} and print_.returns == {A}


def test_swap_moves_the_displaced_piece_to_the_movers_origin() -> None:
    print_ = footprint({A: (P,), B: (Q,)}, {A: (Q,), B: (P,)})
    assert set(print_.moves) == {PieceMove(P, A, B), PieceMove(Q, B, A)}
    assert print_.origins == {A} and print_.targets == {B}
    assert print_.captures == {B} and print_.returns == {A}


def test_stack_split_moves_the_top_piece_only() -> None:
    print_ = footprint({A: (P, R)}, {A: (P,), B: (R,)})
    assert print_.moves == (PieceMove(R, A, B),)
    assert print_.origins == {A} and print_.targets == {B}
    assert print_.captures == frozenset() and print_.returns == frozenset()


def test_stack_split_can_take_the_bottom_piece() -> None:
    print_ = footprint({A: (P, R)}, {A: (R,), B: (P,)})
    assert print_.moves == (PieceMove(P, A, B),)


def test_a_whole_stack_moving_onto_another_piece_is_no_capture() -> None:
    print_ = footprint({A: (P, R), B: (Q,)}, {B: (Q, P, R)})
    assert print_.moves == (PieceMove(P, A, B), PieceMove(R, A, B))
    assert print_.origins == {A} and print_.targets == {B} and print_.captures == frozenset()


def test_pieces_entering_and_leaving_the_board() -> None:
    entering = footprint({}, {A: (P,)})
    assert entering.moves == (PieceMove(P, None, A),) and entering.targets == {A} and entering.origins == frozenset()
    leaving = footprint({A: (P,)}, {})
    assert leaving.moves == (PieceMove(P, A, None),) and leaving.origins == {A} and leaving.targets == frozenset()


def test_nothing_moves_for_an_unchanged_board() -> None:
    print_ = footprint({A: (P,)}, {A: (P,)})
    assert print_.moves == () and print_.changed == frozenset()


def test_klotz_capture_footprint_from_the_engine() -> None:
    data = KLOTZ.new_game(players=2).to_json()
    data["blocks"] = [
        {"cell": "e5", "kind": "square", "size": 4, "player": 0},
        {"cell": "h7", "kind": "square", "size": 4, "player": 1},
        {"cell": "e4", "kind": "cylinder", "size": 1, "player": None},
    ]
    data["current_player"] = 1
    state = KLOTZ.state_from_json(data)
    cell = KLOTZ.parse_cell
    capture = Move(cell("e4"), cell("e5"))
    print_ = footprint(state.occupancy(), state.apply(capture).occupancy())
    assert print_.origins == {cell("e4")} and print_.targets == {cell("e5")}
    assert print_.captures == {cell("e5")} and print_.returns == {cell("g8")}  # K-1: red's inner field


def test_occupancy_magnets_lists_poles_bottom_first() -> None:
    assert occupancy_magnets({A: (Q, P)}, A) == [-1, 1]
    assert occupancy_magnets({A: (Q, P)}, B) == []


def test_like_pieces_pair_in_field_order_and_unpaired_arrivals_keep_theirs() -> None:
    # Two like pieces leave A and B, two arrive on C and D: the first to leave lands on the first
    # field; a piece of another kind arriving from off the board keeps its own place after them.
    print_ = footprint({A: (P,), B: (P,)}, {C: (P,), D: (P,), (4, 0): (R,)})
    assert print_.moves == (PieceMove(P, A, C), PieceMove(P, B, D), PieceMove(R, None, (4, 0)))


def test_an_emptied_field_may_be_named_with_no_pieces() -> None:
    # The form of `State.occupancy_changes`: `()` where an action empties a field.
    assert footprint({A: (P,)}, {A: (), B: (P,)}) == footprint({A: (P,)}, {B: (P,)})
