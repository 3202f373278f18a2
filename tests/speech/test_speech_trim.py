"""The engine's leading silence is cut as it streams, and never a sample louder than -50 dBFS."""

import shutil

import numpy as np
import pytest

from companion.outputs.speech.trim import (
    PREROLL_MS,
    THRESHOLD,
    THRESHOLD_DB,
    Trimmed,
    trim_leading,
)

SR = 22050
PRE = int(round(SR * PREROLL_MS / 1000))


def chunked(x, sizes):
    out, at, i = [], 0, 0
    while at < len(x):
        n = sizes[i % len(sizes)]
        out.append((x[at : at + n], SR))
        at, i = at + n, i + 1
    return out


def dbfs(x):
    return 20 * np.log10(np.maximum(np.abs(x), 1e-12))


def check(x, chunks):
    """What comes out is `x` from some index k on, and nothing before k is above -50 dBFS."""
    out = [c for c, _ in trim_leading(chunks)]
    kept = np.concatenate(out) if out else np.zeros(0, np.float32)
    k = len(x) - len(kept)
    assert np.array_equal(kept, x[k:])  # nothing changed, nothing reordered: only a prefix cut
    removed = x[:k]
    assert not len(removed) or dbfs(removed).max() <= THRESHOLD_DB  # the promise, in dBFS
    loud = np.flatnonzero(np.abs(x) > THRESHOLD)
    if len(loud):  # and the cut stops PREROLL_MS before the first sound
        assert k == max(0, int(loud[0]) - PRE)
    else:
        assert len(kept) == 0  # silence only: nothing to play
    return k


@pytest.mark.parametrize("seed", range(40))
def test_random_signals_and_chunkings(seed):
    rng = np.random.default_rng(seed)
    silence = rng.integers(0, 3000)
    quiet = rng.uniform(-1, 1, silence) * THRESHOLD * rng.choice([0.0, 0.5, 1.0])  # at most -50 dBFS
    onset = np.linspace(0, 1, rng.integers(1, 400)) * rng.uniform(0.001, 0.05)  # a soft start
    speech = rng.uniform(-0.8, 0.8, rng.integers(0, 5000))
    x = np.concatenate([quiet, onset, speech]).astype(np.float32)
    sizes = list(rng.integers(1, 700, 5))
    check(x, chunked(x, sizes))


@pytest.mark.parametrize("sizes", [[1], [7], [441], [1024, 3], [100000]])
def test_a_sound_right_at_the_start_or_after_a_chunk_boundary(sizes):
    for first in (0, 5, PRE - 1, PRE, PRE + 1, 440, 441, 442, 2000):
        x = np.zeros(3000, np.float32)
        x[first] = 0.01
        x[first + 1 :] = 0.2
        assert check(x, chunked(x, sizes)) == max(0, first - PRE)


def test_exactly_at_the_threshold_is_silence_and_just_above_is_sound():
    x = np.full(1000, THRESHOLD, np.float32)
    assert check(x, chunked(x, [100])) == 1000
    x[500] = np.nextafter(np.float32(THRESHOLD), np.float32(1))
    assert check(x, chunked(x, [100])) == 500 - PRE


def test_closing_the_trimmed_stream_closes_the_engine_stream_even_before_it_started():
    closed = []

    class Source:
        def __iter__(self):
            return self

        def __next__(self):
            return np.ones(10, np.float32), SR

        def close(self):
            closed.append(True)

    Trimmed(Source()).close()
    assert closed


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_real_speech_loses_only_silence_and_plosives_start_sooner():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from speech_latency import SENTENCES

    from companion.outputs.speech.espeak import EspeakNgEngine

    eng = EspeakNgEngine(backend="process")  # the espeak-ng program: the same sound every time
    try:
        lead = {}
        for lang, kinds in SENTENCES.items():
            for kind, texts in kinds.items():
                for text in texts:
                    x, sr = eng.synth(text, lang)
                    k = check(x, chunked(x, [441]))
                    lead.setdefault(kind, []).append(k / sr)
    finally:
        eng.close()
    # espeak-ng puts 40-50 ms before most P and T (the closure): cut, but the last millisecond
    assert float(np.median(lead["plosive"])) > 0.030
    assert max(max(v) for v in lead.values()) < 0.060
