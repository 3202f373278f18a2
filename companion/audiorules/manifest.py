"""The chapters of one game's rules in one language: manifest.json, the texts, the built audio.

Source manifest (`audio/rules/<game>/<lang>/manifest.json`, written by hand)::

    {"game": "kikoi", "lang": "fr", "title": "Les 5 KIKOI",
     "chapters": [{"id": "goal", "title": "Le but du jeu", "text": "goal.txt",
                   "audio": "goal.ogg", "duration": null}, ...]}

`audio` is relative to the build folder of that game and language
(`audio/rules/build/<game>/<lang>/`). `duration` stays null in the sources; the build writes
its own manifest next to the audio with the durations, the text's sha256 and the audio's
sha256, and `load` takes the duration from there when the built audio matches today's text.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import CHAPTERS, GAMES, LANGS

REPO_ROOT = Path(__file__).resolve().parents[2]


def rules_dir() -> Path:
    """Where the sources are (`COMPANION_RULES_DIR` overrides `audio/rules/`)."""
    return Path(os.environ.get("COMPANION_RULES_DIR") or REPO_ROOT / "audio" / "rules")


def build_dir() -> Path:
    """Where the audio goes (`COMPANION_RULES_BUILD` overrides `audio/rules/build/`)."""
    return Path(os.environ.get("COMPANION_RULES_BUILD") or rules_dir() / "build")


class ManifestError(ValueError):
    """A manifest that is missing, unreadable or inconsistent."""


@dataclass
class Chapter:
    id: str
    title: str
    text_file: Path
    audio_file: Path
    duration: float | None = None  # seconds, when the built audio matches the text
    text: str = ""

    @property
    def paragraphs(self) -> list[str]:
        return [" ".join(p.split()) for p in re.split(r"\n\s*\n", self.text) if p.strip()]

    @property
    def sentences(self) -> list[str]:
        """The text cut into sentences (the player's unit of pause and repeat)."""
        out: list[str] = []
        for para in self.paragraphs:
            parts = re.split(r"(?<=[.!?…])\s+(?=[«\"(A-ZÀ-ÖØ-Ý0-9])", para)
            out.extend(p for p in parts if p)
        return out

    @property
    def text_sha256(self) -> str:
        return sha256_text(self.title + "\n\n" + self.text)

    @property
    def built(self) -> bool:
        return self.duration is not None and self.audio_file.exists()


@dataclass
class Manifest:
    game: str
    lang: str
    title: str
    chapters: list[Chapter] = field(default_factory=list)
    source_dir: Path = Path()
    audio_dir: Path = Path()

    def chapter(self, chapter_id: str) -> Chapter:
        for ch in self.chapters:
            if ch.id == chapter_id:
                return ch
        raise KeyError(chapter_id)

    def index(self, chapter_id: str) -> int:
        return [c.id for c in self.chapters].index(chapter_id)

    @property
    def built_manifest_path(self) -> Path:
        return self.audio_dir / "manifest.json"


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load(game: str, lang: str, *, source: Path | None = None, build: Path | None = None) -> Manifest:
    """The manifest of `game` in `lang`, with the texts read and the durations of fresh audio."""
    if game not in GAMES:
        raise ManifestError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    if lang not in LANGS:
        raise ManifestError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")
    src = (source or rules_dir()) / game / lang
    out = (build or build_dir()) / game / lang
    path = src / "manifest.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ManifestError(f"{path}: {exc}") from exc
    if data.get("game") != game or data.get("lang") != lang:
        raise ManifestError(f"{path}: says game={data.get('game')!r} lang={data.get('lang')!r}")
    man = Manifest(game, lang, str(data["title"]), [], src, out)
    for entry in data.get("chapters", []):
        ch = Chapter(
            id=entry["id"],
            title=entry["title"],
            text_file=src / entry["text"],
            audio_file=out / entry["audio"],
        )
        try:
            ch.text = ch.text_file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ManifestError(f"{ch.text_file}: {exc}") from exc
        man.chapters.append(ch)
    ids = [c.id for c in man.chapters]
    if ids != list(CHAPTERS):
        raise ManifestError(f"{path}: chapters {ids} should be {list(CHAPTERS)}")
    _attach_build(man)
    return man


def _attach_build(man: Manifest) -> None:
    try:
        built = json.loads(man.built_manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    by_id = {c.get("id"): c for c in built.get("chapters", [])}
    for ch in man.chapters:
        entry = by_id.get(ch.id)
        if not entry or entry.get("text_sha256") != ch.text_sha256:
            continue
        audio = man.audio_dir / str(entry.get("audio", ch.audio_file.name))
        if audio.parent == man.audio_dir and audio.exists():
            ch.audio_file = audio
            ch.duration = float(entry["duration"])


def load_all(langs: tuple[str, ...] = LANGS, games: tuple[str, ...] = GAMES) -> list[Manifest]:
    return [load(g, lang) for g in games for lang in langs]
