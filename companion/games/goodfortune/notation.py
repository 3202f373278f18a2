"""Written (RULES §7) and spoken forms of Good Fortune's charms, tiles and numbers.

Written: a tile is `number:charm+charm:die` (`12:neko+clover:4`); a collected tile may be
written without its number (`neko+clover:4`). Spoken: charm names in French or English
("trèfle", "fer à cheval", "main de Fatma", "lucky cat"...), numbers as digits or words.
"""

from __future__ import annotations

import re

from companion.core.text import fold

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

#: folded spoken names of each charm, French and English (longest are tried first).
CHARM_WORDS: dict[str, tuple[str, ...]] = {
    "clover": ("trefle a quatre feuilles", "trefle", "four leaf clover", "clover"),
    "horseshoe": ("fer a cheval", "fer", "horseshoe", "horse shoe"),
    "fatima": ("main de fatma", "main de fatima", "hand of fatima", "fatma", "fatima", "hamsa", "main", "hand"),
    "neko": ("maneki neko", "neko", "chat", "lucky cat", "cat"),
    "ganesh": ("ganesha", "ganesh", "elephant"),
    "mati": ("oeil grec", "matiasma", "mati", "oeil", "evil eye", "eye"),
    "scarab": ("scarabee", "scarab", "beetle"),
}
_ALIASES = sorted(((w, c) for c, ws in CHARM_WORDS.items() for w in ws), key=lambda p: -len(p[0]))

NUMBER_WORDS: dict[str, int] = {
    w: i
    for i, ws in enumerate(
        [
            (),
            ("un", "une", "one", "premier", "premiere", "first"),
            ("deux", "two"),
            ("trois", "three"),
            ("quatre", "four"),
            ("cinq", "five"),
            ("six",),
            ("sept", "seven"),
            ("huit", "eight"),
            ("neuf", "nine"),
            ("dix", "ten"),
            ("onze", "eleven"),
            ("douze", "twelve"),
            ("treize", "thirteen"),
            ("quatorze", "fourteen"),
            ("quinze", "fifteen"),
            ("seize", "sixteen"),
            ("dix sept", "seventeen"),
            ("dix huit", "eighteen"),
            ("dix neuf", "nineteen"),
            ("vingt", "twenty"),
            ("vingt et un", "vingt et une", "vingt un", "twenty one"),
        ]
    )
    for w in ws
}
_NUMBER_PHRASES = sorted(NUMBER_WORDS, key=lambda w: -len(w.split()))


def find_charms(folded: str) -> list[tuple[str, str]]:
    """Charm ids named in folded text, in the order said, with the words that named each."""
    out: list[tuple[int, str, str]] = []
    taken: list[tuple[int, int]] = []
    padded = f" {folded} "
    for word, charm in _ALIASES:
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


def _digits(token: str) -> bool:
    """A number typed in digits: decimal digits only ("²" is not one) and at most 30 of them,
    so a 5000-digit line is not understood instead of ending the game (issue #16)."""
    return token.isdecimal() and len(token) <= 30


def numbers_in(folded: str) -> list[int]:
    """Numbers said in folded text, as digits or words ("douze", "vingt et un"), in order."""
    tokens = folded.split()
    out: list[int] = []
    i = 0
    while i < len(tokens):
        if _digits(tokens[i]):
            out.append(int(tokens[i]))
            i += 1
            continue
        for phrase in _NUMBER_PHRASES:
            n = len(phrase.split())
            if " ".join(tokens[i : i + n]) == phrase:
                out.append(NUMBER_WORDS[phrase])
                i += n
                break
        else:
            i += 1
    return out


def parse_spoken_tile(text: str) -> tuple[tuple[str, ...], list[int]]:
    """The charms and the numbers said in a line ("trèfle et scarabée, dé 3")."""
    folded = fold(text)
    charms = tuple(c for c, _w in find_charms(folded))
    return charms, numbers_in(folded)


def number_items(folded: str) -> list[tuple[int, str]]:
    """Each number said, with the words after it up to the next number ("12 trefle 5")."""
    tokens = folded.split()
    out: list[tuple[int, list[str]]] = []
    i = 0
    while i < len(tokens):
        n, used = _number_at(tokens, i)
        if used:
            out.append((n, []))
            i += used
            continue
        if out:
            out[-1][1].append(tokens[i])
        i += 1
    return [(n, " ".join(ws)) for n, ws in out]


def _number_at(tokens: list[str], i: int) -> tuple[int, int]:
    if _digits(tokens[i]):
        return int(tokens[i]), 1
    for phrase in _NUMBER_PHRASES:
        k = len(phrase.split())
        if " ".join(tokens[i : i + k]) == phrase:
            return NUMBER_WORDS[phrase], k
    return 0, 0
