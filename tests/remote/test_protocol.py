"""The remote protocol without a broker: messages, topics, and host and guest under every delivery
order (docs/remote.md, rules 2 to 5 and 9)."""

from __future__ import annotations

import random

import pytest

from controller.bots import make_bot
from controller.games import GAMES, State
from controller.games.public import has_hidden_hands
from controller.remote import topics
from controller.remote.guest import Guest
from controller.remote.host import Host, Send
from controller.remote.messages import (
    Accept,
    Answer,
    Decline,
    Invite,
    MessageError,
    Ply,
    Presence,
    Propose,
    Record,
    Refuse,
    Request,
    Sync,
    decode,
    encode,
)
from tests.games import zodiac_helpers

EXAMPLES = [
    Presence(True, "kitchen"),
    Invite("g1", "klotz", 2, ("kitchen", "club")),
    Accept("g1"),
    Decline("g1", "busy"),
    Ply("g1", 3, "a1-b2", 0, "00ff", {"x": [1]}, ("a", "b", "a1-b2")),
    Propose("g1", 3, "a1-b2"),
    Refuse("g1", 3, "a1-b2", "not legal"),
    Sync("g1", 0),
    Request("g1", "draw", 4),
    Request("g1", "takeback", 4, "club", "9f2c41d07be3a6e5"),
    Answer("g1", "draw", 4, True),
    Answer("g1", "draw", 4, False, "club", "", "9f2c41d07be3a6e5"),
    Record("g1", "klotz", "kitchen", 1, "00ff", ("a1-b2",), ("kitchen", "club"), {"k": 1}),
]


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: m.type)
def test_every_message_prints_and_parses_itself(message) -> None:
    assert decode(encode(message)) == message


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        (b"\xff\xfe", "not JSON"),
        (b"{", "not JSON"),
        (b"[1]", "not a JSON object"),
        (b'{"type": "hello"}', "no known type"),
        (b'{"type": "sync", "game": "g1"}', "lacks its 'have'"),
        (b'{"type": "sync", "game": "g1", "have": "3"}', "should be a whole number"),
        (b'{"type": "sync", "game": "g1", "have": true}', "should be a whole number"),
        (b'{"type": "sync", "game": "g1", "have": -2}', "plies count from 0"),
        (b'{"type": "sync", "game": "g1", "have": 1, "extra": 1}', "fields it should not: extra"),
        (b'{"type": "request", "game": "g1", "kind": "win", "ply": 1}', "no known request"),
        (b'{"type": "request", "game": "g1", "kind": "draw", "ply": 1, "key": "a/b"}', "key should be up to 32"),
        (b'{"type": "answer", "game": "g", "kind": "draw", "ply": 1, "accept": true, "key": "%s"}' % (b"a" * 33), "32"),
        (b'{"type": "invite", "game": "g", "title": "klotz", "players": 2, "seats": ["a", 1]}', "list of text"),
        (b'{"type": "invite", "game": "g", "title": "klotz", "players": 3, "seats": ["a", "b"]}', "names 2 seats"),
        (b"{" + b'"a": "' + b"x" * 300_000 + b'"}', "more than"),
    ],
)
def test_a_bad_message_is_refused_in_words(payload: bytes, words: str) -> None:
    with pytest.raises(MessageError) as caught:
        decode(payload)
    assert words in str(caught.value)
    assert "Error" not in str(caught.value) and "Traceback" not in str(caught.value)


def test_topics_say_who_sent_a_message_and_to_whom() -> None:
    assert topics.parse(topics.inbox("club", "kitchen")) == topics.Address("inbox", "club", sender="kitchen")
    assert topics.parse(topics.presence("club")) == topics.Address("presence", "club")
    assert topics.parse(topics.record("club", "ab12")) == topics.Address("record", "club", game="ab12")
    for other in ("tafel/board/club", "tafel/board/Club/presence", "x/board/club/presence", "tafel/board/+/from/a"):
        assert topics.parse(other) is None
    with pytest.raises(ValueError, match="lower-case letters"):
        topics.check_name("Kitchen/1")
    acl = topics.acl()
    assert "pattern write tafel/board/+/from/%u" in acl and "pattern read tafel/board/%u/from/+" in acl


# --- host and guest ------------------------------------------------------------------------------------


class Wire:
    """Deliveries between one host and its guests, each message encoded and decoded, in an order a
    seeded random chooses, with repeats."""

    def __init__(self, host: Host, guests: dict[str, Guest], rng: random.Random, repeat: float) -> None:
        self.host, self.guests, self.rng, self.repeat = host, guests, rng, repeat
        self.queue: list[tuple[str, Send]] = []  # (sender, send)

    def post(self, sender: str, sends: list[Send]) -> None:
        for send in sends:
            if send.to is not None:
                self.queue.append((sender, send))
                if self.rng.random() < self.repeat:
                    self.queue.append((sender, send))

    def deliver_some(self) -> None:
        self.rng.shuffle(self.queue)
        cut = self.rng.randint(0, len(self.queue))
        batch, self.queue = self.queue[:cut], self.queue[cut:]
        for sender, send in batch:
            message = decode(encode(send.message))
            if send.to == self.host.me:
                self.post(self.host.me, self.host.receive(sender, message))
            else:
                guest = self.guests[send.to]  # type: ignore[index]
                heard = guest.receive(sender, message)
                assert guest.disagree is None, guest.disagree
                self.post(send.to, heard.sends)  # type: ignore[arg-type]


def play_over_a_wire(name: str, players: int, seed: int, repeat: float = 0.3) -> tuple[Host, dict[str, Guest]]:
    game = GAMES[name]
    boards = ["h", "g1", "g2", "g3"][:players]
    # Random Zodiac players rarely finish: its turn limit ends the game as a draw, sooner than by default.
    options = {"max_turns": 250} if name == "zodiac" else {}
    start = game.new_game(players=players, seed=seed, **options)
    host = Host("h", "x", [start], boards, rng=random.Random(seed))
    guests = {board: Guest(board, "h", "x", game, boards) for board in boards[1:]}
    bots = [make_bot("random", seed + seat) for seat in range(players)]
    rng = random.Random(seed)
    wire = Wire(host, guests, rng, repeat)
    wire.post("h", host.announce())
    for _ in range(20_000):
        state = host.state
        if state.is_terminal() and not wire.queue:
            break
        owner = boards[state.current_player] if not state.is_terminal() else None
        if owner == "h":
            wire.post("h", host.local_move(bots[state.current_player].choose(state)))
        elif owner is not None and not guests[owner].pending and guests[owner].ply == host.ply:
            position = guests[owner].position()
            assert position is not None
            before = position[0]
            wire.post(owner, guests[owner].local_move(before, bots[state.current_player].choose(before)))
        elif owner is not None and rng.random() < 0.05:
            wire.post(owner, guests[owner].hello())  # a reconnect: ask what was missed
        wire.deliver_some()
    return host, guests


@pytest.mark.parametrize(
    ("name", "players"),
    [(name, 2) for name in GAMES] + [("klotz", 4), ("fillit", 3), ("zillo", 4), ("zillertal", 3), ("zodiac", 3)],
)
def test_repeated_and_reordered_deliveries_change_nothing(name: str, players: int) -> None:
    for seed in (1,):
        host, guests = play_over_a_wire(name, players, seed)
        assert host.state.is_terminal()
        public = tuple(played.public for played in host.played)
        for board, guest in guests.items():
            assert guest.ply == host.ply, board
            mine = {seat for seat, owner in enumerate(host.seats) if owner == board}
            expected = tuple(p.text if p.seat in mine else p.public for p in host.played)
            assert tuple(guest.moves) == expected
            assert not guest.pending
        assert len(public) == host.ply


def _hidden_game_positions() -> list[tuple[str, State]]:
    positions = []
    for name in ("zillo", "zillertal", "zodiac"):
        state = GAMES[name].new_game(players=2, seed=5)
        bot = make_bot("random", 5)
        for ply in range(40):
            if state.is_terminal():
                break
            if ply % 8 == 0 and has_hidden_hands(state):
                positions.append((name, state))
            state = state.apply(bot.choose(state))
    return positions


@pytest.mark.parametrize(("name", "state"), _hidden_game_positions(), ids=lambda value: str(value)[:12])
def test_what_a_board_reads_depends_only_on_what_its_seat_may_see(name: str, state: State) -> None:
    """Two true states a seat cannot tell apart give that seat's board the same bytes: its stand-in,
    its move list, the public record. So no message it can read carries another seat's secret."""
    for seat in range(state.players):
        other = state.sample_unseen(seat, random.Random(99))  # the same for the seat, other hands differ
        boards = ["h", "g1"] if seat == 1 else ["g1", "h"]
        read = []
        for truth in (state, other):
            host = Host("h", "x", [truth], boards, rng=random.Random(7))
            read.append((encode(host.ply_for("g1")), encode(host.record())))
        assert read[0] == read[1]


def test_a_board_never_reads_what_the_player_on_turn_elsewhere_just_drew() -> None:
    """Zodiac: the card just drawn is seen by its drawer alone. A guest board whose seat is not on
    turn reads the same bytes whether the host's player drew a sign or a Sun (its stand-in once
    said which)."""
    read = []
    for truth in zodiac_helpers.drawn_sign_and_sun():
        host = Host("h", "x", [truth], ["g1", "h"], rng=random.Random(7))
        read.append((encode(host.ply_for("g1")), encode(host.record())))
    assert read[0] == read[1]


def test_the_host_refuses_what_a_board_may_not_do_and_says_why() -> None:
    game = GAMES["klotz"]
    state = game.new_game(players=3, seed=1)
    host = Host("h", "x", [state], ["g1", "h", "g2"], rng=random.Random(1))
    first = state.action_to_str(state.legal_actions()[0])

    def refusal(sender: str, message: Propose) -> str:
        sends = host.receive(sender, message)
        refused = [send.message for send in sends if isinstance(send.message, Refuse)]
        assert refused and all(send.to == sender for send in sends)
        return refused[0].reason

    assert "plays on board g1" in refusal("g2", Propose("x", 0, first))
    assert "not legal here" in refusal("g1", Propose("x", 0, "a1-a1"))
    assert "not 3" in refusal("g1", Propose("x", 2, first))
    with pytest.raises(ValueError, match="board g9 has no seat"):
        host.receive("g9", Propose("x", 0, first))
    sends = host.receive("g1", Propose("x", 0, first))
    assert host.ply == 1 and {send.to for send in sends} == {"g1", "g2", None}
    again = host.receive("g1", Propose("x", 0, first))  # a repeat: answered, not played twice
    assert host.ply == 1 and [send.to for send in again] == ["g1"]
    assert "came late" in refusal("g1", Propose("x", 0, state.action_to_str(state.legal_actions()[1])))


def test_a_guest_takes_the_host_word_only_from_the_host() -> None:
    game = GAMES["fillit"]
    host = Host("h", "x", [game.new_game(players=2, seed=1)], ["h", "g1"])
    guest = Guest("g1", "h", "x", game, ["h", "g1"])
    ply = host.ply_for("g1")
    with pytest.raises(ValueError, match="not the host"):
        guest.receive("g2", ply)
    assert guest.receive("h", ply).moved and guest.ply == 0
    assert not guest.receive("h", ply).moved  # a repeat changes nothing
    state = host.state
    with pytest.raises(ValueError, match="plays on board h"):
        guest.local_move(state, state.legal_actions()[0])


@pytest.mark.parametrize("name", ["zillo", "zillertal", "zodiac"])
def test_a_board_with_two_seats_gets_both_hands_and_nothing_else(name: str) -> None:
    """People at one table play two seats of a game with hands on one board: its stand-in keeps both
    hands, and depends on nothing the two seats together cannot see."""
    state = GAMES[name].new_game(players=3, seed=2)
    together = frozenset({1, 2})
    boards = ["h", "g1", "g1"]
    read = []
    for truth in (state, state.sample_unseen(together, random.Random(5))):
        host = Host("h", "x", [truth], boards, rng=random.Random(7))
        message = host.ply_for("g1")
        stand_in = GAMES[name].state_from_json(message.state)
        for seat in together:
            assert stand_in.observation(seat).get("hand") == truth.observation(seat).get("hand")
        read.append(encode(message))
    assert read[0] == read[1]


# --- requests across boards ----------------------------------------------------------------------------


def three_boards(moves: int = 2) -> tuple[Host, dict[str, Guest]]:
    """A Klotz game of boards h, g1 and g2 after `moves` moves, every board told."""
    game = GAMES["klotz"]
    boards = ["h", "g1", "g2"]
    host = Host("h", "x", [game.new_game(players=3, seed=1)], boards, rng=random.Random(1))
    guests = {board: Guest(board, "h", "x", game, boards) for board in boards[1:]}
    for _ in range(moves):
        state = host.state
        owner = boards[state.current_player]
        action = state.legal_actions()[0]
        if owner == "h":
            host.local_move(action)
        else:
            guest = guests[owner]
            guest.receive("h", host.ply_for(owner))
            [proposal] = guest.local_move(state, action)
            host.receive(owner, proposal.message)
    for board, guest in guests.items():
        guest.receive("h", host.ply_for(board))
    return host, guests


def deliver(host: Host, guests: dict[str, Guest], sends: list[Send], sender: str = "h") -> list[str]:
    """Deliver `sends` (and what they cause) until nothing is left; what the guests said."""
    said: list[str] = []
    queue = [(sender, send) for send in sends]
    while queue:
        source, send = queue.pop(0)
        if send.to is None:
            continue
        message = decode(encode(send.message))
        if send.to == "h":
            queue += [("h", s) for s in host.receive(source, message)]
        else:
            heard = guests[send.to].receive(source, message)
            said += heard.said
            queue += [(send.to, s) for s in heard.sends]
    return said


def test_a_take_back_needs_every_other_board_and_then_every_board_goes_back() -> None:
    host, guests = three_boards()
    before = host.history[-2]
    said = deliver(host, guests, guests["g1"].request("takeback"), "g1")
    assert host.asking is not None and host.asking.waiting == {"h", "g2"}
    assert guests["g2"].asked is not None and any("board g1 asks to take back" in line for line in said)
    deliver(host, guests, guests["g2"].answer(True), "g2")
    assert host.ply == 2  # the host's own board has not answered yet
    said = deliver(host, guests, host.answer("h", "takeback", 2, True))
    assert host.ply == 1 and host.state == before and host.revision == 1 and host.asking is None
    for guest in guests.values():
        assert guest.ply == 1 and guest.state == before and guest.asked is None and len(guest.moves) == 1
    assert any("taken back" in line for line in said)


def test_the_first_no_ends_a_request_and_nothing_changes() -> None:
    host, guests = three_boards()
    deliver(host, guests, host.request("h", "takeback", 2))
    said = deliver(host, guests, guests["g1"].answer(False), "g1")
    assert host.asking is None and host.ply == 2
    assert any("board g1 declined to take back the last move" in line for line in said)
    assert deliver(host, guests, guests["g2"].answer(True) if guests["g2"].asked else [], "g2") == []
    assert host.ply == 2


@pytest.mark.parametrize(
    ("kind", "ply", "words"),
    [
        ("draw", 5, "the game is at move 3, not 6"),
        ("takeback", 1, "the game is at move 3, not 2"),
    ],
)
def test_a_request_that_cannot_be_asked_is_refused_in_words(kind: str, ply: int, words: str) -> None:
    host, _ = three_boards()
    sends = host.receive("g1", Request("x", kind, ply, "g1"))
    [refusal] = [send.message for send in sends]
    assert isinstance(refusal, Answer) and not refusal.accept and words in refusal.reason
    assert host.asking is None
    with pytest.raises(ValueError, match="no move has been made yet"):
        three_boards(0)[0].request("h", "takeback", 0)


def test_abandoning_by_agreement_ends_the_game_on_every_board() -> None:
    host, guests = three_boards()
    deliver(host, guests, guests["g2"].request("abandon"), "g2")
    deliver(host, guests, guests["g1"].answer(True), "g1")
    deliver(host, guests, host.answer("h", "abandon", 2, True))
    assert host.status == "abandoned" and host.record().status == "abandoned"
    assert all(guest.abandoned for guest in guests.values())


def test_a_board_resigns_at_once_and_a_draw_needs_every_other_board() -> None:
    host, guests = three_boards()
    deliver(host, guests, guests["g1"].request("draw"), "g1")
    deliver(host, guests, guests["g2"].answer(True), "g2")
    assert host.status == "playing"  # the host's own board has not answered
    deliver(host, guests, host.answer("h", "draw", 2, True))
    assert host.status == "over" and host.record().result == "a draw, by agreement"
    assert all(guest.result == "a draw, by agreement" for guest in guests.values())
    host, guests = three_boards()
    said = deliver(host, guests, guests["g2"].request("resign"), "g2")
    assert host.status == "over" and host.record().result == "board g2 resigned" and host.asking is None
    assert all(guest.result == "board g2 resigned" for guest in guests.values())
    assert "board g2 resigned: the game is over" in said
    with pytest.raises(ValueError, match="the game is over: board g2 resigned"):
        host.request("h", "draw", host.ply)
