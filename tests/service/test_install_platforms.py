"""An install that never compiles, on every Raspberry Pi OS release, architecture and model.

The [pi] extra asks pip only for what PyPI has as wheels there (the table in wiring/README.md was
measured by systemd/wheel-table.sh); Raspberry Pi OS's packages bring the rest, and install.sh lets
pip take the compiled libraries only as wheels."""

from __future__ import annotations

import os
import re
import subprocess
import tomllib

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement

from tests.service.configs import ROOT

INSTALL = ROOT / "systemd" / "install.sh"
# Libraries with C code: pip would need a compiler, the Python headers (and for lgpio swig and
# liblgpio-dev) to build them from source.
COMPILED = {"lgpio", "gpiod", "sysv-ipc", "spidev", "rpi-gpio", "rpi-ws281x"}
RELEASES = {"bookworm": "3.11", "trixie": "3.13"}
MACHINES = ("aarch64", "armv7l", "armv6l")
MODELS = {
    "Raspberry Pi Zero 2 W Rev 1.0": "core_freq=250",
    "Raspberry Pi 3 Model B Plus Rev 1.3": "core_freq=250",
    "Raspberry Pi 4 Model B Rev 1.5": "core_freq_min=500",
    "Raspberry Pi 5 Model B Rev 1.0": "none of these lines applies",
}
# What Debian's own packages give (their Packages files; pip sees a package's egg-info): Trixie's
# python3-sysv-ipc is 1.1.0, enough for Blinka's sysv_ipc>=1.1.0; Bookworm's is 1.0.0, so 32-bit
# Bookworm takes sysv_ipc from piwheels, the extra index of 32-bit Raspberry Pi OS.
APT_SATISFIES = {("trixie", "sysv-ipc")}


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def measured_wheels() -> dict[tuple[str, str, str], bool]:
    """(requirement as the table writes it, python, machine) -> PyPI has a wheel."""
    text = (ROOT / "wiring" / "README.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    header = next(line for line in text.splitlines() if line.startswith("| package | 3.11 aarch64"))
    columns = [cell.strip().split() for cell in header.strip("|").split("|")[1:]]
    table = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if not cells[0].startswith("`") or len(cells) != len(columns) + 1:
            continue
        for (python, machine), cell in zip(columns, cells[1:], strict=True):
            table[(cells[0].strip("`"), python, machine)] = cell != "-"
    return table


def pi_requirements(python: str, machine: str) -> list[Requirement]:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    environment = {**default_environment(), "python_version": python, "platform_machine": machine}
    environment["python_full_version"] = f"{python}.0"
    required = [Requirement(text) for text in extras["pi"]]
    return [r for r in required if r.marker is None or r.marker.evaluate(environment)]


@pytest.mark.parametrize("machine", MACHINES)
@pytest.mark.parametrize("python", sorted(RELEASES.values()))
def test_the_pi_extra_asks_pip_for_compiled_libraries_only_where_pypi_has_wheels(python: str, machine: str) -> None:
    wheels = measured_wheels()
    for requirement in pi_requirements(python, machine):
        if normal(requirement.name) in COMPILED:
            as_written = f"{requirement.name}{requirement.specifier}"
            assert wheels[(as_written, python, machine)], f"{as_written} has no wheel for {python} {machine}"
    assert {"gpiozero>=2.0.1", "pyserial>=3.5"} <= {f"{r.name}{r.specifier}" for r in pi_requirements(python, machine)}


def test_the_legacy_extra_is_rpi_lgpio_which_needs_no_compiler() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert [Requirement(text).name for text in extras["legacy"]] == ["rpi-lgpio"]
    assert all(measured_wheels()[("rpi-lgpio", p, m)] for p in RELEASES.values() for m in MACHINES)


def install_dry_run(release: str, machine: str, model: str, variant: str = "gpio-mux") -> str:
    env = {**os.environ, "TAFEL_OS": release, "TAFEL_MACHINE": machine, "TAFEL_MODEL": model}
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--any-os", "--variant", variant],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("model", sorted(MODELS))
@pytest.mark.parametrize("machine", MACHINES)
@pytest.mark.parametrize("release", sorted(RELEASES))
def test_the_install_dry_run_names_no_step_that_compiles(release: str, machine: str, model: str) -> None:
    out = install_dry_run(release, machine, model)
    assert f"installing for {model}, Raspberry Pi OS {release}" in out
    commands = [line for line in out.splitlines() if "would run:" in line]
    for tool in ("build-essential", "gcc", "python3-dev", "swig", "liblgpio-dev", "setup.py", "--no-binary"):
        assert not any(tool in command for command in commands), tool
    (apt,) = [command for command in commands if "apt-get install" in command]
    for package in ("python3-lgpio", "python3-libgpiod", "python3-sysv-ipc", "python3-spidev"):
        assert package in apt.split()
    (pip,) = [command for command in commands if "/pip install" in command]
    only_binary = {normal(name) for name in re.search(r"--only-binary=(\S+)", pip).group(1).split(",")}
    assert only_binary >= COMPILED
    bits32 = machine != "aarch64"
    assert ("piwheels.org" in pip) == bits32
    assert "--system-site-packages" in out  # the venv sees the packages apt installed
    # The boot settings: SPI0 for the strip, and the core clock line this model follows.
    assert "[pi3]" in out and "core_freq_min=500" in out
    assert MODELS[model] in out.split("pinning the core clock", 1)[1]


@pytest.mark.parametrize(
    ("release", "machine", "said"),
    [
        ("bullseye", "aarch64", "Raspberry Pi OS bullseye is not supported (Bookworm and Trixie are)"),
        ("bookworm", "x86_64", "a x86_64 processor is not a Raspberry Pi's"),
    ],
)
def test_an_unsupported_release_or_processor_is_named_without_any_os(release: str, machine: str, said: str) -> None:
    env = {**os.environ, "TAFEL_OS": release, "TAFEL_MACHINE": machine}
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--variant", "sim"], capture_output=True, text=True, env=env
    )
    assert result.returncode == 1 and said in result.stderr, result.stderr
    env["TAFEL_OS"], env["TAFEL_MACHINE"] = "trixie", "armv7l"  # the same on a supported system: no refusal
    command = ["bash", str(INSTALL), "--dry-run", "--variant", "sim"]
    ok = subprocess.run(command, capture_output=True, text=True, env=env)
    assert ok.returncode == 0, ok.stderr


def test_the_install_can_set_up_the_clubs_broker_on_this_board() -> None:
    env = {**os.environ, "TAFEL_OS": "bookworm", "TAFEL_MACHINE": "aarch64"}
    command = ["bash", str(INSTALL), "--dry-run", "--any-os", "--variant", "sim", "--broker", "kitchen,club,relay"]
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert "would run: apt-get install -y mosquitto" in result.stdout
    assert (
        "tafel broker-config kitchen,club,relay --dir /etc/mosquitto --passwords /etc/tafel/broker-passwords"
        in result.stdout
    )
    assert "would run: systemctl restart mosquitto" in result.stdout
