"""Issue 28, done when: a label printed with the defaults, scanned from a second process that
resolves the announced name itself, opens the page and plays chapter 1 in headless Chromium.

mDNS stays on the loopback interface (COMPANION_MDNS_INTERFACES=127.0.0.1, tests/conftest.py).
The label is printed with every default; only when another program holds port 8765 on this
machine are the server and the label moved together to a free port (`--port`)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.audiorules import DEFAULT_PORT
from companion.cli.rules import qr_main
from tests.browser import require_chromium

from .mdns_helpers import Serve, client_env

require_chromium()


def _port() -> list[str]:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", DEFAULT_PORT))
            return []  # free: every default
        except OSError:
            pass
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return ["--port", str(s.getsockname()[1])]


def test_a_default_label_opens_the_page_and_plays_chapter_one(tmp_path: Path, built_kikoi,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    xdg = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    port = _port()
    out: list[str] = []
    assert qr_main(["kikoi", "--lang", "fr", "--out", str(tmp_path / "label.svg"), *port], print_fn=out.append) == 0
    expected = f"http://companion.local:{port[1] if port else DEFAULT_PORT}/kikoi/fr/"
    assert out[1].startswith(f"Cette étiquette mène à {expected} : le nom que")
    srv = Serve(xdg, *(port or ["--port", str(DEFAULT_PORT)]), lang="fr")
    try:
        srv.wait_for("Annoncé sur le réseau local sous le nom companion.local")
        phone = subprocess.run([sys.executable, str(Path(__file__).with_name("phone.py")), str(tmp_path / "label.svg")],
                               capture_output=True, text=True, timeout=180, env=client_env())
        assert phone.returncode == 0, phone.stdout or phone.stderr[-600:]
        seen = json.loads(phone.stdout)
    finally:
        srv.stop()
    assert seen["url"] == expected and seen["host"] == "companion.local"
    assert seen["addresses"] == ["127.0.0.1"]
    assert seen["status"] == 200 and seen["page_url"] == expected
    assert seen["title"] == "Les 5 KIKOI — règles audio"
    played = seen["played"]
    assert played["src"] == expected + "goal.ogg"
    assert played["chapter"].startswith("1. ") and played["time"] > 0.5 and played["paused"] is False
