"""Seat links: one unguessable token per seat and game, so a phone that opens the link plays that seat
and sees that seat's hand, and nobody else does.

Tokens are 128 random bits (`secrets.token_urlsafe(16)`), made when a game is first seen and kept in
the state directory, so phones keep their seat across a restart of the board. The table view shows a
seat's join link (and its QR code) until a phone has opened it; after that only that phone needs it.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import threading
from pathlib import Path

from controller.files import UnreadableFile, read_text
from controller.service.disk import atomic_write, trouble_of

log = logging.getLogger("tafel.web")

SEATS_FILE = "web-seats.json"
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what secrets.token_urlsafe writes


class SeatLinks:
    def __init__(self, state_dir: str | Path) -> None:
        self._path = Path(state_dir) / SEATS_FILE
        self._lock = threading.Lock()
        self._unsaved = False  # the last write failed (said once in the log)
        self._game_id: str | None = None
        self._tokens: list[str] = []
        self._joined: set[int] = set()
        self._load()

    def _load(self) -> None:
        if not self._path.exists() and not self._path.is_symlink():
            return  # none kept yet: a first start
        try:
            data = json.loads(read_text(self._path, "the seat links"))
            self._game_id = str(data["game_id"])
            self._tokens = [str(token) for token in data["tokens"]]
            if not all(TOKEN.fullmatch(token) for token in self._tokens):
                raise ValueError("a seat link that is not one")
            self._joined = {int(seat) for seat in data.get("joined", [])}
        except UnreadableFile as error:
            self._forget(str(error))
        except (ValueError, KeyError, TypeError, AttributeError):
            self._forget(f"{self._path} is not a file of seat links")

    def _forget(self, why: str) -> None:
        """New links for the game: the phones that held the old ones must be given the new (said,
        for the person who wonders why their phone lost its seat)."""
        self._game_id, self._tokens, self._joined = None, [], set()
        log.warning(
            "seat links: %s; the phones need the game's new seat links (listed to an admin on the table view)", why
        )

    def _save(self) -> None:
        data = {"game_id": self._game_id, "tokens": self._tokens, "joined": sorted(self._joined)}
        try:
            atomic_write(self._path, json.dumps(data).encode("utf-8"))
        except OSError as error:  # the links still work until the next restart
            if not self._unsaved:
                log.warning("seat links: not kept (%s): the phones keep their seats until a restart", trouble_of(error))
            self._unsaved = True
        else:
            self._unsaved = False

    def tokens(self, game_id: str, players: int) -> list[str]:
        """The seats' tokens for this game (new ones for a new game)."""
        with self._lock:
            if game_id != self._game_id or len(self._tokens) != players:
                self._game_id = game_id
                self._tokens = [secrets.token_urlsafe(16) for _ in range(players)]
                self._joined = set()
                self._save()
            return list(self._tokens)

    @property
    def game_id(self) -> str | None:
        """The game the tokens are for."""
        return self._game_id

    def seat_of(self, game_id: str, token: str) -> int | None:
        """The seat a token opens in this game; None for any other token (any text at all)."""
        given = token.encode("utf-8", "replace")
        with self._lock:
            if game_id != self._game_id:
                return None
            for seat, known in enumerate(self._tokens):
                if secrets.compare_digest(known.encode("ascii"), given):
                    return seat
            return None

    def join(self, seat: int) -> None:
        with self._lock:
            if seat not in self._joined:
                self._joined.add(seat)
                self._save()

    def joined(self) -> set[int]:
        with self._lock:
            return set(self._joined)
