"""The user's folders come from companion.paths (platformdirs) and are the folders the
companion used before (issue #23): the XDG variables when set, else the XDG defaults."""

import os
import stat
import sys

import pytest

from companion import paths
from companion.audiorules.player import config_dir as rules_config_dir
from companion.games.goodfortune.deckfile import default_pointer
from companion.inputs import terminal
from companion.inputs.reader.pairs import pairs_path
from companion.inputs.voice.recognizer import default_model_dir
from companion.net.edge import edge_log_path
from companion.outputs.profile import profiles_dir
from companion.saves.journal import default_dir as saves_dir

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the XDG folders are Linux's")


def _places():
    return {
        "saves": saves_dir(),
        "deck": default_pointer(),
        "voice": default_model_dir("fr"),
        "pairs": pairs_path(),
        "profiles": profiles_dir(),
        "rules": rules_config_dir(),
        "edge": edge_log_path(),
    }


def _expected(data, config, state):
    return {
        "saves": data / "companion" / "games",
        "deck": data / "companion" / "goodfortune" / "default-deck",
        "voice": data / "companion" / "voice" / "vosk-fr",
        "pairs": data / "companion" / "reader-tokens.json",
        "profiles": config / "companion" / "profiles",
        "rules": config / "companion",
        "edge": state / "companion" / "log" / "edge.log",
    }


def test_the_xdg_variables_are_honoured(tmp_path, monkeypatch):
    for name in ("DATA", "CONFIG", "STATE", "CACHE"):
        monkeypatch.setenv(f"XDG_{name}_HOME", str(tmp_path / name.lower()))
    monkeypatch.delenv("COMPANION_READER_PAIRS", raising=False)
    monkeypatch.delenv("COMPANION_EDGE_LOG", raising=False)
    assert _places() == _expected(tmp_path / "data", tmp_path / "config", tmp_path / "state")
    assert paths.cache_dir() == tmp_path / "cache" / "companion"
    assert not any(p.exists() for p in _places().values())  # nothing is created by finding it


def test_without_them_the_xdg_defaults_under_home(tmp_path, monkeypatch):
    for name in ("DATA", "CONFIG", "STATE", "CACHE"):
        monkeypatch.delenv(f"XDG_{name}_HOME", raising=False)
    monkeypatch.delenv("COMPANION_READER_PAIRS", raising=False)
    monkeypatch.delenv("COMPANION_EDGE_LOG", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    home = tmp_path
    assert _places() == _expected(home / ".local" / "share", home / ".config", home / ".local" / "state")
    assert paths.cache_dir() == home / ".cache" / "companion"


def test_an_empty_variable_is_as_if_unset(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert saves_dir() == tmp_path / ".local" / "share" / "companion" / "games"


def test_the_sockets_folder_is_companion_in_the_runtime_folder(short_path, monkeypatch):
    run = short_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    assert paths.runtime_dir() == run / "companion"
    folder = terminal.runtime_folder()
    assert folder == run / "companion"
    assert stat.S_IMODE(os.lstat(folder).st_mode) == 0o700


def test_a_runtime_folder_too_long_for_a_socket_falls_back_to_the_cache(short_path, monkeypatch):
    run = short_path / ("r" * 90)  # AF_UNIX paths are 108 bytes: terminal.runtime_folder's own check
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    monkeypatch.setenv("XDG_CACHE_HOME", str(short_path / "c"))
    folder = terminal.runtime_folder()
    assert folder == short_path / "c" / "companion" / "run"
    assert stat.S_IMODE(os.lstat(folder).st_mode) == 0o700
