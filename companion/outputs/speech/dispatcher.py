"""speech-dispatcher as a speech engine: it plays by itself (the Linux screen readers' server)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from companion.outputs.worker import Worker, WorkerStopped, WorkerTimeout

from .base import DEFAULT_RATE, SpeechEngine, SpeechError, UnavailableEngine, clamp_rate


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
        self._worker = Worker("speechd")
        try:
            self._client = self._do(lambda: speechd.SSIPClient("companion"), timeout=10.0)
        except SpeechError as exc:
            self._worker.close()
            raise UnavailableEngine(self.name, f"speech-dispatcher does not answer: {exc}") from None

    def _do(self, fn: Callable[[], Any], timeout: float | None = None) -> Any:
        if self.broken:
            raise SpeechError(self.broken)
        limit = timeout or self.CALL_TIMEOUT
        try:
            return self._worker.call(fn, limit)
        except WorkerTimeout:
            self.broken = f"speech-dispatcher did not answer within {limit:.0f} s"
            raise SpeechError(self.broken) from None
        except WorkerStopped as exc:
            raise SpeechError(str(exc)) from None
        except Exception as exc:
            raise SpeechError(f"speech-dispatcher: {exc}") from exc

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
        self._worker.close()
