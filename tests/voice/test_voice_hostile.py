"""Hostile recordings (issue #30, point 4): truncated, empty, mislabelled, wrong-rate, stereo,
8-bit and long files get one clear sentence and no traceback, in `companion voice recognize`
and in a game; a cut recording is never a command; any length is read in bounded memory."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest
import soundfile as sf

from companion.cli.voice import voice_main
from companion.inputs.voice import synth
from companion.inputs.voice.sources import (
    CHUNK,
    BadRecording,
    WavSource,
    check_recording,
    read_wav,
    stream_wav,
    write_wav,
)
from tests.voice.needs import need_voice

RATE = 16000


def tone(seconds: float, rate: int = RATE) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (np.sin(2 * np.pi * 440 * t) * 8000).astype(np.int16)


def whole(tmp_path, name="ok.wav", seconds=2.0) -> bytes:
    path = tmp_path / name
    sf.write(str(path), tone(seconds), RATE, subtype="PCM_16")
    return path.read_bytes()


def bad_files(tmp_path) -> dict[str, tuple[bytes, str]]:
    """name -> (bytes, the reason it must be refused with)."""
    b = whole(tmp_path)
    size_lie = bytearray(b)
    struct.pack_into("<I", size_lie, 40, 10 ** 8)  # the data chunk claims 100 MB
    rate0 = bytearray(b)
    struct.pack_into("<I", rate0, 24, 0)
    out: dict[str, tuple[bytes, str]] = {
        "empty.wav": (b"", "empty"),
        "header-only.wav": (b[:44], "empty"),
        "text.wav": (b"this is not a recording at all\n" * 20, "unreadable"),
        "riff-garbage.wav": (b"RIFF\x10\x00\x00\x00WAVEjunk" + bytes(range(256)) * 4, "unreadable"),
        "rate-zero.wav": (bytes(rate0), "unreadable"),
        "claims-more.wav": (bytes(size_lie), "cut"),
        "png-named-wav.wav": (b"\x89PNG\r\n\x1a\n" + b"\x00" * 200, "unreadable"),
    }
    for share in (0.1, 0.33, 0.5, 0.9, 0.99):  # cut at several places, mid-sample too
        out[f"cut-{share}.wav"] = (b[: 44 + int((len(b) - 44) * share) | 1], "cut")
    return out


@pytest.fixture
def env(monkeypatch):
    monkeypatch.setenv("COMPANION_SPEECH", "none")  # the sentence is printed; no sound card needed


def test_every_bad_recording_gets_its_reason(tmp_path, env):
    for name, (data, reason) in bad_files(tmp_path).items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(BadRecording) as caught:
            check_recording(path)
        assert caught.value.reason == reason, name
    with pytest.raises(BadRecording) as caught:
        check_recording(tmp_path / "nowhere.wav")
    assert caught.value.reason == "missing"


def test_recognize_says_one_sentence_and_no_traceback(tmp_path, env, capsys):
    for name, (data, reason) in bad_files(tmp_path).items():
        path = tmp_path / name
        path.write_bytes(data)
        for lang in ("fr", "en"):
            rc = voice_main(["recognize", str(path), "--json", "--game", "kikoi", "--lang", lang])
            out, err = capsys.readouterr()
            assert rc == 2, name
            answer = json.loads(out)
            assert answer["error"] == reason
            assert name in answer["message"] and answer["message"] in err
            assert "Traceback" not in err and "{" not in answer["message"]


def test_a_long_recording_is_not_one_command(tmp_path, env, capsys):
    path = tmp_path / "long.wav"
    write_wav(path, tone(40.0))
    assert voice_main(["recognize", str(path), "--json", "--lang", "en"]) == 2
    assert json.loads(capsys.readouterr().out)["error"] == "too_long"


def test_odd_but_whole_formats_are_read_as_16k_mono(tmp_path):
    """Stereo, 8-bit, 44.1 and 48 kHz, float, FLAC named .wav: read, at the same loudness."""
    x = tone(1.5, 44100).astype(np.float32) / 32768
    cases = {
        "stereo-8bit-44k.wav": (np.stack([x, x], 1), 44100, "WAV", "PCM_U8"),
        "float-48k.wav": (tone(1.5, 48000).astype(np.float32) / 32768, 48000, "WAV", "FLOAT"),
        "flac-named-wav.wav": (x, 44100, "FLAC", "PCM_16"),
        "8k-24bit.wav": (tone(1.5, 8000).astype(np.float32) / 32768, 8000, "WAV", "PCM_24"),
    }
    for name, (data, rate, fmt, subtype) in cases.items():
        path = tmp_path / name
        sf.write(str(path), data, rate, format=fmt, subtype=subtype)
        pcm = read_wav(path)
        assert abs(len(pcm) - int(1.5 * RATE)) <= 2, name
        assert 7000 < np.abs(pcm).max() < 8300, name  # 8000 peak, 8-bit rounding aside


def test_streaming_matches_reading_whole_across_block_edges(tmp_path):
    path = tmp_path / "44k.wav"
    rng = np.random.default_rng(3)
    data = (rng.normal(0, 3000, 44100 * 3 + 123)).clip(-32000, 32000).astype(np.int16)
    sf.write(str(path), data, 44100, subtype="PCM_16")
    whole_read = sf.read(str(path), dtype="float32")[0]
    n = int((len(whole_read) - 1) // (44100 / RATE)) + 1
    ref = np.interp(np.arange(n) * 44100 / RATE, np.arange(len(whole_read)), whole_read)
    ref16 = (np.clip(ref, -1, 1) * 32767).astype(np.int16)
    got = np.concatenate(list(stream_wav(path, block_s=0.37)))
    assert len(got) == len(ref16)
    assert np.abs(got.astype(int) - ref16.astype(int)).max() <= 1


def test_any_length_is_read_in_bounded_memory(tmp_path):
    path = tmp_path / "three-minutes.wav"
    with sf.SoundFile(str(path), "w", 44100, 2, "PCM_16") as f:
        block = np.stack([tone(1.0, 44100)] * 2, 1)
        for _ in range(180):
            f.write(block)
    tracemalloc.start()
    samples = 0
    for chunk in WavSource(path):
        samples += len(chunk)
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert samples >= 180 * RATE
    assert peak < 8 * 2 ** 20, peak  # a few one-second blocks, never the whole 30 MB file


def test_chunks_are_whole_frames_but_the_last(tmp_path):
    path = tmp_path / "a.wav"
    write_wav(path, tone(1.234))
    sizes = [len(c) for c in WavSource(path, gap=0.1)]
    assert all(s == CHUNK for s in sizes[:-1]) and 0 < sizes[-1] <= CHUNK


def test_a_file_damaged_while_read_ends_its_sound_without_a_command(tmp_path):
    path = tmp_path / "a.wav"
    write_wav(path, tone(60.0))  # larger than what the C library reads ahead
    src = WavSource(path)
    it = iter(src)
    next(it)
    path.write_bytes(b"")  # the recording is emptied under the reader
    rest = list(it)
    assert len(rest) < 10 * RATE / CHUNK  # ended soon, no traceback
    assert src.failed == [path]


def test_in_a_game_a_bad_recording_is_said_and_the_game_goes_on(tmp_path):
    need_voice()
    cut = tmp_path / "cut.wav"
    write_wav(cut, synth.utterance("status", "en-us", 160))
    cut.write_bytes(cut.read_bytes()[:-2001])
    env = {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp_path / "data")}
    r = subprocess.run([sys.executable, "-m", "companion.cli", "play", "kissa", "--players", "Marie", "--bots", "1",
                        "--lang", "en", "--speech", "text", "--voice-input", str(cut), "--seed", "3"],
                       input="status\n", capture_output=True, text=True, timeout=120, env=env)
    text = r.stdout + r.stderr
    assert "Traceback" not in text
    assert "The recording cut.wav is cut short" in text
    assert "The game goes on without voice" in text
    assert "Marie" in text  # the game went on: « status » typed was answered
