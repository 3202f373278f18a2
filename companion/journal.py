"""The journal: every accepted command of a game, one JSON line each, flushed and fsynced.

A crash, a power cut or a closed laptop loses nothing: `companion resume` replays the
journal from its seed. Each line carries a CRC-32 of its payload (binascii), so a line that
was cut short or damaged is found, named, and the valid part before it recovered.

Line 1: {"kind": "start", "game": ..., "options": {...}, "players": [...], "seats": [...],
         "seed": n, "lang": "fr", "version": 1}
Then:   {"kind": "action", "seat": s, "action": <the game's JSON>}
        {"kind": "undo"}
        {"kind": "end", "scores": [...], "winners": [...]}
"""

from __future__ import annotations

import binascii
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

VERSION = 1


def default_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "companion" / "games"


def new_path(game: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    d = default_dir()
    path = d / f"{stamp}-{game}.jsonl"
    n = 1
    while path.exists():
        n += 1
        path = d / f"{stamp}-{game}-{n}.jsonl"
    return path


def latest(directory: Path | None = None) -> Path | None:
    """The most recently written journal of an unfinished game, if any."""
    d = directory or default_dir()
    if not d.is_dir():
        return None
    for path in sorted(d.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            if not read(path).finished:
                return path
        except JournalError:
            return path
    return None


def _encode(record: dict[str, Any]) -> bytes:
    payload = json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    crc = binascii.crc32(payload.encode("utf-8")) & 0xFFFFFFFF
    return f'{{"crc":"{crc:08x}","r":{payload}}}\n'.encode()


class JournalError(Exception):
    """The journal cannot be used as it is. `line` is 1-based; `valid` the records before it."""

    def __init__(self, code: str, path: Path, line: int, valid: list[dict[str, Any]]) -> None:
        super().__init__(f"{path}: {code} at line {line}")
        self.code = code  # missing, empty, damaged, not_a_journal, bad_version
        self.path = path
        self.line = line
        self.valid = valid


@dataclass
class Contents:
    start: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)  # after applying undos
    finished: bool = False
    lines: int = 0


def _decode(raw: bytes) -> dict[str, Any]:
    outer = json.loads(raw.decode("utf-8"))
    payload = json.dumps(outer["r"], ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    if int(outer["crc"], 16) != binascii.crc32(payload.encode("utf-8")) & 0xFFFFFFFF:
        raise ValueError("crc")
    rec = outer["r"]
    if not isinstance(rec, dict) or "kind" not in rec:
        raise ValueError("record")
    return rec


def records(path: Path) -> list[dict[str, Any]]:
    """Every record, or JournalError naming the first bad line (with the valid ones before)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise JournalError("missing", path, 0, []) from None
    if not data.strip():
        raise JournalError("empty", path, 1, [])
    out: list[dict[str, Any]] = []
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for i, raw in enumerate(lines, start=1):
        try:
            rec = _decode(raw)
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            code = "not_a_journal" if i == 1 else "damaged"
            raise JournalError(code, path, i, out) from None
        if i == 1 and (rec.get("kind") != "start"):
            raise JournalError("not_a_journal", path, 1, [])
        if i == 1 and rec.get("version") != VERSION:
            raise JournalError("bad_version", path, 1, [])
        out.append(rec)
    return out


def contents(recs: list[dict[str, Any]]) -> Contents:
    c = Contents(start=recs[0], lines=len(recs))
    for rec in recs[1:]:
        kind = rec["kind"]
        if kind == "action":
            c.actions.append({"seat": rec["seat"], "action": rec["action"]})
        elif kind == "undo" and c.actions:
            c.actions.pop()
        elif kind == "end":
            c.finished = True
    return c


def read(path: Path) -> Contents:
    return contents(records(path))


def recover(path: Path, valid: list[dict[str, Any]]) -> Path:
    """Keep the damaged file beside, as `<name>.damaged`, and rewrite the valid part."""
    backup = path.with_suffix(path.suffix + ".damaged")
    os.replace(path, backup)
    with Journal.create(path, valid[0]) as j:
        for rec in valid[1:]:
            j.write(rec)
    return backup


class Journal:
    """An open journal, appended to and made durable line by line."""

    def __init__(self, path: Path, fh: BinaryIO) -> None:
        self.path = path
        self._fh = fh

    @classmethod
    def create(cls, path: Path, start: dict[str, Any]) -> Journal:
        path.parent.mkdir(parents=True, exist_ok=True)
        j = cls(path, path.open("wb"))
        j.write({**start, "kind": "start", "version": VERSION})
        return j

    @classmethod
    def append_to(cls, path: Path) -> Journal:
        return cls(path, path.open("ab"))

    def write(self, record: dict[str, Any]) -> None:
        self._fh.write(_encode(record))
        self._fh.flush()
        os.fsync(self._fh.fileno())  # one move, one durable line: a power cut loses nothing

    def action(self, seat: int, action: Any) -> None:
        self.write({"kind": "action", "seat": seat, "action": action})

    def undo(self) -> None:
        self.write({"kind": "undo"})

    def end(self, scores: list[int], winners: list[int]) -> None:
        self.write({"kind": "end", "scores": scores, "winners": winners})

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
