"""Hostile pages through whole games of all five games: every kind of page (the table view, a
spectator, the health page, each seat's page) sends random, malformed and hostile messages while
bots play the game to its end on the simulated board. No page may ever receive another seat's hidden
cards, the service must stay up, and the board must still answer the people at the table.

The traffic is random but seeded (each run is the same), and what counts as a secret is read from the
game itself: the cards in another seat's hand that the public view does not show."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from controller.games.public import public_observation
from controller.service.loop import Service
from controller.web.access import OWN_PAGE
from controller.web.protocol import FIELDS
from tests.web.harness import PIN, Page, config_text, running_service, web_client
from tests.web.test_seats import secrets_outside

# (game, players, options, profile); games kept short so each runs to its end in seconds.
GAMES = [
    ("klotz", 2, "max_plies = 30", "square14"),
    ("fillit", 2, "max_turns = 12", "hex61"),
    ("zillo", 2, 'hands = "dealt", max_turns = 12', "square14"),
    ("zodiac", 3, "max_turns = 30", "square14"),
    ("zillertal", 2, "", "square14"),
]
MESSAGES = 160  # hostile messages per game, spread over the game
ENGLISH = {"can", "sun", "moon"}  # Zodiac card ids that are also words of the board's sentences
ROLES = ("table", "watch", "health")
# What a page that holds no hand may be told when refused: words that do not depend on any hand.
SAME_FOR_ALL = (
    OWN_PAGE,
    "this page only watches",
    "the board health page does not play",
    "the game is over",
    "wrong table PIN",
    "too many wrong PINs",
    "a message must be",
    "message ",
    "unknown message type",
    *(f"{kind}: " for kind in FIELDS),
    "there is no button",
    "no move has been made yet",
    "too many messages",
    "the board showed the PIN a moment ago",
)


def secret_cards(service: Service, viewer: int | None) -> set[str]:
    """The cards in the hands of seats other than `viewer` that the public part does not show."""
    state = service.session.state
    public = json.dumps(public_observation(state)[0])  # copies of a card may lie in the open, too
    hidden = set()
    for seat in range(state.players):
        if seat != viewer:
            hidden.update(str(card) for card in state.observation(seat).get("hand") or ())
    return {card for card in hidden - ENGLISH if not re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", public)}


def named(text: str, cards: set[str]) -> list[str]:
    return [card for card in cards if re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text)]


def hostile_message(rng: random.Random, service: Service) -> str | bytes:
    """One message a curious or hostile page might send: often well formed, with moves and cards of
    every seat; sometimes broken."""
    state = service.session.state
    actions: list[str] = []
    for seat in range(state.players):
        actions.extend(str(card) for card in state.observation(seat).get("hand") or ())
    if not state.is_terminal():
        actions.extend(state.legal_action_strings()[:30])
    actions.extend(["c7-c9", "draw", "sun aqu@1", "C-N:c12-f12/1", "V13@0", "x" * 30, "../../etc/passwd"])
    roll = rng.random()
    if roll < 0.06:
        return rng.choice([b"\x00\x01binary", b'{"type": "press", "button": "confirm"}'])
    if roll < 0.12:
        return rng.choice(["garbage", "[" * 40 + "]" * 40, '{"type": "card", "card": "' + "Z" * 9000 + '"}', "{}"])
    kind = rng.choice([*FIELDS, "declare", "declare", "play", "play", "card"])
    message: dict[str, Any] = {"type": kind, "id": rng.randrange(10**6)}
    for field, (types, required) in FIELDS[kind].items():
        if not required and rng.random() < 0.5:
            continue
        if field == "pin":
            message[field] = rng.choice([f"{rng.randrange(10000):04d}", "", "🂡"])
        elif field in ("action", "from", "to", "card", "game_id", "button", "takeback", "game"):
            message[field] = rng.choice([*actions, "confirm", "menu", "undo", "zillo", "c12"])
        elif field == "seats":
            message[field] = ["human"] * rng.choice([1, 2, 3])
        elif field == "options":
            message[field] = {"cards": "/dev/zero"} if rng.random() < 0.5 else {"max_plies": "x"}
        elif int in types:
            message[field] = rng.choice([0, 2, -1, 10**9])
        elif bool in types:
            message[field] = rng.random() < 0.5
    return json.dumps(message)


@pytest.mark.parametrize(("game", "players", "options", "profile"), GAMES, ids=[game[0] for game in GAMES])
def test_hostile_pages_learn_no_secret_and_cannot_stop_the_board(
    tmp_path: Path, game: str, players: int, options: str, profile: str
) -> None:
    rng = random.Random(f"hostile {game}")
    text = config_text(game, players, options, seed=3, bots=True, profile=profile)
    with running_service(tmp_path, text) as service, web_client(service, tmp_path) as client:
        ticks = iter(range(10**9))
        client.hub.clock = lambda: next(ticks) / 10  # type: ignore[attr-defined]  # people's pace: 10 a second
        sockets = {role: client.websocket_connect("/ws" if role == "table" else f"/ws?view={role}") for role in ROLES}
        pages: dict[Any, Page] = {role: Page(socket.__enter__()) for role, socket in sockets.items()}
        try:
            pages["table"].view()
            hub = client.hub  # type: ignore[attr-defined]  # bots play every seat: the links are the hub's
            for token_seat, token in enumerate(hub.seats.tokens(service.table.game_id, players)):
                sockets[token_seat] = client.websocket_connect(f"/ws?seat={token}")
                pages[token_seat] = Page(sockets[token_seat].__enter__())
            hidden = bool(pages["table"].view()["hidden_hands"])
            for page in pages.values():
                page.view()
            leaks: list[tuple[Any, str, list[str]]] = []
            for count in range(MESSAGES * 10):
                if count >= MESSAGES and service.session.state.is_terminal():
                    break
                who = rng.choice(list(pages))
                page = pages[who]
                page.socket.send_text(raw) if isinstance(raw := hostile_message(rng, service), str) else (
                    page.socket.send_bytes(raw)
                )
                answer = page.until(lambda m: m["type"] in ("reply", "error"))
                if hidden and not isinstance(who, int) and answer["type"] == "error":
                    # A page that holds no hand hears the same few words whatever it sent: no oracle.
                    assert answer["message"].startswith(SAME_FOR_ALL), (who, raw, answer)
                for viewer, other in pages.items():
                    seat = viewer if isinstance(viewer, int) else None
                    for message in other.received:
                        if message.get("checked"):
                            continue
                        message["checked"] = True
                        assert "you" not in message or message["you"]["seat"] == seat, (viewer, message)
                        shown = {key: value for key, value in message.items() if key not in ("you", "checked")}
                        if game == "zodiac":  # a card taken from the discard pile was public when it lay there
                            shown = {k: v for k, v in shown.items() if k not in ("public", "moves", "last_move")}
                        assert secrets_outside(shown) == [], (viewer, message)
                        found = named(json.dumps(shown), secret_cards(service, seat))
                        if found and not (message is answer and viewer == who and named(str(raw), set(found))):
                            leaks.append((viewer, json.dumps(shown)[:300], found))
                    if len(other.received) > 50:  # keep what was checked from growing without end
                        del other.received[:-5]
            assert leaks == [], leaks[:3]
            output = service.session.last_output
            assert service.session.state.is_terminal(), (
                "the bots did not finish the game",
                output.display.mode if output else None,
                service.table.moves[-5:],
                service.driver.stopped if service.driver else None,
                pages["table"].view()["waiting"],
            )
            # The people at the table are still served: the board answers and the PIN works.
            table = pages["table"]
            assert table.ask({"type": "press", "button": "menu"})["type"] == "reply"
            # The right PIN works, unless the hostile pages' wrong ones made this address wait: in words.
            links = table.ask({"type": "links", "pin": PIN})
            assert links["type"] == "reply" or links["message"].startswith("too many wrong PINs from this device")
        finally:
            for socket in sockets.values():
                socket.__exit__(None, None, None)
        assert service.failure is None
