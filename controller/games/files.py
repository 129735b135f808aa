"""Reading a file the board is given (a card set, say), bounded and without ever waiting on it.

A path may name anything: a FIFO that never ends, a device that never stops (/dev/zero), a file of
gigabytes. The board reads only regular files, at most `limit` bytes, opened without blocking, so no
such path can hold up the scan loop or fill the memory of a Pi Zero.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_FILE_BYTES = 1 << 20  # a card set is a few kB


def read_bounded(path: str | Path, what: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at `path`; ValueError in words (naming `what` it should be)
    when it is not one, cannot be read, or is longer than `limit`."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as error:
        raise ValueError(f"cannot read {what} {path}: {error.strerror or error}") from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise ValueError(f"{what} {path} is not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(descriptor, min(65536, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise ValueError(f"{what} {path} is too long (at most {limit // 1024} KiB)")
        return b"".join(chunks)
    except OSError as error:
        raise ValueError(f"cannot read {what} {path}: {error.strerror or error}") from None
    finally:
        os.close(descriptor)
