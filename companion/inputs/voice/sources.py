"""Where the sound comes from: a WAV file (tests, demos) or a microphone (sounddevice).

A source is an iterator of int16 chunks at 16 kHz mono; `close()` stops it.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .synth import resample

RATE = 16000
CHUNK = 480  # 30 ms


def read_wav(path: str | Path) -> np.ndarray:
    """Any WAV/FLAC file as int16 samples at 16 kHz mono (without changing its loudness)."""
    import soundfile as sf

    data, sr = sf.read(str(path), dtype="float32", always_2d=True)
    mono = data.mean(axis=1)
    if sr != RATE:
        n = int(len(mono) * RATE / sr)
        mono = np.interp(np.arange(n) * sr / RATE, np.arange(len(mono)), mono).astype(np.float32)
    return (np.clip(mono, -1.0, 1.0) * 32767).astype(np.int16)


def write_wav(path: str | Path, pcm: np.ndarray) -> None:
    import soundfile as sf

    sf.write(str(path), pcm.astype(np.int16), RATE, subtype="PCM_16")


class WavSource:
    """The samples of one or more WAV files in order, each followed by `gap` s of quiet
    (so consecutive commands are separate utterances); at real speed or as fast as possible."""

    def __init__(self, paths: list[str | Path] | str | Path, *, realtime: bool = False, gap: float = 0.6) -> None:
        self.paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
        self.realtime = realtime
        self.gap = gap
        self._closed = False
        #: at real speed, the monotonic time of stream time 0: the sample at stream time x is
        #: "captured" at t0 + x, and its chunk given as a microphone would, when its last sample is in
        self.t0: float | None = None

    def __iter__(self) -> Iterator[np.ndarray]:
        from .synth import silence

        sent = 0
        for i, path in enumerate(self.paths):
            pcm = np.concatenate([read_wav(path), silence(self.gap, seed=i)])
            if self.t0 is None:
                self.t0 = time.monotonic()
            for k in range(0, len(pcm), CHUNK):
                if self._closed:
                    return
                chunk = pcm[k:k + CHUNK]
                sent += len(chunk)
                if self.realtime:
                    ahead = sent / RATE - (time.monotonic() - self.t0)
                    if ahead > 0:
                        time.sleep(ahead)
                yield chunk

    def close(self) -> None:
        self._closed = True


class MicSource:
    """A microphone through sounddevice, 16 kHz mono int16 (`device`: index or name, None
    for the default one)."""

    def __init__(self, device: Any = None, *, blocksize: int = CHUNK) -> None:
        import sounddevice as sd

        self._q: queue.Queue[np.ndarray | None] = queue.Queue()
        self.overflows = 0

        def callback(indata: Any, frames: int, _time: Any, status: Any) -> None:
            if status:
                self.overflows += 1
            self._q.put(indata[:, 0].copy())

        self.stream = sd.InputStream(samplerate=RATE, channels=1, dtype="int16", device=device,
                                     blocksize=blocksize, callback=callback)
        self.stream.start()

    def __iter__(self) -> Iterator[np.ndarray]:
        while True:
            chunk = self._q.get()
            if chunk is None:
                return
            yield chunk

    def close(self) -> None:
        try:
            self.stream.stop()
            self.stream.close()
        finally:
            self._q.put(None)


def list_inputs() -> list[tuple[int, str]]:
    """The input devices sounddevice sees: (index, name)."""
    import sounddevice as sd

    return [(i, d["name"]) for i, d in enumerate(sd.query_devices()) if d.get("max_input_channels", 0) > 0]


__all__ = ["MicSource", "WavSource", "read_wav", "write_wav", "list_inputs", "resample"]
