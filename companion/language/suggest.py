"""The sayable commands nearest a typed line that was not understood (issue 24 §6: « Je n'ai
pas compris » and the three nearest, never the whole help).

A plain string distance over whole phrases (rapidfuzz's WRatio, as before) is led by the small
words: « qu'est-ce qu'il y a en C4 » came out as « où en est-on, vas-y, en français », for their
« en ». Here the line's words are weighed by how rare they are among the phrases listed now
(inverse document frequency: « en », "the", a digit found in two thousand equations count for
little; « C4 », « points », « kigliss » for much), a phrase scores the share of that weight it
holds (a word within a few letters of one of its words counts in part: « demander » for
« demande »), a little more when the line says much of the phrase, and the spelling distance
only orders phrases that share as much. Both sides are
folded, number words written as digits (« vingt et un » is 21), as the voice's transcript
matcher does; a cell is one word (« C4 », « c 4 »); the shared filler, the small words a
speaker adds (articles, « en », "at", « qu'est-ce »: the `"small"` words of each language's
shared table) and single letters weigh nothing.
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence

from companion.core.text import fold

from .grammar import strip_filler
from .tables import table

#: a word within this spelling similarity (rapidfuzz ratio, 0..100) of a phrase's word counts
#: in part (its similarity); shorter words must be equal
CLOSE = 80
CLOSE_MIN_LENGTH = 4
#: how much the spelling distance (0..1) adds, to order phrases that share as much
SPELLING = 0.2
#: how much the share of the phrase's own weight the line says adds (a short phrase the line
#: says whole before a long one it names a part of)
PRECISION = 0.3
#: how many times a slot's value (a token, a player, a cell, a number: spelled with a capital
#: or a digit in the phrases) weighs more than a word of the phrases' own wording: in
#: « qu'est-ce qu'il y a en C4 » the cell says what is meant, « est » only how it is asked
VALUE = 3.0


@functools.cache
def small_words(lang: str) -> frozenset[str]:
    """The small words a player adds or drops around a command (`language/<lang>/shared.json`,
    `"small"`), as this module reads words: they weigh nothing."""
    return frozenset(t for w in table("shared", lang).get("small", []) for t in _TOKEN.findall(fold(w)))


def nearest_phrases(line: str, phrases: Sequence[tuple[str, str | None]], lang: str, n: int) -> list[str]:
    """The `n` phrases of `phrases` ((phrase, command) pairs) nearest `line`, one per command."""
    from rapidfuzz import fuzz, utils

    small = small_words(lang)
    said = [t for t in _words(strip_filler(line) or line, lang) if t not in small and (len(t) > 1 or t.isdigit())]
    words = [set(_words(p, lang)) for p, _c in phrases]
    df = Counter(w for ws in words for w in ws)
    total = len(phrases) + 1

    values = _values(p for p, _c in phrases)

    def weight(word: str) -> float:
        rare = math.log(total / (df.get(word, 0) + 1)) + 0.1
        return rare * VALUE if word in values or word.isdigit() else rare

    vocabulary = list(df)
    known: dict[str, float] = {}  # the line's words that are (near) some phrase's word, weighed
    for w in set(said):
        if w in df:
            known[w] = weight(w)
        elif len(w) >= CLOSE_MIN_LENGTH:
            close = [v for v in vocabulary if len(v) >= CLOSE_MIN_LENGTH and fuzz.ratio(w, v) >= CLOSE]
            if close:
                known[w] = max(weight(v) for v in close)
    mass = sum(known.values())
    folded = utils.default_process(line)
    scored = []
    for i, (phrase, _command) in enumerate(phrases):
        share = 0.0
        for w, wt in known.items():
            if w in words[i]:
                share += wt
            elif len(w) >= CLOSE_MIN_LENGTH:
                closest = max((fuzz.ratio(w, v) for v in words[i] if len(v) >= CLOSE_MIN_LENGTH), default=0.0)
                if closest >= CLOSE:
                    share += wt * closest / 100
        content = share / mass if mass else 0.0
        # and how much of the phrase the line says: « C4 » before « 3 en C4 fois 9 en F2… »
        own = sum(weight(v) for v in words[i]) or 1.0
        said_of_it = sum(weight(v) for v in words[i] if v in known or v in said) / own
        spelling = fuzz.WRatio(folded, utils.default_process(phrase)) / 100
        scored.append((content + PRECISION * said_of_it + SPELLING * spelling, -len(phrase), i))
    scored.sort(reverse=True)
    best: dict[str | None, str] = {}  # one phrase per command (« fin », « quitte »: one)
    for _score, _length, i in scored:
        phrase, command = phrases[i]
        best.setdefault(command, phrase)
        if len(best) == n:
            break
    return list(best.values())


@functools.lru_cache(maxsize=16384)  # the phrases listed now are mostly those listed at the last miss
def _words(text: str, lang: str) -> tuple[str, ...]:
    """Folded words, number words as digits (text2num, when the text has no digit: 2kissa10's
    equations are digits already); a letter and the number after it are one word, a cell
    (« C4 » and « c 4 » are c4), as rare as that cell is."""
    if not any(ch.isdigit() for ch in text):
        from text_to_num import alpha2digit

        with contextlib.suppress(Exception):  # text2num refuses some odd inputs: the words stay
            text = alpha2digit(text.replace("-", " "), lang if lang in ("fr", "en") else "en", threshold=0)
    toks = _TOKEN.findall(fold(text))
    out: list[str] = []
    for t in toks:
        if t.isdigit() and out and len(out[-1]) == 1 and out[-1].isalpha():
            out[-1] += t
        else:
            out.append(t)
    return tuple(out)


def _values(phrases: Iterable[str]) -> set[str]:
    """The words that fill a slot in these phrases: spelled with a capital or a digit (« C4 »,
    « Kigliss », « Paul »), folded as `_words` folds them."""
    out: set[str] = set()
    for phrase in phrases:
        for raw in _RAW.findall(phrase):
            if raw[0].isupper() or any(ch.isdigit() for ch in raw):
                out.update(_words(raw, "en"))
    return out


_RAW = re.compile(r"[^\W_]+")
_TOKEN = re.compile(r"[^\W\d_]+|\d+")
