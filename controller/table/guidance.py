"""What the LEDs ask of the players while the board is not a settled legal position: where a lifted
piece came from and may go, the moves of a card shown, which fields to clear and fill to reach the
nearest legal position, and which move a confirmation request is showing.

Pure functions of the evidence (the channels that differ from the game and their readings) and the
candidate table; the tracker decides when each applies and feeds them its evidence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from controller.games import Action, Cell, State
from controller.games.footprint import Footprint
from controller.table.board import BoardMap
from controller.table.candidates import CandidateTable
from controller.table.evidence import left
from controller.table.tracker_types import TAKEBACK, HintKind, Mismatch


def lifted_hints(
    mismatch: Mapping[int, int],
    expected: tuple[int, ...],
    board: BoardMap,
    state: State,
    candidates: CandidateTable,
    card: str | None,
) -> dict[Cell, HintKind]:
    """While a piece of the player on turn is lifted: its origin and legal destinations (only the
    moves of `card`, when a card was shown). Each lifted field's are worked out once per position
    and kept (`CandidateTable.lift_hints`); a field's origin mark wins over another's destination."""
    hints: dict[Cell, HintKind] = {}
    kept = candidates.lift_hints
    cells = board.cell_of_channel
    for channel, reading in mismatch.items():
        cell = cells.get(channel)
        if cell is None or not left(expected[channel], reading):
            continue
        found = kept.get((channel, reading, card))
        if found is None:
            found = kept[channel, reading, card] = _lifted_field(channel, reading, cell, state, candidates, card)
        for each, kind in found.items():
            if kind == "origin":
                hints[each] = kind
            else:
                hints.setdefault(each, kind)
    return hints


def _lifted_field(
    channel: int, reading: int, cell: Cell, state: State, candidates: CandidateTable, card: str | None
) -> dict[Cell, HintKind]:
    """The origin and destinations of the piece lifted from `cell` (`channel` reads `reading`)."""
    hints: dict[Cell, HintKind] = {}
    # Only actions that may change the lifted field (of the card shown, if one was), and of actions
    # with one effect only the first: they move the same pieces the same way.
    for group in candidates.reaching_groups([channel], card):
        action = group[0]
        if (channel, reading) not in candidates.mismatch(action):
            # Where the game names each action's piece (a Fillit swap); other games' actions all go
            # on at once.
            for each in group if state.action_fields(action) is not None else ():
                swapped = swap_target(state, cell, each, candidates)
                if swapped is not None:  # the lifted piece changes places with what stands there
                    hints[cell] = "origin"
                    hints.setdefault(swapped, "destination")
            continue  # this action does not empty the lifted field
        footprint = candidates.footprint(action)
        if cell in footprint.origins:
            hints[cell] = "origin"
            for target in footprint.targets:
                if target != cell:
                    hints.setdefault(target, "capture" if target in footprint.captures else "destination")
        elif cell in footprint.captures and hints.get(cell) != "origin":
            hints.setdefault(cell, "capture")
            for back in footprint.returns:
                hints.setdefault(back, "return")
    return hints


def card_hints(candidates: CandidateTable, card: str) -> dict[Cell, HintKind]:
    """The moves of the card shown: where pieces may be lifted, and where they may go."""
    hints: dict[Cell, HintKind] = {}
    for action in candidates.card_actions(card):
        footprint = candidates.footprint(action)
        for cell in footprint.targets:
            hints.setdefault(cell, "capture" if cell in footprint.captures else "destination")
        for cell in footprint.origins:
            hints[cell] = "origin"
    return hints


def made_hints(footprint: Footprint) -> dict[Cell, HintKind]:
    """A move shown as made: green where its pieces go, red where it captures."""
    hints: dict[Cell, HintKind] = {cell: "destination" for cell in footprint.targets}
    hints.update({cell: "capture" for cell in footprint.captures})
    return hints


def nearest(current: Mapping[int, int], options: Iterable[Mismatch], expected: tuple[int, ...]) -> Mismatch:
    """The option (a position, as its mismatch) that differs from the board on the fewest fields;
    ties go to the earliest option."""
    return min(options, key=lambda option: distance(current, option, expected))


def guidance_to(
    current: Mapping[int, int], target: Mismatch, expected: tuple[int, ...], board: BoardMap
) -> dict[Cell, HintKind]:
    """Which fields to clear (remove) and fill (place) to turn the board into `target`."""
    wanted = dict(target)
    hints: dict[Cell, HintKind] = {}
    cells = board.cell_of_channel
    for channel in set(current) | set(wanted):
        have = current.get(channel, expected[channel])
        want = wanted.get(channel, expected[channel])
        if have == want:
            continue
        cell = cells.get(channel)
        if cell is None:
            continue
        hints[cell] = "place" if abs(have) < abs(want) and have * want >= 0 else "remove"
    return hints


def offer_hints(state: State, offered: Action, candidates: CandidateTable) -> dict[Cell, HintKind]:
    """Where an offered move (one no sensor sees) happens, so that a player with buttons only can
    tell which one is shown: amber where the piece leaves, green where it goes."""
    origins, targets = action_fields(state, offered, candidates.footprint(offered))
    hints: dict[Cell, HintKind] = dict.fromkeys(origins, "confirm")
    hints.update(dict.fromkeys(targets, "destination"))
    return hints


def preview_hints(changed: Iterable[Cell], previewed: Action | str, candidates: CandidateTable) -> dict[Cell, HintKind]:
    """A confirmation request: amber on the fields that changed, green where the previewed move goes."""
    hints: dict[Cell, HintKind] = dict.fromkeys(changed, "confirm")
    if previewed != TAKEBACK:
        for cell in candidates.footprint(previewed).targets:
            hints[cell] = "destination"
    return hints


def distance(current: Mapping[int, int], option: Mismatch, expected: tuple[int, ...]) -> int:
    """On how many channels the board differs from the position `option` describes."""
    wanted = dict(option)
    return sum(
        1
        for channel in set(current) | set(wanted)
        if current.get(channel, expected[channel]) != wanted.get(channel, expected[channel])
    )


def swap_target(state: State, cell: Cell, action: Action, candidates: CandidateTable) -> Cell | None:
    """The field the piece lifted from `cell` swaps with in `action`, if it does (a Fillit stone
    stepping onto a pawn or a stone): the game names `cell` as where the action's piece leaves, and
    what stood on the target comes to `cell`, so the lifted field does not end empty.

    The game must name the mover (`State.action_fields`): a swap's footprint cannot tell which of
    the two pieces moves.
    """
    fields = state.action_fields(action)
    if fields is None:
        return None
    origins, targets = fields
    if cell not in origins:
        return None
    before = candidates.occupancy
    for target in targets:
        if target != cell and before.get(target) and candidates.pieces_after(action, cell) == before[target]:
            return target
    return None


def action_fields(state: State, action: Action, footprint: Footprint) -> tuple[Iterable[Cell], Iterable[Cell]]:
    """Where an action's pieces leave and where they go: as the game names them (`action_fields`),
    since a swap of two like pieces (a Fillit stone-stone swap) changes no occupancy and so has no
    footprint; otherwise the footprint's origins and targets."""
    fields = state.action_fields(action)
    if fields is not None:
        return fields
    return tuple(footprint.origins), tuple(footprint.targets)


def guide(
    mismatch: Mapping[int, int],
    target: Mismatch | None,
    expected: tuple[int, ...],
    board: BoardMap,
    candidates: CandidateTable | None = None,
    unmasked: Callable[[Mismatch], Mismatch] | None = None,
    takeback: Mismatch | None = None,
) -> dict[Cell, HintKind]:
    """Which fields to clear (remove) and fill (place) to reach `target`; with `target` None, the
    nearest of the current position, every legal action's of `candidates` and the take-back's (ties
    prefer the current position). Only actions that share a changed field with the board are
    weighed: any other position is further away than the current one, which comes first."""
    if target is None:
        options: list[Mismatch] = [frozenset()]
        if candidates is not None and unmasked is not None:
            reached = (unmasked(candidates.mismatch(a)) for a in candidates.reaching_any(mismatch))
            options.extend(option for option in dict.fromkeys(reached) if option)
        if takeback is not None:
            options.append(takeback)
        target = nearest(mismatch, options, expected)
    return guidance_to(mismatch, target, expected, board)
