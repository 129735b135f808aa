"""Files the commands write: said to be unwritable before the work that fills them, not after."""

from __future__ import annotations

import os
from pathlib import Path


def check_writable(path: Path, what: str) -> None:
    """A clear error now, for a file that could not be written later (`what` names it, e.g. an option)."""
    if path.is_dir():
        raise ValueError(f"{what} {path}: a folder, not a file")
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(f"{what} {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"{what} {path}: not allowed to write there")
