"""The repository stands alone: every ruling the code cites is documented in docs/games/, and no
project file sends a reader outside the repository for the rules or the design."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME_DOCS = ROOT / "docs" / "games"
# Ruling ids: the rulings (K-3, F-6, Z-2, ZT-5, ZO-4) and the engine's own decisions (KE-1, FE-3,
# ZE-7, ZT-E4, ZO-E12). Card ids such as Z-N, W-1, S-2 or K1-01 do not match.
RULING_ID = re.compile(r"\b(K|KE|F|FE|Z|ZE|ZT|ZO)-(E?\d+)\b")
PREFIX_DOC = {
    "K": "klotz",
    "KE": "klotz",
    "F": "fillit",
    "FE": "fillit",
    "Z": "zillo",
    "ZE": "zillo",
    "ZT": "zillertal",
    "ZO": "zodiac",
}
# The rulings each game's "Rulings" section must list, each with its reason.
RULINGS = {
    "klotz": [f"K-{n}" for n in range(1, 7)],
    "fillit": [f"F-{n}" for n in range(1, 9)],
    "zillo": [f"Z-{n}" for n in range(1, 8)],
    "zillertal": [f"ZT-{n}" for n in range(1, 9)],
    "zodiac": [f"ZO-{n}" for n in range(1, 7)],
}
CODE_DIRS = ("controller", "hal", "sim", "firmware", "wiring", "systemd")


def code_files() -> list[Path]:
    files: list[Path] = []
    for directory in CODE_DIRS:
        for pattern in ("*.py", "*.toml", "*.sh", "*.service", "*.rules"):
            files.extend((ROOT / directory).rglob(pattern))
    return sorted(files)


def cited_ids() -> dict[str, set[str]]:
    """Ruling id -> the files that cite it."""
    cited: dict[str, set[str]] = {}
    for path in code_files():
        for match in RULING_ID.finditer(path.read_text()):
            cited.setdefault(match.group(0), set()).add(str(path.relative_to(ROOT)))
    return cited


def documented(game: str) -> set[str]:
    text = (GAME_DOCS / f"{game}.md").read_text()
    return {match.group(0) for match in RULING_ID.finditer(text)}


def test_every_ruling_cited_in_the_code_is_documented() -> None:
    missing = []
    for ruling, files in sorted(cited_ids().items()):
        game = PREFIX_DOC[ruling.split("-")[0]]
        if ruling not in documented(game):
            missing.append(f"{ruling} (cited in {', '.join(sorted(files))}) is not in docs/games/{game}.md")
    assert missing == [], "\n".join(missing)


def test_the_code_cites_rulings() -> None:
    # The check above must have something to check: the engines name their rulings.
    assert {"K-3", "F-6", "Z-3", "ZT-2", "ZO-4"} <= set(cited_ids())


@pytest.mark.parametrize("game", sorted(RULINGS))
def test_each_ruling_is_listed_with_its_reason(game: str) -> None:
    text = (GAME_DOCS / f"{game}.md").read_text()
    assert "\n## Rulings\n" in text
    section = text.split("\n## Rulings\n", 1)[1].split("\n## ", 1)[0]
    for ruling in RULINGS[game]:
        entry = re.search(rf"^- \*\*{re.escape(ruling)} [^\n]*(?:\n  [^\n]*)*", section, re.M)
        assert entry is not None, f"{ruling} has no entry in the Rulings section of docs/games/{game}.md"
        assert "*Why:*" in entry.group(0), f"{ruling} in docs/games/{game}.md gives no reason"


def test_no_project_file_points_outside_the_repository() -> None:
    offenders = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *code_files()]:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "shared/" in line or "DESIGN section" in line or "DESIGN.md" in line:
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == [], "\n".join(offenders)
