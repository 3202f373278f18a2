"""Written and spoken forms of the KIKOI tokens.

Written (RULES §7): `kigliss-sleep`, `kikonk`. Spoken or typed: any order of a KIKOI word
and a moment word, in French or English, with the textures and symbols as synonyms:
"le KIGLISS qui dort", "kigliss dort", "kigliss sleep", "lisse rectangle", "qui glisse au lit".
`find_tokens` gives every token the words can mean; more than one is an ambiguity the
commands answer with a question.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass

from companion.core import fold
from companion.language import cached, close_match, groups

from .tokens import KIKOI, MOMENTS, N_WHITE, RED, token_from_id, token_id, white

# The words of each KIKOI (names and textures), each moment (symbols) and each red token are
# data: `companion/language/<lang>/kikoi.json` ("kikoi", "moment", "red"), every language at once.


def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    alts = sorted(words, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in alts) + r")\b")


@cached
def vocabulary() -> tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]], dict[int, tuple[str, ...]]]:
    """Folded words of each KIKOI, each moment and each red token, from the phrase tables."""
    kikois = groups("kikoi", "kikoi")
    moments = groups("kikoi", "moment")
    reds = groups("kikoi", "red")
    return ({k: kikois.get(name, ()) for k, name in enumerate(KIKOI)},
            {m: moments.get(name, ()) for m, name in enumerate(MOMENTS)},
            {N_WHITE + i: reds.get(name, ()) for i, name in enumerate(RED)})


@cached
def _patterns() -> tuple[dict[int, re.Pattern[str]], dict[int, re.Pattern[str]], dict[int, re.Pattern[str]]]:
    kw, mw, rw = vocabulary()
    return ({k: _pattern(w) for k, w in kw.items() if w}, {m: _pattern(w) for m, w in mw.items() if w},
            {t: _pattern(w) for t, w in rw.items() if w})


@cached
def _close_names() -> dict[str, tuple[str, int]]:
    """Single-word names of 6 letters or more, for close matching: word -> ("kikoi"|"red", index)."""
    kw, _mw, rw = vocabulary()
    out: dict[str, tuple[str, int]] = {}
    for k, ws in kw.items():
        out.update({w: ("kikoi", k) for w in ws if " " not in w and len(w) >= 6 and w.startswith("ki")})
    for t, ws in rw.items():
        out.update({w: ("red", t) for w in ws if " " not in w and len(w) >= 6 and w.startswith("ki")})
    return out


@dataclass(frozen=True)
class Found:
    """What a line names: KIKOI, moments and red tokens (each a sorted tuple)."""

    kikois: tuple[int, ...]
    moments: tuple[int, ...]
    reds: tuple[int, ...]

    @property
    def empty(self) -> bool:
        return not (self.kikois or self.moments or self.reds)


def scan(text: str) -> Found:
    """The KIKOI, moments and red tokens a line mentions (case, accents, order ignored)."""
    kikoi_re, moment_re, red_re = _patterns()
    folded = fold(text).replace("-", " ")
    reds = [t for t, rx in red_re.items() if rx.search(folded)]
    # a red token's words ("ki tourne") must not also count as a KIKOI or a moment
    rest = folded
    for t in reds:
        rest = red_re[t].sub(" ", rest)
    kikois = [k for k, rx in kikoi_re.items() if rx.search(rest)]
    stripped = rest
    for k in kikois:
        stripped = kikoi_re[k].sub(" ", stripped)
    moments = [m for m, rx in moment_re.items() if rx.search(stripped)]
    # close spellings of the names ("kiglis", "kimous") for the words left
    close = _close_names()
    for word in stripped.split():
        if len(word) >= 5 and word.startswith("ki"):
            got = close_match(word, list(close))
            if got is not None:
                kind, index = close[got]
                (kikois if kind == "kikoi" else reds).append(index)
    return Found(tuple(sorted(set(kikois))), tuple(moments), tuple(sorted(set(reds))))


def find_tokens(text: str) -> list[int]:
    """Every token the line may name: one when it is clear, several when it is ambiguous,
    none when it names no token (`kigliss` alone gives its five moments)."""
    written = fold(text).strip()
    with contextlib.suppress(KeyError):  # not a written id (RULES §7): read as words below
        return [token_from_id(text.strip())]
    f = scan(written)
    out = [white(k, m) for k in (f.kikois or range(5)) for m in (f.moments or range(5))] \
        if (f.kikois or f.moments) else []
    return out + list(f.reds)


def parse_token(text: str) -> int:
    """Exactly one token from a written id or spoken words; ValueError otherwise."""
    found = find_tokens(text)
    if len(found) != 1:
        raise ValueError(text)
    return found[0]


def format_token(token: int) -> str:
    """The written id (RULES §7)."""
    return token_id(token)


def kikoi_name(k: int) -> str:
    return KIKOI[k]


def moment_name(m: int) -> str:
    return MOMENTS[m]


__all__ = ["Found", "RED", "N_WHITE", "find_tokens", "format_token", "parse_token", "scan"]
