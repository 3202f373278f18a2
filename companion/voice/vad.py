"""Where an utterance starts and ends: webrtcvad over 30 ms frames, with a short ring
buffer so the first syllable is kept, and a silence hangover that ends the utterance.

`Segmenter.feed(frame)` takes 30 ms of 16-bit PCM at 16 kHz (480 samples) and returns an
`Utterance` when one has just ended; its `end_time` is the moment the VAD decided, and
`last_voiced` the time of its last voiced frame (for the latency figures).
"""

from __future__ import annotations

import collections
from dataclasses import dataclass

import numpy as np

RATE = 16000
FRAME_MS = 30
FRAME = RATE * FRAME_MS // 1000  # 480 samples


@dataclass
class Utterance:
    pcm: np.ndarray
    start: float  # stream time (s) of its first sample
    last_voiced: float  # stream time of the end of its last voiced frame
    decided: float  # stream time when the VAD decided it had ended


class Segmenter:
    """Voice activity -> utterances. Times are stream seconds (samples / 16 000)."""

    def __init__(self, aggressiveness: int = 2, start_frames: int = 4, start_window: int = 6,
                 end_ms: int = 360, pre_ms: int = 300, max_s: float = 12.0, min_voiced: int = 5) -> None:
        import webrtcvad

        self.vad = webrtcvad.Vad(aggressiveness)
        self.start_frames, self.start_window = start_frames, start_window
        self.end_frames = max(1, end_ms // FRAME_MS)
        self.max_frames = int(max_s * 1000 / FRAME_MS)
        self.min_voiced = min_voiced
        self.pre: collections.deque[tuple[np.ndarray, bool]] = collections.deque(maxlen=max(start_window, pre_ms // FRAME_MS))
        self.frames: list[np.ndarray] = []
        self.in_speech = False
        self.silent = 0
        self.voiced = 0
        self.t = 0.0  # stream time at the end of the last frame fed
        self.start = 0.0
        self.last_voiced = 0.0
        self._rest = np.zeros(0, np.int16)

    def reset(self) -> None:
        """Forget any utterance under way (the companion started speaking)."""
        self.pre.clear()
        self.frames = []
        self.in_speech = False
        self.silent = self.voiced = 0

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

    def feed(self, frame: np.ndarray) -> Utterance | None:
        self.t += len(frame) / RATE
        voiced = self.vad.is_speech(frame.astype("<i2").tobytes(), RATE)
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
                self.pre.clear()
            return None
        self.frames.append(frame)
        if voiced:
            self.silent = 0
            self.voiced += 1
            self.last_voiced = self.t
        else:
            self.silent += 1
        if self.silent >= self.end_frames or len(self.frames) >= self.max_frames:
            return self._close()
        return None

    def flush(self) -> Utterance | None:
        """The end of the stream ends an utterance under way."""
        if self.in_speech and self.frames:
            return self._close()
        return None

    def _close(self) -> Utterance | None:
        frames, voiced = self.frames, self.voiced
        self.reset()
        if voiced < self.min_voiced:
            return None  # a click, a cough: too short to be a command
        return Utterance(np.concatenate(frames), self.start, self.last_voiced, self.t)
