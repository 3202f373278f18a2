"""Pronunciations in the recogniser's phone set (the 39 phones of CMUdict, as pocketsphinx's
English model uses them).

English words come from the CMU dictionary shipped in pocketsphinx's wheel, with every
variant it lists. Words it lacks (token and charm names, players' names such as Chloé or Zoé,
numbers written as digits) and every French word are spoken by espeak-ng (`espeak-ng -q --ipa`)
and its IPA is mapped to the nearest CMU phones. The map is approximate by nature (French
nasal vowels become a vowel and N, the French R becomes R): measured in docs/voice.md.
"""

from __future__ import annotations

import functools
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


@functools.lru_cache(maxsize=1)
def cmudict(path: str | None = None) -> dict[str, tuple[str, ...]]:
    """The CMU dictionary shipped with pocketsphinx: word -> its pronunciations (strings)."""
    if path is None:
        import pocketsphinx

        path = str(Path(pocketsphinx.get_model_path()) / "en-us" / "cmudict-en-us.dict")
    out: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            word, _, phones = line.strip().partition(" ")
            base = word.split("(", 1)[0]
            out.setdefault(base, []).append(phones)
    return {w: tuple(p) for w, p in out.items()}


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
        for token in missing:
            if self.use_cmudict and token in cmudict():
                self._cache[token] = cmudict()[token]
            else:
                need_espeak[token] = words[token]
        if need_espeak:
            ipa = espeak_ipa(need_espeak.values(), self.lang)
            for token, spelling in need_espeak.items():
                phones = ipa_to_cmu(ipa.get(spelling, ""))
                if not phones:
                    raise PronunciationError(f"no pronunciation for {spelling!r}")
                self._cache[token] = (" ".join(phones),)
        return {t: self._cache[t] for t in words}
