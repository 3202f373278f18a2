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
from typing import Any

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


# --------------------------------------------------------------------------- reading untrusted files
MAX_INPUT_BYTES = 1 << 20  # a command-line tool's input file: 1 MiB is far beyond any real one
MAX_DEPTH = 32  # nesting of JSON arrays and objects
MAX_NUMBER_CHARS = 24  # characters of one JSON number


class InputFileError(ValueError):
    """An input file a command-line tool refuses: one clear line, exit status 2."""


def read_input(path: str, *, limit: int = MAX_INPUT_BYTES, stdin: Any = None) -> str:
    """The text of `path` (`-`: standard input): at most `limit` bytes, UTF-8 (a BOM is
    dropped), no NUL byte (a binary file). InputFileError says what is wrong."""
    import sys

    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            src = stdin if stdin is not None else getattr(sys.stdin, "buffer", sys.stdin)
            data = src.read(limit + 1)
            if isinstance(data, str):  # a text stream (a test's StringIO)
                data = data.encode("utf-8", "surrogateescape")
        else:
            with open(path, "rb") as fh:
                data = fh.read(limit + 1)
    except IsADirectoryError:
        raise InputFileError(f"{name} is a folder, not a file") from None
    except OSError as exc:
        raise InputFileError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputFileError(f"{name} is too large (more than {limit} bytes)")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputFileError(f"{name} is UTF-16 text: save it as UTF-8")
    if b"\x00" in data:
        raise InputFileError(f"{name} is not a text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{name} is not UTF-8 text (byte {exc.start})") from None
    return text.removeprefix("\ufeff")


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (checked before parsing: no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def load_json_text(text: str, name: str = "the file", *, max_depth: int = MAX_DEPTH,
                   max_number: int = MAX_NUMBER_CHARS) -> Any:
    """JSON with limits: nesting, length of numbers, no NaN or Infinity."""
    import json

    if _depth(text) > max_depth:
        raise InputFileError(f"{name}: JSON nested more than {max_depth} levels deep")

    def number(s: str) -> Any:
        if len(s) > max_number:
            raise InputFileError(f"{name}: a number of {len(s)} characters")
        return float(s) if any(c in s for c in ".eE") else int(s)

    def constant(s: str) -> Any:
        raise InputFileError(f"{name}: {s} is not a number")

    try:
        return json.loads(text, parse_int=number, parse_float=number, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{name} is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise InputFileError(f"{name}: JSON nested too deeply") from None


def load_json_input(path: str, **limits: Any) -> Any:
    name = "standard input" if path == "-" else path
    return load_json_text(read_input(path), name, **limits)


def strict_int(value: Any, what: str, lo: int, hi: int) -> int:
    """An integer from parsed JSON: a real integer (not true/false, not 3.0, not "3") in range."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputFileError(f"{what} must be a whole number, not {type(value).__name__}")
    if not lo <= value <= hi:
        raise InputFileError(f"{what} must be between {lo} and {hi}")
    return value


def ascii_digits(text: str) -> bool:
    """Digits 0-9 only (no Arabic-Indic, full-width or superscript digits)."""
    return text.isascii() and text.isdigit()


__all__ = [
    "InputFileError", "ascii_digits", "fsync_dir", "io_message_id", "load_json_input", "load_json_text", "read_input",
    "remove", "strict_int", "temp_beside", "write_atomic", "write_text_atomic",
]
