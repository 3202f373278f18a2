"""Kaliko notation: the written forms of RULES §7 and the spoken forms of the companion.

Written (§7): a cell is `(q, r)` in axial coordinates, the start tile at `(0, 0)`; a tile as
it lies is `01R 23W 45B`; tile numbers 1-85.

Spoken (the companion's own design):
* Edges and directions are clock positions. Pointy-top hexes have their six edges at
  1, 3, 5, 7, 9 and 11 o'clock: edge 0 (east) is 3 o'clock, then clockwise 5, 7, 9, 11, 1.
* A cell is named from the start tile, which never moves, so names never change as the
  pattern grows: "centre", or "n at C" (n steps toward C o'clock), or "n at C, m at D"
  (n steps toward C, then m steps toward the next clock position clockwise, D = C + 2).
  Every cell has exactly one such name: (2, -1) is "1 at 1, 1 at 3"... written `1h1 3h1`
  when typed (`3h2` = two steps toward 3 o'clock).
* A segment is described by its colour, its two ends and its shape: short arc (ends one
  edge apart), wide arc (two apart) or straight (opposite).
"""

from __future__ import annotations

import re

from companion.core import fold
from companion.language import cached, groups, words
from companion.narration import Msg

from .tiles import COLOURS, DIRS, parse_segments

CLOCK = (3, 5, 7, 9, 11, 1)  # edge/direction i -> clock position
EDGE_OF_CLOCK = {c: i for i, c in enumerate(CLOCK)}
SHAPE_OF_GAP = {1: "short", 2: "wide", 3: "straight"}


def clock(edge: int) -> int:
    return CLOCK[edge % 6]


def edge_of_clock(hour: int) -> int | None:
    """3 -> 0 (east) ... 1 -> 5; None for an hour with no edge (even hours)."""
    return EDGE_OF_CLOCK.get(hour)


# --- cells -----------------------------------------------------------------------------------
def cell_steps(q: int, r: int) -> list[tuple[int, int]]:
    """(q, r) -> [(n, direction), ...]: n steps toward a direction, then m steps toward the
    next one clockwise (the hex sector decomposition). [] for the centre."""
    if (q, r) == (0, 0):
        return []
    for i in range(6):
        d1, d2 = DIRS[i], DIRS[(i + 1) % 6]
        # solve a*d1 + b*d2 = (q, r) with a >= 1, b >= 0
        det = d1[0] * d2[1] - d1[1] * d2[0]
        a = (q * d2[1] - r * d2[0]) // det
        b = (d1[0] * r - d1[1] * q) // det
        if a >= 1 and b >= 0 and a * d1[0] + b * d2[0] == q and a * d1[1] + b * d2[1] == r:
            return [(a, i)] + ([(b, (i + 1) % 6)] if b else [])
    raise AssertionError((q, r))  # pragma: no cover - the six sectors cover the plane


def cell_from_steps(steps: list[tuple[int, int]]) -> tuple[int, int]:
    q = r = 0
    for n, d in steps:
        q += n * DIRS[d][0]
        r += n * DIRS[d][1]
    return q, r


def cell_text(q: int, r: int) -> str:
    """The typed short name: "0" for the centre, "3h2", "1h1 3h1"."""
    steps = cell_steps(q, r)
    if not steps:
        return "0"
    return " ".join(f"{clock(d)}h{n}" for n, d in steps)


def cell_msg(q: int, r: int) -> Msg:
    steps = cell_steps(q, r)
    if not steps:
        return Msg("kaliko.cell.centre")
    if len(steps) == 1:
        (n, d), = steps
        return Msg("kaliko.cell.one", n=n, clock=clock(d))
    (n, d), (m, e) = steps
    return Msg("kaliko.cell.two", n=n, clock=clock(d), m=m, clock2=clock(e))


_CELL_PART = re.compile(r"(\d{1,2})\s*h\s*(\d{1,2})")
_AXIAL = re.compile(r"^\(?\s*(-?\d+)\s*[, ;]\s*(-?\d+)\s*\)?$")


def parse_cell(text: str) -> tuple[int, int] | None:
    """ "(2,-1)" / "2 -1" (axial), "0"/"centre"/"center", "3h2", "1h1 3h1", "1 h 1, 3 h 1",
    "1 h 1 puis 3 h 1" (as it is spoken), "1h1-3h1" (as it is printed)."""
    t = text.strip().lower()
    if t == "0" or fold(t) in words("kaliko", "centre"):
        return (0, 0)
    m = _AXIAL.match(t)
    if m and ("(" in t or "," in t or "-" in t or " " in t.strip("()")):
        return int(m.group(1)), int(m.group(2))
    parts = _CELL_PART.findall(t)
    rest = fold(_CELL_PART.sub(" ", t).replace(",", " ").replace("-", " ")).split()
    if not parts or any(w not in words("kaliko", "then") for w in rest):  # « puis », "then"
        return None
    steps = []
    for hour, n in parts:
        e = EDGE_OF_CLOCK.get(int(hour))
        if e is None:
            return None
        steps.append((int(n), e))
    return cell_from_steps(steps)


def axial_text(q: int, r: int) -> str:
    return f"({q},{r})"


# --- tiles --------------------------------------------------------------------------------------
def segment_msgs(tile: str) -> list[Msg]:
    """ "01R 23W 45B" -> one message per segment, e.g. "red from 3 to 5 o'clock, short arc"."""
    out = []
    for a, b, c in sorted(parse_segments(tile), key=lambda s: (COLOURS.index(s[2]), s[0])):
        gap = min((b - a) % 6, (a - b) % 6)
        ca, cb = sorted((clock(a), clock(b)))
        out.append(
            Msg(
                "kaliko.segment",
                colour=colour_msg(c),
                a=ca,
                b=cb,
                shape=Msg(f"kaliko.shape.{SHAPE_OF_GAP[gap]}"),
            )
        )
    return out


def colour_msg(c: str | int) -> Msg:
    code = c if isinstance(c, str) else COLOURS[c - 1]
    return Msg(f"kaliko.colour.{code}")


def colour_of_word(word: str) -> str | None:
    """R, W or B for a colour word of any language (`colours` of the phrase tables), folded."""
    return _colour_words().get(word)


@cached
def _colour_words() -> dict[str, str]:
    return {w: code for code, ws in groups("kaliko", "colours").items() for w in ws}
