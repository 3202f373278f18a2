"""Writing the companion's small files so that a crash, a kill or a full disk never leaves one
empty or half written: write a temporary file beside it, sync it, rename it over the old one,
sync the folder. Readers see the old file or the new one, never a mix.

Also: the one sentence said for an environment failure (disk full, I/O error, read-only folder),
as a message id of core.po, so every writer reports the same way.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from pathlib import Path

# errno -> message id (core.po); anything else: core.error.io_other.
_ERRNO_MSG = {
    errno.ENOSPC: "core.error.io_full",
    errno.EDQUOT: "core.error.io_full",
    errno.EROFS: "core.error.io_read_only",
    errno.EACCES: "core.error.io_denied",
    errno.EPERM: "core.error.io_denied",
    errno.EIO: "core.error.io_failed",
}


def io_message_id(exc: BaseException) -> str:
    """The core.po message that says what went wrong with a file, in one sentence."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return _ERRNO_MSG.get(exc.errno, "core.error.io_other")
    return "core.error.io_other"


def fsync_dir(directory: Path) -> None:
    """Make a rename or a new name in `directory` durable (no-op where folders cannot be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):  # some file systems refuse fsync on a folder
            os.fsync(fd)
    finally:
        os.close(fd)


def temp_beside(path: Path) -> tuple[Path, int]:
    """A new, exclusively created temporary file in `path`'s folder (name, open descriptor)."""
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(path))


def write_atomic(path: Path | str, data: bytes | str, *, encoding: str = "utf-8", mkdir: bool = True) -> None:
    """Replace `path` with `data`, all or nothing. OSError (disk full, read-only...) leaves the
    old file as it was and no temporary file behind."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode(encoding)
    if mkdir:
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp, fd = temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(OSError):
            if path.exists():
                os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(path.parent)


def write_text_atomic(path: Path | str, text: str) -> None:
    write_atomic(path, text.encode("utf-8"))


def remove(path: Path | str) -> None:
    """Delete a file (missing is fine), durably."""
    path = Path(path)
    path.unlink(missing_ok=True)
    fsync_dir(path.parent)


__all__ = ["fsync_dir", "io_message_id", "remove", "temp_beside", "write_atomic", "write_text_atomic"]
