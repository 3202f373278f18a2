"""`companion rules build`: every chapter synthesized with the speech engine, then encoded.

Each chapter's audio is its title, a short silence, then its paragraphs separated by silences.
The same text, engine, voice and rate give the same bytes (see `encode`). A chapter whose text
and settings have not changed since the last build is not synthesized again (unless `force`).
The build manifest (`audio/rules/build/<game>/<lang>/manifest.json`) records, per chapter, the
duration, the text's sha256 (so a stale file is never served as the current text) and the
audio's sha256.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.saves.files import fsync_dir, write_atomic

from .encode import encode
from .manifest import Chapter, Manifest

DEFAULT_ENGINE = "espeak-ng"
DEFAULT_RATE = 160  # words per minute: a little slower than conversation, for rules
TITLE_GAP_S = 0.8
PARAGRAPH_GAP_S = 0.6


@dataclass
class BuildResult:
    game: str
    lang: str
    chapter: str
    path: str
    duration: float
    sha256: str
    synthesized: bool  # False when the existing file was up to date


def chapter_samples(engine: Any, chapter: Chapter, lang: str, rate: int) -> tuple[np.ndarray, int]:
    """The chapter as mono float32 samples: title, pause, paragraphs with pauses between."""
    pieces: list[np.ndarray] = []
    sample_rate = 0
    texts = [chapter.title + "."] + chapter.paragraphs
    for i, text in enumerate(texts):
        samples, sr = engine.synth(text, lang, rate=rate)
        if sample_rate and sr != sample_rate:
            raise ValueError(f"the engine changed sample rate ({sample_rate} then {sr})")
        sample_rate = sr
        pieces.append(np.asarray(samples, dtype=np.float32).reshape(-1))
        gap = TITLE_GAP_S if i == 0 else PARAGRAPH_GAP_S
        if i < len(texts) - 1:
            pieces.append(np.zeros(int(gap * sr), dtype=np.float32))
    return np.concatenate(pieces), sample_rate


def _settings(engine_name: str, rate: int, fmt: str) -> dict[str, Any]:
    return {"engine": engine_name, "rate": rate, "format": fmt}


def build_manifest(
    man: Manifest,
    *,
    engine_name: str = DEFAULT_ENGINE,
    rate: int = DEFAULT_RATE,
    fmt: str = "ogg",
    force: bool = False,
    engine: Any = None,
    chapters: Iterable[str] | None = None,
    progress: Callable[[BuildResult], None] | None = None,
) -> list[BuildResult]:
    """Build the audio of one game in one language; returns one result per chapter built."""
    wanted = set(chapters) if chapters is not None else None
    man.audio_dir.mkdir(parents=True, exist_ok=True)
    _sweep(man.audio_dir)  # the audio and the build manifest are in this folder
    settings = _settings(engine_name, rate, fmt)
    old = _read_built(man)
    entries = {e["id"]: e for e in old.get("chapters", [])} if old.get("settings") == settings else {}
    results: list[BuildResult] = []
    for ch in man.chapters:
        if wanted is not None and ch.id not in wanted:
            continue
        audio = ch.audio_file.with_suffix("." + fmt)
        mp3 = audio.with_suffix(".mp3") if fmt == "ogg" else None  # beside the Ogg, for iOS Safari
        prev = entries.get(ch.id)
        if (
            not force
            and prev
            and prev.get("text_sha256") == ch.text_sha256
            and audio.exists()
            and hashlib.sha256(audio.read_bytes()).hexdigest() == prev.get("sha256")
            and (mp3 is None or (mp3.exists() and hashlib.sha256(mp3.read_bytes()).hexdigest() == prev.get("mp3_sha256")))
        ):
            res = BuildResult(man.game, man.lang, ch.id, str(audio), prev["duration"], prev["sha256"], False)
        else:
            if engine is None:
                from companion.outputs.speech import get_engine

                engine = get_engine(engine_name)
            samples, sr = chapter_samples(engine, ch, man.lang, rate)
            data = encode(samples, sr, fmt)
            _write_whole(audio, data)
            if mp3 is not None:
                _write_whole(mp3, encode(samples, sr, "mp3"))
            res = BuildResult(
                man.game, man.lang, ch.id, str(audio), round(len(samples) / sr, 3),
                hashlib.sha256(data).hexdigest(), True,
            )
        ch.audio_file = audio
        ch.duration = res.duration
        entries[ch.id] = {
            "id": ch.id,
            "title": ch.title,
            "audio": audio.name,
            "duration": res.duration,
            "text_sha256": ch.text_sha256,
            "sha256": res.sha256,
            **({"mp3": mp3.name, "mp3_sha256": hashlib.sha256(mp3.read_bytes()).hexdigest()} if mp3 is not None else {}),
        }
        results.append(res)
        if res.synthesized:
            # the manifest names each chapter as soon as it is built, so that a server refreshed
            # on this progress offers it at once (`companion serve` on a fresh set-up)
            _write_built(man, settings, entries)
        if progress:
            progress(res)
    _write_built(man, settings, entries)
    return results


def _write_built(man: Manifest, settings: dict[str, Any], entries: dict[str, Any]) -> None:
    built = {
        "game": man.game,
        "lang": man.lang,
        "title": man.title,
        "settings": settings,
        "chapters": [entries[c.id] for c in man.chapters if c.id in entries],
    }
    _write_whole(man.built_manifest_path, (json.dumps(built, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))


def _sweep(folder: Path) -> None:
    """Temporary files an earlier build left when it was killed mid-write (`companion serve`
    stopped while it built): whole files are never among them; they go."""
    for stale in [*folder.glob(".*.tmp"), *folder.glob("*.ogg.tmp"), *folder.glob("*.mp3.tmp"),
                  *folder.glob("*.flac.tmp"), *folder.glob("*.json.tmp")]:
        with contextlib.suppress(OSError):
            stale.unlink()


def _write_whole(path: Path, data: bytes) -> None:
    """`path` replaced by `data`, all or nothing, and no temporary file left behind however the
    build stops: on Linux the data is written to a file without a name (O_TMPFILE), named only
    once whole and synced, then renamed over `path` (a kill, even SIGKILL from `companion serve`'s
    stop, can leave a name only between those two calls, and then a whole file, swept at the
    next build); elsewhere a temporary file removed on any exception."""
    flag = getattr(os, "O_TMPFILE", 0)
    fd = proc = -1
    try:
        fd = os.open(path.parent, flag | os.O_WRONLY, 0o644) if flag else -1
        proc = os.open("/proc/self/fd", os.O_RDONLY) if fd >= 0 else -1
    except OSError:  # a file system without unnamed files, or no /proc
        pass  # then the named temporary file below, swept at the next build
    if fd >= 0 and proc >= 0:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            # linkat(AT_SYMLINK_FOLLOW) of /proc/self/fd/N: how an unnamed file gets a name
            os.link(str(fd), tmp, src_dir_fd=proc, follow_symlinks=True)
        finally:
            os.close(fd)
            os.close(proc)
        os.replace(tmp, path)
        fsync_dir(path.parent)
        return
    for opened in (fd, proc):
        if opened >= 0:
            os.close(opened)
    write_atomic(path, data)


def _read_built(man: Manifest) -> dict[str, Any]:
    try:
        data = json.loads(man.built_manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
