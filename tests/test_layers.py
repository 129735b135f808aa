"""The layer rule of docs/architecture.md: a package imports only the packages below it.

Every import counts, also one inside a function or under TYPE_CHECKING: a lazy import is still a
dependency, and a cycle through one breaks as soon as somebody moves it to the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each layer and what it may import besides itself (see docs/architecture.md, "Layers").
FILES, GAMES, HAL, BOTS, TABLE, SIM, REMOTE, SERVICE, WEB, TERMINAL = (
    "controller.files",
    "controller.games",
    "hal",
    "controller.bots",
    "controller.table",
    "sim",
    "controller.remote",
    "controller.service",
    "controller.web",
    "controller.terminal",
)
ALLOWED: dict[str, frozenset[str]] = {
    FILES: frozenset(),
    GAMES: frozenset({FILES}),
    HAL: frozenset({FILES}),
    BOTS: frozenset({FILES, GAMES}),
    TABLE: frozenset({FILES, GAMES, HAL}),
    SIM: frozenset({FILES, GAMES, HAL, BOTS, TABLE}),
    REMOTE: frozenset({FILES, GAMES}),
    SERVICE: frozenset({FILES, GAMES, HAL, BOTS, TABLE, SIM, REMOTE}),
    WEB: frozenset({FILES, GAMES, HAL, BOTS, TABLE, SIM, REMOTE, SERVICE}),
    TERMINAL: frozenset({FILES, GAMES, HAL, BOTS, TABLE, SIM, REMOTE, SERVICE, WEB}),
}
PROJECT_ROOTS = ("controller", "hal", "sim")


def layer_of(module: str) -> str | None:
    """The layer a dotted module name belongs to (the longest matching package), None outside them."""
    found = None
    for layer in ALLOWED:
        if (module == layer or module.startswith(layer + ".")) and (found is None or len(layer) > len(found)):
            found = layer
    return found


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, module) for every import in `source`, relative imports resolved."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base if is_package else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            # `from controller import table` imports the package controller.table
            found.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names)
    return found


def violations(source: str, module: str, is_package: bool = False) -> list[str]:
    """The imports of `module` (given as its source) that break the layer rule."""
    own = layer_of(module)
    if own is None:
        return []
    problems = []
    seen = set()
    for line, target in imported_modules(source, module, is_package):
        if target.split(".")[0] not in PROJECT_ROOTS:
            continue
        layer = layer_of(target)
        if layer is None or layer == own:
            continue
        if layer not in ALLOWED[own] and (line, layer) not in seen:
            seen.add((line, layer))
            problems.append(f"{module}:{line} imports {target} ({own} may not import {layer})")
    return problems


def project_modules() -> list[Path]:
    return sorted(path for root in PROJECT_ROOTS for path in (ROOT / root).rglob("*.py"))


def test_every_module_belongs_to_a_layer() -> None:
    homeless = [
        module_name(path)
        for path in project_modules()
        if layer_of(module_name(path)) is None and module_name(path) not in PROJECT_ROOTS
    ]
    assert homeless == [], f"modules outside every layer: {homeless}"


def test_no_layer_imports_a_higher_one() -> None:
    problems = []
    for path in project_modules():
        problems += violations(path.read_text(), module_name(path), path.name == "__init__.py")
    assert problems == [], "\n".join(problems)


def test_the_check_catches_an_upward_import() -> None:
    assert violations("from controller.service.loop import Service\n", "controller.table.tracker") == [
        "controller.table.tracker:1 imports controller.service.loop"
        " (controller.table may not import controller.service)"
    ]
    lazy = "def f():\n    from controller.terminal import render\n"
    assert violations(lazy, "sim.driver") == [
        "sim.driver:2 imports controller.terminal (sim may not import controller.terminal)"
    ]
    assert violations("import controller.bots\n", "controller.games.klotz") != []


def test_the_check_allows_downward_and_own_imports() -> None:
    assert (
        violations("from controller.games import Game\nfrom hal.protocols import RGB\n", "controller.table.leds") == []
    )
    assert violations("from controller.table.tracker import Tracker\n", "controller.table.session") == []
    assert violations("from .tracker import Tracker\n", "controller.table.session") == []
    assert violations("import json\nfrom sim.board import SimBoard\n", "controller.service.backends") == []
