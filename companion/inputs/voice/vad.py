"""Where an utterance starts and ends: webrtcvad over 30 ms frames, gated by the level above
the room's noise floor, with a short ring buffer so the first syllable is kept, and a
silence hangover that ends the utterance.

webrtcvad alone takes steady noise for speech: with white or pink noise at 10 dB SNR nearly
every frame is "speech", so the gap between two commands is never silence and they merge
into one utterance (measured, `bench/voice_latency.py --vad`: 47 of 120 noisy and clean
pairs split right). So a frame counts as voiced only when webrtcvad says so *and* its level
in the speech band (250–4000 Hz, where a fan's or a crowd's low rumble weighs little) is
`margin_db` above the floor — the quietest frame of the last `floor_s` seconds (minimum
statistics: the floor follows the noise down at once and up within `floor_s`). In a quiet
room the floor is far below any voice and nothing changes.

The hangover adapts to the room: after a clear voice (its loudest frame `quiet_db` above the
floor) `quiet_end_ms` of silence ends the utterance, else `end_ms` (noise hides the quiet
ends of words, which a short hangover would cut off).

`Segmenter.feed(frame)` takes 30 ms of 16-bit PCM at 16 kHz (480 samples) and returns an
`Utterance` when one has just ended; its `decided` time is the moment the VAD decided, and
`last_voiced` the time of its last voiced frame (for the latency figures).
"""

from __future__ import annotations

import collections
import math
from dataclasses import dataclass

import numpy as np

RATE = 16000
FRAME_MS = 30
FRAME = RATE * FRAME_MS // 1000  # 480 samples
_FREQS = np.fft.rfftfreq(FRAME, 1.0 / RATE)
_WINDOW = np.hanning(FRAME)


@dataclass
class Utterance:
    pcm: np.ndarray
    start: float  # stream time (s) of its first sample
    last_voiced: float  # stream time of the end of its last voiced frame
    decided: float  # stream time when the VAD decided it had ended


def band_level(frame: np.ndarray, band: tuple[float, float] = (250.0, 4000.0)) -> float:
    """The frame's power in `band`, in dB (of int16 units squared)."""
    spec = np.abs(np.fft.rfft(frame.astype(np.float64) * _WINDOW[:len(frame)], FRAME)) ** 2
    mask = (_FREQS >= band[0]) & (_FREQS <= band[1])
    return 10.0 * math.log10(float(np.sum(spec[mask])) / FRAME + 1.0)


class Segmenter:
    """Voice activity -> utterances. Times are stream seconds (samples / 16 000).

    `margin_db=None` turns the noise-floor gate off (webrtcvad alone: the old behaviour)."""

    def __init__(self, aggressiveness: int = 2, start_frames: int = 3, start_window: int = 6,
                 end_ms: int = 360, quiet_end_ms: int | None = 240, quiet_db: float = 30.0,
                 pre_ms: int = 300, max_s: float = 12.0, min_voiced: int = 5,
                 margin_db: float | None = 4.0, floor_s: float = 3.0, babble_db: float | None = None,
                 babble_pct: float = 20.0, babble_spread_db: float = 2.5) -> None:
        import webrtcvad

        self.vad = webrtcvad.Vad(aggressiveness)
        self.start_frames, self.start_window = start_frames, start_window
        self.end_frames = max(1, end_ms // FRAME_MS)
        self.quiet_end_frames = self.end_frames if quiet_end_ms is None else max(1, quiet_end_ms // FRAME_MS)
        self.quiet_db = quiet_db
        self.max_frames = int(max_s * 1000 / FRAME_MS)
        self.min_voiced = min_voiced
        self.margin_db = margin_db
        self.babble_db, self.babble_pct, self.babble_spread_db = babble_db, babble_pct, babble_spread_db
        self.levels: collections.deque[float] = collections.deque(maxlen=max(1, int(floor_s * 1000 / FRAME_MS)))
        self.room: collections.deque[float] = collections.deque(maxlen=self.levels.maxlen)
        self.pre: collections.deque[tuple[np.ndarray, bool]] = collections.deque(maxlen=max(start_window, pre_ms // FRAME_MS))
        self.frames: list[np.ndarray] = []
        self.in_speech = False
        self.silent = 0
        self.voiced = 0
        self.peak = -math.inf  # the loudest voiced frame of the utterance under way, dB over the floor
        self.t = 0.0  # stream time at the end of the last frame fed
        self.start = 0.0
        self.last_voiced = 0.0
        self._rest = np.zeros(0, np.int16)

    @property
    def floor(self) -> float:
        """The room's noise floor now (dB), the quietest recent frame."""
        return min(self.levels) if self.levels else 0.0

    def reset(self) -> None:
        """Forget any utterance under way (the companion started speaking). The noise floor
        is kept: it is the room's, not the utterance's."""
        self.pre.clear()
        self.frames = []
        self.in_speech = False
        self.silent = self.voiced = 0
        self.peak = -math.inf

    def feed_samples(self, pcm: np.ndarray) -> list[Utterance]:
        """Any number of samples; whole frames are cut and fed."""
        data = np.concatenate([self._rest, pcm.astype(np.int16, copy=False)])
        out = []
        n = len(data) // FRAME
        for i in range(n):
            got = self.feed(data[i * FRAME:(i + 1) * FRAME])
            if got is not None:
                out.append(got)
        self._rest = data[n * FRAME:]
        return out

    def note_floor(self, pcm: np.ndarray) -> None:
        """Sound not listened to (push-to-talk closed): only the noise floor learns from it."""
        data = np.concatenate([self._rest, pcm.astype(np.int16, copy=False)])
        n = len(data) // FRAME
        if self.margin_db is not None:
            for i in range(n):
                self.levels.append(band_level(data[i * FRAME:(i + 1) * FRAME]))
        self._rest = data[n * FRAME:]
        self.t += n * FRAME / RATE

    def is_voiced(self, frame: np.ndarray) -> tuple[bool, float]:
        """(voiced, dB above the floor) for one frame; the frame's level joins the floor's history."""
        voiced = self.vad.is_speech(frame.astype("<i2").tobytes(), RATE)
        return self.gate(frame, voiced)

    def gate(self, frame: np.ndarray, voiced: bool) -> tuple[bool, float]:
        """The level gate: a voiced frame counts when it stands `margin_db` above the floor
        and, when `babble_db` is set, `babble_db` above the room's usual level (the
        `babble_pct` percentile of the last `floor_s`, when it stands `babble_spread_db`
        above the floor): at a table where others talk, the
        quietest frame is far below the chatter, which webrtcvad (and Silero) rightly
        hear as speech, so the floor alone let every frame through and a whole stream of
        babble was one utterance (`bench/voice_latency.py --vad-compare`)."""
        if self.margin_db is None:
            return voiced, math.inf
        level = band_level(frame)
        above = level - (self.floor if self.levels else level)
        usual = float(np.percentile(self.room, self.babble_pct)) if self.babble_db is not None and self.room else None
        self.levels.append(level)
        if not self.in_speech:
            # the room's usual level is learnt outside utterances only: during a 5 s equation
            # the speaker's own voice became the "usual" level and its quieter words were cut
            self.room.append(level)
        ok = voiced and above >= self.margin_db
        if ok and usual is not None and self.babble_db is not None and usual - self.floor >= self.babble_spread_db:
            # only where the room's level wanders as chatter does: steady noise (a fan, white
            # or pink: usual level within 1.2 dB of the floor) keeps the floor alone, or a
            # command at 5 dB SNR would not pass
            ok = level - usual >= self.babble_db
        return ok, above

    def feed(self, frame: np.ndarray) -> Utterance | None:
        self.t += len(frame) / RATE
        voiced, above = self.is_voiced(frame)
        if not self.in_speech:
            self.pre.append((frame, voiced))
            recent = list(self.pre)[-self.start_window:]
            if sum(v for _f, v in recent) >= self.start_frames:
                self.in_speech = True
                self.frames = [f for f, _v in self.pre]
                self.start = self.t - len(self.frames) * FRAME / RATE
                self.voiced = sum(v for _f, v in self.pre)
                self.last_voiced = self.t
                self.silent = 0
                self.peak = above
                self.pre.clear()
            return None
        self.frames.append(frame)
        if voiced:
            self.silent = 0
            self.voiced += 1
            self.last_voiced = self.t
            self.peak = max(self.peak, above)
        else:
            self.silent += 1
        if self.silent >= self.silence_to_end() or len(self.frames) >= self.max_frames:
            return self._close()
        return None

    def silence_to_end(self) -> int:
        """The frames of silence that end the utterance under way (after a clear voice or not)."""
        return self.quiet_end_frames if self.peak >= self.quiet_db else self.end_frames

    def end_now(self) -> Utterance | None:
        """End the utterance under way here, before the full silence (the listener heard a
        whole line that nothing goes on from: `Listener.grammar_end_ms`)."""
        return self._close() if self.in_speech and self.frames else None

    def flush(self) -> Utterance | None:
        """The end of the stream ends an utterance under way."""
        if self.in_speech and self.frames:
            return self._close()
        return None

    def _close(self) -> Utterance | None:
        frames, voiced = self.frames, self.voiced
        start, last = self.start, self.last_voiced
        self.reset()
        if voiced < self.min_voiced:
            return None  # a click, a cough: too short to be a command
        return Utterance(np.concatenate(frames), start, last, self.t)
