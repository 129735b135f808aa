"""What the service's parts (its table control and settings) read of the service that holds them,
declared once so that each part depends on this and not on the whole service."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from controller.games import Game, State
from controller.service.config import Config
from controller.service.remote_board import RemoteBoard
from controller.table.session import Session
from sim.driver import HandsDriver

if TYPE_CHECKING:
    from controller.service.backends import Backends
    from controller.service.persistence import Persistence


class Host(Protocol):
    """What the table control reads of the service that holds it: the configuration, the devices, the
    journal, the game laid out on the board now, and how to lay out another."""

    config: Config
    backends: Backends | None
    persistence: Persistence
    log: logging.Logger
    session: Session | None
    driver: HandsDriver | None
    game: Game | None
    remote: RemoteBoard | None

    def begin(
        self, history: list[State], start: dict[str, Any], actions: Sequence[tuple[str, str]], first: bool = False
    ) -> None: ...
