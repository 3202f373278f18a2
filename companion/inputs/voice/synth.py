"""Labelled synthetic speech for tests and benchmarks: espeak-ng at 16 kHz mono, with
optional white noise at a given signal-to-noise ratio. (Synthetic speech is easier than
people in some ways and harder in others: figures made with it say so.)"""

from __future__ import annotations

import io
import shutil
import subprocess

import numpy as np

RATE = 16000
EN_VOICES = ("en-us", "en", "en+f3", "en-us+m3", "en+f4")
FR_VOICES = ("fr", "fr+f3", "fr-be", "fr+m3")


def speak(text: str, voice: str = "en-us", rate: int = 160, pitch: int = 50, amplitude: float = 0.5) -> np.ndarray:
    """`text` spoken by espeak-ng, as int16 samples at 16 kHz."""
    import soundfile as sf

    exe = shutil.which("espeak-ng")
    if exe is None:
        raise RuntimeError("espeak-ng is not installed")
    out = subprocess.run([exe, "-v", voice, "-s", str(rate), "-p", str(pitch), "--stdout", text],
                         capture_output=True, check=True, timeout=30).stdout
    data, sr = sf.read(io.BytesIO(out), dtype="float32")
    return resample(data, sr, amplitude)


def resample(data: np.ndarray, sr: int, amplitude: float = 1.0) -> np.ndarray:
    if data.ndim > 1:
        data = data.mean(axis=1)
    if sr != RATE:
        n = int(len(data) * RATE / sr)
        data = np.interp(np.arange(n) * sr / RATE, np.arange(len(data)), data).astype(np.float32)
    peak = float(np.max(np.abs(data))) or 1.0
    return (data / peak * amplitude * 32767).astype(np.int16)


def silence(seconds: float, level: float = 8.0, seed: int = 1) -> np.ndarray:
    """A quiet room: faint noise, never exact zeros."""
    return (np.random.default_rng(seed).normal(0, level, int(seconds * RATE))).astype(np.int16)


def add_noise(pcm: np.ndarray, snr_db: float, seed: int = 0) -> np.ndarray:
    """White noise at `snr_db` relative to the speech's power (measured on voiced samples)."""
    x = pcm.astype(np.float64)
    voiced = x[np.abs(x) > 0.05 * (np.max(np.abs(x)) or 1)]
    power = float(np.mean(voiced**2)) if len(voiced) else float(np.mean(x**2))
    noise = np.random.default_rng(seed).normal(0, np.sqrt(power / 10 ** (snr_db / 10)), len(x))
    return np.clip(x + noise, -32768, 32767).astype(np.int16)


def utterance(text: str, voice: str = "en-us", rate: int = 160, snr_db: float | None = None, pad: float = 0.3,
              seed: int = 0) -> np.ndarray:
    """A phrase with a little room around it, as a microphone would give it."""
    pcm = np.concatenate([silence(pad, seed=seed), speak(text, voice, rate), silence(pad, seed=seed + 1)])
    return add_noise(pcm, snr_db, seed) if snr_db is not None else pcm
