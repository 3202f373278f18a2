"""pyttsx3 as a speech engine, wrapped against its known bugs (tech-stack report §1.3)."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.outputs.audio.wav import wav_complete
from companion.outputs.worker import Worker, WorkerStopped, WorkerTimeout

from .base import (
    DEFAULT_RATE,
    DEFAULT_VOICES,
    SpeechEngine,
    SpeechError,
    UnavailableEngine,
    clamp_rate,
    scaled,
)

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


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
        self._tmp = Path(tempfile.mkdtemp(prefix="companion-pyttsx3-"))
        self._count = 0
        self.retries = 0  # utterances the driver cancelled by itself and we asked again
        self.broken: str | None = None
        self._completed = True
        self._voice_ids: list[tuple[str, str, tuple[str, ...]]] = []  # (id, name, languages)
        self._finished = threading.Event()
        self._espeak_lib: Any = None
        self._current_voice: str | None = None
        self._worker = Worker("pyttsx3")  # the one thread that ever touches the engine
        try:
            self._engine = self._worker.call(self._start, self.TIMEOUT)
        except WorkerTimeout:
            raise UnavailableEngine(self.name, "pyttsx3 did not start within 20 s") from None
        except BaseException as exc:  # noqa: BLE001 - reported as unavailable
            self._worker.close()
            shutil.rmtree(self._tmp, ignore_errors=True)
            raise UnavailableEngine(self.name, f"pyttsx3 cannot start: {exc}") from None

    # Everything below that touches the pyttsx3 engine runs in the worker thread only.
    def _start(self) -> Any:
        import pyttsx3

        engine = pyttsx3.init()
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
        # A first utterance, so that the driver leaves its initial busy state (until then
        # setProperty is only queued) and to know that it really makes sound.
        warm = self._tmp / "warm-up.wav"
        self._save(engine, "a", warm, None, DEFAULT_RATE)
        warm.unlink(missing_ok=True)
        return engine

    def _call(self, fn: Callable[[Any], Any]) -> Any:
        if self.broken:
            raise SpeechError(self.broken)
        try:
            return self._worker.call(lambda: fn(self._engine), self.TIMEOUT)
        except WorkerTimeout:
            # its thread is stuck inside pyttsx3 and cannot be freed: fail fast from now on
            self.broken = "pyttsx3 did not answer within 20 s"
            raise SpeechError(self.broken) from None
        except WorkerStopped:
            raise SpeechError("the pyttsx3 worker has stopped") from None
        except Exception as exc:
            raise SpeechError(f"pyttsx3: {exc}") from exc

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
        return scaled(data, volume), int(sr)

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
        self._worker.close(timeout=2)
        shutil.rmtree(self._tmp, ignore_errors=True)


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
            whole = wav_complete(path)
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
