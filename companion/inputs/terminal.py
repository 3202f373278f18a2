"""A second terminal as a player's private channel: `companion join --seat NAME` (issue #12).

For braille-display users with their own screen reader, in another terminal of the same
machine or over SSH. The running game listens on a Unix socket in the user's runtime folder
(`platformdirs.user_runtime_dir`, mode 0700, socket 0600); `join` claims a seat through it,
then prints only what that seat hears (its private lines marked) and sends its lines. It
never opens the save: the game it talks to holds it.

Protocol: one JSON object per line, UTF-8, both ways.
  client -> {"seat": "Anne"}                      claim (the first line)
  server -> {"ok": true, "player": "Anne", "lang": "fr", "welcome": "..."} or {"error": "..."}
  server -> {"n": 3, "text": "...", "private": true}  each line the seat hears
  client -> {"line": "mon plateau"}               a command of that seat
The seat is released when the terminal leaves (Ctrl+D, closed connection).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from companion.narration import Msg, catalog
from companion.session.inbox import Line

MAX_LINE = 200
RATE_LINES = 5
RATE_WINDOW = 3.0
CLAIM_TIMEOUT = 10.0  # seconds to send the claim after connecting


def socket_path() -> Path:
    """Where the running game listens: the user's runtime folder (never world-readable)."""
    import warnings

    from platformdirs import user_runtime_dir

    with warnings.catch_warnings():  # no XDG_RUNTIME_DIR (SSH, containers): its fallback is fine
        warnings.simplefilter("ignore")
        return Path(user_runtime_dir("companion", ensure_exists=False)) / "join.sock"


def _t(lang: str, msg_id: str, **params: Any) -> str:
    return catalog(lang).text(Msg(msg_id, **params))


def _send(conn: socket.socket, obj: dict[str, Any], lock: threading.Lock) -> bool:
    data = (json.dumps(obj, ensure_ascii=False) + "\n").encode()
    try:
        with lock:
            conn.sendall(data)
        return True
    except OSError:
        return False


class JoinServer:
    """The game's side: accepts terminals on the socket; claims go through the `SeatBook`
    shared with the web hub (a seat held by a phone is refused to a terminal, and back)."""

    def __init__(self, book: Any, langs: list[str], path: Path | None = None) -> None:
        self.book = book
        self.langs = langs
        self.path = path or socket_path()
        for lang in set(langs):  # the shared catalog loads lazily, not thread-safely: load it now
            catalog(lang).has("core.join.welcome")
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._running = False

    def start(self) -> Path:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # a stale socket of a game that did not stop cleanly
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            sock.bind(str(self.path))
        finally:
            os.umask(old)
        sock.listen(8)
        self._sock = sock
        self._running = True
        self._thread = threading.Thread(target=self._accept, name="join-server", daemon=True)
        self._thread.start()
        return self.path

    def stop(self) -> None:
        self._running = False
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            self._sock.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def _accept(self) -> None:
        assert self._sock is not None
        while self._running:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), name="join-conn", daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        lock = threading.Lock()
        lang = self.langs[0] if self.langs else "fr"
        claim = None
        seat = -1
        try:
            conn.settimeout(CLAIM_TIMEOUT)
            reader = conn.makefile("r", encoding="utf-8", errors="replace", newline="\n")
            first = reader.readline(1000)
            try:
                name = str(json.loads(first)["seat"])
            except (ValueError, KeyError, TypeError):
                return
            found = self.book.seat_named(name)
            if found is None:
                names = ", ".join(self.book.names[i] for i in sorted(self.book.humans))
                _send(conn, {"error": _t(lang, "core.join.unknown_seat", name=name, names=names)}, lock)
                return
            seat = found
            lang = self.langs[seat]
            claim = self.book.claim(seat, "terminal")
            if claim is None:
                _send(conn, {"error": _t(lang, "core.join.taken", player=self.book.names[seat])}, lock)
                return
            player = self.book.names[seat]
            _send(conn, {"ok": True, "player": player, "lang": lang,
                         "welcome": _t(lang, "core.join.welcome", player=player)}, lock)
            channel = claim.channel
            wake = threading.Event()
            off = channel.subscribe(wake.set)
            writer = threading.Thread(target=self._write, args=(conn, channel, wake, lock), daemon=True)
            writer.start()
            conn.settimeout(None)
            sent: deque[float] = deque()
            try:
                while not channel.closed:
                    raw = reader.readline(4 * MAX_LINE)
                    if not raw:
                        break
                    try:
                        text = str(json.loads(raw)["line"]).replace("\r", " ").replace("\n", " ").strip()
                    except (ValueError, KeyError, TypeError):
                        continue
                    now = time.monotonic()
                    while sent and now - sent[0] > RATE_WINDOW:
                        sent.popleft()
                    if len(text) > MAX_LINE:
                        _send(conn, {"notice": _t(lang, "core.web.too_long", n=MAX_LINE)}, lock)
                    elif len(sent) >= RATE_LINES:
                        _send(conn, {"notice": _t(lang, "core.web.too_fast")}, lock)
                    elif text:
                        sent.append(now)
                        self.book.inbox.post(Line(text, seat, source="terminal"))
            finally:
                off()
                wake.set()
        except OSError:
            pass
        finally:
            if claim is not None and self.book.claimed(seat) is claim:
                self.book.release(seat)
            with contextlib.suppress(OSError):
                conn.close()

    @staticmethod
    def _write(conn: socket.socket, channel: Any, wake: threading.Event, lock: threading.Lock) -> None:
        after = 0
        while True:
            for h in channel.since(after):
                if not _send(conn, {"n": h.n, "text": h.text, "private": h.private}, lock):
                    return
                after = h.n
            if channel.closed:
                _send(conn, {"ended": True}, lock)
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)
                return
            wake.wait(30)
            wake.clear()


# --------------------------------------------------------------------------- the terminal
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="companion join",
                                description="this terminal becomes one player's private channel")
    p.add_argument("--seat", required=True, help="the player's name, as in the game")
    p.add_argument("--socket", type=Path, default=None, help="the game's socket (default: the user's runtime folder)")
    p.add_argument("--lang", choices=("fr", "en"), default="fr", help="language of this program's own messages")
    args = p.parse_args(argv)
    path = args.socket or socket_path()
    lang = args.lang
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(str(path))
    except OSError:
        print(_t(lang, "core.join.no_game", path=str(path)), file=sys.stderr, flush=True)
        return 2
    lock = threading.Lock()
    _send(conn, {"seat": args.seat}, lock)
    reader = conn.makefile("r", encoding="utf-8", errors="replace", newline="\n")
    try:
        answer = json.loads(reader.readline() or "{}")
    except ValueError:
        answer = {}
    if not answer.get("ok"):
        print(answer.get("error") or _t(lang, "core.join.no_game", path=str(path)), file=sys.stderr, flush=True)
        return 2
    lang = answer.get("lang", lang)
    print(answer["welcome"], flush=True)
    tag = _t(lang, "core.join.private_tag")
    done = threading.Event()

    def show() -> None:
        for raw in reader:
            try:
                msg = json.loads(raw)
            except ValueError:
                continue
            if "text" in msg:
                print(f"{tag} {msg['text']}" if msg.get("private") else msg["text"], flush=True)
            elif "notice" in msg:
                print(msg["notice"], flush=True)
            elif msg.get("ended"):
                break
        print(_t(lang, "core.join.ended"), flush=True)
        done.set()

    threading.Thread(target=show, name="join-show", daemon=True).start()
    try:
        for line in sys.stdin:
            if done.is_set():
                break
            if line.strip() and not _send(conn, {"line": line.strip()[:MAX_LINE * 2]}, lock):
                break
    except KeyboardInterrupt:
        pass
    with contextlib.suppress(OSError):
        conn.shutdown(socket.SHUT_WR)
    done.wait(2)
    conn.close()
    return 0


__all__ = ["JoinServer", "main", "socket_path"]
