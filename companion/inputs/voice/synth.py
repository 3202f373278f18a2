"""Labelled synthetic speech for tests and benchmarks: espeak-ng, Festival and flite (three
synthesizer families, all Debian packages) at 16 kHz mono, with optional white noise or
babble (several talkers at once) at a given signal-to-noise ratio. (Synthetic speech is
easier than people in some ways and harder in others: figures made with it say so.)

A voice is an espeak-ng voice name (``en-us``, ``fr+f3``), ``flite:NAME`` (kal16, awb, rms,
slt) or ``festival:NAME`` (kal_diphone, ked_diphone, cmu_us_slt_arctic_hts). Festival
starts in about 0.7 s and cannot be driven through a pipe (it reads its input to the end
first), so `prefetch` synthesises a batch of its utterances in one run."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np

RATE = 16000
EN_VOICES = ("en-us", "en", "en+f3", "en-us+m3", "en+f4")
FR_VOICES = ("fr", "fr+f3", "fr-be", "fr+m3")
#: voices of the other families (English only: Debian main has no French voice for either)
FLITE_VOICES = ("flite:kal16", "flite:awb", "flite:rms", "flite:slt")
FESTIVAL_VOICES = ("festival:kal_diphone", "festival:ked_diphone", "festival:cmu_us_slt_arctic_hts")
#: espeak-ng French variants no benchmark fits on (the only other French voices to be had here)
FR_HELD_OUT = ("fr-ch", "fr+klatt", "fr+Andy", "fr+f5")
_CACHE: dict[tuple[str, str, int], np.ndarray] = {}  # full-scale samples at 16 kHz


def family(voice: str) -> str:
    return voice.split(":", 1)[0] if ":" in voice else "espeak-ng"


def available(voice: str) -> bool:
    exe = {"flite": "flite", "festival": "festival"}.get(family(voice), "espeak-ng")
    return shutil.which(exe) is not None


def speak(text: str, voice: str = "en-us", rate: int = 160, pitch: int = 50, amplitude: float = 0.5) -> np.ndarray:
    """`text` spoken by `voice` (see the module's doc), as int16 samples at 16 kHz; `rate` in
    words per minute (160 is each synthesizer's own pace)."""
    import soundfile as sf

    if family(voice) != "espeak-ng":
        key = (text, voice, rate)
        if key not in _CACHE:
            prefetch([key])
        return (_CACHE[key] * amplitude).astype(np.int16)
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise RuntimeError("espeak-ng is not installed")
    out = subprocess.run([exe, "-v", voice, "-s", str(rate), "-p", str(pitch), "--stdout", text],
                         capture_output=True, check=True, timeout=30).stdout
    data, sr = sf.read(io.BytesIO(out), dtype="float32")
    return resample(data, sr, amplitude)


def prefetch(items: list[tuple[str, str, int]]) -> None:
    """Synthesise (text, voice, rate) items of flite and Festival into the cache (Festival's
    in one run per batch: it takes 0.7 s to start)."""
    import tempfile

    import soundfile as sf

    todo = [k for k in dict.fromkeys(items) if family(k[1]) != "espeak-ng" and k not in _CACHE]
    if not todo:
        return
    with tempfile.TemporaryDirectory() as tmp:
        script = []
        for i, (text, voice, rate) in enumerate(todo):
            out = f"{tmp}/{i}.wav"
            stretch = f"{160 / rate:.3f}"
            name = voice.split(":", 1)[1]
            if family(voice) == "flite":
                subprocess.run(["flite", "-voice", name, "--setf", f"duration_stretch={stretch}", "-t", text, "-o", out],
                               capture_output=True, check=True, timeout=30)
            else:
                said = text.replace("\\", " ").replace('"', " ")
                script.append(f"(voice_{name})(Parameter.set 'Duration_Stretch {stretch})"
                              f"(utt.save.wave (utt.synth (Utterance Text \"{said}\")) \"{out}\" 'riff)")
        if script:
            Path(f"{tmp}/batch.scm").write_text("\n".join(script) + "\n")
            subprocess.run(["festival", "-b", f"{tmp}/batch.scm"], capture_output=True, check=True,
                           timeout=60 + 3 * len(script))
        for i, key in enumerate(todo):
            data, sr = sf.read(f"{tmp}/{i}.wav", dtype="float32")
            _CACHE[key] = resample(data, sr, 1.0).astype(np.float32)


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


def speech_power(pcm: np.ndarray) -> float:
    x = pcm.astype(np.float64)
    voiced = x[np.abs(x) > 0.05 * (np.max(np.abs(x)) or 1)]
    return float(np.mean(voiced**2)) if len(voiced) else float(np.mean(x**2))


#: what the babble's talkers say (a table's chatter; none of it is a command)
CHATTER = ("did you see the match on sunday it was a long one", "pass me the water jug please",
           "I will have to leave early tomorrow morning", "my sister is coming over for lunch next week",
           "the weather was much colder than last year", "we should paint the kitchen a lighter colour",
           "have you read the book I lent you in the summer", "the train was late again this evening",
           "put the cake on the table near the window", "nobody knows where the keys have gone")
BABBLE_VOICES = ("en-us+m1", "en+f2", "en-us+m4", "en+f5", "en-gb-x-rp+m7", "en+m2")
_BABBLE: dict[int, np.ndarray] = {}


def babble(talkers: int = 6, seconds: float = 30.0) -> np.ndarray:
    """`talkers` voices talking at once, each its own sentences one after another, as float
    samples of unit speech power: the noise of a table where others chat. espeak-ng voices
    none of the benchmarks says commands with (a babble of the held-out families would make
    them easier to tell apart from the talker, not harder)."""
    if talkers in _BABBLE:
        return _BABBLE[talkers]
    n = int(seconds * RATE)
    mix = np.zeros(n)
    for t in range(talkers):
        parts: list[np.ndarray] = []
        k = t
        while sum(len(p) for p in parts) < n + RATE:
            pcm = speak(CHATTER[k % len(CHATTER)], BABBLE_VOICES[t % len(BABBLE_VOICES)], 150 + 12 * t).astype(np.float64)
            parts += [pcm / np.sqrt(speech_power(pcm)), np.zeros(int(0.15 * RATE))]
            k += 3
        talk = np.concatenate(parts)
        start = (t * 7919) % RATE
        mix += talk[start:start + n]
    _BABBLE[talkers] = mix / np.sqrt(np.mean(mix**2))
    return _BABBLE[talkers]


def add_babble(pcm: np.ndarray, snr_db: float, seed: int = 0, talkers: int = 6) -> np.ndarray:
    """Babble of `talkers` at `snr_db` below the speech's power, from a random point of it."""
    noise = babble(talkers)
    x = pcm.astype(np.float64)
    at = np.random.default_rng(seed).integers(0, len(noise) - len(x)) if len(noise) > len(x) else 0
    seg = np.resize(noise[at:], len(x))
    gain = np.sqrt(speech_power(pcm) / 10 ** (snr_db / 10) / np.mean(seg**2))
    return np.clip(x + gain * seg, -32768, 32767).astype(np.int16)


def utterance(text: str, voice: str = "en-us", rate: int = 160, snr_db: float | None = None, pad: float = 0.3,
              seed: int = 0, noise: str = "white") -> np.ndarray:
    """A phrase with a little room around it, as a microphone would give it; `noise` is
    "white" or "babble" (six talkers) at `snr_db`."""
    pcm = np.concatenate([silence(pad, seed=seed), speak(text, voice, rate), silence(pad, seed=seed + 1)])
    if snr_db is None:
        return pcm
    return add_babble(pcm, snr_db, seed) if noise == "babble" else add_noise(pcm, snr_db, seed)
