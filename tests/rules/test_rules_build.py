"""`companion rules build`: real speech, compressed, reproducible, incremental."""

from __future__ import annotations

import hashlib
import io
import json
import struct
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from companion.audiorules import CHAPTERS
from companion.audiorules.build import DEFAULT_RATE, build_manifest, chapter_samples
from companion.audiorules.encode import OGG_SERIAL, encode, normalize_ogg, ogg_crc
from companion.audiorules.manifest import load
from companion.cli.rules import rules_main


def test_build_writes_every_chapter_as_ogg_vorbis(built_kikoi) -> None:
    man = load("kikoi", "fr")
    assert [r.chapter for r in built_kikoi["results"]] == list(CHAPTERS)
    built = json.loads(man.built_manifest_path.read_text(encoding="utf-8"))
    assert built["settings"] == {"engine": "espeak-ng", "rate": DEFAULT_RATE, "format": "ogg"}
    for ch, entry in zip(man.chapters, built["chapters"], strict=True):
        assert ch.built and ch.audio_file.parent == built_kikoi["dir"] / "kikoi" / "fr"
        info = sf.info(str(ch.audio_file))
        assert (info.format, info.subtype, info.channels) == ("OGG", "VORBIS", 1)
        assert abs(info.frames / info.samplerate - ch.duration) < 0.05
        assert entry["sha256"] == hashlib.sha256(ch.audio_file.read_bytes()).hexdigest()
        # compressed: well under 16-bit PCM's size
        assert ch.audio_file.stat().st_size < 0.4 * info.frames * 2


def test_the_audio_is_real_speech_of_the_text(built_kikoi) -> None:
    from companion.outputs.speech import get_engine

    man = load("kikoi", "fr")
    for ch in man.chapters:
        data, sr = sf.read(str(ch.audio_file), dtype="float32")
        words = len((ch.title + " " + ch.text).split())
        minutes = len(data) / sr / 60
        assert 80 < words / minutes < 260, f"{ch.id}: {words / minutes:.0f} words a minute"
        frames = data[: len(data) // 441 * 441].reshape(-1, 441)  # 20 ms at 22.05 kHz
        rms = np.sqrt((frames**2).mean(axis=1))
        assert rms.max() > 0.05
        quiet = (rms < 0.01).mean()
        assert 0.05 < quiet < 0.6, f"{ch.id}: {quiet:.0%} silent frames (speech has pauses)"
    # The start of the chapter is the title as the engine says it (envelopes match after Vorbis).
    ch = man.chapters[0]
    title, tsr = get_engine("espeak-ng").synth(ch.title + ".", "fr", rate=DEFAULT_RATE)
    data, sr = sf.read(str(ch.audio_file), dtype="float32")
    assert tsr == sr
    n = len(title) // 441 * 441
    env_a = np.sqrt((np.asarray(title[:n]).reshape(-1, 441) ** 2).mean(axis=1))
    env_b = np.sqrt((data[:n].reshape(-1, 441) ** 2).mean(axis=1))
    assert np.corrcoef(env_a, env_b)[0, 1] > 0.95


def test_same_text_gives_the_same_bytes(built_kikoi, tmp_path: Path) -> None:
    man = load("kikoi", "fr", build=tmp_path)
    again = build_manifest(man, chapters=["goal", "scoring"], force=True)
    for r in again:
        assert r.synthesized
        first = built_kikoi["dir"] / "kikoi" / "fr" / f"{r.chapter}.ogg"
        assert Path(r.path).read_bytes() == first.read_bytes()


def test_an_unchanged_chapter_is_not_synthesized_again(built_kikoi) -> None:
    results = build_manifest(load("kikoi", "fr"))
    assert [r.synthesized for r in results] == [False] * len(CHAPTERS)
    assert [r.sha256 for r in results] == [r.sha256 for r in built_kikoi["results"]]


def test_changed_text_makes_the_audio_stale(built_kikoi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from companion.audiorules.manifest import rules_dir

    src = tmp_path / "rules"
    shutil.copytree(rules_dir() / "kikoi", src / "kikoi")
    monkeypatch.setenv("COMPANION_RULES_DIR", str(src))
    assert load("kikoi", "fr").chapter("goal").built
    with (src / "kikoi" / "fr" / "goal.txt").open("a", encoding="utf-8") as fh:
        fh.write("\nUne phrase de plus.\n")
    man = load("kikoi", "fr")
    assert not man.chapter("goal").built and man.chapter("setup").built


def test_flac_is_reproducible_too(tmp_path: Path) -> None:
    man = load("kissa", "en", build=tmp_path / "a")
    [a] = build_manifest(man, chapters=["setup"], fmt="flac")
    [b] = build_manifest(load("kissa", "en", build=tmp_path / "b"), chapters=["setup"], fmt="flac")
    assert a.path.endswith("setup.flac") and sf.info(a.path).format == "FLAC"
    assert Path(a.path).read_bytes() == Path(b.path).read_bytes()
    assert load("kissa", "en", build=tmp_path / "a").chapter("setup").built


def test_ogg_pages_get_a_fixed_serial_and_valid_checksums() -> None:
    t = np.linspace(0, 1, 22050, dtype=np.float32)
    tone = 0.3 * np.sin(2 * np.pi * 440 * t).astype(np.float32)
    a, b = encode(tone, 22050), encode(tone, 22050)
    assert a == b and a[:4] == b"OggS"
    assert struct.unpack_from("<I", a, 14)[0] == OGG_SERIAL
    # libogg checks every page's CRC when reading: a wrong one loses the page.
    data, _ = sf.read(io.BytesIO(a))
    assert len(data) == 22050
    broken = bytearray(a)
    broken[22] ^= 0xFF
    with pytest.raises(Exception):  # noqa: B017 - libsndfile's error type varies
        sf.read(io.BytesIO(bytes(broken)))
    assert normalize_ogg(a) == a
    assert ogg_crc(b"") == 0 and ogg_crc(b"OggS") != 0


def test_chapter_samples_put_pauses_between_paragraphs() -> None:
    from companion.outputs.speech import get_engine

    eng = get_engine("recording")
    ch = load("kissa", "fr").chapter("setup")
    samples, sr = chapter_samples(eng, ch, "fr", 175)
    texts = [c[0] for c in eng.calls]
    assert texts == [ch.title + "."] + ch.paragraphs
    assert len(samples) / sr > sum(eng.duration(t, 175) for t in texts)


def test_build_command_reports_an_unknown_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_RULES_BUILD", str(tmp_path))
    out: list[str] = []
    rc = rules_main(["build", "--game", "kissa", "--lang", "fr", "--engine", "nonesuch", "--force"], print_fn=out.append)
    assert rc == 1 and "nonesuch" in out[-1]


def test_build_command_builds_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_RULES_BUILD", str(tmp_path))
    monkeypatch.setenv("COMPANION_LANG", "en")
    out: list[str] = []
    assert rules_main(["build", "--game", "kissa", "--lang", "en"], print_fn=out.append) == 0
    assert len(out) == len(CHAPTERS) + 1 and "synthesized" in out[0] and "8 chapters ready" in out[-1]
    out.clear()
    assert rules_main(["build", "--game", "kissa", "--lang", "en"], print_fn=out.append) == 0
    assert all("already up to date" in line for line in out[:-1])
