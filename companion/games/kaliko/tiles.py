"""Kaliko tiles and the hex plane: generated, never typed in (docs/rules.md §1.1 and §7).

Geometry (§7): pointy-top hexes in axial coordinates `(q, r)`, the start tile at `(0, 0)`.
Edges and directions are numbered clockwise from east: 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE;
edge `i` of a cell meets edge `(i + 3) % 6` of its neighbour.

A tile *as it lies* ("oriented tile") is its three segments `abC` (a < b, colour R/W/B) in
ascending order, e.g. `01R 23W 45B`. A tile's identity is its rotation with the smallest
such string; the 85 tiles are numbered 1-85 in ASCII order of their identity strings.

Internally an oriented tile is a small integer `ot` indexing the tables `PARTNER[ot]` (the
other end of the segment at each edge) and `COLOUR[ot]` (the colour at each edge, 1 R,
2 W, 3 B). Cells are packed integers (see `cell_id`) so that neighbours are one addition.
"""

from __future__ import annotations

from itertools import product

COLOURS = "RWB"  # colour codes 1, 2, 3 (0 means "no constraint" in fit keys)
DIRS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

_SPAN = 1 << 12  # packed cells: (q + OFF) * SPAN + (r + OFF)
_OFF = 1 << 11
STEP: tuple[int, ...] = tuple(dq * _SPAN + dr for dq, dr in DIRS)


def cell_id(q: int, r: int) -> int:
    """The packed integer of cell (q, r); the neighbour across edge i is `c + STEP[i]`."""
    return (q + _OFF) * _SPAN + (r + _OFF)


def cell_qr(c: int) -> tuple[int, int]:
    return c // _SPAN - _OFF, c % _SPAN - _OFF


def neighbour(q: int, r: int, edge: int) -> tuple[int, int]:
    dq, dr = DIRS[edge]
    return q + dq, r + dr


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def crosses(a: int, b: int, c: int, d: int) -> bool:
    """Whether chords (a, b) and (c, d) of the hexagon cross (interleave) on the tile."""
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    return a < c < b < d or c < a < d < b


# --- matchings and shapes (RULES §1.1 table) -------------------------------------------------
def _matchings(edges: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
    if not edges:
        return [()]
    first, rest = edges[0], edges[1:]
    out = []
    for i, other in enumerate(rest):
        for m in _matchings(rest[:i] + rest[i + 1 :]):
            out.append(((first, other), *m))
    return out


MATCHINGS = _matchings((0, 1, 2, 3, 4, 5))  # the 15 perfect matchings of the 6 edges

SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "A": ((0, 1), (2, 3), (4, 5)),
    "B": ((0, 1), (2, 4), (3, 5)),
    "C": ((0, 1), (2, 5), (3, 4)),
    "D": ((0, 2), (1, 4), (3, 5)),
    "E": ((0, 3), (1, 4), (2, 5)),
}


def segments_string(segs: list[tuple[int, int, str]]) -> str:
    """`[(a, b, colour)]` in any order -> the §7 string, e.g. "01R 23W 45B"."""
    norm = sorted((min(a, b), max(a, b), c) for a, b, c in segs)
    return " ".join(f"{a}{b}{c}" for a, b, c in norm)


class TileSyntaxError(ValueError):
    """A tile string that is not three segments covering the six edges once each."""


def parse_segments(text: str) -> list[tuple[int, int, str]]:
    """"01R 23W 45B" (any order, any case, spaces optional) -> [(0, 1, "R"), ...]."""
    raw = "".join(text.split()).upper()
    if len(raw) != 9:
        raise TileSyntaxError(text)
    segs = []
    seen: set[int] = set()
    for i in range(0, 9, 3):
        a, b, c = raw[i], raw[i + 1], raw[i + 2]
        if not (a.isdigit() and b.isdigit()) or c not in COLOURS:
            raise TileSyntaxError(text)
        ea, eb = int(a), int(b)
        if ea > 5 or eb > 5 or ea == eb or ea in seen or eb in seen:
            raise TileSyntaxError(text)
        seen.update((ea, eb))
        segs.append((min(ea, eb), max(ea, eb), c))
    return sorted(segs)


def rotate_segments(segs: list[tuple[int, int, str]], k: int) -> list[tuple[int, int, str]]:
    """Turn clockwise by k sixths: the segment at edge e moves to edge e + k."""
    return sorted(
        (min((a + k) % 6, (b + k) % 6), max((a + k) % 6, (b + k) % 6), c) for a, b, c in segs
    )


def identity(text: str) -> str:
    """The identity string of a tile given in any rotation (the smallest rotation)."""
    segs = parse_segments(text)
    return min(segments_string(rotate_segments(segs, k)) for k in range(6))


def _generate() -> list[str]:
    """Every matching x every colouring, reduced modulo rotation (never reflection)."""
    ids = set()
    for m in MATCHINGS:
        for cols in product(COLOURS, repeat=3):
            segs = [(a, b, c) for (a, b), c in zip(m, cols, strict=True)]
            ids.add(min(segments_string(rotate_segments(segs, k)) for k in range(6)))
    return sorted(ids)


TILES: tuple[str, ...] = tuple(_generate())  # TILES[n - 1] is tile number n
NUMBER: dict[str, int] = {t: i + 1 for i, t in enumerate(TILES)}


def shape_of(text: str) -> str:
    """The shape letter A-E of a tile (in any rotation)."""
    segs = parse_segments(text)
    for k in range(6):
        pairs = tuple((a, b) for a, b, _ in rotate_segments(segs, k))
        for name, shape in SHAPES.items():
            if pairs == shape:
                return name
    raise TileSyntaxError(text)  # pragma: no cover - every matching has a shape


# --- oriented tiles as integers ------------------------------------------------------------
ORIENTED: list[str] = []  # ot -> the §7 string as it lies
OT_INDEX: dict[str, int] = {}
OT_NUMBER: list[int] = []  # ot -> tile number
PARTNER: list[tuple[int, ...]] = []  # ot -> partner edge of each edge
COLOUR: list[tuple[int, ...]] = []  # ot -> colour code (1 R, 2 W, 3 B) of each edge
ROTATIONS: dict[int, tuple[int, ...]] = {}  # tile number -> its distinct oriented tiles


def _build_oriented() -> None:
    for n, ident in enumerate(TILES, start=1):
        segs = parse_segments(ident)
        mine: list[int] = []
        for k in range(6):
            s = segments_string(rotate_segments(segs, k))
            if s in OT_INDEX:
                continue
            ot = len(ORIENTED)
            ORIENTED.append(s)
            OT_INDEX[s] = ot
            OT_NUMBER.append(n)
            part = [0] * 6
            col = [0] * 6
            for a, b, c in parse_segments(s):
                part[a], part[b] = b, a
                col[a] = col[b] = COLOURS.index(c) + 1
            PARTNER.append(tuple(part))
            COLOUR.append(tuple(col))
            mine.append(ot)
        ROTATIONS[n] = tuple(mine)


_build_oriented()


def oriented(text: str) -> int:
    """The oriented-tile index of a tile string as it lies (any segment order accepted)."""
    s = segments_string(parse_segments(text))
    return OT_INDEX[s]


def rotation_of(ot: int, k: int) -> int:
    """The oriented tile `ot` turned clockwise by k sixths."""
    return OT_INDEX[segments_string(rotate_segments(parse_segments(ORIENTED[ot]), k))]


def fit_key(constraints: tuple[int, ...] | list[int]) -> int:
    """Six edge constraints (0 free, 1-3 colour) packed base 4, edge 0 lowest."""
    key = 0
    for e in range(5, -1, -1):
        key = key * 4 + constraints[e]
    return key


def _build_fits() -> list[tuple[int, ...]]:
    """FITS[key]: every oriented tile whose colours agree with the constraints of `key`.

    RULES §1.1 parity fact: each tile has an even count of every colour, so a key whose
    fixed edges force an odd count that the free edges cannot even out has no tile at all;
    the table holds that pruning (and every other colour conflict) once and for all.
    """
    fits: list[list[int]] = [[] for _ in range(4**6)]
    for ot, col in enumerate(COLOUR):
        for mask in range(64):  # which edges are fixed by a neighbour
            key = 0
            for e in range(5, -1, -1):
                key = key * 4 + (col[e] if mask >> e & 1 else 0)
            fits[key].append(ot)
    return [tuple(f) for f in fits]


FITS = _build_fits()
