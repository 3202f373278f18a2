"""Issue 24, replayed by voice through `companion play --voice-input` with recordings made for
the test (espeak-ng, white noise; a real recording of talk from Debian's pocketsphinx-testdata):
« undo » and « quit » heard below the threshold are read back and wait for a sure « oui »; a
recording of plain talk changes nothing and prints what was heard; every voice line is
printed as heard, and logged with its command, its confidence and the words heard."""

import os
from pathlib import Path

import numpy as np
import pytest

from companion.inputs.voice import synth
from companion.inputs.voice.sources import write_wav
from companion.session.core import CHANGES_STATE, CONFIDENCE_THRESHOLD
from tests.voice.by_voice import play_recording, voice_inputs
from tests.voice.needs import need_voice

TALK = Path("/usr/share/pocketsphinx/test/data/goforward.raw")  # a man saying « go forward ten meters »


def test_undo_and_quit_heard_with_doubt_are_read_back_and_talk_changes_nothing(tmp_path):
    need_voice()
    if not TALK.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("pocketsphinx-testdata missing under CI (./run setup installs it)")
        pytest.skip("needs pocketsphinx-testdata")
    gap = synth.silence(1.0)
    parts = [synth.utterance("undo", "en-us", 160, 5.0, seed=1),  # heard « undo », little confidence
             synth.utterance("no", "en-us", 160),                 # the read-back dropped
             np.fromfile(TALK, dtype="<i2"),                      # talk at the table: no command
             synth.utterance("end game", "en-us", 160, 10.0, seed=1),  # quit, heard with little confidence
             synth.utterance("yes", "en-us", 160)]                # a sure « yes »: the game ends
    wav = tmp_path / "table.wav"
    write_wav(wav, np.concatenate([np.concatenate([p.astype(np.int16), gap]) for p in parts]))
    out, records, code = play_recording(tmp_path, "goodfortune", wav, seed=3)
    voice = voice_inputs(records)
    assert voice, out
    for i in voice:
        assert f"Heard: {i['heard']}" in out  # the player always knows what was heard
        doubtful = i["confidence"] < CONFIDENCE_THRESHOLD
        if doubtful and i["command"] in CHANGES_STATE:
            assert i["outcome"] == "confirm", i  # read back, nothing done yet
        assert i["outcome"] != "act", i  # no move was ever played by these recordings
    undo = next(i for i in voice if i["command"] == "undo")
    assert undo["confidence"] < CONFIDENCE_THRESHOLD and undo["outcome"] == "confirm" and "You said: undo?" in out
    talk = voice[2]  # « go forward ten meters »: heard as some phrase, or as talk; nothing changed
    assert talk["outcome"] in ("talk", "confirm", "not_understood", "answer", "refuse"), voice
    quit_ = next(i for i in voice if i["command"] == "quit")
    assert quit_["confidence"] < CONFIDENCE_THRESHOLD and quit_["outcome"] == "confirm", voice
    assert "Quit the game?" in out and code == 0 and "Goodbye" in out
    assert voice[-1]["heard"] == "yes" and voice[-1]["confidence"] >= CONFIDENCE_THRESHOLD  # only a sure yes quits
