"""Configuration texts shared by the service tests."""

from __future__ import annotations

from pathlib import Path

from controller.games import load_game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "wiring" / "examples"


def sim_config(
    players: int = 2,
    max_plies: int = 10,
    speed: float = 0,
    moves: tuple[str, ...] = (),
    bots: bool = True,
    extra="",
    service="",
) -> str:
    """A Klotz game on the simulated board that ends (as a draw at the latest) after `max_plies`."""
    listed = ", ".join(f'"{move}"' for move in moves)
    return f"""
[board]
profile = "square14"
profile_dir = "{ROOT / "wiring"}"

[game]
name = "klotz"
players = {players}
seed = 3
options = {{ max_plies = {max_plies} }}

[sensors]
backend = "sim"

[leds]
backend = "sim"

[sim]
noise = "low"
seed = 5
speed = {speed}
bots = {"true" if bots else "false"}
moves = [{listed}]

[service]
state_dir = "state"
{service}

[web]
enabled = false  # these tests are about the loop; tests/web serves the app
{extra}
"""


def opening_moves(count: int, players: int = 2) -> tuple[str, ...]:
    """`count` legal Klotz moves from the position of `sim_config` (always the first legal one)."""
    state = load_game("klotz").new_game(players=players, seed=3, max_plies=600)
    moves = []
    for _ in range(count):
        action = state.legal_actions()[0]
        moves.append(state.action_to_str(action))
        state = state.apply(action)
    return tuple(moves)


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path
