"""Sound outputs (sinks): where the player's blocks of audio go.

Sinks take float32 mono blocks (a few milliseconds each) at any sample rate:
* `DeviceSink`: a sound device through sounddevice (PortAudio), all channels or only the
  left or right one (a headset splitter used as a private channel);
* `FileSink`: everything said is appended to one WAV file (no sound card, or on purpose);
* `NullSink`: nothing (no sound card and no file: silence, and the session says so);
* `RecordingSink`: in memory, for tests: each item's text, priority, whether it was cut, and
  the blocks handed to it with their times; paced like a real device by default.

A paced sink behaves as a device with a one-block buffer: `write` returns when the block
starts to be heard. `wake()` (any thread) makes a pacing wait return at once: the player
was cut and will `discard()`.
"""

from __future__ import annotations

import contextlib
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.narration import Priority

from .wav import appendable_layout, wav_header

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .policy import Item


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


class Pacer:
    """Makes writes take the time their audio lasts, as a sound device does: a block is
    accepted when the previous one starts to be heard. `wake()` ends a wait at once (and
    every wait until `reset()`)."""

    def __init__(self) -> None:
        self._clock = 0.0
        self._woken = threading.Event()

    def wait(self, seconds: float) -> float:
        """Wait until the block of `seconds` just handed starts to be heard; returns when it
        does (perf_counter time)."""
        now = time.perf_counter()
        start = max(self._clock, now)
        self._clock = start + seconds
        delay = start - time.perf_counter()
        if delay > 0:
            self._woken.wait(delay)
        return start

    def wake(self) -> None:
        self._woken.set()

    def idle(self) -> bool:
        """Everything handed has started to be heard: a block handed now is not waited for."""
        return self._clock <= time.perf_counter()

    def rearm(self) -> None:
        """A new item: waits wait again (a wake for the last item is forgotten)."""
        self._woken.clear()

    def reset(self) -> None:
        """What was handed and not heard yet is dropped: the next block plays at once."""
        self._woken.clear()
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

    def ready(self, frames: int, sr: int) -> bool:
        """A write of `frames` now would return at once (then the thread asking to speak
        may write a sentence's first block itself, issue 26); False when unsure."""
        return False

    def wake(self) -> None:  # noqa: B027 - optional hook
        """From any thread: the item playing was cut; a write waiting for the device may
        return now (the player then discards). Must not block."""

    def end(self, item: Item) -> None:  # noqa: B027 - optional hook
        """The item is over (said, cut or dropped)."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the output; nothing to do for most sinks."""


class NullSink(Sink):
    """Silence: the audio is dropped (no sound card and no file asked for)."""

    kind = "null"

    def write(self, block: np.ndarray, sr: int) -> None:
        """Nothing is heard: the block is dropped."""

    def ready(self, frames: int, sr: int) -> bool:
        return True


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
        self._pacer = Pacer()
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists() and self.path.stat().st_size > 0:
                self._fh = self.path.open("r+b")
                try:
                    self.sample_rate, self._data_at, self._data_size = appendable_layout(self._fh)
                except ValueError as exc:
                    self._fh.close()
                    raise AudioUnavailable(f"{self.path} {exc}; it is left alone") from None
                self._fh.seek(self._data_at + self._data_size)
                self._fh.truncate()
            else:
                self._fh = self.path.open("w+b")
                self.sample_rate = sample_rate
                self._fh.write(wav_header(sample_rate, 0))
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

    def wake(self) -> None:
        self._pacer.wake()

    def ready(self, frames: int, sr: int) -> bool:
        return not self.realtime or self._pacer.idle()

    def begin(self, item: Item) -> None:
        self._pacer.rearm()

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
        self._pacer = Pacer()
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
        self._pacer.rearm()

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

    def wake(self) -> None:
        self._pacer.wake()

    def ready(self, frames: int, sr: int) -> bool:
        return not self.realtime or self._pacer.idle()

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

    def ready(self, frames: int, sr: int) -> bool:
        """PortAudio has room for the block now (a stalled sound server has none)."""
        if self.stalled or not self._lock.acquire(blocking=False):
            return False
        try:
            need = int(round(frames * self.sample_rate / sr))
            return int(self._stream.write_available) >= need
        except Exception:  # noqa: BLE001 - PortAudioError: the player's write will tell
            return False
        finally:
            self._lock.release()

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
