"""The systemd unit, the udev rule and the install script, checked with the tools that judge them."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.service.config import load_config
from controller.terminal.cli import build_parser
from tests.service.configs import EXAMPLES, ROOT

SYSTEMD = ROOT / "systemd"
UNIT = SYSTEMD / "tafel.service"
INSTALL = SYSTEMD / "install.sh"
RULES = SYSTEMD / "99-tafel.rules"
EXEC = "/opt/tafel/venv/bin/tafel"


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here")
    # verify insists that ExecStart's program exists; the unit is checked as written, with only that
    # path pointing at a stand-in (the venv exists on an installed Pi, not here).
    program = tmp_path / "tafel"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    unit = tmp_path / "tafel.service"
    text = UNIT.read_text()
    assert text.count(EXEC) == 1
    unit.write_text(text.replace(EXEC, str(program)))
    result = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, cwd=tmp_path)
    problems = [line for line in result.stderr.splitlines() if line.strip()]
    # install.sh creates the user; a systemd that resolves User=/Group= during verify would complain
    # here about that alone, which says nothing about the unit.
    about_user = [line for line in problems if re.search(r"\b(user|group)\b.*\btafel\b", line, re.IGNORECASE)]
    if problems and problems == about_user and not _user_exists("tafel"):
        pytest.skip(f"systemd-analyze resolves the service user, which only install.sh creates: {problems}")
    assert problems == [], result.stderr
    assert result.returncode == 0, result.stdout


def _user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def test_the_unit_starts_the_documented_command() -> None:
    argv = shlex.split(unit_settings()["ExecStart"][0])
    assert argv[0] == EXEC
    args = build_parser().parse_args(argv[1:])
    assert args.command == "run" and args.config == "/etc/tafel/config.toml"


def test_the_unit_is_a_hardened_notify_service_with_a_watchdog() -> None:
    settings = unit_settings()
    expected = {
        "Type": "notify",
        "Restart": "on-failure",
        "RestartPreventExitStatus": "2",  # a bad configuration: restarting cannot help
        "User": "tafel",
        "SupplementaryGroups": "gpio spi dialout",
        "StateDirectory": "tafel",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "NoNewPrivileges": "yes",
        "DevicePolicy": "closed",
    }
    for key, value in expected.items():
        assert settings[key] == [value], key
    assert int(settings["WatchdogSec"][0]) > 0
    assert settings["DeviceAllow"] == ["char-gpiochip rw", "char-spi rw", "char-ttyACM rw"]


def test_the_unit_lets_the_web_app_listen_on_the_network() -> None:
    """The players' phones reach the board's web app over IP (docs/web.md); nothing else is opened."""
    settings = unit_settings()
    assert "PrivateNetwork" not in settings
    assert settings["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]
    from controller.service.config_web import DEFAULT_WEB_PORT

    assert DEFAULT_WEB_PORT >= 1024  # the unprivileged tafel user may bind it


def udev_rules() -> list[str]:
    return [line for line in RULES.read_text().splitlines() if line and not line.startswith("#")]


def test_the_udev_rule_names_the_port_the_rp2040_example_uses() -> None:
    (rule,) = [line for line in udev_rules() if 'SUBSYSTEM=="tty"' in line]
    assert 'GROUP="dialout"' in rule and 'MODE="0660"' in rule
    link = re.search(r'SYMLINK\+="([^"]+)"', rule).group(1)
    assert load_config(EXAMPLES / "rp2040.toml").sensors.port == f"/dev/{link}"
    # MicroPython (0005) and the Pico SDK's USB serial on the RP2040 (000a) and the RP2350 (0009).
    products = re.search(r'ATTRS\{idProduct\}=="([^"]+)"', rule).group(1).split("|")
    assert sorted(products) == ["0005", "0009", "000a"]


def test_the_udev_rules_give_the_gpio_chips_and_spi_devices_to_the_service_groups_on_any_os() -> None:
    """Plain Debian or Ubuntu on a Pi (install.sh --any-os) has no rules for these groups of its own."""
    rules = udev_rules()
    assert 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' in rules
    assert 'SUBSYSTEM=="spidev", KERNEL=="spidev*", GROUP="spi", MODE="0660"' in rules
    assert {"gpio", "spi", "dialout"} <= set(unit_settings()["SupplementaryGroups"][0].split())


def test_a_scanner_plugged_in_after_start_is_allowed() -> None:
    """DeviceAllow=char-ttyACM is resolved from the drivers loaded when the unit starts: the drivers
    load at boot (modules-load.d), before the unit, so a late plug finds its device allowed."""
    settings = unit_settings()
    assert "char-ttyACM rw" in settings["DeviceAllow"] and "char-spi rw" in settings["DeviceAllow"]
    assert "systemd-modules-load.service" in settings["After"][0].split()
    assert settings["Wants"] == ["systemd-modules-load.service"]
    out = dry_run("--variant", "rp2040").stdout
    assert "would write /etc/modules-load.d/tafel.conf: cdc_acm spidev" in out
    assert "would run: modprobe -a cdc_acm spidev" in out
    assert "/etc/modules-load.d/tafel.conf" in dry_run("--uninstall").stdout


def test_lgpio_works_in_the_units_runtime_directory() -> None:
    settings = unit_settings()
    assert "LG_WD=/run/tafel" in settings["Environment"] and settings["WorkingDirectory"] == ["/run/tafel"]


def test_the_wheel_table_script_parses_and_is_shellcheck_clean() -> None:
    """systemd/wheel-table.sh measures wiring/README.md's table of wheels (it needs PyPI, so it is not
    run here); its table is in the README with every package it asks about."""
    script = SYSTEMD / "wheel-table.sh"
    subprocess.run(["bash", "-n", str(script)], check=True)
    packages = re.search(r'readonly PACKAGES="([^"]+)"', script.read_text()).group(1).split()
    readme = (ROOT / "wiring" / "README.md").read_text()
    assert all(f"| `{package}` |" in readme for package in packages)
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed here")
    assert subprocess.run([shellcheck, str(script)], capture_output=True, text=True).returncode == 0


def test_the_install_script_parses_and_is_shellcheck_clean() -> None:
    subprocess.run(["bash", "-n", str(INSTALL)], check=True)
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed here")
    result = subprocess.run([shellcheck, str(INSTALL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_install_script_refuses_to_touch_a_machine_that_is_not_a_pi() -> None:
    if Path("/etc/rpi-issue").exists() or "ID=raspbian" in Path("/etc/os-release").read_text():
        pytest.skip("this is Raspberry Pi OS: the script would install for real")
    result = subprocess.run(["bash", str(INSTALL), "--variant", "sim"], capture_output=True, text=True)
    assert result.returncode == 1
    reason = "run me as root" if os.geteuid() != 0 else "this is not Raspberry Pi OS"
    assert reason in result.stderr and result.stdout == ""


def install_variants() -> list[str]:
    return re.search(r'^readonly VARIANTS="([^"]+)"$', INSTALL.read_text(), re.M).group(1).split()


def test_the_install_script_offers_every_example() -> None:
    assert sorted(install_variants()) == sorted(path.stem for path in EXAMPLES.glob("*.toml"))


@pytest.mark.parametrize("variant", install_variants())
def test_the_installed_config_finds_the_installed_profiles(tmp_path: Path, variant: str) -> None:
    # install.sh writes the example with its commented profile_dir line switched on (the same sed).
    installed = tmp_path / "wiring"
    shutil.copytree(ROOT / "wiring", installed)
    text = (EXAMPLES / f"{variant}.toml").read_text()
    assert len(re.findall(r"(?m)^# *profile_dir = ", text)) == 1
    config = tmp_path / "config.toml"
    config.write_text(re.sub(r"(?m)^# *profile_dir = .*$", f'profile_dir = "{installed}"', text))
    loaded = load_config(config)
    assert loaded.board.profile == installed / f"{loaded.profile.name}.toml"


def dry_run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(INSTALL), "--dry-run", "--any-os", *args], capture_output=True, text=True)


def test_the_install_dry_run_shows_the_boot_changes_and_makes_none() -> None:
    result = dry_run("--variant", "gpio-mux")  # its LED strip is on SPI0
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "would add to the kernel command line in " in out and "spidev.bufsiz=32768" in out
    assert "SPI0" in out and "would add to " in out and "[all]" in out
    assert "spi1" not in out  # no example puts anything on SPI1, the bus without DMA
    assert "would run: apt-get update" in out
    assert "would run: systemctl restart tafel.service" in out
    assert out.rstrip().splitlines()[-2].endswith("dry run: nothing was changed")


def test_the_install_dry_run_of_the_simulated_board_touches_no_boot_settings() -> None:
    out = dry_run("--variant", "sim").stdout
    assert "spidev.bufsiz" not in out and "dtoverlay" not in out and "core_freq" not in out


@pytest.mark.parametrize("variant", ["gpio-mux", "gpio-shift", "gpio-analog"])
def test_the_core_clock_is_pinned_per_model_where_the_strip_is_on_spi(variant: str) -> None:
    """WS2812 over SPI wants a steady SPI clock, which follows the core clock on a Pi 3, Zero 2 W and
    4: config.txt's model filters pin it for each (the Pi 5's SPI is its own)."""
    added = [
        line.split(": ", 2)[2]
        for line in dry_run("--variant", variant).stdout.splitlines()
        if line.startswith("tafel install: would add to ") and "config.txt" in line
    ]
    block = added[added.index("# tafel: the SPI clock follows the core clock; pinned for the LED strip") :]
    assert block[1:8] == ["[pi3]", "core_freq=250", "[pi02]", "core_freq=250", "[pi4]", "core_freq_min=500", "[all]"]
    assert added[added.index(block[0]) - 1] == "[all]"  # the block starts for every model


def test_the_uninstall_removes_the_service_and_keeps_config_and_game() -> None:
    result = dry_run("--uninstall")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "would run: systemctl disable --now tafel.service" in out
    assert "would run: rm -f /etc/systemd/system/tafel.service /etc/udev/rules.d/99-tafel.rules" in out
    assert "would run: rm -rf /opt/tafel" in out
    removals = [line for line in out.splitlines() if "would run: rm" in line]
    assert not any("/etc/tafel" in line or "/var/lib/tafel" in line for line in removals)
