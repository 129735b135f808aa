"""Boards on a broker that speaks TLS (docs/remote.md, "A club's broker"): a real Mosquitto with a
certificate signed by the club's own certificate authority, boards that trust it (`[remote] tls`
and `ca_file`) playing a whole game, and a board that does not trust it kept out, saying why."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.remote.broker import free_port
from controller.remote.link import BrokerSettings, unreachable_reason
from tests.remote.broker import Broker, broker_problem
from tests.remote.conftest import PASSWORDS
from tests.remote.players import board_for, finished, run_until


def openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def club_certificates(directory: Path, name: str = "club") -> tuple[str, str, str]:
    """A certificate authority and the broker's certificate for localhost and 127.0.0.1, signed by
    it: (CA, certificate, key) as files."""
    directory.mkdir(parents=True, exist_ok=True)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}-ca.key", "-out", f"{name}-ca.crt",
            "-days", "2", "-subj", f"/CN={name} test CA", cwd=directory)  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "broker.key", "-out", "broker.csr",
            "-subj", "/CN=localhost", cwd=directory)  # fmt: skip
    (directory / "names.cnf").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "broker.csr", "-CA", f"{name}-ca.crt", "-CAkey", f"{name}-ca.key",
            "-CAcreateserial", "-out", "broker.crt", "-days", "2", "-extfile", "names.cnf", cwd=directory)  # fmt: skip
    return str(directory / f"{name}-ca.crt"), str(directory / "broker.crt"), str(directory / "broker.key")


@pytest.fixture
def tls_broker(tmp_path: Path) -> Iterator[tuple[Broker, str]]:
    problem = broker_problem()
    if problem is not None:
        pytest.skip(f"remote tests need Mosquitto: {problem}")
    if shutil.which("openssl") is None:
        pytest.skip("the TLS test makes its certificates with openssl, which is not installed")
    ca, cert, key = club_certificates(tmp_path / "certs")
    (tmp_path / "broker").mkdir()
    running = Broker(tmp_path / "broker", PASSWORDS, tls=(ca, cert, key))
    running.start()
    yield running, ca
    running.stop()


def test_boards_that_trust_the_clubs_authority_play_a_whole_game_over_tls(tls_broker: tuple[Broker, str]) -> None:
    broker, ca = tls_broker
    boards = [board_for("klotz", 2, broker.port, index, seed=4, ca_file=ca) for index in range(2)]
    try:
        run_until(boards, lambda: finished(boards))
        assert boards[1].moves() == boards[0].moves() and len(boards[0].moves()) > 0
        assert all(board.table.link.connected for board in boards)
    finally:
        for board in boards:
            board.table.link.close()


def test_a_board_that_does_not_trust_the_broker_stays_out_and_says_why(
    tls_broker: tuple[Broker, str], tmp_path: Path
) -> None:
    broker, _ = tls_broker
    stranger_ca, _, _ = club_certificates(tmp_path / "other", "stranger")  # another club's authority
    board = board_for("klotz", 2, broker.port, 1, ca_file=stranger_ca)
    try:
        run_until([board], lambda: any("cannot reach its broker" in line for line in board.said), seconds=20)
        assert not board.table.link.connected
        (reason,) = [line for line in board.said if "cannot reach its broker" in line]  # said once
        assert "certificate is not trusted" in reason and "ca_file" in reason
        assert "Error" not in reason and "Traceback" not in reason
    finally:
        board.table.link.close()


def test_the_reasons_a_broker_cannot_be_reached_are_said_in_words(tls_broker: tuple[Broker, str]) -> None:
    broker, ca = tls_broker
    nothing = BrokerSettings("g1", "127.0.0.1", free_port(), "g1", "pw-g1")
    assert "nothing listens on 127.0.0.1" in unreachable_reason(nothing)
    nowhere = BrokerSettings("g1", "no-such-host.invalid", 1883, "g1", "pw-g1")
    assert "no machine called no-such-host.invalid" in unreachable_reason(nowhere)
    plain = BrokerSettings("g1", "127.0.0.1", broker.port, "g1", "pw-g1")  # TLS port, plain client
    assert "did not answer as an MQTT broker" in unreachable_reason(plain)
    trusted = BrokerSettings("g1", "127.0.0.1", broker.port, "g1", "pw-g1", True, ca)
    assert "speaks TLS" in unreachable_reason(trusted)
