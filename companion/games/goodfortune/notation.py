"""Written (RULES §7) and spoken forms of Good Fortune's charms, tiles and numbers.

Written: a tile is `number:charm+charm:die` (`12:neko+clover:4`); a collected tile may be
written without its number (`neko+clover:4`). Spoken: charm names in French or English
("trèfle", "fer à cheval", "main de Fatma", "lucky cat"...), numbers as digits or words.
"""

from __future__ import annotations

import re

from companion.core.text import fold
from companion.language import cached, groups, number_spans
from companion.language import numbers_in as read_numbers

from .tiles import CHARMS, DIE_VALUES, N_TILES, Tile


class NotationError(ValueError):
    """A string that is not a tile of RULES §7; `code` says what is wrong."""

    def __init__(self, code: str, text: str, detail: str = "") -> None:
        super().__init__(f"{code}: {text!r}{' (' + detail + ')' if detail else ''}")
        self.code = code
        self.text = text
        self.detail = detail


_TILE = re.compile(r"^\s*(?:(\d+)\s*:)?\s*([A-Za-z_-]+)\s*\+\s*([A-Za-z_-]+)\s*:\s*(\d+)\s*$")


def parse_charm(text: str) -> str:
    """A charm id from its §7 id or a spoken name in French or English."""
    key = fold(text)
    if key in CHARMS:
        return key
    found = find_charms(key)
    if len(found) == 1 and _covers(key, found[0][1]):
        return found[0][0]
    raise NotationError("bad_charm", text)


def parse_tile(text: str, need_number: bool = False) -> Tile:
    """A tile from `number:charm+charm:die` (or `charm+charm:die` unless `need_number`)."""
    if not isinstance(text, str):
        raise NotationError("not_a_string", repr(text))
    m = _TILE.match(text)
    if not m:
        raise NotationError("bad_tile", text, "expected number:charm+charm:die")
    num, a, b, die = m.groups()
    if num is None and need_number:
        raise NotationError("no_number", text)
    number = None if num is None else int(num)
    if number is not None and not 1 <= number <= N_TILES:
        raise NotationError("bad_number", text, f"numbers run from 1 to {N_TILES}")
    charms = []
    for c in (a, b):
        if c.lower() not in CHARMS:
            raise NotationError("bad_charm", text, f"unknown charm {c!r}; charms are {', '.join(CHARMS)}")
        charms.append(c.lower())
    if charms[0] == charms[1]:
        raise NotationError("same_charm", text, "a tile shows two different charms")
    if int(die) not in DIE_VALUES:
        raise NotationError("bad_die", text, "a die shows 1 to 4 pips")
    return Tile(number, (charms[0], charms[1]), int(die))


def format_tile(tile: Tile) -> str:
    return str(tile)


# --- spoken forms ------------------------------------------------------------------------

# The spoken names of the charms are data: `companion/language/<lang>/goodfortune.json`
# ("charm"), every language at once; numbers are read by `companion.language` (digits, words).


@cached
def charm_words() -> dict[str, tuple[str, ...]]:
    """Folded spoken names of each charm, French and English (and any other table)."""
    return groups("goodfortune", "charm")


@cached
def _aliases() -> list[tuple[str, str]]:
    return sorted(((w, c) for c, ws in charm_words().items() for w in ws), key=lambda p: -len(p[0]))


#: the charms' spoken names when this module was first imported (kept for callers of old)
CHARM_WORDS: dict[str, tuple[str, ...]] = charm_words()


def find_charms(folded: str) -> list[tuple[str, str]]:
    """Charm ids named in folded text, in the order said, with the words that named each."""
    out: list[tuple[int, str, str]] = []
    taken: list[tuple[int, int]] = []
    padded = f" {folded} "
    for word, charm in _aliases():
        start = 0
        while (i := padded.find(f" {word} ", start)) >= 0:
            span = (i, i + len(word) + 1)
            if not any(s < span[1] and span[0] < e for s, e in taken):
                taken.append(span)
                out.append((i, charm, word))
            start = i + 1
    out.sort()
    return [(c, w) for _i, c, w in out]


def _covers(folded: str, word: str) -> bool:
    return folded == word


def numbers_in(folded: str) -> list[int]:
    """Numbers said in folded text, as digits or words ("douze", "vingt et un"), in order."""
    return read_numbers(folded)


def parse_spoken_tile(text: str) -> tuple[tuple[str, ...], list[int]]:
    """The charms and the numbers said in a line ("trèfle et scarabée, dé 3")."""
    folded = fold(text)
    charms = tuple(c for c, _w in find_charms(folded))
    return charms, numbers_in(folded)


def number_items(folded: str) -> list[tuple[int, str]]:
    """Each number said, with the words after it up to the next number ("12 trefle 5")."""
    tokens = folded.split()
    spans = number_spans(folded)
    out = []
    for k, (_i, j, value) in enumerate(spans):
        nxt = spans[k + 1][0] if k + 1 < len(spans) else len(tokens)
        out.append((value, " ".join(tokens[j:nxt])))
    return out
