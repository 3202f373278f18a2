"""One microphone (or WAV file) as an input of the table: sound -> utterances -> lines.

The listener runs in its own thread: it cuts the sound into utterances (VAD), recognises
each against what is sayable *now* (`phrases()` is asked at every utterance, and the
recogniser recompiles its grammar only when the answer changed), and posts
`Line(text=<the listed phrase>, seat, source="voice", confidence=c)` to the inbox. Nothing
else: the table loop alone touches the match.

It does not listen to the companion: while a speaker `is_speaking()` (when the speaker has
that method) sound is dropped, unless `barge_in` (players wearing headphones), where the
start of an utterance cuts the companion off instead.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.inbox import Inbox, Line

from .grammar import PhraseSet
from .recognizer import Recognizer, Result
from .vad import FRAME, Segmenter, Utterance


@dataclass
class Heard:
    """One utterance and what became of it (for `companion voice test` and the figures)."""

    result: Result
    utterance: Utterance
    decided_at: float  # monotonic time when the VAD decided the utterance had ended
    posted_at: float | None  # when its line reached the inbox (None: nothing recognised)

    @property
    def latency(self) -> float | None:
        """VAD decision -> line in the inbox, seconds."""
        return None if self.posted_at is None else self.posted_at - self.decided_at

    @property
    def latency_from_voice(self) -> float | None:
        """Last voiced sample -> line in the inbox, seconds (the hangover included)."""
        if self.latency is None:
            return None
        return self.utterance.decided - self.utterance.last_voiced + self.latency


@dataclass
class Listener:
    source: Iterable[np.ndarray]
    recognizer: Recognizer
    inbox: Inbox
    phrases: Callable[[], PhraseSet]
    seat: int | None = None
    speaker: Any = None
    barge_in: bool = False
    segmenter: Segmenter = field(default_factory=Segmenter)
    on_heard: Callable[[Heard], None] | None = None
    heard: list[Heard] = field(default_factory=list)
    muted_chunks: int = 0

    def __post_init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # ------------------------------------------------------------------ running
    def start(self) -> Listener:
        self.recognizer.set_phrases(self.phrases())  # load the model before the first word
        self._thread = threading.Thread(target=self.run, name="voice-listener", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        close = getattr(self.source, "close", None)
        if callable(close):
            close()
        if self._thread is not None:
            self._thread.join(5)

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _speaking(self) -> bool:
        fn = getattr(self.speaker, "is_speaking", None)
        return bool(fn()) if callable(fn) else False

    def run(self) -> None:
        seg = self.segmenter
        rec = self.recognizer
        streaming = all(callable(getattr(rec, n, None)) for n in ("begin", "feed", "finish"))
        active = False
        fed = 0
        for chunk in self.source:
            if self._stop.is_set():
                break
            speaking = self._speaking()
            if speaking and not self.barge_in:
                self.muted_chunks += 1
                seg.reset()  # what the companion says is not a command
                seg.t += len(chunk) / 16000
                if active:
                    rec.finish()  # type: ignore[attr-defined]
                    active = False
                continue
            was = seg.in_speech
            for utt in seg.feed_samples(chunk):
                if streaming and active:
                    decided = time.monotonic()
                    rec.feed(utt.pcm[fed * FRAME:])  # type: ignore[attr-defined]
                    self._done(utt, rec.finish(), decided)  # type: ignore[attr-defined]
                    active = False
                else:
                    self._handle(utt)
            if streaming and seg.in_speech:
                if not active:  # an utterance began: decode it while it is said
                    rec.set_phrases(self.phrases())
                    rec.begin()  # type: ignore[attr-defined]
                    active, fed = True, 0
                rec.feed(np.concatenate(seg.frames[fed:]) if len(seg.frames) > fed else np.zeros(0, np.int16))  # type: ignore[attr-defined]
                fed = len(seg.frames)
            elif streaming and active:  # it ended too short to be a command
                rec.finish()  # type: ignore[attr-defined]
                active = False
            if speaking and self.barge_in and seg.in_speech and not was:
                interrupt = getattr(self.speaker, "interrupt", None)
                if callable(interrupt):
                    interrupt()
        last = seg.flush()
        if last is not None:
            if streaming and active:
                decided = time.monotonic()
                rec.feed(last.pcm[fed * FRAME:])  # type: ignore[attr-defined]
                self._done(last, rec.finish(), decided)  # type: ignore[attr-defined]
            else:
                self._handle(last)
        elif streaming and active:
            rec.finish()  # type: ignore[attr-defined]

    def _handle(self, utt: Utterance) -> None:
        decided = time.monotonic()
        self.recognizer.set_phrases(self.phrases())
        self._done(utt, self.recognizer.recognize(utt.pcm), decided)

    def _done(self, utt: Utterance, result: Result, decided: float) -> None:
        posted = None
        if result.line is not None:
            self.inbox.post(Line(text=result.line, seat=self.seat, source="voice", confidence=result.confidence))
            posted = time.monotonic()
        heard = Heard(result, utt, decided, posted)
        self.heard.append(heard)
        if self.on_heard is not None:
            self.on_heard(heard)
