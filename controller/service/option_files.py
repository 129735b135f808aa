"""Game options that name a file (Zillertal's card set): a screen chooses among the files this board
keeps in its state directory, by name, and never names a path; an invitation to another board
carries the name, never this board's path (docs/remote.md, rule 11)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from controller.games import Game

OPTION_FILES = "*.toml"  # the files an option that names a file may choose, in the state directory
BUILT_IN = "built-in"  # the name of an option file's default (the game's own data)


class OptionFileError(ValueError):
    """A file option naming no file this board knows, in words."""


def option_files(state_dir: str | Path, game: Game) -> dict[str, list[str]]:
    """For each option of `game` that names a file: the names a screen may choose from (the
    built-in default first, then the `.toml` files in the state directory's folder of that name)."""
    known = {}
    for option in game.options:
        if option.names_file:
            folder = Path(state_dir) / option.name
            names = sorted(path.stem for path in folder.glob(OPTION_FILES) if path.is_file())
            known[option.name] = [BUILT_IN, *names]
    return known


def chosen_files(state_dir: str | Path, game: Game, options: Mapping[str, Any]) -> dict[str, Any]:
    """`options` as a screen chose them, with each file chosen by name turned into its path here
    (None for the built-in default); an OptionFileError for a name this board has no file of."""
    resolved = dict(options)
    for name, names in option_files(state_dir, game).items():
        value = options.get(name)
        if value is None or value == BUILT_IN:
            resolved[name] = None
        elif isinstance(value, str) and value in names:
            resolved[name] = str(Path(state_dir) / name / f"{value}.toml")
        else:
            raise OptionFileError(f"{name}: choose one of the files this board knows: {', '.join(names)}")
    return resolved


def shared_options(game: Game, options: Mapping[str, Any]) -> dict[str, Any]:
    """`options` as a screen chose them, as an invitation carries them: a file by the name chosen,
    the built-in default left out (the other board takes it by itself)."""
    files = {option.name for option in game.options if option.names_file}
    return {
        name: value for name, value in options.items() if not (name in files and (value is None or value == BUILT_IN))
    }
