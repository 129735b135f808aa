"""`tafel relay`: a club's live page of every game its boards play (docs/remote.md, "The club relay").

A process of its own, for a club's server: it follows the broker with the relay account (public
records and presence only, the ACL says so) and serves one page that draws every game's board as the
web app does, refreshed from `/games.json` every half second, and each finished game as JSON and as
notation."""

from __future__ import annotations

import html
import logging
import threading
from functools import partial
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from controller.games import GAMES
from controller.remote import topics
from controller.remote.link import BrokerSettings, Link, LinkState
from controller.remote.relay import Relay
from controller.remote.table import handle_alone
from controller.table.board import board_map
from controller.web.views import board_geometry
from hal.profile import load_profile

log = logging.getLogger("tafel.relay")
_GEOMETRY: dict[tuple[str, int], dict[str, Any]] = {}


def geometry(title: str, players: int) -> dict[str, Any] | None:
    """Every field of a game's board with its name and centre, as the web app draws it."""
    key = (title, players)
    if key not in _GEOMETRY:
        game = GAMES.get(title)
        if game is None or players not in game.player_counts:
            return None
        state = game.new_game(players=players, seed=0)
        profile = load_profile(game.capabilities.board_profile)
        _GEOMETRY[key] = board_geometry(game, board_map(profile, game, state))
    return _GEOMETRY[key]


PAGE = Path(__file__).with_name("static") / "relay.html"


def relay_app(relay: Relay) -> Starlette:
    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    async def games(request: Request) -> Response:
        """Every game on the page; to a page that has this revision already (`?since=N`), only that
        nothing changed: a page open at a big event asks twice a second, and most asks find nothing
        new. Each board layout is sent once, however many games are played on it."""
        if request.query_params.get("since") == str(relay.revision):
            return JSONResponse({"revision": relay.revision, "unchanged": True})
        view = relay.view()
        layouts: dict[str, Any] = {}
        for game in view["games"]:
            layout = f"{game['title']}/{game['players']}"
            if layout not in layouts:
                layouts[layout] = geometry(game["title"], game["players"])
            game["layout"] = layout
        return JSONResponse({**view, "layouts": layouts})

    async def kept(request: Request) -> Response:
        name = str(request.path_params["name"])
        key, _, kind = name.rpartition(".")
        text = relay.record_json(key) if kind == "json" else relay.notation(key) if kind == "txt" else None
        if text is None:
            return PlainTextResponse(f"no game {html.escape(name)} here", status_code=404)
        media = "application/json" if kind == "json" else "text/plain; charset=utf-8"
        return Response(text, media_type=media, headers={"Content-Disposition": f'attachment; filename="{key}.{kind}"'})

    return Starlette(routes=[Route("/", page), Route("/games.json", games), Route("/games/{name}", kept)])


class RelayServer:
    """The relay's link to the broker and its page; `run` drains the link until stopped."""

    def __init__(self, settings: BrokerSettings, directory: Path, listen: str, port: int) -> None:
        self.relay = Relay(directory, log)
        self.link = Link(settings, follow=[topics.ALL_RECORDS, topics.ALL_PRESENCE], log=log)
        config = uvicorn.Config(relay_app(self.relay), host=listen, port=port, log_level="warning", log_config=None)
        self.server = uvicorn.Server(config)
        self.stopping = threading.Event()

    def run(self) -> None:
        """Serve the page and follow the broker until `stopping` is set."""
        web = threading.Thread(target=self.server.run, name="tafel-relay-web", daemon=True)
        web.start()
        try:
            self.follow()
        finally:
            self.server.should_exit = True
            web.join(timeout=5)

    def follow(self) -> None:
        """Follow the broker (what arrives, every 50 ms) until `stopping` is set."""
        self.link.start()
        try:
            while not self.stopping.is_set():
                for event in self.link.drain():
                    if isinstance(event, LinkState):
                        log.info("%s", event.reason or "connected to the broker")
                    else:  # one record the relay cannot take never stops it following the others
                        handle_alone(log, event.sender, partial(self.relay.heard, event))
                self.stopping.wait(0.05)
        finally:
            self.link.close()
