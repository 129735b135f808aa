"""What a run of virtual hands on the simulated board counts: moves meant and taken, wrong commits,
what the hands did, and the board's step and answer times."""

from __future__ import annotations

from dataclasses import dataclass, field

# The figures of PhysicalStats measured on this machine's clock (the others are virtual time and counts).
MACHINE_TIMES = (
    "step_ms",
    "unchanged_step_ms",
    "ahead_step_ms",
    "changed_step_ms",
    "first_after_commit_ms",
    "first_lift_ms",
)


@dataclass
class PhysicalStats:
    intended: int = 0
    committed: int = 0
    wrong_commits: int = 0
    confirmations: int = 0
    declared: int = 0
    takebacks: int = 0
    guidance_episodes: int = 0
    missed: int = 0
    corrected: int = 0  # commits of a move the hands had not finished, replaced by the move meant
    fast_replies: int = 0  # moves started before the previous one was committed
    behaviours: dict[str, int] = field(default_factory=dict)  # human behaviours of the hands, by name
    step_ms: list[float] = field(default_factory=list)  # every scan
    unchanged_step_ms: list[float] = field(default_factory=list)  # nothing new: the tracker's hot path
    ahead_step_ms: list[float] = field(default_factory=list)  # nothing new, and work done ahead for the next
    changed_step_ms: list[float] = field(default_factory=list)  # a reading settled, a timer fired, an input
    # Of the changed steps: the first after each commit, and the first that sees the board differ from
    # each position: its first lift (in the card games, the first card laid).
    first_after_commit_ms: list[float] = field(default_factory=list)
    first_lift_ms: list[float] = field(default_factory=list)
    ack_ms: list[int] = field(default_factory=list)
    commit_ms: list[int] = field(default_factory=list)

    def merge(self, other: PhysicalStats) -> None:
        for name in (
            "intended",
            "committed",
            "wrong_commits",
            "confirmations",
            "declared",
            "takebacks",
            "guidance_episodes",
            "missed",
            "corrected",
            "fast_replies",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name, count in other.behaviours.items():
            self.behaviours[name] = self.behaviours.get(name, 0) + count
        for name in (*MACHINE_TIMES, "ack_ms", "commit_ms"):
            getattr(self, name).extend(getattr(other, name))


def percentile(values: list[float] | list[int], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return float(ordered[index])
