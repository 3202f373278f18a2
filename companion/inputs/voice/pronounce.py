"""Pronunciations in the recogniser's phone set (the 39 phones of CMUdict, as pocketsphinx's
English model uses them).

English words come from the CMU dictionary shipped in pocketsphinx's wheel, with every
variant it lists. Words it lacks (token and charm names, players' names such as Chloé or Zoé,
numbers written as digits) and every French word are spoken by espeak-ng (`espeak-ng -q --ipa`)
and its IPA is mapped to the nearest CMU phones. The map is approximate by nature (French
nasal vowels become a vowel and N, the French R becomes R): measured in docs/voice.md.
"""

from __future__ import annotations

import mmap
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Iterable
from pathlib import Path

CMU_PHONES = frozenset(
    "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH".split()
)

# IPA (as espeak-ng writes it) -> CMU phones; longest symbols are tried first.
IPA_TO_CMU: dict[str, tuple[str, ...]] = {
    # English diphthongs and r-coloured vowels
    "eɪ": ("EY",), "aɪ": ("AY",), "ɔɪ": ("OY",), "oʊ": ("OW",), "əʊ": ("OW",), "aʊ": ("AW",),
    "ɪə": ("IH", "R"), "eə": ("EH", "R"), "ʊə": ("UH", "R"), "ɑːɹ": ("AA", "R"), "ɔːɹ": ("AO", "R"),
    "ɜː": ("ER",), "ɚ": ("ER",), "ɝ": ("ER",), "ɜ": ("ER",),
    "tʃ": ("CH",), "dʒ": ("JH",),
    # French nasal vowels: a vowel and N (the English model has no nasal vowels)
    "ɑ̃": ("AA", "N"), "ɛ̃": ("AE", "N"), "ɔ̃": ("OW", "N"), "œ̃": ("AH", "N"), "ã": ("AA", "N"), "õ": ("OW", "N"),
    # vowels
    "iː": ("IY",), "i": ("IY",), "ɪ": ("IH",), "ᵻ": ("IH",), "e": ("EY",), "ɛ": ("EH",), "æ": ("AE",),
    "a": ("AA",), "ɐ": ("AH",), "ɑː": ("AA",), "ɑ": ("AA",), "ɒ": ("AA",), "ɔː": ("AO",), "ɔ": ("AO",),
    "o": ("OW",), "ʊ": ("UH",), "uː": ("UW",), "u": ("UW",), "ʌ": ("AH",), "ə": ("AH",),
    "y": ("UW",), "ø": ("ER",), "œ": ("ER",), "ɵ": ("ER",), "ɨ": ("IH",),
    # consonants
    "p": ("P",), "b": ("B",), "t": ("T",), "d": ("D",), "k": ("K",), "ɡ": ("G",), "g": ("G",),
    "f": ("F",), "v": ("V",), "θ": ("TH",), "ð": ("DH",), "s": ("S",), "z": ("Z",), "ʃ": ("SH",),
    "ʒ": ("ZH",), "h": ("HH",), "x": ("HH",), "χ": ("HH",), "m": ("M",), "n": ("N",), "ŋ": ("NG",),
    "ɲ": ("N", "Y"), "l": ("L",), "ɫ": ("L",), "r": ("R",), "ɹ": ("R",), "ʁ": ("R",), "ɾ": ("T",),
    "j": ("Y",), "w": ("W",), "ɥ": ("W",), "ʔ": (),
}
_IPA_KEYS = sorted(IPA_TO_CMU, key=len, reverse=True)
_DROP = re.compile(r"[ˈˌ‍͡\u0329\u032f\u0306.\-]")  # stress, ties, syllabic and non-syllabic marks


def ipa_to_cmu(ipa: str) -> tuple[str, ...]:
    """``"zɔˈe"`` -> ``("Z", "AO", "EY")``. Unknown symbols are skipped."""
    text = unicodedata.normalize("NFC", _DROP.sub("", ipa)).replace("ː", "ː")
    phones: list[str] = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        for key in _IPA_KEYS:
            if text.startswith(key, i):
                phones.extend(IPA_TO_CMU[key])
                i += len(key)
                break
        else:
            i += 1  # a symbol with no phone (a length mark « ː », stress): nothing to add
    # the model knows no geminates: "t t" -> "t"
    out = [p for j, p in enumerate(phones) if j == 0 or p != phones[j - 1] or p not in _CONSONANTS]
    return tuple(out)


_CONSONANTS = frozenset("B CH D DH F G HH JH K L M N NG P R S SH T TH V W Y Z ZH".split())

ESPEAK_VOICE = {"en": "en-us", "fr": "fr"}
# more ways to say a word, beside espeak-ng's (issue 30): « non » alone, its nasal vowel heard
# by the English model as a vowel without N (bench/voice_answers.py: 6 of 12 « non » heard
# right, 5 more as « annule », against 0 with « N OW N » alone); « un » likewise (« j'avance la
# un » heard right for 3 of 6 voices, against 0 of 6); the digit « 1 » (« à Robot 1 ») also
# ER: fr+f5 and fr+Andy, never fitted on, heard every « Robot 1 » as « Robot 2 » (D ER); chosen
# on the fitting voices' KIKOI requests among AH, ER and « 2 » as D AH or D EH (AH and D EH
# made « 3 plus 4 » « 1 plus 4 » and « plus 9 » « plus 2 »; ER kept every equation of
# tests/voice/test_voice_null_hop.py): bench/voice_whole_language.py --lang fr --held-out,
# docs/voice.md « 2026-12-03 (night) »
VARIANTS: dict[str, dict[str, tuple[str, ...]]] = {
    "fr": {"non": ("N AO", "N OW"), "un": ("AH", "UH N", "ER N"), "1": ("ER",)},
}


def espeak_available() -> bool:
    return shutil.which("espeak-ng") is not None


def espeak_ipa(words: Iterable[str], lang: str) -> dict[str, str]:
    """IPA of each word, as espeak-ng says it in `lang` (one process for all of them)."""
    words = [w for w in dict.fromkeys(words) if w.strip()]
    if not words:
        return {}
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise PronunciationError("espeak-ng is not installed: apt-get install espeak-ng")
    text = "".join(w.replace(".", " ") + ".\n" for w in words)
    r = subprocess.run([exe, "-q", "--ipa", "-v", ESPEAK_VOICE.get(lang, lang)], input=text,
                       capture_output=True, text=True, timeout=30, check=False)
    lines = [ln.strip() for ln in r.stdout.splitlines() if ln.strip()]
    if r.returncode != 0 or len(lines) != len(words):
        # a word espeak split into two clauses: ask again one by one
        return {w: _espeak_one(exe, w, lang) for w in words}
    return dict(zip(words, lines, strict=True))


def _espeak_one(exe: str, word: str, lang: str) -> str:
    r = subprocess.run([exe, "-q", "--ipa", "-v", ESPEAK_VOICE.get(lang, lang), word],
                       capture_output=True, text=True, timeout=10, check=False)
    return " ".join(r.stdout.split())


class PronunciationError(RuntimeError):
    """No pronunciation can be made (espeak-ng missing for a word outside the dictionary)."""


def cmudict_path() -> Path:
    import pocketsphinx

    return Path(pocketsphinx.get_model_path()) / "en-us" / "cmudict-en-us.dict"


def cmudict(words: Iterable[str], path: Path | None = None) -> dict[str, tuple[str, ...]]:
    """The pronunciations the CMU dictionary shipped with pocketsphinx lists for these words
    (those it has), every variant in its order. The file (135,000 lines, sorted by word) is
    searched in place, by halves: held whole in memory it cost 36 MB (measured)."""
    out: dict[str, tuple[str, ...]] = {}
    with open(path or cmudict_path(), "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        for word in dict.fromkeys(words):
            key = word.encode("utf-8")
            lo, hi = 0, len(mm)
            while lo < hi:  # lo, hi: line starts; the first line whose word is >= key
                mid = (lo + hi) // 2
                start = mm.rfind(b"\n", 0, mid) + 1
                if _base(mm, start) < key:
                    nl = mm.find(b"\n", mid)
                    lo = len(mm) if nl < 0 else nl + 1
                else:
                    hi = start
            variants = []
            while lo < len(mm) and _base(mm, lo) == key:
                nl = mm.find(b"\n", lo)
                end = len(mm) if nl < 0 else nl
                variants.append(mm[lo:end].decode("utf-8").strip().partition(" ")[2])
                lo = end + 1
            if variants:
                out[word] = tuple(variants)
    return out


def _base(mm: mmap.mmap, start: int) -> bytes:
    """The word of the line at `start`, without its variant number: ``b"read(2)"`` -> ``b"read"``."""
    end = mm.find(b" ", start)
    return mm[start:end].split(b"(", 1)[0]


class Lexicon:
    """Pronunciations of the words of a grammar, made once per word and kept."""

    def __init__(self, lang: str, *, use_cmudict: bool | None = None) -> None:
        self.lang = lang
        self.use_cmudict = lang == "en" if use_cmudict is None else use_cmudict
        self._cache: dict[str, tuple[str, ...]] = {}

    def pronounce(self, words: dict[str, str]) -> dict[str, tuple[str, ...]]:
        """token -> pronunciations (each a space-separated CMU phone string).

        `words` maps each grammar token to the spelling to pronounce (``"zoe"`` -> ``"Zoé"``).
        """
        missing = [t for t in words if t not in self._cache]
        need_espeak: dict[str, str] = {}
        known = cmudict(missing) if self.use_cmudict else {}
        for token in missing:
            if token in known:
                variants = known[token]
                if len(token) == 1 and words[token].isupper():
                    # a capital letter alone is the letter's name (« A2 », « column A »), not the
                    # article's schwa: CMUdict's « a » AH, which fits almost any short sound,
                    # made « help » and « status » heard as « A2 » in 2kissa10
                    variants = tuple(v for v in variants if v != "AH") or variants
                self._cache[token] = variants
            else:
                need_espeak[token] = words[token]
        if need_espeak:
            ipa = espeak_ipa(need_espeak.values(), self.lang)
            for token, spelling in need_espeak.items():
                phones = ipa_to_cmu(ipa.get(spelling, ""))
                if not phones:
                    raise PronunciationError(f"no pronunciation for {spelling!r}")
                self._cache[token] = (" ".join(phones),) + VARIANTS.get(self.lang, {}).get(token, ())
        return {t: self._cache[t] for t in words}
