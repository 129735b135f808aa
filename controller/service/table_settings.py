"""The table's settings, changed from a screen: the take-back mode, the timings players may adjust
(`ADJUSTABLE_MS`, with their ranges) and the LEDs' brightness. They are kept beside the journal, so
they outlive a restart and win over the configuration file's."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from controller.files import UnreadableFile, read_text
from controller.service.control import CommandError, Settings
from controller.service.disk import atomic_write, trouble_of
from controller.service.host import Host
from controller.table.tracker_types import ADJUSTABLE_MS, TAKEBACK_MODES
from hal.protocols import DimmablePixels

SETTINGS_FILE = "settings.json"


class TableSettings:
    """The settings of the table the service runs (a part of its table control)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.tracker_config = host.config.tracker  # the configuration's, as changed at the table

    @property
    def path(self) -> Path:
        """Where the settings are kept: beside the journal."""
        return Path(self.host.config.service.state_dir) / SETTINGS_FILE

    def now(self) -> dict[str, Any]:
        """The settings as the screens show them."""
        pixels = self.host.backends.pixels if self.host.backends is not None else None
        config = self.tracker_config
        return {
            "brightness": pixels.brightness if isinstance(pixels, DimmablePixels) else None,
            "takeback": config.takeback,
            **{name: getattr(config, name) for name in ADJUSTABLE_MS},
        }

    def load(self) -> None:
        """The settings last changed at the table win over the configuration file's."""
        self.tracker_config = self.host.config.tracker
        path = self.path
        try:
            data = json.loads(read_text(path, "the table's settings"))
            if not isinstance(data, dict):
                raise ValueError("not a table of settings")
            saved = Settings(**{key: data[key] for key in Settings.__dataclass_fields__ if key in data})
            self.change(saved, keep=False)
        except UnreadableFile as error:
            if not error.missing:  # a directory or a device where the settings were: said, not passed over
                self.host.log.warning("%s: ignored; the configuration's settings apply", error)
        except (OSError, ValueError, TypeError) as error:
            self.host.log.warning("%s: ignored (%s); the configuration's settings apply", path, error)

    def change(self, command: Settings, keep: bool = True) -> str:
        """Carry out a screen's change of the settings; what changed, in words (CommandError: none).
        With `keep`, the settings are on the disk before they apply: one the disk refuses is refused,
        never applied to revert at the next start (docs/persistence.md, "When the disk fails")."""
        changes: dict[str, Any] = {}
        said = []
        if command.takeback is not None:
            if command.takeback not in TAKEBACK_MODES:
                raise CommandError(f"take-back must be one of {', '.join(TAKEBACK_MODES)}, not {command.takeback!r}")
            changes["takeback"] = command.takeback
            said.append(f"take-back {command.takeback}")
        for name, (low, high) in ADJUSTABLE_MS.items():
            value = getattr(command, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise CommandError(f"{name.replace('_', ' ')} must be a whole number of ms from {low} to {high}")
            changes[name] = value
            said.append(f"{name.replace('_ms', '').replace('_', ' ')} {value} ms")
        brightness = command.brightness
        pixels = self.host.backends.pixels if self.host.backends is not None else None
        if brightness is not None:
            if isinstance(brightness, bool) or not isinstance(brightness, int | float) or not 0.05 <= brightness <= 1:
                raise CommandError("brightness must be a number from 0.05 to 1")
            if not isinstance(pixels, DimmablePixels):
                raise CommandError(f"the LEDs here ({self.host.config.leds.backend}) have no brightness to set")
        config = replace(self.tracker_config, **changes)
        if keep:
            level = brightness if brightness is not None else self.now()["brightness"]
            self._save({**self.now(), **changes, "brightness": level})
        if brightness is not None and isinstance(pixels, DimmablePixels):
            pixels.set_brightness(float(brightness))
            if self.host.session is not None:
                self.host.session.composer.forget_shown()  # send the frame again at the new level
            said.append(f"brightness {brightness:g}")
        self.tracker_config = config
        if self.host.session is not None:
            self.host.session.tracker.config = config
        return "settings: " + (", ".join(said) or "nothing changed")

    def _save(self, settings: dict[str, Any]) -> None:
        try:
            atomic_write(self.path, json.dumps(settings, sort_keys=True).encode("utf-8"))
        except OSError as error:
            raise CommandError(f"the settings cannot be kept ({trouble_of(error)}): nothing changed") from None
