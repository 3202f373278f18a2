"""Per-player profiles, output specs and the WAV file output."""

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from companion.narration import Priority, catalog
from companion.outputs.audio.sinks import AudioUnavailable, FileSink, resample
from companion.outputs.profile import Profile, profiles_dir
from companion.outputs.speaker import OutputSpec, open_speaker, parse_output


def test_profile_defaults_save_and_load(tmp_path):
    p = Profile.load(tmp_path / "marie.json")
    assert (p.name, p.rate, p.volume, p.voice, p.language, p.verbosity) == ("marie", 175, 100, None, "fr", "normal")
    p.rate, p.volume, p.voice, p.verbosity = 250, 60, "fr-be", "terse"
    p.save()
    q = Profile.load(tmp_path / "marie.json")
    assert (q.rate, q.volume, q.voice, q.verbosity) == (250, 60, "fr-be", "terse")
    assert json.loads((tmp_path / "marie.json").read_text())["rate"] == 250


def test_profile_values_are_clamped(tmp_path):
    (tmp_path / "x.json").write_text(json.dumps({"rate": 5000, "volume": -3, "verbosity": "loud", "language": "de"}))
    p = Profile.load(tmp_path / "x.json")
    assert (p.rate, p.volume, p.verbosity, p.language) == (450, 0, "normal", "fr")


def test_damaged_profile_gives_defaults_and_says_why(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    p = Profile.load(tmp_path / "bad.json")
    assert p.rate == 175 and p.problem and "bad.json" in p.problem
    sp = open_speaker("text", "null", "fr", profile=p)
    try:
        lines = [catalog("fr").render(u) for u in sp.describe()]
        assert lines[-1].startswith("Profil illisible, réglages par défaut")
    finally:
        sp.close()
    assert (tmp_path / "bad.json").read_text() == "{not json"  # left alone until a change


def test_default_place_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert profiles_dir() == tmp_path / "cfg" / "companion" / "profiles"
    p = Profile.for_player("Zoé / Éloi")
    assert p.path.parent == profiles_dir() and p.path.suffix == ".json" and "/" not in p.path.name
    p.rate = 200
    p.save()
    assert Profile.for_player("Zoé / Éloi").rate == 200
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert profiles_dir() == tmp_path / "home" / ".config" / "companion" / "profiles"


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("auto", OutputSpec("auto")),
        ("device", OutputSpec("device")),
        ("device:2", OutputSpec("device", device=2)),
        ("device:USB Audio", OutputSpec("device", device="USB Audio")),
        ("device:USB Audio:left", OutputSpec("device", device="USB Audio", channel="left")),
        ("device:hw:1,0:right", OutputSpec("device", device="hw:1,0", channel="right")),
        ("device:1:RIGHT", OutputSpec("device", device=1, channel="right")),
        ("device::left", OutputSpec("device", channel="left")),
        ("file:/tmp/x.wav", OutputSpec("file", path=Path("/tmp/x.wav"))),
        ("null", OutputSpec("null")),
        ("recording", OutputSpec("recording")),
    ],
)
def test_output_specs(spec, expected):
    assert parse_output(spec) == expected


@pytest.mark.parametrize("spec", ["speaker", "file:", "wav:/tmp/x"])
def test_bad_output_specs(spec):
    with pytest.raises(ValueError):
        parse_output(spec)


def test_file_output_appends_everything_said(tmp_path):
    wav = tmp_path / "out.wav"
    for _ in range(2):
        sp = open_speaker("espeak-ng", f"file:{wav}", "fr")
        sp.say("Bonjour.", Priority.MESSAGE, earcon="turn")
        sp.say("Au revoir.", Priority.MESSAGE)
        assert sp.wait(5)
        # valid and complete while the speaker is still open
        first = sf.info(str(wav)).frames
        sp.close()
        assert sf.info(str(wav)).frames == first
    data, sr = sf.read(str(wav))
    assert sr == 22050 and 2.0 < len(data) / sr < 6.0
    half = len(data) // 2
    assert np.max(np.abs(data[:half])) > 0.2 and np.max(np.abs(data[half:])) > 0.2
    with open_speaker("text", f"file:{wav}", "en") as sp:
        assert catalog("en").render(sp.describe()[-1]) == f"Output: the sound is written to {wav}."


def test_file_output_that_cannot_be_written_says_so(tmp_path):
    (tmp_path / "notadir").write_text("x")
    sp = open_speaker("text", f"file:{tmp_path}/notadir/x.wav", "en")
    try:
        assert sp.sink.kind == "null"
        assert catalog("en").render(sp.describe()[-1]).startswith(f"Cannot write the sound to {tmp_path}/notadir/x.wav")
        sp.say("still fine", Priority.MESSAGE)
        assert sp.wait(2)
    finally:
        sp.close()


def test_file_sink_refuses_a_stereo_file(tmp_path):
    sf.write(str(tmp_path / "st.wav"), np.zeros((100, 2)), 22050)
    with pytest.raises(AudioUnavailable):
        FileSink(tmp_path / "st.wav")


def test_unavailable_engine_falls_back_and_says_why(tmp_path):
    sp = open_speaker("festival", "null", "fr")
    try:
        first = catalog("fr").render(sp.describe()[0])
        assert first.startswith("festival n'est pas disponible") and sp.engine.name in ("espeak-ng", "pyttsx3", "text")
    finally:
        sp.close()


def test_resample_keeps_duration_and_pitch():
    sr = 16000
    t = np.arange(sr) / sr
    tone = np.sin(2 * np.pi * 440 * t).astype(np.float32)
    out = resample(tone, sr, 22050)
    assert len(out) == 22050
    spectrum = np.abs(np.fft.rfft(out))
    assert abs(np.argmax(spectrum) * 22050 / len(out) - 440) < 2


def test_file_in_place_of_a_device_holds_what_would_have_been_heard(tmp_path):
    """Paced like a device, so a cut sentence is cut in the file too: the file holds the
    blocks written before the cut, then what follows (no clock involved: the player is
    held inside its 50th write while the input comes)."""
    import threading

    from companion.outputs.audio.player import BLOCK_MS
    from companion.outputs.speaker import Speaker
    from companion.outputs.speech import get_engine

    class Held(FileSink):
        def __init__(self, path):
            super().__init__(path, realtime=True)
            self.writes, self.reached, self.release = 0, threading.Event(), threading.Event()

        def write(self, block, sr):
            super().write(block, sr)
            self.writes += 1
            if self.writes == 50:
                self.reached.set()
                self.release.wait(10)

    wav = tmp_path / "heard.wav"
    eng = get_engine("recording")
    sink = Held(wav)
    sp = Speaker(eng, sink, "fr")
    try:
        sp.say("Une très longue lecture des règles du jeu. " * 5, Priority.TEXT)  # 12 s
        assert sink.reached.wait(10)
        sp.interrupt()
        sink.release.set()
        assert sp.wait(10)
        sp.say("Fin.", Priority.IMPORTANT)
        assert sp.wait(10)
    finally:
        sp.close()
    seconds = sf.info(str(wav)).duration
    # 50 blocks of the reading, then "Fin." (0.23 s)
    assert seconds == pytest.approx(50 * BLOCK_MS / 1000 + eng.duration("Fin."), abs=0.002)


def test_verbosity_as_the_narration_level(tmp_path):
    from companion.narration import Verbosity

    p = Profile.load(tmp_path / "v.json")
    assert p.verbosity_level == Verbosity.NORMAL
    p.verbosity_level = Verbosity.TERSE
    p.save()
    assert Profile.load(tmp_path / "v.json").verbosity == "terse"


def test_pyttsx3_file_completion_check(tmp_path):
    """How the pyttsx3 wrapper knows a file is whole: by its data chunk, wherever it is."""
    from companion.outputs.speech import _wav_complete

    wav = tmp_path / "a.wav"
    sf.write(str(wav), np.zeros(1000, dtype=np.float32), 22050, subtype="PCM_16")
    assert _wav_complete(wav) is True
    data = wav.read_bytes()
    (tmp_path / "part.wav").write_bytes(data[:-100])
    assert _wav_complete(tmp_path / "part.wav") is False
    # a LIST chunk before the data, as some writers put
    extra = b"LIST" + (4).to_bytes(4, "little") + b"INFO"
    body = data[12:36] + extra + data[36:]
    (tmp_path / "list.wav").write_bytes(b"RIFF" + (len(body) + 4).to_bytes(4, "little") + b"WAVE" + body)
    assert _wav_complete(tmp_path / "list.wav") is True
    sf.write(str(tmp_path / "a.aiff"), np.zeros(100, dtype=np.float32), 22050, format="AIFF")
    assert _wav_complete(tmp_path / "a.aiff") is None


def test_a_device_that_never_opens_is_given_up(monkeypatch, tmp_path):
    import threading

    from companion.outputs import speaker as speaker_mod

    never = threading.Event()

    class Hanging:
        def __init__(self, *a, **k):
            never.wait(10)

    monkeypatch.setattr(speaker_mod, "DeviceSink", Hanging)
    monkeypatch.setattr(speaker_mod, "DEVICE_OPEN_TIMEOUT", 0.2)
    sp = open_speaker("text", "auto", "en", fallback_wav=tmp_path / "f.wav")
    try:
        assert sp.sink.kind == "file"
        assert catalog("en").render(sp.describe()[-1]) == f"Output: no sound card, the sound is written to {tmp_path / 'f.wav'}."
    finally:
        never.set()
        sp.close()
