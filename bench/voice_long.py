"""Long recordings through the voice path (issue #30, point 4): is any length heard in at most
real time and in bounded memory?

For each recording (white noise, babble-like noise made of several espeak-ng talkers, and a
quiet room, each MINUTES long, 44.1 kHz stereo so the reader resamples and mixes), runs
`companion voice test --voice-input FILE --game kissa` as a separate process — the real
reader, VAD and recogniser with 2kissa10's whole grammar — and prints its wall time, the
ratio of that time to the recording's length (≤ 1 is real time or faster) and its peak
resident memory (target ≤ 150 MB), with the baseline of the same run: the same command on a
10-second recording, whose cost is the recogniser's start-up.

Run: nice .venv/bin/python bench/voice_long.py [--minutes 10] [--kinds noise,babble,quiet]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RATE = 44100


def babble_second(rng: np.random.Generator, talkers: list[np.ndarray]) -> np.ndarray:
    """One second of several talkers at once, each from a random place in its speech."""
    out = np.zeros(RATE, np.float32)
    for t in talkers:
        start = int(rng.integers(0, max(1, len(t) - RATE)))
        piece = t[start:start + RATE]
        out[: len(piece)] += piece
    return out / max(1.0, float(np.abs(out).max()) / 0.5)


def talkers() -> list[np.ndarray]:
    from companion.inputs.voice import synth

    texts = ["the game is going well tonight and everyone is here",
             "would you like some more tea before the next round",
             "I think it is my turn but I am not quite sure",
             "pass me the box please and the little red tokens"]
    voices = ["en-us", "en+f3", "en-us+m3", "en+f4"]
    out = []
    for text, voice in zip(texts, voices, strict=True):
        pcm16k = synth.utterance(text, voice, 170).astype(np.float32) / 32768
        n = int(len(pcm16k) * RATE / 16000)
        out.append(np.interp(np.arange(n) * 16000 / RATE, np.arange(len(pcm16k)), pcm16k).astype(np.float32))
    return out


def write(path: Path, kind: str, seconds: float, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    voices = talkers() if kind == "babble" else []
    with sf.SoundFile(str(path), "w", RATE, 2, "PCM_16") as f:
        for _ in range(int(seconds)):
            if kind == "noise":
                x = rng.normal(0, 0.1, RATE).astype(np.float32)
            elif kind == "babble":
                x = babble_second(rng, voices)
            else:
                x = rng.normal(0, 0.0003, RATE).astype(np.float32)
            f.write(np.stack([x, x], 1))


def run(path: Path) -> tuple[float, float]:
    """(wall seconds, peak resident MB) of `companion voice test --voice-input path`."""
    cmd = [sys.executable, "-m", "companion.cli", "voice", "test", "--voice-input", str(path), "--game", "kissa",
           "--lang", "en"]
    env = {**os.environ, "COMPANION_SPEECH": "none", "PYTHONPATH": str(ROOT)}
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, _status, usage = os.wait4(proc.pid, 0)  # this child's own peak, not the largest so far
    proc.returncode = 0
    return time.monotonic() - t0, usage.ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--kinds", default="quiet,noise,babble")
    args = ap.parse_args()
    seconds = args.minutes * 60
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base.wav"
        write(base, "quiet", 10)
        b_wall, b_mem = run(base)
        print(f"baseline: 10 s quiet room: {b_wall:.1f} s, peak {b_mem:.0f} MB (start-up and grammar)")
        print(f"{'recording':<22} {'length':>8} {'wall':>8} {'wall/length':>12} {'minus start-up':>15} {'peak MB':>8}")
        for kind in args.kinds.split(","):
            path = Path(tmp) / f"{kind}.wav"
            write(path, kind, seconds)
            wall, mem = run(path)
            print(f"{kind:<22} {seconds:>7.0f}s {wall:>7.1f}s {wall / seconds:>12.2f} "
                  f"{(wall - b_wall) / seconds:>15.2f} {mem:>8.0f}")
            path.unlink()
    print("target: wall/length <= 1.00 (real time) and peak <= 150 MB, whatever the length")
    return 0


if __name__ == "__main__":
    sys.exit(main())
