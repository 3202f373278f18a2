"""`companion serve`: the rules pages over HTTP, on aiohttp (one event loop, no thread per
connection).

It listens on localhost unless asked for the local network; it serves only the files of
`site.site_files` (a fixed table built at start, so no request can reach any other file),
refuses path traversal (`..`, encoded or not, backslashes, NUL bytes) with 400 and files whose
real place (symlinks followed) has left their folder with 404, lists no folder, answers GET and
HEAD only (405 otherwise), supports one byte range (phones' audio players need them; a range
that cannot be satisfied, huge numbers included, is 416) and changes nothing on disk. The
audio files are sent by aiohttp's `web.FileResponse` (ranges, HEAD, sendfile); `parse_range`
only decides beforehand what RFC 9110 lets a server ignore (several ranges, an invalid one),
which aiohttp would refuse with 416.

Robustness (issue #16): a connection that sends no complete request head within
`header_timeout` seconds, or stays idle that long between requests, is closed (30 s by
default); the listening socket has a real backlog; files are read by a bounded pool of workers.
Issue #25: connections are limited per client and overall (`companion.net.edge.Gate`),
and a malformed or hostile request never prints: aiohttp's reports and the loop's own go to
one rate-limited line each in the edge's log file (`--verbose` still prints the access log).

Reusable: `add_rules_routes(app, files)` puts the rules site on any aiohttp application (the
seat pages can share the server), and `Server` runs an application on a port, in its own
thread or in the foreground, with the same timeouts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote

from aiohttp import web
from multidict import CIMultiDict, CIMultiDictProxy

from companion.net.edge import Gate, gate_middleware, listen, quiet_logs

from . import DEFAULT_PORT
from .site import SiteFile, content_type, site_files

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; media-src 'self'; "
    "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
SERVER_NAME = "companion-rules"
HEADER_TIMEOUT = 30.0  # seconds to send a request head, or to stay idle between requests
BACKLOG = 1024
WORKERS = 8
_RANGE = re.compile(r"^bytes=(\d{0,18})-(\d{0,18})$")  # more digits than that: not satisfiable
_RANGE_ANY = re.compile(r"^bytes=\d*-\d*$")
FILES_KEY: web.AppKey[dict[str, SiteFile]] = web.AppKey("rules_files", dict)
POOL_KEY: web.AppKey[ThreadPoolExecutor] = web.AppKey("rules_pool", ThreadPoolExecutor)


class Refused(Exception):
    """A request path that tries to leave the site."""


def resolve(raw_path: str, files: dict[str, SiteFile]) -> tuple[str, str | None]:
    """("file", key) for a file of the site, ("redirect", location), or ("missing", None).

    Raises Refused for a path that tries to climb out of the site or hide its meaning."""
    # Not urlsplit: "//../x" would be read as a host name ("..") and the rest as the path.
    path = raw_path.split("?", 1)[0].split("#", 1)[0]
    if not path.startswith("/"):
        raise Refused(raw_path)
    decoded = path
    for _ in range(3):  # undo repeated percent-encoding (%252e%252e) before judging
        nxt = unquote(decoded, errors="strict")
        if nxt == decoded:
            break
        decoded = nxt
    if "\\" in decoded or "\x00" in decoded or "%" in decoded:
        raise Refused(raw_path)
    segments = decoded.split("/")[1:]
    if any(s in ("..", ".") for s in segments) or any(s == "" for s in segments[:-1]):
        raise Refused(raw_path)
    key = "/".join(segments)
    if key == "" or key.endswith("/"):
        key += "index.html"
    if key in files:
        return "file", key
    if f"{key}/index.html" in files:
        return "redirect", f"/{key}/"
    return "missing", None


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free port) to 65535, said clearly otherwise."""
    if not (text.isascii() and text.isdigit()) or len(text) > 5 or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a port: give a number from 1 to 65535")
    return int(text)


def port_problem(exc: OSError, port: int) -> str:
    """Why a port could not be opened, in one sentence."""
    import errno

    if exc.errno == errno.EADDRINUSE:
        return f"port {port} is already in use (another companion serve?): choose another with --port"
    if exc.errno == errno.EADDRNOTAVAIL:  # --mdns-interfaces named an address this machine lacks
        return "an address given with --mdns-interfaces or COMPANION_MDNS_INTERFACES is not one of this machine's"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"port {port} needs administrator rights: choose one above 1023 with --port"
    return f"port {port}: {exc.strerror or exc}"


# --------------------------------------------------------------------------- reading files
def _inside_its_folder(path: Path) -> bool:
    """False when the file (a symlink, say) really lives outside the folder it is listed in."""
    real = os.path.realpath(path)
    folder = os.path.realpath(path.parent)
    return os.path.commonpath([real, folder]) == folder and os.path.isfile(real)


def _size(f: SiteFile) -> int:
    if f.content is not None:
        return len(f.content)
    assert f.path is not None
    if not _inside_its_folder(f.path):
        raise FileNotFoundError(str(f.path))
    return f.path.stat().st_size


def _plain(status: int, text: str, extra: dict[str, str] | None = None) -> web.Response:
    return web.Response(status=status, text=text, content_type="text/plain", charset="utf-8",
                        headers={**SECURITY_HEADERS, **(extra or {})})


def parse_range(header: str, size: int) -> tuple[int, int] | None | bool:
    """(start, end) for one satisfiable byte range; None to ignore the header (send the whole
    file); False when it cannot be satisfied (416)."""
    value = header.strip()
    if not _RANGE_ANY.match(value):
        return None  # several ranges or another unit: the whole file (RFC 9110 allows it)
    m = _RANGE.match(value)
    if m is None:
        return False  # a number of more than 18 digits: beyond any file
    first, last = m[1], m[2]
    if not first and not last:
        return None
    if first:
        start = int(first)
        end = min(int(last) + 1, size) if last else size
        if last and int(last) < start:
            return None  # an invalid range is ignored (RFC 9110 14.1.1)
    else:
        start, end = max(size - int(last), 0), size
        if int(last) == 0:
            return False
    if start >= size or start >= end:
        return False
    return start, end


async def _serve(request: web.Request) -> web.StreamResponse:
    files = request.app[FILES_KEY]
    if request.method not in ("GET", "HEAD"):
        return _plain(405, "GET and HEAD only.\n", {"Allow": "GET, HEAD"})
    try:
        kind, key = resolve(request.raw_path, files)
    except (Refused, UnicodeDecodeError):
        return _plain(400, "Refused: that path leaves the rules site.\n")
    if kind == "redirect":
        assert key is not None
        return _plain(301, f"See {key}\n", {"Location": key})
    if kind == "missing" or key is None:
        return _plain(404, "Not found.\n")
    f = files[key]
    headers = {"Content-Type": content_type(key), **SECURITY_HEADERS}
    if f.content is not None:  # a page made in memory: whole (only the audio needs ranges)
        return web.Response(body=f.content, headers=headers)
    try:  # in the pool: the file still there and still inside its folder
        size = await asyncio.get_running_loop().run_in_executor(request.app[POOL_KEY], _size, f)
    except OSError:
        return _plain(404, "Not found.\n")
    # What aiohttp would wrongly refuse is decided here; the rest of Range is FileResponse's.
    drop = {"Accept-Encoding"}  # never a precompressed sibling (.gz, .br): only the site's files
    header = request.headers.get("Range")
    if header:
        got = parse_range(header, size)
        if got is False:
            return _plain(416, "Bad range.\n", {"Content-Range": f"bytes */{size}"})
        if got is None:
            drop.add("Range")  # ignored: the whole file (RFC 9110 14.2)
    assert f.path is not None
    response = web.FileResponse(f.path, headers=headers)
    await response.prepare(request.clone(headers=CIMultiDictProxy(CIMultiDict(
        (k, v) for k, v in request.headers.items() if k.title() not in drop))))
    return response


async def _server_header(request: web.Request, response: web.StreamResponse) -> None:
    response.headers["Server"] = SERVER_NAME


def add_rules_routes(app: web.Application, files: dict[str, SiteFile] | None = None, prefix: str = "") -> None:
    """Serve the rules site (every method: GET and HEAD answered, others 405) on `app`, under
    `prefix` ("" for the root). The pool of file readers closes with the application."""
    app[FILES_KEY] = files if files is not None else site_files()
    app[POOL_KEY] = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="rules-read")
    app.router.add_route("*", prefix + "/{tail:.*}", _serve)
    app.on_response_prepare.append(_server_header)

    async def close_pool(app: web.Application) -> None:
        app[POOL_KEY].shutdown(wait=False)

    app.on_cleanup.append(close_pool)


def rules_app(files: dict[str, SiteFile] | None = None) -> web.Application:
    app = web.Application(client_max_size=64 * 1024)
    add_rules_routes(app, files)
    return app


# --------------------------------------------------------------------------- running
class Server:
    """An aiohttp application on one port, run in a thread (`start`) or in the foreground
    (`serve_forever`), closing connections that are too slow to send a request head or idle
    longer than `header_timeout`. The port is bound at construction (OSError if taken)."""

    def __init__(self, app: web.Application, port: int = DEFAULT_PORT, lan: bool = False, *,
                 header_timeout: float = HEADER_TIMEOUT, backlog: int = BACKLOG, quiet: bool = True,
                 hosts: list[str] | None = None) -> None:
        if not 0 <= int(port) <= 65535:
            raise ValueError(f"port {port} is not between 0 and 65535")
        self.app = app
        self.header_timeout = float(header_timeout)
        self.backlog = backlog
        self.quiet = quiet
        # `hosts`: only these addresses (the mDNS interfaces given, e.g. 127.0.0.1 in tests)
        self.host: str | list[str] = hosts if hosts else ("0.0.0.0" if lan else "127.0.0.1")
        self.loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self._server: asyncio.AbstractServer | None = None
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()
        self.gate = Gate(header_timeout=self.header_timeout)
        self.loop.run_until_complete(self._bind(port))
        sock = self._server.sockets[0] if self._server else None
        self.server_address: tuple[str, int] = (sock.getsockname()[0] if sock else "127.0.0.1",
                                                sock.getsockname()[1] if sock else port)

    # the old http.server attributes, for callers written against it
    @property
    def files(self) -> dict[str, SiteFile]:
        return self.app[FILES_KEY]

    def refresh(self, files: dict[str, SiteFile]) -> None:
        """Offer `files` from now on (a background build made new audio). The table is changed
        in place, in the server's own thread, so no request sees half of it."""
        def swap() -> None:
            table = self.app[FILES_KEY]
            table.clear()
            table.update(files)

        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(swap)

    async def _bind(self, port: int) -> None:
        # a whole request head arrived: not idle while it is answered
        self.app.middlewares.append(gate_middleware(self.gate))
        quiet_logs()  # malformed requests: a line in the edge's log, never on the screen (issue #25)
        if not self.quiet:
            _print_access_log()
        self._runner = web.AppRunner(self.app, access_log=None if self.quiet else web.access_logger,
                                     keepalive_timeout=self.header_timeout, handle_signals=False,
                                     shutdown_timeout=2.0)  # Ctrl+C: never wait a minute on a lingering phone
        await self._runner.setup()
        self._server = await listen(self._runner, self.host, port, self.gate, self.backlog)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def serve_forever(self) -> None:
        """Serve until `shutdown` (from another thread), or Ctrl+C / SIGTERM in the main thread
        (then it returns normally: the caller closes the server and says so)."""
        import signal

        handled = []
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                # not on this platform or loop: Ctrl+C then arrives as KeyboardInterrupt below
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    self.loop.add_signal_handler(sig, self._stopped.set)
                    handled.append(sig)
        try:
            # Ctrl+C is how a user stops the server: a normal return, said by the caller
            with contextlib.suppress(KeyboardInterrupt):
                self.loop.run_until_complete(self._until_stopped())
        finally:
            self._stopped.set()
            for sig in handled:
                self.loop.remove_signal_handler(sig)

    async def _until_stopped(self) -> None:
        while not self._stopped.is_set():
            await asyncio.sleep(0.05)

    def start(self) -> Server:
        self._thread = threading.Thread(target=self.serve_forever, name="rules-server", daemon=True)
        self._thread.start()
        return self

    def shutdown(self) -> None:
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(10)

    def server_close(self) -> None:
        self._stopped.set()
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(10)
        if self.loop.is_closed():
            return
        if self._server is not None:
            self._server.close()
        for transport in list(self.gate.conns):
            transport.close()
        if self._runner is not None:
            self.loop.run_until_complete(self._runner.cleanup())
        for task in asyncio.all_tasks(self.loop):
            task.cancel()
        self.loop.run_until_complete(asyncio.sleep(0))
        self.loop.close()


def _print_access_log() -> None:
    """`companion serve --verbose`: the access log on standard error, as before (only it)."""
    import logging
    import sys

    access = logging.getLogger("aiohttp.access")
    access.propagate = False  # asked for on the screen: not also in the edge's log
    if not any(getattr(h, "stream", None) is sys.stderr for h in access.handlers):
        access.addHandler(logging.StreamHandler(sys.stderr))


def make_server(port: int = DEFAULT_PORT, lan: bool = False, files: dict[str, SiteFile] | None = None,
                quiet: bool = True, header_timeout: float = HEADER_TIMEOUT, hosts: list[str] | None = None) -> Server:
    """A server bound to 127.0.0.1 (or every interface with `lan`, or `hosts`), not yet serving."""
    return Server(rules_app(files), port, lan, header_timeout=header_timeout, quiet=quiet, hosts=hosts)


def serve_in_thread(port: int = 0, files: dict[str, SiteFile] | None = None,
                    header_timeout: float = HEADER_TIMEOUT) -> tuple[Server, str]:
    """Start a localhost server in a thread (for tests and embedding); returns it and its base URL."""
    server = make_server(port, False, files, header_timeout=header_timeout).start()
    return server, server.base_url


__all__ = ["HEADER_TIMEOUT", "Refused", "Server", "add_rules_routes", "make_server", "parse_range", "port_number", "port_problem",
           "resolve", "rules_app", "serve_in_thread"]
