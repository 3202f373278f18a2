"""Earcons: made here, short, audible, distinct, each with a meaning in both languages."""

import itertools

import numpy as np
import pytest

from companion.narration import Msg, catalog
from companion.narration.message import Verbosity
from companion.outputs.earcons import MAX_MS, NAMES, earcon

EXPECTED = ("turn", "move", "score", "good", "bad", "error", "end", "private", "draw", "question", "thinking",
            "listen", "listened", "seek", "found")


def test_the_agreed_names():
    assert NAMES == EXPECTED


@pytest.mark.parametrize("name", EXPECTED)
def test_each_is_short_audible_and_clean(name):
    samples, sr = earcon(name)
    assert samples.dtype == np.float32 and samples.ndim == 1
    assert 0 < len(samples) / sr * 1000 < MAX_MS
    peak = float(np.max(np.abs(samples)))
    assert 0.1 < peak <= 1.0
    # starts and ends near silence (no click)
    assert abs(samples[0]) < 0.01 and abs(samples[-1]) < 0.01
    assert earcon(name)[0] is samples  # made once


def spectrum_signature(samples, sr):
    """Dominant frequency of the first and of the last third, and the length in ms."""
    thirds = np.array_split(samples, 3)
    out = []
    for part in (thirds[0], thirds[-1]):
        mag = np.abs(np.fft.rfft(part * np.hanning(len(part)), n=8192))
        out.append(float(np.argmax(mag) * sr / 8192))
    return np.array(out + [len(samples) / sr * 1000])


def test_they_sound_different_from_each_other():
    sigs = {n: spectrum_signature(*earcon(n)) for n in NAMES}
    for a, b in itertools.combinations(NAMES, 2):
        da = np.abs(sigs[a] - sigs[b])
        # a different pitch region, contour or length
        assert da[0] > 60 or da[1] > 60 or da[2] > 25, (a, b, sigs[a], sigs[b])


def test_contours_match_their_meaning():
    rising = ("turn", "good", "question", "found")
    falling = ("bad", "end")
    for n in rising:
        s = spectrum_signature(*earcon(n))
        assert s[1] > s[0], n
    for n in falling:
        s = spectrum_signature(*earcon(n))
        assert s[1] < s[0], n


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_each_has_a_meaning(lang):
    cat = catalog(lang)
    for name in NAMES:
        text = cat.text(Msg(f"speech.earcon.{name}"), Verbosity.NORMAL)
        assert text != f"speech.earcon.{name}" and len(text) > 8


def test_unknown_earcon():
    with pytest.raises(KeyError):
        earcon("trumpet")
