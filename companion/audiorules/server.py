"""`companion serve`: the rules pages over HTTP, with the standard library only.

It listens on localhost unless asked for the local network; it serves only the files of
`site.site_files` (a fixed table built at start, so no request can reach any other file),
refuses path traversal (`..`, encoded or not, backslashes, NUL bytes) with 400, lists no
folder, answers GET and HEAD only (405 otherwise), supports byte ranges (phones' audio
players need them) and changes nothing on disk.
"""

from __future__ import annotations

import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

from . import DEFAULT_PORT
from .site import SiteFile, content_type, site_files

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; media-src 'self'; "
    "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


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


class RulesHandler(BaseHTTPRequestHandler):
    server_version = "companion-rules"
    sys_version = ""
    files: dict[str, SiteFile] = {}
    quiet = True

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        if not self.quiet:
            super().log_message(format, *args)

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        self._serve(body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._serve(body=False)

    def _not_allowed(self) -> None:
        self._plain(HTTPStatus.METHOD_NOT_ALLOWED, "GET and HEAD only.\n", {"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _not_allowed

    def _plain(self, status: HTTPStatus, text: str, extra: dict[str, str] | None = None, body: bool = True) -> None:
        data = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for k, v in {**SECURITY_HEADERS, **(extra or {})}.items():
            self.send_header(k, v)
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(data)

    def _serve(self, body: bool) -> None:
        try:
            kind, key = resolve(self.path, self.files)
        except (Refused, UnicodeDecodeError):
            self._plain(HTTPStatus.BAD_REQUEST, "Refused: that path leaves the rules site.\n")
            return
        if kind == "redirect":
            assert key is not None
            self._plain(HTTPStatus.MOVED_PERMANENTLY, f"See {key}\n", {"Location": key}, body)
            return
        if kind == "missing" or key is None:
            self._plain(HTTPStatus.NOT_FOUND, "Not found.\n", body=body)
            return
        f = self.files[key]
        try:
            data = f.read()
        except OSError:
            self._plain(HTTPStatus.NOT_FOUND, "Not found.\n", body=body)
            return
        status, start, end = HTTPStatus.OK, 0, len(data)
        rng = self.headers.get("Range")
        if rng:
            m = _RANGE.match(rng.strip())
            if m and (m[1] or m[2]):
                if m[1]:
                    start = int(m[1])
                    end = min(int(m[2]) + 1, len(data)) if m[2] else len(data)
                else:
                    start = max(len(data) - int(m[2]), 0)
                if start >= len(data) or start >= end:
                    self._plain(HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE, "Bad range.\n",
                                {"Content-Range": f"bytes */{len(data)}"}, body)
                    return
                status = HTTPStatus.PARTIAL_CONTENT
        self.send_response(status)
        self.send_header("Content-Type", content_type(key))
        self.send_header("Content-Length", str(end - start))
        self.send_header("Accept-Ranges", "bytes")
        if status == HTTPStatus.PARTIAL_CONTENT:
            self.send_header("Content-Range", f"bytes {start}-{end - 1}/{len(data)}")
        for k, v in SECURITY_HEADERS.items():
            self.send_header(k, v)
        self.end_headers()
        if body:
            self.wfile.write(data[start:end])


def make_server(port: int = DEFAULT_PORT, lan: bool = False, files: dict[str, SiteFile] | None = None,
                quiet: bool = True) -> ThreadingHTTPServer:
    """A server bound to 127.0.0.1 (or every interface with `lan`), not yet serving."""
    handler = type("Handler", (RulesHandler,), {"files": files if files is not None else site_files(), "quiet": quiet})
    server = ThreadingHTTPServer(("0.0.0.0" if lan else "127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(port: int = 0, files: dict[str, SiteFile] | None = None) -> tuple[ThreadingHTTPServer, str]:
    """Start a localhost server in a thread (for tests and embedding); returns it and its base URL."""
    server = make_server(port, False, files)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="rules-server",
                     daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
