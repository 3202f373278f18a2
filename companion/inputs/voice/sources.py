"""Where the sound comes from: a WAV file (tests, demos) or a microphone (sounddevice).

A source is an iterator of int16 chunks at 16 kHz mono; `close()` stops it.
"""

from __future__ import annotations

import itertools
import queue
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import numpy as np

from .synth import resample

RATE = 16000
CHUNK = 480  # 30 ms


#: `companion voice recognize` hears one command: a longer recording is refused (a game's
#: `--voice-input` streams any length through the VAD instead)
ONE_COMMAND_S = 30.0

#: what is read at a time: memory stays bounded whatever the recording's length
BLOCK_S = 1.0

#: a WAV data size written by a recorder that did not know the length (a stream, a pipe)
_UNKNOWN_SIZES = (0, 0xFFFFFFFF, 0x7FFFFFFF)


class BadRecording(RuntimeError):
    """A recording that cannot be heard: missing, empty, not a sound file, cut short, or too
    long for one command. `msg_id` and `params` are the one sentence said and printed
    (core.po, « core.voice.recording.* »); nothing of such a recording is ever a command."""

    def __init__(self, path: str | Path, reason: str, **params: Any) -> None:
        self.path, self.reason = Path(path), reason
        self.msg_id = f"core.voice.recording.{reason}"
        self.params = {"name": Path(path).name, **params}
        super().__init__(f"{self.msg_id} {self.params}")


def _wav_cut(path: Path) -> tuple[int, int] | None:
    """(bytes the WAV's data chunk declares, bytes it holds) when the file is cut short:
    libsndfile reads what is there without a word, so a recording cut mid-word would be heard
    as another, shorter command. None for a whole file, a stream of unknown length, or not a
    RIFF WAV (libsndfile checks the others)."""
    size = path.stat().st_size
    with path.open("rb") as f:
        head = f.read(12)
        if len(head) < 12 or head[:4] not in (b"RIFF", b"RIFX") or head[8:12] != b"WAVE":
            return None
        order: Literal["little", "big"] = "little" if head[:4] == b"RIFF" else "big"
        pos = 12
        while pos + 8 <= size:
            f.seek(pos)
            chunk = f.read(8)
            declared = int.from_bytes(chunk[4:8], order)
            if chunk[:4] == b"data":
                held = size - pos - 8
                if declared in _UNKNOWN_SIZES or declared <= held:
                    return None
                return declared, held
            pos += 8 + declared + (declared & 1)
    return None


def check_recording(path: str | Path, *, max_seconds: float | None = None) -> Any:
    """The recording's `soundfile` info once it is known to be whole and readable, or
    BadRecording with the reason."""
    import soundfile as sf

    p = Path(path)
    if not p.is_file():
        raise BadRecording(p, "missing")
    if p.stat().st_size == 0:
        raise BadRecording(p, "empty")
    try:
        info = sf.info(str(p))
    except (RuntimeError, OSError, ValueError, TypeError):  # libsndfile: not a format it knows, a header it cannot use
        raise BadRecording(p, "unreadable") from None
    if info.samplerate <= 0 or info.channels <= 0:
        raise BadRecording(p, "unreadable")
    if info.frames <= 0:
        raise BadRecording(p, "empty")
    cut = _wav_cut(p)
    if cut is not None:
        rate = info.samplerate * info.channels * max(1, _sample_bytes(info.subtype))
        raise BadRecording(p, "cut", claimed=f"{cut[0] / rate:.1f}", held=f"{cut[1] / rate:.1f}")
    seconds = info.frames / info.samplerate
    if max_seconds is not None and seconds > max_seconds:
        raise BadRecording(p, "too_long", seconds=f"{seconds:.0f}", limit=f"{max_seconds:.0f}")
    return info


def _sample_bytes(subtype: str) -> int:
    return {"PCM_S8": 1, "PCM_U8": 1, "PCM_16": 2, "PCM_24": 3, "PCM_32": 4, "FLOAT": 4, "DOUBLE": 8,
            "ULAW": 1, "ALAW": 1}.get(subtype, 2)


def stream_wav(path: str | Path, *, block_s: float = BLOCK_S) -> Iterator[np.ndarray]:
    """Any WAV/FLAC file as int16 chunks at 16 kHz mono, read `block_s` at a time (bounded
    memory whatever its length), without changing its loudness: channels averaged, the rate
    changed by linear interpolation across block edges. A file that fails while it is read
    ends the stream (BadRecording "unreadable")."""
    import soundfile as sf

    p = Path(path)
    try:
        f = sf.SoundFile(str(p))
    except (RuntimeError, OSError, ValueError, TypeError):
        raise BadRecording(p, "unreadable") from None
    with f:
        sr = f.samplerate
        step = sr / RATE
        t = 0.0  # where the next output sample lies, in input samples
        offset = 0  # input index of buf[0]
        carry = np.zeros(0, np.float32)
        size = max(1, int(sr * block_s))
        left = f.frames
        try:
            while left > 0:
                block = f.read(min(size, left), dtype="float32", always_2d=True)
                if len(block) < min(size, left):  # fewer frames than the header said: cut while read
                    raise BadRecording(p, "unreadable")
                left -= len(block)
                mono = block.mean(axis=1, dtype=np.float32)
                if sr == RATE:
                    yield _to_int16(mono)
                    continue
                buf = np.concatenate([carry, mono])
                last = offset + len(buf) - 1
                if t <= last:
                    k = int((last - t) // step) + 1
                    ts = t + step * np.arange(k)
                    yield _to_int16(np.interp(ts - offset, np.arange(len(buf)), buf).astype(np.float32))
                    t += k * step
                offset = last
                carry = buf[-1:]
        except (RuntimeError, OSError, ValueError) as exc:
            raise BadRecording(p, "unreadable") from exc


def _to_int16(x: np.ndarray) -> np.ndarray:
    return (np.clip(x, -1.0, 1.0) * 32767).astype(np.int16)


def read_wav(path: str | Path, *, max_seconds: float | None = None) -> np.ndarray:
    """A whole recording as int16 samples at 16 kHz mono, once `check_recording` found it
    whole (and, with `max_seconds`, short enough)."""
    check_recording(path, max_seconds=max_seconds)
    chunks = list(stream_wav(path))
    return np.concatenate(chunks) if chunks else np.zeros(0, np.int16)


def write_wav(path: str | Path, pcm: np.ndarray) -> None:
    import soundfile as sf

    sf.write(str(path), pcm.astype(np.int16), RATE, subtype="PCM_16")


class WavSource:
    """The samples of one or more WAV files in order, each followed by `gap` s of quiet
    (so consecutive commands are separate utterances); at real speed or as fast as possible."""

    def __init__(self, paths: list[str | Path] | str | Path, *, realtime: bool = False, gap: float = 0.6) -> None:
        self.paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
        for path in self.paths:  # each one whole and readable, or one sentence before the game listens
            check_recording(path)
        self.realtime = realtime
        self.gap = gap
        self._closed = False
        #: at real speed, the monotonic time of stream time 0: the sample at stream time x is
        #: "captured" at t0 + x, and its chunk given as a microphone would, when its last sample is in
        self.t0: float | None = None
        #: recordings that failed while they were read (the listener's sound ends there)
        self.failed: list[str | Path] = []

    def __iter__(self) -> Iterator[np.ndarray]:
        from .synth import silence

        sent = 0
        for i, path in enumerate(self.paths):
            for chunk in self._chunks(path, silence(self.gap, seed=i)):
                if self._closed:
                    return
                if self.t0 is None:
                    self.t0 = time.monotonic()
                sent += len(chunk)
                if self.realtime:
                    ahead = sent / RATE - (time.monotonic() - self.t0)
                    if ahead > 0:
                        time.sleep(ahead)
                yield chunk
            if self.failed:
                return

    def _chunks(self, path: str | Path, gap: np.ndarray) -> Iterator[np.ndarray]:
        """The recording then its gap, in chunks of CHUNK samples (the last one shorter)."""
        rest = np.zeros(0, np.int16)
        try:
            for pcm in itertools.chain(stream_wav(path), [gap]):
                rest = np.concatenate([rest, pcm])
                n = len(rest) // CHUNK * CHUNK
                for k in range(0, n, CHUNK):
                    yield rest[k:k + CHUNK]
                rest = rest[n:]
        except BadRecording:
            self.failed.append(path)  # damaged while read (it was whole at the start): the rest is not heard
            return
        if len(rest):
            yield rest

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


__all__ = ["BadRecording", "MicSource", "WavSource", "check_recording", "list_inputs", "read_wav", "resample",
           "stream_wav", "write_wav"]
