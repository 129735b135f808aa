"""The control channel between the scan loop and the screens: a screen's trouble never stops the loop."""

from __future__ import annotations

import pytest

from controller.service.control import CommandError, ControlChannel, Press


def test_commands_run_on_drain_and_answer_through_their_futures() -> None:
    channel = ControlChannel()
    done = channel.submit(Press("confirm"))
    refused = channel.submit(Press("reset"))
    broken = channel.submit(Press("menu"))
    bugs = []

    def execute(command: Press) -> str:
        if command.button == "reset":
            raise CommandError("there is no button 'reset'")
        if command.button == "menu":
            raise KeyError("menu")
        return f"{command.button} pressed"

    assert channel.drain(execute, lambda command, error: bugs.append((command, error))) == 3
    assert done.result() == "confirm pressed"
    with pytest.raises(CommandError, match="no button 'reset'"):
        refused.result()
    with pytest.raises(CommandError, match=r"^the board could not do that \(the log says why\)$"):
        broken.result()
    assert [command for command, _ in bugs] == [Press("menu")]
    assert channel.drain(execute) == 0


def test_a_failing_subscriber_is_dropped_and_the_others_still_hear() -> None:
    channel = ControlChannel()
    heard = []

    def broken(snapshot: object) -> None:
        raise RuntimeError("event loop is closed")

    channel.subscribe(broken)
    channel.subscribe(heard.append)
    assert channel.wanted
    problems = channel.publish("first")  # type: ignore[arg-type]
    assert problems == ["a screen stopped receiving the table: event loop is closed"]
    assert channel.publish("second") == []  # type: ignore[arg-type]
    assert heard == ["first", "second"] and channel.latest == "second"
