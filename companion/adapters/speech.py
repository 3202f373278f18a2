"""Speech engines behind one small interface.

Two kinds of engine:

* engines that **produce audio** (`produces_audio = True`): `synth()` returns float32 mono
  samples in [-1, 1] and their sample rate, and `stream()` yields them chunk by chunk as they
  are made (the player hands the first chunk to the sound output before the sentence is
  finished). Our own audio path then plays them, so they can be cut within one 10 ms block.
  espeak-ng (a subprocess per utterance), pyttsx3 (wrapped, see `Pyttsx3Engine`) and the
  recording engine used by tests.
* engines that **play by themselves** (`produces_audio = False`): `speak()` and `stop()`.
  speech-dispatcher (the Linux screen readers' speech server) and `text` (nothing is spoken:
  the printed line is read by the user's own screen reader).

`get_engine("auto")` tries espeak-ng, then pyttsx3, then speech-dispatcher, then text.
`UnavailableEngine(name, reason)` says why one cannot be used.

numpy is imported inside the functions that need it: the command line must start fast.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


def _scaled(samples: np.ndarray, volume: float) -> np.ndarray:
    import numpy as np

    out = samples.astype(np.float32, copy=False)
    if volume != 1.0:
        out = out * np.float32(max(0.0, min(1.0, volume)))
    return np.clip(out, -1.0, 1.0)


class SpeechEngine:
    """The interface every engine has. Subclasses override what they support."""

    name: str = ""
    produces_audio: bool = True

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


# --- espeak-ng ---------------------------------------------------------------------------


class _EspeakStream:
    """One espeak-ng process writing a WAV to its stdout, read as it comes.

    The process is started when the object is made, so that synthesis runs while the caller
    does something else (plays an earcon). It is an iterator of (float32 chunk, rate);
    `close()` kills the process (an utterance cut half-way, or never started).
    """

    CHUNK = 2048  # bytes read at once at most: 1024 samples, 46 ms at 22 050 Hz

    def __init__(self, argv: list[str], text: str, volume: float, proc: subprocess.Popen[bytes] | None = None) -> None:
        """`proc`: an espeak-ng already started with `argv` and waiting for its text."""
        self.volume = volume
        self.proc = proc if proc is not None else _spawn(argv)
        assert self.proc.stdin is not None
        data = text.encode("utf-8")
        if len(data) <= 16384:  # fits in the pipe: written at once
            self._feed(data)
        else:  # espeak-ng may speak before it has read it all: do not block on a full pipe
            threading.Thread(target=self._feed, args=(data,), name="espeak-stdin", daemon=True).start()
        self._closed = False
        self._gen: Generator[tuple[np.ndarray, int], None, None] = self._generate()

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
            if len(header) < 44 or header[:4] != b"RIFF" or header[36:40] != b"data":
                err = self._finish()
                raise SpeechError(f"espeak-ng produced no audio: {err}")
            sr = int.from_bytes(header[24:28], "little")
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
                    yield _scaled(samples, self.volume), sr
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
    """The espeak-ng program, one process per utterance, read from its standard output.

    French voices fr, fr-be, fr-ch; English en, en-us; variants such as "fr+f3".
    Starting espeak-ng (and loading its voice) is most of the delay before the first sound:
    about 10 ms to the first chunk from a new process, 1.3 ms from one started beforehand
    (measured on a 2-core VM). So after each utterance a spare process is started in the
    background with the same voice and rate, waiting for its text on stdin; the next
    utterance with those settings uses it. At most MAX_SPARES wait (the most recent
    settings); they are killed by `close()` and at exit.
    """

    name = "espeak-ng"
    produces_audio = True
    MAX_SPARES = 4

    def __init__(self) -> None:
        self.path = shutil.which("espeak-ng")
        if self.path is None:
            raise UnavailableEngine(
                self.name, "the espeak-ng program is not installed (apt-get install espeak-ng)"
            )
        self._voices: list[str] | None = None
        self._spares: dict[tuple[str, ...], subprocess.Popen[bytes]] = {}  # oldest first
        self._spares_lock = threading.Lock()
        self._closed = False
        import atexit

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
        argv = self.argv(lang, rate, voice)
        stream = _EspeakStream(argv, text, volume, proc=self._take_spare(argv))
        if not self._closed:
            self.prepare(lang, rate, voice)
        return stream

    def voices(self, lang: str | None = None) -> list[str]:
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


# --- pyttsx3 -----------------------------------------------------------------------------


def _quiet(*_args: Any, **_kwargs: Any) -> None:
    """Replaces pyttsx3's espeak driver's `print` ("Audio saved to ..." on every file)."""


class Pyttsx3Engine(SpeechEngine):
    """pyttsx3 (SAPI5 on Windows, NSSpeechSynthesizer on macOS, libespeak-ng on Linux).

    Wrapped so that its known bugs (tech-stack report §1.3) cannot bite:
    * one engine, created and used by ONE worker thread, fed by a queue (two threads hang it);
    * exactly one `save_to_file` per `runAndWait` (queued utterances are dropped otherwise),
      and never `say()` (it would rewrite the last file instead of playing, and on Linux it
      plays through `aplay`, outside our interruptible audio path);
    * the file is waited for: the first `runAndWait` of a process returns before it exists;
    * the driver's stdout noise ("Audio saved to ...") is silenced.
    The audio is then played by our own player like espeak-ng's.
    """

    name = "pyttsx3"
    produces_audio = True
    TIMEOUT = 20.0

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Callable[[Any], Any], queue.Queue[Any]] | None] = queue.Queue()
        self._tmp = Path(tempfile.mkdtemp(prefix="companion-pyttsx3-"))
        self._count = 0
        self.retries = 0  # utterances the driver cancelled by itself and we asked again
        self.broken: str | None = None
        self._completed = True
        self._voice_ids: list[tuple[str, str, tuple[str, ...]]] = []  # (id, name, languages)
        self._finished = threading.Event()
        self._thread = threading.Thread(target=self._worker, name="pyttsx3", daemon=True)
        ready: queue.Queue[Any] = queue.Queue()
        self._ready = ready
        self._thread.start()
        try:
            result = ready.get(timeout=self.TIMEOUT)
        except queue.Empty:
            raise UnavailableEngine(self.name, "pyttsx3 did not start within 20 s") from None
        if isinstance(result, BaseException):
            shutil.rmtree(self._tmp, ignore_errors=True)
            raise UnavailableEngine(self.name, f"pyttsx3 cannot start: {result}")

    # Everything below that touches `self._engine` runs in the worker thread only.
    def _worker(self) -> None:
        try:
            import pyttsx3

            engine = pyttsx3.init()
            self._espeak_lib = None
            self._current_voice: str | None = None
            if type(engine.proxy._driver).__module__ == "pyttsx3.drivers.espeak":
                import pyttsx3.drivers._espeak as es
                import pyttsx3.drivers.espeak as drv

                # silence the driver's prints (they come from espeak's own thread)
                drv.print = _quiet  # type: ignore[attr-defined]
                self._espeak_lib = es
            engine.setProperty("volume", 1.0)  # volume is applied by our player, live

            def finished(name: Any = None, completed: bool = True) -> None:
                self._completed = completed
                self._finished.set()

            engine.connect("finished-utterance", finished)
            for v in engine.getProperty("voices") or []:
                langs = tuple(str(x).lower() for x in (getattr(v, "languages", None) or ()))
                self._voice_ids.append((str(v.id), str(getattr(v, "name", v.id)), langs))
            self._engine = engine
            # A first utterance, so that the driver leaves its initial busy state (until then
            # setProperty is only queued) and to know that it really makes sound.
            warm = self._tmp / "warm-up.wav"
            self._save(engine, "a", warm, None, DEFAULT_RATE)
            warm.unlink(missing_ok=True)
        except BaseException as exc:  # noqa: BLE001 - reported to the caller as unavailable
            self._ready.put(exc)
            return
        self._ready.put(True)
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, reply = job
            try:
                reply.put(fn(engine))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                reply.put(exc)

    def _call(self, fn: Callable[[Any], Any]) -> Any:
        if self.broken:
            raise SpeechError(self.broken)
        if not self._thread.is_alive():
            raise SpeechError("the pyttsx3 worker has stopped")
        reply: queue.Queue[Any] = queue.Queue()
        self._jobs.put((fn, reply))
        try:
            result = reply.get(timeout=self.TIMEOUT)
        except queue.Empty:
            # its thread is stuck inside pyttsx3 and cannot be freed: fail fast from now on
            self.broken = "pyttsx3 did not answer within 20 s"
            raise SpeechError(self.broken) from None
        if isinstance(result, BaseException):
            raise SpeechError(f"pyttsx3: {result}") from result
        return result

    def _save(self, engine: Any, text: str, path: Path, vid: str | None, rate: int) -> None:
        """In the worker: one save_to_file per runAndWait, then wait for the whole file."""
        for _attempt in range(3):
            self._apply(engine, vid, rate)
            self._finished.clear()
            self._completed = True
            engine.save_to_file(text, str(path))
            engine.runAndWait()
            if _wait_for_wav(path, self._finished, lambda: self._completed, self.TIMEOUT / 4):
                return
            self.retries += 1  # cancelled by the driver itself: say it again
        raise SpeechError("pyttsx3 cancelled the utterance three times")

    def _apply(self, engine: Any, vid: str | None, rate: int) -> None:
        """Set voice and rate, and make sure they are in force before synthesis starts.

        With the espeak driver, `setProperty` goes into libespeak-ng's asynchronous command
        queue; `runAndWait` then calls `stop()`, whose `espeak_Cancel` empties that queue when
        the command is still pending, so the new rate was silently lost (measured: the rate
        of the previous utterance was used). Wait until libespeak-ng reports the values.
        """
        if vid is not None and vid != self._current_voice:
            engine.setProperty("voice", vid)
        engine.setProperty("rate", rate)
        es = self._espeak_lib
        if es is None:
            self._current_voice = vid
            return
        # Also wait for the queue to be idle: a pending command makes `stop()` set the
        # driver's `_stopping` flag, which then cancels our utterance (no file, ever).
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            voice_ok = vid is None or vid == self._current_voice or self._espeak_voice() == vid.lower()
            if es.GetParameter(es.RATE) == rate and voice_ok and not es.IsPlaying():
                break
            time.sleep(0.001)
        self._current_voice = vid if vid is not None else self._current_voice

    def _espeak_voice(self) -> str | None:
        es = self._espeak_lib
        v = es.GetCurrentVoice() if es is not None else None
        if v and v.contents.identifier:
            return v.contents.identifier.decode("utf-8").lower()
        return None

    def _voice_id(self, lang: str, voice: str | None) -> str | None:
        if voice:
            for vid, name, _langs in self._voice_ids:
                if voice.lower() in (vid.lower(), name.lower(), vid.lower().rsplit("/", 1)[-1]):
                    return vid
        wanted = (voice or DEFAULT_VOICES.get(lang, lang)).lower()
        for vid, _name, _langs in self._voice_ids:  # espeak ids: "roa/fr", "gmw/en"
            if vid.lower().rsplit("/", 1)[-1] == wanted:
                return vid
        for vid, _name, langs in self._voice_ids:
            if any(lg.replace("_", "-") in (wanted, f"{wanted}-{wanted}") for lg in langs):
                return vid
        for vid, _name, langs in self._voice_ids:
            if any(lg.split("-")[0].split("_")[0] == lang for lg in langs):
                return vid
        return None

    def synth(
        self,
        text: str,
        lang: str,
        *,
        rate: int = DEFAULT_RATE,
        voice: str | None = None,
        volume: float = 1.0,
    ) -> tuple[np.ndarray, int]:
        import numpy as np
        import soundfile as sf

        if not text.strip():
            return np.zeros(0, dtype=np.float32), self.sample_rate
        self._count += 1
        path = self._tmp / f"u{self._count}.wav"
        vid = self._voice_id(lang, voice)

        self._call(lambda engine: self._save(engine, text, path, vid, clamp_rate(rate)))
        try:
            data, sr = sf.read(str(path), dtype="float32", always_2d=False)
        finally:
            path.unlink(missing_ok=True)
        if data.ndim > 1:
            data = data.mean(axis=1)
        return _scaled(data, volume), int(sr)

    def stream(
        self,
        text: str,
        lang: str,
        *,
        rate: int = DEFAULT_RATE,
        voice: str | None = None,
        volume: float = 1.0,
    ) -> Iterator[tuple[np.ndarray, int]]:
        samples, sr = self.synth(text, lang, rate=rate, voice=voice, volume=volume)
        return iter([(samples, sr)] if len(samples) else [])

    def voices(self, lang: str | None = None) -> list[str]:
        out = []
        for vid, _name, langs in self._voice_ids:
            if lang is None or any(lg.split("-")[0].split("_")[0] == lang for lg in langs):
                out.append(vid.rsplit("/", 1)[-1])  # "roa/fr-be" -> "fr-be", as espeak-ng
        return out

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join(timeout=2)
        shutil.rmtree(self._tmp, ignore_errors=True)


def _wav_complete(path: Path) -> bool | None:
    """True when the WAV's data chunk is all there, False when not yet, None when the file is
    not a RIFF/WAVE one (NSSpeechSynthesizer writes AIFF)."""
    try:
        with path.open("rb") as fh:
            size = path.stat().st_size
            head = fh.read(12)
            if len(head) < 12:
                return False
            if head[:4] != b"RIFF" or head[8:12] != b"WAVE":
                return None
            pos = 12
            while pos + 8 <= size:
                fh.seek(pos)
                chunk = fh.read(8)
                length = int.from_bytes(chunk[4:8], "little")
                if chunk[:4] == b"data":
                    return length > 0 and size >= pos + 8 + length
                pos += 8 + length + (length & 1)
            return False
    except OSError:
        return False


def _wait_for_wav(path: Path, finished: threading.Event, completed: Callable[[], bool], timeout: float) -> bool:
    """Until pyttsx3 has written the whole file: the utterance finished and the file is whole.

    False when the driver reported the utterance cancelled (no file will come). A file that
    is not a WAV is taken as whole when its size has not changed for 20 ms."""
    deadline = time.monotonic() + timeout
    last_size, stable_since = -1, 0.0
    while time.monotonic() < deadline:
        if finished.is_set() and not completed():
            return False
        if finished.is_set() and path.exists():
            whole = _wav_complete(path)
            if whole:
                time.sleep(0.002)  # the driver still resets its state after notifying
                return True
            if whole is None:
                size = path.stat().st_size
                if size != last_size:
                    last_size, stable_since = size, time.monotonic()
                elif size > 0 and time.monotonic() - stable_since >= 0.02:
                    return True
        time.sleep(0.002)
    raise SpeechError(f"pyttsx3 did not write {path.name} within {timeout:.0f} s")


# --- speech-dispatcher -------------------------------------------------------------------


class SpeechDispatcherEngine(SpeechEngine):
    """speech-dispatcher through its Python client (Debian package python3-speechd).

    It plays by itself, with its own priorities (the same four as ours); `stop()` cancels.
    The client has no time-outs and a server without a working audio output stalls (tech
    stack report, and seen here with its default "pulse" output and no PulseAudio), so every
    call goes through one worker thread and is given up after a few seconds: the engine then
    reports itself broken instead of hanging the companion.
    """

    name = "speech-dispatcher"
    produces_audio = False
    CALL_TIMEOUT = 3.0

    def __init__(self) -> None:
        try:
            import speechd  # type: ignore[import-not-found]
        except ImportError:
            raise UnavailableEngine(
                self.name,
                "the Python client of speech-dispatcher is not installed (python3-speechd)",
            ) from None
        self._speechd = speechd
        self.broken: str | None = None
        self._jobs: queue.Queue[tuple[Callable[[], Any], queue.Queue[Any]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._worker, name="speechd", daemon=True)
        self._thread.start()
        try:
            self._client = self._do(lambda: speechd.SSIPClient("companion"), timeout=10.0)
        except SpeechError as exc:
            self._jobs.put(None)
            raise UnavailableEngine(self.name, f"speech-dispatcher does not answer: {exc}") from None

    def _worker(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, reply = job
            try:
                reply.put(fn())
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                reply.put(exc)

    def _do(self, fn: Callable[[], Any], timeout: float | None = None) -> Any:
        if self.broken:
            raise SpeechError(self.broken)
        reply: queue.Queue[Any] = queue.Queue()
        self._jobs.put((fn, reply))
        try:
            result = reply.get(timeout=timeout or self.CALL_TIMEOUT)
        except queue.Empty:
            self.broken = f"speech-dispatcher did not answer within {timeout or self.CALL_TIMEOUT:.0f} s"
            raise SpeechError(self.broken) from None
        if isinstance(result, BaseException):
            raise SpeechError(f"speech-dispatcher: {result}") from result
        return result

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
        sd = self._speechd
        prio = {1: sd.Priority.IMPORTANT, 2: sd.Priority.MESSAGE, 3: sd.Priority.TEXT, 4: sd.Priority.NOTIFICATION}

        def callback(*_args: Any, **_kw: Any) -> None:
            if done is not None:
                done()

        def call() -> None:
            c = self._client
            c.set_priority(prio.get(priority or 3, sd.Priority.TEXT))
            c.set_language(lang)
            # speech-dispatcher's rate and volume run from -100 to 100 around its defaults.
            c.set_rate(max(-100, min(100, int((clamp_rate(rate) - DEFAULT_RATE) * 100 / 275))))
            c.set_volume(max(-100, min(100, int(volume * 200 - 100))))
            if voice:
                c.set_synthesis_voice(voice)
            if done is None:
                c.speak(text)
            else:
                c.speak(text, callback=callback,
                        event_types=(sd.CallbackType.END, sd.CallbackType.CANCEL))

        self._do(call)

    def stop(self) -> None:
        with contextlib.suppress(SpeechError):
            self._do(lambda: self._client.cancel(), timeout=1.0)

    def voices(self, lang: str | None = None) -> list[str]:
        try:
            found = self._do(lambda: self._client.list_synthesis_voices())
        except SpeechError:
            return []
        return [str(v[0]) for v in found if lang is None or str(v[1]).split("-")[0] == lang]

    def close(self) -> None:
        with contextlib.suppress(SpeechError):
            self._do(lambda: self._client.close(), timeout=1.0)
        self._jobs.put(None)


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
        return iter([(_scaled(samples[i : i + step], volume), self.sample_rate) for i in range(0, n, step)])


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
