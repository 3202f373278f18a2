"""The words every game shares (help, repeat, undo, status, quit, verbosity, speech rate).

The words are data: `companion/language/<lang>/shared.json`, every language at once, case and
accents ignored. A game's own commands are parsed only when a line is none of these, except
"yes" and "no", which go to the game when nothing waits for a confirmation and the game
understands them (« oui » answers a KIKOI request).

A shared word never takes a phrase a game lists as its own (`tests/test_phrases_shadow.py`):
« score » is no shared word, so that each game answers it its own way (Kaliko's score query,
the others' status).
"""

from __future__ import annotations

from companion.core.text import fold
from companion.language import cached, groups
from companion.language.grammar import strip_filler


@cached
def _lookup() -> dict[str, str]:
    out: dict[str, str] = {}
    for name, aliases in groups("shared", "words").items():
        for alias in aliases:
            out.setdefault(alias, name)
    return out


def shared_words() -> dict[str, tuple[str, ...]]:
    """Every shared command and its folded phrases, all languages merged."""
    return groups("shared", "words")


def global_command(text: str) -> str | None:
    """The shared command `text` names, or None; filler costs nothing (« euh, aide »,
    "undo please": the shared table's ``filler``)."""
    lookup = _lookup()
    word = lookup.get(fold(text))
    return word if word is not None else lookup.get(strip_filler(text)) or None
