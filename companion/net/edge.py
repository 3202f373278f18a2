"""The network edge shared by the seat pages (`play --web`) and `companion serve` (issue #25).

What anyone on the network can send must never reach the table's screen (it is the shared
braille display) and must never stop the table answering:

* `quiet_logs()` routes aiohttp's loggers (and `loop_errors(loop)` an event loop's own error
  reports, such as « too many open files » on accept) to `RateLimitedFile`: one line per
  report, no traceback, at most `LOG_LINES` lines every `LOG_WINDOW` seconds, in a file
  readable by the user only; nothing is printed.
* `Gate` counts the open connections per client address and overall: a client past
  `PER_CLIENT` is cut at once; past `MAX_CONNECTIONS` the oldest connection that is not in
  a request makes room — one that never finished a request first, then an idle keep-alive —
  so busy pages (a live stream) are never dropped; a
  connection that sends no whole request head, or stays idle, `header_timeout` seconds is
  closed. `Guarded` is aiohttp's protocol behind the gate; `gate_middleware` marks a
  connection busy while its request is answered.
* `host_allowed` and `same_origin`: a request names a host the server is reached by (DNS
  rebinding is refused), a post comes from the server's own pages (another site's is refused).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import logging
import os
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from companion import paths

LOG_LINES = 20  # lines written ...
LOG_WINDOW = 60.0  # ... in this many seconds at most; the rest are counted in one line
PER_CLIENT = 32  # open connections from one address (a phone's browser uses about 6)
MAX_CONNECTIONS = 512  # open connections in all (each is a file descriptor)
HEADER_TIMEOUT = 30.0  # seconds to send a request head, or to stay idle between requests
BACKLOG = 1024
LOG_ENV = "COMPANION_EDGE_LOG"  # where the edge's log goes (default: the user's log folder)
LOGGERS = ("aiohttp", "companion.edge")

log = logging.getLogger("companion.edge")


def edge_log_path() -> Path:
    """The edge's log file: $COMPANION_EDGE_LOG, else `edge.log` in the user's log folder."""
    if os.environ.get(LOG_ENV):
        return Path(os.environ[LOG_ENV])
    return paths.log_dir() / "edge.log"


class RateLimitedFile(logging.Handler):
    """One line per record in a 0600 file, at most `lines` per `window` seconds; the records
    left out are counted and said in one line when the window turns. Never raises, never
    prints (a handler's default `handleError` would write to standard error)."""

    def __init__(self, path: Path, lines: int = LOG_LINES, window: float = LOG_WINDOW) -> None:
        super().__init__(logging.INFO)
        self.path = path
        self.lines = lines
        self.window = window
        self._start = time.monotonic()
        self._count = 0
        self.left_out = 0
        self.written = 0
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        now = time.monotonic()
        with self._guard:
            text = []
            if now - self._start >= self.window:
                if self.left_out:
                    text.append(f"{_stamp()} companion.edge: {self.left_out} more reports left out")
                self._start, self._count, self.left_out = now, 0, 0
            if self._count >= self.lines:
                self.left_out += 1
            else:
                self._count += 1
                text.append(f"{_stamp()} {record.name}: {_one_line(record)}")
            if text:
                self._write("\n".join(text) + "\n")

    def _write(self, text: str) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, text.encode("utf-8", "replace"))
            finally:
                os.close(fd)
            self.written += text.count("\n")
        except OSError:
            pass  # no log folder, a full disk: the report is dropped, never printed

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        pass  # logging's own error report would print a traceback on the table's screen


def _stamp() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


def _one_line(record: logging.LogRecord) -> str:
    try:
        msg = record.getMessage()
    except Exception:  # noqa: BLE001 - a bad format string in a library's report
        msg = str(record.msg)
    if record.exc_info and record.exc_info[1] is not None:
        exc = record.exc_info[1]
        msg += f" ({type(exc).__name__}: {exc})"
    peer = ""
    request = getattr(record, "request", None)
    if request is not None:
        with contextlib.suppress(Exception):
            peer = f" from {request.remote}"
    return " ".join((msg + peer).split())[:300]


_handler: RateLimitedFile | None = None
_lock = threading.Lock()


def quiet_logs(path: Path | None = None) -> RateLimitedFile:
    """Route aiohttp's and the edge's reports to one rate-limited file, and never to the
    screen (no propagation to the root logger or to logging's last-resort stderr handler).
    Called again with another path (tests), it writes there from then on."""
    global _handler
    path = path or edge_log_path()
    with _lock:
        if _handler is None or _handler.path != path:
            old, _handler = _handler, RateLimitedFile(path)
            for name in LOGGERS:
                logger = logging.getLogger(name)
                if old is not None:
                    logger.removeHandler(old)
                logger.addHandler(_handler)
                logger.propagate = False
                if logger.level == logging.NOTSET or logger.level > logging.INFO:
                    logger.setLevel(logging.INFO)
        return _handler


def loop_errors(loop: asyncio.AbstractEventLoop) -> None:
    """An event loop's own error reports (an accept that found no free file descriptor, a
    transport that broke) go to the edge's log, not to the screen."""

    def report(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        log.warning("%s", context.get("message", "event loop error"), exc_info=context.get("exception"))

    loop.set_exception_handler(report)


class Gate:
    """The open connections of one server, per client address; see the module's docstring.
    Touched from the server's event loop only."""

    def __init__(self, per_client: int = PER_CLIENT, total: int | None = None,
                 header_timeout: float = HEADER_TIMEOUT) -> None:
        self.per_client = per_client
        self.total = total if total is not None else fd_room()
        self.header_timeout = float(header_timeout)
        self.conns: dict[Any, list[Any]] = {}  # transport -> [peer, deadline or None while busy, answered once]
        self.per: Counter[str] = Counter()
        self.refused = 0
        self.evicted = 0
        self.timed_out = 0
        self.task: asyncio.Task[None] | None = None

    def admit(self, transport: Any) -> bool:
        peer = _peer(transport)
        if self.per[peer] >= self.per_client:
            self.refused += 1
            return False
        if len(self.conns) >= self.total and not self._evict():
            self.refused += 1
            return False
        self.per[peer] += 1
        self.conns[transport] = [peer, time.monotonic() + self.header_timeout, False]
        return True

    def _evict(self) -> bool:
        """Close the oldest connection not in a request (dicts keep their order of arrival),
        one that never finished a request before a page's idle keep-alive."""
        for answered in (False, True):
            for transport, (_, deadline, served) in self.conns.items():
                if deadline is not None and served is answered:
                    self.left(transport)
                    transport.abort()
                    self.evicted += 1
                    return True
        return False

    def left(self, transport: Any) -> None:
        entry = self.conns.pop(transport, None)
        if entry is not None:
            self.per[entry[0]] -= 1
            if self.per[entry[0]] <= 0:
                del self.per[entry[0]]

    def busy(self, transport: Any) -> list[Any] | None:
        entry = self.conns.get(transport)
        if entry is not None:
            entry[1] = None
        return entry

    def rest(self, entry: list[Any] | None) -> None:
        if entry is not None:
            entry[1] = time.monotonic() + self.header_timeout
            entry[2] = True

    def sweep(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        for transport, (_, deadline, _served) in list(self.conns.items()):
            if deadline is not None and now > deadline:
                self.left(transport)
                transport.close()
                self.timed_out += 1

    async def sweeper(self) -> None:
        step = max(0.05, min(1.0, self.header_timeout / 4))
        while True:
            await asyncio.sleep(step)
            self.sweep()


def fd_room() -> int:
    """MAX_CONNECTIONS, or half the process's file limit when that is lower: the files, the
    speech and the other servers keep the rest (an accept with no descriptor left fails)."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return MAX_CONNECTIONS
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft // 2))


def _peer(transport: Any) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else ""


class Guarded(asyncio.Protocol):
    """aiohttp's protocol behind a `Gate`: a connection the gate refuses is cut before
    aiohttp sees a byte of it (nothing parsed, nothing logged)."""

    def __init__(self, inner: Any, gate: Gate) -> None:
        self.inner = inner
        self.gate = gate
        self.transport: Any = None
        self.admitted = False

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        if not self.gate.admit(transport):
            transport.abort()
            return
        self.admitted = True
        self.inner.connection_made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        if self.admitted:
            self.gate.left(self.transport)
            self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.admitted:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return bool(self.inner.eof_received()) if self.admitted else None

    def pause_writing(self) -> None:
        if self.admitted:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.admitted:
            self.inner.resume_writing()


def gate_middleware(gate: Gate) -> Any:
    """Marks the connection busy while its request is answered (a live stream is never idle)."""

    @web.middleware
    async def busy(request: web.Request, handler: Any) -> web.StreamResponse:
        entry = gate.busy(request.transport)
        try:
            return await handler(request)  # type: ignore[no-any-return]
        finally:
            gate.rest(entry)

    return busy


def host_allowed(host: str, names: set[str] | frozenset[str] = frozenset()) -> bool:
    """A Host header naming this server as it is reached: an address, localhost, a .local
    (mDNS) name or one of `names`; never another site's name pointed at it (DNS rebinding)."""
    if host.startswith("["):
        name = host[1:].partition("]")[0]
    else:
        name = host.rpartition(":")[0] if host.count(":") == 1 else host
    name = name.lower().rstrip(".")
    if not name:
        return False
    if name == "localhost" or name.endswith((".localhost", ".local")) or name in names:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def same_origin(request: web.Request, host: str) -> bool:
    """A post from the server's own page: its Origin (or, without one, its Referer) names the
    host it was sent to. A browser always sends Origin with a post from another site (the
    pages' Referrer-Policy is same-origin, so their own posts carry it too); « Origin: null »
    (a sandboxed frame, a no-referrer page) is refused. A post with neither comes from a
    program, not from another web page in the phone's browser."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("Origin")
    if origin is None:
        referer = request.headers.get("Referer")
        if referer is None:
            return True
        origin = referer
    if origin == "null":
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and hmac.compare_digest(parts.netloc.lower().encode(),
                                                                     host.lower().encode())


async def listen(runner: web.AppRunner, host: str | list[str], port: int, gate: Gate,
                 backlog: int = BACKLOG) -> asyncio.Server:
    """Serve `runner`'s application on host:port behind `gate`, quietly; sweeps idle ones."""
    quiet_logs()
    loop = asyncio.get_running_loop()
    loop_errors(loop)
    factory = runner.server
    assert factory is not None
    server = await loop.create_server(lambda: Guarded(factory(), gate), host, port, backlog=backlog,
                                      reuse_address=True)
    gate.task = loop.create_task(gate.sweeper())  # kept: a task nobody holds may be collected
    return server


__all__ = ["BACKLOG", "HEADER_TIMEOUT", "MAX_CONNECTIONS", "PER_CLIENT", "Gate", "Guarded", "RateLimitedFile",
           "edge_log_path", "fd_room", "gate_middleware", "host_allowed", "listen", "loop_errors", "quiet_logs",
           "same_origin"]
