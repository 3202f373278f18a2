"""One microphone for the table: « Zoé, my board » is heard as Zoé's line, through the real
recogniser, and the session takes it as typed « Zoé: my board ». A seat with its own
microphone cannot be spoken for at the table's."""

import argparse

import numpy as np

from companion.core import Match, find
from companion.inputs.voice import synth
from companion.inputs.voice.listener import NAMED_FOR_S, Listener
from companion.inputs.voice.options import add_voice_args
from companion.inputs.voice.recognizer import SphinxRecognizer
from companion.inputs.voice.sayable import sayable_now
from companion.inputs.voice.sources import WavSource, write_wav
from companion.inputs.voice.table import start_voice, table_speakers
from companion.session import Seat, Session
from companion.session.inbox import Inbox, Line
from companion.session.outputs import InputTaken
from companion.session.transcript import load
from tests.voice.needs import need_voice

NAMES = ["Chloé", "Paul", "Zoé"]


def kikoi_session():
    game, ui, _bots = load(find("kikoi"))
    match = Match(game, NAMES, 3)
    session = Session("kikoi", ui, match, [Seat(n) for n in NAMES], lang="en", out=lambda _t: None)
    return session, ui, match


def heard_lines(path, phrases, recognizer=None):
    inbox = Inbox()
    listener = Listener(WavSource([path]), recognizer or SphinxRecognizer("en"), inbox, lambda: phrases)
    listener.start().join(60)
    got = []
    while (item := inbox.get(0)) is not None:
        got.append(item)
    return got, listener


def taken(session, line):
    return [o for o in session.core.handle(line) if isinstance(o, InputTaken)]


def test_naming_oneself_first_is_heard_and_taken_as_that_players_line(tmp_path):
    need_voice()
    session, ui, match = kikoi_session()
    assert match.current == 0  # Chloé is to move: Zoé and Paul speak out of turn
    phrases = sayable_now(ui, match, 0, "en", limit=30).with_speakers(NAMES)
    rec = SphinxRecognizer("en")
    said = [("Zoé, my board", "Zoé: my board", 2), ("Paul, status", "Paul: status", 1), ("help", "help", 0)]
    right = 0
    for i, (text, line_text, seat) in enumerate(said):
        wav = tmp_path / f"{i}.wav"
        write_wav(wav, synth.utterance(text, ("en-us", "en+f3", "en")[i], 150))
        got, listener = heard_lines(wav, phrases, rec)
        assert len(got) <= 1
        if got and got[0].text == line_text:
            right += 1
            line = got[0]
            assert isinstance(line, Line) and line.source == "voice" and line.seat is None
            [record] = taken(session, line)
            assert record.seat == seat and record.source == "voice"
            assert listener.heard[0].speaker == (NAMES[seat] if ":" in line_text else None)
    assert right >= 2, right


def test_a_name_alone_names_the_speaker_of_the_next_utterance(tmp_path):
    need_voice()
    session, ui, match = kikoi_session()
    phrases = sayable_now(ui, match, 0, "en", limit=10).with_speakers(NAMES)
    wav = tmp_path / "paul-pause-board.wav"
    write_wav(wav, np.concatenate([synth.utterance("Paul", "en-us", 150), synth.silence(0.8, seed=5),
                                   synth.utterance("my board", "en-us", 150, seed=6)]))
    got, listener = heard_lines(wav, phrases)
    assert len(listener.heard) == 2  # two utterances: the name, then the command
    assert [ln.text for ln in got] == ["Paul: my board"]
    [record] = taken(session, got[0])
    assert record.seat == 1 and record.command is not None
    # a name said long before (more than NAMED_FOR_S of sound) names nobody: the command is unnamed
    wav = tmp_path / "paul-long-pause-board.wav"
    write_wav(wav, np.concatenate([synth.utterance("Paul", "en-us", 150), synth.silence(NAMED_FOR_S + 1, seed=5),
                                   synth.utterance("my board", "en-us", 150, seed=6)]))
    got, listener = heard_lines(wav, phrases)
    assert len(listener.heard) == 2 and [ln.text for ln in got] == ["my board"]


def test_who_may_name_themselves_at_the_table_microphone(tmp_path):
    need_voice()
    p = argparse.ArgumentParser()
    add_voice_args(p)
    session, _ui, _match = kikoi_session()
    wav = tmp_path / "status.wav"
    write_wav(wav, synth.utterance("status", "en-us", 160))
    listeners = start_voice(p.parse_args(["--voice-input", str(wav)]), session, Inbox())
    session.start()  # the core tells the listeners what is sayable
    try:
        [table_mic] = listeners
        assert table_mic.phrases().speakers == NAMES
        assert table_mic.phrases().resolve("zoe status").speaker == "Zoé"
    finally:
        for listener in listeners:
            listener.stop()
    # a bot cannot be spoken for, nor a seat with its own microphone (--voice DEVICE=Zoé)
    seats = [Seat("Chloé"), Seat("Paul", bot=object()), Seat("Zoé")]
    assert table_speakers(seats, own=set()) == ["Chloé", "Zoé"]
    assert table_speakers(seats, own={2}) == []  # one player left at the table's microphone: no names
    assert table_speakers([Seat(n) for n in NAMES], own={0}) == ["Paul", "Zoé"]


def test_a_named_line_is_as_sure_as_the_same_line_unnamed():
    """The confidence compares what was heard with the whole of what was said, the speaker's
    name included: naming oneself must not make a move read back more often."""
    need_voice()
    from companion.inputs.voice import synth
    from companion.inputs.voice.grammar import PhraseSet
    from companion.inputs.voice.recognizer import SphinxRecognizer

    phrases = PhraseSet.build([("help", "help"), ("status", "status"), ("repeat", "repeat"),
                               ("my board", "board")]).with_speakers(["Paul", "Zoé"])
    rec = SphinxRecognizer("en")
    rec.set_phrases(phrases)
    for named, plain in (("Paul, status", "status"), ("Zoé, my board", "my board")):
        a, b = rec.recognize(synth.utterance(named)), rec.recognize(synth.utterance(plain))
        assert a.line == b.line == plain
        assert a.confidence >= 0.6 and a.confidence > b.confidence - 0.2, (named, a.confidence, b.confidence)


def test_vosk_is_given_the_named_sentences_too():
    """vosk is restricted to a list of sentences: the speakers' names must be in it (no French
    model can be had here, so its phrase list is checked without loading one)."""
    import json

    from companion.inputs.voice.grammar import PhraseSet
    from companion.inputs.voice.recognizer import VoskRecognizer

    phrases = PhraseSet.build([("status", "status")]).with_speakers(["Paul"])
    rec = VoskRecognizer.__new__(VoskRecognizer)  # no model needed to set its phrases
    rec.set_phrases(phrases)
    assert set(json.loads(rec._grammar)) == {"status", "paul status", "paul", "[unk]"}
