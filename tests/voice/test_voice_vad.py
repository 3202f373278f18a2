"""The VAD cuts back-to-back commands apart, in a quiet room and with steady noise (white, or
pink like a fan's rumble), and does not cut one command in two."""

import numpy as np
import pytest

from companion.inputs.voice import synth
from companion.inputs.voice.vad import Segmenter
from tests.voice.needs import need_voice

PAIRS = [("help", "status"), ("push four", "repeat"), ("ten times fifty equals five hundred", "yes"),
         ("je demande le kigliss qui dort à Zoé", "répète")]


def pink(n, seed):
    """1/f noise: most of its power low, like a fan or a room's rumble."""
    w = np.random.default_rng(seed).normal(0, 1, n)
    f = np.fft.rfft(w)
    k = np.arange(len(f), dtype=float)
    k[0] = 1.0
    return np.fft.irfft(f / np.sqrt(k), n)


def with_noise(pcm, snr_db, kind, seed):
    if snr_db is None:
        return pcm
    if kind == "white":
        return synth.add_noise(pcm, snr_db, seed)
    x = pcm.astype(np.float64)
    power = float(np.mean(x[np.abs(x) > 0.05 * np.max(np.abs(x))] ** 2))
    noise = pink(len(x), seed)
    noise *= np.sqrt(power / 10 ** (snr_db / 10)) / np.std(noise)
    return np.clip(x + noise, -32768, 32767).astype(np.int16)


def sounding(pcm):
    """(first, last) second where espeak-ng's output is not near-silent (it pads with zeros)."""
    loud = np.flatnonzero(np.abs(pcm.astype(np.int32)) > 500)
    return loud[0] / 16000, loud[-1] / 16000


def cut(pcm, **kw):
    seg = Segmenter(**kw)
    out = seg.feed_samples(pcm)
    last = seg.flush()
    return out + ([last] if last is not None else [])


@pytest.mark.parametrize("snr_db,kind", [(None, "white"), (20, "white"), (10, "white"), (10, "pink"), (5, "pink")])
def test_two_commands_with_a_short_gap_are_two_utterances(snr_db, kind):
    need_voice()
    for i, (a, b) in enumerate(PAIRS):
        voice = ("fr", "fr+f3") if "à" in a or "é" in b else ("en-us", "en+f3")
        first, second = synth.speak(a, voice[i % 2], 170), synth.speak(b, voice[i % 2], 170)
        gap = (0.5, 0.8, 1.2, 0.5)[i]
        pcm = np.concatenate([synth.silence(0.5, seed=i), first, synth.silence(gap, seed=i + 1), second,
                              synth.silence(1.0, seed=i + 2)])
        pcm = with_noise(pcm, snr_db, kind, seed=i)
        a0, a1 = (0.5 + t for t in sounding(first))
        b0, b1 = (0.5 + len(first) / 16000 + gap + t for t in sounding(second))
        utts = cut(pcm)
        assert len(utts) == 2, (a, b, snr_db, kind, [(u.start, u.last_voiced) for u in utts])
        # each utterance holds its own command, whole: the first ends before the second begins
        assert utts[0].start <= a0 and a1 - 0.3 <= utts[0].last_voiced <= b0, (a, b, snr_db, kind)
        assert a1 <= utts[1].start <= b0 and utts[1].last_voiced >= b1 - 0.3, (a, b, snr_db, kind)


def test_webrtcvad_alone_merges_them_in_noise_which_the_floor_gate_fixes():
    # The cause of the merged pair (issue 15): steady noise is "speech" to webrtcvad, so the
    # gap is never silence. The same sound, without the gate, is one utterance.
    need_voice()
    pcm = np.concatenate([synth.silence(0.5), synth.speak("help"), synth.silence(1.2, seed=2), synth.speak("status"),
                          synth.silence(1.0, seed=3)])
    pcm = with_noise(pcm, 10, "pink", seed=4)
    assert len(cut(pcm, margin_db=None, start_frames=4, quiet_end_ms=None)) == 1
    assert len(cut(pcm)) == 2


def test_one_command_stays_one_utterance_and_a_click_is_none():
    need_voice()
    for text, voice, rate in [("ask Paul for kigliss sleep", "en-us+m3", 130), ("dix fois cinquante égale cinq cent", "fr", 130),
                              ("three plus four equals seven", "en", 190)]:
        for snr_db in (None, 10):
            pcm = with_noise(np.concatenate([synth.silence(0.4), synth.speak(text, voice, rate), synth.silence(1.0, seed=2)]),
                             snr_db, "white", seed=1)
            assert len(cut(pcm)) == 1, (text, snr_db)
    click = np.concatenate([synth.silence(0.5), (np.hanning(200) * 20000).astype(np.int16), synth.silence(0.8, seed=2)])
    assert cut(click) == []


def test_the_floor_follows_the_noise_and_the_companions_speech_does_not_reset_it():
    need_voice()
    seg = Segmenter()
    quiet = synth.silence(1.0)
    seg.feed_samples(quiet)
    low = seg.floor
    seg.feed_samples(synth.add_noise(np.full(16000 * 4, 0, np.int16) + synth.silence(4.0, level=2000), 0))
    assert seg.floor > low + 20  # 4 s of loud noise: the floor rose to it
    seg.reset()
    assert seg.floor > low + 20
