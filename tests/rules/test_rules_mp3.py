"""MP3 beside Ogg in each chapter's player (#17): older iOS Safari, what many VoiceOver users
have, plays no Ogg. The MP3 is encoded by libsndfile itself (no system package)."""

from __future__ import annotations

import hashlib
import json

import soundfile as sf

from companion.audiorules.manifest import load
from companion.audiorules.site import rules_page, site_files


def test_every_built_chapter_has_an_mp3_beside_its_ogg(built_kikoi) -> None:
    man = load("kikoi", "fr")
    built = json.loads(man.built_manifest_path.read_text(encoding="utf-8"))
    for ch, entry in zip(man.chapters, built["chapters"], strict=True):
        mp3 = ch.audio_file.with_suffix(".mp3")
        assert mp3.exists() and entry["mp3"] == mp3.name
        assert entry["mp3_sha256"] == hashlib.sha256(mp3.read_bytes()).hexdigest()
        info = sf.info(str(mp3))
        assert info.format == "MP3" and abs(info.frames / info.samplerate - ch.duration) < 0.5


def test_the_page_offers_ogg_then_mp3_and_the_site_serves_both(built_kikoi) -> None:
    man = load("kikoi", "fr")
    page = rules_page(man)
    ch = man.chapters[0]
    assert f'<source src="{ch.id}.ogg" type="audio/ogg"><source src="{ch.id}.mp3" type="audio/mpeg">' in page
    files = site_files(["kikoi"])
    assert f"kikoi/fr/{ch.id}.mp3" in files and f"kikoi/fr/{ch.id}.ogg" in files
