"""Reading what players say, for every game: numbers, yes/no/cancel, players, close names.

All readers take folded text (`companion.core.fold`) or fold it themselves, and read every
language of the tables at once.

* Numbers as digits or words, French and English and any language whose table lists its
  spelled numbers: "21", "vingt et un", "twenty-one", "dix-sept", "deux mille trois cent",
  small ordinals ("premier", "third"). Multi-word numbers (and the `number_words` such as
  « mille », "thousand") go through text2num for the languages that set `"text2num": true`
  in their shared table.
* Places in a list: `ordinal` reads « le deuxième », "the third one", « choix 2 » and
  « le dernier » / "the last one" (`LAST`), from the shared table's `ordinal` section.
* yes / no / cancel: the shared table's words.
* Players by name (folded, so « Chloe » is Chloé), by close spelling (« Kloé »), or as
  "joueur 2" / "player 2".
* `close_match`: the vocabulary word a misspelt or misheard word stands for (« kiglis »).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.core.text import fold

from .tables import cached, groups, languages, table, words

MAX_NUMBER_WORDS = 16  # « trois cent quatre-vingt-dix-sept mille deux cent quatre-vingt-dix-neuf »: 2kissa10 products
LAST = -1  # `ordinal`: the last place of the list just heard


@cached
def _number_map() -> dict[str, int]:
    """Folded number words and phrases of every language -> value (spelled lists, ordinals)."""
    out: dict[str, int] = {}
    for lang in reversed(languages()):
        t = table("shared", lang)
        for n, w in enumerate(t.get("spelled", [])):
            if fold(w):
                out[fold(w)] = n
        for w, n in (*t.get("numbers", {}).items(), *_ordinal_section(lang).get("words", {}).items()):
            if fold(w):
                out[fold(w)] = int(n)
    return out


def _ordinal_section(lang: str) -> dict[str, Any]:
    section = table("shared", lang).get("ordinal", {})
    return section if isinstance(section, dict) else {}


@cached
def _numberish() -> frozenset[str]:
    """Single words that may be part of a number said in words."""
    out = {w for phrase in _number_map() for w in phrase.split()}
    return frozenset(out | set(_glue()) | set(_number_words()))


@cached
def _number_words() -> frozenset[str]:
    """Words that take part in a number said in words and that text2num reads (« mille »,
    "thousand"), beyond the spelled numbers of the tables."""
    return frozenset(w for p in words("shared", "number_words") for w in p.split())


@cached
def _glue() -> frozenset[str]:
    return frozenset(words("shared", "number_glue"))


@cached
def _text2num_langs() -> tuple[str, ...]:
    return tuple(lg for lg in languages() if table("shared", lg).get("text2num"))


@cached
def _phrase_value(phrase: str) -> int | None:
    known = _number_map().get(phrase)
    if known is not None:
        return known
    if " " not in phrase and phrase not in _number_words():
        return None
    from text_to_num import text2num  # imported when first needed: start-up stays fast

    for lang in _text2num_langs():
        try:
            return int(text2num(phrase, lang))
        except (ValueError, IndexError, KeyError, TypeError):
            continue
    return None


MAX_DIGITS = 30


def number_at(tokens: Sequence[str], i: int) -> tuple[int, int]:
    """The number starting at folded word `i`: (value, words used); (0, 0) when none."""
    if i >= len(tokens):
        return 0, 0
    if tokens[i].isdecimal() and len(tokens[i]) <= MAX_DIGITS:
        # Decimal digits only (« ² » is no number) and a bounded length: a 5,000-digit line
        # is not understood rather than ending the game (issue #16).
        return int(tokens[i]), 1
    numberish = _numberish()
    glue = _glue()
    if tokens[i] not in numberish or tokens[i] in glue:
        return 0, 0
    end = i
    while end < len(tokens) and end - i < MAX_NUMBER_WORDS and tokens[end] in numberish:
        end += 1
    for j in range(end, i, -1):
        if tokens[j - 1] in glue:
            continue
        value = _phrase_value(" ".join(tokens[i:j]))
        if value is not None:
            return value, j - i
    return 0, 0


def number_spans(text: str) -> list[tuple[int, int, int]]:
    """Each number said, in order: (first word, past the last word, value) of the folded text."""
    tokens = fold(text).split()
    out = []
    i = 0
    while i < len(tokens):
        value, used = number_at(tokens, i)
        if used:
            out.append((i, i + used, value))
            i += used
        else:
            i += 1
    return out


def numbers_in(text: str) -> list[int]:
    """The numbers said in a line, as digits or words, in order: "douze et vingt et un" -> [12, 21]."""
    return [v for _s, _e, v in number_spans(text)]


def read_number(text: str) -> int | None:
    """The line as one number ("vingt et un", "21", "twenty-one", "third"), else None."""
    tokens = fold(text).split()
    value, used = number_at(tokens, 0)
    return value if used and used == len(tokens) else None


# --- places in a list ------------------------------------------------------------------------------
@cached
def _ordinals() -> tuple[dict[str, int], tuple[str, ...], frozenset[str]]:
    """(ordinal word -> place, the words for the last place, filler words) of every language."""
    places: dict[str, int] = {}
    last: list[str] = []
    filler: set[str] = set()
    for lang in languages():
        section = _ordinal_section(lang)
        for w, n in section.get("words", {}).items():
            places.setdefault(fold(w), int(n))
        last += [fold(w) for w in section.get("last", []) if fold(w)]
        filler |= {fold(w) for w in section.get("filler", []) if fold(w)}
    return places, tuple(dict.fromkeys(last)), frozenset(filler)


def is_ordinal(word: str) -> bool:
    """Whether a folded word is an ordinal of the tables (« deuxième », "third", « dernier »),
    not a plain number: a digit dictated in a row is never « deuxième »."""
    places, last, _filler = _ordinals()
    return word in places or word in last


def ordinal(text: str) -> int | None:
    """The place in a list a line names, counted from 1: « le deuxième », "the third one",
    « choix 2 », "option two", « 3 »; `LAST` for « le dernier » / "the last one"; None when it
    names none. An ordinal word counts anywhere in the line; a plain number only when the rest
    of the line is the table's filler (« choix », "option", "the"...)."""
    tokens = fold(text).split()
    if not tokens:
        return None
    places, last, filler = _ordinals()
    padded = f" {' '.join(tokens)} "
    if any(f" {w} " in padded for w in last):
        return LAST
    for w in tokens:
        if w in places:
            return places[w]
    rest = " ".join(tokens)
    for phrase in sorted(filler, key=len, reverse=True):
        rest = f" {rest} ".replace(f" {phrase} ", " ").strip()
    return read_number(rest) if rest else None


def number_word(n: int, lang: str) -> str:
    """`n` as a word of `lang` when its table spells it, else in digits."""
    spelled = table("shared", lang).get("spelled", [])
    return str(spelled[n]) if 0 <= n < len(spelled) else str(n)


# --- yes / no / cancel ---------------------------------------------------------------------------
@cached
def _yes_no() -> dict[str, str]:
    out: dict[str, str] = {}
    for w in words("shared", "cancel"):
        out[w] = "cancel"
    shared = groups("shared", "words")
    for key in ("no", "yes"):
        for w in shared.get(key, ()):
            out[w] = key
    return out


def yes_no(text: str) -> str | None:
    """"yes", "no" or "cancel" when the whole line says so (any language), else None."""
    return _yes_no().get(fold(text))


# --- players ---------------------------------------------------------------------------------------
@cached
def _player_words() -> frozenset[str]:
    out: set[str] = set()
    for lang in languages():
        out.update(fold(w) for w in table("shared", lang).get("player", {}).get("words", []))
    return frozenset(out)


def player_spans(text: str, players: Sequence[str], known: Iterable[str] = ()) -> list[tuple[int, int, int]]:
    """Where a line names players: (first word, past the last word, seat), in order.

    By name (case and accents ignored), as "joueur 2" / "player 2", or by a close spelling
    of a name of 4 letters or more («Kloé» for Chloé) when the word is none of `known`."""
    tokens = fold(text).split()
    taken = [False] * len(tokens)
    out: list[tuple[int, int, int]] = []
    names = [fold(p).split() for p in players]
    for seat, name in sorted(enumerate(names), key=lambda x: -len(x[1])):
        k = len(name)
        if not k:
            continue
        for i in range(len(tokens) - k + 1):
            if tokens[i : i + k] == name and not any(taken[i : i + k]):
                out.append((i, i + k, seat))
                taken[i : i + k] = [True] * k
    pwords = _player_words()
    for i, w in enumerate(tokens):
        if w in pwords and not taken[i] and i + 1 < len(tokens) and not taken[i + 1]:
            value, used = number_at(tokens, i + 1)
            if used and 1 <= value <= len(players):
                out.append((i, i + 1 + used, value - 1))
                taken[i : i + 1 + used] = [True] * (1 + used)
    known_set = set(known) | set(pwords) | _numberish()
    single = {" ".join(n): s for s, n in enumerate(names) if len(n) == 1 and len(n[0]) >= 4}
    for i, w in enumerate(tokens):
        if taken[i] or len(w) < 4 or w in known_set:
            continue
        got = close_match(w, list(single), cutoff=80 if len(w) >= 5 else 88)
        if got is not None:
            out.append((i, i + 1, single[got]))
            taken[i] = True
    out.sort()
    return out


def find_players(text: str, players: Sequence[str], known: Iterable[str] = ()) -> list[int]:
    """The seats a line names, in the order said, each once."""
    return list(dict.fromkeys(s for _i, _j, s in player_spans(text, players, known)))


def strip_players(text: str, players: Sequence[str], known: Iterable[str] = ()) -> str:
    """The folded line without the words that name players."""
    tokens = fold(text).split()
    for i, j, _s in player_spans(text, players, known):
        tokens[i:j] = [""] * (j - i)
    return " ".join(t for t in tokens if t)


# --- close matching --------------------------------------------------------------------------------
def close_match(word: str, choices: Sequence[str], cutoff: float = 85) -> str | None:
    """The one choice `word` is a close spelling of (rapidfuzz ratio >= cutoff), else None;
    None also when two choices are as close."""
    if not choices:
        return None
    from rapidfuzz import fuzz, process  # imported when first needed: start-up stays fast

    found = process.extract(fold(word), list(choices), scorer=fuzz.ratio, limit=2, score_cutoff=cutoff)
    if not found:
        return None
    if len(found) == 2 and found[1][1] == found[0][1] and found[1][0] != found[0][0]:
        return None
    return str(found[0][0])
