"""`companion serve` builds the missing rules audio with progress, while it serves (#17)."""

from __future__ import annotations

import threading
import time

import pytest

from companion.audiorules.manifest import load
from companion.cli import rules as cli
from tests.waiting import WAIT


def test_serve_builds_what_is_missing_with_progress(built_kikoi, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "GAMES", ("kikoi",))
    monkeypatch.setattr(cli, "LANGS", ("fr",))
    assert cli.missing_audio() == []
    assert cli.build_missing_in_background(lambda s: None, "fr") is None  # nothing to do
    ch = load("kikoi", "fr").chapters[0]
    ch.audio_file.with_suffix(".mp3").unlink()
    assert cli.missing_audio() == [("kikoi", "fr", 1)]
    printed: list[str] = []
    done = threading.Event()
    build = cli.build_missing_in_background(printed.append, "fr", on_done=done.set)
    assert build is not None
    build.join(timeout=120)
    assert done.is_set()
    assert printed[0].startswith("Audio des règles manquant : je construis 1 chapitre")
    assert printed[1] == f"Audio construit : kikoi fr, {ch.id} (1 sur 1)."
    assert printed[-1] == "Tout l'audio des règles est prêt."
    assert ch.audio_file.with_suffix(".mp3").exists() and cli.missing_audio() == []


def test_a_background_build_stops_at_once(built_kikoi, monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """Stopping the server ends the build (its child process) without waiting for it. It
    builds into its own folder: a chapter it finishes before being stopped must not join the
    session's shared build (the export test counts its chapters)."""
    monkeypatch.setenv("COMPANION_RULES_BUILD", str(tmp_path))
    begun = threading.Event()  # its first line: the build is under way
    build = cli.BackgroundBuild([("kissa", "fr", 8)], lambda s: begun.set(), "fr")
    assert begun.wait(WAIT)
    start = time.monotonic()
    build.stop()
    assert time.monotonic() - start < 5 and build.proc.poll() is not None
