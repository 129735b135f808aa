"""The service's log lines with journald levels: each line starts with the sd-daemon(3) priority
prefix (`<6>` info, `<4>` warning, `<3>` error) that journald turns into the entry's priority."""

from __future__ import annotations

import logging
import sys
from typing import TextIO


def sd_level(levelno: int) -> int:
    """The syslog priority of a Python log level (sd-daemon(3) prefixes)."""
    if levelno >= logging.CRITICAL:
        return 2
    if levelno >= logging.ERROR:
        return 3
    if levelno >= logging.WARNING:
        return 4
    if levelno >= logging.INFO:
        return 6
    return 7


class JournalFormatter(logging.Formatter):
    """Every line (also of a traceback) starts with `<N>`, so journald files it at the right level."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{sd_level(record.levelno)}>"
        return "\n".join(prefix + line for line in (super().format(record).splitlines() or [""]))


def configure_logging(level: str = "info", stream: TextIO | None = None) -> logging.Handler:
    """Send all log records to `stream` (stdout) with journald prefixes; returns the handler."""
    handler = logging.StreamHandler(stream or sys.stdout)
    handler.setFormatter(JournalFormatter("%(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.captureWarnings(True)
    return handler
