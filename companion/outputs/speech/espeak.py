"""espeak-ng as a speech engine: one process per utterance, read from its standard output
as it writes, with a spare process started ahead for the next sentence."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING

from companion.outputs.audio.wav import NotWav, read_header

from .base import (
    DEFAULT_RATE,
    DEFAULT_VOICES,
    SpeechEngine,
    SpeechError,
    UnavailableEngine,
    clamp_rate,
    scaled,
)
from .espeak_lib import LibraryPool

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


class _EspeakStream:
    """One espeak-ng process writing a WAV to its stdout, read as it comes.

    The process is started when the object is made, so that synthesis runs while the caller
    does something else (plays an earcon). It is an iterator of (float32 chunk, rate);
    `close()` kills the process (an utterance cut half-way, or never started).
    """

    CHUNK = 2048  # bytes read at once at most: 1024 samples, 46 ms at 22 050 Hz

    def __init__(self, argv: list[str], text: str, volume: float, proc: subprocess.Popen[bytes] | None = None,
                 after_first: Callable[[], None] | None = None) -> None:
        """`proc`: an espeak-ng already started with `argv` and waiting for its text.
        `after_first`: called once the first audio has been read (to start the next spare
        process then, not while this one synthesises: they would share the CPU)."""
        self.volume = volume
        self._after_first = after_first
        self.proc = proc if proc is not None else _spawn(argv)
        assert self.proc.stdin is not None
        data = text.encode("utf-8")
        if len(data) <= 16384:  # fits in the pipe: written at once
            self._feed(data)
        else:  # espeak-ng may speak before it has read it all: do not block on a full pipe
            threading.Thread(target=self._feed, args=(data,), name="espeak-stdin", daemon=True).start()
        self._closed = False
        self._gen: Generator[tuple[np.ndarray, int], None, None] = self._generate()

    def _first_read(self) -> None:
        if self._after_first is not None:
            after, self._after_first = self._after_first, None
            after()

    def _feed(self, data: bytes) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        with contextlib.suppress(BrokenPipeError, ValueError, OSError):  # the process was killed (a cut)
            stdin.write(data)
            stdin.close()

    def __iter__(self) -> _EspeakStream:
        return self

    def __next__(self) -> tuple[np.ndarray, int]:
        return next(self._gen)

    def _generate(self) -> Generator[tuple[np.ndarray, int], None, None]:
        import numpy as np

        fd = self.proc.stdout.fileno()  # type: ignore[union-attr]
        header = b""
        try:
            while len(header) < 44:
                more = os.read(fd, 44 - len(header))
                if not more:
                    break
                header += more
            try:
                layout = read_header(header)
                if not layout.pcm16_mono or layout.data_at != 44:
                    raise ValueError("is not 16-bit mono PCM")
            except (NotWav, ValueError):
                err = self._finish()
                raise SpeechError(f"espeak-ng produced no audio: {err}") from None
            sr = layout.sample_rate
            pending = b""
            while True:
                data = os.read(fd, self.CHUNK)
                if not data:
                    break
                data = pending + data
                cut = len(data) - (len(data) % 2)
                data, pending = data[:cut], data[cut:]
                if data:
                    samples = np.frombuffer(data, dtype="<i2").astype(np.float32) / 32768.0
                    chunk = scaled(samples, self.volume)
                    self._first_read()
                    yield chunk, sr
            self._finish()
        finally:
            self._kill()

    def _finish(self) -> str:
        try:
            _, err = self.proc.communicate(timeout=5)
        except (subprocess.TimeoutExpired, ValueError):
            self.proc.kill()
            err = b""
        return (err or b"").decode("utf-8", "replace").strip()

    def _kill(self) -> None:
        if self._closed:
            return
        self._closed = True
        _reap(self.proc)

    def close(self) -> None:
        self._gen.close()
        self._kill()
        self._first_read()


def _spawn(argv: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _reap(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):  # pragma: no cover
        proc.wait(timeout=2)
    for fh in (proc.stdin, proc.stdout, proc.stderr):
        if fh is not None and not fh.closed:
            with contextlib.suppress(OSError):
                fh.close()


class EspeakNgEngine(SpeechEngine):
    """espeak-ng: French voices fr, fr-be, fr-ch; English en, en-us; variants such as "fr+f3".

    Two ways to run it (`backend`, or the environment variable COMPANION_ESPEAK):
    * "library" (the default when libespeak-ng loads): in this process, see
      `speech_espeak_lib`; the first audio comes 0.2 ms after the call;
    * "process": the espeak-ng program, one process per utterance, read from its standard
      output. Starting espeak-ng (and loading its voice) is most of the delay before the
      first sound: about 10 ms to the first chunk from a new process, 0.3 to 20 ms from one
      started beforehand (a new process warms up on its first sentence). So after each
      utterance's first audio a spare process is started with the same voice and rate,
      waiting for its text on stdin; the next utterance with those settings uses it. At
      most MAX_SPARES wait (the most recent settings); they are killed by `close()` and at
      exit.
    "auto" takes the library, else the program.
    """

    name = "espeak-ng"
    produces_audio = True
    MAX_SPARES = 4

    def __init__(self, backend: str | None = None) -> None:
        backend = (backend or os.environ.get("COMPANION_ESPEAK") or "auto").strip().lower()
        if backend not in ("auto", "library", "process"):
            raise UnavailableEngine(self.name, f"unknown espeak-ng backend {backend!r}: auto, library or process")
        self.path = shutil.which("espeak-ng")
        self._voices: list[str] | None = None
        self._spares: dict[tuple[str, ...], subprocess.Popen[bytes]] = {}  # oldest first
        self._spares_lock = threading.Lock()
        self._closed = False
        self.library: LibraryPool | None = None
        if backend in ("auto", "library"):
            try:
                self.library = LibraryPool()
            except UnavailableEngine:
                if backend == "library":
                    raise
        if self.library is None and self.path is None:
            raise UnavailableEngine(
                self.name, "the espeak-ng program is not installed (apt-get install espeak-ng)"
            )
        self.backend = "library" if self.library is not None else "process"
        self.pushes_audio = self.library is not None  # `speak_into`: the library, in the caller's thread
        atexit.register(self.close)

    def _take_spare(self, argv: list[str]) -> subprocess.Popen[bytes] | None:
        with self._spares_lock:
            proc = self._spares.pop(tuple(argv), None)
        if proc is not None and proc.poll() is not None:  # it died (a refused voice): not used
            _reap(proc)
            return None
        return proc

    def _add_spare(self, argv: list[str]) -> None:
        try:
            proc = _spawn(argv)
        except OSError:
            return
        evicted: list[subprocess.Popen[bytes]] = []
        with self._spares_lock:
            key = tuple(argv)
            if self._closed or key in self._spares:
                evicted.append(proc)
            else:
                self._spares[key] = proc
                while len(self._spares) > self.MAX_SPARES:
                    evicted.append(self._spares.pop(next(iter(self._spares))))
        for p in evicted:
            _reap(p)

    def prepare(self, lang: str, rate: int = DEFAULT_RATE, voice: str | None = None) -> None:
        """Start a spare process for these settings now, in the background."""
        if self.library is not None:
            with contextlib.suppress(SpeechError):
                self.library.first().prepare(voice or DEFAULT_VOICES.get(lang, lang), rate)
            return
        argv = self.argv(lang, rate, voice)
        with self._spares_lock:
            if self._closed or tuple(argv) in self._spares:
                return
        threading.Thread(target=self._add_spare, args=(argv,), name="espeak-spare", daemon=True).start()

    def close(self) -> None:
        with self._spares_lock:
            self._closed = True
            spares, self._spares = list(self._spares.values()), {}
        for p in spares:
            _reap(p)
        if self.library is not None:
            self.library.close()

    def argv(self, lang: str, rate: int, voice: str | None) -> list[str]:
        v = voice or DEFAULT_VOICES.get(lang, lang)
        # -b 1: UTF-8 input; text on stdin, so that text starting with "-" is not an option.
        return [self.path or "espeak-ng", "-b", "1", "-v", v, "-s", str(clamp_rate(rate)), "--stdout"]

    def stream(
        self,
        text: str,
        lang: str,
        *,
        rate: int = DEFAULT_RATE,
        voice: str | None = None,
        volume: float = 1.0,
    ) -> Iterator[tuple[np.ndarray, int]]:
        if not text.strip():
            return iter(())
        if self.library is not None:
            name = voice or DEFAULT_VOICES.get(lang, lang)
            return self.library.take(name).stream(text, name, rate, volume)
        return self._process_stream(text, lang, rate, voice, volume)

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
        """Synthesise `text` in this thread, handing each chunk to `on_chunk(samples, rate)`
        as it is made (False from it: stop there). The player's path: no thread hand-off
        between the synthesis and the output (see `espeak_lib`). `hold_gil=False`: Python's
        lock is let go while in the library (another thread plays meanwhile)."""
        if self.library is None:
            raise SpeechError("espeak-ng runs as a program here: use stream()")
        if not text.strip():
            return
        name = voice or DEFAULT_VOICES.get(lang, lang)
        lib = self.library.take(name)
        sr = lib.sample_rate
        lib.speak_into(text, name, rate, lambda samples: on_chunk(samples, sr), hold_gil=hold_gil)

    def synth(
        self,
        text: str,
        lang: str,
        *,
        rate: int = DEFAULT_RATE,
        voice: str | None = None,
        volume: float = 1.0,
    ) -> tuple[np.ndarray, int]:
        """The whole utterance, from the espeak-ng program when it is installed: the same
        text always gives the same samples (the audio rules are built from it and compared
        byte for byte), which libespeak-ng, keeping a little state from one sentence to the
        next, does not promise. Live speech goes through `stream`."""
        if self.library is None or self.path is None or not text.strip():
            return super().synth(text, lang, rate=rate, voice=voice, volume=volume)
        import numpy as np

        stream = _EspeakStream(self.argv(lang, rate, voice), text, volume)
        chunks, rates = [], [self.sample_rate]
        try:
            for chunk, chunk_sr in stream:
                chunks.append(chunk)
                rates.append(chunk_sr)
        finally:
            stream.close()
        samples = np.concatenate(chunks).astype(np.float32, copy=False) if chunks else np.zeros(0, np.float32)
        return samples, rates[-1]

    def _process_stream(self, text: str, lang: str, rate: int, voice: str | None,
                        volume: float) -> Iterator[tuple[np.ndarray, int]]:
        argv = self.argv(lang, rate, voice)
        proc = self._take_spare(argv)
        if proc is None:  # none ready: one for the next sentence, now
            self.prepare(lang, rate, voice)
        return _EspeakStream(argv, text, volume, proc=proc,
                             after_first=lambda: self.prepare(lang, rate, voice))

    def voices(self, lang: str | None = None) -> list[str]:
        if self._voices is None and self.path is None:
            return []
        if self._voices is None:
            out = subprocess.run(
                [self.path or "espeak-ng", "--voices"], capture_output=True, text=True, timeout=10
            ).stdout
            names: list[str] = []
            for line in out.splitlines()[1:]:
                cols = line.split()
                if len(cols) >= 5 and not cols[4].startswith("mb/"):  # mbrola needs its own program
                    code = cols[1].lower()  # "fr-fr", "en-us": what -v accepts
                    for name in (code.split("-")[0], code):
                        if name not in names:
                            names.append(name)
            self._voices = names
        if lang is None:
            return list(self._voices)
        return [n for n in self._voices if n.split("-")[0] == lang]
