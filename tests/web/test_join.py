"""`companion join --seat NAME`: a second terminal as a player's private channel, for real
(the command in its own process, over the game's Unix socket)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.web.harness import Table

JOIN = [sys.executable, "-m", "companion.cli", "join"]


class Terminal:
    """`companion join` in its own process; what it prints is collected line by line."""

    def __init__(self, socket: Path, seat: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([*JOIN, "--seat", seat, "--socket", str(socket)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.lines: list[str] = []
        self._t = threading.Thread(target=self._read, daemon=True)
        self._t.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def wait_for(self, pred, timeout: float = 20.0) -> None:  # noqa: ANN001
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pred(self.lines):
                return
            time.sleep(0.05)
        raise AssertionError(f"not seen in time; printed: {self.lines}")

    def close(self) -> int:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            return self.proc.wait(10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture
def table(tmp_path: Path):
    t = Table(seed=4, web=False, socket=tmp_path / "join.sock")
    t.open()
    yield t
    t.close()


def wait_claimed(table: Table, *seats: int) -> None:
    end = time.monotonic() + 20
    while not all(table.book.claimed(s) for s in seats):
        assert time.monotonic() < end, "the terminals did not claim their seats"
        time.sleep(0.05)


def test_two_terminals_hear_their_own_secrets(table: Table, tmp_path: Path) -> None:
    sock = tmp_path / "join.sock"
    assert sock.stat().st_mode & 0o077 == 0  # the user's only
    anne, bruno = Terminal(sock, "Anne"), Terminal(sock, "bruno")
    try:
        wait_claimed(table, 0, 1)
        table.start()
        anne.wait_for(lambda ls: any(ln.startswith("[privé]") for ln in ls))
        bruno.wait_for(lambda ls: any(ln.startswith("[privé]") for ln in ls))
        assert anne.lines[0] == "Tu es Anne. Tape tes commandes ; Ctrl+D pour partir."
        anne.wait_for(lambda ls: "Anne, que demandes-tu, et à qui ?" in ls)  # public lines too
        # a second terminal for a claimed seat is refused, and says how to free it
        again = subprocess.run([*JOIN, "--seat", "Anne", "--socket", str(sock)], capture_output=True,
                               text=True, timeout=30, stdin=subprocess.DEVNULL)
        assert again.returncode == 2 and "libère Anne" in again.stderr
        unknown = subprocess.run([*JOIN, "--seat", "Zoé", "--socket", str(sock)], capture_output=True,
                                 text=True, timeout=30, stdin=subprocess.DEVNULL)
        assert unknown.returncode == 2 and "Anne, Bruno" in unknown.stderr
        # Anne plays from her terminal; « mon plateau » answers there only
        anne.send(table.request_phrase(0))
        end = time.monotonic() + 20
        while not table.session.match.history:
            assert time.monotonic() < end, "the line typed in the terminal was not played"
            time.sleep(0.05)
        n_bruno = len(bruno.lines)
        anne.send("mon plateau")
        anne.wait_for(lambda ls: sum(ln.startswith("[privé]") for ln in ls) >= 3)
        table.wait_idle()
        secrets_a = [f"[privé] {t}" for t in table.private_texts(0)]
        secrets_b = [f"[privé] {t}" for t in table.private_texts(1)]
        assert all(s in anne.lines for s in secrets_a)
        # A private line both hear alike (« Ton plateau : 4 jetons. ») is no secret of either.
        secrets_a, secrets_b = ([s for s in secrets_a if s not in secrets_b],
                                [s for s in secrets_b if s not in secrets_a])
        assert not any(s in bruno.lines for s in secrets_a), [s for s in secrets_a if s in bruno.lines]
        assert not any(s in anne.lines for s in secrets_b), [s for s in secrets_b if s in anne.lines]
        assert all(not ln.startswith("[privé]") for ln in bruno.lines[n_bruno:])
        printed = "\n".join(table.printed)
        assert "Terminal connecté pour Anne." in printed
        assert not any(t in printed for t in table.private_texts(0) + table.private_texts(1))
    finally:
        assert anne.close() == 0
        bruno.close()
    # leaving (end of input) frees the seat
    end = time.monotonic() + 10
    while table.book.claimed(0) is not None:
        assert time.monotonic() < end
        time.sleep(0.05)


def test_join_without_a_game_says_so(tmp_path: Path) -> None:
    out = subprocess.run([*JOIN, "--seat", "Anne", "--socket", str(tmp_path / "none.sock")],
                         capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and "Aucune partie en cours" in out.stderr



def test_companion_play_web_end_to_end(tmp_path: Path) -> None:
    """`companion play --web --web-urls F`: the printed table address, a seat's secret page,
    a line typed there answered on that page only, and « quitte » at the keyboard."""
    import json
    import urllib.request

    urls_file = tmp_path / "urls.json"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_SPEECH": "text",
           "XDG_RUNTIME_DIR": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "play", "kikoi", "--players", "Anne,Bruno", "--bots", "1",
         "--seed", "4", "--web", "--port", "0", "--web-urls", str(urls_file),
         "--journal", str(tmp_path / "game.jsonl")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        end = time.monotonic() + 30
        while not urls_file.exists() or not urls_file.read_text(encoding="utf-8").strip():
            assert time.monotonic() < end and proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.05)
        urls = json.loads(urls_file.read_text(encoding="utf-8"))
        anne = urls["Anne"]
        with urllib.request.urlopen(anne, timeout=5) as resp:
            assert resp.status == 200
        with urllib.request.urlopen(urls["Bruno"], timeout=5) as resp:  # the deal waits for both (issue 25)
            assert resp.status == 200
        # the terminal server runs beside the pages (its socket in the runtime folder)
        assert (tmp_path / "companion" / "join.sock").exists()
        body = urllib.parse.urlencode({"line": "mon plateau"}).encode()
        req = urllib.request.Request(anne + "/line", data=body, headers={"Accept": "application/json"})
        with urllib.request.urlopen(req, timeout=5) as resp:
            assert json.loads(resp.read()) == {"ok": True, "error": ""}
        end = time.monotonic() + 20
        page = ""
        while "Privé" not in page:
            assert time.monotonic() < end, page
            time.sleep(0.2)
            with urllib.request.urlopen(anne, timeout=5) as resp:
                page = resp.read().decode()
        assert "Privé" in page and "jetons" in page
    finally:
        out, err = proc.communicate("quitte\n", timeout=30)
    assert proc.returncode == 0, err
    assert "/t" in out and "Pages des joueurs" in out
    assert "Téléphone connecté pour Anne." in out
