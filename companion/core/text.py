"""Folding of typed or dictated words so that case, accents and punctuation never matter."""

from __future__ import annotations

import re
import unicodedata

_NON_WORD = re.compile(r"[^a-z0-9]+")


def fold(text: str) -> str:
    """Lower case, accents removed, runs of punctuation and spaces made one space.

    >>> fold("  Répète, S'il-te-plaît ! ")
    'repete s il te plait'
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    bare = bare.replace("œ", "oe").replace("æ", "ae")
    return _NON_WORD.sub(" ", bare).strip()


def words(text: str) -> list[str]:
    return fold(text).split()
