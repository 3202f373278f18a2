"""`companion say` and `companion earcons`, run in-process."""

import io

import numpy as np
import pytest
import soundfile as sf

from companion.cli.say import earcons_main, say_main
from companion.outputs.earcons import NAMES


def run(fn, argv):
    out = io.StringIO()
    rc = fn(argv, out=out)
    return rc, out.getvalue().splitlines()


def test_say_writes_real_french_speech(tmp_path):
    wav = tmp_path / "x.wav"
    rc, lines = run(say_main, ["C'est au tour de Marie.", "--lang", "fr", "--out", str(wav)])
    assert rc == 0
    assert lines[0] == "Voix : espeak-ng."
    assert lines[1] == "C'est au tour de Marie."
    assert lines[2].startswith(f"Écrit dans {wav} : 1,") and lines[2].endswith("secondes de parole.")
    data, sr = sf.read(str(wav), dtype="float32")
    info = sf.info(str(wav))
    assert info.format == "WAV" and info.subtype == "PCM_16" and info.channels == 1
    assert 0.8 < len(data) / sr < 2.5 and np.max(np.abs(data)) > 0.2


def test_say_rate_and_engine_options(tmp_path):
    a, b = tmp_path / "a.wav", tmp_path / "b.wav"
    assert run(say_main, ["It is Mary's turn to roll the die.", "--lang", "en", "--out", str(a), "--rate", "120"])[0] == 0
    rc, lines = run(say_main, ["It is Mary's turn to roll the die.", "--lang", "en", "--out", str(b),
                               "--rate", "300", "--speech", "pyttsx3"])
    assert rc == 0 and lines[0] in ("Voice: pyttsx3, the system's voice.",) or lines[0].startswith("pyttsx3 is not available")
    assert sf.info(str(a)).duration > 1.8 * sf.info(str(b)).duration


def test_say_to_file_needs_an_engine_with_audio(tmp_path):
    rc, lines = run(say_main, ["Hello", "--lang", "en", "--speech", "text", "--out", str(tmp_path / "t.wav")])
    assert rc == 2
    assert lines[-1] == "The text voice cannot write a sound file. Choose espeak-ng or pyttsx3."
    assert not (tmp_path / "t.wav").exists()


def test_say_on_null_output():
    rc, lines = run(say_main, ["Bonjour", "--output", "null"])
    assert rc == 0 and lines == ["Voix : espeak-ng.", "Sortie : aucune, rien n'est joué.", "Bonjour"]


def test_say_to_an_output_file(tmp_path):
    rc, lines = run(say_main, ["Bonjour", "--output", f"file:{tmp_path}/o.wav", "--speech", "espeak"])
    assert rc == 0 and lines[1] == f"Sortie : le son est écrit dans {tmp_path}/o.wav."
    assert sf.info(f"{tmp_path}/o.wav").duration > 0.3


def test_say_bad_output_spec_is_a_usage_error():
    with pytest.raises(SystemExit) as exc:
        run(say_main, ["Bonjour", "--output", "speaker"])
    assert exc.value.code == 2


def test_earcons_written_with_their_meanings(tmp_path):
    rc, lines = run(earcons_main, ["--out", str(tmp_path / "ec"), "--lang", "fr"])
    assert rc == 0
    assert lines[0] == "turn.wav: Deux notes qui montent : un tour commence."
    assert lines[-1] == f"{len(NAMES)} sons écrits dans {tmp_path / 'ec'}."
    for name in NAMES:
        info = sf.info(str(tmp_path / "ec" / f"{name}.wav"))
        assert info.duration < 0.2


def test_earcons_played_and_explained():
    rc, lines = run(earcons_main, ["--output", "null", "--lang", "en", "--speech", "text"])
    assert rc == 0
    assert lines[:3] == ["Voice: none. The text is printed for your screen reader.",
                         "Output: none, nothing is played.",
                         "Here are the companion's sounds, each followed by its meaning."]
    assert len(lines) == 3 + len(NAMES) and lines[-1] == "Three bright rising notes: the rules code is read."


def test_say_speaks_which_voice_and_output_before_the_sentence(tmp_path):
    wav = tmp_path / "o.wav"
    rc, lines = run(say_main, ["Bonjour", "--output", f"file:{wav}", "--speech", "espeak-ng", "--rate", "300"])
    assert rc == 0
    alone = tmp_path / "alone.wav"
    assert run(say_main, ["Bonjour", "--out", str(alone), "--rate", "300"])[0] == 0
    # the file holds the two set-up lines, then the sentence
    assert sf.info(str(wav)).duration > 2.5 * sf.info(str(alone)).duration
