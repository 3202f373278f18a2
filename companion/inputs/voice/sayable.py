"""What may be said now, from the game: `sayable_now(ui, match, seat, lang)`.

The game's `GameUI.phrases(match, seat, lang)` (the `companion phrases` contract) gives the
concrete (phrase, command) pairs — the shared words and every legal action in one canonical
spoken form — and the slot grammar. Beside them, for the games of `WHOLE_GAMES`, the whole
well-formed language of the game's grammar (issue 24 §3): every request, legal now or not, so
that what is not allowed is heard as said and refused with its reason, never forced onto the
nearest legal move; the listed phrases stay likelier (`fsg.WHOLE_SHARE`).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .grammar import PhraseSet, tokens_of
from .legal import Packed


def sayable_now(ui: Any, match: Any, seat: int, lang: str, *, limit: int | None = None,
                replies: Any = None) -> PhraseSet:
    """The phrases `seat` may say now, in `lang`, ready for a recogniser. With `limit`, only
    the shared words and the first `limit` listed moves, without the slot grammar (a small
    grammar: for tests and demos on slow machines). `replies`: what may answer the game's
    question waiting for `seat` (`Ask.replies`, told by the core: `Hearable.replying`)."""
    got = ui.phrases(match, seat, lang=lang)
    if limit is None:
        ps = PhraseSet.build(got.concrete, got.grammar, lang, sampled=getattr(got, "sampled", False),
                             whole=whole_language(ui, match, seat, lang),
                             replies=replies.phrases(lang) if replies is not None else ())
        if ps.sampled:
            ps.every_move = every_move(ui, match, seat, lang)
        ps.read = reader(ui, match, seat)
        ps.legal_rivals = getattr(_phrases_module(ui), "LEGAL_RIVALS", None)
        return ps
    moves = [(p, c) for p, c in got.concrete if c.startswith("action:")][:limit]
    others = [(p, c) for p, c in got.concrete if not c.startswith("action:")]
    return PhraseSet.build(others + moves, None, lang)


#: the games whose whole well-formed language the recogniser hears (issue 24 §3); the others
#: hear the listed (legal) phrases and templates only. A game's phrases module may bound it:
#: `HEARD_KINDS` (the kinds heard whole: 2kissa10's equations) and `heard_context(match,
#: seat)` (what its slots list: the values on a 2kissa10 board)
WHOLE_GAMES = frozenset({"kikoi", "goodfortune", "kissa", "kaliko"})


def _phrases_module(ui: Any) -> Any:
    """The game package's `phrases` module (None for a game without one)."""
    import importlib

    name = type(ui).__module__.rpartition(".")[0] + ".phrases"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise


def whole_language(ui: Any, match: Any, seat: int, lang: str) -> tuple[list[Any], dict[str, list[str]]] | None:
    """The game's whole well-formed language in `lang` (every rule of its grammar, every value
    of each slot, legal now or not), or None for a game not heard so."""

    grammar = ui.grammar() if callable(getattr(ui, "grammar", None)) else None
    if grammar is None or grammar.game not in WHOLE_GAMES:
        return None
    module = _phrases_module(ui)
    ctx = dict(ui.context(match, seat))
    if callable(getattr(module, "heard_context", None)):
        ctx.update(module.heard_context(match, seat))
    seqs, values = grammar.language(lang, ctx, getattr(module, "HEARD_KINDS", None))
    return (seqs, values) if seqs else None


#: the lines a state's reader keeps read (the rival check reads up to 60 a move, the same
#: ones at each utterance of a state: 50 ms of KIKOI's 190 ms after the speech)
READ_MEMO = 4096


def reader(ui: Any, match: Any, seat: int) -> Callable[[str, str | None], Any]:
    """The typed command of a listed phrase, read by the game's one grammar on this `match`
    (a replica: called in the listener's thread), for `seat` or the player who named
    themselves; None for a shared word or a game read by its own parser."""

    read_before: dict[tuple[str, str | None], Any] = {}  # reading changes nothing: a line reads once

    def read(phrase: str, speaker: str | None = None) -> Any:
        if (phrase, speaker) in read_before:
            return read_before[(phrase, speaker)]
        if getattr(ui, "grammar", None) is None or ui.grammar() is None:
            return None
        who = seat
        if speaker is not None:
            from companion.core import fold

            who = next((i for i, n in enumerate(match.players) if fold(n) == fold(speaker)), seat)
        got = ui.command(phrase, match, who)
        if len(read_before) >= READ_MEMO:
            read_before.clear()
        read_before[(phrase, speaker)] = got
        return got
    return read


def every_move(ui: Any, match: Any, seat: int, lang: str) -> Callable[[], Sequence[str]]:
    """Every legal move for `seat` now, as its grammar tokens joined by spaces (« 2 at g 5
    plus… »), made once when first asked (thread-safe). Only the tokens are kept, packed
    (`legal.Packed`): 2kissa10's 95,000 moves take 4.7 MB so, 10 MB as a list of strings, three
    times that with their phrases and commands."""
    made: list[Sequence[str]] = []
    lock = threading.Lock()

    def moves() -> Sequence[str]:
        with lock:
            if not made:
                made.append(_every_move(ui, match, seat, lang))
            return made[0]
    return moves


def _every_move(ui: Any, match: Any, seat: int, lang: str) -> Sequence[str]:
    """The moves of `every_move`, from the game's `every_phrase(ui, match, seat, lang)` (its
    phrases module's: one phrase at a time, no `Builder` of them all; 2kissa10) when it has
    one, else from every phrase the game lists without a limit."""
    import importlib

    module = importlib.import_module(type(ui).__module__.rpartition(".")[0] + ".phrases")
    each = module.every_phrase(ui, match, seat, lang) if callable(getattr(module, "every_phrase", None)) else None
    if each is None:
        everything = ui.phrases(match, seat, lang=lang, limit=sys.maxsize, commands=False)
        each = (p for p, c in everything.concrete if c == "action")
    return Packed(_first_of_each(" ".join(tokens_of(p)) for p in each))


def _first_of_each(strings: Iterable[str]) -> Iterator[str]:
    """The first of equal strings, in order. Their hashes are kept, not the strings: made
    one at a time into a `Packed`, they are not all held at once."""
    seen: set[int] = set()
    for text in strings:
        h = hash(text)
        if h not in seen:
            seen.add(h)
            yield text


def shared_commands(lang: str) -> set[str]:
    """The commands of the words every game shares (help, repeat, status…), from the tables."""
    from companion.language import shared_phrases

    return {command for _phrase, command in shared_phrases(lang)}


__all__ = ["every_move", "reader", "sayable_now", "shared_commands", "whole_language"]
