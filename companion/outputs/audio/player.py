"""The player: one thread per output, around the pure `SpeechQueue`.

It takes the next item from the queue, synthesises it with the speech engine (trimming the
engine's leading silence as it streams: `speech_trim`), and writes BLOCK_MS blocks to the
sink, checking between blocks whether the item was cut. Everything about what cuts what is
decided by the queue (`speech_queue`); this module only applies its decisions: it stops the
sound (`Sink.wake`, then `discard`), stops an engine that speaks by itself, and sets each
item's `done` event.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from companion.narration import Priority
from companion.outputs.speech.trim import Trimmed, Trimmer
from companion.outputs.worker import raise_priority

from .policy import Decision, Item, SpeechQueue
from .sinks import NullSink, RecordingSink, Sink

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from companion.outputs.speech.base import SpeechEngine

# Small blocks: after a cut at most two blocks are still heard (the one playing and the
# one the output holds), so 2 x 4 ms.
BLOCK_MS = 4

Settings = Callable[[str], tuple[int, str | None, float]]  # lang -> (rate, voice, volume)

# Said from the asking thread when nothing is playing (issue 26): texts up to this long
# (about 15 s of speech, synthesised in 10-30 ms); longer ones go through the player only.
HERE_MAX_CHARS = 240
# ... and its first block is this long: time for the woken player to write the next one (it
# waited up to 13 ms for a processor, rarely more), short enough that a cut in the first
# milliseconds of a sentence leaves at most this much on an output that cannot drop it.
FIRST_BLOCK_MS = 16
FIRST_BLOCK_MIN_MS = 8  # a shorter first piece (the onset at a chunk's end) waits for one more


class SinkFailed(Exception):
    """The output failed while playing (device unplugged): the player replaces it."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


class _Prepended:
    """An engine stream whose first chunk was already taken (None: the stream was empty)."""

    def __init__(self, first: tuple[Any, int] | None, rest: Iterator[tuple[Any, int]]) -> None:
        self._first = first
        self._rest = rest

    def __iter__(self) -> _Prepended:
        return self

    def __next__(self) -> tuple[Any, int]:
        if self._first is not None:
            first, self._first = self._first, None
            return first
        return next(self._rest)

    def close(self) -> None:
        close = getattr(self._rest, "close", None)
        if close is not None:
            close()


class _SaidHere:
    """An item whose synthesis runs in the thread that asked for it (`Player.submit`).

    On a loaded machine a thread that is woken waits for a processor: 3 to 13 ms beside two
    busy processes (measured, issue 26), where libespeak-ng gives its first 20 ms of sound in
    0.2 ms. So when nothing is playing, the asking thread, which is running already,
    synthesises the sentence (a few milliseconds: espeak-ng is some 500 times faster than
    speech), hands the first FIRST_BLOCK_MS of sound to the output itself, as one block, and
    the rest here; the player, woken meanwhile, writes the rest in BLOCK_MS blocks. (An
    output that could make it wait, a device with no room, gets the first block from the
    player too: the asking thread never waits for a device.) `fallback`: nothing was said (a voice the engine refuses): the player says it
    the usual way."""

    TIMEOUT = 10.0

    def __init__(self, item: Item) -> None:
        self.item = item
        self.closed = False  # the player is done with it: synthesis stops at its next chunk
        self.fallback = False
        self.handed = False  # the player has it (Player._hand)
        self._cond = threading.Condition()
        self._chunks: deque[tuple[Any, int]] = deque()
        self._over = False
        self._error: BaseException | None = None

    # the asking thread
    def put(self, chunk: Any, sr: int) -> None:
        with self._cond:
            self._chunks.append((chunk, sr))
            self._cond.notify_all()

    def end(self, error: BaseException | None = None, fallback: bool = False) -> None:
        with self._cond:
            self._over, self._error, self.fallback = True, error, fallback
            self._cond.notify_all()

    # the player
    def __iter__(self) -> _SaidHere:
        return self

    def __next__(self) -> tuple[Any, int]:
        from companion.outputs.speech.base import SpeechError

        with self._cond:
            if not self._cond.wait_for(lambda: self._chunks or self._over, timeout=self.TIMEOUT):
                raise SpeechError(f"the synthesis gave nothing for {self.TIMEOUT:.0f} s")
            if self._chunks:
                return self._chunks.popleft()
            if self._error is not None:
                raise self._error
            raise StopIteration

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._chunks.clear()


class Player:
    """One thread feeding one sink from a `SpeechQueue` (see there for the priorities).

    `is_speaking()` is True from the moment something is asked until nothing is left to
    say; `add_listener(fn)` calls `fn(True)` / `fn(False)` on each change (from the thread
    that made it: keep `fn` short, it may call the player again).
    """

    def __init__(
        self,
        engine: SpeechEngine,
        sink: Sink,
        settings: Settings,
        on_sink_error: Callable[[Sink, BaseException], Sink] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.engine = engine
        self.sink = sink
        self.settings = settings
        self.on_sink_error = on_sink_error
        self.queue = SpeechQueue(clock)
        self._cond = threading.Condition()
        self._listeners: list[Callable[[bool], None]] = []
        self._published = False  # what the listeners were last told
        self._told = False  # the same, once they have all been called
        self._publish_lock = threading.RLock()
        self._here: _SaidHere | None = None  # an item begun by the asking thread, for the player
        self.errors: list[str] = []
        self._thread = threading.Thread(target=self._run, name=f"player-{sink.kind}", daemon=True)
        self._thread.start()

    # --- called by the speaker (any thread) ---
    def submit(
        self,
        text: str,
        priority: Priority,
        earcon: str | None,
        lang: str,
        segments: list[tuple[str, Any]] | None = None,
    ) -> Item:
        with self._cond:
            item = self.queue.new_item(text, priority, earcon, lang, segments)
            if isinstance(self.sink, RecordingSink):
                self.sink.record(item)
            self._apply(self.queue.submit(item))
            here = self._say_here_or_not(item)
        if here is not None:  # the player is woken once the first block is out (`_hand`)
            self._say_here(here)
        # The player is woken by `_publish`'s notify, the last thing done here (issue 26):
        # woken earlier, it waited for this lock and for Python's while the listeners ran.
        self._publish()
        return item

    def _say_here_or_not(self, item: Item) -> _SaidHere | None:
        """(Under self._cond) When nothing is playing or waiting, a plain sentence is begun
        by the asking thread (`_SaidHere`); None: the player says it."""
        q = self.queue
        if not (self.engine.pushes_audio and item.earcon is None and item.segments is None
                and item.text.strip() and len(item.text) <= HERE_MAX_CHARS
                and q.current is None and q.pending == (item,) and self._here is None and not q.closed):
            return None
        q.start_next()
        self._here = _SaidHere(item)
        return self._here

    def _hand(self, here: _SaidHere) -> None:
        """The player takes over `here` (it was left asleep until now: woken, it would have
        competed with this thread for a processor and for Python's lock)."""
        with self._cond:
            if not here.handed:
                here.handed = True
                self._cond.notify_all()

    def _say_here(self, here: _SaidHere) -> None:
        """In the asking thread: synthesise `here.item`, the first audible chunk straight to
        the sink (nothing else writes to it: nothing is playing), the rest to the player."""
        import numpy as np

        item = here.item
        rate, voice, _volume = self.settings(item.lang)
        trimmer = Trimmer()
        started = False
        first: list[np.ndarray] = []  # the first piece, while shorter than FIRST_BLOCK_MIN_MS
        first_sr = [0]

        def begin(sr: int) -> None:
            nonlocal started
            started = True
            piece = first[0] if len(first) == 1 else np.concatenate(first)
            first.clear()
            cut = sr * FIRST_BLOCK_MS // 1000
            head, rest = piece[:cut], piece[cut:]
            self.sink.begin(item)
            _, _, volume = self.settings(item.lang)
            if self.sink.ready(len(head), sr):  # never waits here for a device
                self._to_sink(head * volume if volume != 1.0 else head, sr)
            else:
                here.put(head, sr)
            if len(rest):
                here.put(rest, sr)
            self._hand(here)

        def on_chunk(chunk: np.ndarray, sr: int) -> bool:
            if item.cut or here.closed:
                return False
            for piece, piece_sr in trimmer.push(chunk, sr):
                if started:
                    here.put(piece, piece_sr)
                    continue
                first.append(piece)
                first_sr[0] = piece_sr
                if sum(len(p) for p in first) >= piece_sr * FIRST_BLOCK_MIN_MS // 1000:
                    begin(piece_sr)
            return True

        try:
            self.engine.speak_into(item.text, item.lang, on_chunk, rate=rate, voice=voice, hold_gil=False)
            if first and not item.cut:  # a sentence shorter than FIRST_BLOCK_MIN_MS
                begin(first_sr[0])
        except Exception as exc:  # noqa: BLE001 - the player handles it, in its thread
            here.end(exc if started else None, fallback=not started)
        except BaseException:  # KeyboardInterrupt in the asking thread: the player stops it too
            here.end()
            raise
        else:
            here.end()
        finally:
            self._hand(here)  # cut, refused or silent before any sound: the player ends it

    def interrupt(self) -> None:
        """New input: cut TEXT and NOTIFICATION, the one being said and those queued."""
        with self._cond:
            self._apply(self.queue.interrupt())
            self._cond.notify_all()
        self._publish()

    def wait(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self.queue.busy or self._told:  # (the listeners hear "done" before this returns)
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cond.wait(remaining if remaining is not None else 0.5)
            return True

    @property
    def busy(self) -> bool:
        with self._cond:
            return self.queue.busy

    def is_speaking(self) -> bool:
        return self.busy

    def add_listener(self, fn: Callable[[bool], None]) -> None:
        with self._publish_lock:
            self._listeners.append(fn)

    def remove_listener(self, fn: Callable[[bool], None]) -> None:
        with self._publish_lock:
            with contextlib.suppress(ValueError):
                self._listeners.remove(fn)

    def close(self, timeout: float = 2.0) -> None:
        with self._cond:
            self._apply(self.queue.close())
            self._cond.notify_all()
        self._thread.join(timeout)
        self.sink.close()
        self._publish()

    # --- applying the queue's decisions (under self._cond) ---
    def _apply(self, d: Decision) -> None:
        for item in d.over:
            self._finish(item)
        if d.stop is not None:
            self.sink.wake()
            if not self.engine.produces_audio:
                # outside our lock: a speech server may be slow to answer
                threading.Thread(target=self._stop_engine, name="engine-stop", daemon=True).start()

    def _stop_engine(self) -> None:
        with contextlib.suppress(Exception):  # a failing stop must not stop the program
            self.engine.stop()

    def _finish(self, item: Item) -> None:
        if not item.done.is_set():
            self.sink.end(item)
            item.done.set()

    def _publish(self) -> None:
        """Tell the listeners whether something is being said, when that changed."""
        with self._publish_lock:
            now = self.busy
            if now != self._published:
                self._published = now
                for fn in list(self._listeners):
                    try:
                        fn(now)
                    except Exception as exc:  # noqa: BLE001 - a listener must not stop the speech
                        self.errors.append(f"listener: {type(exc).__name__}: {exc}")
            with self._cond:
                self._told = self._published
                self._cond.notify_all()

    # --- the thread ---
    def _run(self) -> None:
        raise_priority()  # a sound thread: ahead of the rest when the system allows it
        while True:
            with self._cond:
                while True:  # an item begun by the asking thread is taken once handed over
                    here = self._here
                    if here is not None:
                        if here.handed:
                            break
                    elif self.queue.pending or self.queue.closed:
                        break
                    self._cond.wait()
                self._here = None
                item = here.item if here is not None else self.queue.start_next()
                if item is None:  # closed, nothing left
                    return
            try:
                if here is not None:
                    self._play_here(item, here)
                else:
                    self._play(item)
            except SinkFailed as exc:
                self.errors.append(f"output: {exc.cause}")
                self._replace_sink(exc.cause)
            except Exception as exc:  # noqa: BLE001 - keep speaking whatever happens
                self.errors.append(f"{type(exc).__name__}: {exc}")
            finally:
                with self._cond:
                    self.queue.finish(item)
                    self._finish(item)
                    self._cond.notify_all()
                self._publish()

    def _play_here(self, item: Item, here: _SaidHere) -> None:
        """The rest of an item begun by the asking thread (its first chunk is out)."""
        try:
            for chunk, sr in here:
                if not self._write(item, chunk, sr):
                    break
        finally:
            here.close()
            if item.cut and not here.fallback:
                self.sink.discard()
        if here.fallback and not item.cut:
            self._play(item)

    def _replace_sink(self, exc: BaseException) -> None:
        old = self.sink
        self.sink = self.on_sink_error(old, exc) if self.on_sink_error is not None else NullSink()
        with contextlib.suppress(Exception):  # it is broken already
            old.close()

    def _to_sink(self, block: np.ndarray, sr: int) -> None:
        try:
            self.sink.write(block, sr)
        except Exception as exc:  # noqa: BLE001 - PortAudioError, OSError: the device is gone
            raise SinkFailed(exc) from exc

    def _write(self, item: Item, samples: np.ndarray, sr: int) -> bool:
        """Write in BLOCK_MS blocks; False as soon as the item is cut."""
        step = max(1, sr * BLOCK_MS // 1000)
        for i in range(0, len(samples), step):
            if item.cut:
                return False
            block = samples[i : i + step]
            _, _, volume = self.settings(item.lang)  # volume changes are heard at once
            if volume != 1.0:
                block = block * volume
            self._to_sink(block, sr)
        return not item.cut

    def _silence(self, item: Item, ms: int) -> bool:
        import numpy as np

        sr = 22050
        return self._write(item, np.zeros(sr * ms // 1000, dtype=np.float32), sr)

    def _stream(self, text: str, lang: str, rate: int, voice: str | None) -> Trimmed:
        """The engine's stream of `text`, its leading silence trimmed as it comes."""
        return Trimmed(self.engine.stream(text, lang, rate=rate, voice=voice, volume=1.0))

    def _open(self, text: str, lang: str, rate: int, voice: str | None,
              early: Trimmed | None = None) -> Iterator[tuple[np.ndarray, int]]:
        """The stream with its first audible chunk already made (so errors show here).

        `early`: the same stream started beforehand (while an earcon played). A voice the
        engine refuses (a profile naming a voice that is not installed here) falls back to
        the language's default voice rather than to silence."""
        from companion.outputs.speech.base import SpeechError

        if early is not None:
            try:
                return _Prepended(next(early, None), early)
            except Exception:  # noqa: BLE001 - again, with the fallback below
                early.close()
        stream: Trimmed | None = None
        try:
            stream = self._stream(text, lang, rate, voice)
            first = next(stream, None)
        except SpeechError:
            if stream is not None:
                stream.close()
            if voice is None:
                raise
            self.errors.append(f"voice {voice!r} refused; default voice used")
            stream = self._stream(text, lang, rate, None)
            first = next(stream, None)
        return _Prepended(first, stream)

    def _play(self, item: Item) -> None:
        self.sink.begin(item)
        rate, voice, _volume = self.settings(item.lang)
        segments: list[tuple[str, Any]] = item.segments if item.segments is not None else [("text", item.text)]
        streams: list[Any] = []  # to close at the end, whatever happens
        early: Trimmed | None = None  # synthesis of the first sentence, started before the earcon
        try:
            if item.earcon:
                from companion.outputs.earcons import earcon

                try:
                    samples, sr = earcon(item.earcon)
                except KeyError:
                    samples, sr = None, 0
                first_text = segments[0][1] if segments and segments[0][0] == "text" else ""
                if self.engine.produces_audio and not self.engine.pushes_audio and str(first_text).strip():
                    early = self._stream(str(first_text), item.lang, rate, voice)
                    streams.append(early)
                if samples is not None and not self._write(item, samples, sr):
                    return
            for kind, value in segments:
                if item.cut:
                    break
                if kind == "pause":
                    if not self._silence(item, int(value)):
                        break
                    continue
                # a spelled part is said character by character, a little slower (#29)
                say_rate = max(80, int(rate * 0.8)) if kind == "spell" else rate
                if kind == "audio":  # recorded sound: (samples, rate)
                    recorded, rec_sr = value
                    if not self._write(item, recorded, int(rec_sr)):
                        break
                    continue
                text = str(value)
                if not text.strip():
                    continue
                if not self.engine.produces_audio:
                    self._speak_by_engine(item, text, say_rate, voice)
                    continue
                if self.engine.pushes_audio:
                    if not self._push(item, text, item.lang, say_rate, voice):
                        break
                    continue
                stream = self._open(text, item.lang, say_rate, voice, early if say_rate == rate else None)
                early = None
                streams.append(stream)
                for chunk, sr in stream:
                    if not self._write(item, chunk, sr):
                        break
        finally:
            if item.cut:
                self.sink.discard()
            for st in streams:
                close = getattr(st, "close", None)
                if close is not None:
                    close()

    def _push(self, item: Item, text: str, lang: str, rate: int, voice: str | None) -> bool:
        """The engine synthesises in this thread and its chunks are written as they come
        (issue 26: no hand-off between synthesis and output). False: the item was cut. A
        voice the engine refuses falls back to the language's default, as in `_open`."""
        from companion.outputs.speech.base import SpeechError

        def into(trimmer: Trimmer) -> Callable[[np.ndarray, int], bool]:
            def on_chunk(chunk: np.ndarray, sr: int) -> bool:
                for piece, piece_sr in trimmer.push(chunk, sr):
                    if not self._write(item, piece, piece_sr):
                        return False
                return not item.cut
            return on_chunk

        try:
            self.engine.speak_into(text, lang, into(Trimmer()), rate=rate, voice=voice)
        except SpeechError:
            if voice is None or item.cut:
                raise
            self.errors.append(f"voice {voice!r} refused; default voice used")
            self.engine.speak_into(text, lang, into(Trimmer()), rate=rate, voice=None)
        return not item.cut

    def _speak_by_engine(self, item: Item, text: str, rate: int, voice: str | None) -> None:
        """Engines that play by themselves: wait for their "done", for at most about twice
        the time the text takes to say (a server that stalls must not stall us)."""
        done = threading.Event()
        _, _, volume = self.settings(item.lang)
        self.engine.speak(
            text, item.lang, rate=rate, voice=voice, volume=volume,
            priority=int(item.priority), done=done.set,
        )
        limit = 3.0 + 2 * len(text) * 60.0 / (max(rate, 80) * 6)
        deadline = time.monotonic() + limit
        while not done.is_set() and not item.cut and time.monotonic() < deadline:
            done.wait(0.005)
        if not done.is_set() and not item.cut:
            self.errors.append(f"{self.engine.name} did not say when it finished ({limit:.0f} s)")
