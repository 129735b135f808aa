"""Inviting a board from the lobby in a real browser (headless Chromium): the inviting board's
lobby offers the boards online on the broker for a seat, the invited board's lobby (open before
the invitation came) shows it with Accept, and the game starts on both (docs/remote.md, "Inviting a board")."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest
from selenium.webdriver.support.ui import Select

from controller.service.loop import Service
from tests.remote.broker import Broker
from tests.remote.conftest import PASSWORDS
from tests.web.browser import browser_problem, chromium, served
from tests.web.harness import PIN, config_text, running_service
from tests.web.test_browser import css, wait

DOCS = Path(__file__).resolve().parents[2] / "docs"


def board_text(name: str, port: int) -> str:
    """The web tests' board (people play every seat) on the test's broker as board `name`."""
    return (
        config_text("klotz", 2)
        + f"""
[remote]
board = "{name}"
broker = "127.0.0.1"
port = {port}
password = "{PASSWORDS[name]}"
"""
    )


def lobby_ready(service: Service, other: str) -> bool:
    return service.remote is not None and service.remote.online.get(other, False)


def invite_and_accept(stack: ExitStack, broker: Broker, tmp_path: Path, shot: Path | None = None):
    """Boards h and g1 with their web apps; h invites g1 from its lobby, g1 accepts on its own (its
    lobby open before the invitation came). The services, their web apps and the browser, at g1's lobby."""
    (tmp_path / "h").mkdir()
    (tmp_path / "g1").mkdir()
    host = stack.enter_context(running_service(tmp_path / "h", board_text("h", broker.port)))
    guest = stack.enter_context(running_service(tmp_path / "g1", board_text("g1", broker.port)))
    host_web = stack.enter_context(served(host, tmp_path / "h" / "state", PIN))
    guest_web = stack.enter_context(served(guest, tmp_path / "g1" / "state", PIN))
    driver = stack.enter_context(chromium(1000, 1200))
    driver.get(guest_web.url + "lobby")
    wait(driver, lambda d: "This board is g1" in css(d, "#lobby-remote-status")[0].text)
    guest_tab = driver.current_window_handle
    wait(driver, lambda d: lobby_ready(host, "g1") and lobby_ready(guest, "h"))
    driver.switch_to.new_window("tab")
    driver.get(host_web.url + "lobby")
    wait(driver, lambda d: len(css(d, "#lobby-seats select")) == 2)
    seat = Select(css(driver, "#lobby-seats select")[1])
    wait(driver, lambda d: any(o.get_attribute("value") == "board:g1" for o in seat.options))
    seat.select_by_value("board:g1")
    css(driver, "#lobby-pin")[0].send_keys(PIN)
    if shot is not None:
        driver.save_screenshot(str(shot))
    css(driver, "#lobby-start")[0].click()
    wait(driver, lambda d: guest.remote is not None and "h" in guest.remote.lobby.received)
    driver.close()
    driver.switch_to.window(guest_tab)
    wait(driver, lambda d: "Board h invites this board to Klotz" in css(d, "#lobby-invitations")[0].text)
    css(driver, "#lobby-pin")[0].send_keys(PIN)
    accept = next(b for b in css(driver, "#lobby-invitations button") if b.text == "Accept")
    accept.click()
    wait(driver, lambda d: host.table.remote_play is not None and guest.table.remote_play is not None)
    return host, guest, host_web, guest_web, driver


def test_a_board_invites_another_from_its_lobby_and_the_other_accepts_on_its_own(
    broker: Broker, tmp_path: Path, shot: Path | None = None
) -> None:
    problem = browser_problem()
    if problem is not None:
        pytest.skip(problem)
    with ExitStack() as stack:
        host, guest, _, guest_web, driver = invite_and_accept(stack, broker, tmp_path, shot)
        assert host.table.remote_play.role.seats == guest.table.remote_play.role.seats == ("h", "g1")  # type: ignore[union-attr]
        driver.get(guest_web.url)
        wait(driver, lambda d: "across boards: h" in css(d, "#title")[0].text)


def test_a_board_resigns_from_its_table_page_and_both_tables_say_the_game_is_over(
    broker: Broker, tmp_path: Path
) -> None:
    """docs/remote.md, rule 10: the table pages of both boards say who resigned instead of whose turn
    it is, and offer neither a draw nor resigning any more."""
    problem = browser_problem()
    if problem is not None:
        pytest.skip(problem)
    with ExitStack() as stack:
        host, guest, host_web, guest_web, driver = invite_and_accept(stack, broker, tmp_path)
        driver.get(guest_web.url)
        wait(driver, lambda d: css(d, "#resign")[0].is_displayed())
        for pin in ("0000" if PIN != "0000" else "9999", PIN):  # a wrong table PIN first: refused
            css(driver, "#resign")[0].click()
            driver.switch_to.alert.accept()  # "Resign this game across boards?"
            prompt = driver.switch_to.alert  # "Table PIN to resign:"
            prompt.send_keys(pin)
            prompt.accept()
            if pin != PIN:
                wait(driver, lambda d: "wrong table PIN" in css(d, "#notice")[0].text)
                assert guest.table.remote_play.playing  # type: ignore[union-attr]
        wait(driver, lambda d: host.table.remote_play.ended is not None)  # type: ignore[union-attr]
        for web in (guest_web, host_web):
            driver.get(web.url)
            wait(driver, lambda d: css(d, "#turn")[0].text == "board g1 resigned")
            wait(driver, lambda d: "Game over: board g1 resigned." in css(d, "#waiting")[0].text)
            assert not css(driver, "#resign")[0].is_displayed() and not css(driver, "#offer-draw")[0].is_displayed()


def test_accepting_another_board_request_to_abandon_asks_the_table_pin(broker: Broker, tmp_path: Path) -> None:
    """docs/web.md, the principals: a yes that ends the game needs the table PIN on a page."""
    problem = browser_problem()
    if problem is not None:
        pytest.skip(problem)
    with ExitStack() as stack:
        host, guest, host_web, guest_web, driver = invite_and_accept(stack, broker, tmp_path)
        driver.get(guest_web.url)
        wait(driver, lambda d: css(d, "#abandon")[0].is_displayed())
        css(driver, "#abandon")[0].click()
        driver.switch_to.alert.accept()  # "Abandon this game?"
        driver.switch_to.alert.send_keys(PIN)
        driver.switch_to.alert.accept()
        wait(driver, lambda d: host.table.remote_play.table.asked == ("abandon", "g1"))  # type: ignore[union-attr]
        driver.get(host_web.url)
        wait(driver, lambda d: "Board g1 asks to abandon the game" in css(d, "#waiting")[0].text)
        assert "with the table PIN" in css(driver, "#waiting")[0].text
        css(driver, "#confirm")[0].click()
        prompt = driver.switch_to.alert
        assert "Table PIN to accept: board g1 asks to abandon the game" in prompt.text
        prompt.send_keys(PIN)
        prompt.accept()
        wait(driver, lambda d: host.table.remote_play.ended is not None)  # type: ignore[union-attr]
        wait(driver, lambda d: guest.table.remote_play.ended is not None)  # type: ignore[union-attr]
        assert host.table.remote_play.ended[0] == "abandoned"  # type: ignore[union-attr]
