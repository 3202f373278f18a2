"""Speech engines behind one small interface (`speech_base.SpeechEngine`), by module:

* `speech_espeak`: espeak-ng, a process per utterance read as it writes (the default);
* `speech_pyttsx3`: pyttsx3 (the system's voices), wrapped against its bugs;
* `speech_dispatcher`: speech-dispatcher, which plays by itself;
* here: `text` (nothing spoken: the printed line is read by the user's screen reader), the
  `recording` engine of the tests, and `get_engine`.

`get_engine("auto")` tries espeak-ng, then pyttsx3, then speech-dispatcher, then text.
`UnavailableEngine(name, reason)` says why one cannot be used.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from companion.outputs.audio.wav import wav_complete as _wav_complete

from .base import (
    AUTO_ORDER,
    DEFAULT_RATE,
    DEFAULT_VOICES,
    ENGINE_NAMES,
    MAX_RATE,
    MIN_RATE,
    SpeechEngine,
    SpeechError,
    UnavailableEngine,
    clamp_rate,
    scaled,
)
from .dispatcher import SpeechDispatcherEngine
from .espeak import EspeakNgEngine
from .pyttsx3_engine import Pyttsx3Engine

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = [
    "AUTO_ORDER", "DEFAULT_RATE", "DEFAULT_VOICES", "ENGINE_NAMES", "MAX_RATE", "MIN_RATE",
    "EspeakNgEngine", "Pyttsx3Engine", "RecordingEngine", "SpeechDispatcherEngine", "SpeechEngine",
    "SpeechError", "TextEngine", "UnavailableEngine", "_wav_complete", "clamp_rate", "get_engine",
]


# --- text only, and the recording engine for tests ---------------------------------------


class TextEngine(SpeechEngine):
    """Nothing is spoken: every utterance is printed as one line (by the session), and the
    user's own screen reader (NVDA, Orca, VoiceOver, a braille display) reads it."""

    name = "text"
    produces_audio = False

    def speak(
        self,
        text: str,
        lang: str,
        *,
        rate: int = DEFAULT_RATE,
        voice: str | None = None,
        volume: float = 1.0,
        priority: int | None = None,
        done: Callable[[], None] | None = None,
    ) -> None:
        if done is not None:
            done()


class RecordingEngine(SpeechEngine):
    """For tests: a plain tone as long as the text would take to say, and a log of calls.

    Duration: one character takes 60 / (rate * 6) seconds (six characters a word), so a
    sentence of 23 characters lasts 1.3 s at 175 words a minute; deterministic, no process.
    `calls` holds (text, lang, rate, voice, volume) of every synthesis.
    """

    name = "recording"
    produces_audio = True
    sample_rate = 16000

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, int, str | None, float]] = []

    def duration(self, text: str, rate: int = DEFAULT_RATE) -> float:
        return len(text) * 60.0 / (clamp_rate(rate) * 6)

    def stream(
        self,
        text: str,
        lang: str,
        *,
        rate: int = DEFAULT_RATE,
        voice: str | None = None,
        volume: float = 1.0,
    ) -> Iterator[tuple[np.ndarray, int]]:
        import numpy as np

        self.calls.append((text, lang, rate, voice, volume))
        n = int(round(self.duration(text, rate) * self.sample_rate))
        pitch = 220.0 if lang == "fr" else 330.0
        t = np.arange(n, dtype=np.float32) / self.sample_rate
        samples = (0.5 * np.sin(2 * np.pi * pitch * t)).astype(np.float32)
        step = self.sample_rate // 10
        return iter([(scaled(samples[i : i + step], volume), self.sample_rate) for i in range(0, n, step)])


# --- choosing ----------------------------------------------------------------------------

_FACTORIES: dict[str, Callable[[], SpeechEngine]] = {
    "espeak-ng": EspeakNgEngine,
    "pyttsx3": Pyttsx3Engine,
    "speech-dispatcher": SpeechDispatcherEngine,
    "text": TextEngine,
    "recording": RecordingEngine,
}
_SHARED: dict[str, SpeechEngine] = {}
_FAILED: dict[str, UnavailableEngine] = {}
_SHARED_LOCK = threading.Lock()


def get_engine(name: str = "auto") -> SpeechEngine:
    """The engine called `name`, or the first that works for "auto".

    Engines are shared within a process (pyttsx3 may only exist once), except "recording",
    which is new each time so that tests do not see each other's calls.
    Raises UnavailableEngine (name, reason) when it cannot be used, or for an unknown name.
    """
    key = (name or "auto").strip().lower().replace("_", "-")
    key = {"espeak": "espeak-ng", "espeakng": "espeak-ng", "speechd": "speech-dispatcher", "none": "text"}.get(key, key)
    if key == "auto":
        reasons = []
        for candidate in AUTO_ORDER:
            try:
                return get_engine(candidate)
            except UnavailableEngine as exc:
                reasons.append(str(exc))
        raise UnavailableEngine("auto", "; ".join(reasons))  # pragma: no cover - text always works
    if key not in _FACTORIES:
        raise UnavailableEngine(name, f"unknown engine; choose one of {', '.join(ENGINE_NAMES)}")
    if key == "recording":
        return RecordingEngine()
    with _SHARED_LOCK:
        if key in _FAILED:  # asked once: pyttsx3 may take 20 s to fail on some systems
            raise _FAILED[key]
        if key not in _SHARED:
            try:
                _SHARED[key] = _FACTORIES[key]()
            except UnavailableEngine as exc:
                _FAILED[key] = exc
                raise
        return _SHARED[key]
