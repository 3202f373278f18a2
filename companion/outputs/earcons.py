"""Earcons: short sounds (each under 200 ms) played before the speech of frequent events.

Made here with numpy from sine tones, glides and filtered noise, so nothing is downloaded.
Each has a message `speech.earcon.<name>` that says what it means (`companion earcons`).
They are told apart by contour (rising / falling / flat), pitch and timbre, not only pitch.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

SAMPLE_RATE = 22050
NAMES = ("turn", "move", "score", "good", "bad", "error", "end", "private", "draw", "question", "thinking",
         "listen", "listened", "seek", "found")
MAX_MS = 200


def _envelope(n: int, attack: float = 0.005, release: float = 0.03) -> np.ndarray:
    import numpy as np

    env = np.ones(n, dtype=np.float32)
    a = min(n // 2, max(1, int(attack * SAMPLE_RATE)))
    r = min(n // 2, max(1, int(release * SAMPLE_RATE)))
    env[:a] = np.linspace(0.0, 1.0, a, dtype=np.float32)
    env[n - r :] = np.linspace(1.0, 0.0, r, dtype=np.float32)
    return env


def _tone(freq: float, ms: float, *, level: float = 0.5, harmonics: tuple[float, ...] = (1.0,),
          to_freq: float | None = None) -> np.ndarray:
    """A note (or a glide to `to_freq`) with the given harmonic weights, enveloped."""
    import numpy as np

    n = int(SAMPLE_RATE * ms / 1000)
    f = np.full(n, freq, dtype=np.float64) if to_freq is None else np.geomspace(freq, to_freq, n)
    phase = 2 * np.pi * np.cumsum(f) / SAMPLE_RATE
    wave = np.zeros(n, dtype=np.float64)
    for k, w in enumerate(harmonics, start=1):
        wave += w * np.sin(k * phase)
    wave /= max(1e-9, sum(abs(w) for w in harmonics))
    return (level * wave * _envelope(n)).astype(np.float32)


def _noise(ms: float, *, level: float = 0.4, smooth: int = 1, sweep: bool = False) -> np.ndarray:
    """Noise (seeded: the same sound every time), low-passed by a moving average."""
    import numpy as np

    n = int(SAMPLE_RATE * ms / 1000)
    rng = np.random.default_rng(7)
    x = rng.uniform(-1.0, 1.0, n + smooth)
    x = np.convolve(x, np.ones(smooth) / smooth, mode="valid")[:n]
    x = x / max(1e-9, float(np.max(np.abs(x))))
    env = _envelope(n, 0.01, 0.05)
    if sweep:
        env = env * np.linspace(0.3, 1.0, n)
    return (level * x * env).astype(np.float32)


def _seq(*parts: np.ndarray, gap_ms: float = 10) -> np.ndarray:
    import numpy as np

    gap = np.zeros(int(SAMPLE_RATE * gap_ms / 1000), dtype=np.float32)
    out: list[np.ndarray] = []
    for i, p in enumerate(parts):
        if i:
            out.append(gap)
        out.append(p)
    return np.concatenate(out)


def _make(name: str) -> np.ndarray:
    bright = (1.0, 0.4, 0.2)
    if name == "turn":  # two rising notes, C6 then G6: "your go"
        return _seq(_tone(1047, 60, harmonics=bright), _tone(1568, 80, harmonics=bright))
    if name == "move":  # one short wooden tick
        return _tone(880, 35, level=0.45, harmonics=(1.0, 0.6, 0.3, 0.2))
    if name == "score":  # quick rising arpeggio C-E-G
        return _seq(*(_tone(f, 45, harmonics=bright) for f in (784, 988, 1175)), gap_ms=5)
    if name == "good":  # rising major third, pure and soft
        return _seq(_tone(660, 70), _tone(831, 90))
    if name == "bad":  # falling minor third, lower
        return _seq(_tone(440, 70, harmonics=(1.0, 0.3)), _tone(370, 100, harmonics=(1.0, 0.3)))
    if name == "error":  # low buzz, two pulses
        buzz = (1.0, 0.0, 0.33, 0.0, 0.2, 0.0, 0.14)  # odd harmonics: square-like
        return _seq(_tone(180, 80, harmonics=buzz), _tone(180, 80, harmonics=buzz), gap_ms=20)
    if name == "end":  # falling arpeggio to the octave below
        return _seq(*(_tone(f, 55, harmonics=bright) for f in (1047, 784, 523)), gap_ms=5)
    if name == "private":  # soft high glide down, quiet: "just for you"
        return _tone(2400, 110, level=0.25, to_freq=1800)
    if name == "draw":  # a rustle: a token pulled from the bag
        return _noise(120, level=0.35, smooth=6, sweep=True)
    if name == "question":  # a rising glide, like an asking voice
        return _tone(500, 150, level=0.45, harmonics=(1.0, 0.3), to_freq=900)
    if name == "thinking":  # a soft low double hum, "hm-hm": the companion is thinking
        hum = (1.0, 0.2)
        return _seq(_tone(294, 70, level=0.25, harmonics=hum), _tone(294, 70, level=0.2, harmonics=hum), gap_ms=30)
    if name == "listen":  # a quick glide up: the microphone opens (push-to-talk)
        return _tone(600, 90, level=0.35, to_freq=1200)
    if name == "listened":  # the same glide down, shorter: it closes, the command was heard
        return _tone(1200, 70, level=0.35, to_freq=700)
    if name == "seek":  # a soft, short, high tick: the camera looks for a code (faster: nearer)
        return _tone(1500, 22, level=0.22, harmonics=(1.0, 0.3))
    if name == "found":  # a bright rising arpeggio, higher than "score": the code is read
        return _seq(*(_tone(f, 45, harmonics=bright) for f in (1319, 1661, 1976)), gap_ms=5)
    raise KeyError(name)


@cache
def _cached(name: str) -> np.ndarray:
    samples = _make(name)
    samples.setflags(write=False)
    return samples


def earcon(name: str) -> tuple[np.ndarray, int]:
    """The earcon `name` as (float32 mono samples in [-1, 1], sample rate). KeyError if unknown."""
    if name not in NAMES:
        raise KeyError(f"unknown earcon {name!r}; known: {', '.join(NAMES)}")
    return _cached(name), SAMPLE_RATE
