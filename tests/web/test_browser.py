"""The web app in a real headless Chromium: the table view loads and draws the board, a move is played
by tapping a piece and a field, a candidate is confirmed by tapping it, and a seat page shows its own
hand only. Waits are for what the page shows, never for a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.games import load_game
from controller.games.seats import seat_name
from tests.web.browser import browser_problem, chromium, served
from tests.web.harness import PIN, config_text, running_service

PROBLEM = browser_problem()
pytestmark = pytest.mark.skipif(PROBLEM is not None, reason=f"browser tests cannot run: {PROBLEM}")
WAIT_S = 30  # the most a page may take to show what is waited for (it is never slept)


def wait(driver, condition):
    """Until `condition` holds; an element the page re-drew between finding and reading it (stale)
    only means "not yet"."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    waiting = WebDriverWait(driver, WAIT_S, ignored_exceptions=(StaleElementReferenceException,))
    return waiting.until(lambda d: condition(d))


def fields(driver):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, "#board g.field")


def css(driver, selector):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def tap_field(driver, name: str) -> None:
    css(driver, f'#board g.field[data-field="{name}"]')[0].click()


def show_seat_links(driver) -> None:
    """Ask for the seat links as the people at the table do: the button, then the table PIN."""
    wait(driver, lambda d: css(d, "#links-button") and css(d, "#links-button")[0].is_displayed())
    css(driver, "#links-button")[0].click()
    prompt = wait(driver, lambda d: d.switch_to.alert)
    prompt.send_keys(PIN)
    prompt.accept()


def move_texts(driver) -> list[str]:
    return [item.text for item in css(driver, "#moves li")]


def test_the_table_view_loads_and_a_move_is_played_by_tapping(tmp_path: Path) -> None:
    state = load_game("klotz").new_game(players=2, seed=0)
    move = state.action_to_str(state.legal_actions()[0])
    origin, target = move.split("-")
    with (
        running_service(tmp_path, config_text()) as service,
        served(service, tmp_path / "state", PIN) as server,
        chromium() as driver,
    ):
        driver.get(server.url)
        wait(driver, lambda d: len(fields(d)) == 196)
        wait(driver, lambda d: css(d, "#turn")[0].text == "Red to move")
        assert css(driver, "#link-state")[0].text == "connected"
        assert driver.execute_script("return document.querySelectorAll('#board circle.piece').length") == len(
            state.occupancy()
        )
        tap_field(driver, origin)
        wait(driver, lambda d: "now tap where it goes" in css(d, "#notice")[0].text)
        tap_field(driver, target)
        wait(driver, lambda d: move_texts(d) == [move])
        wait(driver, lambda d: css(d, "#turn")[0].text == f"Yellow to move — last move Red: {move}")
        assert [m.text for m in service.table.moves] == [move]


def test_a_candidate_is_confirmed_by_tapping_it(tmp_path: Path) -> None:
    text = config_text("zillo", options='hands = "dealt"')
    with (
        running_service(tmp_path, text) as service,
        served(service, tmp_path / "state", PIN) as server,
        chromium() as driver,
    ):
        driver.get(server.url)
        show_seat_links(driver)
        wait(driver, lambda d: len(css(d, "#seats a.seat-link")) == 2)
        driver.get(css(driver, "#seats a.seat-link")[0].get_attribute("href"))  # Red's own page
        wait(driver, lambda d: css(d, "#turn") and css(d, "#turn")[0].text == "Red to move")
        wait(driver, lambda d: "Red to move." in css(d, "#waiting")[0].text)
        tap_field(driver, "c12")
        tap_field(driver, "f12")
        wait(driver, lambda d: any(b.text == "C-E:c12-f12/1" for b in css(d, "#choices button")))
        next(b for b in css(driver, "#choices button") if b.text == "C-E:c12-f12/1").click()
        wait(driver, lambda d: len(css(d, "#candidates button.candidate")) == 6)
        assert "Which move" in css(driver, "#waiting")[0].text
        chosen = "C-EN:c12-f12/1"
        next(b for b in css(driver, "#candidates button.candidate") if b.text == chosen).click()
        marked = wait(driver, lambda d: {g.get_attribute("data-field") for g in css(d, "#board g.field.marked")})
        assert marked == {"c12", "f12"}  # the tapped candidate is drawn on the board
        next(b for b in css(driver, "#candidates button.candidate") if b.text == chosen).click()
        wait(driver, lambda d: move_texts(d) == [chosen])
        assert service.table.moves[0].text == chosen and service.table.moves[0].via == "declare"


def test_a_seat_page_shows_only_its_own_hand(tmp_path: Path) -> None:
    text = config_text("zillo", options='hands = "dealt"')
    with (
        running_service(tmp_path, text) as service,
        served(service, tmp_path / "state", PIN) as server,
        chromium() as driver,
    ):
        driver.get(server.url)
        wait(driver, lambda d: css(d, "#turn") and css(d, "#turn")[0].text == "Red to move")
        assert css(driver, "#seats a.seat-link") == []  # no links without the PIN
        show_seat_links(driver)
        wait(driver, lambda d: len(css(d, "#seats a.seat-link")) == 2)
        assert len(css(driver, "#seats img.qr")) == 2 and css(driver, "#hand button") == []
        link = css(driver, "#seats a.seat-link")[1].get_attribute("href")
        state = service.session.state
        driver.get(link)
        wait(driver, lambda d: len(css(d, "#hand button.card")) > 0)
        cards = [button.text for button in css(driver, "#hand button.card")]
        assert cards == state.observation(1)["hand"]
        assert css(driver, "#you-name")[0].text.startswith(f"You play {seat_name(state, 1)}")
        public = css(driver, "#public")[0].get_attribute("textContent")
        assert '"hand": null' in public  # the public part of the page holds no hand
        driver.get(server.url)  # the table view: no links until asked for, nobody's hand is there
        wait(driver, lambda d: "(joined)" in css(d, "#seats")[0].text)
        assert css(driver, "#seats a.seat-link") == [] and css(driver, "#hand button") == []
        show_seat_links(driver)  # with the PIN: the joined seat's link is no longer listed
        wait(driver, lambda d: len(css(d, "#seats a.seat-link")) == 1)
