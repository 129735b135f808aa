"""Where each message travels, and the broker ACL that fixes who may read and write there
(docs/remote.md, rule 3). The topic's sender part, not the payload, says who sent a message: the
broker lets an account write only where its own name stands."""

from __future__ import annotations

import re
from dataclasses import dataclass

ROOT = "tafel"
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
RELAY = "relay"  # the relay's account: it reads public records and presence, and writes nothing


def check_name(name: str, what: str = "board name") -> str:
    """A board or game name as topics may carry it; a ValueError in words otherwise."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ValueError(
            f"{what} {name!r:.40} is not usable: 1 to 32 lower-case letters, digits and hyphens, "
            "starting with a letter or digit"
        )
    return name


def presence(board: str) -> str:
    return f"{ROOT}/board/{board}/presence"


def inbox(board: str, sender: str) -> str:
    """Messages from `sender` to `board`: only `sender` may write here, only `board` may read."""
    return f"{ROOT}/board/{board}/from/{sender}"


def record(host: str, game: str) -> str:
    """Game `game`'s public record, written by its host `host`, read by everyone."""
    return f"{ROOT}/game/{host}/{game}"


def my_inbox(board: str) -> str:
    return f"{ROOT}/board/{board}/from/+"


ALL_PRESENCE = f"{ROOT}/board/+/presence"
ALL_RECORDS = f"{ROOT}/game/+/+"


@dataclass(frozen=True)
class Address:
    """What a topic says: a presence, a message to `board` from `sender`, or a game's record."""

    kind: str  # "presence", "inbox" or "record"
    board: str  # the presence's board, the inbox's owner, the record's host
    sender: str = ""
    game: str = ""


def parse(topic: str) -> Address | None:
    """The address of one of our topics; None for any other."""
    parts = topic.split("/")
    if len(parts) == 4 and parts[:2] == [ROOT, "board"] and parts[3] == "presence" and NAME.fullmatch(parts[2]):
        return Address("presence", parts[2])
    if (
        len(parts) == 5
        and parts[:2] == [ROOT, "board"]
        and parts[3] == "from"
        and all(map(NAME.fullmatch, parts[2::2]))
    ):
        return Address("inbox", parts[2], sender=parts[4])
    if len(parts) == 4 and parts[:2] == [ROOT, "game"] and NAME.fullmatch(parts[2]) and NAME.fullmatch(parts[3]):
        return Address("record", parts[2], game=parts[3])
    return None


def acl() -> str:
    """Mosquitto's ACL file for every board account and the relay (`%u` is the account's name)."""
    return "\n".join(
        (
            "# tafel: each board writes only its own presence, its own messages and its hosted games,",
            "# and reads only what is addressed to it and what is public (docs/remote.md).",
            f"pattern write {ROOT}/board/%u/presence",
            f"pattern write {ROOT}/board/+/from/%u",
            f"pattern read {ROOT}/board/%u/from/+",
            f"pattern write {ROOT}/game/%u/+",
            f"pattern read {ALL_PRESENCE}",
            f"pattern read {ALL_RECORDS}",
            "",
        )
    )
