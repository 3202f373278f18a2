"""The journal (the save file): every accepted command of a game, one JSON line each, fsynced.

A crash, a power cut or a closed laptop loses nothing: `companion resume` replays the journal
from its first line alone. Each line carries a CRC-32 of its payload, so a line that was cut
short or damaged is found and named; a single flipped byte is put right from the CRC; glued
lines (a save that lost its final newline, written by an older version) are split again.

Format, version 2 (version 1 files are still read):

Line 1: {"kind": "start", "game": ..., "options": {...}, "players": [...], "seats": [...],
         "seed": n, "lang": "fr", "version": 2, "schema": s, "resolved": {...}}
         `schema` is the game's action schema version; `resolved` what the options resolved
         to when the game was created (Good Fortune's deck tiles), so a resume never reads
         anything but this file.
Then:   {"kind": "action", "seat": s, "action": <the game's JSON>}
        {"kind": "undo"}
        {"kind": "announced", "ply": n}   the first n moves (after undos) were narrated
        {"kind": "end", "scores": [...], "winners": [...]}
        {"kind": "setting", "seat": s or null, "key": "verbosity", "value": "terse"}
              a setting changed during the game, for one player or (null) the table;
              a resume applies them in order. Saves without them read as before.

One writer per save: an open `Journal` holds an exclusive lock (fcntl.flock) on its file for
the whole session; a second companion on the same game gets JournalError("already_open").
New saves are created exclusively (O_EXCL), never overwriting anything. Appends always start
on a fresh line. Repair writes the repaired save beside, syncs it, keeps the original as
`<name>.damaged` (then `.damaged-2`, ...) and renames: interrupted anywhere, nothing is lost.

A write that fails (disk full, I/O error, read-only folder) raises JournalWriteError carrying
a core.po message id; the journal then stops writing (`stopped`), the file keeps a consistent
prefix of the game, and the table says once that saving stopped.
"""

from __future__ import annotations

import binascii
import contextlib
import errno
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import paths
from companion.core import ActionDecodeError, Game
from companion.saves.files import fsync_dir, io_message_id, temp_beside

VERSION = 2
READABLE = (1, 2)  # format versions this code reads
KINDS = frozenset({"start", "action", "undo", "announced", "end", "setting"})
MAX_LINE = 1 << 20  # a longer line is not a record of this companion
_FIX_LIMIT = 4096  # lines up to this length are searched for a single flipped byte

try:  # POSIX; elsewhere a save is simply not locked
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def default_dir() -> Path:
    return paths.data_dir() / "games"


def _candidates(directory: Path, game: str) -> Iterator[Path]:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    yield directory / f"{stamp}-{game}.jsonl"
    for n in range(2, 10_000):
        yield directory / f"{stamp}-{game}-{n}.jsonl"


def new_path(game: str) -> Path:
    """A free name for a new save (`Journal.create_new` takes it exclusively)."""
    for path in _candidates(default_dir(), game):
        if not path.exists():
            return path
    raise FileExistsError(errno.EEXIST, "no free save name", str(default_dir()))


def latest(directory: Path | None = None) -> Path | None:
    """The most recently written journal of an unfinished game, if any."""
    d = directory or default_dir()
    if not d.is_dir():
        return None
    paths = []
    for p in d.glob("*.jsonl"):
        with contextlib.suppress(OSError):
            paths.append((p.stat().st_mtime, p))
    for _, path in sorted(paths, reverse=True):
        try:
            if not read(path).finished:
                return path
        except JournalError:
            return path
    return None


# --------------------------------------------------------------------------- codec
def _payload(rec: Any) -> bytes:
    return json.dumps(rec, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def _encode(record: dict[str, Any]) -> bytes:
    payload = _payload(record)
    crc = binascii.crc32(payload) & 0xFFFFFFFF
    return b'{"crc":"%08x","r":' % crc + payload + b"}\n"


def _decode(raw: bytes) -> dict[str, Any]:
    """One line's record; ValueError when it is not one intact record of a journal."""
    if len(raw) > MAX_LINE:
        raise ValueError("too long")
    try:
        outer = json.loads(raw.decode("utf-8"))
        if not isinstance(outer, dict) or not isinstance(outer.get("crc"), str) or len(outer["crc"]) != 8:
            raise ValueError("shape")
        crc = int(outer["crc"], 16)
        payload = _payload(outer["r"])
    except (KeyError, TypeError, UnicodeDecodeError, RecursionError, OverflowError) as exc:
        raise ValueError(type(exc).__name__) from None
    if crc != binascii.crc32(payload) & 0xFFFFFFFF:
        raise ValueError("crc")
    rec = outer["r"]
    if not isinstance(rec, dict) or not isinstance(rec.get("kind"), str):
        raise ValueError("record")
    return rec


def _fix_one_byte(raw: bytes) -> dict[str, Any] | None:
    """The record a line held before one of its bytes was changed, if the CRC says so: the
    frame (`{"crc":"........","r":` ... `}`) is rebuilt, a damaged CRC digit recomputed, or
    each byte of the payload tried until the CRC matches (then the record is decoded)."""
    head, mid = b'{"crc":"', b'","r":'
    if not 24 <= len(raw) <= _FIX_LIMIT:
        return None
    crc_hex, payload = raw[8:16], raw[22:-1]

    def framed(crc: bytes, body: bytes) -> dict[str, Any] | None:
        try:
            return _decode(head + crc + mid + body + b"}")
        except ValueError:
            return None

    actual = binascii.crc32(payload) & 0xFFFFFFFF
    mine = b"%08x" % actual
    try:
        stated: int | None = int(crc_hex, 16)
    except ValueError:
        stated = None
    if stated == actual or sum(x != y for x, y in zip(crc_hex, mine, strict=True)) == 1:
        return framed(mine, payload)  # the frame or one CRC digit was hit, the payload is whole
    if stated is None or raw[:8] != head or raw[16:22] != mid or not raw.endswith(b"}"):
        return None
    buf = bytearray(payload)
    crc32 = binascii.crc32
    for i, orig in enumerate(payload):
        for value in range(256):
            buf[i] = value
            if value != orig and crc32(buf) & 0xFFFFFFFF == stated:
                got = framed(crc_hex, bytes(buf))
                if got is not None:
                    return got
        buf[i] = orig
    return None


def _unglue(raw: bytes) -> list[dict[str, Any]] | None:
    """Two or more records written on one line (a lost newline), each intact."""
    if raw.count(b'}{"crc":') == 0:
        return None
    parts = raw.split(b'}{"crc":')
    pieces = [parts[0] + b"}"] + [b'{"crc":' + p + b"}" for p in parts[1:-1]] + [b'{"crc":' + parts[-1]]
    try:
        return [_decode(p) for p in pieces]
    except ValueError:
        return None


# --------------------------------------------------------------------------- errors
class JournalError(Exception):
    """The journal cannot be used as it is. `line` is 1-based; `valid` the records before it.

    Codes: missing, empty, damaged, not_a_journal, bad_version, newer_schema, unknown_game,
    already_open, exists, unreadable. The message id is `core.error.journal_<code>`."""

    def __init__(self, code: str, path: Path, line: int, valid: list[dict[str, Any]], detail: str = "") -> None:
        super().__init__(f"{path}: {code} at line {line}" + (f" ({detail})" if detail else ""))
        self.code = code
        self.path = path
        self.line = line
        self.valid = valid
        self.detail = detail

    @property
    def msg_id(self) -> str:
        return f"core.error.journal_{self.code}"


class JournalWriteError(Exception):
    """Saving failed (disk full, I/O error, read-only folder): `msg_id` names the sentence in
    core.po (params: path); the journal has stopped writing; the game itself can go on."""

    def __init__(self, exc: OSError, path: Path) -> None:
        super().__init__(f"{path}: {exc.strerror or exc}")
        self.msg_id = io_message_id(exc)
        self.path = path
        self.errno = exc.errno
        self.saving_stopped = "core.journal_saving_stopped"


# --------------------------------------------------------------------------- reading
@dataclass
class Problem:
    """Something found on reading a save: `line` 1-based; `code`: damaged (set aside),
    unknown_record (a kind this version does not know: set aside), unknown_move (a move that
    is not one of this game: set aside), fixed (one damaged byte put right from the CRC),
    glued (records sharing a line, split again)."""

    line: int
    code: str
    detail: str = ""


@dataclass
class Contents:
    start: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)  # after applying undos
    finished: bool = False
    lines: int = 0
    announced: int | None = None  # moves known to have been narrated; None: no marker at all
    action_lines: list[int] = field(default_factory=list, repr=False)  # line of each action
    settings: list[tuple[int | None, str, str]] = field(default_factory=list)  # (seat, key, value) in order

    @property
    def unannounced(self) -> list[dict[str, Any]]:
        """Moves saved but never said (a kill between the write and the narration)."""
        if self.announced is None:
            return []
        return self.actions[self.announced:]


@dataclass
class Scan:
    """A save as read: its good records (with their line numbers) and what was wrong."""

    records: list[tuple[int, dict[str, Any]]]
    problems: list[Problem]
    stop: int | None = None  # first line set aside (everything from it on), None: none
    set_aside_moves: int = 0  # action records from `stop` on that could be read
    total_lines: int = 0
    needs_rewrite: bool = False


def scan(data: bytes, path: Path) -> Scan:
    """Read every line; raise JournalError only when nothing at all can be resumed."""
    if not data.strip():
        raise JournalError("empty", path, 1, [])
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out: list[tuple[int, dict[str, Any]]] = []
    problems: list[Problem] = []
    stop: int | None = None
    rewrite = False  # a lost final newline or a blank line is harmless: no rewrite for them
    for i, raw in enumerate(lines, start=1):
        if stop is not None:
            continue
        if not raw.strip():
            continue
        recs: list[dict[str, Any]] | None
        try:
            recs = [_decode(raw)]
        except ValueError:
            recs = _unglue(raw)
            if recs is not None:
                problems.append(Problem(i, "glued"))
            else:
                fixed = _fix_one_byte(raw)
                recs = [fixed] if fixed is not None else None
                if recs is not None:
                    problems.append(Problem(i, "fixed"))
            rewrite = True
        if recs is None:
            if not out:
                raise JournalError("not_a_journal", path, i, [])
            stop = i
            problems.append(Problem(i, "damaged"))
            continue
        for rec in recs:
            if not out:
                if rec.get("kind") != "start":
                    raise JournalError("not_a_journal", path, i, [])
                if rec.get("version") not in READABLE:
                    raise JournalError("bad_version", path, i, [], str(rec.get("version")))
                bad = _start_problem(rec)
                if bad:
                    raise JournalError("not_a_journal", path, i, [], bad)
            elif rec.get("kind") not in KINDS or rec.get("kind") == "start" or _record_problem(rec):
                # set aside alone (kept in the .damaged copy): what follows is read and replayed
                # when it can be (issue 25); `companion.cli.runner` refuses the save when it cannot
                problems.append(Problem(i, "unknown_record", str(rec.get("kind"))[:40]))
                rewrite = True
                continue
            out.append((i, rec))
    set_aside = 0
    if stop is not None:
        for raw in lines[stop - 1:]:
            with contextlib.suppress(ValueError):
                if _decode(raw).get("kind") == "action":
                    set_aside += 1
    return Scan(out, problems, stop, set_aside, len(lines), rewrite)


def _start_problem(rec: dict[str, Any]) -> str:
    if not isinstance(rec.get("game"), str):
        return "game"
    players, seats = rec.get("players"), rec.get("seats")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or not 1 <= len(players) <= 16:
        return "players"
    if not isinstance(seats, list) or len(seats) != len(players) or not all(s is None or isinstance(s, str) for s in seats):
        return "seats"
    seed = rec.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
        return "seed"
    if not isinstance(rec.get("options", {}), dict) or not isinstance(rec.get("resolved", {}), dict):
        return "options"
    schema = rec.get("schema", 1)
    if not isinstance(schema, int) or isinstance(schema, bool):
        return "schema"
    return ""


def _record_problem(rec: dict[str, Any]) -> bool:
    kind = rec["kind"]
    if kind == "action":
        seat = rec.get("seat")
        return not isinstance(seat, int) or isinstance(seat, bool) or "action" not in rec
    if kind == "announced":
        ply = rec.get("ply")
        return not isinstance(ply, int) or isinstance(ply, bool) or ply < 0
    if kind == "setting":
        seat = rec.get("seat")
        bad_seat = seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0)
        return bad_seat or not isinstance(rec.get("key"), str) or not isinstance(rec.get("value"), str)
    return False


def records(path: Path) -> list[dict[str, Any]]:
    """Every record, or JournalError naming the first bad line (with the valid ones before)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise JournalError("missing", path, 0, []) from None
    except OSError as exc:
        raise JournalError("unreadable", path, 0, [], str(exc.strerror)) from None
    s = scan(data, path)
    if s.stop is not None or s.problems:
        first = s.problems[0]
        code = "damaged" if first.code in ("damaged", "fixed", "glued") else first.code
        valid = [r for line, r in s.records if line < first.line]
        raise JournalError(code, path, first.line, valid)
    return [r for _, r in s.records]


def contents(recs: list[dict[str, Any]], lines: list[int] | None = None) -> Contents:
    c = Contents(start=recs[0], lines=len(recs))
    nums = lines or list(range(1, len(recs) + 1))
    for rec, line in zip(recs[1:], nums[1:], strict=False):
        kind = rec["kind"]
        if kind == "action":
            c.actions.append({"seat": rec["seat"], "action": rec["action"]})
            c.action_lines.append(line)
        elif kind == "undo" and c.actions:
            c.actions.pop()
            c.action_lines.pop()
            if c.announced is not None:
                c.announced = min(c.announced, len(c.actions))
        elif kind == "announced":
            c.announced = min(int(rec["ply"]), len(c.actions))
        elif kind == "end":
            c.finished = True
        elif kind == "setting":
            c.settings.append((rec["seat"], rec["key"], rec["value"]))
    return c


def read(path: Path) -> Contents:
    return contents(records(path))


# --------------------------------------------------------------------------- writing
# A save holds the seed, so every hand dealt: its owner's alone, like the --log (issue 25).
SAVE_MODE = 0o600


def _open_locked(path: Path, flags: int, mode: int = SAVE_MODE) -> int:
    """Open `path` and take its exclusive lock (the one writer of this save), or raise
    JournalError("already_open"). The lock is on the very file the name points to."""
    for _ in range(20):
        fd = os.open(path, flags, mode)
        if fcntl is None:
            return fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise JournalError("already_open", path, 0, []) from None
            raise
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # renamed under us (a repair by another companion): open the new one
        flags &= ~(os.O_CREAT | os.O_EXCL)
    raise JournalError("already_open", path, 0, [])


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


class Journal:
    """An open journal, appended to and made durable line by line, its lock held until close."""

    def __init__(self, path: Path, fh: Any = None, *, fd: int | None = None, plies: int = 0) -> None:
        self.path = path
        self._fh = fh  # kept for callers of the old constructor; writes go through `_fd`
        self._fd = fd if fd is not None else (fh.fileno() if fh is not None else -1)
        self.plies = plies  # moves on record after undos (what `announced` marks)
        self.stopped = False  # a write failed: nothing more is written
        self._announced = -1

    # ---- opening
    @classmethod
    def create(cls, path: Path, start: dict[str, Any], *, schema: int | None = None) -> Journal:
        """A new save at `path`; JournalError("exists") rather than overwrite anything."""
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = _open_locked(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND)
        except FileExistsError:
            raise JournalError("exists", path, 0, []) from None
        j = cls(path, fd=fd)
        head = {**start, "kind": "start", "version": VERSION}
        if schema is not None:
            head["schema"] = schema
        try:
            j.write(head)
        except JournalWriteError:
            j.close()
            with contextlib.suppress(OSError):
                path.unlink()
            raise
        fsync_dir(path.parent)
        return j

    @classmethod
    def create_new(cls, game: str, start: dict[str, Any], directory: Path | None = None, *, schema: int | None = None) -> Journal:
        """A new save with a fresh name in `directory` (two started in one second get two)."""
        d = directory or default_dir()
        for path in _candidates(d, game):
            try:
                return cls.create(path, start, schema=schema)
            except JournalError as exc:
                if exc.code != "exists":
                    raise
        raise JournalError("exists", d, 0, [])

    @classmethod
    def append_to(cls, path: Path) -> Journal:
        """The save at `path`, locked, ready to append on a fresh line."""
        try:
            fd = _open_locked(path, os.O_RDWR | os.O_APPEND)
        except FileNotFoundError:
            raise JournalError("missing", path, 0, []) from None
        j = cls(path, fd=fd)
        try:
            data = _read_fd(fd)
            if data and not data.endswith(b"\n"):
                j._raw(b"\n")
            with contextlib.suppress(JournalError, ValueError, KeyError):
                s = scan(data, path)
                j.plies = len(contents([r for _, r in s.records]).actions)
        except BaseException:
            j.close()
            raise
        return j

    # ---- writing
    def _raw(self, data: bytes, sync: bool = True) -> None:
        if self.stopped:
            return
        try:
            size = os.fstat(self._fd).st_size
        except OSError:
            size = -1
        try:
            _write_all(self._fd, data)
            if sync:
                os.fsync(self._fd)  # one move, one durable line: a power cut loses nothing
        except OSError as exc:
            self.stopped = True
            if size >= 0:
                with contextlib.suppress(OSError):
                    os.ftruncate(self._fd, size)  # no half line left behind
            raise JournalWriteError(exc, self.path) from exc

    def write(self, record: dict[str, Any]) -> None:
        self._raw(_encode(record))

    def action(self, seat: int, action: Any) -> None:
        self.write({"kind": "action", "seat": seat, "action": action})
        self.plies += 1

    def undo(self) -> None:
        self.write({"kind": "undo"})
        self.plies = max(0, self.plies - 1)
        self._announced = min(self._announced, self.plies)

    def announced(self) -> None:
        """Every move written so far has been narrated (call after saying them). Not synced:
        a lost marker only makes a resume say a move again, never lose one."""
        if self._announced == self.plies:
            return
        self._raw(_encode({"kind": "announced", "ply": self.plies}), sync=False)
        self._announced = self.plies

    def end(self, scores: list[int], winners: list[int]) -> None:
        self.write({"kind": "end", "scores": scores, "winners": winners})

    def setting(self, seat: int | None, key: str, value: str) -> None:
        """A setting changed during the game (the table's when `seat` is None). Not synced:
        a lost one only makes a resume use the setting from before it."""
        self._raw(_encode({"kind": "setting", "seat": seat, "key": key, "value": value}), sync=False)

    def close(self) -> None:
        if self._fh is not None:
            if not self._fh.closed:
                self._fh.close()
        elif self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)
        self._fd = -1

    @property
    def closed(self) -> bool:
        return self._fd < 0

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _read_fd(fd: int) -> bytes:
    chunks: list[bytes] = []
    offset = 0
    while True:
        chunk = os.pread(fd, 1 << 20, offset)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)


# --------------------------------------------------------------------------- repair
def _damaged_name(path: Path) -> Iterator[Path]:
    yield path.with_name(path.name + ".damaged")
    for n in range(2, 100_000):
        yield path.with_name(f"{path.name}.damaged-{n}")


def _keep_copy(path: Path) -> Path:
    """A hard link (or else a copy) of the save as it is, under the first free .damaged name."""
    for backup in _damaged_name(path):
        try:
            os.link(path, backup)
            return backup
        except FileExistsError:
            continue
        except OSError:  # no hard links here: copy, exclusively
            try:
                fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, SAVE_MODE)
            except FileExistsError:
                continue
            with os.fdopen(fd, "wb") as fh:
                fh.write(path.read_bytes())
                fh.flush()
                os.fsync(fh.fileno())
            return backup
    raise FileExistsError(errno.EEXIST, "no free .damaged name", str(path))


def rewrite(path: Path, recs: list[dict[str, Any]]) -> Path:
    """Replace the save by `recs`, crash-safe: the new save is written beside and synced, the
    old one kept as `.damaged[-n]` (never overwriting an earlier copy), then renamed. Returns
    the copy's path. Interrupted anywhere, the save is the old one or the new one, whole."""
    data = b"".join(_encode(r) for r in recs)
    tmp, fd = temp_beside(path)
    try:
        with contextlib.suppress(OSError):
            os.fchmod(fd, SAVE_MODE)
        _write_all(fd, data)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        backup = _keep_copy(path)
        fsync_dir(path.parent)
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(path.parent)
    return backup


def recover(path: Path, valid: list[dict[str, Any]]) -> Path:
    """Keep the damaged file beside (`<name>.damaged`, numbered if taken) and make the save
    the valid part. Crash-safe (see `rewrite`)."""
    return rewrite(path, valid)


# --------------------------------------------------------------------------- resume
@dataclass
class Opened:
    """A save opened for resuming: locked, read, and (after `settle`) repaired if need be."""

    path: Path
    scan: Scan
    fd: int
    backup: Path | None = None
    kept: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    readonly: bool = False  # opened for reading only (a read-only folder): never written

    @property
    def start(self) -> dict[str, Any]:
        return self.scan.records[0][1]

    def contents(self, upto: int | None = None) -> Contents:
        """What the save holds, from the records before line `upto` (all when None)."""
        recs = [(line, r) for line, r in self.scan.records if upto is None or line < upto]
        return contents([r for _, r in recs], [line for line, _ in recs])

    def settle(self, cut: int | None = None, problem: Problem | None = None, skip: frozenset[int] = frozenset()) -> Journal | None:
        """Keep the records before line `cut` (and before any bad line), but those of the lines
        in `skip` (set aside alone), rewrite the save crash-safely when anything was set aside
        or mended, and return the journal to append to, still locked. A save opened read-only
        is never written: None (the game is played unsaved)."""
        if skip:
            self.scan.records = [(line, r) for line, r in self.scan.records if line not in skip]
            self.scan.needs_rewrite = True
        if self.readonly:
            if problem is not None:
                self.scan.problems.append(problem)
            if cut is not None and (self.scan.stop is None or cut < self.scan.stop):
                self.scan.stop = cut
            self.kept = [(line, r) for line, r in self.scan.records if self.scan.stop is None or line < self.scan.stop]
            return None
        for stale in self.path.parent.glob(f".{self.path.name}.*.tmp"):
            with contextlib.suppress(OSError):  # left by a repair that was killed: we hold the lock
                stale.unlink()
        if problem is not None:
            self.scan.problems.append(problem)
        if cut is not None:
            self.scan.set_aside_moves += sum(1 for line, r in self.scan.records if line >= cut and r["kind"] == "action")
            if self.scan.stop is None or cut < self.scan.stop:
                self.scan.stop = cut
            self.scan.needs_rewrite = True
        self.kept = [(line, r) for line, r in self.scan.records if self.scan.stop is None or line < self.scan.stop]
        if not self.scan.needs_rewrite:
            j = Journal(self.path, fd=self.fd)
            j.plies = len(self.contents().actions)
            size = os.fstat(self.fd).st_size
            if size and os.pread(self.fd, 1, size - 1) != b"\n":
                j._raw(b"\n")  # a save that lost its final newline: the next move on a line of its own
            return j
        try:
            self.backup = rewrite(self.path, [r for _, r in self.kept])
        except OSError:
            os.close(self.fd)
            raise
        try:
            fd = _open_locked(self.path, os.O_RDWR | os.O_APPEND)
        finally:
            os.close(self.fd)  # the old file's lock goes with it (it is the .damaged copy now)
        self.fd = fd
        j = Journal(self.path, fd=fd)
        j.plies = len(contents([r for _, r in self.kept]).actions)
        return j

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


def open_resume(path: Path, readonly: bool = False) -> Opened:
    """Lock the save at `path` (JournalError "already_open" when another companion has it)
    and read it; nothing is written until `Opened.settle` (never when `readonly`)."""
    try:
        fd = _open_locked(path, os.O_RDONLY if readonly else os.O_RDWR | os.O_APPEND)
    except FileNotFoundError:
        raise JournalError("missing", path, 0, []) from None
    except IsADirectoryError:
        raise JournalError("not_a_journal", path, 0, []) from None
    try:
        if os.fstat(fd).st_size > 256 << 20:
            raise JournalError("not_a_journal", path, 0, [], "too large")
        return Opened(path, scan(data=_read_fd(fd), path=path), fd, readonly=readonly)
    except BaseException:
        os.close(fd)
        raise


# --------------------------------------------------------------------------- the game in the save
def resolved_of(game: Any) -> dict[str, Any]:
    """What the options resolved to, for the save (a resume reads nothing else)."""
    deck = getattr(game, "deck", None)
    tiles = getattr(deck, "tiles", None)
    if deck is not None and tiles is not None:
        return {"deck": {"name": str(deck.name), "tiles": [str(t) for t in tiles]}}
    return {}


def options_of(start: dict[str, Any]) -> dict[str, Any]:
    """The options to rebuild the saved game with: saved options, and what they resolved to."""
    options = dict(start.get("options") or {})
    deck = (start.get("resolved") or {}).get("deck")
    if isinstance(deck, dict) and start.get("game") == "goodfortune":
        from companion.games.goodfortune.deck import make_deck
        from companion.games.goodfortune.notation import parse_tile

        tiles = deck.get("tiles")
        if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
            raise ValueError("resolved deck")
        options["deck"] = make_deck(str(deck.get("name", "")), [parse_tile(t, need_number=True) for t in tiles])
    return options


def canonical(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def decode_action(game: Game[Any, Any], data: Any) -> Any:
    """The game's action for a saved move: its codec (`Game.decode_action`), whose one error,
    ActionDecodeError, says the record is not a move of this game (unknown, a future version,
    a hand edit) — never a pass, never another move."""
    return game.decode_action(data)


def decode_move(game: Game[Any, Any], rec: Any) -> tuple[int, Any]:
    """A saved move record's seat and action, or ActionDecodeError: what resume replays."""
    seat = rec.get("seat") if isinstance(rec, dict) else None
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise ActionDecodeError(f"seat {seat!r}"[:60])
    return seat, game.decode_action(rec.get("action"))


__all__ = [
    "KINDS", "READABLE", "VERSION", "Contents", "Journal", "JournalError", "JournalWriteError", "Opened",
    "Problem", "Scan", "canonical", "contents", "decode_action", "decode_move", "default_dir", "latest", "new_path",
    "open_resume", "options_of", "read", "records", "recover", "resolved_of", "rewrite", "scan",
]
