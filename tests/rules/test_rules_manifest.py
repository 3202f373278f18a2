"""The chapter texts and their manifests: complete, parallel in both languages, faithful."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.audiorules import CHAPTERS, GAMES, LANGS
from companion.audiorules.manifest import ManifestError, load, rules_dir
from companion.core.text import fold


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_game_has_every_chapter(game: str, lang: str) -> None:
    man = load(game, lang)
    assert [c.id for c in man.chapters] == list(CHAPTERS)
    assert len({c.title for c in man.chapters}) == len(CHAPTERS)
    for ch in man.chapters:
        assert ch.text_file.name == f"{ch.id}.txt"
        assert ch.audio_file.name == f"{ch.id}.ogg"
        assert len(ch.sentences) >= 2, ch.id
        assert all(len(s) < 600 for s in ch.sentences), "sentences short enough to pause and repeat"
        # written for the ear: no markup, no written notation symbols read letter by letter
        assert not any(mark in ch.text for mark in ("#", "*", "_", "<", ">", "|")), ch.id


@pytest.mark.parametrize("game", GAMES)
def test_french_and_english_are_parallel(game: str) -> None:
    fr, en = load(game, "fr"), load(game, "en")
    assert fr.title == en.title
    for a, b in zip(fr.chapters, en.chapters, strict=True):
        assert a.id == b.id
        assert 0.6 < len(b.paragraphs) / len(a.paragraphs) <= 1.5, a.id
        assert 0.6 < len(b.text) / len(a.text) < 1.4, a.id


def test_source_manifests_leave_durations_to_the_build() -> None:
    for game in GAMES:
        for lang in LANGS:
            data = json.loads((rules_dir() / game / lang / "manifest.json").read_text(encoding="utf-8"))
            assert {"id", "title", "text", "audio", "duration"} <= set(data["chapters"][0])
            assert all(c["duration"] is None for c in data["chapters"])


# Facts of docs/rules.md each chapter must state (folded words; one tuple per fact, any of them).
FACTS = {
    ("kikoi", "fr", "setup"): [("quatre jetons",), ("en tire trois",), ("rouges",), ("gauche",)],
    ("kikoi", "en", "setup"): [("draws four tokens",), ("each draws three",), ("red",), ("left",)],
    ("kikoi", "fr", "turn"): [("au moins un jeton sur sa ligne",), ("bonne pioche",), ("mauvaise pioche",),
                              ("perd son tour",), ("kikonk",), ("kitourn",), ("kipirat",)],
    ("kikoi", "en", "turn"): [("at least one token in its row",), ("good draw",), ("bad draw",),
                              ("loses their turn",), ("kikonk",), ("kitourn",), ("kipirat",)],
    ("kikoi", "fr", "components"): [("mousse",), ("rugueux",), ("lisse",), ("ondule",), ("boucle",),
                                    ("triangle",), ("cercle",), ("fleur",), ("rectangle",)],
    ("kaliko", "fr", "components"): [("quatre vingt cinq",), ("trois segments",), ("ne se retourne jamais",)],
    ("kaliko", "en", "components"): [("eighty five",), ("three path segments",), ("never flipped",)],
    ("kaliko", "fr", "scoring"): [("trois points",), ("double",), ("anciennes tuiles",)],
    ("kaliko", "en", "scoring"): [("three points",), ("double",), ("old tiles",)],
    ("kaliko", "fr", "turn"): [("sept",), ("echanger",), ("passer",), ("ligne principale",)],
    ("kaliko", "fr", "example"): [("onze points",), ("six points",), ("dix huit points",), ("dix points",)],
    ("kaliko", "en", "example"): [("eleven points",), ("six points",), ("eighteen points",), ("ten points",)],
    ("goodfortune", "fr", "setup"): [("numero un",), ("vingt et un",), ("huit",), ("ligne centrale",),
                                     ("ordre croissant",), ("petit motif",)],
    ("goodfortune", "fr", "turn"): [("neuf manches",), ("plus petit numero",), ("plus grand numero",),
                                    ("defaussee",), ("le retourne",)],
    ("goodfortune", "en", "turn"): [("nine rounds",), ("lower number",), ("higher number",),
                                    ("discarded",), ("turns it over",)],
    ("goodfortune", "fr", "example"): [("trente neuf points",)],
    ("goodfortune", "en", "example"): [("thirty nine points",)],
    ("goodfortune", "fr", "components"): [("invente",)],  # the shipped deck is synthetic (RULES §6.1)
    ("goodfortune", "en", "components"): [("invented",)],
    ("kissa", "fr", "scoring"): [("le zero vaut dix",), ("double",), ("negatif",)],
    ("kissa", "en", "scoring"): [("zero is worth ten",), ("doubled",), ("negative",)],
    ("kissa", "fr", "turn"): [("gauche a droite",), ("haut en bas",), ("multiplier par zero est interdit",),
                              ("zero tout seul est un nombre",)],
    ("kissa", "fr", "example"): [("trente quatre points",), ("quatre vingt six points",), ("quarante quatre points",)],
    ("kissa", "en", "example"): [("thirty four points",), ("eighty six points",), ("forty four points",)],
}


@pytest.mark.parametrize(("key", "facts"), list(FACTS.items()), ids=["/".join(k) for k in FACTS])
def test_chapters_state_the_rules(key: tuple[str, str, str], facts: list[tuple[str, ...]]) -> None:
    game, lang, chapter = key
    text = fold(load(game, lang).chapter(chapter).text)
    for options in facts:
        assert any(fold(o) in text for o in options), f"{key}: missing {options}"


def test_a_broken_manifest_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "rules"
    shutil.copytree(rules_dir() / "kissa", src / "kissa")
    monkeypatch.setenv("COMPANION_RULES_DIR", str(src))
    assert load("kissa", "fr").title == "2kissa10"
    path = src / "kissa" / "fr" / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["game"] = "kikoi"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ManifestError, match="says game"):
        load("kissa", "fr")
    (src / "kissa" / "en" / "turn.txt").unlink()
    with pytest.raises(ManifestError, match="turn.txt"):
        load("kissa", "en")
    with pytest.raises(ManifestError, match="unknown game"):
        load("chess", "fr")
    with pytest.raises(ManifestError, match="unknown language"):
        load("kissa", "de")
