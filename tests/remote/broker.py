"""A real Mosquitto for the remote tests: started on a free loopback port with a generated
configuration (controller.remote.broker), restartable mid-test. Without Mosquitto the tests skip."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from controller.remote.broker import mosquitto_conf, write_accounts


def broker_problem() -> str | None:
    for program in ("mosquitto", "mosquitto_passwd"):
        if shutil.which(program) is None and not Path(f"/usr/sbin/{program}").exists():
            return f"{program} is not installed (Debian's mosquitto package; .ci/run installs it)"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Broker:
    def __init__(self, directory: Path, accounts: dict[str, str]) -> None:
        self.directory = directory
        self.port = _free_port()
        write_accounts(directory, accounts)
        self.conf = directory / "mosquitto.conf"
        self.conf.write_text(mosquitto_conf(directory, self.port, user="root" if os.geteuid() == 0 else None))
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        program = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        log = (self.directory / "broker.log").open("ab")
        self._process = subprocess.Popen([program, "-c", str(self.conf)], stdout=log, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self._process.poll() is not None:
                    raise RuntimeError((self.directory / "broker.log").read_text()) from None
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not start listening within 10 s")

    def stop(self) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.wait(10)
            self._process = None

    def restart(self) -> None:
        self.stop()
        self.start()
