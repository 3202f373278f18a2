"""Kaliko's exact best-play search in C (issue 26): cbest.c, built and loaded through ctypes.

`./run setup` calls `cbest.main(["build"])`: gcc compiles cbest.c into `_native/` beside this
file, under a name holding the sha256 of the source and of the recipe (compiler flags), so
that an edited cbest.c never runs stale: `load()` finds no library of the edited source's
name and `finder.best_play` walks in Python (compiled by mypyc or not), the same search.
Without a C compiler the build says so in one sentence. `COMPANION_PURE=1` keeps it unused,
as it does the mypyc finder.

The C search is the walk of `finder.Finder(best_only=True, prune=True)` on flat arrays (its
header says what is the same and why); this module only translates: the board's packed
cells to a compact grid (q-major, so that (cell, edge) comparisons keep the canonical order
of the walk), the tiles' tables of tiles.py passed in once, never copied into the C source.
`search` returns the best score and its placements, or None when the library is absent or
refused the position (the caller then walks in Python).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .paths import tile_tau
from .tiles import COLOUR, FITS, OT_NUMBER, PARTNER, cell_id, cell_qr

HERE = Path(__file__).resolve().parent
OUT = HERE / "_native"
SOURCE = "cbest.c"
FLAGS = ("-O2", "-shared", "-fPIC", "-std=c99")  # part of the library's name
MARGIN = 12  # empty cells around the pattern: the walk, its reach test and bound stay inside
STATUS = "not built (not loaded yet)"

_lib: Any = None
_lock = threading.Lock()
_STOP = ctypes.CFUNCTYPE(ctypes.c_int)  # the C search asks it every 4096 nodes whether to stop


def digest() -> str:
    """The library's name for the source as it is now."""
    h = hashlib.sha256(("recipe " + " ".join(FLAGS) + "\n").encode())
    h.update((HERE / SOURCE).read_bytes())
    return "kaliko_cbest_" + h.hexdigest()[:20]


def _suffix() -> str:
    return ".dll" if sys.platform == "win32" else ".so"


def library_path() -> Path:
    return OUT / (digest() + _suffix())


def _tables(lib: Any) -> None:
    """tiles.py's tables, once per process (the C search never types them in)."""
    n = len(PARTNER)
    partner = (ctypes.c_int8 * (6 * n))(*[p for row in PARTNER for p in row])
    colour = (ctypes.c_int8 * (6 * n))(*[c for row in COLOUR for c in row])
    number = (ctypes.c_int16 * n)(*OT_NUMBER)
    offs: list[int] = [0]
    flat: list[int] = []
    for row in FITS:
        flat.extend(row)
        offs.append(len(flat))
    fits_off = (ctypes.c_int32 * len(offs))(*offs)
    fits = (ctypes.c_int16 * max(len(flat), 1))(*flat)
    if lib.kc_tables(n, partner, colour, number, fits_off, fits) != 0:
        raise MemoryError("kc_tables")


def load() -> Any:
    """The C search built from this very source, or None (and `STATUS` says why)."""
    global _lib, STATUS
    if os.environ.get("COMPANION_PURE", "0") not in ("", "0"):
        STATUS = "not used (COMPANION_PURE is set)"
        return None
    with _lock:
        if _lib is not None:
            return _lib
        try:
            path = library_path()
        except OSError as err:
            STATUS = f"not used (source unreadable: {err})"
            return None
        if not path.exists():
            STATUS = "not built for this source (./run setup builds it)"
            return None
        try:
            lib = ctypes.CDLL(str(path))
            i16p, i32p = ctypes.POINTER(ctypes.c_int16), ctypes.POINTER(ctypes.c_int32)
            i64p = ctypes.POINTER(ctypes.c_int64)
            lib.kc_tables.restype = ctypes.c_int
            lib.kc_tables.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_int8), ctypes.POINTER(ctypes.c_int8),
                                      i16p, i32p, i16p]
            lib.kc_best.restype = ctypes.c_int
            lib.kc_best.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, i32p, i16p, ctypes.c_int, i32p, i32p,
                                    ctypes.c_int, ctypes.c_int, ctypes.c_int, _STOP, i32p, i32p, i64p, i32p]
            _tables(lib)
        except (OSError, AttributeError, MemoryError) as err:  # a damaged build: the walk in Python
            STATUS = f"not used (the library did not load: {type(err).__name__})"
            return None
        _lib = lib
        STATUS = f"C ({path.name})"
        return lib


def search(
    board: dict[int, int],
    hand: list[int],
    crossings_new_tiles_only: bool = False,
    double_main_only: bool = False,
    max_tiles: int = 7,
    stop: Callable[[], bool] | None = None,
) -> tuple[int, tuple[tuple[int, int], ...], int, bool] | None:
    """The best score (-1: no legal play), its placements (cell, ot) sorted by cell, the nodes
    walked and whether the search ran to its end (`stop`, asked every 4096 nodes, may end it
    early: the best found is then returned); None when the C search is not there or refused
    the position."""
    lib = load()
    if lib is None or not board:
        return None
    hand = list(dict.fromkeys(hand))
    if len(hand) > 16 or max_tiles < 0 or min(max_tiles, len(hand)) > 7:
        return None  # beyond the C tables (RULES K-6 plays at most 7 tiles): the walk answers
    if any(not 0 <= ot < len(PARTNER) for ot in board.values()):
        return None  # no oriented tile: the walk says what is wrong, the C never reads past its tables
    qrs = [cell_qr(c) for c in board]
    qmin, qmax = min(q for q, _ in qrs), max(q for q, _ in qrs)
    rmin, rmax = min(r for _, r in qrs), max(r for _, r in qrs)
    height = rmax - rmin + 1 + 2 * MARGIN
    size = (qmax - qmin + 1 + 2 * MARGIN) * height
    if size > 1 << 22:
        return None
    cells = (ctypes.c_int32 * len(board))(
        *[(q - qmin + MARGIN) * height + (r - rmin + MARGIN) for q, r in qrs])
    ots = (ctypes.c_int16 * len(board))(*board.values())
    hand_arr = (ctypes.c_int32 * max(len(hand), 1))(*hand)
    tau = (ctypes.c_int32 * max(4 * len(hand), 1))(*[t for n in hand for t in tile_tau(n)])
    out = (ctypes.c_int32 * 16)()
    n_out, nodes, complete = ctypes.c_int32(0), ctypes.c_int64(0), ctypes.c_int32(0)
    raised: list[BaseException] = []

    def ask() -> int:
        # an exception cannot cross the C frames (ctypes would print it and go on without a
        # deadline): stop the search, and raise it here after the call, as the walk would
        try:
            return int(bool(stop is not None and stop()))
        except BaseException as err:  # noqa: BLE001 - re-raised below
            raised.append(err)
            return 1

    asked = _STOP() if stop is None else _STOP(ask)  # NULL, or kept alive during the call
    score = lib.kc_best(height, size, len(board), cells, ots, len(hand), hand_arr, tau, min(max_tiles, 7),
                        int(crossings_new_tiles_only), int(double_main_only), asked, out, ctypes.byref(n_out),
                        ctypes.byref(nodes), ctypes.byref(complete))
    if raised:
        raise raised[0]
    if score < -1:
        return None
    placed = []
    for i in range(n_out.value):
        idx, ot = out[2 * i], out[2 * i + 1]
        placed.append((cell_id(idx // height - MARGIN + qmin, idx % height - MARGIN + rmin), ot))
    return score, tuple(sorted(placed)), nodes.value, bool(complete.value)


_NO_PLAY = object()


def _judged(found: Callable[..., Any], board: dict[int, int], got: tuple[int, tuple[tuple[int, int], ...], int, bool],
            crossings_new_tiles_only: bool, double_main_only: bool) -> Any:
    """The C search's answer as a `finder.Found` with the rules' verdict; None for no play;
    `_NO_PLAY` if the judge did not give its score (never seen: the caller then walks)."""
    from .scoring import score_paths

    score, placements, _nodes, _complete = got
    if score < 0:
        return None
    new = dict(placements)
    verdict = score_paths(dict(board) | new, new, crossings_new_tiles_only, double_main_only)
    if verdict.legal and verdict.score == score:  # the rules' judge has the last word
        return found(placements, verdict)
    return _NO_PLAY


def wrapping(walk_best: Callable[..., Any], found: Callable[..., Any]) -> Callable[..., Any]:
    """`finder.best_play` answered by the C search; the walk in Python (`walk_best`) answers
    when the C search cannot, or if its play were not what the rules' judge says."""

    def best_play(board: dict[int, int], hand: list[int], crossings_new_tiles_only: bool = False,
                  double_main_only: bool = False, max_tiles: int = 7) -> Any:
        """The best legal play of `hand` (exhaustive), searched in C (cbest.c)."""
        got = search(board, hand, crossings_new_tiles_only, double_main_only, max_tiles)
        if got is not None:
            judged = _judged(found, board, got, crossings_new_tiles_only, double_main_only)
            if judged is not _NO_PLAY:
                return judged
        return walk_best(board, hand, crossings_new_tiles_only, double_main_only, max_tiles)

    best_play.__wrapped__ = walk_best  # type: ignore[attr-defined]
    return best_play


def wrapping_search(walk_search: Callable[..., Any], found: Callable[..., Any]) -> Callable[..., Any]:
    """`finder.search_best` with its exact phase in C: the plays of up to 2 tiles first (as
    the walk does: a player hears a play whenever a short one exists), then the whole search
    in C until the deadline. A budget (a bot's move) keeps the walk: its node count, so its
    moves and the goldens, stay the walk's."""

    def search_best(board: dict[int, int], hand: list[int], crossings_new_tiles_only: bool = False,
                    double_main_only: bool = False, max_tiles: int = 7, budget: int | None = None,
                    deadline: float | None = None, clock: Callable[[], float] | None = None) -> tuple[Any, bool]:
        """The best play found within the deadline, and whether it is proven best (cbest.c)."""
        args = (board, hand, crossings_new_tiles_only, double_main_only)
        if budget is None:
            short = None
            if max_tiles > 2:  # milliseconds, even past the deadline
                got = search(*args, 2)
                short = None if got is None else _judged(found, board, got, *args[2:])
            stop = None if deadline is None or clock is None else (lambda: clock() >= deadline)
            got = None if short is _NO_PLAY else search(*args, max_tiles, stop)
            judged = None if got is None else _judged(found, board, got, *args[2:])
            if got is not None and judged is not _NO_PLAY:
                if got[3]:
                    return judged, True
                if short is not None and (judged is None or short.score > judged.score):
                    judged = short
                return judged, False
        return walk_search(*args, max_tiles, budget, deadline, clock)

    search_best.__wrapped__ = walk_search  # type: ignore[attr-defined]
    return search_best


def build(out: Path | None = None) -> str | None:
    """Compile cbest.c for the source as it is now into `out` (default `_native/`); None when
    done (or already there), else the one sentence saying why not. Older builds are removed."""
    out = OUT if out is None else out
    name = digest()
    target = out / (name + _suffix())
    if target.exists():
        return None
    command = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()  # "ccache gcc" too
    cc = command[0] if command else "cc"
    if shutil.which(cc) is None:
        return f"no C compiler ({cc}): Kaliko's best play is searched in Python"
    try:
        return _compile(command, name, target, out)
    except OSError as err:  # a read-only install, a compiler that does not run: one sentence
        return f"cbest.c was not built ({type(err).__name__}: {err}): Kaliko's best play is searched in Python"


def _compile(command: list[str], name: str, target: Path, out: Path) -> str | None:
    cc = command[0]
    with tempfile.TemporaryDirectory() as tmp:
        built = Path(tmp) / (name + _suffix())
        done = subprocess.run([*command, *FLAGS, "-o", str(built), str(HERE / SOURCE)], capture_output=True, text=True)
        if done.returncode != 0 or not built.exists():
            last = (done.stdout + done.stderr).strip().splitlines()[-1:] or ["no output"]
            return f"{cc} could not build cbest.c ({last[0][:200]}): Kaliko's best play is searched in Python"
        out.mkdir(exist_ok=True)
        for old in out.glob("kaliko_cbest_*" + _suffix()):
            old.unlink()
        shutil.copy(built, out / (name + ".tmp"))
        os.replace(out / (name + ".tmp"), target)  # never a half-written library under its name
    return None


def main(argv: list[str]) -> int:
    if argv[:1] != ["build"]:
        print('usage: cbest.main(["build"])', file=sys.stderr)
        return 2
    there = library_path().exists()
    why = build()
    if why is not None:
        print(why, file=sys.stderr)
        return 1
    if not there:
        print(f"Kaliko best-play search compiled: {library_path()}", file=sys.stderr)
    return 0
