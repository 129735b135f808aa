"""Reading a file the board is given (a configuration, a board profile, a card set, a file it
kept), bounded and without ever waiting on it.

A path may name anything: a FIFO that never ends, a device that never stops (/dev/zero), a file of
gigabytes, a directory, bytes that are no text. The board reads only regular files, at most
`limit` bytes, opened without blocking, so no such path can hold up the scan loop or fill the
memory of a Pi Zero, and what is wrong with one is said in words that name the file.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MAX_FILE_BYTES = 1 << 20  # a configuration, a profile or a card set is a few kB


class UnreadableFile(ValueError):
    """A file that cannot be read as asked, in words; `missing` when nothing is there at all (a
    caller may have more to say about that: where an example is, say)."""

    def __init__(self, message: str, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing


def read_bounded(path: str | Path, what: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at `path`; UnreadableFile in words (naming `what` it should
    be) when it is not one, cannot be read, or is longer than `limit`."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as error:
        missing = error.errno in (errno.ENOENT, errno.ENOTDIR)
        raise UnreadableFile(f"cannot read {what} {path}: {error.strerror or error}", missing) from None
    except ValueError:  # a NUL in the name: no file can be called that
        raise UnreadableFile(f"cannot read {what} {str(path)!r}: no file name holds a NUL character", True) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise UnreadableFile(f"{what} {path} is a directory, not a file")
        if not stat.S_ISREG(mode):
            raise UnreadableFile(f"{what} {path} is not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(descriptor, min(65536, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise UnreadableFile(f"{what} {path} is too long (at most {_size(limit)})")
        return b"".join(chunks)
    except OSError as error:
        raise UnreadableFile(f"cannot read {what} {path}: {error.strerror or error}") from None
    finally:
        os.close(descriptor)


def read_text(path: str | Path, what: str, limit: int = MAX_FILE_BYTES) -> str:
    """The text of the regular file at `path`, as read_bounded reads it, decoded as UTF-8. A byte
    order mark that an editor put first is dropped (TOML and JSON have none), and bytes that are no
    UTF-8 are named by their line."""
    data = read_bounded(path, what, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise UnreadableFile(
            f"{what} {path} is not UTF-8 text: line {line} holds a byte that is not (save it as UTF-8)"
        ) from None


def _size(limit: int) -> str:
    """A limit in the largest unit it has one of, exact to a tenth: "256 KiB", "1.5 MiB", "600 bytes"."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size:
            return f"{round(limit / size, 1):g} {unit}"
    return f"{limit} bytes"
