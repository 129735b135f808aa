"""`tafel ladder`: a seeded round-robin between bot levels, rated with openskill, resumable."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from controller.games import load_game
from controller.terminal.cli import main
from controller.terminal.ladder import ladder_svg, run_ladder, schedule

FILLIT = load_game("fillit")


def test_every_pairing_plays_its_games_with_seats_alternated_and_seeds_of_their_own() -> None:
    matches = schedule(["random", "greedy", "search-1"], 4, seed=3)
    assert len(matches) == 3 * 4
    pairs = [m.seats for m in matches if set(m.seats) == {"random", "greedy"}]
    assert pairs == [("random", "greedy"), ("greedy", "random")] * 2
    assert len({m.seed for m in matches}) == len(matches)
    assert schedule(["random", "greedy", "search-1"], 4, seed=3) == matches  # the same wherever it runs


def test_a_ladder_rates_the_stronger_level_higher_and_goes_on_where_it_stopped(tmp_path: Path) -> None:
    results = tmp_path / "ladder.jsonl"
    summary = run_ladder(FILLIT, ["random", "greedy"], 4, 0, results, {})
    ratings = {row["level"]: row for row in summary["ratings"]}
    assert ratings["greedy"]["mu"] > ratings["random"]["mu"]
    assert all(row["low"] < row["mu"] < row["high"] for row in summary["ratings"])
    assert summary["pairings"] == [{"low": "random", "high": "greedy", "games": 4, "high_score": 1.0}]
    kept = results.read_text()
    again = run_ladder(FILLIT, ["random", "greedy"], 4, 0, results, {})
    assert again == summary and results.read_text() == kept  # nothing played twice


def test_an_interrupted_ladder_plays_only_what_is_missing(tmp_path: Path) -> None:
    results = tmp_path / "ladder.jsonl"
    full = run_ladder(FILLIT, ["random", "greedy"], 4, 0, results, {})
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:3]) + "\n")  # the header and two games survived
    assert run_ladder(FILLIT, ["random", "greedy"], 4, 0, results, {}) == full
    assert len(results.read_text().splitlines()) == 5


def test_games_played_side_by_side_give_the_same_ladder(tmp_path: Path) -> None:
    """`--jobs`: each game is seeded by itself and rated in schedule order, so two workers (with a
    ladder half played before) come to the very same ratings and results as one."""
    alone = run_ladder(FILLIT, ["random", "greedy", "search-1"], 2, 0, tmp_path / "alone.jsonl", {})
    results = tmp_path / "side.jsonl"
    lines = (tmp_path / "alone.jsonl").read_text().splitlines()
    results.write_text("\n".join(lines[:3]) + "\n")
    counted: list[int] = []
    side = run_ladder(FILLIT, ["random", "greedy", "search-1"], 2, 0, results, {}, lambda: counted.append(1), jobs=2)
    assert side == alone and len(counted) == 6
    assert sorted(results.read_text().splitlines()) == sorted(lines)
    with pytest.raises(ValueError, match="--jobs must be at least 1"):
        run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {}, jobs=0)


def test_another_ladders_results_are_refused_in_words(tmp_path: Path) -> None:
    results = tmp_path / "ladder.jsonl"
    run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {})
    with pytest.raises(ValueError, match=r"holds another ladder .*give another --results file"):
        run_ladder(FILLIT, ["random", "greedy"], 2, 1, results, {})
    results.write_text("not json\n")
    with pytest.raises(ValueError, match="not a ladder results file"):
        run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {})


def test_a_result_cut_off_by_an_interrupted_write_is_played_again(tmp_path: Path) -> None:
    """Only the last line can be cut off (the process stopped or the power cut while it was written):
    that game is played again, and the file holds complete lines only, as a run never interrupted."""
    whole = tmp_path / "whole.jsonl"
    full = run_ladder(FILLIT, ["random", "greedy"], 4, 0, whole, {})
    text = whole.read_text()
    results = tmp_path / "ladder.jsonl"
    for cut in (len(text) - 5, len(text) - len(text.splitlines()[-1]) + 3, 20):  # a game's line, its start, the header
        results.write_text(text[:cut])
        assert run_ladder(FILLIT, ["random", "greedy"], 4, 0, results, {}) == full
        assert results.read_text() == text


def test_a_file_that_is_not_this_ladders_journal_is_refused_by_line_and_left_alone(tmp_path: Path) -> None:
    results = tmp_path / "ladder.jsonl"
    run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {})
    header, first, second = results.read_text().splitlines()
    bad_lines = {
        "not json": "line 3: not a game's result (not JSON)",
        '{"key": "1:greedy-random"}': 'line 3: a game\'s result is {"key"',
        '{"key": "9:greedy-random", "returns": [1.0, 0.0]}': "line 3: '9:greedy-random' is no game of this ladder",
        '{"key": "1:random-greedy", "returns": [1.0, 0.0]}': "line 3: '1:random-greedy' is no game of this ladder",
        '{"key": "1:greedy-random", "returns": [1]}': "line 3: a game's result is two values from 0 to 1",
        '{"key": "1:greedy-random", "returns": [7, 0]}': "line 3: a game's result is two values from 0 to 1",
        '{"key": "1:greedy-random", "returns": [true, false]}': "line 3: a game's result is two values",
        '{"key": "0:random-greedy", "returns": [1.0, 0.0]}': (
            "line 3: game 1 (random against greedy) was recorded with another result on line 2"
        ),
    }
    for line, message in bad_lines.items():
        text = f"{header}\n{first}\n{line}\n"
        results.write_text(text)
        with pytest.raises(ValueError, match=re.escape(message)):
            run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {})
        assert results.read_text() == text  # nothing lost
    results.write_text(f"{header}\n{first}\n{first}\n{second}\n")  # a game recorded twice, alike: as once
    assert run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {})["pairings"][0]["games"] == 2
    for text in ("my notes, no newline", f"{header}\n{first}\nand then notes"):
        results.write_text(text)
        with pytest.raises(ValueError, match="not a ladder results file"):
            run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {})
        assert results.read_text() == text
    results.write_bytes(b"\xff\xfe\n")
    with pytest.raises(ValueError, match=re.escape("not a ladder results file (not text)")):
        run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {})


def test_the_command_refuses_a_bad_results_file_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "r.jsonl"
    args = ["ladder", "fillit", "--levels", "random,greedy", "--games", "2", "--results", str(results)]
    assert main(args) == 0
    header, first, _ = results.read_text().splitlines()
    results.write_text(f"{header}\n{first.replace('[0.0, 1.0]', '[1]')}\n")
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "line 2: a game's result is two values from 0 to 1" in err and "Traceback" not in err


def test_what_would_fail_after_the_games_is_refused_before_the_first(tmp_path: Path) -> None:
    """A results file that cannot be written, or an option the game does not have, is said before a
    game is played (not after an hour of them)."""
    played: list[int] = []
    for results, message in [
        (tmp_path / "missing" / "r.jsonl", "there is no folder"),
        (tmp_path, "a folder, not a file"),
    ]:
        with pytest.raises(ValueError, match=message):
            run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {}, lambda: played.append(1))
    results = tmp_path / "r.jsonl"
    run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {})
    with pytest.raises(ValueError, match="Fillit has no option bord"):  # not "another ladder"
        run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {"bord": "small"}, lambda: played.append(1))
    with pytest.raises(ValueError, match=r"give another --results file for fillit, .*, seed 0, board=small"):
        run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {"board": "small"})
    assert played == []


def test_the_command_checks_where_the_plot_goes_before_the_ladder_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "r.jsonl"
    args = ["ladder", "fillit", "--levels", "random,greedy", "--games", "2", "--results", str(results)]
    assert main([*args, "--svg", str(tmp_path / "missing" / "f.svg")]) == 2
    assert "--svg" in capsys.readouterr().err and not results.exists()
    assert main([*args, "-o", "players=3"]) == 2
    assert "--option players: not a game option" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("levels", "message"),
    [
        (["random", "deep"], "unknown level 'deep'"),
        (["random"], "at least two different levels"),
        (["greedy", "greedy"], "at least two different levels"),
    ],
)
def test_bad_levels_are_refused_in_words(tmp_path: Path, levels: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_ladder(FILLIT, levels, 2, 0, tmp_path / "l.jsonl", {})


def test_the_command_prints_the_table_and_draws_the_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "fillit.svg"
    args = ["ladder", "fillit", "--levels", "random,greedy", "--games", "2", "--results", str(tmp_path / "r.jsonl")]
    assert main([*args, "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    assert "greedy vs random" in out and "95 % interval" in out
    root = ET.fromstring(svg.read_text())
    assert root.tag.endswith("svg") and len(root.findall("{http://www.w3.org/2000/svg}circle")) == 2
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["levels"] == ["random", "greedy"]
    assert main(["ladder", "fillit", "--levels", "random,nobody"]) == 2
    assert "unknown level 'nobody'" in capsys.readouterr().err


def test_the_plot_puts_a_stronger_rating_higher() -> None:
    summary = {
        "game": "fillit",
        "ratings": [
            {"level": "random", "mu": 10.0, "low": 5.0, "high": 15.0},
            {"level": "greedy", "mu": 30.0, "low": 25.0, "high": 35.0},
        ],
    }
    circles = ET.fromstring(ladder_svg(summary)).findall("{http://www.w3.org/2000/svg}circle")
    assert float(circles[1].get("cy", 0)) < float(circles[0].get("cy", 0))  # higher on the page


def test_the_bots_page_shows_a_plot_for_every_game_and_each_plot_is_a_ladders_drawing() -> None:
    """docs/bots.md shows the ladders' plots; each is there, and is what `--svg` draws."""
    import re

    from controller.games import GAMES

    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "bots.md").read_text()
    for name in GAMES:
        assert f"(bots/{name}.svg)" in page
        svg = ET.fromstring((root / "docs" / "bots" / f"{name}.svg").read_text())
        labels = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
        assert labels[0] and re.match(rf"{name}: rating by level", labels[0], re.IGNORECASE)
        assert [t for t in labels if t in ("random", "greedy", "search-1", "search-2")] == [
            "random",
            "greedy",
            "search-1",
            "search-2",
        ]


def test_a_finished_ladders_file_is_only_read_so_it_may_be_read_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writability is asked only where a game is still to be written (a read-only file of a whole
    ladder is rated again; as root every file is writable, so the question itself is watched)."""
    from controller.terminal import ladder

    results = tmp_path / "ladder.jsonl"
    full = run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {})
    asked: list[Path] = []

    def read_only(path: Path, what: str) -> None:
        asked.append(path)
        raise ValueError(f"{what} {path}: not allowed to write there")

    monkeypatch.setattr(ladder, "check_writable", read_only)
    assert run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {}) == full and asked == []
    results.write_text("\n".join(results.read_text().splitlines()[:2]) + "\n")  # one game left to play
    with pytest.raises(ValueError, match="not allowed to write there"):
        run_ladder(FILLIT, ["random", "greedy"], 2, 0, results, {})
