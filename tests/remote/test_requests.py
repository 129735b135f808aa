"""A take-back across boards, asked and answered from the boards' screens (docs/remote.md, rule 8):
two `tafel run` services on simulated boards in this process, through a real Mosquitto."""

from __future__ import annotations

from pathlib import Path

from controller.games import GAMES
from controller.service.control import Press
from controller.service.journal import Journal
from controller.service.loop import Service
from tests.remote.broker import Broker
from tests.remote.services import board_config, scan_until
from tests.remote.services import start as started


def start(path: Path, moves: list[str]) -> Service:
    text = path.read_text().replace("speed = 0", f"speed = 0\nbots = false\nmoves = {moves!r}".replace("'", '"'))
    path.write_text(text)
    return started(path)


def test_a_take_back_asked_on_one_board_and_accepted_on_the_other_takes_the_move_back_everywhere(
    broker: Broker, tmp_path: Path
) -> None:
    state = GAMES["klotz"].new_game(players=2, seed=3, max_plies=40)
    red = state.legal_actions()[0]
    yellow = state.apply(red).legal_actions()[0]
    red_text, yellow_text = state.action_to_str(red), state.apply(red).action_to_str(yellow)
    host = start(board_config("klotz", 2, "h", broker.port, tmp_path / "h"), [red_text])
    guest = start(board_config("klotz", 2, "g1", broker.port, tmp_path / "g1"), [yellow_text])
    boards = [host, guest]
    try:
        ply = lambda service: service.table.remote_play.role.ply  # noqa: E731
        scan_until(boards, lambda: ply(host) == 2 and ply(guest) == 2)
        scan_until(boards, lambda: host.table.remote_play.settled and guest.table.remote_play.settled)
        asked = host.table.control.submit(Press("undo"))
        scan_until(boards, lambda: guest.table.remote_play.table.asked == ("takeback", "h"))
        assert "asked to take back" in asked.result(1)
        assert any("Board h asks to take back" in line for line in _waiting(guest))
        answered = guest.table.control.submit(Press("confirm"))
        scan_until(boards, lambda: ply(host) == 1 and ply(guest) == 1)
        assert "accepted" in answered.result(1)
        scan_until(boards, lambda: host.session.tracker.state == guest.session.tracker.state == state.apply(red))
        assert [move.text for move in host.table.moves] == [red_text] == [move.text for move in guest.table.moves]
    finally:
        for service in boards:
            service.shutdown()
    recovery = Journal(tmp_path / "h" / "state").recover()
    assert recovery.game is not None and [entry["action"] for entry in recovery.game.actions] == [red_text]


def _waiting(service: Service) -> list[str]:
    from controller.web.views import viewer_parts

    seen = []
    service.table.control.subscribe(seen.append)
    service.table._changed = True
    service._scan()
    return viewer_parts(seen[-1], None, False)["waiting"]
