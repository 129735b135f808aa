"""The messages boards send each other, as values that print and parse themselves (docs/remote.md,
"The messages"). Parsing checks every field: a bad message becomes a `MessageError` in words."""

from __future__ import annotations

import json
import re
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar

REQUEST_KINDS = ("takeback", "draw", "resign", "abandon")
KEY = re.compile(r"[A-Za-z0-9]{0,32}")  # a request's key (Request.key)
MAX_PAYLOAD = 256 * 1024  # a stand-in state is a few kilobytes; anything far larger is refused unread


class MessageError(ValueError):
    """A message that is not one of ours, in words that say what is wrong."""


@dataclass(frozen=True)
class Presence:
    type: ClassVar[str] = "presence"
    online: bool
    name: str


@dataclass(frozen=True)
class Invite:
    type: ClassVar[str] = "invite"
    game: str
    title: str  # the game's name, e.g. "klotz"
    players: int
    seats: tuple[str, ...]  # the board that owns each seat
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Accept:
    type: ClassVar[str] = "accept"
    game: str


@dataclass(frozen=True)
class Decline:
    type: ClassVar[str] = "decline"
    game: str
    reason: str = ""


@dataclass(frozen=True)
class Ply:
    """The host's word on one position: the move that led to it and the receiver's stand-in."""

    type: ClassVar[str] = "ply"
    game: str
    ply: int
    move: str  # the move that led here ("" for ply 0), in the notation of the position before it
    seat: int  # who made it (-1 for ply 0)
    digest: str
    state: dict[str, Any]  # the receiving board's stand-in (docs/remote.md, rule 2)
    moves: tuple[str, ...] = ()  # every move so far, as the receiving board may read them
    movers: tuple[int, ...] = ()  # the seat that made each of them
    revision: int = 0  # how often a move already sent was corrected: a copy from before is stale
    result: str = ""  # a result the boards gave the game (a resignation, an agreed draw): it is over
    abandoned: bool = False  # the boards agreed to abandon the game


@dataclass(frozen=True)
class Propose:
    type: ClassVar[str] = "propose"
    game: str
    ply: int  # the ply the move was made at
    move: str
    replace: bool = False  # a correction of this board's move at `ply`, before the next seat moved


@dataclass(frozen=True)
class Refuse:
    type: ClassVar[str] = "refuse"
    game: str
    ply: int
    move: str
    reason: str


@dataclass(frozen=True)
class Sync:
    type: ClassVar[str] = "sync"
    game: str
    have: int  # the last ply the asking board has


@dataclass(frozen=True)
class Request:
    type: ClassVar[str] = "request"
    game: str
    kind: str  # one of REQUEST_KINDS
    ply: int  # the ply the request was made at: an answer to an older one counts for nothing
    by: str = ""  # the board that asks (the host passes a request on to the others)
    key: str = ""  # the asking board's name for this request: a repeat carries it, a new request a new one


@dataclass(frozen=True)
class Answer:
    type: ClassVar[str] = "answer"
    game: str
    kind: str
    ply: int
    accept: bool
    by: str = ""  # the board that answered
    reason: str = ""  # why a request was refused before anyone was asked
    key: str = ""  # the key of the request it answers


@dataclass(frozen=True)
class Record:
    """A game's public record: what every account, and the relay, may read."""

    type: ClassVar[str] = "record"
    game: str
    title: str
    host: str
    ply: int
    digest: str
    moves: tuple[str, ...]  # public notation
    seats: tuple[str, ...]
    public: dict[str, Any]
    result: str = ""  # "" while the game goes on
    status: str = "playing"  # "playing", "over", "abandoned"
    board: dict[str, Any] = field(default_factory=dict)  # field name -> the pieces on it ("kind:seat"), all public
    players: int = 0


Message = Presence | Invite | Accept | Decline | Ply | Propose | Refuse | Sync | Request | Answer | Record
TYPES: dict[str, type[Message]] = {
    kind.type: kind for kind in (Presence, Invite, Accept, Decline, Ply, Propose, Refuse, Sync, Request, Answer, Record)
}

_KINDS = {"str": str, "int": int, "bool": bool, "dict[str, Any]": dict, "tuple[str, ...]": list}
_NAMES = {str: "text", int: "a whole number", bool: "true or false", dict: "an object", list: "a list"}


def encode(message: Message) -> bytes:
    """The message as JSON. Its fields are JSON values already, so they are written as they are: no
    deep copy of a stand-in state (a dataclass's `asdict` copies every nested value)."""
    data = {"type": message.type, **{spec.name: getattr(message, spec.name) for spec in fields(message)}}
    return json.dumps(data, separators=(",", ":")).encode()


def decode(payload: bytes) -> Message:
    """The message in `payload`; a MessageError saying what is wrong otherwise."""
    if len(payload) > MAX_PAYLOAD:
        raise MessageError(f"the message is {len(payload)} bytes long, more than {MAX_PAYLOAD} allowed")
    try:
        data = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MessageError(f"the message is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise MessageError("the message is not a JSON object")
    kind = TYPES.get(data.get("type"))  # type: ignore[arg-type]
    if kind is None:
        known = ", ".join(TYPES)
        raise MessageError(f"the message has no known type (got {str(data.get('type'))[:40]!r}; known: {known})")
    values: dict[str, Any] = {}
    for spec in fields(kind):
        if spec.name not in data:
            if spec.default is not MISSING or spec.default_factory is not MISSING:
                continue
            raise MessageError(f"a {kind.type} message lacks its {spec.name!r}")
        values[spec.name] = _checked(kind.type, spec.name, str(spec.type), data[spec.name])
    extra = set(data) - {spec.name for spec in fields(kind)} - {"type"}
    if extra:
        raise MessageError(f"a {kind.type} message has fields it should not: {', '.join(sorted(extra))}")
    message = kind(**values)
    _check_values(message)
    return message


def _checked(kind: str, name: str, annotation: str, value: Any) -> Any:
    if annotation == "tuple[int, ...]":
        if not isinstance(value, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in value):
            raise MessageError(f"a {kind} message's {name!r} should be a list of whole numbers")
        return tuple(value)
    expected: type = _KINDS[annotation]
    if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise MessageError(f"a {kind} message's {name!r} should be {_NAMES[int]}, not {value!r:.40}")
    if not isinstance(value, expected):
        raise MessageError(f"a {kind} message's {name!r} should be {_NAMES[expected]}, not {value!r:.40}")
    if isinstance(value, list):
        if not all(isinstance(item, str) for item in value):
            raise MessageError(f"a {kind} message's {name!r} should be a list of text")
        return tuple(value)
    return value


def _check_values(message: Message) -> None:
    if isinstance(message, Request | Answer) and message.kind not in REQUEST_KINDS:
        raise MessageError(f"a {message.type} message names no known request ({message.kind!r:.40})")
    if isinstance(message, Request | Answer) and not KEY.fullmatch(message.key):
        key = f"{message.key!r:.40}"
        raise MessageError(f"a {message.type} message's key should be up to 32 letters and digits, not {key}")
    if isinstance(message, Ply | Propose | Refuse | Sync | Request | Answer | Record):
        ply = message.have if isinstance(message, Sync) else message.ply
        if ply < 0:
            raise MessageError(f"a {message.type} message names ply {ply}, and plies count from 0")
    if isinstance(message, Invite) and len(message.seats) != message.players:
        raise MessageError(f"an invitation for {message.players} players names {len(message.seats)} seats")
