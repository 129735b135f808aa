"""Writing the state directory so that a write either is on the disk or is known not to be.

A board's disk is an SD card: it fills up, the kernel remounts it read-only after errors, it wears
out. `atomic_write` replaces a file whole or not at all; `append_all` appends every byte of a record
(a short write is not a done write) and fsyncs it; `trouble_of` says a failure in the terms of the
person at the table (docs/persistence.md, "When the disk fails").
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

# What a failed write means for the person at the table, by the system's error number.
_CAUSES = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file has grown past the size this system allows",
    errno.EROFS: "the disk is read-only (a card the system remounted read-only after errors?)",
    errno.EIO: "the disk reports an input/output error (a failing card?)",
    errno.EACCES: "tafel may not write there (check who owns the directory)",
    errno.EPERM: "tafel may not write there (check who owns the directory)",
    errno.ENOENT: "the directory is gone",
    errno.ENOTDIR: "a file stands where a directory should be",
    errno.EISDIR: "a directory stands where the file should be",
    errno.EEXIST: "a file stands where a directory should be",
}


def trouble_of(error: OSError) -> str:
    """Why a write failed, in words: the cause, not an error number or an exception's name."""
    if error.errno in _CAUSES:
        return _CAUSES[error.errno]
    return error.strerror.lower() if error.strerror else (str(error) or "the disk refused the write")


def append_all(descriptor: int, data: bytes) -> None:
    """Write all of `data` at the end of the open file and fsync it; returns only once it is on disk."""
    view = memoryview(data)
    while view:
        written = os.write(descriptor, view)
        if written <= 0:  # a write that takes nothing would loop for ever: the disk refuses it
            raise OSError(errno.EIO, "the disk took no bytes")
        view = view[written:]
    os.fsync(descriptor)


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace `path` by `data` whole: a temporary file, fsynced, renamed over it, the directory
    fsynced. The new file has `mode` where one is given (a file someone keeps private stays
    private), else 0o644 less the umask."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644 if mode is None else mode)
        try:
            if mode is not None:
                os.fchmod(descriptor, mode)  # whatever a temporary file left there before had
            append_all(descriptor, data)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except OSError:
        _remove_quietly(temporary)  # a half-written temporary file must not fill the disk further
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def _remove_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
