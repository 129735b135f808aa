"""A measured strength ladder (`tafel ladder GAME`): a seeded round-robin between bot levels, rated
with openskill (Plackett-Luce, the multi-player model), resumable from its results file.

Every pairing of two levels plays the same number of games, seats alternated, each game seeded
from the ladder's seed and its number, so a ladder is the same wherever it runs. Each finished game
is appended to the results file at once: an interrupted ladder goes on where it stopped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from itertools import combinations
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from controller.bots import BOTS, make_bot
from controller.bots.seeds import bot_seed, game_seed
from controller.files import UnreadableFile, read_bounded
from controller.games import Game, load_game
from controller.terminal.files import check_writable

Z95 = 1.96  # a rating's 95 % interval is mu +- Z95 sigma
RESULTS_LIMIT = 64 << 20  # a line a game: far more games than any ladder plays


@dataclass(frozen=True)
class Match:
    """One game of the ladder: the level at each seat, and its seed."""

    number: int
    seats: tuple[str, str]
    seed: int

    @property
    def key(self) -> str:
        return f"{self.number}:{self.seats[0]}-{self.seats[1]}"


@dataclass(frozen=True)
class Result:
    match: Match
    returns: tuple[float, ...]


def schedule(levels: Sequence[str], games: int, seed: int) -> list[Match]:
    """Every pairing of two levels, `games` games each, seats alternated, each with its own seed."""
    matches: list[Match] = []
    for low, high in combinations(levels, 2):
        for game in range(games):
            seats = (low, high) if game % 2 == 0 else (high, low)
            number = len(matches)
            matches.append(Match(number, seats, game_seed(seed, number)))
    return matches


def play_match(game: Game, match: Match, options: dict[str, Any]) -> Result:
    """Play one ladder game between the match's two levels."""
    state = game.new_game(players=2, seed=match.seed, **options)
    bots = [make_bot(level, bot_seed(match.seed, seat)) for seat, level in enumerate(match.seats)]
    while not state.is_terminal():
        state = state.apply(bots[state.current_player].choose(state))
    return Result(match, state.returns())


class ResultsFile:
    """The ladder's results: a journal of one JSON line per finished game after a header naming the
    ladder, each line written whole as its game ends (docs/bots.md, "The results file").

    Only the last line can be cut off, by a write interrupted (the process stopped, the power cut):
    that game is played again, and the cut-off line is removed before the next result is written.
    Any other line that is not one of this ladder's games is refused with its number, and nothing in
    the file is changed."""

    def __init__(self, path: Path, header: dict[str, Any], matches: Sequence[Match]) -> None:
        self.path = path
        self.header = header
        self._keys = {match.key: match for match in matches}
        self._complete: int | None = None  # where the complete lines end, if a cut-off one follows

    def load(self) -> dict[str, tuple[float, ...]]:
        """The results already played (by match key); an error in words for a file that is not this
        ladder's journal."""
        try:
            data = read_bounded(self.path, "the ladder results file", RESULTS_LIMIT)
        except UnreadableFile as error:
            if error.missing:
                return {}
            raise
        complete = data.rfind(b"\n") + 1  # every line up to the last newline was written whole
        try:
            lines = data[:complete].decode("utf-8").splitlines()
        except UnicodeDecodeError:
            raise ValueError(f"{self.path}: not a ladder results file (not text)") from None
        if complete < len(data):
            self._cut_off(data[complete:], len(lines) + 1)
            self._complete = complete
        if not lines:
            return {}  # empty, or only the header was being written
        try:
            header = json.loads(lines[0])
        except json.JSONDecodeError:
            raise ValueError(f"{self.path}: not a ladder results file (line 1 is not a ladder's header)") from None
        if header != self.header:
            raise ValueError(
                f"{self.path} holds another ladder ({describe(header)}); give another --results file "
                f"for {describe(self.header)}"
            )
        done: dict[str, tuple[float, ...]] = {}
        first_seen: dict[str, int] = {}
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            try:
                key, returns = self._row(line)
            except ValueError as error:
                raise ValueError(f"{self.path}, line {number}: {error}") from None
            if key in done and done[key] != returns:
                match = self._keys[key]
                raise ValueError(
                    f"{self.path}, line {number}: game {match.number + 1} ({match.seats[0]} against "
                    f"{match.seats[1]}) was recorded with another result on line {first_seen[key]}"
                )
            done[key] = returns
            first_seen.setdefault(key, number)
        return done

    def _cut_off(self, tail: bytes, number: int) -> None:
        """A last line without its newline must be the start of a line this ladder writes (a write
        interrupted), or the file is someone else's and is left alone."""
        start = (json.dumps(self.header) if number == 1 else '{"key": "').encode("utf-8")  # as `add` writes
        if not (start.startswith(tail) or tail.startswith(start)):
            what = "a ladder's header" if number == 1 else "a game's result"
            raise ValueError(f"{self.path}: not a ladder results file (line {number} is not {what})")

    def _row(self, line: str) -> tuple[str, tuple[float, ...]]:
        """One game's line: its match key and its result, one value from 0 to 1 for each seat."""
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            raise ValueError("not a game's result (not JSON)") from None
        if not isinstance(row, dict) or set(row) != {"key", "returns"}:
            raise ValueError('a game\'s result is {"key": ..., "returns": [..., ...]}')
        key, returns = row["key"], row["returns"]
        if not isinstance(key, str) or key not in self._keys:
            raise ValueError(f"{key!r} is no game of this ladder")
        if (
            not isinstance(returns, list)
            or len(returns) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1 for v in returns)
        ):
            raise ValueError(f"a game's result is two values from 0 to 1, one for each seat, not {returns!r}")
        return key, (float(returns[0]), float(returns[1]))

    def add(self, result: Result) -> None:
        if self._complete is not None:  # a line cut off by an interrupted write goes first
            with self.path.open("r+b") as out:
                out.truncate(self._complete)
            self._complete = None
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        with self.path.open("a", encoding="utf-8") as out:
            if fresh:
                out.write(json.dumps(self.header) + "\n")
            out.write(json.dumps({"key": result.match.key, "returns": list(result.returns)}) + "\n")


def describe(header: Any) -> str:
    if not isinstance(header, dict):
        return "unreadable"
    levels = ", ".join(str(level) for level in header.get("levels", []))
    options = header.get("options") or {}
    chosen = "".join(f", {name}={value}" for name, value in options.items()) if isinstance(options, dict) else ""
    return (
        f"{header.get('game')}, levels {levels}, {header.get('games')} games per pairing, "
        f"seed {header.get('seed')}{chosen}"
    )


def run_ladder(
    game: Game,
    levels: Sequence[str],
    games: int,
    seed: int,
    results: Path,
    options: dict[str, Any],
    on_game: Callable[[], None] | None = None,
    jobs: int = 1,
) -> dict[str, Any]:
    """Play what is missing of the ladder (in `jobs` worker processes side by side), then rate every
    level from all its games. Each game is seeded by itself, so the results do not depend on `jobs`;
    the ratings take the games in schedule order whatever order they finished in."""
    unknown = [level for level in levels if level not in BOTS]
    if unknown:
        raise ValueError(f"unknown level {unknown[0]!r} (levels: {', '.join(BOTS)})")
    if len(set(levels)) != len(levels) or len(levels) < 2:
        raise ValueError("a ladder needs at least two different levels")
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {jobs}")
    if 2 not in game.player_counts:
        raise ValueError(f"{game.title} is not played by two, and the ladder pairs levels two by two")
    game.resolve_options(options)  # a misspelt option is refused before any game is played
    header = {"game": game.name, "levels": list(levels), "games": games, "seed": seed, "options": options}
    matches = schedule(levels, games, seed)
    store = ResultsFile(results, header, matches)
    if results.is_dir():
        check_writable(results, "--results")  # says it is a folder
    done = store.load()
    played = {match.number: Result(match, done[match.key]) for match in matches if match.key in done}
    for _ in played:
        if on_game is not None:
            on_game()
    missing = [match for match in matches if match.number not in played]
    if missing:  # a finished ladder's file is only read: it may be read-only
        check_writable(results, "--results")
    for result in _play_all(game, missing, options, jobs):
        store.add(result)
        played[result.match.number] = result
        if on_game is not None:
            on_game()
    return summarise(game, levels, games, seed, [played[match.number] for match in matches])


def _play_all(game: Game, matches: Sequence[Match], options: dict[str, Any], jobs: int) -> Iterator[Result]:
    """Each match's result as it ends: here, or in `jobs` worker processes."""
    if jobs == 1 or len(matches) < 2:
        for match in matches:
            yield play_match(game, match, options)
        return
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        pending = [pool.submit(_play_by_name, game.name, match, options) for match in matches]
        try:
            for future in as_completed(pending):
                yield future.result()
        finally:
            for future in pending:
                future.cancel()


def _play_by_name(name: str, match: Match, options: dict[str, Any]) -> Result:
    """A worker's game: the game looked up by name (a worker starts afresh, `spawn`)."""
    return play_match(load_game(name), match, options)


def summarise(game: Game, levels: Sequence[str], games: int, seed: int, played: Sequence[Result]) -> dict[str, Any]:
    """Ratings with 95 % intervals, and each pairing's score (the stronger level's share)."""
    model = PlackettLuce()
    ratings = {level: model.rating(name=level) for level in levels}
    for result in played:
        a, b = result.match.seats
        [[ratings[a]], [ratings[b]]] = model.rate(
            [[ratings[a]], [ratings[b]]], ranks=[-result.returns[0], -result.returns[1]]
        )
    pairings = []
    for low, high in combinations(levels, 2):
        scores = [r.returns[r.match.seats.index(high)] for r in played if set(r.match.seats) == {low, high}]
        pairings.append({"low": low, "high": high, "games": len(scores), "high_score": sum(scores) / len(scores)})
    return {
        "game": game.name,
        "levels": list(levels),
        "games_per_pairing": games,
        "seed": seed,
        "ratings": [
            {
                "level": level,
                "mu": round(ratings[level].mu, 2),
                "sigma": round(ratings[level].sigma, 2),
                "low": round(ratings[level].mu - Z95 * ratings[level].sigma, 2),
                "high": round(ratings[level].mu + Z95 * ratings[level].sigma, 2),
            }
            for level in levels
        ],
        "pairings": pairings,
    }


def format_ladder(summary: dict[str, Any]) -> str:
    lines = [f"{summary['game']}: {summary['games_per_pairing']} games per pairing, seed {summary['seed']}", ""]
    lines.append(f"  {'level':<10} {'rating':>7} {'95 % interval':>17}")
    for row in summary["ratings"]:
        lines.append(f"  {row['level']:<10} {row['mu']:>7.1f} {row['low']:>8.1f} - {row['high']:<6.1f}")
    lines += ["", "  pairing                 the stronger level's score"]
    for pair in summary["pairings"]:
        lines.append(f"  {pair['high']:>9} vs {pair['low']:<9}   {pair['high_score']:>6.1%} of {pair['games']}")
    return "\n".join(lines)


def ladder_svg(summary: dict[str, Any]) -> str:
    """Rating against level with 95 % intervals, as a small standalone SVG."""
    rows = summary["ratings"]
    width, height, left, top, bottom = 520, 300, 60, 30, 60
    low: float = min(row["low"] for row in rows)
    high: float = max(row["high"] for row in rows)
    span = (high - low) or 1.0
    step = (width - left - 60) / max(1, len(rows) - 1)

    def y(value: float) -> float:
        return top + (high - value) / span * (height - top - bottom)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        ' font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="18" font-size="14">{summary["game"].title()}: rating by level (95 % interval)</text>',
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - 20}" y2="{height - bottom}" stroke="#444"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#444"/>',
    ]
    for tick in range(5):
        value = low + span * tick / 4
        parts.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end">{value:.0f}</text>')
    points = []
    for index, row in enumerate(rows):
        x = left + 30 + index * step
        points.append(f"{x:.1f},{y(row['mu']):.1f}")
        bar = f'x1="{x:.1f}" y1="{y(row["low"]):.1f}" x2="{x:.1f}" y2="{y(row["high"]):.1f}"'
        parts.append(f'<line {bar} stroke="#888"/>')
        parts.append(f'<circle cx="{x:.1f}" cy="{y(row["mu"]):.1f}" r="4" fill="#c0392b"/>')
        parts.append(f'<text x="{x:.1f}" y="{height - bottom + 18}" text-anchor="middle">{row["level"]}</text>')
    parts.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="#c0392b"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
