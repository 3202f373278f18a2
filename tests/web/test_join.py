"""`companion join --seat NAME`: a second terminal as a player's private channel, for real
(the command in its own process, over the game's Unix socket)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
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
        self._cv = threading.Condition()
        self._ended = False
        self._t = threading.Thread(target=self._read, daemon=True)
        self._t.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._cv:
                self.lines.append(line.rstrip("\n"))
                self._cv.notify_all()
        with self._cv:
            self._ended = True
            self._cv.notify_all()

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def wait_for(self, pred, timeout: float = 30.0) -> None:  # noqa: ANN001
        """Until `pred(lines)` holds, checked at each printed line (the timeout only bounds a
        hang); fails at once when the terminal ends without it."""
        with self._cv:
            self._cv.wait_for(lambda: pred(self.lines) or self._ended, timeout)
            assert pred(self.lines), f"not seen; printed: {self.lines}"

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
    table.wait(lambda: all(table.book.claimed(s) for s in seats), "the terminals did not claim their seats")


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
        table.wait(lambda: bool(table.session.match.history), "the line typed in the terminal was not played")
        n_bruno = len(bruno.lines)
        anne.send("mon plateau")
        anne.wait_for(lambda ls: sum(ln.startswith("[privé]") for ln in ls) >= 3)
        table.wait_idle()
        secrets_a = [f"[privé] {t}" for t in table.private_texts(0)]
        secrets_b = [f"[privé] {t}" for t in table.private_texts(1)]
        # each terminal has printed all its seat heard (the event the checks below wait for)
        anne.wait_for(lambda ls: all(s in ls for s in secrets_a))
        heard_b = [("[privé] " if h.private else "") + h.text for h in table.book.claimed(1).channel.since(0)]
        bruno.wait_for(lambda ls: all(t in ls for t in heard_b))
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
    # leaving (end of input) frees the seat (its release is posted to the inbox)
    table.wait(lambda: table.book.claimed(0) is None, "Anne's seat was not freed")


def test_join_without_a_game_says_so(tmp_path: Path) -> None:
    out = subprocess.run([*JOIN, "--seat", "Anne", "--socket", str(tmp_path / "none.sock")],
                         capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and "Aucune partie en cours" in out.stderr



class Play:
    """`companion play` in its own process; its printed lines collected, waited on as events."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "play", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.term = Terminal.__new__(Terminal)  # the same line collector, on this process
        self.term.proc, self.term.lines, self.term._cv, self.term._ended = self.proc, [], threading.Condition(), False
        self.term._t = threading.Thread(target=self.term._read, daemon=True)
        self.term._t.start()

    def wait_for(self, text: str) -> None:
        self.term.wait_for(lambda ls: any(text in ln for ln in ls))

    def quit(self) -> tuple[str, str]:
        assert self.proc.stdin is not None
        self.proc.stdin.write("quitte\n")
        self.proc.stdin.close()
        self.proc.wait(30)
        self.term._t.join(10)
        err = self.proc.stderr.read() if self.proc.stderr else ""
        return "\n".join(self.term.lines), err


def play_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_SPEECH": "text", "XDG_RUNTIME_DIR": str(tmp_path),
            "COMPANION_EDGE_LOG": str(tmp_path / "edge.log"), **extra}


def phone() -> urllib.request.OpenerDirector:
    import http.cookiejar

    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def events(device: urllib.request.OpenerDirector, seat_url: str, until) -> list[dict]:  # noqa: ANN001
    """Read the seat's live stream until `until(entries)` holds (each line is an event)."""
    got: list[dict] = []
    with device.open(seat_url + "/events", timeout=30) as resp:
        for raw in resp:
            line = raw.decode()
            if line.startswith("data: "):
                got.append(json.loads(line[6:]))
                if until(got):
                    return got
    raise AssertionError(f"the stream ended: {got}")


def test_companion_play_web_end_to_end(tmp_path: Path) -> None:
    """`companion play --web --web-urls F`: the printed table address, a seat's secret page,
    a line typed there answered on that page only, and « quitte » at the keyboard."""
    urls_file = tmp_path / "urls.json"
    game = Play(["kikoi", "--players", "Anne,Bruno", "--bots", "1", "--seed", "4", "--web", "--port", "0",
                 "--web-urls", str(urls_file), "--journal", str(tmp_path / "game.jsonl")], play_env(tmp_path))
    try:
        game.wait_for("Adresses secrètes des places écrites")
        urls = json.loads(urls_file.read_text(encoding="utf-8"))
        anne, device = urls["Anne"], phone()
        with device.open(anne, timeout=5) as resp:
            assert resp.status == 200
        with urllib.request.urlopen(urls["Bruno"], timeout=5) as resp:  # the deal waits for both (issue 25)
            assert resp.status == 200
        # the terminal server runs beside the pages (its own socket in the runtime folder)
        assert list((tmp_path / "companion").glob("join-*.sock"))
        body = urllib.parse.urlencode({"line": "mon plateau"}).encode()
        req = urllib.request.Request(anne + "/line", data=body, headers={"Accept": "application/json"})
        with device.open(req, timeout=5) as resp:
            assert json.loads(resp.read()) == {"ok": True, "error": ""}
        heard = events(device, anne, lambda got: any(g["private"] and "jetons" in g["text"] for g in got))
        assert any(g["private"] for g in heard)
    finally:
        out, err = game.quit()
    assert game.proc.returncode == 0, err
    assert "/t" in out and "Pages des joueurs" in out
    assert "Téléphone connecté pour Anne." in out
    assert "Traceback" not in out + err


def join_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def test_two_games_have_a_socket_each(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 5: the second game to stop took the first one's socket with it."""
    from companion.inputs.terminal import JoinServer
    from companion.inputs.web.seats import SeatBook
    from companion.session.inbox import Inbox

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    first = JoinServer(SeatBook(["Anne", "Bruno"], Inbox()), ["fr", "fr"])
    second = JoinServer(SeatBook(["Chloé", "Anne"], Inbox()), ["fr", "fr"])
    first.start()
    second.start()
    try:
        assert first.path != second.path and first.path.exists() and second.path.exists()
        env = join_env(XDG_RUNTIME_DIR=str(tmp_path))
        both = subprocess.run([*JOIN, "--seat", "Anne"], capture_output=True, text=True, timeout=30,
                              stdin=subprocess.DEVNULL, env=env)
        assert both.returncode == 2 and "Plusieurs parties" in both.stderr and str(first.path) in both.stderr
        second.stop()  # the second game ends: the first one's seats can still be joined
        assert first.path.exists()
        anne = subprocess.run([*JOIN, "--seat", "Anne"], input="", capture_output=True, text=True,
                              timeout=30, env=env)
        assert anne.returncode == 0 and "Tu es Anne." in anne.stdout, anne.stderr
        assert "Traceback" not in anne.stderr
    finally:
        second.stop()
        first.stop()
    assert not first.path.exists()


def _foreign_folder(path: Path) -> None:
    """`path` made first by another user (uid 65534, « nobody »)."""
    path.mkdir(parents=True, mode=0o700)
    os.chown(path, 65534, 65534)


@pytest.fixture
def as_root() -> None:
    if os.geteuid() != 0:
        assert os.environ.get("CI") != "true", "CI runs as root: this test must run there"
        pytest.skip("another user's folder can only be made by root")


def test_a_runtime_folder_another_user_made_first(tmp_path: Path, short_path: Path, as_root: None) -> None:
    """Finding 6: no XDG_RUNTIME_DIR and /tmp/runtime-<uid> made by another user first."""
    tmp, cache = short_path / "t", short_path / "c"  # the socket's path must fit in 108 bytes
    _foreign_folder(tmp / f"runtime-{os.geteuid()}")
    env = join_env(TMPDIR=str(tmp), XDG_CACHE_HOME=str(cache), COMPANION_SPEECH="text",
                   COMPANION_EDGE_LOG=str(tmp_path / "edge.log"))
    alone = subprocess.run([*JOIN, "--seat", "Anne"], capture_output=True, text=True, timeout=30,
                           stdin=subprocess.DEVNULL, env=env)
    assert alone.returncode == 2 and "Aucune partie en cours" in alone.stderr and "Traceback" not in alone.stderr
    # the game listens in the user's own cache folder instead; a terminal finds it there
    game = Play(["kissa", "--players", "Anne,Bruno", "--seed", "4", "--join",  # kissa: no deal waits for pages
                 "--journal", str(tmp_path / "game.jsonl")], env)
    try:
        game.wait_for("À toi, Anne.")
        [sock] = (cache / "companion" / "run").glob("join-*.sock")
        anne = subprocess.run([*JOIN, "--seat", "Anne"], input="", capture_output=True, text=True,
                              timeout=30, env=env)
        assert anne.returncode == 0 and "Tu es Anne." in anne.stdout, anne.stderr
    finally:
        out, err = game.quit()
    assert game.proc.returncode == 0 and "Traceback" not in out + err, err


def test_no_private_folder_at_all_is_one_sentence(tmp_path: Path, as_root: None) -> None:
    tmp, cache = tmp_path / "t", tmp_path / "c"
    _foreign_folder(tmp / f"runtime-{os.geteuid()}")
    _foreign_folder(cache / "companion" / "run")
    env = join_env(TMPDIR=str(tmp), XDG_CACHE_HOME=str(cache), COMPANION_SPEECH="text",
                   COMPANION_EDGE_LOG=str(tmp_path / "edge.log"))
    alone = subprocess.run([*JOIN, "--seat", "Anne"], capture_output=True, text=True, timeout=30,
                           stdin=subprocess.DEVNULL, env=env)
    assert alone.returncode == 2 and "appartient à un autre utilisateur" in alone.stderr
    assert "Traceback" not in alone.stderr and len(alone.stderr.strip().splitlines()) == 1
    # the game says it in one sentence and is played all the same (its pages still work)
    game = Play(["kissa", "--players", "Anne,Bruno", "--seed", "4", "--web", "--port", "0",  # kissa: no deal waits for pages
                 "--journal", str(tmp_path / "game.jsonl")], env)
    try:
        game.wait_for("À toi, Anne.")
    finally:
        out, err = game.quit()
    assert game.proc.returncode == 0 and "Traceback" not in out + err, err
    assert "Pas de terminal de joueur" in out and "Pages des joueurs" in out
