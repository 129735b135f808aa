"""The tracker's package type-checks under mypy's strict mode: every attribute a part reads is
declared, every function typed (the suite runs the check, so it cannot drift)."""

from __future__ import annotations

from mypy import api

from tests.service.configs import ROOT

STRICT = [str(ROOT / "controller" / "table")]


def test_the_tracker_package_passes_mypy_strict() -> None:
    out, err, status = api.run(
        ["--strict", "--follow-imports=silent", "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"), *STRICT]
    )
    assert status == 0, out + err
