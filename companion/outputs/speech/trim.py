"""Cutting the silence an engine puts before each sentence, as its samples stream.

espeak-ng starts every sentence with about 12 ms of silence, and 40-50 ms before a plosive
(« P », « T »: the closure before the burst); pyttsx3 the same, since it is libespeak-ng.
Played as is, that silence is heard as delay. `trim_leading` drops the samples before the
first one louder than THRESHOLD_DB (-50 dBFS, below what anyone hears in speech at a
normal level), keeping PREROLL_MS before it, so the onset is never clipped: every sample
removed is at or below the threshold. Chunks that are all silence are held back, so the
first chunk handed on starts with the sentence's first sound.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

THRESHOLD_DB = -50.0
THRESHOLD = 10 ** (THRESHOLD_DB / 20)  # 0.00316 of full scale; 103 in 16-bit samples
PREROLL_MS = 1.0
MAX_TRIM_S = 2.0  # never hold back more than this: a sentence that is silence is silence


class Trimmer:
    """The same cut, pushed one chunk at a time (an engine that calls back with its samples,
    in the thread that plays them): `push` returns the chunks to hand on now."""

    def __init__(self, threshold: float = THRESHOLD, preroll_ms: float = PREROLL_MS) -> None:
        self.threshold, self.preroll_ms = threshold, preroll_ms
        self.done = False  # the onset was found (or MAX_TRIM_S passed): the rest goes as it is
        self._held: list[tuple[np.ndarray, int]] = []  # silent chunks, kept for the pre-roll
        self._held_n = 0

    def push(self, chunk: np.ndarray, sr: int) -> list[tuple[np.ndarray, int]]:
        import numpy as np

        if self.done:
            return [(chunk, sr)]
        if len(chunk) == 0:
            return []
        loud = np.flatnonzero(np.abs(chunk) > self.threshold)
        if not len(loud):
            self._held.append((chunk, sr))
            self._held_n += len(chunk)
            if self._held_n / sr > MAX_TRIM_S:  # not a silence before speech: give it back as it is
                self.done = True
                out, self._held = self._held, []
                return out
            return []
        self.done = True
        first = int(loud[0])
        start = first - int(round(sr * self.preroll_ms / 1000))
        held, self._held = self._held, []
        if start < 0 and held:  # the pre-roll reaches into the silent chunks held
            tail = np.concatenate([c for c, _ in held])[start:]
            return [(np.concatenate([tail, chunk]).astype(np.float32, copy=False), sr)]
        return [(chunk[max(0, start):], sr)]


def trim_leading(
    chunks: Iterable[tuple[np.ndarray, int]],
    threshold: float = THRESHOLD,
    preroll_ms: float = PREROLL_MS,
) -> Generator[tuple[np.ndarray, int], None, None]:
    """`chunks` (float32 mono samples, rate) without their leading silence.

    Samples are only removed before the first one whose magnitude is above `threshold`,
    and never within `preroll_ms` of it. A stream that is all silence (or silence for
    longer than MAX_TRIM_S) is handed on from there unchanged.
    """
    trimmer = Trimmer(threshold, preroll_ms)
    it = iter(chunks)
    try:
        for chunk, sr in it:
            yield from trimmer.push(chunk, sr)
            if trimmer.done:
                break
        else:
            return  # the stream ended: it was silence only, nothing to say
        yield from it
    finally:
        close = getattr(it, "close", None)
        if close is not None:
            close()


class Trimmed:
    """`trim_leading` of an engine's stream, closable even before its first chunk (closing
    it closes the engine's stream: espeak-ng's process is killed)."""

    def __init__(self, stream: Iterator[tuple[np.ndarray, int]]) -> None:
        self._source = stream
        self._gen = trim_leading(stream)

    def __iter__(self) -> Trimmed:
        return self

    def __next__(self) -> tuple[np.ndarray, int]:
        return next(self._gen)

    def close(self) -> None:
        self._gen.close()
        close = getattr(self._source, "close", None)
        if close is not None:
            close()
