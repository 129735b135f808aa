"""The controller, the hardware layer and the simulator type-check under mypy's strict mode: every
attribute a part reads is declared, every function typed (the suite runs the check, so it cannot
drift). The tracker's, the games' and the service's classes are composed, never mixed in."""

from __future__ import annotations

from pathlib import Path

from mypy import api

from tests.service.configs import ROOT

STRICT = [str(ROOT / name) for name in ("controller", "hal", "sim")]


def test_controller_hal_and_sim_pass_mypy_strict() -> None:
    # The settings are pyproject.toml's [tool.mypy], so `mypy` alone checks the same thing.
    config = str(ROOT / "pyproject.toml")
    out, err, status = api.run(
        ["--config-file", config, "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"), *STRICT]
    )
    assert status == 0, out + err


def _mixed_in(package: Path, interfaces: frozenset[str] = frozenset()) -> dict[str, list[str]]:
    """The classes of `package` that derive from another of its classes (other than the abstract
    interfaces every game implements), or from several classes."""
    import ast

    ours = set()
    bases: dict[str, list[str]] = {}
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                ours.add(node.name)
                bases[f"{path.relative_to(package)}:{node.name}"] = [ast.unparse(base) for base in node.bases]
    return {
        name: found
        for name, found in bases.items()
        if len(found) > 1 or any(base in ours and base not in interfaces for base in found)
    }


def test_the_tracker_package_has_no_mixins() -> None:
    assert _mixed_in(ROOT / "controller" / "table") == {}


def test_each_game_state_is_one_class() -> None:
    """A game's turns, reasons, notation and views are functions its state calls, not mixins."""
    interfaces = frozenset({"State", "Game", "IllegalAction"})
    assert _mixed_in(ROOT / "controller" / "games", interfaces) == {}


def test_the_service_holds_its_parts() -> None:
    """The service holds its table control (`service.table`), which reads it through a declared
    protocol: neither inherits from the other."""
    assert _mixed_in(ROOT / "controller" / "service") == {}
