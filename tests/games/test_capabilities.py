"""Every game declares what it is (`Game.capabilities`) and what varies between its states (hooks on
`State`); no front-end probes a game, a state or an action for an attribute it may lack."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from controller.games import GAMES, Capabilities, Game
from controller.games.seats import COLOURS
from controller.terminal import arguments
from controller.terminal.cli import capability_lines
from hal.profile import load_profile

ROOT = Path(__file__).resolve().parents[2]
PROBED = {"game", "state", "action", "a", "before", "after", "previous", "choice", "offered"}


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda game: game.name)
def test_every_game_declares_its_capabilities_and_its_examples_are_its_notation(game: Game) -> None:
    capabilities = game.capabilities
    assert capabilities != Capabilities(), "a game says what it is, not the defaults"
    state = game.new_game()
    assert capabilities.move_examples
    for text in capabilities.move_examples:
        assert state.action_to_str(state.parse_action(text)) == text
    assert capabilities.chance == capabilities.hidden_information == bool(capabilities.card_kinds)
    if capabilities.surface == "board":
        profile = load_profile(capabilities.board_profile)
        assert profile.geometry == capabilities.geometry
    assert bool(capabilities.card_example) == bool(capabilities.card_kinds)  # a card reader reads them


def test_the_card_table_games_are_the_ones_that_say_so() -> None:
    cards = {name for name, game in GAMES.items() if game.capabilities.surface == "cards"}
    assert cards == {"zodiac", "zillertal"}
    assert set(arguments.card_games()) == cards


def test_tafel_games_says_what_a_game_is_in_words() -> None:
    assert capability_lines(GAMES["klotz"].capabilities) == [
        "played on the square board square14; nothing hidden; no chance",
        "moves, e.g.: c7-a6",
    ]
    zillo = capability_lines(GAMES["zillo"].capabilities)
    assert "hidden hands; cards shuffled and drawn" in zillo[0]
    assert zillo[1].startswith("cards: Catcher cards")
    assert "card table" in capability_lines(GAMES["zodiac"].capabilities)[0]


def test_state_hooks_have_defaults_that_games_override_where_they_differ() -> None:
    zodiac = GAMES["zodiac"].new_game(players=6)
    assert zodiac.seats == COLOURS  # four colours; seats 5 and 6 are named by number
    klotz = GAMES["klotz"].new_game(players=3)
    assert len(klotz.seats) == 3
    move = klotz.legal_actions()[0]
    assert klotz.action_card(move) is None and klotz.action_fields(move) is None
    zillo = GAMES["zillo"].new_game(seed=3)
    played = {zillo.action_card(action) for action in zillo.legal_actions()}
    assert None not in played and played <= set(zillo.observation(zillo.current_player)["hand"])
    fillit = GAMES["fillit"].new_game()
    step = fillit.parse_action("p:a1-a3")
    assert fillit.action_fields(step) == ((fillit.game.parse_cell("a1"),), (fillit.game.parse_cell("a3"),))


def _probes(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr"):
            target = node.args[0] if node.args else None
            name = (
                target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else ""
            )
            if name in PROBED:
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_code_probes_a_game_a_state_or_an_action() -> None:
    probes = [probe for package in ("controller", "hal", "sim") for path in sorted((ROOT / package).rglob("*.py"))
              for probe in _probes(path)]  # fmt: skip
    assert not probes, "declare it (Capabilities, a State hook) instead:\n" + "\n".join(probes)


def test_the_probe_check_sees_a_probe(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        'card = getattr(action, "card", None)\nok = hasattr(self.state, "seats")\nx = getattr(config, "x")\n'
    )
    assert _probes(sample) == [
        "sample.py:1: getattr(action, 'card', None)",
        "sample.py:2: hasattr(self.state, 'seats')",
    ]


def test_the_registries_make_each_entry_once_and_only_when_asked() -> None:
    from controller.games.registry import LazyRegistry

    made: list[str] = []

    def maker(name: str):
        def make() -> object:
            made.append(name)
            return object()

        return make

    registry: LazyRegistry[object] = LazyRegistry({"a": maker("a"), "b": maker("b")})
    assert list(registry) == ["a", "b"] and len(registry) == 2 and "a" in registry and "c" not in registry
    assert made == []  # nothing is made before it is looked up
    first = registry["a"]
    assert registry["a"] is first and made == ["a"]
    assert registry.get("c") is None
    assert [name for name, _ in registry.items()] == ["a", "b"] and made == ["a", "b"]
