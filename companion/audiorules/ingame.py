"""For the session: `règle`/`rule` during a game says the chapter about what is happening now.

The session asks the game's UI for `rule_chapter(match)` (a chapter id) and gives it here::

    from companion.audiorules.ingame import chapter_utterances
    utterances = chapter_utterances("kikoi", "turn", lang)

Each paragraph is one utterance of priority TEXT (new input cuts it), made of Raw text: the
rules are already written in the listener's language.
"""

from __future__ import annotations

from companion.narration import Msg, Priority, Raw, Utterance

from .manifest import ManifestError, load


def chapter_utterances(game: str, chapter_id: str, lang: str) -> list[Utterance]:
    """The chapter's title then its paragraphs; an empty list for an unknown chapter."""
    try:
        man = load(game, lang)
        ch = man.chapter(chapter_id)
    except (ManifestError, KeyError):
        return []
    number = man.index(chapter_id) + 1
    out = [Utterance((Msg("rules.player_chapter", number=number, title=ch.title),), Priority.TEXT)]
    out += [Utterance((Raw(p),), Priority.TEXT) for p in ch.paragraphs]
    return out
