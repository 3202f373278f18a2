"""For the session: `règle`/`rule` during a game says the chapter about what is happening now;
« lis le code » / "read the code" reads a rules label through the camera (`GameScanner`).

The session asks the game's UI for `rule_chapter(match)` (a chapter id) and gives it here::

    from companion.audiorules.ingame import chapter_utterances
    utterances = chapter_utterances("kikoi", "turn", lang)

Each paragraph is one utterance of priority TEXT (new input cuts it), made of Raw text: the
rules are already written in the listener's language.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from companion.narration import Msg, Priority, Raw, Utterance
from companion.session.inbox import Device, Notice
from companion.session.outputs import ScanRules

from . import LANGS
from .camera import TIMEOUT, CameraError, open_frames, scan_camera
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


class GameScanner:
    """« lis le code » during a game (issue 28): the table's edge for the core's `ScanRules`.

    The camera (`--camera PATH`, else the default one) is watched in a thread of its own, so
    the game goes on meanwhile; every sentence goes to the inbox as a `Notice` (the loop has
    the core say it, in order with the game), the guidance's ticks straight to the table's
    speaker (a sound, never a printed line). When a rules label is read, it says which game
    and language it opens and that game's chapter menu. No camera, a camera in use (by
    another program or by a scan already under way), a code that is not a rules code: one
    sentence each, as in the rules player (`companion.audiorules.camera`).
    """

    def __init__(self, post: Callable[[object], None], *, camera: str | None = None, speaker: Any = None,
                 timeout: float = TIMEOUT, pace: bool = True) -> None:
        self.post = post  # the inbox's `post`
        self.camera = camera
        self.speaker = speaker
        self.timeout = timeout
        self.pace = pace  # a video file is watched at its own speed, as a camera gives frames
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def __call__(self, request: ScanRules) -> None:
        to = request.listener
        if self._thread is not None and self._thread.is_alive():
            self._say(to, Msg("rules.ingame_scan_busy"))
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._scan, args=(request,), name="rules-camera", daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> bool:
        """Until the scan under way ends (tests; the end of the game)."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self._thread is None or not self._thread.is_alive()

    def stop(self) -> None:
        """The game ends: stop looking (at the next frame)."""
        self._stop.set()
        self.join(5)

    def _say(self, to: int | None, *parts: Msg, earcon: str | None = None) -> None:
        self.post(Device(Notice(Utterance(parts, Priority.MESSAGE, earcon, to)), "camera"))

    def _scan(self, request: ScanRules) -> None:
        to = request.listener

        def tell(msg_id: str, params: dict[str, Any]) -> None:
            self._say(to, Msg(msg_id, **params))

        def earcon(name: str) -> None:
            if name == "seek" and self.speaker is not None:  # dropped while a sentence is said
                self.speaker.say("", Priority.NOTIFICATION, "seek")

        def on_frame(_index: int, _t: float) -> None:
            if self._stop.is_set():
                raise _Stopped

        try:
            frames = open_frames(self.camera)
        except CameraError as exc:
            tell(exc.msg_id, {"path": exc.path, "reason": exc.reason})
            return
        try:
            result = scan_camera(frames, tell=tell, earcon=earcon, timeout=self.timeout, pace=self.pace,
                                 on_frame=on_frame)
        except _Stopped:
            return
        finally:
            frames.close()
        if result.game is None or result.lang is None:
            return
        self._say(to, *found_parts(result.game, result.lang, request.lang), earcon="found")


class _Stopped(Exception):
    """The game ended while the camera looked."""


def found_parts(game: str, rules_lang: str, lang: str) -> tuple[Msg, ...]:
    """What is said, in `lang`, when a label of `game`'s rules in `rules_lang` is read during a
    game: which game and language, that game's chapter menu, and how to hear a chapter."""
    from .player import of_title

    man = load(game, lang if lang in LANGS else rules_lang)
    items = [Msg("rules.player_menu_item", number=i, title=ch.title) for i, ch in enumerate(man.chapters, 1)]
    return (Msg("rules.scan_found", game=man.title, language=Msg(f"rules.lang.{rules_lang}")),
            Msg("rules.player_welcome", game=man.title, of_game=of_title(lang, man.title), n=len(man.chapters)),
            Msg("rules.player_menu", items=items),
            Msg("rules.ingame_menu_hint", game=game, lang=rules_lang))
