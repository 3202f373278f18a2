"""Shared fixtures of the audio-rules tests: one real build of Les 5 KIKOI in French."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

HAVE_ESPEAK = shutil.which("espeak-ng") is not None


@pytest.fixture(scope="session")
def built_kikoi(tmp_path_factory: pytest.TempPathFactory):
    """Les 5 KIKOI, French, synthesized for real with espeak-ng into a temporary build folder
    (COMPANION_RULES_BUILD points there for the whole session). Returns the build results."""
    if not HAVE_ESPEAK:
        pytest.fail("espeak-ng is required to build the audio rules (apt-get install espeak-ng)")
    from companion.audiorules.build import build_manifest
    from companion.audiorules.manifest import load

    build = tmp_path_factory.mktemp("rules-build")
    old = os.environ.get("COMPANION_RULES_BUILD")
    os.environ["COMPANION_RULES_BUILD"] = str(build)
    try:
        results = build_manifest(load("kikoi", "fr"))
        yield {"dir": build, "results": results}
    finally:
        if old is None:
            os.environ.pop("COMPANION_RULES_BUILD", None)
        else:
            os.environ["COMPANION_RULES_BUILD"] = old


@pytest.fixture
def empty_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A build folder with nothing built in it."""
    d = tmp_path / "empty-build"
    d.mkdir()
    monkeypatch.setenv("COMPANION_RULES_BUILD", str(d))
    return d


@pytest.fixture(autouse=True)
def _french_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tools speak the user's language (COMPANION_LANG, then LANG); tests fix it to French."""
    monkeypatch.setenv("COMPANION_LANG", "fr")
