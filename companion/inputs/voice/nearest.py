"""A free transcript (Whisper's) -> the one listed phrase it is, or None: talk.

pocketsphinx can only hear what the grammar lists; Whisper writes whatever it heard
(« D3 », "the three", « 4 3 » for "43", "for" for 4). So the transcript is mapped onto what
is sayable now (`PhraseSet`: the listed phrases and, where the list is a sample of the legal
moves, every legal move) by a word-level edit distance whose costs are those of the
confusions speech makes, not a plain string distance:

* both sides are folded and their number words written as digits (text2num, both languages):
  « vingt et un », "twenty one" and "21" are one word;
* letters that rhyme (« b/d/e/g/p/t/v/c/z » in English, « b/c/d/g/p/t/v/é » in French)
  are cheap to swap, a digit for another digit is a whole error (a wrong number is a wrong
  move), "fifteen" for "fifty" half of one;
* digits run together (« 4 3 » heard as "43", and back) cost little, as do homophones of a
  digit or a letter ("for" 4, "to" 2, "see" c, « des » d) and small words said or left out
  (articles, "please", « euh »);
* any other pair of words costs their normalised spelling distance (« kiglis », "Chloe").

The nearest phrase is taken when its cost per word (of the longer side) is at most `ACCEPT[lang]` and it stands clear
of the next one (`MARGIN`); anything else is talk, never a command.
"""

from __future__ import annotations

import contextlib
import functools
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from .grammar import Phrase, PhraseSet, fold_token

#: highest cost per word (of the phrase or the transcript, the longer) for a transcript to
#: be that phrase, per language: fitted on espeak-ng voices by bench/voice_accuracy.py
#: --whisper (2026-12-02: exact lines less three times the talk taken; docs/voice.md)
ACCEPT = {"en": 0.40, "fr": 0.35}
#: the nearest phrase must cost this much less per word than the next different one
MARGIN = 0.06
#: this many phrases nearest by plain spelling get the confusion costs (2kissa10 lists
#: 95,000 legal moves: the weighted distance on each would take seconds)
SHORTLIST = 40

RHYMES = {"en": ("bcdegptvz", "mn", "aejk", "iy", "qu"),
          "fr": ("bcdgptvwe", "mn", "fls", "ah", "iy")}
#: spoken forms of digits and letters, and frequent mishearings, per language (cost HOMOPHONE)
HOMOPHONES = {
    "en": {"for": "4", "four": "4", "fore": "4", "to": "2", "too": "2", "two": "2", "won": "1", "ate": "8",
           "tree": "3", "free": "3", "sex": "6", "nein": "9", "oh": "0", "zero": "0",
           "see": "c", "sea": "c", "bee": "b", "be": "b", "dee": "d", "the": "d", "tea": "t", "tee": "t",
           "gee": "g", "pea": "p", "pee": "p", "vee": "v", "you": "u", "are": "r", "why": "y", "eye": "i",
           "jay": "j", "kay": "k", "okay": "k", "ok": "k", "hey": "a", "age": "h",
           "right": "right", "write": "right", "rite": "right", "nice": "9", "queue": "q", "ex": "x",
           "nope": "no", "nah": "no", "yeah": "yes", "yep": "yes", "yup": "yes"},
    "fr": {"cette": "7", "sept": "7", "set": "7", "huit": "8", "cent": "100", "sans": "100", "sang": "100",
           "vin": "20", "vingt": "20", "neuf": "9", "dix": "10", "dis": "10", "six": "6", "cis": "6",
           "des": "d", "de": "d", "dés": "d", "c'est": "c", "ces": "c", "ses": "c", "t'es": "t", "thé": "t",
           "j'ai": "g", "paix": "p", "vé": "v", "et": "e", "hache": "h", "ha": "a", "bé": "b", "be": "b",
           "quatre": "4", "cat": "4", "deux": "2", "trois": "3", "cinq": "5", "saint": "5", "un": "1", "une": "1"},
}
TENS = {("13", "30"), ("14", "40"), ("15", "50"), ("16", "60"), ("17", "70"), ("18", "80"), ("19", "90")}

HOMOPHONE = 0.15
RHYME = 0.35
FILLER_COST = 0.25
RUN_TOGETHER = 0.2
TEEN_TY = 0.5

_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+")


#: words text2num may read as (part of) a number: a text with none of them is left as it is
#: (2kissa10's 95,000 legal moves are digits already: text2num took seconds over them)
NUMBER_WORDS = frozenset("""
zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
thousand million billion first second third fourth fifth sixth seventh eighth ninth tenth
zero un une deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize
vingt vingts trente quarante cinquante soixante septante huitante nonante cent cents mille million
millions premier premiere deuxieme troisieme quatrieme cinquieme
""".split())


def normalise(text: str, lang: str) -> tuple[str, ...]:
    """Folded words, number words as digits, letters and digits apart (« D3 » -> d 3)."""
    text = text.replace("-", " ").replace("’", "'")
    if any(fold_token(w) in NUMBER_WORDS for w in _TOKEN.findall(text)):
        from text_to_num import alpha2digit

        # text2num refuses some odd inputs: the words are then kept as they are
        with contextlib.suppress(Exception):
            text = alpha2digit(text, lang if lang in ("fr", "en") else "en", threshold=0)
    out: list[str] = []
    for w in _TOKEN.findall(text.replace(",", " ").replace(".", " ")):
        out.append(fold_token(w))
    return tuple(out)


def word_cost(a: str, b: str, lang: str) -> float:
    """The cost of hearing `a` where `b` was in the phrase (0 the same, 1 a whole error)."""
    if a == b:
        return 0.0
    homs = HOMOPHONES.get(lang, HOMOPHONES["en"])
    ha, hb = homs.get(a, a), homs.get(b, b)
    if ha == hb:
        return HOMOPHONE
    da, db = ha.isdecimal(), hb.isdecimal()
    if da and db:
        return TEEN_TY if (ha, hb) in TENS or (hb, ha) in TENS else 1.0
    if da or db:
        return 1.0  # a number for a word: never a close spelling
    if len(ha) == 1 and len(hb) == 1:
        same = any(ha in group and hb in group for group in RHYMES.get(lang, RHYMES["en"]))
        return RHYME if same else 1.0
    from rapidfuzz.distance import Levenshtein

    return min(1.0, float(Levenshtein.normalized_distance(a, b)) * 1.2)


@functools.cache
def small_words(lang: str) -> frozenset[str]:
    """The small words a speaker adds or drops around a command (cost FILLER_COST): the
    `"small"` words of `language/<lang>/shared.json` (English where a language has none), as
    this module reads words (« s'il » one word)."""
    from companion.language.tables import table

    said = table("shared", lang).get("small") or table("shared", "en").get("small", [])
    return frozenset(fold_token(t) for w in said for t in _TOKEN.findall(w))


def insert_cost(word: str, lang: str) -> float:
    return FILLER_COST if word in small_words(lang) else 1.0


def distance(heard: Sequence[str], phrase: Sequence[str], lang: str) -> float:
    """The cheapest way to turn the phrase's words into those heard (weighted Levenshtein over
    words, with two words of digits run together into one, or one split in two)."""
    n, m = len(heard), len(phrase)
    inf = float("inf")
    d = [[inf] * (m + 1) for _ in range(n + 1)]
    d[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            here = d[i][j]
            if here == inf:
                continue
            if i < n:  # a word heard that the phrase has not
                d[i + 1][j] = min(d[i + 1][j], here + insert_cost(heard[i], lang))
            if j < m:  # a word of the phrase not heard
                d[i][j + 1] = min(d[i][j + 1], here + insert_cost(phrase[j], lang))
            if i < n and j < m:
                d[i + 1][j + 1] = min(d[i + 1][j + 1], here + word_cost(heard[i], phrase[j], lang))
            # « 4 3 » heard as "43", "43" as « 4 3 »
            if i < n and j + 1 < m and heard[i].isdecimal() and heard[i] == phrase[j] + phrase[j + 1]:
                d[i + 1][j + 2] = min(d[i + 1][j + 2], here + RUN_TOGETHER)
            if j < m and i + 1 < n and phrase[j].isdecimal() and phrase[j] == heard[i] + heard[i + 1]:
                d[i + 2][j + 1] = min(d[i + 2][j + 1], here + RUN_TOGETHER)
    return d[n][m]


def cost_to(transcript: str, phrase: str, lang: str) -> float:
    """How far a transcript is from one phrase, per word of the longer (0 the same)."""
    heard, said = normalise(transcript, lang), normalise(phrase, lang)
    return distance(heard, said, lang) / max(1, len(heard), len(said))


@dataclass(frozen=True)
class Nearest:
    """The phrase a transcript was mapped onto (None: talk), its cost per word, and the
    next different phrase's."""

    match: Phrase | None
    cost: float
    runner_up: float
    heard: tuple[str, ...] = ()
    #: the nearest phrase even when it was not taken (for the figures: other thresholds)
    best: Phrase | None = None


_NORMAL: dict[tuple[str, int, int], list[str]] = {}
_NORMAL_LOCK = threading.Lock()  # every listener's Whisper shares the cache


def _normalised(lang: str, items: list[str]) -> list[str]:
    """The normalised phrases of a state, words joined by spaces, kept for the last two
    states (2kissa10's 95,000 legal moves: one string each, not a tuple of words, which took
    some 70 MB more of `companion play`). Keyed by the phrases themselves (a hash of them),
    as the list is read by index beside them."""
    key = (lang, len(items), hash(tuple(items)))
    with _NORMAL_LOCK:
        known = _NORMAL.get(key)
    if known is not None:
        return known
    # grammar tokens are folded and apart from digits already: only number words change
    made = [" ".join(normalise(text, lang)) if not NUMBER_WORDS.isdisjoint(text.split()) else text for text in items]
    with _NORMAL_LOCK:
        while len(_NORMAL) >= 2:
            _NORMAL.pop(next(iter(_NORMAL)))
        _NORMAL[key] = made
    return made


class PhraseIndex:
    """What is sayable now, ready for `nearest`: each phrase's grammar tokens and their
    normalised form (made once per state)."""

    def __init__(self, phrases: PhraseSet) -> None:
        self.phrases = phrases
        self.lang = phrases.lang
        # the grammar's tokens of each phrase, spaced (2kissa10's legal moves come so)
        self.tokens = [" ".join(t) for t in phrases.by_tokens]
        if phrases.every_move is not None:
            seen = set(self.tokens)
            self.tokens += [m for m in phrases.every_move() if m not in seen]
        self.strings = _normalised(self.lang, self.tokens)

    def normal(self, i: int) -> tuple[str, ...]:
        return tuple(self.strings[i].split())

    def match_of(self, i: int) -> Phrase | None:
        return self.phrases.resolve(self.tokens[i].split())

    def nearest(self, transcript: str) -> Nearest:
        heard = normalise(transcript, self.lang)
        if not heard or not self.tokens:
            return Nearest(None, 1.0, 1.0, heard)
        from rapidfuzz import fuzz, process

        joined = " ".join(heard)
        short = {i for _s, _score, i in process.extract(joined, self.strings, scorer=fuzz.ratio, limit=SHORTLIST)}
        short |= {i for _s, _score, i in process.extract(joined, self.strings, scorer=fuzz.token_set_ratio, limit=10)}
        # per word of the longer side: a long sentence of talk is far from a short command
        scored = sorted((distance(heard, self.normal(i), self.lang) / max(1, len(self.normal(i)), len(heard)), i)
                        for i in short)
        best_cost, best = scored[0]
        match = self.match_of(best)
        runner = next((c for c, i in scored[1:] if self.match_of(i) != match), 1.0)
        if match is None or best_cost > ACCEPT.get(self.lang, 0.35) or runner - best_cost < MARGIN:
            return Nearest(None, best_cost, runner, heard, match)
        return Nearest(match, best_cost, runner, heard, match)


def nearest(transcript: str, phrases: PhraseSet) -> Nearest:
    """The listed phrase `transcript` is, or `Nearest(None, ...)` when it is talk."""
    return PhraseIndex(phrases).nearest(transcript)


__all__ = ["ACCEPT", "MARGIN", "Nearest", "PhraseIndex", "cost_to", "distance", "nearest", "normalise", "word_cost"]
