"""Speech engines behind one small interface: what every engine has.

Two kinds of engine:

* engines that **produce audio** (`produces_audio = True`): `synth()` returns float32 mono
  samples in [-1, 1] and their sample rate, and `stream()` yields them chunk by chunk as they
  are made (the player hands the first audible chunk to the sound output before the
  sentence is finished). Our own audio path then plays them, so they can be cut within a
  few milliseconds.
* engines that **play by themselves** (`produces_audio = False`): `speak()` and `stop()`.

numpy is imported inside the functions that need it: the command line must start fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

ENGINE_NAMES = ("auto", "espeak-ng", "pyttsx3", "speech-dispatcher", "text", "recording")
AUTO_ORDER = ("espeak-ng", "pyttsx3", "speech-dispatcher", "text")
DEFAULT_RATE = 175  # words per minute (espeak-ng's default)
MIN_RATE, MAX_RATE = 80, 450
# The voice used for each language when the player chose none.
DEFAULT_VOICES = {"fr": "fr", "en": "en"}


class UnavailableEngine(Exception):
    """This engine cannot be used here; `reason` says why (for the user, in plain words)."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason


class SpeechError(Exception):
    """Synthesis failed for one utterance (bad voice, engine crashed), or an engine was asked
    for what it does not do (audio from an engine that speaks by itself, or the reverse)."""


def clamp_rate(rate: int) -> int:
    return max(MIN_RATE, min(MAX_RATE, int(rate)))


def scaled(samples: np.ndarray, volume: float) -> np.ndarray:
    import numpy as np

    out = samples.astype(np.float32, copy=False)
    if volume != 1.0:
        out = out * np.float32(max(0.0, min(1.0, volume)))
    return np.clip(out, -1.0, 1.0)


class SpeechEngine:
    """The interface every engine has. Subclasses override what they support."""

    name: str = ""
    produces_audio: bool = True
    pushes_audio: bool = False  # `speak_into` synthesises in the caller's thread (libespeak-ng)

    def synth(
        self,
        text: str,
        lang: str,
        *,
        rate: int = DEFAULT_RATE,
        voice: str | None = None,
        volume: float = 1.0,
    ) -> tuple[np.ndarray, int]:
        """The whole utterance as (float32 mono samples in [-1, 1], sample rate)."""
        import numpy as np

        chunks: list[np.ndarray] = []
        sr = 0
        for chunk, chunk_sr in self.stream(text, lang, rate=rate, voice=voice, volume=volume):
            chunks.append(chunk)
            sr = chunk_sr
        if not chunks:
            return np.zeros(0, dtype=np.float32), sr or self.sample_rate
        return np.concatenate(chunks).astype(np.float32, copy=False), sr

    sample_rate: int = 22050

    def stream(
        self,
        text: str,
        lang: str,
        *,
        rate: int = DEFAULT_RATE,
        voice: str | None = None,
        volume: float = 1.0,
    ) -> Iterator[tuple[np.ndarray, int]]:
        """Chunks of the utterance as they are made. Closing the iterator stops synthesis."""
        raise SpeechError(f"{self.name} does not produce audio: it speaks by itself (speak)")

    def speak_into(
        self,
        text: str,
        lang: str,
        on_chunk: Callable[[np.ndarray, int], bool],
        *,
        rate: int = DEFAULT_RATE,
        voice: str | None = None,
        hold_gil: bool = True,
    ) -> None:
        """Synthesise in the calling thread, handing each chunk to `on_chunk(samples, rate)`
        as it is made; False from it stops the synthesis (engines with pushes_audio True)."""
        raise SpeechError(f"{self.name} does not synthesise in the caller's thread: use stream()")

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
        """Say it through the engine's own audio (engines with produces_audio False).

        `done` is called once the utterance has been said or stopped, when the engine can tell.
        """
        raise SpeechError(f"{self.name} produces audio for the companion's output (stream, synth)")

    def stop(self) -> None:
        """Stop what the engine is saying by itself (no-op for engines that produce audio)."""

    def voices(self, lang: str | None = None) -> list[str]:
        """Voice names this engine accepts for `voice=` (for `lang` when given)."""
        return []

    def prepare(self, lang: str, rate: int = DEFAULT_RATE, voice: str | None = None) -> None:
        """Get ready to speak with these settings soon (engines that can start ahead)."""

    def close(self) -> None:
        """Release processes and threads."""
