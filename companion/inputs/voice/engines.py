"""Which recogniser hears a language: `open_engine(lang, engine, ...)`.

``--voice-engine`` (play, resume) and ``--engine`` (`companion voice`) choose:

* ``pocketsphinx``: pocketsphinx + the grammar of what is sayable (the default where it
  measures as well: it runs on a Raspberry Pi in some 150 MB);
* ``whisper``: Whisper base alone (`whisper.WhisperRecognizer`), its transcript mapped
  onto what is sayable;
* ``confirm``: pocketsphinx, and Whisper hears the same utterance when pocketsphinx heard a
  state change with low confidence: it runs without read-back when Whisper heard the very
  same line (`Checked`);
* ``checked``: as ``confirm``, and Whisper hears every line pocketsphinx heard: one far
  from Whisper's transcript is dropped (talk that the grammar forced onto a phrase);
* ``rescore``: pocketsphinx, then Whisper scores a shortlist of sayable lines (its heard
  line, that line's rivals, the lines nearest Whisper's own transcript) by teacher forcing
  and the likeliest is the line (`rescore.RescoreRecognizer`);
* ``vosk``: a vosk model the user supplies (``--voice-model``);
* ``auto`` (the default): `AUTO[lang]` when Whisper is installed, else pocketsphinx.

`AUTO` is decided by bench/voice_accuracy.py --whisper (figures in docs/voice.md).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

import numpy as np

from companion.session.core import CHANGES_STATE, CONFIDENCE_THRESHOLD

from .grammar import PhraseSet
from .options import ENGINES
from .recognizer import Recognizer, Result, default_model_dir, open_recognizer

#: the engine `auto` takes per language when Whisper and its model are installed; a language
#: not listed takes pocketsphinx. Measured by bench/voice_accuracy.py --whisper (2026-12-02,
#: docs/voice.md « Whisper »): Whisper alone was right less often than pocketsphinx + grammar
#: in both languages (English clean 69 % against 85 % on held-out voices; French 7 % against
#: 50 %), and dropping pocketsphinx's lines far from Whisper's transcript cost right lines
#: (85 % to 69 %) for the real talk it removed (2 of 14); Whisper confirming doubtful state
#: changes lost nothing and read back fewer right ones (English 1 of 8 against 3, French 4 of
#: 8 against 8), but triples the memory of `companion play` (144 to 448 MB in Good Fortune)
#: and adds Whisper's time to those lines: opt-in (`--voice-engine confirm`), pocketsphinx
#: staying the default (a Raspberry Pi)
AUTO: dict[str, str] = {"en": "pocketsphinx", "fr": "pocketsphinx"}
#: the session reads back a state change heard under this confidence
READ_BACK_UNDER = CONFIDENCE_THRESHOLD
#: a line pocketsphinx heard is dropped when Whisper's transcript is farther from it than
#: this, per word (fitted on espeak-ng voices by bench/voice_accuracy.py --whisper)
REJECT_FAR = 0.6


def open_engine(lang: str, engine: str | None = "auto", model_dir: Path | None = None,
                whisper_model: Path | str | None = None) -> Recognizer:
    """The recogniser `engine` names for `lang` (NoModel, with its sentence, when the one
    asked for has no model)."""
    engine = {"sphinx": "pocketsphinx"}.get(engine or "auto", engine or "auto")
    if engine == "auto" and model_dir is None and not (lang != "en" and default_model_dir(lang).is_dir()):
        wanted = AUTO.get(lang, "pocketsphinx")
        engine = "pocketsphinx"
        if wanted != "pocketsphinx":
            from . import whisper

            engine = wanted if whisper.available(whisper_model) else "pocketsphinx"
    if engine == "whisper":
        from .whisper import WhisperRecognizer

        return WhisperRecognizer(lang, whisper_model)
    if engine in ("confirm", "checked"):
        from .recognizer import SphinxRecognizer
        from .whisper import WhisperRecognizer

        return Checked(SphinxRecognizer(lang), WhisperRecognizer(lang, whisper_model), reject=engine == "checked")
    if engine == "rescore":
        from .recognizer import SphinxRecognizer
        from .rescore import Rescorer, RescoreRecognizer

        return RescoreRecognizer(SphinxRecognizer(lang), Rescorer(lang, whisper_model))
    return open_recognizer(lang, model_dir, {"pocketsphinx": "sphinx"}.get(engine, engine))


class SecondPass(ABC):
    """pocketsphinx streamed while the player speaks (the listener's contract: `begin`,
    `feed`, `finish`, or `abandon` for an utterance dropped), then a second pass of Whisper's
    over the whole utterance (`second`), in the listener's thread."""

    def __init__(self, first: Any) -> None:
        self.first = first
        self.lang = first.lang
        self._pcm: list[np.ndarray] = []

    def begin(self) -> None:
        self._pcm = []
        self.first.begin()

    def feed(self, pcm: np.ndarray) -> None:
        self._pcm.append(np.asarray(pcm))
        self.first.feed(pcm)

    def finish(self) -> Result:
        got = self.first.finish()
        pcm = np.concatenate(self._pcm) if self._pcm else np.zeros(0, np.int16)
        self._pcm = []
        return self.second(got, pcm)

    def heard_whole(self) -> bool:
        """What pocketsphinx heard so far is a whole line (`SphinxRecognizer.heard_whole`)."""
        whole = getattr(self.first, "heard_whole", None)
        return callable(whole) and bool(whole())

    def abandon(self) -> None:
        """The utterance is dropped (the companion spoke, too short): no second pass for it."""
        self._pcm = []
        self.first.finish()

    def recognize(self, pcm: np.ndarray) -> Result:
        return self.second(self.first.recognize(pcm), pcm)

    @abstractmethod
    def second(self, got: Result, pcm: np.ndarray) -> Result:
        """The line of the whole utterance, from pocketsphinx's `got` and the sound."""


class Checked(SecondPass):
    """pocketsphinx, checked by Whisper on the same utterance (in the listener's thread): a
    doubtful state change runs without read-back when Whisper heard the same line; with
    `reject`, any line pocketsphinx heard is dropped when Whisper's transcript is far from it
    (talk the grammar forced onto a phrase: Whisper writes what was said). Whisper is asked
    only about the lines it may change."""

    def __init__(self, first: Any, checker: Any, *, reject: bool = False) -> None:
        super().__init__(first)
        self.checker, self.reject = checker, reject
        self.checked = 0  # utterances Whisper was asked about (the figures)

    def set_phrases(self, phrases: PhraseSet) -> None:
        self.first.set_phrases(phrases)
        self.checker.set_phrases(phrases)

    def second(self, got: Result, pcm: np.ndarray) -> Result:
        return self.check(got, pcm)

    def check(self, got: Result, pcm: np.ndarray) -> Result:
        doubtful = got.confidence < READ_BACK_UNDER and changes_state(got.command)
        if got.line is None or not len(pcm) or not (doubtful or self.reject):
            return got
        self.checked += 1
        from .nearest import cost_to

        other = self.checker.recognize(pcm)
        written = getattr(other, "transcript", None)
        if self.reject and cost_to(written.text if written is not None else other.text, got.line, self.lang) > REJECT_FAR:
            from .whisper import WhisperResult

            return WhisperResult(got.text, None, None, 0.0, got.features, written)  # talk, not that command
        if other.line == got.line and got.confidence < READ_BACK_UNDER:
            return Result(got.text, got.line, got.command, max(got.confidence, other.confidence, READ_BACK_UNDER),
                          got.features)
        return got


def changes_state(command: str | None) -> bool:
    """A line the session reads back when doubtful (`session.core.CHANGES_STATE`: undo, play
    for me, quit, the verbosity, the language), a move (a template's line has no command of
    its own: the game reads it), a question to a player, and the « yes » that confirms one."""
    return command is None or command.startswith("action") or command in CHANGES_STATE or command in ("yes", "ask")


__all__ = ["AUTO", "ENGINES", "REJECT_FAR", "Checked", "open_engine"]
