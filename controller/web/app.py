"""The table's web app: pages, a JSON API and one WebSocket per page, on Starlette.

`Hub` keeps the latest snapshot of the table and every open page. The scan loop hands it snapshots
from its own thread (`offer`); the hub builds each kind of message once per snapshot (the table view,
each seat's view, the health view) and gives every page only the latest one, so a slow phone misses
intermediate pictures instead of queueing them, and nothing a page does can hold up a scan.

A page's WebSocket is `/ws` (the table view), `/ws?seat=TOKEN` (a seat page), `/ws?view=watch` (a
spectator) or `/ws?view=health`. Messages from pages are checked by `protocol.py`, let through (or
not) by `access.py`, turned into service commands and answered with a `reply` or an `error` in words
(docs/web.md, Security).
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
from urllib.parse import urlsplit

import segno
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.bots import BOTS
from controller.games import GAMES, Game, load_game
from controller.games.public import has_hidden_hands
from controller.games.seats import seat_name
from controller.service.archive import Archive, ArchivedGame, ArchiveError, notation_text
from controller.service.control import OLD_SEAT, Command, CommandError, ControlChannel, InGame, ShowPin, Snapshot
from controller.service.option_files import option_files
from controller.service.table_control import HUMAN
from controller.table.board import fits
from controller.web.access import TABLE, Principal, acting_seat, may_hear_rules, refusal_words
from controller.web.guard import MessageRate, PageCount, PinGuard
from controller.web.names import BoardNames, OwnNamesOnly
from controller.web.protocol import ADMIN, ProtocolError, command_of, parse_message
from controller.web.replay import replay_view
from controller.web.seats import SeatLinks
from controller.web.views import health_view, seat_view, table_view, viewer_parts

STATIC = Path(__file__).parent / "static"
PAGES = ("/", "/lobby", "/history", "/health", "/watch")
VIEWS = {"watch": "watch", "health": "health"}  # ?view=... -> the page's role
COMMAND_TIMEOUT_S = 5.0
STALE_LINK = "this seat link is not for the game now on the board; ask for the new one on the table view"
TOO_MANY_PAGES = "too many pages open from this device; close some and reload"
OTHER_SITE = "a page of another site may not connect to the board"
PIN_SHOW_EVERY_S = 60.0  # the PIN covers the game's lights: at most once a minute, whoever asks
SLOW_DOWN = "too many messages: slow down"
BROKEN_VIEW = "the board could not draw this page (the log says why); it keeps trying"
SECRET_RECORD = "this game is not over and its hands are hidden: its record needs the table PIN (?pin=...)"
log = logging.getLogger("tafel.web")


@dataclass(eq=False)
class Page:
    """One open page: who it is, and the latest message it has not been sent yet."""

    socket: WebSocket
    principal: Principal
    address: str
    rate: MessageRate
    game_id: str | None = None  # a seat page's game: another game on the board ends the page
    closing: bool = False
    pending: str | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class Hub:
    """The latest snapshot, the pages, and the way between them (see the module docstring)."""

    def __init__(self, control: ControlChannel, seats: SeatLinks, pin: str, state_dir: str | Path = ".") -> None:
        self.control = control
        self.seats = seats
        self.pin = pin  # never sent to a page: the board shows it (docs/web.md)
        self.pins = PinGuard(pin)
        self.state_dir = Path(state_dir)
        self.pages: set[Page] = set()
        self.page_count = PageCount()
        self.snapshot: Snapshot | None = control.latest
        self.loop: asyncio.AbstractEventLoop | None = None
        self._scheduled = False
        self._viewed: tuple[Snapshot, dict[str, Any]] | None = None
        self.sent = 0  # messages handed to pages (for the bench)
        self.clock: Callable[[], float] = time.monotonic  # seconds, for the limits (a parameter in tests)
        self._pin_shown_at: float | None = None

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
            if snapshot.board.sensors_only and page.principal.role != "health":
                continue  # only the live sensor map changed: the other pages show nothing of it
            self._hand(page, self._message_for(page, snapshot, made))

    def _broadcast_one(self, page: Page) -> None:
        if self.snapshot is not None:
            self._hand(page, self._message_for(page, self.snapshot, {}))

    def _message_for(self, page: Page, snapshot: Snapshot, made: dict[object, str]) -> str:
        """What `page` is sent for `snapshot`; `made` keeps the messages built for this snapshot."""
        principal = page.principal
        key: object
        if principal.role == "health":
            key = "health"
        elif principal.role == "seat" and page.game_id != snapshot.position.game_id:
            # A new game: this phone's seat was in the old one. It joins the new one by its link.
            page.closing = True
            key = "stale"
        else:
            key = principal.seat if principal.role == "seat" else "table"
        if key not in made:
            try:
                made[key] = self._build(key, snapshot)
            except Exception:  # one page's view failing never stops the others
                log.exception("the %s view of revision %d failed", key, snapshot.revision)
                made[key] = json.dumps({"type": "error", "message": BROKEN_VIEW})
        return made[key]

    def _build(self, key: object, snapshot: Snapshot) -> str:
        if key == "health":
            return json.dumps(health_view(snapshot))
        if key == "stale":
            return json.dumps({"type": "error", "message": STALE_LINK})
        if key == "table":
            return self.table_message(snapshot)
        assert isinstance(key, int)
        return self.seat_message(snapshot, key)

    def _view(self, snapshot: Snapshot) -> dict[str, Any]:
        """The public table view of `snapshot`, built once and shared by every page."""
        if self._viewed is None or self._viewed[0] is not snapshot:
            self._viewed = (snapshot, table_view(snapshot))
        return self._viewed[1]

    def _hand(self, page: Page, message: str) -> None:
        page.pending = message
        page.ready.set()

    def table_message(self, snapshot: Snapshot) -> str:
        """The table view and the spectators' message: public only. Seat links are not in it (they
        go to a page that proves the PIN)."""
        view = dict(self._view(snapshot))
        joined = self.seats.joined() if self.seats.game_id == snapshot.position.game_id else set()
        view["seats"] = [{**seat, "joined": seat["seat"] in joined} for seat in view["seats"]]
        return json.dumps(view)

    def seat_message(self, snapshot: Snapshot, seat: int) -> str:
        """A seat page's message: the public view with that seat's own parts."""
        view = dict(self._view(snapshot))
        view.update(viewer_parts(snapshot, seat, view["hidden_hands"]))
        view["you"] = seat_view(snapshot, seat)
        return json.dumps(view)

    def links(self, snapshot: Snapshot) -> list[dict[str, Any]]:
        """The join link of every seat people play (for a page that proved the PIN; a bot's hand is
        nobody's to see), and whether a phone joined it."""
        tokens = self.seats.tokens(snapshot.position.game_id, snapshot.position.state.players)
        joined = self.seats.joined()
        return [
            {
                "seat": seat,
                "name": seat_name(snapshot.position.state, seat),
                "link": f"/seat/{token}",
                "joined": seat in joined,
            }
            for seat, token in enumerate(tokens)
            if seat >= len(snapshot.position.seats) or snapshot.position.seats[seat] == HUMAN
        ]

    def seat_for(self, token: str | None) -> int | None:
        snapshot = self.snapshot
        if token is None or snapshot is None:
            return None
        return self.seats.seat_of(snapshot.position.game_id, token)

    async def serve(self, socket: WebSocket) -> None:
        """One page's WebSocket, from accept to close."""
        token = socket.query_params.get("seat")
        view = socket.query_params.get("view")
        address = socket.client.host if socket.client is not None else "?"
        await socket.accept()
        if not same_site(socket.headers.get("origin"), socket.headers.get("host")):
            await self._refuse(socket, OTHER_SITE, 1008)
            return
        if not self.page_count.open(address):
            await self._refuse(socket, TOO_MANY_PAGES, 1008)
            return
        try:
            principal = self._principal(token, view)
            if principal is None:
                message = STALE_LINK if token is not None else f"there is no view {view!r} (views: watch, health)"
                await self._refuse(socket, message, 4404)
                return
            await self._serve_page(socket, principal, address)
        finally:
            self.page_count.close(address)

    def _principal(self, token: str | None, view: str | None) -> Principal | None:
        if token is not None:
            seat = self.seat_for(token)
            return None if seat is None else Principal("seat", seat)
        if view is None:
            return TABLE
        role = VIEWS.get(view)
        return None if role is None else Principal(role)  # type: ignore[arg-type]

    async def _refuse(self, socket: WebSocket, message: str, code: int) -> None:
        with contextlib.suppress(Exception):
            await socket.send_text(json.dumps({"type": "error", "message": message}))
            await socket.close(code=code)

    async def _serve_page(self, socket: WebSocket, principal: Principal, address: str) -> None:
        snapshot = self.snapshot
        page = Page(
            socket, principal, address, MessageRate(self.clock()), snapshot.position.game_id if snapshot else None
        )
        if principal.role == "health":
            self.control.sensor_watchers += 1
        if principal.seat is not None:
            self.seats.join(principal.seat)
            self.offer_again()
        self.pages.add(page)
        if self.snapshot is not None:
            self._broadcast_one(page)
        sender = asyncio.create_task(self._send(page))
        try:
            while not page.closing:
                frame = await socket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                if not page.rate.allow(self.clock()):
                    if page.rate.abusive:
                        await self._refuse(socket, SLOW_DOWN + "; this page is closed", 1008)
                        break
                    await socket.send_text(json.dumps({"type": "error", "message": SLOW_DOWN}))
                    continue
                text = frame.get("text")
                await self._answer(page, text if text is not None else frame.get("bytes") or b"")
        except (WebSocketDisconnect, RuntimeError):
            pass  # the page went away (RuntimeError: it closed while we answered)
        finally:
            self.pages.discard(page)
            sender.cancel()
            if principal.role == "health":
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

    async def _answer(self, page: Page, text: str | bytes) -> None:
        reply: dict[str, Any] = {"type": "reply"}
        snapshot = self.snapshot
        seat: int | None = None
        try:
            message = parse_message(text)
            if "id" in message:
                reply["id"] = message["id"]
            if page.principal.role == "seat" and snapshot is not None and page.game_id != snapshot.position.game_id:
                raise ProtocolError(OLD_SEAT)  # (its page is being closed: another game is on)
            seat = acting_seat(page.principal, message, snapshot)
            kind = message["type"]
            if kind in ADMIN:
                refused = self.pins.check(page.address, message["pin"], self.clock())
                if refused is not None:
                    raise ProtocolError(refused)
            if kind == "links":
                if snapshot is None:
                    raise ProtocolError("the board has not started a game yet")
                reply["links"] = self.links(snapshot)
                reply["message"] = "the seat links: each opens one seat's page"
            elif kind == "show_pin":
                reply["message"] = await self.show_pin()
            else:
                principal = page.principal
                command = command_of(message, seat, principal.role == "seat", principal.seat)
                if principal.role == "seat" and page.game_id is not None:
                    command = InGame(page.game_id, command)  # judged again where the loop carries it out
                reply["message"] = await self.run(command)
        except ProtocolError as error:
            reply.update(type="error", message=str(error))
            if error.message_id is not None:
                reply["id"] = error.message_id
        except CommandError as error:
            reply.update(type="error", message=refusal_words(page.principal, seat, snapshot, error))
            if error.choices and may_hear_rules(page.principal, seat, snapshot):
                reply["choices"] = list(error.choices)
        except Exception:  # a bug: the page hears that it failed, the log why; the table goes on
            log.exception("a message from a page failed: %.200r", text)
            reply.update(type="error", message="the board could not do that (the log says why)")
        await page.socket.send_text(json.dumps(reply))

    async def show_pin(self) -> str:
        """Light the PIN on the board, at most once a minute (else a page could hide the game's lights)."""
        now = self.clock()
        if self._pin_shown_at is not None and now - self._pin_shown_at < PIN_SHOW_EVERY_S:
            wait = PIN_SHOW_EVERY_S - (now - self._pin_shown_at)
            raise ProtocolError(f"the board showed the PIN a moment ago; it can show it again in {wait:.0f} s")
        said = await self.run(ShowPin(self.pin))
        self._pin_shown_at = now
        return said

    async def run(self, command: Command) -> str:
        """Hand a command to the scan loop and wait for its answer."""
        future: Future[str] = self.control.submit(command)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), COMMAND_TIMEOUT_S)
        except TimeoutError:
            raise CommandError("the board did not answer in time; is it still running?") from None


def same_site(origin: str | None, host: str | None) -> bool:
    """Whether a WebSocket comes from the board's own pages: browsers name the page's site in
    `Origin`; one of another site (a page on the internet, open on a phone at the table) may not
    connect. Programs that send no `Origin` (a script, a bench) are not browsers' pages."""
    if origin is None:
        return True
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


# --- HTTP -------------------------------------------------------------------------------------------


def lobby_data(hub: Hub, archive: Archive) -> dict[str, Any]:
    snapshot = hub.snapshot
    games = []
    for game in GAMES.values():
        files = option_files(hub.state_dir, game)
        games.append(
            {
                "name": game.name,
                "title": game.title,
                "players": list(game.player_counts),
                "fits": snapshot is None or _fits(snapshot, game),
                "options": [_option(option, files.get(option.name)) for option in game.options],
            }
        )
    current = None
    if snapshot is not None:
        state = snapshot.position.state
        current = {
            "game": snapshot.position.game.name,
            "title": snapshot.position.game.title,
            "players": state.players,
            "moves": len(snapshot.position.moves),
            "terminal": state.is_terminal(),
            "seats": list(snapshot.position.seats),
        }
    resumable = [
        summary_of(archive, record)
        for record in archive.games()
        if record.status == "abandoned" and (snapshot is None or _fits(snapshot, GAMES[record.start["game"]]))
    ]
    lobby = snapshot.lobby if snapshot is not None else None
    remote = None
    if lobby is not None:
        remote = {
            "me": lobby.me,
            "online": list(lobby.online),
            "invitations": [
                {
                    "board": board,
                    "game": GAMES[title].title if title in GAMES else title,
                    "players": players,
                    "seats": [s + 1 for s in seats],
                }
                for board, title, players, seats in lobby.invitations
            ],
            "waiting_for": list(lobby.waiting_for),
        }
    return {"games": games, "bots": ["human", *BOTS], "current": current, "resumable": resumable, "remote": remote}


def _option(option: Any, files: list[str] | None) -> dict[str, Any]:
    """An option for the lobby; one that names a file lists the files the board knows (`choices`):
    a page chooses one by name, never by path."""
    described: dict[str, Any] = {"name": option.name, "default": option.default, "doc": option.doc}
    if files is not None:
        described.update(default=files[0], choices=files, doc=option.doc.replace("path of", "one of the known"))
    return described


def _fits(snapshot: Snapshot, game: Game) -> bool:
    return fits(snapshot.board.map.profile, game, snapshot.board.map.model_name)


def summary_of(archive: Archive, record: ArchivedGame) -> dict[str, Any]:
    """A game of the history as its lists show it; `held`: the disk has not taken it yet."""
    return {**record.summary(), "held": archive.held(record.game_id)}


def _hides_hands(record: ArchivedGame) -> bool:
    """Whether the recorded game's hands are hidden from the other seats (read from its start)."""
    try:
        game = load_game(record.start["game"])
        options = game.resolve_options(record.start.get("options", {}))
        return has_hidden_hands(game.new_game(players=record.start["players"], seed=0, **options))
    except (ValueError, KeyError, TypeError):
        return True  # a record the board cannot read is kept as private as one that hides hands


def build_app(hub: Hub, archive: Archive, names: BoardNames, on_startup: Callable[[], None] | None = None) -> Starlette:
    """The web app over a hub, answering to the board's `names` only; `on_startup` runs on the
    server's event loop once it is up."""

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def lobby(request: Request) -> Response:
        return JSONResponse(lobby_data(hub, archive))

    async def history(request: Request) -> Response:
        return JSONResponse({"games": [summary_of(archive, record) for record in archive.games()]})

    def record_of(request: Request) -> ArchivedGame | Response:
        """The record a request names; an unfinished game with hidden hands only with the PIN (its
        start and moves would tell the hands of a game that may still be resumed)."""
        try:
            record = archive.get(request.path_params["game_id"])
        except ArchiveError as error:
            return PlainTextResponse(str(error), status_code=404)
        if record.status != "finished" and _hides_hands(record):
            address = request.client.host if request.client is not None else "?"
            given = request.query_params.get("pin")
            refused = SECRET_RECORD if given is None else hub.pins.check(address, given, hub.clock())
            if refused is not None:
                return PlainTextResponse(refused, status_code=403)
        return record

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
            return JSONResponse(replay_view(record, snapshot.board.map.profile if snapshot else None))
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
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(OwnNamesOnly, names=names)])
