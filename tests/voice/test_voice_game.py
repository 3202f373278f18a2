"""A whole 2kissa10 game against a bot, the human's commands played from WAV files:
file -> VAD -> recogniser -> Line in the inbox -> the table loop and its core."""

import numpy as np

from companion.core import Match, Rng, find
from companion.inputs.voice import synth
from companion.inputs.voice.listener import Listener
from companion.inputs.voice.recognizer import SphinxRecognizer
from companion.inputs.voice.sayable import sayable_now
from companion.inputs.voice.sources import WavSource, write_wav
from companion.session import Seat, Session
from companion.session.inbox import Inbox, Line
from companion.session.transcript import load
from tests.voice.needs import need_voice


class Speaker:
    """Records what is said; `is_speaking` is what the listener asks."""

    def __init__(self):
        self.said, self.speaking, self.cuts = [], False, 0

    def say(self, text, priority=None, earcon=None, lang=None):
        self.said.append(text)

    def interrupt(self):
        self.cuts += 1

    def is_speaking(self):
        return self.speaking


def hear(path, recognizer, phrases, speaker=None, barge_in=False):
    inbox = Inbox()
    listener = Listener(WavSource([path]), recognizer, inbox, lambda: phrases, seat=None, speaker=speaker,
                        barge_in=barge_in)
    listener.start().join(30)
    lines = []
    while (item := inbox.get(0)) is not None:
        lines.append(item)
    return lines, listener


def test_a_whole_2kissa10_game_played_by_voice(tmp_path):
    need_voice()
    game, ui, bots = load(find("kissa"))
    names = ["Chloé", "Bot"]
    match = Match(game, names, 5)
    bot = bots["greedy"](game, 1, Rng(5).fork(2))
    lines_out = []
    session = Session("kissa", ui, match, [Seat("Chloé"), Seat("Bot", bot=bot)], lang="en", out=lines_out.append)
    session.helper = lambda seat: bots["greedy"](game, seat, Rng(5).fork(100 + seat + len(match.history)))
    session.start()
    recognizer = SphinxRecognizer("en")
    said = heard_right = 0
    for turn in range(20):
        if match.over:
            break
        assert match.current == 0
        phrases = sayable_now(ui, match, 0, "en")  # the whole grammar, as in play
        listed = phrases.phrases()
        moves = [m.phrase for m in listed if m.command and m.command.startswith("action:")]
        for text in ([moves[0], "yes"] if moves else ["play for me"]):
            wav = tmp_path / f"{turn}-{len(text)}.wav"
            write_wav(wav, synth.utterance(text, ("en-us", "en+f3")[turn % 2], 165))
            phrases = sayable_now(ui, match, 0, "en")
            got, _ = hear(wav, recognizer, phrases)
            said += 1
            assert len(got) <= 1
            if got:
                line = got[0]
                assert isinstance(line, Line) and line.source == "voice" and 0 <= line.confidence <= 1
                heard_right += line.text == text
                session.loop.feed(line)  # the Line as posted: source "voice", its confidence
        if not match.over and match.current == 0 and moves and not session.pending:
            continue
        session.pending.clear()
    assert match.over, "the game ended"
    assert heard_right >= said * 0.8, (heard_right, said)
    assert any("Chloé" in ln for ln in lines_out)


def test_not_listening_while_the_companion_speaks_unless_barge_in(tmp_path):
    need_voice()
    from companion.inputs.voice.grammar import PhraseSet

    phrases = PhraseSet.build([("help", "help"), ("repeat", "repeat"), ("status", "status")])
    recognizer = SphinxRecognizer("en")
    wav = tmp_path / "two.wav"
    write_wav(wav, np.concatenate([synth.utterance("help", pad=0.5), synth.silence(1.0), synth.utterance("status", pad=0.5)]))
    lines, listener = hear(wav, recognizer, phrases)
    assert [ln.text for ln in lines] == ["help", "status"]  # two utterances, cut by the VAD
    assert all(h.latency is not None and h.latency < 2 for h in listener.heard)
    speaker = Speaker()
    speaker.speaking = True
    lines, listener = hear(wav, recognizer, phrases, speaker=speaker)
    assert lines == [] and listener.muted_chunks > 0
    lines, _ = hear(wav, recognizer, phrases, speaker=speaker, barge_in=True)
    assert [ln.text for ln in lines] == ["help", "status"] and speaker.cuts >= 1


def test_a_recording_read_at_full_speed_waits_while_the_companion_speaks(tmp_path):
    """`--voice-input` without `--voice-realtime`: the recording takes turns with the table, so
    no command is lost while the game's opening is said (they all were, in `companion play`)."""
    need_voice()
    import threading

    from companion.inputs.voice.grammar import PhraseSet

    phrases = PhraseSet.build([("help", "help"), ("repeat", "repeat"), ("status", "status")])
    wav = tmp_path / "two.wav"
    write_wav(wav, np.concatenate([synth.utterance("help", pad=0.5), synth.silence(1.0), synth.utterance("status", pad=0.5)]))
    speaker = Speaker()
    speaker.speaking = True
    threading.Timer(0.5, lambda: setattr(speaker, "speaking", False)).start()
    inbox = Inbox()
    listener = Listener(WavSource([wav]), SphinxRecognizer("en"), inbox, lambda: phrases, speaker=speaker,
                        takes_turns=True)
    listener.start()
    got = []
    while listener._thread.is_alive() or not inbox.empty():  # as the table loop takes its lines
        item = inbox.get(0.05)
        if item is not None:
            got.append(item.text)
    assert got == ["help", "status"] and listener.muted_chunks == 0


def test_a_listener_that_cannot_load_says_so_when_it_starts():
    """The first grammar is built in the listener's thread; its failure is raised by start()."""
    def no_phrases():
        raise ValueError("nothing sayable: no phrase and no template")

    listener = Listener(iter(()), SphinxRecognizer("en"), Inbox(), no_phrases)
    try:
        listener.start()
    except ValueError as exc:
        assert "nothing sayable" in str(exc)
    else:
        raise AssertionError("start() should raise")


def test_play_options_start_a_listener_that_posts_voice_lines(tmp_path):
    need_voice()
    import argparse

    from companion.inputs.voice.table import add_voice_args, parse_specs, start_voice

    p = argparse.ArgumentParser()
    add_voice_args(p)
    assert parse_specs(["", "2=zoe"], ["Chloé", "Zoé"]) == [(None, None), (2, 1)]
    game, ui, bots = load(find("goodfortune"))
    match = Match(game, ["Chloé", "Paul"], 3)
    session = Session("goodfortune", ui, match, [Seat("Chloé"), Seat("Paul")], lang="en", out=lambda _t: None)
    wav = tmp_path / "status.wav"
    write_wav(wav, synth.utterance("status", "en-us", 160))
    args = p.parse_args(["--voice-input", str(wav)])
    inbox = Inbox()
    listeners = start_voice(args, session, inbox)
    session.start()  # the core tells the listener what is sayable (issue 24: never the live match)
    line = inbox.get(30)
    assert isinstance(line, Line) and line.text == "status" and line.source == "voice"
    session.loop.feed(line)  # taken as the table loop takes it: the core tells the listener, which goes on
    for listener in listeners:
        listener.join(30)
        assert listener._thread is not None and not listener._thread.is_alive()  # the recording's end, not the 30 s bound
    assert start_voice(p.parse_args([]), session, inbox) == []
    # what is sayable is made again only when a move was played or undone: the core tells a
    # new replica then (its next outputs), never for the same state
    now = listeners[0].phrases
    first = now()
    session.emit([])
    assert now() is first
    match.play(match.current, match.legal(match.current)[0])
    assert now() is first  # the live match is never read by the listener
    session.emit([])
    after = now()
    assert after is not first and now() is after
    match.undo()
    session.emit([])
    assert now() is not after
