"""The tracker's and the bots' packages type-check under mypy's strict mode: every attribute a part
reads is declared, every function typed (the suite runs the check, so it cannot drift)."""

from __future__ import annotations

from mypy import api

from tests.service.configs import ROOT

STRICT = [str(ROOT / "controller" / name) for name in ("table", "bots", "remote")]


def test_the_tracker_and_bots_packages_pass_mypy_strict() -> None:
    # The settings are pyproject.toml's [tool.mypy], so `mypy` alone checks the same thing.
    config = str(ROOT / "pyproject.toml")
    out, err, status = api.run(
        ["--config-file", config, "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"), *STRICT]
    )
    assert status == 0, out + err


def test_the_tracker_package_has_no_mixins() -> None:
    """Its parts are composed, never mixed in: no class there derives from another of its classes."""
    import ast

    package = ROOT / "controller" / "table"
    ours = set()
    bases: dict[str, list[str]] = {}
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                ours.add(node.name)
                bases[f"{path.name}:{node.name}"] = [ast.unparse(base) for base in node.bases]
    mixed = {name: found for name, found in bases.items() if any(base in ours for base in found)}
    assert mixed == {}
