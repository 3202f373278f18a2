"""The one audio path: sound outputs (sinks) and the priority player that feeds them.

Sinks take float32 mono blocks of 10 ms at any sample rate:
* `DeviceSink`: a sound device through sounddevice (PortAudio), all channels or only the
  left or right one (a headset splitter used as a private channel);
* `FileSink`: everything said is appended to one WAV file (no sound card, or on purpose);
* `NullSink`: nothing (no sound card and no file: silence, and the session says so);
* `RecordingSink`: in memory, for tests: each item's text, priority, whether it was cut, and
  the frames handed to it with their times; paced like a real device by default.

The `Player` is one thread per output. It takes items from a queue ordered by priority
(speech-dispatcher's model), synthesises them with the speech engine, and writes 10 ms
blocks, checking between blocks whether the item was cut: a cut stops the sound within one
block (plus the device's own buffer, which is discarded).
"""

from __future__ import annotations

import contextlib
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.narration import Priority

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .speech import SpeechEngine

BLOCK_MS = 10
CUT_BY_INPUT = (Priority.TEXT, Priority.NOTIFICATION)


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


class AudioUnavailable(Exception):
    """This output cannot be used (no device, bad name, device busy); `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def resample(samples: np.ndarray, sr: int, to_sr: int) -> np.ndarray:
    """Linear interpolation: good enough for speech and earcons between 16 and 48 kHz."""
    import numpy as np

    if sr == to_sr or len(samples) == 0:
        return samples
    n = int(round(len(samples) * to_sr / sr))
    x = np.linspace(0.0, len(samples) - 1, n)
    return np.interp(x, np.arange(len(samples)), samples).astype(np.float32)


# --- sinks -------------------------------------------------------------------------------


class _Pacer:
    """Makes writes take the time their audio lasts, as a sound device does: a block is
    accepted when the previous one starts to be heard."""

    def __init__(self) -> None:
        self._clock = 0.0

    def wait(self, seconds: float) -> None:
        now = time.perf_counter()
        start = max(self._clock, now)
        self._clock = start + seconds
        delay = start - time.perf_counter()
        if delay > 0:
            time.sleep(delay)

    def reset(self) -> None:
        self._clock = time.perf_counter()


class Sink(ABC):
    """Where audio goes: a sound device, a WAV file, nowhere, or memory (tests)."""

    kind = "null"
    realtime = False

    def begin(self, item: Item) -> None:  # noqa: B027 - optional hook
        """An item starts (its earcon or speech follows)."""

    @abstractmethod
    def write(self, block: np.ndarray, sr: int) -> None:
        """Hand one block of audio to the output (it may wait for the device)."""

    def discard(self) -> None:  # noqa: B027 - optional hook
        """Drop audio written but not yet heard (an item was cut)."""

    def end(self, item: Item) -> None:  # noqa: B027 - optional hook
        """The item is over (said, cut or dropped)."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the output; nothing to do for most sinks."""


class NullSink(Sink):
    """Silence: the audio is dropped (no sound card and no file asked for)."""

    kind = "null"

    def write(self, block: np.ndarray, sr: int) -> None:
        """Nothing is heard: the block is dropped."""


class FileSink(Sink):
    """Appends everything to one WAV file (16-bit PCM, mono). An existing file is continued.

    Written here rather than with libsndfile, whose header is not brought up to date when a
    file opened for appending is flushed: the sizes in the header are patched after each
    item, so the file is valid while the program runs (another program can read what was
    said so far) and after a crash.
    """

    kind = "file"

    def __init__(self, path: Path | str, sample_rate: int = 22050, realtime: bool = False) -> None:
        """`realtime`: write at the pace of a sound device, so that the file holds what a
        listener would have heard, cuts included (used in place of a missing device)."""
        self.path = Path(path)
        self.realtime = realtime
        self._pacer = _Pacer()
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists() and self.path.stat().st_size > 0:
                self._fh = self.path.open("r+b")
                try:
                    self.sample_rate, self._data_at, self._data_size = _wav_layout(self._fh)
                except ValueError as exc:
                    self._fh.close()
                    raise AudioUnavailable(f"{self.path} {exc}; it is left alone") from None
                self._fh.seek(self._data_at + self._data_size)
                self._fh.truncate()
            else:
                self._fh = self.path.open("w+b")
                self.sample_rate = sample_rate
                self._fh.write(_wav_header(sample_rate, 0))
                self._data_at, self._data_size = 44, 0
        except AudioUnavailable:
            raise
        except OSError as exc:  # unwritable place
            raise AudioUnavailable(f"cannot write {self.path}: {exc.strerror or exc}") from None
        self._patch()

    def write(self, block: np.ndarray, sr: int) -> None:
        import numpy as np

        data = resample(block, sr, self.sample_rate)
        pcm = (np.clip(data, -1.0, 1.0) * 32767.0).round().astype("<i2").tobytes()
        with self._lock:
            if self._fh.closed:
                return
            self._fh.write(pcm)
            self._data_size += len(pcm)
        if self.realtime:
            self._pacer.wait(len(data) / self.sample_rate)

    def discard(self) -> None:
        self._pacer.reset()

    def _patch(self) -> None:
        end = self._fh.tell()
        self._fh.seek(4)
        self._fh.write((self._data_at + self._data_size - 8).to_bytes(4, "little"))
        self._fh.seek(self._data_at - 4)
        self._fh.write(self._data_size.to_bytes(4, "little"))
        self._fh.seek(end)
        self._fh.flush()

    def end(self, item: Item) -> None:
        with self._lock:
            if not self._fh.closed:
                self._patch()

    def close(self) -> None:
        with self._lock:
            if not self._fh.closed:
                self._patch()
                self._fh.close()


def _wav_header(sr: int, data_size: int) -> bytes:
    return b"".join([
        b"RIFF", (36 + data_size).to_bytes(4, "little"), b"WAVE",
        b"fmt ", (16).to_bytes(4, "little"), (1).to_bytes(2, "little"), (1).to_bytes(2, "little"),
        sr.to_bytes(4, "little"), (sr * 2).to_bytes(4, "little"), (2).to_bytes(2, "little"),
        (16).to_bytes(2, "little"),
        b"data", data_size.to_bytes(4, "little"),
    ])


def _wav_layout(fh: Any) -> tuple[int, int, int]:
    """(sample rate, offset of the data, data size) of a 16-bit mono PCM WAV whose data
    chunk is the last one; ValueError otherwise."""
    fh.seek(0, 2)
    size = fh.tell()
    fh.seek(0)
    head = fh.read(12)
    if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
        raise ValueError("is not a WAV file")
    pos, sr = 12, None
    while pos + 8 <= size:
        fh.seek(pos)
        chunk = fh.read(8)
        cid, clen = chunk[:4], int.from_bytes(chunk[4:8], "little")
        if cid == b"fmt ":
            fmt = fh.read(16)
            tag, channels = int.from_bytes(fmt[0:2], "little"), int.from_bytes(fmt[2:4], "little")
            bits = int.from_bytes(fmt[14:16], "little")
            if (tag, channels, bits) != (1, 1, 16):
                raise ValueError("is not a 16-bit mono PCM WAV file")
            sr = int.from_bytes(fmt[4:8], "little")
        elif cid == b"data":
            if sr is None:
                raise ValueError("has no format before its data")
            data_size = min(clen, size - pos - 8) if clen else size - pos - 8
            data_size -= data_size % 2
            if pos + 8 + data_size + (data_size & 1) < size - 1 and clen:
                raise ValueError("has chunks after its data")
            return sr, pos + 8, data_size
        pos += 8 + clen + (clen & 1)
    raise ValueError("has no data")


@dataclass
class RecordedItem:
    text: str
    priority: Priority
    earcon: str | None
    lang: str
    submitted: float  # time.perf_counter() when say() was called
    started: float | None = None  # when the player began it
    ended: float | None = None
    cut: bool = False  # stopped part-way, or removed from the queue by interrupt()
    dropped: bool = False  # a notification never said because something else was waiting
    blocks: list[tuple[float, int, int]] = field(default_factory=list)  # (time, frames, sr)

    @property
    def first_frame(self) -> float | None:
        return self.blocks[0][0] if self.blocks else None

    @property
    def last_frame(self) -> float | None:
        return self.blocks[-1][0] if self.blocks else None

    @property
    def seconds(self) -> float:
        return sum(n / sr for _, n, sr in self.blocks)


class RecordingSink(Sink):
    """In memory, for tests. With `realtime` (default) each write waits for the block's time,
    as a sound device does, so that cutting and timing behave as they would on a speaker."""

    kind = "recording"

    def __init__(self, realtime: bool = True, keep_audio: bool = True) -> None:
        self.realtime = realtime
        self.keep_audio = keep_audio
        self.items: list[RecordedItem] = []
        self.audio: list[tuple[np.ndarray, int]] = []
        self._by_item: dict[Item, RecordedItem] = {}
        self._current: RecordedItem | None = None
        self._pacer = _Pacer()
        self._lock = threading.Lock()

    def record(self, item: Item) -> RecordedItem:
        """Called by the player when an item is queued, so even dropped items are seen."""
        with self._lock:
            rec = self._by_item.get(item)
            if rec is None:
                rec = RecordedItem(item.text, item.priority, item.earcon, item.lang, item.submitted)
                self._by_item[item] = rec
                self.items.append(rec)
            return rec

    def begin(self, item: Item) -> None:
        rec = self.record(item)
        rec.started = time.perf_counter()
        self._current = rec

    def write(self, block: np.ndarray, sr: int) -> None:
        now = time.perf_counter()
        if self._current is not None:
            self._current.blocks.append((now, len(block), sr))
        if self.keep_audio:
            self.audio.append((block.copy(), sr))
        if self.realtime:
            self._pacer.wait(len(block) / sr)

    def discard(self) -> None:
        self._pacer.reset()

    def end(self, item: Item) -> None:
        rec = self.record(item)
        rec.ended = time.perf_counter()
        rec.cut = item.cut
        rec.dropped = item.dropped
        if self._current is rec:  # (items removed from the queue end while another plays)
            self._current = None

    def texts(self, said_only: bool = False) -> list[str]:
        return [r.text for r in self.items if not (said_only and (r.cut or r.dropped))]


class DeviceSink(Sink):
    """A sound device (PortAudio through sounddevice), or one channel of it.

    `device`: None for the default device, an index, or (part of) a device name.
    `channel`: None (mono sound on every channel), "left" or "right" (only that one).
    """

    kind = "device"
    realtime = True
    PREFERRED_RATE = 22050
    STALL_SECONDS = 3.0

    def __init__(self, device: int | str | None = None, channel: str | None = None) -> None:
        try:
            import sounddevice as sd
        except OSError as exc:  # libportaudio2 missing
            raise AudioUnavailable(f"PortAudio is not installed ({exc})") from None
        self._sd = sd
        self.channel = channel
        try:
            info = sd.query_devices(device, kind="output")
        except (ValueError, sd.PortAudioError) as exc:
            raise AudioUnavailable(_reason(exc, device)) from None
        self.device_name = str(info["name"])
        self.device_index = int(info["index"]) if "index" in info else None
        max_ch = int(info["max_output_channels"])
        if max_ch < 1:
            raise AudioUnavailable(f"{self.device_name} has no output channel")
        if channel is not None and max_ch < 2:
            raise AudioUnavailable(f"{self.device_name} has only one channel, no {channel} side")
        self.channels = 2 if (channel is not None or max_ch >= 2) else 1
        stream = None
        errors = []
        for rate in (self.PREFERRED_RATE, int(info["default_samplerate"] or 0) or 48000):
            try:
                stream = sd.OutputStream(
                    samplerate=rate,
                    channels=self.channels,
                    dtype="float32",
                    device=self.device_index if self.device_index is not None else device,
                    latency="low",
                )
                stream.start()
                self.sample_rate = rate
                break
            except (sd.PortAudioError, ValueError) as exc:
                errors.append(str(exc))
                stream = None
        if stream is None:
            raise AudioUnavailable(f"{self.device_name}: {'; '.join(errors)}")
        self._attach(stream)

    def _attach(self, stream: Any) -> None:
        """Start using an open stream, and the watchdog that frees a stalled write."""
        self._stream = stream
        self._lock = threading.Lock()
        self._writing_since: float | None = None
        self.stalled = False
        self._closing = threading.Event()
        threading.Thread(target=self._watch, name="device-watchdog", daemon=True).start()

    def _watch(self) -> None:
        # A sound server that stops answering blocks `write` for ever (seen with PulseAudio,
        # tech-stack §2.3): abort the stream so the write returns and the player falls back.
        while not self._closing.wait(0.25):
            since = self._writing_since
            if since is not None and time.monotonic() - since > self.STALL_SECONDS:
                self.stalled = True
                with contextlib.suppress(Exception):  # it is stuck already
                    self._stream.abort()
                return

    def _frame(self, block: np.ndarray) -> np.ndarray:
        import numpy as np

        out = np.zeros((len(block), self.channels), dtype=np.float32)
        if self.channel == "left":
            out[:, 0] = block
        elif self.channel == "right":
            out[:, 1] = block
        else:
            out[:, :] = block[:, None]
        return out

    def write(self, block: np.ndarray, sr: int) -> None:
        if self.stalled:
            raise AudioUnavailable(f"{self.device_name} stopped responding")
        data = self._frame(resample(block, sr, self.sample_rate))
        with self._lock:
            self._writing_since = time.monotonic()
            try:
                self._stream.write(data)
            finally:
                self._writing_since = None
        if self.stalled:
            raise AudioUnavailable(f"{self.device_name} stopped responding")

    def discard(self) -> None:
        with self._lock:
            with contextlib.suppress(Exception):  # PortAudioError: the next write will tell
                self._stream.abort()
                self._stream.start()

    def close(self) -> None:
        self._closing.set()
        if self._lock.acquire(timeout=1.0):
            try:
                with contextlib.suppress(Exception):  # closing a broken device
                    self._stream.close()
            finally:
                self._lock.release()
        else:  # a write is stuck: abort from here, never wait for it
            with contextlib.suppress(Exception):
                self._stream.abort()


def _reason(exc: BaseException, device: Any) -> str:
    text = str(exc)
    if device is None and ("-1" in text or "No output device" in text or "Error querying" in text):
        return "no sound device found"
    return text or "no sound device found"


# --- the player --------------------------------------------------------------------------


@dataclass(eq=False)
class Item:
    text: str
    priority: Priority
    earcon: str | None
    lang: str
    seq: int
    submitted: float
    cut: bool = False
    dropped: bool = False
    done: threading.Event = field(default_factory=threading.Event)
    # ("text", str), ("pause", ms) and ("audio", (samples, rate)) parts; None: `text` alone
    segments: list[tuple[str, Any]] | None = None


Settings = Callable[[str], tuple[int, str | None, float]]  # lang -> (rate, voice, volume)


class Player:
    """One thread feeding one sink from a priority queue.

    * IMPORTANT goes before everything queued, is never cut, and cuts a TEXT or NOTIFICATION
      being said;
    * MESSAGE is said in order and never cut by input;
    * TEXT is cut by `interrupt()` (new input), playing or queued;
    * NOTIFICATION is dropped when anything else is waiting or being said, and cut by any
      other item.
    """

    def __init__(
        self,
        engine: SpeechEngine,
        sink: Sink,
        settings: Settings,
        on_sink_error: Callable[[Sink, BaseException], Sink] | None = None,
    ) -> None:
        self.engine = engine
        self.sink = sink
        self.settings = settings
        self.on_sink_error = on_sink_error
        self._queue: list[Item] = []
        self._current: Item | None = None
        self._seq = 0
        self._cond = threading.Condition()
        self._closed = False
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
            self._seq += 1
            item = Item(text, Priority(priority), earcon, lang, self._seq, time.perf_counter(), segments=segments)
            if isinstance(self.sink, RecordingSink):
                self.sink.record(item)
            if self._closed:
                self._finish(item, dropped=True)
                return item
            busy = self._current is not None or bool(self._queue)
            if item.priority == Priority.NOTIFICATION and busy:
                self._finish(item, dropped=True)
                return item
            if item.priority != Priority.NOTIFICATION:
                for q in [q for q in self._queue if q.priority == Priority.NOTIFICATION]:
                    self._queue.remove(q)
                    self._finish(q, dropped=True)
                cur = self._current
                if cur is not None and (
                    cur.priority == Priority.NOTIFICATION
                    or (item.priority == Priority.IMPORTANT and cur.priority == Priority.TEXT)
                ):
                    self._cut(cur)
            self._queue.append(item)
            self._queue.sort(key=lambda q: (q.priority, q.seq))
            self._cond.notify_all()
            return item

    def interrupt(self) -> None:
        """New input: cut TEXT and NOTIFICATION, the one being said and those queued."""
        with self._cond:
            for q in [q for q in self._queue if q.priority in CUT_BY_INPUT]:
                self._queue.remove(q)
                q.cut = True
                self._finish(q)
            if self._current is not None and self._current.priority in CUT_BY_INPUT:
                self._cut(self._current)
            self._cond.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._queue or self._current is not None:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cond.wait(remaining if remaining is not None else 0.5)
            return True

    @property
    def busy(self) -> bool:
        with self._cond:
            return self._current is not None or bool(self._queue)

    def close(self, timeout: float = 2.0) -> None:
        with self._cond:
            self._closed = True
            for q in self._queue:
                q.cut = True
                self._finish(q)
            self._queue.clear()
            if self._current is not None:
                self._cut(self._current, force=True)
            self._cond.notify_all()
        self._thread.join(timeout)
        self.sink.close()

    # --- internals ---
    def _cut(self, item: Item, force: bool = False) -> None:
        if item.priority == Priority.IMPORTANT and not force:
            return
        item.cut = True
        if not self.engine.produces_audio:
            # outside our lock: a speech server may be slow to answer
            threading.Thread(target=self._stop_engine, name="engine-stop", daemon=True).start()

    def _stop_engine(self) -> None:
        with contextlib.suppress(Exception):  # a failing stop must not stop the program
            self.engine.stop()

    def _finish(self, item: Item, dropped: bool = False) -> None:
        item.dropped = item.dropped or dropped
        if not item.done.is_set():
            self.sink.end(item)
            item.done.set()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if self._closed and not self._queue:
                    return
                item = self._queue.pop(0)
                self._current = item
            try:
                self._play(item)
            except SinkFailed as exc:
                self.errors.append(f"output: {exc.cause}")
                self._replace_sink(exc.cause)
            except Exception as exc:  # noqa: BLE001 - keep speaking whatever happens
                self.errors.append(f"{type(exc).__name__}: {exc}")
            finally:
                with self._cond:
                    self._current = None
                    self._finish(item)
                    self._cond.notify_all()

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
        """Write in 10 ms blocks; False as soon as the item is cut."""
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

    def _open(self, text: str, lang: str, rate: int, voice: str | None) -> Iterator[tuple[np.ndarray, int]]:
        """The engine's stream, with its first chunk already made (so errors show here).

        A voice the engine refuses (a profile naming a voice that is not installed here)
        falls back to the language's default voice rather than to silence."""
        from .speech import SpeechError

        try:
            stream = self.engine.stream(text, lang, rate=rate, voice=voice, volume=1.0)
            first = next(stream, None)
        except SpeechError:
            if voice is None:
                raise
            self.errors.append(f"voice {voice!r} refused; default voice used")
            stream = self.engine.stream(text, lang, rate=rate, voice=None, volume=1.0)
            first = next(stream, None)
        return _Prepended(first, stream)

    def _play(self, item: Item) -> None:
        self.sink.begin(item)
        rate, voice, _volume = self.settings(item.lang)
        segments: list[tuple[str, Any]] = item.segments if item.segments is not None else [("text", item.text)]
        streams: list[Any] = []  # to close at the end, whatever happens
        early: Any = None  # synthesis of the first sentence, started before the earcon
        try:
            if item.earcon:
                from .earcons import earcon

                try:
                    samples, sr = earcon(item.earcon)
                except KeyError:
                    samples, sr = None, 0
                first_text = segments[0][1] if segments and segments[0][0] == "text" else ""
                if self.engine.produces_audio and str(first_text).strip():
                    early = self.engine.stream(str(first_text), item.lang, rate=rate, voice=voice, volume=1.0)
                    streams.append(early)
                if samples is not None and not self._write(item, samples, sr):
                    self.sink.discard()
                    return
            for kind, value in segments:
                if item.cut:
                    break
                if kind == "pause":
                    if not self._silence(item, int(value)):
                        break
                    continue
                if kind == "audio":  # recorded sound: (samples, rate)
                    recorded, rec_sr = value
                    if not self._write(item, recorded, int(rec_sr)):
                        break
                    continue
                text = str(value)
                if not text.strip():
                    continue
                if not self.engine.produces_audio:
                    self._speak_by_engine(item, text, rate, voice)
                    continue
                stream: Iterator[tuple[np.ndarray, int]]
                if early is not None:
                    try:  # errors (a refused voice) show at the first chunk
                        stream = _Prepended(next(early, None), early)
                    except Exception:  # noqa: BLE001 - again, through _open's fallback
                        stream = self._open(text, item.lang, rate, voice)
                    early = None
                else:
                    stream = self._open(text, item.lang, rate, voice)
                streams.append(stream)
                for chunk, sr in stream:
                    if not self._write(item, chunk, sr):
                        break
            if item.cut:
                self.sink.discard()
        finally:
            for st in streams:
                close = getattr(st, "close", None)
                if close is not None:
                    close()

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
