"""libespeak-ng in this process: the first audio 0.2 ms after the call, instead of 0.3 to 20 ms
from an espeak-ng process (a new process has to warm up for its first sentence, which is
every sentence when each has its own process; measured on the 2-core VM).

libespeak-ng keeps its state in globals and is not reentrant, and pyttsx3's espeak driver
loads the same library in the same process with other settings (asynchronous output, its
own callback). So a private copy of the library file is loaded (the dynamic loader then
gives it its own globals), and every call into it is made by one thread (`Worker`).
Synthesis is far quicker than speech, and it must not take the processor (and Python's
lock) from the player while the first sound goes out: it stays AHEAD_S ahead of what the
player has read, then waits. So a library is busy for as long as its sentence is being
said, and the engine keeps one per voice speaking at once (`LibraryPool`). Closing a
stream makes the callback abort the synthesis at once.

`speak_into` is the player's path (issue 26): the synthesis runs in the caller's own thread
and each chunk is handed to the caller's function from the library's callback, which plays
it. From `say()` to the first sample there is then one thread hand-off (to the player)
instead of three (player, synthesis thread, player again): on a loaded machine each of
them waited up to a scheduler slice (3-13 ms measured beside two busy processes), and each
woken thread then waited again for Python's lock. The call keeps Python's lock while in the
library (`PYFUNCTYPE`), so the callback does not have to take it back for every chunk.
Calls into one library are made one at a time (`_lock`), from whichever thread.
"""

from __future__ import annotations

import ctypes
import queue
import shutil
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.outputs.worker import Worker, WorkerTimeout

from .base import DEFAULT_RATE, SpeechError, UnavailableEngine, clamp_rate, scaled

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

AUDIO_OUTPUT_SYNCHRONOUS = 2
INITIALIZE_DONT_EXIT = 0x8000
CHARS_UTF8 = 1
ENDPAUSE = 0x1000  # the pause at the end of a sentence, as the espeak-ng program makes it
POS_CHARACTER = 1
RATE = 1
BUFFER_MS = 20  # audio per callback
AHEAD_S = 0.25  # synthesis waits when this much audio is ready and not yet read
ABANDONED_S = 30.0  # a reader that takes nothing for this long is gone: synthesis stops
SONAME = "libespeak-ng.so.1"

_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.c_void_p)


def _library_path() -> Path:
    """The file of libespeak-ng this system has (where the dynamic loader finds it)."""
    try:
        ctypes.CDLL(SONAME)
    except OSError as exc:
        raise UnavailableEngine("espeak-ng", f"libespeak-ng is not installed ({exc})") from None
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        raise UnavailableEngine("espeak-ng", "cannot find the libespeak-ng file (no /proc)") from None
    for line in maps.splitlines():
        path = line.split(maxsplit=5)[-1]
        if "/libespeak-ng.so" in path and Path(path).exists():
            return Path(path)
    raise UnavailableEngine("espeak-ng", "cannot find the libespeak-ng file")


class LibStream:
    """One utterance's audio, filled by the synthesis thread, read by the player."""

    TIMEOUT = 10.0

    def __init__(self, text: str, voice: str, rate: int, volume: float, sample_rate: int = 22050) -> None:
        self.text, self.voice, self.rate, self.volume = text, voice, rate, volume
        self.sample_rate = sample_rate
        self.closed = False
        self.finished = False  # the synthesis is over (whole, aborted or failed)
        self._q: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._cond = threading.Condition()
        self._ahead = 0  # samples made and not read yet
        self._requests = 0  # times the reader asked for a chunk
        self.produced = 0  # samples made in all

    # the synthesis thread
    def put(self, samples: np.ndarray) -> bool:
        """Hand over samples; then wait while AHEAD_S are waiting to be read, and after the
        first chunk until the reader comes back for the second (so that nothing competes
        with the first sound on its way out). False: closed."""
        limit = int(AHEAD_S * self.sample_rate)
        with self._cond:
            self._ahead += len(samples)
            self.produced += len(samples)
            self._q.put(("audio", samples))
            if not self._cond.wait_for(
                lambda: self.closed or (self._requests >= 2 and self._ahead <= limit), timeout=ABANDONED_S
            ):
                self.closed = True  # nobody reads it any more
            return not self.closed

    def end(self, error: BaseException | None = None) -> None:
        self.finished = True
        self._q.put(("error", error) if error is not None else ("end", None))

    # the player
    def __iter__(self) -> LibStream:
        return self

    def __next__(self) -> tuple[np.ndarray, int]:
        if self.closed:
            raise StopIteration
        with self._cond:
            self._requests += 1
            self._cond.notify_all()
        try:
            kind, value = self._q.get(timeout=self.TIMEOUT)
        except queue.Empty:
            raise SpeechError(f"libespeak-ng gave nothing for {self.TIMEOUT:.0f} s") from None
        if kind == "audio":
            with self._cond:
                self._ahead -= len(value)
                self._cond.notify_all()
            return scaled(value, self.volume), self.sample_rate
        if kind == "error":
            raise value
        self.closed = True
        raise StopIteration

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def __del__(self) -> None:
        self.closed = True  # dropped without close(): the synthesis stops at its next buffer


class EspeakLibrary:
    """libespeak-ng, privately loaded, driven by one thread."""

    def __init__(self) -> None:
        self._worker = Worker("espeak-lib", audio_priority=True)
        self._voice: str | None = None
        self._rate: int | None = None
        self._job: LibStream | None = None  # the one being synthesised (worker thread)
        self._last: LibStream | None = None  # the last one asked for
        self._lib: Any = None
        self._lock = threading.Lock()  # one synthesis at a time in this library
        self._push: Any = None  # speak_into's function, while it runs
        self._push_error: BaseException | None = None
        self.claimed = False  # taken from the pool, its synthesis not begun yet
        try:
            self.sample_rate = self._worker.call(self._load, timeout=10.0)
        except WorkerTimeout:
            self._worker.close()
            raise UnavailableEngine("espeak-ng", "libespeak-ng did not start within 10 s") from None
        except UnavailableEngine:
            self._worker.close()
            raise
        except Exception as exc:
            self._worker.close()
            raise UnavailableEngine("espeak-ng", f"libespeak-ng cannot start: {exc}") from None

    # --- in the worker thread only ---
    def _load(self) -> int:
        source = _library_path()
        folder = Path(tempfile.mkdtemp(prefix="companion-espeak-"))
        try:
            copy = folder / "libespeak-ng-companion.so"
            shutil.copyfile(source, copy)
            lib = ctypes.CDLL(str(copy), mode=ctypes.RTLD_LOCAL)
        finally:  # once loaded, the file is no longer needed
            shutil.rmtree(folder, ignore_errors=True)
        lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
        lib.espeak_SetParameter.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
        lib.espeak_Synth.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint, ctypes.c_int,
                                     ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p]
        sr = int(lib.espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, BUFFER_MS, None, INITIALIZE_DONT_EXIT))
        if sr <= 0:
            raise UnavailableEngine("espeak-ng", "libespeak-ng found no voice data (espeak-ng-data)")
        self._callback = _CALLBACK(self._on_audio)  # kept: the library calls it
        lib.espeak_SetSynthCallback(self._callback)
        # the same function, called without letting Python's lock go (speak_into)
        self._synth_held = ctypes.PYFUNCTYPE(ctypes.c_int, *lib.espeak_Synth.argtypes)(("espeak_Synth", lib))
        self._lib = lib
        return sr

    def _on_audio(self, wav: Any, n: int, _events: Any) -> int:
        import numpy as np

        push = self._push
        if push is not None:
            try:
                if n > 0 and wav and not push(np.ctypeslib.as_array(wav, shape=(n,)).astype(np.float32) / 32768.0):
                    return 1
            except BaseException as exc:  # noqa: BLE001 - raised again by speak_into
                self._push_error = exc
                return 1
            return 0
        job = self._job
        if job is None or job.closed:
            return 1  # abort: nobody listens any more
        if n > 0 and wav and not job.put(np.ctypeslib.as_array(wav, shape=(n,)).astype(np.float32) / 32768.0):
            return 1
        return 0

    def _settings(self, voice: str, rate: int) -> None:
        lib = self._lib
        if voice != self._voice:
            if lib.espeak_SetVoiceByName(voice.encode("utf-8")) != 0:
                self._voice = None
                raise SpeechError(f"espeak-ng has no voice {voice!r}")
            self._voice, self._rate = voice, None  # a new voice resets the rate
        if rate != self._rate:
            lib.espeak_SetParameter(RATE, rate, 0)
            self._rate = rate

    def _synth(self, job: LibStream) -> None:
        with self._lock:
            self._synth_locked(job)

    def _synth_locked(self, job: LibStream) -> None:
        lib = self._lib
        try:
            self._settings(job.voice, job.rate)
            if job.closed:  # cut before it began (or only preparing the voice)
                job.end()
                return
            data = job.text.encode("utf-8") + b"\0"
            self._job = job
            try:
                rc = lib.espeak_Synth(data, len(data), 0, POS_CHARACTER, 0, CHARS_UTF8 | ENDPAUSE, None, None)
            finally:
                self._job = None
            if rc not in (0, 1) and not job.closed:  # 1: EE_BUFFER_FULL after an abort
                raise SpeechError(f"libespeak-ng failed (error {rc})")
            job.end()
        except BaseException as exc:  # noqa: BLE001 - handed to the reader
            job.end(exc)

    # --- any thread ---
    @property
    def free(self) -> bool:
        """Nothing is being synthesised, or only for a stream already closed."""
        job = self._last
        return not self.claimed and self._push is None and (job is None or job.finished or job.closed)

    def speak_into(self, text: str, voice: str, rate: int, on_chunk: Any, hold_gil: bool = True) -> None:
        """Synthesise `text` in this thread; each chunk (float32 samples) goes to
        `on_chunk(samples)` as it is made, which returns False to stop there (a cut).
        Its exceptions, and SpeechError (a voice the library does not have), come out here."""
        with self._lock:
            self.claimed = False
            data = text.encode("utf-8") + b"\0"
            self._push_error = None
            try:
                self._settings(voice, clamp_rate(rate))
                self._push = on_chunk
                synth = self._synth_held if hold_gil else self._lib.espeak_Synth
                rc = synth(data, len(data), 0, POS_CHARACTER, 0, CHARS_UTF8 | ENDPAUSE, None, None)
            finally:
                self._push = None
            error, self._push_error = self._push_error, None
            if error is not None:
                raise error
            if rc not in (0, 1):  # 1: EE_BUFFER_FULL after an abort
                raise SpeechError(f"libespeak-ng failed (error {rc})")

    def stream(self, text: str, voice: str, rate: int = DEFAULT_RATE, volume: float = 1.0) -> LibStream:
        job = LibStream(text, voice, clamp_rate(rate), volume, self.sample_rate)
        self._last = job
        self.claimed = False
        try:
            self._worker.submit(lambda: self._synth(job))
        except Exception as exc:  # the worker was closed
            raise SpeechError(str(exc)) from None
        return job

    def prepare(self, voice: str, rate: int = DEFAULT_RATE) -> None:
        """Load the voice now, and warm the synthesis up with one word (not heard)."""
        self.stream("a", voice, rate).close()

    def close(self) -> None:
        self._worker.close()


class LibraryPool:
    """One library per utterance being synthesised at once (the table's and each private
    channel's), made as needed, MAX at most; one spare is made ahead, in the background."""

    MAX = 8  # the table and a private channel for each player, speaking at once

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._libs: list[EspeakLibrary] = [EspeakLibrary()]
        self._making: threading.Event | None = None
        self._closed = False

    def take(self, voice: str | None = None) -> EspeakLibrary:
        """A free library (made now if none is and none is being made); a spare made ahead
        loads `voice`."""
        while True:
            with self._lock:
                for lib in self._libs:
                    if lib.free:
                        self._spare_ahead(voice)
                        lib.claimed = True  # not free for another channel meanwhile
                        return lib
                making = self._making
                if making is None and len(self._libs) >= self.MAX:
                    return min(self._libs, key=lambda lib: 0 if lib.free else 1)
                if making is None:
                    making = self._making = threading.Event()
                    start = True
                else:
                    start = False
            if start:
                self._make(making, voice)
            else:
                making.wait(10)

    def _spare_ahead(self, voice: str | None) -> None:
        """(Under the lock) when every library but the one being taken is busy, make one more."""
        free = sum(1 for lib in self._libs if lib.free)
        if free <= 1 and self._making is None and len(self._libs) < self.MAX and not self._closed:
            making = self._making = threading.Event()
            threading.Thread(target=self._make, args=(making, voice), name="espeak-lib-spare", daemon=True).start()

    def _make(self, making: threading.Event, voice: str | None = None) -> None:
        try:
            lib = EspeakLibrary()
            if voice:
                lib.prepare(voice)
        except UnavailableEngine:
            lib = None
        with self._lock:
            if lib is not None and not self._closed:
                self._libs.append(lib)
            elif lib is not None:
                lib.close()
            self._making = None
        making.set()

    def first(self) -> EspeakLibrary:
        return self._libs[0]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            libs = list(self._libs)
        for lib in libs:
            lib.close()
