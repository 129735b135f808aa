"""Move inference on Fillit (docs/tracker.md, docs/games/fillit.md "What the board shows"): scripted
lift/place scenarios on the hex61 board.

Pawns face the sensor with +1 and stones with -1, so a signed sensor (Fillit's own) sees a stone-pawn
swap; binary and count sensors do not, and such a swap is declared. A stone-stone swap is invisible
to every sensor: it is declared, or chosen with the buttons from what the menu offers.

Time is virtual: the simulated board is scanned every 10 ms and the tracker only ever sees those
scans, so every time asserted here is a scan time, never a wall-clock time.
"""

from __future__ import annotations

import pytest

from controller.bots import make_bot
from controller.games import Action, Piece, State, load_game
from controller.games.fillit import FillitState, Slide, StoneStep
from controller.table.board import board_map
from controller.table.leds import HINT_PALETTE
from controller.table.palette import OFF, RGB, mark_colour
from controller.table.tracker import TrackerConfig
from controller.terminal.physical import SCAN_MS, PhysicalTable
from hal.profile import load_profile
from tests.table.scripted import ScriptedTable

FILLIT = load_game("fillit")
HEX61 = load_profile("hex61")
CELL = FILLIT.parse_cell
MODELS = ["binary", "count", "signed"]
BLIND = ["binary", "count"]  # sensors that cannot tell a pawn from a stone
START = FILLIT.new_game(players=2)  # set-up A: Red pawn a1, stones d1 c2 b3 a4; Yellow pawn i5
BOARD = board_map(HEX61, FILLIT, START)
DEFAULT = TrackerConfig()
TOTAL = START.total_chips


def step(text: str) -> StoneStep:
    action = START.parse_action(f"s:{text}")  # the notation, as the state reads it
    assert isinstance(action, StoneStep)
    return action


def slide(text: str) -> Slide:
    action = START.parse_action(f"p:{text}")
    assert isinstance(action, Slide)
    return action


def play(state: State, *texts: str) -> State:
    for text in texts:
        state = state.apply(state.parse_action(text))
    return state


def fields(hints: dict) -> dict[str, str]:
    return {FILLIT.format_cell(cell): kind for cell, kind in hints.items()}


def position(
    red: tuple[str, ...],
    yellow: tuple[str, ...] = ("f8", "g6", "h4", "i2"),
    pawns: tuple[str, str] = ("a1", "i5"),
    red_chips: tuple[str, ...] | None = None,
    yellow_chips: tuple[str, ...] | None = None,
) -> FillitState:
    """A two-player large-board position, Red to start a turn: `red` and `yellow` are the stones;
    chips default to one under each pawn, and each supply holds the rest of its side's chips."""
    reds = red_chips if red_chips is not None else (pawns[0],)
    yellows = yellow_chips if yellow_chips is not None else (pawns[1],)
    data = START.to_json()
    data.update(
        pawns=list(pawns),
        stones=[{"cell": c, "owner": 0} for c in red] + [{"cell": c, "owner": 1} for c in yellow],
        chips=[{"cell": c, "owner": 0} for c in reds] + [{"cell": c, "owner": 1} for c in yellows],
        supply=[TOTAL - len(reds), TOTAL - len(yellows)],
    )
    state = FILLIT.state_from_json(data)
    assert isinstance(state, FillitState)
    return state


class Table(ScriptedTable):
    """The hex61 board with Fillit on it, driven by the test."""

    def __init__(self, state: State = START, model: str = "signed", config: TrackerConfig | None = None) -> None:
        super().__init__(FILLIT, state, HEX61, model, config)

    def lift(self, field: str) -> list[Piece]:
        return self.sim.lift(CELL(field))

    def carry(self, origin: str, target: str, dwell: int = 100) -> None:
        """Lift the piece on `origin`, hold it `dwell` ms, and put it on `target`."""
        pieces = self.lift(origin)
        self.run(dwell)
        self.place(target, pieces)

    def make(self, text: str) -> None:
        """Carry out a stone step onto an empty hex or a slide, written in Fillit notation."""
        origin, target = text.split(":")[1].split("-")
        self.carry(origin, target)

    def swap(self, first: str, second: str, dwell: int = 100) -> None:
        """Exchange the pieces on two fields by hand: both up, then both down on the other field."""
        one = self.lift(first)
        self.run(dwell)
        other = self.lift(second)
        self.run(dwell)
        self.place(second, one)
        self.run(dwell)
        self.place(first, other)

    def commits(self, start: int = 0) -> list[tuple[int, str]]:
        return self.timed_commits(start)


def led(field: str) -> int:
    return BOARD.led_of[CELL(field)]


def chip_colour(state: State, field: str) -> RGB:
    """What the LED under `field` shows for `state`'s chips: the dimmed chip colour, or off."""
    mark = state.marks().get(CELL(field))
    return mark_colour(mark.colour) if mark is not None else OFF


# --- a pawn slide ---------------------------------------------------------------------------------
# Red's pawn on a1 slides south-east over b2 (a Yellow chip) and c3 (empty) and stops on d4 before
# the blocked centre.
CHIPPED = position(("d1", "c2", "b3", "a4"), yellow_chips=("i5", "b2"))


@pytest.mark.parametrize("model", MODELS)
def test_F6_a_slide_commits_and_its_chips_light_the_moment_it_is_acknowledged(model: str) -> None:
    table = Table(CHIPPED, model)
    assert table.frame_at(table.now)[led("b2")] == mark_colour("yellow")
    table.carry("a1", "d4")
    placed = table.now
    table.run(600)
    before = table.frame_at(placed + DEFAULT.debounce_ms - SCAN_MS)
    assert before[led("b2")] == mark_colour("yellow") and before[led("c3")] == OFF  # still the old chips
    acks = [(at, out) for at, out in table.since(placed) if out.display.mode == "acknowledged"]
    acked_at, ack = acks[0]
    assert acked_at == placed + DEFAULT.debounce_ms
    assert ack.display.acknowledged == slide("a1-d4") and ack.display.state is CHIPPED  # not yet committed
    after = CHIPPED.apply(slide("a1-d4"))
    assert ack.display.shown == after and fields(ack.display.hints) == {"d4": "destination"}
    frame = table.frame_at(acked_at)
    for field in ("a1", "b2", "c3"):  # the passed hexes (and the start hex) show the successor's chips
        assert frame[led(field)] == chip_colour(after, field) == mark_colour("red")
    assert frame[led("d4")] == HINT_PALETTE["destination"]
    # The pawn has two other slides, so the commit waits for the board to settle.
    assert table.commits() == [(placed + DEFAULT.settle_ms, "p:a1-d4")]
    final = table.state
    assert isinstance(final, FillitState)
    assert final.supply == (TOTAL - 4, TOTAL - 1)  # F-6: b2's Yellow chip went back to Yellow's supply
    assert final.current_player == 0 and final.phase == "pawn-moved"
    frame = table.frame_at(table.now)
    assert [frame[led(f)] for f in ("a1", "b2", "c3", "d4")] == [mark_colour("red")] * 4


# --- the two decisions of a turn ------------------------------------------------------------------
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(
    "turn", [("s:a4-a5", "p:a1-a4"), ("p:a1-a3", "s:a4-a5")], ids=["stone-then-slide", "slide-then-stone"]
)
def test_F5_either_order_of_a_turn_commits_both_actions_in_order(model: str, turn: tuple[str, str]) -> None:
    table = Table(START, model)
    first, second = turn
    table.make(first)
    table.run(500)
    assert table.texts() == [first]
    assert table.state.current_player == 0 and table.state.ply == 1  # still Red's turn
    table.make(second)
    table.run(500)
    assert table.texts() == [first, second]
    final = table.state
    assert isinstance(final, FillitState)
    assert final == play(START, first, second)
    assert final.current_player == 1 and final.turn == 1 and final.phase == "start"
    assert table.output.display.mode == "idle"


# --- a stone-pawn swap ----------------------------------------------------------------------------
# Red's stone on b2 stands next to Red's pawn on a1: s:b2-a1 puts the stone on a1 and the pawn, with
# its chip, on b2 (F-7).
NEXT_TO_PAWN = position(("b2", "d1", "c5", "a4"))
PAWN_SWAP = step("b2-a1")


def test_F7_a_stone_pawn_swap_is_seen_by_a_signed_sensor() -> None:
    table = Table(NEXT_TO_PAWN, "signed")
    assert not table.tracker.is_invisible(PAWN_SWAP)
    out = table.declare("s:b2-a1")
    assert out.happened.messages == ("s:b2-a1: the board does not show this move; make it on the board first",)
    start = table.now
    table.swap("b2", "a1")
    table.run(500)
    assert table.texts(start) == ["s:b2-a1"] and table.vias(start) == ["sensors"]
    swapped = NEXT_TO_PAWN.apply(PAWN_SWAP)
    assert table.state == swapped and swapped.phase == "stone-moved"
    frame = table.frame_at(table.now)
    assert frame[led("b2")] == mark_colour("red") and frame[led("a1")] == OFF  # the chip went with the pawn
    # The pawn slides on from its new hex.
    table.carry("b2", "a2")
    table.run(500)
    assert table.texts(start) == ["s:b2-a1", "p:b2-a2"] and table.state.current_player == 1


@pytest.mark.parametrize("model", BLIND)
def test_F7_a_stone_pawn_swap_is_invisible_to_blind_sensors_and_is_declared(model: str) -> None:
    table = Table(NEXT_TO_PAWN, model)
    assert table.tracker.is_invisible(PAWN_SWAP)
    table.swap("b2", "a1")
    out = table.run(5000)
    assert out.display.mode == "idle" and table.commits() == [] and table.state is NEXT_TO_PAWN
    out = table.declare("s:b2-a1")
    assert out.happened.committed == (PAWN_SWAP,) and table.vias() == ["declare"]
    assert table.state == NEXT_TO_PAWN.apply(PAWN_SWAP)
    frame = table.frame_at(table.now)
    assert frame[led("b2")] == mark_colour("red") and frame[led("a1")] == OFF
    # The board now expects the pawn on b2: its slide is seen as usual.
    start = table.now
    table.carry("b2", "a2")
    table.run(500)
    assert table.texts(start) == ["p:b2-a2"] and table.state.current_player == 1


# --- a stone-stone swap ---------------------------------------------------------------------------
# Red's stones on a3 and b3 are neighbours, and Red's a3 stands next to Yellow's stone on a4. Every
# swap among them is invisible to every sensor (stones all face the sensor with the same pole).
STONES_TOGETHER = position(("a3", "b3", "d1", "c5"), yellow=("a4", "g6", "h4", "i2"))
STONE_SWAPS = (step("a3-a4"), step("a3-b3"), step("b3-a3"))


@pytest.mark.parametrize("model", MODELS)
def test_F7_a_stone_stone_swap_is_invisible_and_is_declared(model: str) -> None:
    table = Table(STONES_TOGETHER, model)
    assert [a for a in STONES_TOGETHER.legal_actions() if table.tracker.is_invisible(a)] == list(STONE_SWAPS)
    table.swap("a3", "a4")
    out = table.run(5000)
    assert out.display.mode == "idle" and table.commits() == []
    out = table.declare("s:a4-a3")
    assert out.happened.messages == ("s:a4-a3: the stone on a4 is Yellow's; Red may only move their own side's stones",)
    out = table.declare("s:a3-a4")
    assert out.happened.committed == (step("a3-a4"),) and table.vias() == ["declare"]
    swapped = table.state
    assert isinstance(swapped, FillitState)
    assert swapped.stones[CELL("a4")] == 0 and swapped.stones[CELL("a3")] == 1  # the owners changed places
    assert swapped.phase == "stone-moved" and swapped.current_player == 0
    start = table.now
    table.carry("a1", "a2")  # the pawn slides east and stops before Yellow's stone, now on a3
    table.run(500)
    assert table.texts(start) == ["p:a1-a2"] and table.state.current_player == 1


@pytest.mark.parametrize("model", MODELS)
def test_F7_a_stone_stone_swap_is_chosen_with_the_buttons(model: str) -> None:
    config = TrackerConfig(preview_ms=500)
    table = Table(STONES_TOGETHER, model, config)
    table.run(300)
    pressed = table.now
    out = table.press("menu")
    assert (
        out.display.mode == "confirm"
        and out.display.candidates == STONE_SWAPS
        and out.display.previewed == STONE_SWAPS[0]
    )
    assert out.happened.committed == () and table.state is STONES_TOGETHER
    table.run(1600)
    outputs = dict(table.since(pressed))
    assert outputs[pressed + 490].display.previewed == STONE_SWAPS[0]
    assert outputs[pressed + 500].display.previewed == STONE_SWAPS[1]
    assert outputs[pressed + 1000].display.previewed == STONE_SWAPS[2]
    assert outputs[pressed + 1500].display.previewed == STONE_SWAPS[0]  # round again
    assert all(out.display.mode == "confirm" and not out.happened.committed for out in outputs.values())
    # With buttons only, the lights tell which swap is shown: amber where the stone leaves, green where
    # it goes (the two swaps of Red's own stones differ only in that).
    amber, green = HINT_PALETTE["confirm"], HINT_PALETTE["destination"]
    for at, lit in ((pressed, ("a3", "a4")), (pressed + 500, ("a3", "b3")), (pressed + 1000, ("b3", "a3"))):
        assert fields(outputs[at].display.hints) == {lit[0]: "confirm", lit[1]: "destination"}
        frame = table.frame_at(at)
        assert [frame[led(f)] for f in lit] == [amber, green]
        assert [frame[led(f)] for f in ("a3", "a4", "b3") if f not in lit] == [OFF]
    assert table.output.display.previewed == STONE_SWAPS[0]
    out = table.press("menu")  # steps on to the next one
    assert out.display.previewed == STONE_SWAPS[1]
    out = table.press("confirm")
    assert out.happened.committed == (STONE_SWAPS[1],) and table.vias() == ["confirm"]
    assert table.state == STONES_TOGETHER.apply(STONE_SWAPS[1])
    assert table.run(100).display.mode == "idle"
    assert [table.frame_at(table.now)[led(f)] for f in ("a3", "a4", "b3")] == [OFF] * 3


# --- a stone step the rules refuse ----------------------------------------------------------------
# Red's pawn on a1 is boxed in by its own stones on a2 and b2; its one slide is south-west to b1
# (c1 holds a stone). Stepping the stone c1-b1 would leave the pawn unable to slide: F-5 forbids it.
BOXED = position(("a2", "b2", "c1", "e1"))


@pytest.mark.parametrize("model", MODELS)
def test_F5_a_stone_step_that_blocks_the_pawn_is_refused_with_guidance(model: str) -> None:
    assert step("c1-b1") not in BOXED.legal_actions() and BOXED.legal_action_strings()[0] == "p:a1-b1"
    table = Table(BOXED, model)
    stone = table.lift("c1")
    out = table.run(100)
    assert out.display.mode == "moving"
    assert fields(out.display.hints) == {"c1": "origin", "c2": "destination", "d1": "destination", "d2": "destination"}
    table.place("b1", stone)
    placed = table.now
    table.run(3000)
    moving = [out for at, out in table.since(placed) if at < placed + DEFAULT.guide_after_ms]
    assert moving and all(out.display.mode == "moving" for out in moving)
    guidance = [(at, out) for at, out in table.since(placed) if out.display.mode == "guidance"]
    assert guidance[0][0] == placed + DEFAULT.guide_after_ms
    assert fields(guidance[0][1].display.hints) == {"b1": "remove", "c1": "place"}
    assert table.commits() == [] and table.state is BOXED
    table.carry("b1", "c1")
    out = table.run(200)
    assert out.display.mode == "idle" and out.display.hints == {} and table.commits() == [] and table.state is BOXED


# --- the game ends mid-slide ----------------------------------------------------------------------
def nearly_out() -> FillitState:
    """Red has 2 chips left. Its pawn on a1 may slide east over a2 (Red's chip), a3 (empty), a4 and
    a5 (Yellow's chips): the second chip laid, on a4, is Red's last."""
    red_stones = ("d1", "c2", "b3", "c5")
    yellow_stones = ("f8", "g6", "h4", "i2")
    taken = {CELL(f) for f in (*red_stones, *yellow_stones, "i5")}
    south = [
        FILLIT.format_cell(cell)
        for cell in sorted(START.grid.cells(), key=lambda c: (c[1], c[0]))
        if cell[1] > 0 and cell not in taken
    ]
    red_chips = ("a1", "a2", *south)
    state = position(red_stones, yellow_stones, red_chips=red_chips, yellow_chips=("i5", "a4", "a5"))
    assert state.supply == (2, TOTAL - 3)
    return state


@pytest.mark.parametrize("model", MODELS)
def test_F2_the_game_ends_mid_slide_when_the_supply_runs_out(model: str) -> None:
    state = nearly_out()
    table = Table(state, model)
    table.carry("a1", "a5")
    placed = table.now
    table.run(600)
    ack_at, ack = next((at, out) for at, out in table.since(placed) if out.display.mode == "acknowledged")
    assert ack_at == placed + DEFAULT.debounce_ms and ack.display.state is state and ack.display.shown.is_terminal()
    frame = table.frame_at(ack_at)
    assert [frame[led(f)] for f in ("a2", "a3", "a4")] == [mark_colour("red")] * 3
    assert frame[led("a5")] == HINT_PALETTE["destination"]
    assert table.commits() == [(placed + DEFAULT.settle_ms, "p:a1-a5")]
    final = table.state
    assert isinstance(final, FillitState)
    assert final.is_terminal() and final.returns() == (1.0, 0.0)  # before Red's stone step
    assert final.supply == (0, TOTAL - 2)  # a4's chip went home; a5's stayed: the game had ended
    assert final.pawns[0] == CELL("a5") and final.chips[CELL("a5")] == 1
    assert final.legal_actions() == ()
    frame = table.frame_at(table.now)
    assert [frame[led(f)] for f in ("a3", "a4", "a5")] == [mark_colour(c) for c in ("red", "red", "yellow")]
    assert table.run(1000).display.mode == "idle"
    assert table.declare("s:d1-e1").happened.messages == ("s:d1-e1: the game is over",)
    assert table.press("menu").happened.messages == ("menu: nothing to choose",)


# --- lifted pieces --------------------------------------------------------------------------------
@pytest.mark.parametrize("model", MODELS)
def test_F6_a_lifted_pawn_lights_its_origin_and_its_slide_ends(model: str) -> None:
    table = Table(START, model)
    pawn = table.lift("a1")
    out = table.run(100)
    assert out.display.mode == "moving"
    assert fields(out.display.hints) == {"a1": "origin", "a3": "destination", "c1": "destination", "d4": "destination"}
    frame = table.frame_at(table.now)
    assert frame[led("a1")] == HINT_PALETTE["origin"] and frame[led("d4")] == HINT_PALETTE["destination"]
    assert frame[led("b2")] == OFF  # a hex passed on the way is not a place to stop
    table.place("a1", pawn)
    assert table.run(3000).display.mode == "idle" and table.commits() == []


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(
    ("state", "field", "lit"),
    [
        (NEXT_TO_PAWN, "b2", ("a1", "a2", "b1", "b3", "c2", "c3")),  # a1: the swap with Red's pawn
        (STONES_TOGETHER, "a3", ("a2", "a4", "b3", "b4")),  # a4, b3: swaps with Yellow's and Red's stone
        (NEXT_TO_PAWN, "a1", ("a3", "c1")),  # the pawn: its slides only, not the stone's swap onto it
    ],
    ids=["stone-next-to-pawn", "stone-next-to-stones", "pawn-next-to-stone"],
)
def test_F7_a_lifted_piece_lights_every_legal_destination_swaps_included(
    model: str, state: FillitState, field: str, lit: tuple[str, ...]
) -> None:
    legal = {FILLIT.format_cell(a.target) for a in state.legal_actions() if a.origin == CELL(field)}
    assert set(lit) == legal
    table = Table(state, model)
    table.lift(field)
    out = table.run(100)
    assert out.display.mode == "moving" and fields(out.display.hints) == {
        field: "origin",
        **dict.fromkeys(lit, "destination"),
    }


@pytest.mark.parametrize("model", MODELS)
def test_lifting_the_pawn_of_the_player_not_on_turn_lights_nothing(model: str) -> None:
    table = Table(START, model)
    table.lift("i5")
    out = table.run(100)
    assert out.display.mode == "moving" and out.display.hints == {}


# --- noise ----------------------------------------------------------------------------------------
def swap_kind(state: FillitState, action: Action) -> str | None:
    """What a stone step swaps with, if anything: "pawn" or "stone"."""
    if not isinstance(action, StoneStep):
        return None
    if action.target in state.pawns:
        return "pawn"
    return "stone" if action.target in state.stones else None


@pytest.mark.parametrize("model", MODELS)
def test_a_short_game_with_high_noise_commits_exactly_the_intended_actions(model: str) -> None:
    # Seed 6: within ten turns the random bots swap a stone with a pawn and a stone with a stone.
    table = PhysicalTable(FILLIT, FILLIT.new_game(players=2, seed=6), HEX61, model, "high", seed=6)
    assert table.settle().display.mode == "idle"
    bots = [make_bot("random", 60 + seat) for seat in range(2)]
    committed: list[Action] = []

    def keep(before, action, after, via) -> None:
        if via == "correction":  # a piece let go on a wrong field, then moved on: one move
            committed.pop()
        committed.append(action)

    table.session.on_record.append(keep)
    intended: list[Action] = []
    swaps: list[str] = []
    invisible = 0
    while table.state.turn < 10 and not table.state.is_terminal():
        state = table.state
        assert isinstance(state, FillitState)
        action = bots[state.current_player].choose(state)
        intended.append(action)
        kind = swap_kind(state, action)
        if kind is not None:
            swaps.append(kind)
        invisible += table.session.tracker.is_invisible(action)
        assert table.perform(action), f"the board never committed {state.action_to_str(action)}"
    assert sorted(swaps) == ["pawn", "stone"]
    assert committed == intended
    stats = table.stats
    assert stats.wrong_commits == 0 and stats.missed == 0 and stats.committed == stats.intended == len(intended)
    assert stats.declared == invisible == (1 if model == "signed" else 2)  # blind sensors miss the pawn swap too


@pytest.mark.parametrize("model", ["binary", "count", "signed"])
def test_a_stone_held_long_is_never_taken_from_a_field_whose_sensor_died_meanwhile(model: str) -> None:
    """Red lifts the stone on e6 and holds it for 9 s; 4 s in, the sensor under d4 dies (it reads
    empty with the stone on it), and the stone lands on d5, where both e6's and d4's stones may
    step. Both lifts came long before the landing: either stone may be the one held, so the board
    never takes d4-d5 by the age of e6's lift; it asks, and Red's declaration takes e6-d5 (Fillit,
    quick hands, rough noise: d4-d5 taken, and the game parted from the board)."""
    table = Table(position(red=("d4", "e6", "c7", "f3")), model)
    start = table.now
    stone = table.lift("e6")
    table.run(3800)
    table.sim.stick(CELL("d4"), 0)
    table.run(5200)
    table.place("d5", stone)
    out = table.run(3000)
    assert table.commits(start) == [] and out.display.mode == "confirm"
    table.declare("s:e6-d5")
    out = table.run(1000)
    assert [text for _, text in table.commits(start)] == ["s:e6-d5"]
