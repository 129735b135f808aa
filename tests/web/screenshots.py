"""Make the README's screenshots of the web app: `python -m tests.web.screenshots` (needs Chromium).

A Zillo game with dealt cards on the simulated board, while the board asks Red which card made its
move: Red's seat page with its hand and the candidates only Red may choose between
(docs/web-seat.png), and the table view, which says only which fields changed (docs/web-table.png);
and the lobby of a board on a broker inviting another board (docs/web-lobby-remote.png).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from tests.web.browser import chromium, served
from tests.web.harness import PIN, config_text, running_service
from tests.web.test_browser import css, show_seat_links, tap_field, wait

DOCS = Path(__file__).resolve().parents[2] / "docs"


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        tmp_path = Path(directory)
        text = config_text("zillo", options='hands = "dealt"')
        with (
            running_service(tmp_path, text) as service,
            served(service, tmp_path / "state", PIN) as server,
            chromium(1200, 1000) as driver,
        ):
            driver.get(server.url)
            show_seat_links(driver)
            wait(driver, lambda d: len(css(d, "#seats a.seat-link")) == 2)
            red = css(driver, "#seats a.seat-link")[0].get_attribute("href")
            driver.set_window_size(430, 1400)
            driver.get(red)  # Red's own page: its hand, and the moves only Red may choose between
            wait(driver, lambda d: "Red to move." in css(d, "#waiting")[0].text)
            tap_field(driver, "c12")
            tap_field(driver, "f12")
            wait(driver, lambda d: any(b.text == "C-E:c12-f12/1" for b in css(d, "#choices button")))
            next(b for b in css(driver, "#choices button") if b.text == "C-E:c12-f12/1").click()
            wait(driver, lambda d: len(css(d, "#candidates button.candidate")) == 6)
            next(b for b in css(driver, "#candidates button.candidate") if b.text == "C-EN:c12-f12/1").click()
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(str(DOCS / "web-seat.png"))
            driver.set_window_size(1200, 1000)
            driver.get(server.url)  # the table view: which fields changed, not which cards Red holds
            wait(driver, lambda d: len(css(d, "#candidates button.candidate")) == 1)
            driver.save_screenshot(str(DOCS / "web-table.png"))
    print(f"wrote {DOCS / 'web-table.png'} and {DOCS / 'web-seat.png'}")
    lobby_across_boards()


def lobby_across_boards() -> None:
    """The lobby of a board on a broker, about to invite board g1 to a seat (docs/web-lobby-remote.png)."""
    from controller.remote.broker import PrivateBroker
    from tests.remote.conftest import PASSWORDS
    from tests.remote.test_lobby_browser import (
        test_a_board_invites_another_from_its_lobby_and_the_other_accepts_on_its_own,
    )

    with tempfile.TemporaryDirectory() as directory:
        tmp_path = Path(directory)
        (tmp_path / "broker").mkdir()
        broker = PrivateBroker(tmp_path / "broker", PASSWORDS)
        broker.start()
        try:
            shot = DOCS / "web-lobby-remote.png"
            test_a_board_invites_another_from_its_lobby_and_the_other_accepts_on_its_own(broker, tmp_path, shot)
        finally:
            broker.stop()
    print(f"wrote {shot}")


if __name__ == "__main__":
    main()
