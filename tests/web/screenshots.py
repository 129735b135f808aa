"""Make the README's screenshots of the web app: `python -m tests.web.screenshots` (needs Chromium).

A Zillo game with dealt cards on the simulated board: the table view while the board asks which card
made a move (docs/web-table.png), and Yellow's seat page with its hand (docs/web-seat.png).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from tests.web.browser import chromium, served
from tests.web.harness import PIN, config_text, running_service
from tests.web.test_browser import css, tap_field, wait

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
            wait(driver, lambda d: "Red to move." in css(d, "#waiting")[0].text)
            tap_field(driver, "c12")
            tap_field(driver, "f12")
            wait(driver, lambda d: any(b.text == "C-E:c12-f12/1" for b in css(d, "#choices button")))
            next(b for b in css(driver, "#choices button") if b.text == "C-E:c12-f12/1").click()
            wait(driver, lambda d: len(css(d, "#candidates button.candidate")) == 6)
            next(b for b in css(driver, "#candidates button.candidate") if b.text == "C-EN:c12-f12/1").click()
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(str(DOCS / "web-table.png"))
            link = css(driver, "#seats a.seat-link")[1].get_attribute("href")
            driver.set_window_size(430, 1400)
            driver.get(link)
            wait(driver, lambda d: len(css(d, "#hand button.card")) > 0)
            driver.save_screenshot(str(DOCS / "web-seat.png"))
    print(f"wrote {DOCS / 'web-table.png'} and {DOCS / 'web-seat.png'}")


if __name__ == "__main__":
    main()
