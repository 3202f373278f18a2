"""Text to braille cells with liblouis (Debian's `python3-louis`, linked into the venv by `run`).

French and English, contracted or not as the player chooses. A cell is one byte, bit i for
dot i+1 (BrlAPI's `writeDots`, Unicode braille minus U+2800). Words are rendered one by one,
so a routing key under a cell always names the word it belongs to (docs/braille.md).
"""

from __future__ import annotations

from functools import lru_cache

# liblouis tables: 8-dot computer braille (French displays' usual « braille informatique »)
# or French abrégé; Unified English Braille grade 1 or grade 2.
TABLES = {
    ("fr", False): "fr-bfu-comp8.utb",
    ("fr", True): "fr-bfu-g2.ctb",
    ("en", False): "en-ueb-g1.ctb",
    ("en", True): "en-ueb-g2.ctb",
}
DISPLAY = "unicode.dis"  # liblouis gives Unicode braille: one code point per cell


class NoLiblouis(RuntimeError):
    """liblouis (python3-louis) is not installed."""


def _louis():  # noqa: ANN202 - the optional module
    try:
        import louis
    except ImportError as exc:  # pragma: no cover - `run` installs python3-louis
        raise NoLiblouis(str(exc)) from None
    return louis


def table_of(lang: str, contracted: bool) -> str:
    return TABLES.get((lang, contracted), TABLES[("en" if lang == "en" else "fr", contracted)])


@lru_cache(maxsize=4096)
def word_cells(word: str, lang: str, contracted: bool) -> bytes:
    """One word (no spaces) as cells."""
    if not word:
        return b""
    unicode = _louis().translateString([DISPLAY, table_of(lang, contracted)], word)
    return bytes((ord(ch) - 0x2800) & 0xFF if 0x2800 <= ord(ch) <= 0x28FF else 0 for ch in unicode)


def text_cells(text: str, lang: str, contracted: bool) -> bytes:
    """A whole line as cells, words apart by one blank cell."""
    return b"\x00".join(word_cells(w, lang, contracted) for w in _words(text))


def back(cells: bytes, lang: str, contracted: bool) -> str:
    """What cells read as (liblouis' back-translation): for the tests and `companion join --braille`."""
    unicode = "".join(chr(0x2800 + c) for c in cells)
    return _louis().backTranslateString([DISPLAY, table_of(lang, contracted)], unicode)


def _words(text: str) -> list[str]:
    return text.split()


__all__ = ["TABLES", "NoLiblouis", "back", "table_of", "text_cells", "word_cells"]
