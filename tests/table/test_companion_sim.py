"""Full companion games: bots play with the real cards (a dealt game stands for the cards on the table),
a driver enters every action at the companion as a person would (card reads, menu, confirm, declared
actions), and the companion must commit exactly the intended actions while its LEDs show the legal
offsets of an entered card, whose turn it is and pending skips."""

from __future__ import annotations

from collections import Counter

import pytest

from controller.bots import make_bot
from controller.bots.seeds import bot_seed
from controller.games import Action, State, load_game
from controller.games import zillertal as zt
from controller.games import zodiac as zo
from controller.table.companion import Companion, CompanionOutput
from controller.table.palette import HINT_COLOURS, OFF, scale
from hal.profile import load_profile
from hal.protocols import InputEvent

CARDS = load_profile("cards")
RAIL = {line: CARDS.led_of(f"L{line}") for line in range(-20, 21)}
ZONES = {seat: CARDS.seat_zones[f"seat{seat}"] for seat in range(8)}
GREEN, AMBER, RED, WHITE = (HINT_COLOURS[c] for c in ("green", "amber", "red", "white"))
GLOW = scale(WHITE, 0.05)
BLINK = 400


class Driver:
    """Enters the truth game's actions at the companion and checks what it commits and shows."""

    def __init__(self, truth: State, physical: State) -> None:
        self.truth = truth
        self.companion = Companion(physical, CARDS, blink_ms=BLINK)
        self.now = 0
        self.expected: list[str] = []
        self.committed: list[str] = []
        self.lit_offsets = 0
        self.skips_seen = 0

    def step(self, *events: InputEvent) -> CompanionOutput:
        self.now += BLINK  # every other step falls in the blink phase
        output = self.companion.step(self.now, events)
        assert not [m for m in output.messages if "took back" in m]
        for before, action, _ in output.transitions:
            self.committed.append(before.action_to_str(action))
        return output

    def enter(self, text: str, cards: tuple[str, ...] = ()) -> None:
        """Enter one intended action: its cards through the reader (then menu and confirm if the
        companion asks), or the whole text declared."""
        self.expected.append(text)
        if not cards:
            output = self.step(InputEvent("declare", text))
            assert output.committed, output.messages
            return
        for card in cards:
            output = self.step(InputEvent("card", card))
            assert not [m for m in output.messages if m.startswith(f"{card}:")], output.messages
        if output.committed:
            return
        state = self.companion.state
        assert state.parse_action(text) in output.candidates, (text, output.candidates)
        output = self.step(InputEvent("menu", text))
        assert output.previewed == state.parse_action(text)
        self.check_rail(output)
        output = self.step(InputEvent("button", "confirm"))
        assert len(output.committed) == 1

    def check_rail(self, output: CompanionOutput) -> None:
        """Zillertal: every legal offset of the entered card is green, the previewed one amber."""
        if not isinstance(self.companion.state, zt.ZillertalState):
            return
        lit = {line: output.frame[led] for line, led in RAIL.items() if output.frame[led] in (GREEN, AMBER)}
        want = {at: GREEN for at in output.offsets if at in RAIL}
        if isinstance(output.previewed, zt.Place) and output.previewed.at in RAIL:
            want[output.previewed.at] = AMBER
        assert lit == want
        self.lit_offsets += len(want)

    def check_zones(self) -> None:
        state = self.companion.state
        steady = self.companion.frame(self.now - self.now % (2 * BLINK))  # blink phase 0
        blinking = self.companion.frame(self.now - self.now % (2 * BLINK) + BLINK)  # phase 1
        skips = getattr(state, "skips", (0,) * state.players)
        for seat in range(state.players):
            zone = {steady[led] for led in ZONES[seat]}
            assert len(zone) == 1
            colour = zone.pop()
            if state.is_terminal():
                continue
            if seat != state.current_player:
                assert colour == GLOW
            elif isinstance(state, zo.ZodiacState) and state.phase == zo.PENALTY:
                assert colour == AMBER
            elif isinstance(state, zo.ZodiacState) and state.may_call():
                assert colour == WHITE
            else:
                assert colour == GREEN
            if skips[seat]:
                assert blinking[ZONES[seat][0]] == RED
                self.skips_seen += 1
        assert all(steady[led] == OFF for seat in range(state.players, 8) for led in ZONES[seat])


# --- Zillertal --------------------------------------------------------------------------------------
def zillertal_texts(truth: zt.ZillertalState, action: Action, after: zt.ZillertalState) -> list[tuple[str, tuple]]:
    """The actions a person enters for one action of the truth game, with the cards read for each."""
    me = truth.current_player
    text = truth.action_to_str(action)
    if isinstance(action, zt.Place | zt.SetAside):
        return [(text, (action.card,))]
    if isinstance(action, zt.Swap):
        out = [(text, (action.card,))]
        if action.card in truth.card_set.contracts:
            new = after.position.received[-1]
            out.append((f"contract {new}", (new,)))
        return out
    if isinstance(action, zt.End) and action.piles:
        before = {h.id for h in truth.position.contracts[me]}
        drawn = [h.id for h in after.position.contracts[me] if h.id not in before]
        return [(text, ()), *((f"contract {c}", (c,)) for c in drawn)]
    return [(text, ())]


@pytest.mark.parametrize(("players", "seed"), [(1, 3), (2, 5), (3, 8), (4, 13)])
def test_zillertal_companion_commits_exactly_the_bots_actions(players: int, seed: int) -> None:
    game = load_game("zillertal")
    truth = game.new_game(players=players, seed=seed)
    driver = Driver(truth, game.new_game(players=players, seed=seed, hands="physical"))
    for seat in range(players):  # the contracts dealt are read seat by seat
        for held in truth.position.contracts[seat]:
            driver.enter(f"contract {held.id}", (held.id,))
    bots = [make_bot("greedy", bot_seed(seed, seat)) for seat in range(players)]
    while not truth.is_terminal():
        driver.check_zones()
        action = bots[truth.current_player].choose(truth)
        after = truth.apply(action)
        for text, cards in zillertal_texts(truth, action, after):
            driver.enter(text, cards)
        truth = after
        state = driver.companion.state
        t, p = truth.position, state.position
        assert (p.placed, p.set_aside, p.current, p.turns) == (t.placed, t.set_aside, t.current, t.turns)
        assert [Counter(h.id for h in c) for c in p.contracts] == [Counter(h.id for h in c) for c in t.contracts]
        assert [len(h) for h in p.hands] == [len(h) for h in t.hands] and len(p.deck) == len(t.deck)
    assert driver.committed == driver.expected
    assert driver.companion.state.is_terminal() and driver.companion.state.returns() == truth.returns()
    assert driver.lit_offsets > 0
    winners = {seat for seat, value in enumerate(truth.returns()) if value == max(truth.returns()) and value > 0}
    final = driver.companion.frame(driver.now)
    assert {seat for seat in range(players) if final[ZONES[seat][0]] == GREEN} == winners


# --- Zodiac ---------------------------------------------------------------------------------------------
def zodiac_texts(truth: zo.ZodiacState, action: Action, after: zo.ZodiacState) -> tuple[str, tuple]:
    """The action a person enters at a physical table, with the cards read for it: an action card
    says where it comes from (ZO-E14) and a Zodiac the referee detected is called (ZO-E15)."""
    text = truth.action_to_str(action)
    if isinstance(action, zo.PlaySun | zo.PlayMoon) and truth.phase != zo.DRAWN:
        card = zo.SUN if isinstance(action, zo.PlaySun) else zo.MOON
        if truth.source_of(card) == "up":
            base = text.removesuffix(" zodiac")
            text = f"{base} faceup" + (" zodiac" if action.call else "")
    if truth.mode == "referee" and after.winner is not None and not getattr(action, "call", False):
        text += " zodiac"
    cards: tuple = ()
    if isinstance(action, zo.PlaySun):
        cards = (zo.SUN, action.card)
    elif isinstance(action, zo.PlayMoon):
        cards = (zo.MOON,)
    elif isinstance(action, zo.Up | zo.Down | zo.Discard | zo.Lose):
        cards = (action.card,)
    return text, cards


@pytest.mark.parametrize(
    ("players", "seed", "mode", "bot"),
    [(2, 1, "referee", "greedy"), (3, 4, "table", "random"), (5, 7, "referee", "greedy"), (4, 2, "table", "greedy")],
)
def test_zodiac_companion_commits_exactly_the_bots_actions(players: int, seed: int, mode: str, bot: str) -> None:
    game = load_game("zodiac")
    options = {"mode": mode, "max_turns": 120}
    truth = game.new_game(players=players, seed=seed, **options)
    driver = Driver(truth, game.new_game(players=players, seed=seed, hands="physical", **options))
    driver.enter(f"dealer {truth.position.dealer}")
    driver.enter(f"open {truth.position.discard[0]}", (truth.position.discard[0],))
    bots = [make_bot(bot, bot_seed(seed, seat)) for seat in range(players)]
    while not truth.is_terminal():
        driver.check_zones()
        action = bots[truth.current_player].choose(truth)
        after = truth.apply(action)
        text, cards = zodiac_texts(truth, action, after)
        driver.enter(text, cards)
        truth = after
        if driver.companion.state.phase == zo.PENALTY and truth.phase != zo.PENALTY:
            driver.enter("lose nothing")  # the cards shown hold no sign: the chooser says so
        t, p = truth.position, driver.companion.state.position
        assert (p.up, p.discard, p.skips, p.current, p.phase) == (t.up, t.discard, t.skips, t.current, t.phase)
        assert [len(h) for h in p.hands] == [len(h) for h in t.hands] and len(p.deck) == len(t.deck)
        assert (p.winner, p.turns) == (t.winner, t.turns)
    assert driver.committed == driver.expected
    assert driver.companion.state.returns() == truth.returns()
    if truth.winner is not None:
        assert driver.companion.frame(driver.now)[ZONES[truth.winner][0]] == GREEN
    if mode == "table" and bot == "random":
        assert driver.skips_seen > 0  # a penalty's skipped turn blinked on its seat zone
