"""Every example configuration starts to READY under the systemd unit's conditions.

The unit (systemd/tafel.service) runs `tafel run` as an unprivileged user, in WorkingDirectory=
/run/tafel, with ProtectSystem=strict (everything read-only but the state and runtime directories)
and PrivateTmp. Here: a private mount namespace in which every file system is remounted read-only
except a runtime and a state directory, fresh /tmp and /var/tmp, the user nobody without
capabilities, and systemd's environment (NOTIFY_SOCKET, WATCHDOG_USEC, STATE_DIRECTORY). The
hardware is simulated below the libraries (tests/pi/run_as_pi.py; for the RP2040 example, the
firmware's own main loop behind a pseudo-terminal, tests/pi/scanner_on_pty.py).
"""

from __future__ import annotations

import json
import os
import pty
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hal.neopixel import spi_frame_bytes
from hal.profile import load_profile
from sim.gpiochip import EDGE_CALLS
from tests.service.notify import NotifyListener

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "wiring" / "examples"
LIMIT = 120.0
NOBODY = 65534

# Inside a new mount namespace: keep the two writable directories, make everything else read-only,
# give the service its own /tmp and /var/tmp, then become the service user and run it in $1.
UNIT = r"""
set -e
run="$1"; state="$2"; private_tmp="$3"; shift 3
mount --bind "$run" "$run"
mount --bind "$state" "$state"
for point in $(awk '{print $2}' /proc/self/mounts); do
    case "$point" in
        /proc|/proc/*|/sys|/sys/*|/dev|/dev/*|"$run"|"$state") ;;
        *) mount -o remount,bind,ro "$point" ;;
    esac
done
if [ "$private_tmp" = yes ]; then
    mount -t tmpfs tmpfs /tmp
    mount -t tmpfs tmpfs /var/tmp
fi
cd "$run"
exec "$@"
"""


def private_tmp() -> str:
    """PrivateTmp= as a fresh /tmp and /var/tmp, unless this checkout (or its .venv) lives there: an
    installed service runs from /opt/tafel; a CI clone under /tmp must stay visible (read-only)."""
    homes = (ROOT, Path(sys.prefix), Path(sys.executable).resolve())
    inside = any(str(home).startswith(("/tmp/", "/var/tmp/")) for home in homes)
    return "no" if inside else "yes"


def unit_command(run: Path, state: Path, command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--no-new-privs",
                "--inh-caps=-all", "--bounding-set=-all"]  # fmt: skip
        return ["unshare", "--mount", "--propagation", "private", "sh", "-c", UNIT, "unit", str(run), str(state),
                private_tmp(), *drop, *command]  # fmt: skip
    # Not root: a user namespace gives the mounts; the user is already unprivileged outside it.
    return ["unshare", "--user", "--map-root-user", "--mount", "--propagation", "private", "sh", "-c", UNIT,
            "unit", str(run), str(state), private_tmp(), *command]  # fmt: skip


@pytest.fixture(scope="module")
def unit_conditions() -> None:
    """Skip with the reason where the machine cannot make the unit's conditions."""
    if shutil.which("unshare") is None or (os.geteuid() == 0 and shutil.which("setpriv") is None):
        pytest.skip("util-linux's unshare and setpriv are needed to run under the unit's conditions")
    with tempfile.TemporaryDirectory(dir="/dev/shm") as base:
        run, state = _directories(Path(base))
        probe = subprocess.run(
            unit_command(run, state, ["sh", "-c", f"touch {run}/ok && ! touch {ROOT}/.unit-probe 2>/dev/null"]),
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        if probe.returncode != 0:
            pytest.skip(f"cannot make a read-only mount namespace here: {probe.stderr.strip()[:200]}")
        readable = subprocess.run(unit_command(run, state, [sys.executable, "-c", "import controller"]),
                                  capture_output=True, text=True, timeout=60)  # fmt: skip
        assert readable.returncode == 0, f"the service user cannot run the code: {readable.stderr[-400:]}"


def _directories(base: Path) -> tuple[Path, Path]:
    base.chmod(0o755)
    run, state = base / "run", base / "state"
    for directory in (run, state):  # RuntimeDirectory= and StateDirectory=: owned by the user, 0750
        directory.mkdir()
        directory.chmod(0o750)
        if os.geteuid() == 0:
            os.chown(directory, NOBODY, NOBODY)
    return run, state


@pytest.fixture
def base() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(dir="/dev/shm", prefix="tafel-unit-") as directory:
        yield Path(directory)


def installed_config(example: str, etc: Path, port: str | None = None) -> Path:
    """The example as /etc/tafel/config.toml: its own state_dir dropped (the unit's is used)."""
    lines = [line for line in (EXAMPLES / f"{example}.toml").read_text().splitlines()
             if not line.startswith("state_dir")]  # fmt: skip
    text = "\n".join(lines) + "\n"
    if port is not None:
        text = text.replace('port = "/dev/tafel-scanner"', f'port = "{port}"')
    config = etc / "config.toml"
    config.write_text(text)
    config.chmod(0o644)
    return config


def start_and_stop(base: Path, example: str, port: str | None = None, before_stop: str = "") -> tuple[dict, str]:
    """Start the service, wait for READY, a watchdog ping and the log line `before_stop`, stop it."""
    run, state = _directories(base)
    etc = base / "etc"
    etc.mkdir(mode=0o755)
    config = installed_config(example, etc, port)
    bufsiz = etc / "bufsiz"
    bufsiz.write_text("32768\n")  # install.sh puts spidev.bufsiz=32768 in cmdline.txt
    bufsiz.chmod(0o644)
    systemd = NotifyListener(base / "notify")
    (base / "notify").chmod(0o777)
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/nonexistent",
        "NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "2000000", "PYTHONUNBUFFERED": "1",
        "STATE_DIRECTORY": str(state), "RUNTIME_DIRECTORY": str(run),
    }  # fmt: skip
    launcher = [sys.executable, str(ROOT / "tests/pi/run_as_pi.py"), str(config), str(bufsiz), str(run / "report.json")]
    process = subprocess.Popen(unit_command(run, state, launcher), env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    lines: queue.Queue = queue.Queue()
    errors: list[str] = []
    readers = [
        threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True),
        threading.Thread(target=lambda: errors.extend(process.stderr), daemon=True),
    ]
    for reader in readers:
        reader.start()
    seen: list[str] = []
    try:
        systemd.wait_for("READY=1", LIMIT)
        systemd.wait_for("WATCHDOG=1", LIMIT)
        while before_stop and not any(line.startswith(before_stop) for line in seen):
            try:
                seen.append(lines.get(timeout=LIMIT))
            except queue.Empty:
                raise AssertionError(f"no {before_stop!r} within {LIMIT} s; the log: {seen}") from None
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=LIMIT)
        for reader in readers:
            reader.join(timeout=LIMIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        systemd.close()
    err = "".join(errors)
    assert process.returncode == 0, f"exit {process.returncode}: {err[-2000:]}"
    assert "Traceback" not in err, err
    assert list(state.iterdir()), "the journal was not written to the state directory"
    while not lines.empty():
        seen.append(lines.get())
    return json.loads((run / "report.json").read_text()), "".join(seen)


@pytest.mark.parametrize("example", ["gpio-mux", "gpio-shift", "gpio-analog", "sim"])
def test_the_example_starts_to_ready_as_the_unit_runs_it(example: str, base: Path, unit_conditions: None) -> None:
    report, out = start_and_stop(base, example)
    assert report["exit"] == 0
    assert not report["lines_left_as_outputs"], "every GPIO is released on stop"
    assert not any(report["calls"].get(name) for name in EDGE_CALLS), "scanning never asks for edge detection"
    if example == "sim":
        assert not report["calls"] and not report["spi_writes"]
        return
    reads = sum(report["calls"].get(name, 0) for name in ("gpio_read", "spi_xfer", "spi_read"))
    assert reads > 0, f"the scanner never read a sensor: {report['calls']}"
    profile = load_profile({"gpio-analog": "hex61"}.get(example, "square14"))
    frames = report["spi_writes"]
    assert frames and {bus for bus, _, _ in frames} == {0}  # every example's strip is on SPI0 (DMA)
    assert {length for _, length, _ in frames} == {spi_frame_bytes(profile.led_count)}  # whole frames
    assert frames[-1][2], "the LEDs are dark after a stop"
    assert "<6>LEDs off" in out


def test_the_rp2040_example_starts_with_its_scanner_on_a_serial_port(base: Path, unit_conditions: None) -> None:
    board_end, host_end = pty.openpty()
    port = os.ttyname(host_end)
    os.chmod(port, 0o666)  # the udev rule's group access (dialout)
    scanner = subprocess.Popen([sys.executable, str(ROOT / "tests/pi/scanner_on_pty.py")], stdin=board_end,
                               stdout=board_end, stderr=subprocess.PIPE, cwd=base)  # fmt: skip
    os.close(board_end)
    try:
        report, out = start_and_stop(base, "rp2040", port, before_stop="<6>scanner link connected")
    except AssertionError as failure:
        scanner.kill()
        raise AssertionError(f"{failure}\nthe scanner board: {scanner.communicate()[1].decode()[-2000:]}") from None
    finally:
        if scanner.poll() is None:
            scanner.kill()
            scanner.communicate()
        os.close(host_end)
    assert report["exit"] == 0
    assert "<6>scanner link connected: tafel-scanner" in out
    assert not report["spi_writes"]  # the LEDs hang on the scanner board, not on the Pi's SPI
