"""Push-to-talk (`--voice-ptt`): the microphone hears nothing until the talk key, then one
command; earcons say when it opens and closes. The key is Enter on an empty line at the
keyboard (or a word typed alone), which still reaches the session as before."""

import argparse

import numpy as np

from companion.inputs.voice import silero, synth
from companion.inputs.voice.grammar import PhraseSet
from companion.inputs.voice.listener import Listener, TalkGate, earcon_name
from companion.inputs.voice.options import add_voice_args
from companion.inputs.voice.recognizer import SphinxRecognizer
from companion.inputs.voice.table import TalkKey, keyboard_inbox
from companion.inputs.voice.vad import Segmenter
from companion.session.inbox import Closed, Inbox, Line
from tests.voice.needs import need_voice

PHRASES = PhraseSet.build([("help", "help"), ("status", "status"), ("repeat", "repeat")]).with_speakers(["Paul", "Zoé"])


class Speaker:
    """Records the earcons played; never speaking (the listener would mute meanwhile)."""

    def __init__(self):
        self.earcons = []

    def play_earcon(self, name):
        self.earcons.append(name)

    def is_speaking(self):
        return False


class Chunks:
    """The sound, 30 ms at a time; calls `at[k]()` before the k-th chunk (a key pressed then)."""

    def __init__(self, pcm, at):
        self.pcm, self.at = pcm, at

    def __iter__(self):
        for k, i in enumerate(range(0, len(self.pcm), 480)):
            if k in self.at:
                self.at[k]()
            yield self.pcm[i:i + 480]


def sound(*texts, gap=1.0):
    parts = [synth.silence(0.5)]
    for i, t in enumerate(texts):
        parts += [synth.speak(t, "en-us", 160), synth.silence(gap, seed=i + 2)]
    return np.concatenate(parts)


def listen(pcm, at, gate, recognizer, **kw):
    inbox = Inbox()
    listener = Listener(Chunks(pcm, at), recognizer, inbox, lambda: PHRASES, speaker=gate.speaker, gate=gate, **kw)
    listener.start().join(60)
    got = []
    while (item := inbox.get(0)) is not None:
        got.append(item.text)
    return got, listener


def test_nothing_is_heard_before_the_key_then_one_command():
    need_voice()
    rec = SphinxRecognizer("en")
    pcm = sound("help", "status", "repeat")
    speaker = Speaker()
    gate = TalkGate(speaker)
    got, listener = listen(pcm, {}, gate, rec)
    assert got == [] and listener.muted_chunks == len(range(0, len(pcm), 480)) and speaker.earcons == []
    # the key pressed during the silence after "help": "status" is heard, and only it
    after_help = (16000 * 0.5 + len(synth.speak("help", "en-us", 160)) + 16000 * 0.3) // 480
    got, listener = listen(pcm, {int(after_help): gate.open}, gate, rec)
    assert got == ["status"]
    assert speaker.earcons == [earcon_name("open"), earcon_name("close")] and not gate.is_open
    assert earcon_name("open") != earcon_name("close")


def test_a_name_alone_keeps_it_open_for_the_command_and_nothing_known_buzzes():
    need_voice()
    rec = SphinxRecognizer("en")
    speaker = Speaker()
    gate = TalkGate(speaker)
    got, _ = listen(sound("Paul", "status", "help", gap=0.8), {0: gate.open}, gate, rec)
    assert got == ["Paul: status"] and speaker.earcons == [earcon_name("open"), earcon_name("close")]
    speaker.earcons.clear()
    # a burst of noise: an utterance to webrtcvad, no words to the recogniser: the error earcon
    burst = np.concatenate([synth.silence(0.5), synth.silence(1.0, level=6000, seed=3), synth.silence(1.0, seed=2)])
    got, listener = listen(burst, {0: gate.open}, gate, rec, segmenter=Segmenter())
    assert [h.result.line for h in listener.heard] == [None] and got == []
    assert speaker.earcons == [earcon_name("open"), earcon_name("nothing")] and not gate.is_open
    # Silero's model (the default where installed) takes no utterance from it at all: the
    # microphone stays open for the command
    if silero.available():
        speaker.earcons.clear()
        got, listener = listen(burst, {0: gate.open}, gate, rec)
        assert listener.heard == [] and got == [] and speaker.earcons == [earcon_name("open")] and gate.is_open


def test_the_talk_key_at_the_keyboard():
    need_voice()  # a Listener has a VAD (webrtcvad)
    speaker = Speaker()
    gate = TalkGate(speaker)
    listener = Listener([], None, Inbox(), lambda: PHRASES, gate=gate)  # type: ignore[arg-type]
    inbox = Inbox()
    keys = keyboard_inbox(inbox, [listener])
    assert isinstance(keys, TalkKey)
    keys.post(Line(""))  # Enter on an empty line: the microphone opens, and the line still cuts speech
    assert gate.is_open and inbox.get(0) == Line("")
    keys.post(Line("status"))  # typed commands go on as before
    assert gate.is_open and inbox.get(0) == Line("status")
    keys.post(Line("   "))  # pressed again before anything was said: closed again
    assert not gate.is_open and speaker.earcons == [earcon_name("open"), earcon_name("close")]
    assert inbox.get(0) == Line("   ")
    keys.post(Closed("keyboard"))
    assert inbox.get(0) == Closed("keyboard")
    # a talk word instead of Enter: the word opens and is no command; Enter alone is only a line
    gate = TalkGate(speaker, "parle")
    keys = keyboard_inbox(inbox, [Listener([], None, Inbox(), lambda: PHRASES, gate=gate)])  # type: ignore[arg-type]
    keys.post(Line("Parle"))
    assert gate.is_open and inbox.get(0) is None
    keys.post(Line(""))
    assert gate.is_open and inbox.get(0) == Line("")
    # without push-to-talk the keyboard posts to the inbox itself
    assert keyboard_inbox(inbox, [Listener([], None, Inbox(), lambda: PHRASES)]) is inbox  # type: ignore[arg-type]


def test_the_option():
    p = argparse.ArgumentParser()
    add_voice_args(p)
    assert p.parse_args([]).voice_ptt is None
    assert p.parse_args(["--voice-ptt"]).voice_ptt == ""
    assert p.parse_args(["--voice-ptt", "parle"]).voice_ptt == "parle"
