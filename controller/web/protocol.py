"""The messages a page may send over its WebSocket, checked before anything is done.

Every message is a JSON object with a `type` and that type's fields (see `FIELDS`); an optional `id`
comes back in the reply, so a page knows which of its messages an answer belongs to. Anything else —
text that is not JSON, an unknown type, a missing, unknown or mistyped field — gets a `ProtocolError`
saying what is wrong in words, and nothing changes. Admin messages carry the table PIN. What a page
may send at all, and for which seat, is `access.py`'s to decide.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from controller.service.control import (
    Abandon,
    AnswerBoards,
    AnswerInvite,
    AskBoards,
    Command,
    Declare,
    NewGame,
    Play,
    Press,
    Resume,
    Settings,
    ShowCard,
)
from controller.table.tracker_types import ADJUSTABLE_MS

MAX_MESSAGE = 8192  # characters: a page's message is a few hundred; anything longer is refused unread
MAX_FRAME = 65536  # bytes: the server refuses a longer frame before reading it whole
MAX_DEPTH = 16  # nesting of objects and lists: a page's message needs three
MAX_TEXT = 200  # characters of one text field (a move, a card, a seat's player)
MAX_CARD = 24  # characters of a card id
CARD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9@:/._+-]*")  # e.g. C-EN, S-1, V13: never words or markup


class ProtocolError(ValueError):
    """A message that is not one the table understands; the text says what is wrong. `message_id`:
    the message's `id`, when it could be read (the page then knows which message was refused)."""

    message_id: int | str | None = None


# type -> {field: (python types, required)}
FIELDS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "press": {"button": ((str,), True)},
    "declare": {"action": ((str,), True)},
    "card": {"card": ((str,), True)},
    "play": {"action": ((str,), False), "from": ((str,), False), "to": ((str,), False)},
    "new_game": {
        "pin": ((str,), True),
        "game": ((str,), True),
        "players": ((int,), True),
        "seats": ((list,), True),
        "options": ((dict,), False),
        "abandon": ((bool,), False),
        "hotseat": ((bool,), False),
    },
    "resume": {"pin": ((str,), True), "game_id": ((str,), True), "abandon": ((bool,), False)},
    # In a game across boards, what ends the game needs the table PIN, as abandoning does: offering a
    # draw, resigning, and accepting another board's request to abandon or agree a draw.
    "ask": {"kind": ((str,), True), "pin": ((str,), True)},
    "resign": {"pin": ((str,), True)},
    "answer": {"accept": ((bool,), True), "pin": ((str,), True)},
    "invitation": {
        "pin": ((str,), True),
        "board": ((str,), True),
        "accept": ((bool,), True),
        "abandon": ((bool,), False),
    },
    "abandon": {"pin": ((str,), True)},
    "links": {"pin": ((str,), True)},
    "show_pin": {},
    "settings": {
        "pin": ((str,), True),
        "brightness": ((int, float), False),
        "takeback": ((str,), False),
        **{name: ((int,), False) for name in ADJUSTABLE_MS},
    },
}
ADMIN = frozenset(kind for kind, fields in FIELDS.items() if "pin" in fields)
NOT_JSON = 'a message must be a JSON object as text, e.g. {"type": "press", "button": "confirm"}'


def nesting(text: str) -> int:
    """How deeply objects and lists nest in JSON `text` (brackets inside strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def parse_message(text: str | bytes) -> dict[str, Any]:
    """The message as a checked dict (with `type`, its fields and maybe `id`)."""
    if not isinstance(text, str):
        raise ProtocolError(NOT_JSON + " (binary frames are not understood)")
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(f"message too long ({len(text)} characters; at most {MAX_MESSAGE})")
    if nesting(text) > MAX_DEPTH:
        raise ProtocolError(f"message nested too deeply (at most {MAX_DEPTH} levels)")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError(NOT_JSON) from None
    if not isinstance(data, dict):
        raise ProtocolError('a message must be a JSON object with a "type"')
    try:
        _check_fields(data)
    except ProtocolError as error:
        tag = data.get("id")
        if isinstance(tag, int | str) and not isinstance(tag, bool) and len(str(tag)) <= 64:
            error.message_id = tag
        raise
    return data


def _check_fields(data: dict[str, Any]) -> None:
    """Raise ProtocolError in words unless `data` is a known message type with its fields."""
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError(f"unknown message type {kind!r} (known: {', '.join(FIELDS)})")
    fields = FIELDS[kind]
    for key, value in data.items():
        if key in ("type", "id"):
            continue
        if key not in fields:
            raise ProtocolError(f"{kind}: unknown field {key!r} (fields: {', '.join(fields)})")
        types, _ = fields[key]
        if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
            names = " or ".join("number" if t in (int, float) else t.__name__.replace("str", "text") for t in types)
            raise ProtocolError(f"{kind}: {key} must be {names}, not {json.dumps(value)[:40]}")
        if isinstance(value, str) and not value.strip() and key != "pin":
            raise ProtocolError(f"{kind}: {key} is empty")
        if isinstance(value, str) and len(value) > (MAX_CARD if key == "card" else MAX_TEXT):
            raise ProtocolError(f"{kind}: {key} is too long to be one")
        if key == "card" and isinstance(value, str) and not CARD_ID.fullmatch(value.strip()):
            raise ProtocolError("card: not a card id (letters, digits and - such as C-EN or V13)")
    missing = [key for key, (_, required) in fields.items() if required and key not in data]
    if missing:
        raise ProtocolError(f"{kind}: missing {', '.join(missing)}")
    if "id" in data and not (isinstance(data["id"], int | str) and not isinstance(data["id"], bool)):
        raise ProtocolError("id must be a number or a text")
    if isinstance(data.get("id"), str) and len(data["id"]) > 64:
        raise ProtocolError("id is too long (at most 64 characters)")


def command_of(
    message: Mapping[str, Any], seat: int | None, own_page: bool = False, page_seat: int | None = None
) -> Command:
    """The service command a checked message asks for; `seat` is the seat it acts for (decided by
    `access.acting_seat`; None: the table's), `own_page` whether that seat's own page sent it, and
    `page_seat` the seat of the page that sent it (None: the table view)."""
    kind = message["type"]
    if kind == "press":  # judged again where it is carried out: the board may have begun to ask meanwhile
        return Press(message["button"], from_page=True, page_seat=page_seat)
    if kind == "declare":
        return Declare(message["action"].strip(), seat, own_page)
    if kind == "card":
        return ShowCard(message["card"].strip(), seat, own_page)
    if kind == "play":
        if "action" in message:
            return Play(text=message["action"].strip(), seat=seat)
        if "from" in message and "to" in message:
            return Play(origin=message["from"].strip(), target=message["to"].strip(), seat=seat)
        raise ProtocolError("play: give an action, or a field to take a piece from and one to put it on")
    if kind == "new_game":
        seats = message["seats"]
        if not all(isinstance(seat_player, str) for seat_player in seats):
            raise ProtocolError("new_game: seats must be a list of texts (human, or a bot's name)")
        return NewGame(
            message["game"],
            message["players"],
            tuple(seats),
            dict(message.get("options", {})),
            message.get("abandon", False),
            message.get("hotseat", False),
        )
    if kind == "resume":
        return Resume(message["game_id"], message.get("abandon", False))
    if kind == "ask":
        if message["kind"] != "draw":
            raise ProtocolError("ask: kind must be draw (resigning is a message of its own, with the table PIN)")
        return AskBoards(message["kind"])
    if kind == "resign":
        return AskBoards("resign")
    if kind == "answer":  # another board's request, answered with the PIN
        return AnswerBoards(message["accept"])
    if kind == "invitation":
        return AnswerInvite(message["board"].strip(), message["accept"], message.get("abandon", False))
    if kind == "abandon":
        return Abandon()
    if kind == "settings":
        names = ("brightness", "takeback", *ADJUSTABLE_MS)
        return Settings(**{key: message[key] for key in names if key in message})
    raise ProtocolError(f"unknown message type {kind!r}")
