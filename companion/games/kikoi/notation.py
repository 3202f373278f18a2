"""Written and spoken forms of the KIKOI tokens.

Written (RULES §7): `kigliss-sleep`, `kikonk`. Spoken or typed: any order of a KIKOI word
and a moment word, in French or English, with the textures and symbols as synonyms:
"le KIGLISS qui dort", "kigliss dort", "kigliss sleep", "lisse rectangle", "qui glisse au lit".
`find_tokens` gives every token the words can mean; more than one is an ambiguity the
commands answer with a question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.core import fold

from .tokens import KIKOI, MOMENTS, N_WHITE, RED, token_from_id, token_id, white

# Folded words for each KIKOI (RULES §3.1: names and textures), each moment (symbols), each red token.
KIKOI_WORDS: dict[int, tuple[str, ...]] = {
    0: ("kimouss", "kimousse", "ki mousse", "qui mousse", "ki mouss", "mousse", "foam", "foamy"),
    1: ("kigratt", "kigrat", "kigratte", "ki gratte", "qui gratte", "ki grat", "ki gratt", "rugueux",
        "rugueuse", "rough"),
    2: ("kigliss", "kiglisse", "ki glisse", "qui glisse", "ki gliss", "lisse", "smooth"),
    3: ("kiboss", "kibosse", "ki bosse", "qui bosse", "ki boss", "ondule", "ondulee", "wavy"),
    4: ("kiboucle", "ki boucle", "qui boucle", "boucle", "bouclee", "curly"),
}
MOMENT_WORDS: dict[int, tuple[str, ...]] = {
    0: ("maison", "house", "home", "toit", "roof", "triangle", "chez lui", "at home"),
    1: ("mange", "manger", "mangeant", "repas", "eat", "eats", "eating", "assiette", "plate",
        "cercle", "circle"),
    2: ("velo", "bike", "biking", "cycle", "cycles", "cycling", "bicyclette", "roues", "wheels",
        "demi spheres", "half spheres"),
    3: ("foret", "forest", "promene", "promenade", "balade", "walk", "walks", "walking", "fleur",
        "flower", "woods"),
    4: ("dort", "dormir", "dodo", "sleep", "sleeps", "sleeping", "asleep", "lit", "bed",
        "rectangle", "couche"),
}
RED_WORDS: dict[int, tuple[str, ...]] = {
    25: ("kikonk", "ki konk", "qui konk", "kikonque", "ki conque"),
    26: ("kitourn", "kitourne", "ki tourne", "qui tourne", "ki tourn", "spirale", "spiral"),
    27: ("kipirat", "kipirate", "ki pirate", "qui pirate", "pirate", "trou", "hole"),
}


def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    alts = sorted(words, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in alts) + r")\b")


_KIKOI_RE = {k: _pattern(w) for k, w in KIKOI_WORDS.items()}
_MOMENT_RE = {m: _pattern(w) for m, w in MOMENT_WORDS.items()}
_RED_RE = {t: _pattern(w) for t, w in RED_WORDS.items()}


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
    folded = fold(text).replace("-", " ")
    reds = tuple(t for t, rx in _RED_RE.items() if rx.search(folded))
    # a red token's words ("ki tourne") must not also count as a KIKOI or a moment
    rest = folded
    for t in reds:
        rest = _RED_RE[t].sub(" ", rest)
    kikois = tuple(k for k, rx in _KIKOI_RE.items() if rx.search(rest))
    stripped = rest
    for k in kikois:
        stripped = _KIKOI_RE[k].sub(" ", stripped)
    moments = tuple(m for m, rx in _MOMENT_RE.items() if rx.search(stripped))
    return Found(kikois, moments, reds)


def find_tokens(text: str) -> list[int]:
    """Every token the line may name: one when it is clear, several when it is ambiguous,
    none when it names no token (`kigliss` alone gives its five moments)."""
    written = fold(text).strip()
    try:
        return [token_from_id(text.strip())]
    except KeyError:
        pass
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
