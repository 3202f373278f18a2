"""The user's tokens known by their tag's UID alone (`companion reader pair`): a JSON object
`{"04a1b2c3d4e5f6": "kikoi:kigliss-sleep", ...}` in the user's data folder, written atomically
(a temporary file, fsync, rename) so that a crash never leaves half a file."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from companion import paths


def pairs_path() -> Path:
    env = os.environ.get("COMPANION_READER_PAIRS")
    if env:
        return Path(env)
    return paths.data_dir() / "reader-tokens.json"


class PairsError(Exception):
    """The pairs file exists but is not one (damaged, hand-edited, nested too deep, unreadable):
    said in one sentence (`msg_id`, param path), never used, never overwritten (issue 25)."""

    msg_id = "core.reader.pairs_damaged"

    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(f"{path}: {detail}")
        self.path = path


def load_pairs(path: Path | None = None) -> dict[str, str]:
    """The pairs saved; {} when there are none yet; PairsError when the file is not a pairs file."""
    path = path or pairs_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, RecursionError) as exc:  # RecursionError: « [[[[… » nested deep
        raise PairsError(path, type(exc).__name__) from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise PairsError(path, "not an object of strings")
    return {k.lower(): v for k, v in data.items()}


def save_pairs(pairs: dict[str, str], path: Path | None = None) -> Path:
    path = path or pairs_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".reader-tokens.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(dict(sorted(pairs.items())), fh, ensure_ascii=False, indent=1)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    return path
