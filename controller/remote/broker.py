"""Mosquitto's configuration for a tafel club: one listener, an account per board and the relay,
the ACL of topics.acl(), and persistence so queued messages outlive a broker restart
(docs/remote.md, "Setting up a broker"); and a private Mosquitto on a free loopback port, which
`tafel bench --remote` and the test suite start."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from controller.remote import topics


def mosquitto_conf(
    directory: Path,
    port: int,
    bind: str = "127.0.0.1",
    tls: tuple[str, str, str] | None = None,
    user: str | None = None,
) -> str:
    """The broker's configuration, with its password, ACL and persistence files in `directory`;
    `tls`: (CA, certificate, key) files to listen with TLS instead of plain TCP; `user`: the account
    a broker started as root runs as (Debian's service: `mosquitto`)."""
    lines = [
        "# tafel: a club's broker (docs/remote.md)",
        *([f"user {user}"] if user is not None else []),
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {directory / 'passwd'}",
        f"acl_file {directory / 'acl'}",
        "persistence true",
        f"persistence_location {directory}/",
        "autosave_interval 1",
        "max_queued_messages 10000",
        "set_tcp_nodelay true",  # a move is one small packet: Nagle's wait would add 40 ms to each
        f"listener {port} {bind}",
    ]
    if tls is not None:
        ca, cert, key = tls
        lines += [f"cafile {ca}", f"certfile {cert}", f"keyfile {key}", "tls_version tlsv1.2"]
    return "\n".join(lines) + "\n"


def system_broker(directory: Path, accounts: Sequence[str], port: int = 1883, bind: str = "0.0.0.0") -> dict[str, str]:
    """Set up the system's Mosquitto (Debian's, whose main configuration includes conf.d/ and keeps
    persistence on) for a club: `conf.d/tafel.conf`, the ACL and a password file in `directory`,
    one account per name with a new random password; the passwords, by account."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    passwords = {name: secrets.token_urlsafe(12) for name in accounts}
    write_accounts(directory, passwords, prefix="tafel.")
    (directory / "conf.d").mkdir(parents=True, exist_ok=True)
    (directory / "conf.d" / "tafel.conf").write_text(
        "\n".join(
            (
                "# tafel: the club's boards and relay (docs/remote.md); written by tafel broker-config",
                "per_listener_settings false",
                "allow_anonymous false",
                f"password_file {directory / 'tafel.passwd'}",
                f"acl_file {directory / 'tafel.acl'}",
                "set_tcp_nodelay true",
                f"listener {port} {bind}",
                "",
            )
        )
    )
    return passwords


def write_accounts(directory: Path, accounts: Mapping[str, str], prefix: str = "") -> None:
    """The password file (hashed by mosquitto_passwd) and the ACL for `accounts` (name: password)."""
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise OSError("mosquitto_passwd is missing: install Debian's mosquitto package")
    passwd = directory / f"{prefix}passwd"
    passwd.write_text("")
    for name, password in accounts.items():
        if name != topics.RELAY:
            topics.check_name(name)
        subprocess.run([tool, "-b", str(passwd), name, password], check=True, capture_output=True)
    passwd.chmod(0o600)
    (directory / f"{prefix}acl").write_text(topics.acl())


def broker_problem() -> str | None:
    """Why no private Mosquitto can be started here, in words; None when it can."""
    for program in ("mosquitto", "mosquitto_passwd"):
        if _program(program) is None:
            return f"{program} is not installed (Debian's mosquitto package)"
    return None


def _program(name: str) -> str | None:
    found = shutil.which(name)
    if found is None and Path(f"/usr/sbin/{name}").exists():
        found = f"/usr/sbin/{name}"
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PrivateBroker:
    """A Mosquitto of our own on a free loopback port, with `accounts` (name: password), that can
    be stopped and started again (its persistence keeps what it queued)."""

    def __init__(self, directory: Path, accounts: Mapping[str, str], tls: tuple[str, str, str] | None = None) -> None:
        self.directory = Path(directory)
        self.port = free_port()
        write_accounts(self.directory, accounts)
        self.conf = self.directory / "mosquitto.conf"
        user = "root" if os.geteuid() == 0 else None  # as root it would drop to `mosquitto`, which cannot read here
        self.conf.write_text(mosquitto_conf(self.directory, self.port, tls=tls, user=user))
        self._process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> None:
        program = _program("mosquitto")
        if program is None:
            raise OSError("mosquitto is not installed (Debian's mosquitto package)")
        log = self.directory / "broker.log"
        with log.open("ab") as output:
            self._process = subprocess.Popen([program, "-c", str(self.conf)], stdout=output, stderr=output)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self._process.poll() is not None:
                    raise OSError(f"mosquitto did not start: {log.read_text()[-500:]}") from None
                time.sleep(0.02)  # start-up only: the broker says nothing until it listens
        raise OSError(f"mosquitto did not listen on port {self.port} within {timeout:g} s")

    def stop(self) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.wait(10)
            self._process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def crash(self) -> None:
        """Kill the broker and lose what it kept (its machine lost power before it saved, or it is
        a new machine): sessions, queued messages and retained ones are gone. `start` brings it back."""
        if self._process is not None:
            self._process.kill()
            self._process.wait(10)
            self._process = None
        for saved in self.directory.glob("*.db"):
            saved.unlink()
