"""The `--log` file holds no secret unless `--log-private` asks for them, and is its owner's
alone (0600): issue 25, point 2; docs/private-channels.md « What the log holds »."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from companion.core import GAMES, Match
from companion.session import Seat, Session
from companion.session.transcript import load

BIN = Path(sys.executable).parent / "companion"


class Page:
    public = True

    def deliver(self, text: str, *, private: bool, priority: Any, earcon: Any, lang: str) -> None:
        pass

    def interrupt(self) -> None:
        pass


def _table(log: Path, log_private: bool) -> tuple[Session, Match[Any, Any]]:
    game, ui, _ = load(next(g for g in GAMES if g.name == "kikoi"))
    match: Match[Any, Any] = Match(game, ["Anne", "Bruno", "Chloé"], 4)
    session = Session("kikoi", ui, match, [Seat("Anne"), Seat("Bruno"), Seat("Chloé")], out=lambda _: None,
                      log=log, log_private=log_private, private_policy="withhold")
    session.claim(0, Page(), "web")
    session.start()
    session.handle("mon plateau", 0, source="web")  # typed on Anne's own page
    session.handle("Bruno, kigliss dort")  # typed at the table's keyboard
    session.table.close()
    return session, match


def _entries(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_the_log_holds_no_secret_and_is_its_owners_alone(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    _, match = _table(log, log_private=False)
    assert stat.S_IMODE(os.stat(log).st_mode) == 0o600
    entries = _entries(log)
    private = [e for e in entries if e.get("to") is not None]
    assert private and all(e == {"type": "private", "to": e["to"]} for e in private)
    page = [e for e in entries if e["type"] == "input" and e["source"] == "web"]
    assert page == [{"type": "input", "source": "web", "seat": 0, "text": None, "outcome": "answer", "command": None,
                     "private": True}]
    keyboard = [e for e in entries if e["type"] == "input" and e["source"] == "keyboard"]
    assert keyboard[0]["text"] == "Bruno, kigliss dort"  # typed on the shared screen: the table saw it
    from companion.games.kikoi.tokens import token_id

    held = {token_id(t) for board in match.state.boards for t in board}
    assert not any(tid in json.dumps(e) for e in private for tid in held)


def test_log_private_keeps_the_secrets_when_asked(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    _table(log, log_private=True)
    entries = _entries(log)
    assert any(e["type"] == "tokens_dealt" and "tokens" in e for e in entries)
    assert any(e["type"] == "input" and e["text"] == "mon plateau" for e in entries)
    assert stat.S_IMODE(os.stat(log).st_mode) == 0o600


def test_an_older_log_readable_by_all_is_made_its_owners_alone(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text('{"type": "old"}\n', encoding="utf-8")
    os.chmod(log, 0o644)
    _table(log, log_private=False)
    assert stat.S_IMODE(os.stat(log).st_mode) == 0o600
    assert _entries(log)[0] == {"type": "old"}  # appended to, nothing lost


def _play(tmp_path: Path, *extra: str) -> list[dict[str, Any]]:
    log = tmp_path / "events.jsonl"
    env = {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}
    r = subprocess.run([str(BIN), "play", "kikoi", "--seed", "3", "--lang", "en", "--log", str(log), *extra],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE(os.stat(log).st_mode) == 0o600
    return _entries(log)


def test_play_log_and_log_private(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = _play(tmp_path / "a")
    assert not any(e["type"] in ("tokens_dealt", "token_drawn", "kipirat_drawn") for e in plain)
    assert any(e["type"] == "private" for e in plain)
    full = _play(tmp_path / "b", "--log-private")
    assert any(e["type"] == "tokens_dealt" for e in full)
    assert [e["type"] for e in full if e.get("to") is None] == [e["type"] for e in plain if e.get("to") is None]
