"""The table's web app: pages, a JSON API and one WebSocket per page, on Starlette.

`Hub` keeps the latest snapshot of the table and every open page. The scan loop hands it snapshots
from its own thread (`offer`); the hub builds each kind of message once per snapshot (the table view,
each seat's view, the health view) and gives every page only the latest one, so a slow phone misses
intermediate pictures instead of queueing them, and nothing a page does can hold up a scan.

A page's WebSocket is `/ws` (the table view), `/ws?seat=TOKEN` (a seat page) or `/ws?view=health`.
Messages from pages are checked by `protocol.py`, turned into service commands and answered with a
`reply` or an `error`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import segno
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.bots import BOTS
from controller.games import GAMES, Game
from controller.service.archive import Archive, ArchiveError, notation_text
from controller.service.control import Command, CommandError, ControlChannel, Snapshot
from controller.table.board import fits
from controller.web.protocol import ADMIN, ProtocolError, command_of, parse_message
from controller.web.replay import replay_view
from controller.web.seats import SeatLinks
from controller.web.views import health_view, seat_view, table_view

STATIC = Path(__file__).parent / "static"
PAGES = ("/", "/lobby", "/history", "/health")
PIN_TRIES = 5  # wrong PINs in a row before admin messages wait
PIN_WAIT_S = 30.0
COMMAND_TIMEOUT_S = 5.0
STALE_LINK = "this seat link is not for the game now on the board; ask for the new one on the table view"
log = logging.getLogger("tafel.web")


@dataclass(eq=False)
class Page:
    """One open page: what it is, and the latest message it has not been sent yet."""

    socket: WebSocket
    seat: int | None = None
    health: bool = False
    game_id: str | None = None  # a seat page's game: another game on the board ends the page
    closing: bool = False
    pending: str | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class Hub:
    """The latest snapshot, the pages, and the way between them (see the module docstring)."""

    def __init__(self, control: ControlChannel, seats: SeatLinks, pin: str, show_pin: bool) -> None:
        self.control = control
        self.seats = seats
        self.pin = pin
        self.show_pin = show_pin
        self.pages: set[Page] = set()
        self.snapshot: Snapshot | None = control.latest
        self.loop: asyncio.AbstractEventLoop | None = None
        self._scheduled = False
        self._wrong_pins = 0
        self._locked_until = 0.0
        self._lockouts = 0
        self._viewed: tuple[Snapshot, dict[str, Any]] | None = None
        self.sent = 0  # messages handed to pages (for the bench)

    # --- from the scan loop's thread --------------------------------------------------------------
    def offer(self, snapshot: Snapshot) -> None:
        """A new snapshot (called on the scan loop's thread: only hands it over)."""
        self.snapshot = snapshot
        loop = self.loop
        if loop is not None and not self._scheduled:
            self._scheduled = True
            try:
                loop.call_soon_threadsafe(self._broadcast)
            except RuntimeError:  # the server has stopped: nobody to tell
                self.loop = None

    # --- on the web server's event loop -----------------------------------------------------------
    def _broadcast(self) -> None:
        self._scheduled = False
        snapshot = self.snapshot
        if snapshot is None or not self.pages:
            return
        made: dict[object, str] = {}  # each kind of message once per snapshot: table, health, per seat
        for page in list(self.pages):
            if snapshot.sensors_only and not page.health:
                continue  # only the live sensor map changed: the other pages show nothing of it
            self._hand(page, self._message_for(page, snapshot, made))

    def _broadcast_one(self, page: Page) -> None:
        if self.snapshot is not None:
            self._hand(page, self._message_for(page, self.snapshot, {}))

    def _message_for(self, page: Page, snapshot: Snapshot, made: dict[object, str]) -> str:
        """What `page` is sent for `snapshot`; `made` keeps the messages built for this snapshot."""
        if page.health:
            key: object = "health"
        elif page.seat is not None and page.game_id != snapshot.game_id:
            # A new game: this phone's seat was in the old one. It joins the new one by its link.
            page.closing = True
            key = "stale"
        else:
            key = page.seat  # None: the table view
        if key not in made:
            made[key] = self._build(key, snapshot)
        return made[key]

    def _build(self, key: object, snapshot: Snapshot) -> str:
        if key == "health":
            return json.dumps(health_view(snapshot))
        if key == "stale":
            return json.dumps({"type": "error", "message": STALE_LINK})
        if key is None:
            return self.table_message(snapshot)
        assert isinstance(key, int)
        return self.seat_message(snapshot, key)

    def _view(self, snapshot: Snapshot) -> dict[str, Any]:
        """The table view of `snapshot`, built once and shared by the table and every seat page."""
        if self._viewed is None or self._viewed[0] is not snapshot:
            self._viewed = (snapshot, table_view(snapshot))
        return self._viewed[1]

    def _hand(self, page: Page, message: str) -> None:
        page.pending = message
        page.ready.set()

    def table_message(self, snapshot: Snapshot) -> str:
        view = dict(self._view(snapshot))
        tokens = self.seats.tokens(snapshot.game_id, snapshot.state.players)
        joined = self.seats.joined()
        view["seats"] = [
            {
                **seat,
                "link": None if seat["seat"] in joined else f"/seat/{tokens[seat['seat']]}",
                "joined": seat["seat"] in joined,
            }
            for seat in view["seats"]
        ]
        view["pin"] = self.pin if self.show_pin else None
        return json.dumps(view)

    def seat_message(self, snapshot: Snapshot, seat: int) -> str:
        view = dict(self._view(snapshot))
        view["seats"] = [{**entry, "link": None} for entry in view["seats"]]
        view["you"] = seat_view(snapshot, seat)
        return json.dumps(view)

    def seat_for(self, token: str | None) -> int | None:
        snapshot = self.snapshot
        if token is None or snapshot is None:
            return None
        return self.seats.seat_of(snapshot.game_id, token)

    async def serve(self, socket: WebSocket) -> None:
        """One page's WebSocket, from accept to close."""
        token = socket.query_params.get("seat")
        view = socket.query_params.get("view")
        await socket.accept()
        seat = self.seat_for(token) if token is not None else None
        if token is not None and seat is None:
            await socket.send_text(json.dumps({"type": "error", "message": STALE_LINK}))
            await socket.close(code=4404)
            return
        page = Page(socket, seat, view == "health", self.snapshot.game_id if self.snapshot else None)
        if page.health:
            self.control.sensor_watchers += 1
        if seat is not None:
            self.seats.join(seat)
            self.offer_again()
        self.pages.add(page)
        if self.snapshot is not None:
            self._broadcast_one(page)
        sender = asyncio.create_task(self._send(page))
        try:
            while True:
                text = await socket.receive_text()
                await self._answer(page, text)
        except WebSocketDisconnect:
            pass
        finally:
            self.pages.discard(page)
            sender.cancel()
            if page.health:
                self.control.sensor_watchers -= 1

    def offer_again(self) -> None:
        """The pages' picture changed without a new snapshot (a seat joined)."""
        if self.snapshot is not None and self.loop is not None and not self._scheduled:
            self._scheduled = True
            self.loop.call_soon(self._broadcast)

    async def _send(self, page: Page) -> None:
        try:
            while True:
                await page.ready.wait()
                page.ready.clear()
                message, page.pending = page.pending, None
                if message is not None:
                    await page.socket.send_text(message)
                    self.sent += 1
                if page.closing:
                    await page.socket.close(code=4404)
                    return
        except Exception:  # the page went away while we sent
            self.pages.discard(page)

    async def _answer(self, page: Page, text: str) -> None:
        reply: dict[str, Any] = {"type": "reply"}
        try:
            message = parse_message(text)
            if "id" in message:
                reply["id"] = message["id"]
            if message["type"] in ADMIN:
                self._check_pin(message.get("pin", ""))
            command = command_of(message, page.seat)
            reply["message"] = await self.run(command)
        except (ProtocolError, CommandError) as error:
            reply["type"] = "error"
            reply["message"] = str(error)
            choices = getattr(error, "choices", ())
            if choices:
                reply["choices"] = list(choices)
        except Exception:  # a bug: the page hears that it failed, the log why; the table goes on
            log.exception("a message from a page failed: %.200s", text)
            reply = {**reply, "type": "error", "message": "the board could not do that (the log says why)"}
        await page.socket.send_text(json.dumps(reply))

    def _check_pin(self, pin: str) -> None:
        now = time.monotonic()
        if now < self._locked_until:
            raise ProtocolError(f"too many wrong PINs: try again in {self._locked_until - now:.0f} s")
        if pin.strip() != self.pin:
            self._wrong_pins += 1
            if self._wrong_pins >= PIN_TRIES:  # each lock-out twice as long: guessing takes forever
                self._wrong_pins = 0
                self._locked_until = now + PIN_WAIT_S * 2 ** min(self._lockouts, 10)
                self._lockouts += 1
            raise ProtocolError("wrong table PIN (it is shown on the table view, or set in the configuration)")
        self._wrong_pins = 0

    async def run(self, command: Command) -> str:
        """Hand a command to the scan loop and wait for its answer."""
        future: Future[str] = self.control.submit(command)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), COMMAND_TIMEOUT_S)
        except TimeoutError:
            raise CommandError("the board did not answer in time; is it still running?") from None


# --- HTTP -------------------------------------------------------------------------------------------


def lobby_data(hub: Hub, archive: Archive) -> dict[str, Any]:
    snapshot = hub.snapshot
    games = []
    for game in GAMES.values():
        games.append(
            {
                "name": game.name,
                "title": game.title,
                "players": list(game.player_counts),
                "fits": snapshot is None or _fits(snapshot, game),
                "options": [
                    {"name": option.name, "default": option.default, "doc": option.doc} for option in game.options
                ],
            }
        )
    current = None
    if snapshot is not None:
        state = snapshot.state
        current = {
            "game": snapshot.game.name,
            "title": snapshot.game.title,
            "players": state.players,
            "moves": len(snapshot.moves),
            "terminal": state.is_terminal(),
            "seats": list(snapshot.seats),
        }
    resumable = [
        record.summary()
        for record in archive.games()
        if record.status == "abandoned" and (snapshot is None or _fits(snapshot, GAMES[record.start["game"]]))
    ]
    return {"games": games, "bots": ["human", *sorted(BOTS)], "current": current, "resumable": resumable}


def _fits(snapshot: Snapshot, game: Game) -> bool:
    return fits(snapshot.board.profile, game, snapshot.board.model_name)


def build_app(hub: Hub, archive: Archive, on_startup: Callable[[], None] | None = None) -> Starlette:
    """The web app over a hub; `on_startup` runs on the server's event loop once it is up."""

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def lobby(request: Request) -> Response:
        return JSONResponse(lobby_data(hub, archive))

    async def history(request: Request) -> Response:
        return JSONResponse({"games": [record.summary() for record in archive.games()]})

    def record_of(request: Request):
        try:
            return archive.get(request.path_params["game_id"])
        except ArchiveError as error:
            return PlainTextResponse(str(error), status_code=404)

    async def history_json(request: Request) -> Response:
        record = record_of(request)
        if isinstance(record, Response):
            return record
        headers = {"Content-Disposition": f'attachment; filename="{record.start["game"]}-{record.game_id}.json"'}
        return JSONResponse(record.to_json(), headers=headers)

    async def history_text(request: Request) -> Response:
        record = record_of(request)
        if isinstance(record, Response):
            return record
        headers = {"Content-Disposition": f'attachment; filename="{record.start["game"]}-{record.game_id}.txt"'}
        return PlainTextResponse(notation_text(record), headers=headers)

    async def history_replay(request: Request) -> Response:
        record = record_of(request)
        if isinstance(record, Response):
            return record
        snapshot = hub.snapshot
        try:
            return JSONResponse(replay_view(record, snapshot.board.profile if snapshot else None))
        except (ArchiveError, ValueError) as error:
            return PlainTextResponse(str(error), status_code=409)

    async def qr(request: Request) -> Response:
        link = request.query_params.get("link", "")
        if not link.startswith("/seat/") or len(link) > 80:
            return PlainTextResponse("a QR code is made for a seat link only", status_code=400)
        url = str(request.base_url).rstrip("/") + link
        out = io.BytesIO()
        segno.make(url, error="m").save(out, kind="svg", scale=4, border=2)
        return Response(out.getvalue(), media_type="image/svg+xml")

    async def socket(websocket: WebSocket) -> None:
        await hub.serve(websocket)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        if on_startup is not None:
            on_startup()
        yield

    routes = [
        *(Route(path, page) for path in PAGES),
        Route("/seat/{token}", page),
        Route("/api/lobby", lobby),
        Route("/api/history", history),
        Route("/api/history/{game_id}.json", history_json),
        Route("/api/history/{game_id}.txt", history_text),
        Route("/api/history/{game_id}/replay", history_replay),
        Route("/api/qr.svg", qr),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
