"""The grammar's end (`Listener.grammar_end_ms`, issue 30's latency): a line heard whole that
nothing sayable goes on from ends its utterance after a short silence instead of the VAD's;
a command with a pause inside, whose first part is no whole line, is not cut there. Real
speech (espeak-ng) through the real recogniser and VAD; stream times, not the clock."""

import numpy as np

from companion.core import Match, find
from companion.inputs.voice import synth
from companion.inputs.voice.listener import GRAMMAR_END_MS, Listener
from companion.inputs.voice.recognizer import SphinxRecognizer
from companion.inputs.voice.sayable import sayable_now
from companion.inputs.voice.sources import WavSource, write_wav
from companion.session.inbox import Inbox
from companion.session.transcript import load
from tests.voice.needs import need_voice


def kikoi_phrases():
    game, ui, _bots = load(find("kikoi"))
    match = Match(game, ["Marie", "Bot 1", "Bot 2"], 4)
    return sayable_now(ui, match, 0, "en")


def trimmed(pcm):
    """espeak-ng's speech without the quiet it pads it with (the pause is then the one made here)."""
    loud = np.flatnonzero(np.abs(pcm.astype(np.int32)) > 300)
    return pcm[loud[0]:loud[-1] + 1]


def heard(path, phrases, rec, grammar_end_ms):
    listener = Listener(WavSource([path], gap=1.0), rec, Inbox(), lambda: phrases, grammar_end_ms=grammar_end_ms)
    listener.start().join(60)
    return listener.heard


def test_a_whole_line_ends_sooner_and_is_heard_the_same(tmp_path):
    need_voice()
    assert GRAMMAR_END_MS is not None and GRAMMAR_END_MS < 240
    phrases = kikoi_phrases()
    rec = SphinxRecognizer("en")
    said = [("end game", "en-us", True), ("ask Bot 2 for Kigliss eating", "en+f3", True),
            # shorter than the recogniser's first second: decoded whole once the VAD ends it
            ("undo", "en-us", False)]
    for i, (text, voice, sooner) in enumerate(said):
        wav = tmp_path / f"{i}.wav"
        write_wav(wav, synth.utterance(text, voice, 160))
        waited, confidence = {}, {}
        for end in (None, GRAMMAR_END_MS):
            got = heard(wav, phrases, rec, end)
            assert len(got) == 1 and got[0].result.line == text, (text, end, [h.result.text for h in got])
            waited[end] = got[0].utterance.decided - got[0].utterance.last_voiced
            confidence[end] = got[0].result.confidence
        if sooner:  # the VAD's 240 ms of silence against the grammar's 90 (30 ms frames)
            assert waited[GRAMMAR_END_MS] <= waited[None] - (240 - GRAMMAR_END_MS - 30) / 1000, (text, waited)
        else:
            assert waited[GRAMMAR_END_MS] == waited[None], (text, waited)
        # the rest of the silence is given to the decoders: the confidence is not cut with it
        assert abs(confidence[GRAMMAR_END_MS] - confidence[None]) < 0.1, (text, confidence)


def test_a_pause_inside_a_command_does_not_end_it(tmp_path):
    need_voice()
    phrases = kikoi_phrases()
    rec = SphinxRecognizer("en")
    # « ask Bot 1 for … Kimouss at home »: a pause longer than the grammar's end, shorter than
    # the VAD's; « ask Bot 1 for » is no line, so the utterance goes on
    first, rest = (trimmed(synth.speak(t, "en-us", 160)) for t in ("ask Bot 1 for", "Kimouss at home"))
    pcm = np.concatenate([synth.silence(0.4), first, synth.silence(0.18, seed=2), rest, synth.silence(0.4, seed=3)])
    wav = tmp_path / "paused.wav"
    write_wav(wav, pcm)
    got = heard(wav, phrases, rec, GRAMMAR_END_MS)
    assert [h.result.line for h in got] == ["ask Bot 1 for Kimouss at home"], [h.result.text for h in got]
