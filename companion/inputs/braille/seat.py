"""A braille seat: one player's own display through BrlAPI (brltty), in its own thread.

The display's driver is brltty's business; the seat connects to BrlAPI (`BRLAPI_HOST`,
`BRLAPI_AUTH`, or brltty's defaults), takes the display in TTY mode, writes cells rendered
by liblouis (`render.py`) and reads its keys: routing keys, panning, the braille keyboard's
typed characters. What the display shows is `view.View` (no I/O); this module only moves
lines in and cells out. It never reads the display's model identifier (reading it killed
brltty's TTY driver: ../shared/research/tech-stack.md §6).

Lines come from the seat's channel (`companion.inputs.web.seats.SeatChannel`, claimed with source
"braille" in the `SeatBook`, so a seat held by a display is refused to a phone and back):
its hook runs in the table loop's thread and hands each line with a `snapshot.Info` here.
Typed lines go to the one inbox through `post` (`Line(text, seat, source="braille")`).
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import threading
from collections.abc import Callable
from typing import Any

from companion.narration import Priority

from .view import MIN_CELLS, Info, Key, View

ONLINE_POLL = 2.0  # seconds between asking brltty whether the display is still plugged in
RETRY = 1.0  # seconds between attempts to reach brltty again after it went away

# Why a seat cannot take its display: message ids, said once at the table (core.po).
NO_BRLAPI = "core.braille.no_brlapi"
NO_BRLTTY = "core.braille.no_brltty"
NO_DISPLAY = "core.braille.no_display"
IN_USE = "core.braille.in_use"
NOT_ALLOWED = "core.braille.not_allowed"


def _brlapi() -> Any:
    import brlapi  # Debian's python3-brlapi, linked into the venv by `run`

    return brlapi


def settings(host: str | None = None, auth: str | None = None) -> tuple[bytes | None, bytes | None]:
    """BrlAPI's host and auth as bytes (what the module wants): given, else `BRLAPI_HOST` and
    `BRLAPI_AUTH`, else None (brltty's own defaults)."""
    host = host if host is not None else os.environ.get("BRLAPI_HOST") or None
    auth = auth if auth is not None else os.environ.get("BRLAPI_AUTH") or None
    return (host.encode() if host else None), (auth.encode() if auth else None)


def decode(code: int) -> Key | None:
    """A BrlAPI key code as a `Key` of the view; None for keys the seat does not use."""
    b = _brlapi()
    code &= 0xFFFFFFFF  # the upper half holds flags
    if code & b.KEY_TYPE_MASK == b.KEY_TYPE_CMD:
        blk, arg = code & b.KEY_CMD_BLK_MASK, code & b.KEY_CMD_ARG_MASK
        if blk == b.KEY_CMD_ROUTE:
            return Key("route", n=arg)
        cmd = code & (b.KEY_CMD_BLK_MASK | b.KEY_CMD_ARG_MASK)
        return _COMMANDS.get(cmd)
    sym = code & b.KEY_CODE_MASK
    if sym in (b.KEY_SYM_LINEFEED,):
        return Key("enter")
    if sym in (b.KEY_SYM_BACKSPACE, b.KEY_SYM_DELETE):
        return Key("backspace")
    if sym == b.KEY_SYM_ESCAPE:
        return Key("escape")
    if sym & 0xFF000000 == b.KEY_SYM_UNICODE:
        ch = chr(sym & 0xFFFFFF)
    elif sym < 0x100:
        ch = chr(sym)
    else:
        return None
    if ch in ("\r", "\n"):
        return Key("enter")
    return Key("char", text=ch) if ch.isprintable() and ch != "\ufffd" else None


def _command_table() -> dict[int, Key]:
    try:
        b = _brlapi()
    except ImportError:
        return {}
    table = {
        "next": ("FWINRT", "FWINRTSKIP"), "prev": ("FWINLT", "FWINLTSKIP"),
        "next_line": ("LNDN", "NXDIFLN"), "prev_line": ("LNUP", "PRDIFLN"),
        "first": ("TOP", "TOP_LEFT"), "last": ("BOT", "BOT_LEFT"),
        "status": ("INFO",), "repeat": ("HOME", "RETURN"), "help": ("HELP",),
    }
    return {getattr(b, f"KEY_CMD_{name}"): Key(kind) for kind, names in table.items() for name in names}


_COMMANDS = _command_table()


class BrailleSeat:
    """One player's display. `open()` once (a problem's message id, or None), then `start()`;
    `push` is called from the table loop's thread with each line the seat hears."""

    def __init__(self, seat: int, lang: str, post: Callable[[str], object], *, contracted: bool = False,
                 host: str | None = None, auth: str | None = None) -> None:
        self.seat = seat
        self.lang = lang
        self.post = post
        self.contracted = contracted
        self.host, self.auth = settings(host, auth)
        self.on_lost: Callable[[], object] | None = None  # the display went away (said at the table)
        self.on_back: Callable[[], object] | None = None  # it is back
        self.view: View | None = None
        self._conn: Any = None
        self._cells = 0
        self._online = True
        self._lines: queue.Queue[tuple[str, bool, int, str | None, Info] | None] = queue.Queue()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)  # a full pipe is awake enough: never block the table loop
        self._pipe_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._alert_key: tuple[int, ...] | None = None
        self._awaiting = False  # a line of ours was posted: its refusal is an alert
        self.shown = b""  # the cells last written
        self.keys_read = 0  # keys taken from the display so far
        self._idle = False  # waiting for a line or a key, everything drawn

    # ------------------------------------------------------------------ connection
    def open(self) -> str | None:
        """Connect to BrlAPI and take the display; the message id of what went wrong, or None."""
        try:
            b = _brlapi()
        except ImportError:
            return NO_BRLAPI
        try:
            conn = b.Connection(self.host, self.auth)
        except b.ConnectionError as exc:
            return NOT_ALLOWED if getattr(exc, "brlerrno", None) == b.ERROR_AUTHENTICATION else NO_BRLTTY
        except (b.OperationError, OSError):
            return NO_BRLTTY
        try:
            width, rows = (int(n) for n in conn.displaySize)
            if conn.driverName in (b"NoBraille", "NoBraille") or width < MIN_CELLS:
                conn.closeConnection()
                return NO_DISPLAY
            _enter(b, conn)
        except b.OperationError as exc:
            with contextlib.suppress(Exception):
                conn.closeConnection()
            busy = getattr(exc, "brlerrno", None) in (b.ERROR_TTYBUSY, b.ERROR_DEVICEBUSY)
            return IN_USE if busy else NO_DISPLAY
        self._conn = conn
        self._cells = width * max(1, rows)  # writeDots fills the whole display; we use its first line
        if self.view is None:
            self.view = View(width, self.lang, self.contracted)
        else:
            self.view.width = max(MIN_CELLS, min(80, width))
        return None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"braille-{self.seat}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)
        self._close()
        # A line or a release after this must not write into a file descriptor number that
        # the process has since given to another file (the journal's): the pipe is marked gone.
        with self._pipe_lock:
            fds, self._wake_r, self._wake_w = (self._wake_r, self._wake_w), -1, -1
            for fd in fds:
                if fd >= 0:
                    with contextlib.suppress(OSError):
                        os.close(fd)

    def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.leaveTtyMode()
            with contextlib.suppress(Exception):
                conn.closeConnection()

    # ------------------------------------------------------------------ lines in (any thread)
    def push(self, text: str, private: bool, priority: int, earcon: str | None, info: Info) -> None:
        self._lines.put((text, private, priority, earcon, info))
        self._wake()

    def closed(self) -> None:
        """The seat was released (« libère Anne ») or the game ends: the display is let go."""
        self._lines.put(None)
        self._wake()

    def settled(self) -> bool:
        """Every line taken and every key answered, the display drawn (tests wait on it)."""
        return self._idle and self._lines.empty()

    def _wake(self) -> None:
        with self._pipe_lock:
            if self._wake_w >= 0:
                with contextlib.suppress(OSError):
                    os.write(self._wake_w, b"x")

    # ------------------------------------------------------------------ the seat's thread
    def _run(self) -> None:
        b = _brlapi()
        while not self._stop.is_set():
            if self._conn is None:
                self._wait(RETRY)
                if self._stop.is_set():
                    break
                if not self._drain() or self.open() is not None:
                    continue
                self._back()
                continue
            try:
                readable = self._wait(ONLINE_POLL, self._conn.fileDescriptor)
                if not self._drain():
                    break
                if readable:
                    self._keys()
                else:
                    self._check_online()
                self._draw()
            except (b.ConnectionError, b.OperationError, OSError):
                self._lost()
        self._close()

    def _wait(self, timeout: float, fd: int | None = None) -> bool:
        """Sleep until a line or a key comes (or `timeout`); True when the display has a key."""
        fds = [self._wake_r] + ([fd] if fd is not None else [])
        self._idle = True
        try:
            ready, _, _ = select.select(fds, [], [], timeout)
        except (OSError, ValueError):
            return False
        finally:
            self._idle = False
        if self._wake_r in ready:
            with contextlib.suppress(OSError):
                os.read(self._wake_r, 4096)
        return fd is not None and fd in ready

    def _drain(self) -> bool:
        """Take the lines that came; False when the seat is to stop."""
        while True:
            try:
                item = self._lines.get_nowait()
            except queue.Empty:
                return True
            if item is None:
                self._stop.set()
                return False
            self._take(*item)

    def _take(self, text: str, private: bool, priority: int, earcon: str | None, info: Info) -> None:
        view = self.view
        if view is None:
            return
        view.info = info
        view.expire(info.key)
        turnish = earcon in ("turn", "question") and (info.mine or info.asked)
        if turnish and info.key == self._alert_key:
            held = next((e for e in reversed(view.entries) if e.holding and e.key == info.key), None)
            if held is not None and held is view.entries[-1]:
                held.text = f"{held.text} {text}"  # « À Anne. » then « Anne, que demandes-tu ? »: one alert
                return
            if held is not None:
                # The question for this seat came later in the same turn (« Kipirat ? » after
                # the request it follows): it becomes the alert, with the choices.
                moved, held.alert, held.offers = held.offers, False, ()
                view.add(text, alert=True, offers=moved, key=info.key)
                self._awaiting = False
                return
        alert = False
        offers: tuple[tuple[str, str], ...] = ()
        if turnish and info.key != self._alert_key:
            alert, offers, self._alert_key = True, info.offers, info.key
        elif earcon == "error" and (self._awaiting or private):
            alert = True
        elif private and int(priority) == int(Priority.IMPORTANT):
            alert = True
        self._awaiting = False
        view.add(text, alert=alert, offers=offers, key=info.key if offers or turnish else ())

    def _keys(self) -> None:
        while True:
            code = self._conn.readKeyWithTimeout(0)
            if code is None:
                return
            key = decode(int(code))
            self.keys_read += 1
            if key is None or self.view is None:
                continue
            line = self.view.press(key)
            if line:
                self._awaiting = True
                self.post(line)

    def _draw(self) -> None:
        if self.view is None or self._conn is None:
            return
        cells, _ = self.view.frame()
        cells += bytes(max(0, self._cells - len(cells)))
        if cells != self.shown:
            self._conn.writeDots(cells)
            self.shown = cells

    def _check_online(self) -> None:
        b = _brlapi()
        try:
            online = bool(self._conn.getParameter(b.PARAM_DEVICE_ONLINE, 0, b.PARAMF_GLOBAL))
        except b.OperationError:
            return  # an older brltty without the parameter: only a lost connection says it
        if not online and self._online:
            self._lost(keep=True)
        elif online and not self._online:
            self._back()

    def _lost(self, keep: bool = False) -> None:
        if not keep:
            self._close()
        if self._online:
            self._online = False
            if self.on_lost is not None:
                self.on_lost()

    def _back(self) -> None:
        self._online = True
        self.shown = b""
        if self.on_back is not None:
            self.on_back()


def _enter(b: Any, conn: Any) -> None:
    """Take the display in TTY mode: for this console or terminal window when BrlAPI can tell
    which (CONTROLVT, WINDOWPATH, the process's virtual console: brltty then shows the game
    while that one has the focus, the screen reader otherwise), else for the whole display (a
    game started over SSH, or for another player's seat)."""
    try:
        conn.enterTtyMode()
    except b.OperationError as exc:
        if getattr(exc, "brlerrno", None) != b.ERROR_UNKNOWNTTY:
            raise
        conn.enterTtyModeWithPath([])


def follow(seat: BrailleSeat, channel: Any, snapshot: Callable[[int, str], Info]) -> Callable[[], None]:
    """Hand every line of `channel` (a SeatChannel) to `seat`, each with the table's snapshot
    taken in the loop's thread (its `subscribe` hook runs there). Returns the unsubscriber."""
    after = 0

    def wake() -> None:
        nonlocal after
        if channel.closed:
            seat.closed()
            return
        lines = channel.since(after)
        if not lines:
            return
        info = snapshot(seat.seat, seat.lang)
        for h in lines:
            seat.push(h.text, h.private, h.priority, h.earcon, info)
            after = h.n

    off = channel.subscribe(wake)
    wake()
    return off


__all__ = ["IN_USE", "NOT_ALLOWED", "NO_BRLAPI", "NO_BRLTTY", "NO_DISPLAY", "BrailleSeat", "decode", "follow",
           "settings"]
