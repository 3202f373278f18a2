"""Silero's VAD model run in numpy (`silero_np`) against the same ONNX file run by
onnxruntime: every window's probability within 1e-4 and the segmenter's cuts identical, on
speech (espeak-ng, English and French, clean, in white noise and in babble), babble and
white noise alone, a quiet room, digital silence and knocks; and the choice of runner.
Real components: nothing is mocked."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from companion.inputs.voice import silero, silero_np, synth
from tests.voice.needs import need_voice

RATE = 16000


def need_both():
    """The installed model and onnxruntime (the reference); under CI=true they must be there."""
    missing = [name for name, ok in (("silero-vad", silero.model_path() is not None),
                                     ("onnxruntime", importlib.util.find_spec("onnxruntime") is not None)) if not ok]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"missing under CI: {', '.join(missing)} (./run setup installs them)")
        pytest.skip(f"needs {', '.join(missing)}")


def knocks(seed):
    """A door shut, a cough, a cup set down: 25 dB above a quiet room, each alone in 2 s."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(0.4 * RATE)) / RATE
    door = np.sin(2 * np.pi * 70 * t) * np.exp(-t / 0.08) + rng.normal(0, 1, len(t)) * np.exp(-t / 0.01)
    bt = np.arange(int(0.22 * RATE)) / RATE
    f = np.fft.rfft(rng.normal(0, 1, len(bt)))
    freqs = np.fft.rfftfreq(len(bt), 1 / RATE)
    f *= np.exp(-((freqs - 900) / 700) ** 2) + 0.3 * np.exp(-((freqs - 2500) / 500) ** 2)
    burst = np.fft.irfft(f, len(bt)) * np.minimum(1, bt / 0.01) * np.exp(-bt / 0.07)
    cough = np.concatenate([burst, np.zeros(int(0.12 * RATE)), 0.7 * burst])
    ct = np.arange(int(0.15 * RATE)) / RATE
    cup = np.sin(2 * np.pi * 2300 * ct) * np.exp(-ct / 0.03) + 0.5 * np.sin(2 * np.pi * 3700 * ct) * np.exp(-ct / 0.02)
    out = {}
    for name, x in (("door", door), ("cough", cough), ("cup", cup)):
        room = synth.silence(2.0, seed=seed).astype(np.float64)
        room[8000:8000 + len(x)] += x / np.sqrt(np.mean(x ** 2)) * 8.0 * 10 ** (25 / 20)
        out[name] = np.clip(room, -32768, 32767).astype(np.int16)
    return out


_RECORDINGS = {}
SPOKEN = ("pair, clean", "pair, 10 dB babble", "pair, 5 dB babble", "french, 5 dB white", "full scale, 20 dB white")


def recordings():
    """name -> int16 samples at 16 kHz (made once: espeak-ng takes a moment)."""
    if _RECORDINGS:
        return _RECORDINGS
    q = synth.silence
    a, b = synth.speak("push four", "en-us", 170), synth.speak("status", "en+f3", 150)
    pair = np.concatenate([q(1.0), a, q(0.8, seed=2), b, q(1.0, seed=3)])
    h, s = synth.speak("help", "en-us"), synth.speak("status", "en-us")
    babble_pair = np.concatenate([q(1.5), h, q(1.2, seed=2), s, q(1.0, seed=3)])
    fr = np.concatenate([q(0.5), synth.speak("je demande le kigliss qui dort à Zoé", "fr", 160), q(1.0, seed=4)])
    loud = np.concatenate([q(0.5), synth.speak("ten times fifty equals five hundred", "en-us+m3", 190, amplitude=1.0), q(0.8)])
    _RECORDINGS.update({
        "pair, clean": pair,
        "pair, 10 dB babble": synth.add_babble(babble_pair, 10.0, seed=4),
        "pair, 5 dB babble": synth.add_babble(babble_pair, 5.0, seed=5),
        "french, 5 dB white": synth.add_noise(fr, 5.0, seed=6),
        "full scale, 20 dB white": synth.add_noise(loud, 20.0, seed=7),
        "babble alone": synth.add_babble(q(4.0, level=2000.0), 0.0, seed=8),
        "white noise alone": q(3.0, level=3000.0, seed=9),
        "quiet room": q(3.0, seed=10),
        "digital silence": np.zeros(2 * RATE, np.int16),
        **{f"{k} {seed}": v for seed in (1, 2) for k, v in knocks(seed).items()},
    })
    return _RECORDINGS


def probabilities(model, pcm):
    model.reset()
    return np.array([model.prob(pcm[k:k + silero.WINDOW]) for k in range(0, len(pcm) - silero.WINDOW + 1, silero.WINDOW)])


def test_the_weights_read_from_the_onnx_file_are_the_16_khz_branch_s():
    need_both()
    w = silero_np.load_weights(silero.model_path())
    assert {k: v.shape for k, v in w.items()} == silero_np.SHAPES
    assert all(v.dtype == np.float32 and np.all(np.isfinite(v)) for v in w.values())
    # the STFT's basis is the 16 kHz branch's: a periodic Hann window times the DFT's
    # cosines (real rows) and minus its sines (imaginary rows), 129 bins of 256 taps
    n, k = np.arange(256), np.arange(129)[:, None]
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * n / 256)
    basis = w["stft.forward_basis_buffer"][:, 0, :]
    assert np.abs(basis[:129] - hann * np.cos(2 * np.pi * k * n / 256)).max() < 1e-6
    assert np.abs(basis[129:] + hann * np.sin(2 * np.pi * k * n / 256)).max() < 1e-6


def test_every_window_s_probability_is_onnxruntime_s():
    need_voice()
    need_both()
    path = silero.model_path()
    ours, ref = silero_np.NumpySileroVad(path), silero.OnnxSileroVad(path)
    spoken = 0
    for name, pcm in recordings().items():
        p, q = probabilities(ours, pcm), probabilities(ref, pcm)
        assert np.abs(p - q).max() <= 1e-4, name
        spoken += int(np.sum(q > 0.5))
    assert spoken > 50  # the speech was heard as speech: the comparison covers both sides
    # one long stream, never reset: the recurrent state carried over 70 s stays the same
    stream = np.concatenate(list(recordings().values()))
    p, q = probabilities(ours, stream), probabilities(ref, stream)
    assert np.abs(p - q).max() <= 1e-4
    assert np.abs(ours.state - ref.state).max() <= 1e-3


@pytest.mark.parametrize("settings", [silero.SILERO_SETTINGS, {"margin_db": None}], ids=["in use", "model alone"])
def test_the_segmenter_cuts_the_same_with_either_runner(settings):
    need_voice()
    need_both()
    path = silero.model_path()
    kw = {k: int(v) if k == "end_ms" else v for k, v in settings.items()}
    cuts = {}
    for name, pcm in recordings().items():
        got = []
        for model in (silero_np.NumpySileroVad(path), silero.OnnxSileroVad(path)):
            seg = silero.SileroSegmenter(model=model, **kw)
            out = seg.feed_samples(pcm)
            last = seg.flush()
            got.append([(u.start, u.last_voiced, u.decided, len(u.pcm)) for u in out + ([last] if last else [])])
        assert got[0] == got[1], name
        cuts[name] = len(got[0])
    # each spoken recording was cut: the two runners agreed on real cuts, not only on none
    assert all(cuts[name] >= 1 for name in SPOKEN), cuts


def test_numpy_runs_it_and_onnxruntime_is_not_loaded():
    """The listener's VAD in a fresh process: Silero's model in numpy, onnxruntime never
    imported (its 40-45 MB are what this runner saves)."""
    need_both()
    code = ("import sys; from companion.inputs.voice import silero; seg = silero.default_segmenter(); "
            "print(type(seg.model).__name__, 'onnxruntime' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout.split()
    assert out == ["NumpySileroVad", "False"]


def test_a_file_numpy_cannot_read_goes_to_onnxruntime(tmp_path, monkeypatch):
    need_both()
    whole = silero.model_path().read_bytes()
    cut = tmp_path / "truncated.onnx"
    cut.write_bytes(whole[:len(whole) // 2])
    noise = tmp_path / "noise.onnx"  # not ONNX at all
    noise.write_bytes(np.random.default_rng(3).integers(0, 256, 4096, dtype=np.uint8).tobytes())
    for bad in (cut, noise):
        with pytest.raises(ValueError):
            silero_np.load_weights(bad)
        assert silero.runner(bad) == "onnxruntime"
    with pytest.raises(OSError):
        silero_np.load_weights(tmp_path / "missing.onnx")
    # the STFT is computed by numpy's FFT: a basis that is not its Hann-windowed DFT is refused
    w = dict(silero_np.load_weights(silero.model_path()))
    w["stft.forward_basis_buffer"] = w["stft.forward_basis_buffer"] * np.float32(1.001)
    with pytest.raises(ValueError):
        silero_np.Network(w)
    assert isinstance(silero.load(), silero_np.NumpySileroVad)
    monkeypatch.setattr(silero, "RUNNERS", ("onnxruntime",))
    assert isinstance(silero.load(), silero.OnnxSileroVad)
    monkeypatch.setattr(silero, "RUNNERS", ())
    assert not silero.available()
    with pytest.raises(RuntimeError):
        silero.load()
