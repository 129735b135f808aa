"""`tafel broker-config` sets up a system Mosquitto for a club (docs/remote.md, "Setting up a
broker"): the configuration it writes is loaded by a real Mosquitto, and its accounts and ACL work."""

from __future__ import annotations

import errno
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from controller.remote import topics
from controller.remote.broker import broker_problem, free_port
from controller.remote.link import BrokerSettings, Event, Link, LinkState
from controller.remote.messages import Presence
from controller.service import disk
from controller.terminal.cli import main


def test_broker_config_writes_a_configuration_mosquitto_loads_and_accounts_that_work(tmp_path: Path) -> None:
    if broker_problem() is not None:
        pytest.skip(f"needs Mosquitto: {broker_problem()}")
    port = free_port()
    passwords_file = tmp_path / "passwords"
    assert (
        main(
            [
                "broker-config",
                "kitchen,club,relay",
                "--dir",
                str(tmp_path),
                "--port",
                str(port),
                "--passwords",
                str(passwords_file),
            ]
        )
        == 0
    )
    assert oct(passwords_file.stat().st_mode & 0o777) == "0o600"
    passwords = dict(line.split() for line in passwords_file.read_text().splitlines())
    assert set(passwords) == {"kitchen", "club", "relay"} and len(set(passwords.values())) == 3
    conf = (
        (tmp_path / "conf.d" / "tafel.conf")
        .read_text()
        .replace(f"listener {port} 0.0.0.0", f"listener {port} 127.0.0.1")
    )
    (tmp_path / "conf.d" / "tafel.conf").write_text(conf)
    main_conf = tmp_path / "mosquitto.conf"  # as Debian's: it includes conf.d/
    user = "user root\n" if os.geteuid() == 0 else ""
    main_conf.write_text(f"{user}include_dir {tmp_path / 'conf.d'}\n")
    program = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    broker = subprocess.Popen([program, "-c", str(main_conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline and broker.poll() is None, "mosquitto did not start"
                time.sleep(0.02)  # start-up only
        good = Link(BrokerSettings("club", "127.0.0.1", port, "club", passwords["club"]), follow=[topics.ALL_PRESENCE])
        bad = Link(BrokerSettings("kitchen", "127.0.0.1", port, "kitchen", "wrong"))
        good.start()
        bad.start()
        heard = collect(good, lambda events: any(getattr(e, "message", None) == Presence(True, "club") for e in events))
        assert good.connected and any(isinstance(e, LinkState) and e.up for e in heard)  # its own presence, read back
        refused = collect(bad, lambda events: any(isinstance(e, LinkState) and not e.up for e in events))
        assert not bad.connected and any("refused" in e.reason for e in refused if isinstance(e, LinkState))
        good.close()
        bad.close()
    finally:
        broker.terminate()
        broker.wait(10)


def test_broker_config_refuses_before_it_changes_an_account(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No accounts named, or a passwords file that could not be written (the new passwords would be
    lost with the broker's accounts already changed): refused, and nothing is written."""
    for accounts, extra, message in [
        (" , ", [], "name the accounts to make"),
        ("kitchen,relay", ["--passwords", str(tmp_path / "missing" / "p")], "--passwords"),
    ]:
        assert main(["broker-config", accounts, "--dir", str(tmp_path / "mosquitto"), *extra]) == 2
        assert message in capsys.readouterr().err
    assert not (tmp_path / "mosquitto").exists()
    if broker_problem() is not None:
        pytest.skip(f"an account named twice is made by mosquitto_passwd: {broker_problem()}")
    assert main(["broker-config", "kitchen,kitchen,relay", "--dir", str(tmp_path / "mosquitto")]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == ["kitchen", "relay"]  # once each


def test_broker_config_never_loses_the_new_passwords(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The accounts have changed once the passwords are written: an existing passwords file that
    anyone could read is replaced whole by a private one, and a write that fails (a full disk)
    prints the passwords instead, with what went wrong."""
    if broker_problem() is not None:
        pytest.skip(f"the accounts are made by mosquitto_passwd: {broker_problem()}")
    passwords_file = tmp_path / "passwords"
    passwords_file.write_text("old secrets\n")
    passwords_file.chmod(0o644)
    args = ["broker-config", "kitchen,relay", "--dir", str(tmp_path / "mosquitto"), "--passwords", str(passwords_file)]
    assert main(args) == 0
    assert oct(passwords_file.stat().st_mode & 0o777) == "0o600"
    assert [line.split()[0] for line in passwords_file.read_text().splitlines()] == ["kitchen", "relay"]
    capsys.readouterr()

    def full_disk(path: Path, data: bytes, mode: int | None = None) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(disk, "atomic_write", full_disk)
    assert main(args) == 1
    said = capsys.readouterr()
    assert f"could not write the passwords to {passwords_file} (the disk is full)" in said.err
    assert "Traceback" not in said.err and "OSError" not in said.err
    printed = dict(line.split() for line in said.out.splitlines())
    assert set(printed) == {"kitchen", "relay"}
    assert "kitchen" in (tmp_path / "mosquitto" / "tafel.passwd").read_text()  # the accounts that were made


def collect(link: Link, done, seconds: float = 10.0) -> list[Event]:
    """What `link` brings until `done(everything so far)`, within `seconds`."""
    events: list[Event] = []
    deadline = time.monotonic() + seconds
    while not done(events):
        assert time.monotonic() < deadline, f"not within {seconds} s: {events}"
        events.extend(link.drain())
        time.sleep(0.01)  # the link's own thread delivers
    return events
