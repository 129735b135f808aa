"""A simulated board driven step by step by a test: lift, place, press buttons, declare, let virtual
time run, and read back what the tracker made of it. Shared by the scripted scenarios of each game."""

from __future__ import annotations

from controller.games import Cell, Game, Piece, State
from controller.table.tracker import Tracker, TrackerConfig, TrackerOutput
from controller.terminal.physical import SCAN_MS, PhysicalTable
from hal.profile import BoardProfile
from hal.protocols import RGB


class ScriptedTable:
    """The board of `game` on `profile`, with every tracker output logged by its scan time."""

    def __init__(
        self,
        game: Game,
        state: State,
        profile: BoardProfile,
        model: str | None = None,
        config: TrackerConfig | None = None,
        set_up: bool = True,
        noise: str = "none",
    ) -> None:
        self.game = game
        self.physical = PhysicalTable(game, state, profile, model, noise, 0, config, set_up=set_up)
        self.sim = self.physical.sim
        self.log: list[tuple[int, TrackerOutput]] = []
        self.output = self.run(10)

    @property
    def now(self) -> int:
        return self.physical.now

    @property
    def state(self) -> State:
        return self.physical.state

    @property
    def tracker(self) -> Tracker:
        return self.physical.session.tracker

    def cell(self, field: str) -> Cell:
        return self.game.parse_cell(field)

    def run(self, ms: int) -> TrackerOutput:
        """Scan for `ms` milliseconds of virtual time (at least one scan); the last output."""
        for _ in range(max(1, ms // SCAN_MS)):
            at = self.physical.now
            self.output = self.physical.tick()
            self.log.append((at, self.output))
        return self.output

    def place(self, field: str, pieces: list[Piece]) -> None:
        self.sim.place(self.cell(field), pieces)

    def press(self, button: str) -> TrackerOutput:
        self.physical.backends.inputs.push("button", button)
        return self.run(10)

    def declare(self, text: str) -> TrackerOutput:
        self.physical.backends.inputs.push("declare", text)
        return self.run(10)

    def since(self, start: int) -> list[tuple[int, TrackerOutput]]:
        return [(at, out) for at, out in self.log if at >= start]

    def timed_commits(self, start: int = 0) -> list[tuple[int, str]]:
        """Each committed action since `start` with the scan time it was committed at."""
        return [
            (at, before.action_to_str(action))
            for at, out in self.since(start)
            for before, action, _ in out.happened.transitions
        ]

    def texts(self, start: int = 0) -> list[str]:
        return [text for _, text in self.timed_commits(start)]

    def vias(self, start: int = 0) -> list[str]:
        return [via for _, out in self.since(start) for via in out.happened.commit_via]

    def took_back(self, start: int = 0) -> int:
        return sum(out.happened.took_back for _, out in self.since(start))

    def modes(self, start: int = 0) -> list[str]:
        """The modes seen since `start`, without repeats."""
        seen: list[str] = []
        for _, out in self.since(start):
            if not seen or seen[-1] != out.display.mode:
                seen.append(out.display.mode)
        return seen

    def frame(self) -> tuple[RGB, ...]:
        """The LED frame the board shows now."""
        frame = self.physical.backends.pixels.last
        assert frame is not None
        return frame

    def frame_at(self, at: int) -> tuple[RGB, ...]:
        """The LED frame showing at scan time `at` (frames are pushed only when they change)."""
        frames = [frame for shown, frame in self.physical.backends.pixels.frames if shown <= at]
        assert frames, f"no LED frame shown by {at} ms"
        return frames[-1]
