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

from typing import Any

from companion.core.text import fold
from companion.games.base import (
    FALL_THROUGH,
    Act,
    Answer,
    Ask,
    Confirm,
    Refuse,
    Seq,
    action_command,
)
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


def understand(ui: Any, text: str, match: Any, seat: int) -> tuple[str, str | None, Any]:
    """How a line is taken when nothing is pending, as the session takes it:
    (kind, command, intent). `kind` is "shared" (a shared word), "act", "confirm", "ask",
    "answer", "refuse", "seq" or "not_understood"; `command` names what was understood."""

    word = global_command(text)
    if word is not None and word not in FALL_THROUGH:
        return "shared", word, None
    intent = ui.parse(text, match, seat)
    if intent is None:
        return ("shared", word, None) if word is not None else ("not_understood", None, None)
    kinds = ((Act, "act"), (Confirm, "confirm"), (Ask, "ask"), (Answer, "answer"), (Refuse, "refuse"), (Seq, "seq"))
    kind = next(k for cls, k in kinds if isinstance(intent, cls))
    command = intent.command
    if command is None and isinstance(intent, (Act, Confirm)):
        command = action_command(ui.game, intent.action)
    return kind, command, intent
