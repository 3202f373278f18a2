"""brltty really started with its Virtual driver (`-b vr`): the test is the braille display.

brltty listens on a Unix socket in a temporary folder; the test connects as the display,
says its size (`cells 40`), then reads every `Braille "1|12|..."` line brltty writes (what
the display shows) and sends keys as the driver's commands: `Route 5` (a routing key),
`FwinRt` (pan right), `PassDots 0x1b` (a chord of the braille keyboard), `Key_Enter`.
BrlAPI listens on its own loopback port with its own key file (BRLAPI_HOST, BRLAPI_AUTH).
Never read the display's model identifier (tech-stack.md §6).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.inputs.braille.render import back, text_cells, word_cells
from companion.inputs.braille.view import ALERT_CELL, OFFER_CELL
from tests import waiting

BRLTTY = shutil.which("brltty") or "/usr/bin/brltty"
BASE_PORT = 4101  # BrlAPI's TCP port is 4101 + the host's number


def need_brltty() -> None:
    """brltty and BrlAPI are installed by `./run setup`; only a user's machine may lack them."""
    try:
        import brlapi  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("python3-brlapi is missing: ./run setup installs it")
        pytest.skip("python3-brlapi not installed")
    if not os.path.exists(BRLTTY):
        if os.environ.get("CI") == "true":
            pytest.fail("brltty is missing: ./run setup installs it")
        pytest.skip("brltty not installed")


def free_host() -> tuple[str, int]:
    """A BrlAPI host number whose TCP port is free on the loopback (4101 + n)."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        n = port - BASE_PORT
        if n <= 0:
            continue
        return f"127.0.0.1:{n}", port
    raise RuntimeError("no free port")


class Brltty:
    """One brltty process with the Virtual driver, its BrlAPI on a free loopback port."""

    def __init__(self, folder: Path, text_table: str = "fr-2007") -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.sock = folder / "vr.sock"
        self.key = folder / "brlapi.key"
        self.key.write_bytes(os.urandom(24).hex().encode())
        self.key.chmod(0o600)
        self.host, self.port = free_host()
        self.text_table = text_table
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def env(self) -> dict[str, str]:
        return {"BRLAPI_HOST": self.host, "BRLAPI_AUTH": f"keyfile:{self.key}"}

    def start(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.sock.unlink()
        log = (self.folder / "brltty.log").open("ab")
        self.proc = subprocess.Popen(
            [BRLTTY, "-n", "-q", "-e", "-b", "vr", "-d", f"server:{self.sock}", "-t", self.text_table,
             "-s", "no", "-x", "no", "-A", f"auth=keyfile:{self.key},host={self.host}", "-W", str(self.folder)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        log.close()
        until(lambda: self.sock.exists() or self.proc.poll() is not None, 10, "brltty's display socket")
        assert self.proc.poll() is None, (self.folder / "brltty.log").read_text(errors="replace")
        until(self.api_up, 10, "brltty's BrlAPI port")

    def api_up(self) -> bool:
        """BrlAPI accepts connections (it starts beside the driver, not before it)."""
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def shows(self, cells: int) -> bool:
        """brltty has taken a display of `cells` cells: BrlAPI no longer reports NoBraille.

        A display says its size on the driver's socket, and brltty switches to it a moment
        later: a seat opened before that finds no display (on a loaded machine, it did)."""
        import brlapi

        try:
            conn = brlapi.Connection(self.host.encode(), f"keyfile:{self.key}".encode())
        except (brlapi.ConnectionError, OSError):
            return False
        try:
            return conn.driverName not in (b"NoBraille", "NoBraille") and int(conn.displaySize[0]) == cells
        finally:
            conn.closeConnection()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            # brltty waiting for its display does not stop on SIGTERM: it is ours, killed by id
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None


class Display:
    """The virtual display: what brltty shows, read back; keys sent."""

    def __init__(self, brltty: Brltty, cells: int = 40) -> None:
        self.cells = cells
        self.sock = until(lambda: _accepting(brltty), 10, "brltty's display socket accepting")
        self.sock.sendall(b"cells %d\n" % cells)
        until(lambda: brltty.shows(cells), 20, f"brltty taking the {cells}-cell display")
        self.shown = b""
        self.frames = 0
        self._cv = threading.Condition()
        self._t = threading.Thread(target=self._read, daemon=True)
        self._t.start()

    def _read(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            for raw in self.sock.makefile("rb"):
                line = raw.decode("utf-8", "replace").strip()
                if not line.startswith("Braille "):
                    continue
                cells = bytes(_dots(c) for c in line[len("Braille "):].strip('"').split("|"))
                with self._cv:
                    self.shown = cells
                    self.frames += 1
                    self._cv.notify_all()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()

    # --- what it shows ----------------------------------------------------------------------
    def wait_for(self, pred: Callable[[bytes], bool], timeout: float = 15.0, what: str = "") -> bytes:
        end = time.monotonic() + timeout
        with self._cv:
            while not pred(self.shown):
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"the display never showed {what!r}; it shows {self.text()!r}")
                self._cv.wait(left)
            return self.shown

    def text(self, lang: str = "fr", contracted: bool = False, status: int = 6) -> str:
        """The text part of the display, read back (liblouis' back-translation), marks as [!] and |."""
        return read_cells(self.shown[status + 1 if status else 0:], lang, contracted)

    def wait_text(self, fragment: str, lang: str = "fr", contracted: bool = False, status: int = 6,
                  timeout: float = 15.0) -> str:
        self.wait_for(lambda cells: fragment in read_cells(cells[status + 1 if status else 0:], lang, contracted),
                      timeout, fragment)
        return self.text(lang, contracted, status)

    # --- keys ----------------------------------------------------------------------------------
    def command(self, cmd: str) -> None:
        self.sock.sendall(cmd.encode() + b"\n")

    def route(self, cell: int) -> None:
        """The routing key over `cell` (from 0, as BrlAPI counts)."""
        self.command(f"Route {cell}")

    def press(self, cmd: str, timeout: float = 15.0) -> None:
        """Send one key and wait until the display changes (brltty's Virtual driver takes one
        command at a time: the next is sent once this one was answered)."""
        with self._cv:
            n = self.frames
        self.command(cmd)
        self.wait_for(lambda _: self.frames > n, timeout, f"a change after {cmd}")

    def type(self, text: str, table: str = "fr", status: int = 6) -> None:
        """Type on the braille keyboard: each character as its dots (liblouis' 8-dot table,
        which brltty's fr-2007 text table reads back), then Enter. Each key is sent once the
        display shows the typed line with the one before (lines arriving meanwhile change the
        display too, and brltty's Virtual driver takes one command at a time)."""
        def typed(cells: bytes) -> bytes:
            part = cells[status + 1 if status else 0:].rstrip(b"\x00")
            return part[:-1] if part and part[-1] == OFFER_CELL else b""  # the typed line ends with its cursor

        done = ""
        for ch in text:
            if ch == " ":
                self.command("PassChar 0x20")
            else:
                dots = word_cells(ch, table, False)
                assert len(dots) == 1, (ch, dots)
                self.command(f"PassDots {dots[0]:#x}")
            done += ch
            want = text_cells(done, table, False) + (b"\x00" if done.endswith(" ") else b"")
            self.wait_for(lambda cells, want=want: typed(cells).endswith(want), 15, f"typed {done!r}")
        self.command("Key_Enter")
        self.wait_for(lambda cells: typed(cells) == b"", 15, "the typed line sent")


def _dots(cell: str) -> int:
    return sum(1 << (int(d) - 1) for d in cell.strip() if d.isdigit())


def read_cells(cells: bytes, lang: str = "fr", contracted: bool = False) -> str:
    """Cells as text: the alert mark as « [!] », a choice's mark as « | », blanks as spaces."""
    out: list[str] = []
    run = bytearray()
    for c in cells:
        if c in (ALERT_CELL, OFFER_CELL):
            if run:
                out.append(back(bytes(run), lang, contracted))
                run.clear()
            out.append(" [!] " if c == ALERT_CELL else " | ")
        else:
            run.append(c)
    if run:
        out.append(back(bytes(run), lang, contracted))
    return " ".join("".join(out).split())


def _accepting(brltty: Brltty) -> socket.socket | None:
    """A connection to brltty's display socket, or None while it does not accept: the socket
    file is there before its listener (and brltty reopens its driver while no display comes:
    on a loaded machine the first connect was refused)."""
    assert brltty.proc is not None and brltty.proc.poll() is None, (brltty.folder / "brltty.log").read_text(errors="replace")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(str(brltty.sock))
    except (ConnectionRefusedError, FileNotFoundError):
        s.close()
        return None
    return s


def until(pred: Callable[[], Any], timeout: float, what: str) -> Any:
    """`pred()`'s first true value (tests/waiting.py); `timeout` raised to the generous bound."""
    return waiting.until(pred, what, max(timeout, waiting.WAIT))


__all__ = ["Brltty", "Display", "need_brltty", "read_cells", "until"]
