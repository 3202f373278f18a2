"""A second terminal as a player's private channel: `companion join --seat NAME` (issue #12).

For braille-display users with their own screen reader, in another terminal of the same
machine or over SSH. Each running game listens on its own Unix socket (`join-<pid>-<n>.sock`,
mode 0600) in the user's private runtime folder (`runtime_folder`: mode 0700, owned by the
user, else one clear sentence); `join` finds the game that has the seat asked for, claims
the seat through it, then prints only what that seat hears (its private lines marked) and
sends its lines. It never opens the save: the game it talks to holds it.

Protocol: one JSON object per line, UTF-8, both ways.
  client -> {"seat": "Anne"}                      claim (the first line)
  client -> {"seat": "Anne", "probe": true}       does this game have that seat? (then closed)
  server -> {"probe": true, "has": true}
  server -> {"ok": true, "player": "Anne", "lang": "fr", "welcome": "..."} or {"error": "..."}
  server -> {"n": 3, "text": "...", "private": true}  each line the seat hears
  client -> {"line": "mon plateau"}               a command of that seat
With `companion join --braille` (issue #27) the claim is {"seat": "Anne", "braille": true}: the
seat is held with source "braille", each line also carries "priority", "earcon" and "info"
(the status and choices of `companion.inputs.braille.snapshot`, taken in the loop's thread),
and the client may send {"device": "lost"} / {"device": "back"} when its display goes and returns.
The seat is released when the terminal leaves (Ctrl+D, closed connection).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import socket
import stat
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from companion import paths
from companion.narration import Msg, catalog
from companion.session.inbox import Device, Line, SeatClaimed, SeatReleased

MAX_LINE = 200
RATE_LINES = 5
RATE_WINDOW = 3.0
CLAIM_TIMEOUT = 10.0  # seconds to send the claim after connecting


SOCKET_GLOB = "join-*.sock"
_numbers = itertools.count(1)


class Unavailable(Exception):
    """No private folder for the games' sockets; `path` is the one refused."""

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self.path = path


def _private_folder(path: Path) -> bool:
    """Make `path` (mode 0700) or accept it when it is a real folder of this user that no
    one else may enter; never one another user made first (issue #25)."""
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        st = os.lstat(path)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
            return False
        if st.st_mode & 0o077:
            os.chmod(path, 0o700)
        return True
    except OSError:
        return False


def runtime_folder() -> Path:
    """The user's private folder for the games' sockets: `companion` in the runtime folder
    (`platformdirs.user_runtime_dir`), else in the user's cache folder when that one is
    missing, unsafe or another user's (no XDG_RUNTIME_DIR: /tmp/runtime-<uid>); raises
    `Unavailable` when neither is safe. Socket paths must stay short (108 bytes)."""
    import tempfile

    first: Path | None = None
    refused: Path | None = None
    try:  # no XDG_RUNTIME_DIR (SSH, containers): its fallback is checked here
        first = paths.runtime_dir()
    except OSError as exc:  # the temporary fallback is another user's: platformdirs refuses it
        refused = Path(exc.filename or Path(tempfile.gettempdir()) / f"runtime-{os.geteuid()}")
    candidates = [p for p in (first, paths.cache_dir() / "run") if p]
    for folder in candidates:
        if len(str(folder)) < 86 and _private_folder(folder):  # AF_UNIX paths: 108 bytes
            return folder
    raise Unavailable(refused or candidates[0])


def socket_path() -> Path:
    """A new game's own socket (two games never share one, issue #25)."""
    return runtime_folder() / f"join-{os.getpid()}-{next(_numbers)}.sock"


def game_sockets() -> list[Path]:
    """The sockets of the games running now (a dead game's is removed)."""
    live = []
    for path in sorted(runtime_folder().glob(SOCKET_GLOB)):
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(str(path))
            live.append(path)
        except ConnectionRefusedError:
            with contextlib.suppress(OSError):
                path.unlink()  # a game that did not stop cleanly; our own private folder
        except OSError:
            pass  # a socket we cannot ask or remove: another game's, left as it is
        finally:
            probe.close()
    return live


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
        # (seat, lang) -> braille Info, called in the loop's thread; set by the runner (#27)
        self.info: Any = None

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
                hello = json.loads(first)
                name = str(hello["seat"])
                braille = hello.get("braille") is True
            except (ValueError, KeyError, TypeError, AttributeError):
                return
            found = self.book.seat_named(name)
            if hello.get("probe"):  # `join` looking for the game that has this seat
                _send(conn, {"probe": True, "has": found is not None}, lock)
                return
            if found is None:
                names = ", ".join(self.book.names[i] for i in sorted(self.book.humans))
                _send(conn, {"error": _t(lang, "core.join.unknown_seat", name=name, names=names)}, lock)
                return
            seat = found
            lang = self.langs[seat]
            source = "braille" if braille else "terminal"
            claim = self.book.claim(seat, source)
            if claim is None:
                _send(conn, {"error": _t(lang, "core.join.taken", player=self.book.names[seat])}, lock)
                return
            player = self.book.names[seat]
            _send(conn, {"ok": True, "player": player, "lang": lang,
                         "welcome": _t(lang, "core.join.welcome", player=player)}, lock)
            channel = claim.channel
            wake = threading.Event()
            latest: list[Any] = [None]
            if braille and self.info is not None:
                from companion.inputs.braille.snapshot import info_json

                def hook() -> None:  # the loop's thread: the status and choices of this seat now
                    if not channel.closed:
                        latest[0] = info_json(self.info(seat, lang))
                    wake.set()

                off = channel.subscribe(hook)
            else:
                off = channel.subscribe(wake.set)
            writer = threading.Thread(target=self._write, args=(conn, channel, wake, lock, latest), daemon=True)
            writer.start()
            conn.settimeout(None)
            sent: deque[float] = deque()
            try:
                while not channel.closed:
                    raw = reader.readline(4 * MAX_LINE)
                    if not raw:
                        break
                    try:
                        msg = json.loads(raw)
                        if braille and isinstance(msg, dict) and msg.get("device") in ("lost", "back"):
                            gone = msg["device"] == "lost"
                            event = SeatReleased(seat, channel) if gone else SeatClaimed(seat, channel)
                            self.book.inbox.post(Device(event, "braille:" + msg["device"]))
                            continue
                        text = str(msg["line"]).replace("\r", " ").replace("\n", " ").strip()
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
                        self.book.inbox.post(Line(text, seat, source=source))
            finally:
                off()
                wake.set()
        except OSError:
            pass  # the terminal went away: its seat is released by the caller
        finally:
            if claim is not None and self.book.claimed(seat) is claim:
                self.book.release(seat)
            with contextlib.suppress(OSError):
                conn.close()

    @staticmethod
    def _write(conn: socket.socket, channel: Any, wake: threading.Event, lock: threading.Lock,
               latest: list[Any] | None = None) -> None:
        after = 0
        while True:
            for h in channel.since(after):
                msg: dict[str, Any] = {"n": h.n, "text": h.text, "private": h.private}
                if latest is not None and latest[0] is not None:
                    msg.update(priority=h.priority, earcon=h.earcon, info=latest[0])
                if not _send(conn, msg, lock):
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
def _has_seat(path: Path, seat: str) -> bool:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(CLAIM_TIMEOUT)
    try:
        conn.connect(str(path))
        conn.sendall((json.dumps({"seat": seat, "probe": True}) + "\n").encode())
        answer = json.loads(conn.makefile("r", encoding="utf-8").readline() or "{}")
        return bool(answer.get("has"))
    except (OSError, ValueError):
        return False
    finally:
        conn.close()


def _game_with(seat: str, lang: str) -> Path | None:
    """The socket of the one running game that has `seat`; None after saying why not."""
    live = game_sockets()
    having = [p for p in live if _has_seat(p, seat)]
    if len(having) > 1:
        print(_t(lang, "core.join.several_games", name=seat, sockets=", ".join(map(str, having))),
              file=sys.stderr, flush=True)
        return None
    if having:
        return having[0]
    if live:
        return live[0]  # the game says who its players are
    print(_t(lang, "core.join.no_game", path=str(runtime_folder())), file=sys.stderr, flush=True)
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="companion join",
                                description="this terminal becomes one player's private channel")
    p.add_argument("--seat", required=True, help="the player's name, as in the game")
    p.add_argument("--socket", type=Path, default=None, help="the game's socket (default: the user's runtime folder)")
    p.add_argument("--lang", choices=("fr", "en"), default="fr", help="language of this program's own messages")
    p.add_argument("--braille", action="store_true", help="read and play on a braille display through brltty (docs/braille.md)")
    p.add_argument("--contracted", action="store_true", help="with --braille: contracted braille (abrégé, grade 2)")
    args = p.parse_args(argv)
    lang = args.lang
    if args.socket is not None:
        path = args.socket
    else:
        try:
            path = _game_with(args.seat, lang)
        except Unavailable as exc:
            print(_t(lang, "core.join.unsafe_folder", path=str(exc.path)), file=sys.stderr, flush=True)
            return 2
        if path is None:
            return 2
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(str(path))
    except OSError:
        print(_t(lang, "core.join.no_game", path=str(path)), file=sys.stderr, flush=True)
        return 2
    lock = threading.Lock()
    _send(conn, {"seat": args.seat, "braille": True} if args.braille else {"seat": args.seat}, lock)
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
    display = _open_display(conn, lock, lang, str(answer.get("player", args.seat)), args.contracted) if args.braille else None

    def show() -> None:
        for raw in reader:
            try:
                msg = json.loads(raw)
            except ValueError:
                continue
            if "text" in msg:
                print(f"{tag} {msg['text']}" if msg.get("private") else msg["text"], flush=True)
                if display is not None:
                    from companion.inputs.braille.snapshot import info_from_json

                    display.push(str(msg["text"]), bool(msg.get("private")), int(msg.get("priority") or 0),
                                 msg.get("earcon") if isinstance(msg.get("earcon"), str) else None,
                                 info_from_json(msg.get("info")))
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
        if display is not None:  # no keyboard (a braille-only player): the display plays on
            done.wait()
    except KeyboardInterrupt:
        pass  # Ctrl+C leaves the seat, as Ctrl+D does
    if display is not None:
        display.stop()
    with contextlib.suppress(OSError):
        conn.shutdown(socket.SHUT_WR)
    done.wait(2)
    conn.close()
    return 0


def _open_display(conn: socket.socket, lock: threading.Lock, lang: str, player: str, contracted: bool) -> Any:
    """`--braille`: this seat's display through BrlAPI; None (the sentence printed) when it
    cannot be taken — the terminal still works."""
    from companion.inputs.braille.seat import BrailleSeat

    display = BrailleSeat(-1, lang, lambda text: _send(conn, {"line": text[:MAX_LINE]}, lock), contracted=contracted)
    problem = display.open()
    if problem is not None:
        print(_t(lang, problem, player=player), file=sys.stderr, flush=True)
        display.stop()
        return None
    display.on_lost = lambda: _send(conn, {"device": "lost"}, lock)
    display.on_back = lambda: _send(conn, {"device": "back"}, lock)
    from companion.inputs.braille.view import Info

    display.push(_t(lang, "core.braille.welcome", player=player), False, 0, None, Info())
    display.start()
    return display


__all__ = ["JoinServer", "Unavailable", "game_sockets", "main", "runtime_folder", "socket_path"]
