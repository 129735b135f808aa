"""Mosquitto's configuration for a tafel club: one listener, an account per board and the relay,
the ACL of topics.acl(), and persistence so queued messages outlive a broker restart
(docs/remote.md, "Setting up a broker"). `tafel broker-config` and the test suite write it."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping
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
        f"listener {port} {bind}",
    ]
    if tls is not None:
        ca, cert, key = tls
        lines += [f"cafile {ca}", f"certfile {cert}", f"keyfile {key}", "tls_version tlsv1.2"]
    return "\n".join(lines) + "\n"


def write_accounts(directory: Path, accounts: Mapping[str, str]) -> None:
    """The password file (hashed by mosquitto_passwd) and the ACL for `accounts` (name: password)."""
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise OSError("mosquitto_passwd is missing: install Debian's mosquitto package")
    passwd = directory / "passwd"
    passwd.write_text("")
    for name, password in accounts.items():
        if name != topics.RELAY:
            topics.check_name(name)
        subprocess.run([tool, "-b", str(passwd), name, password], check=True, capture_output=True)
    passwd.chmod(0o600)
    (directory / "acl").write_text(topics.acl())
