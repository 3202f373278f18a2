"""`companion serve` and `companion rules export`: the rules pages, their audio, and nothing else."""

from __future__ import annotations

import hashlib
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest

from companion.audiorules import CHAPTERS, GAMES, LANGS
from companion.audiorules.manifest import load
from companion.audiorules.server import make_server, serve_in_thread
from companion.audiorules.site import site_files
from companion.cli.rules import rules_main
from tests.waiting import WAIT, until


@pytest.fixture(scope="module")
def server(built_kikoi):
    srv, base = serve_in_thread(0)
    yield base
    srv.shutdown()
    srv.server_close()


def raw(base: str, request_line: str, extra: str = "") -> tuple[int, dict[str, str], bytes]:
    """Send one request exactly as written (no client-side normalisation of the path)."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        s.sendall(f"{request_line}\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, body


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        for key in ("href", "src"):
            if a.get(key):
                self.refs.append(a[key])


def test_the_page_at_the_qr_address_lists_chapters_and_serves_their_audio(server: str) -> None:
    man = load("kikoi", "fr")
    status, headers, body = raw(server, "GET /kikoi/fr/ HTTP/1.1")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    html = body.decode("utf-8")
    assert '<html lang="fr">' in html and "<title>Les 5 KIKOI — règles audio</title>" in html
    for i, ch in enumerate(man.chapters, 1):
        assert f'<h2 id="{ch.id}-h">{i}. {ch.title}</h2>'.replace("'", "&#x27;") in html
        status, headers, audio = raw(server, f"GET /kikoi/fr/{ch.id}.ogg HTTP/1.1")
        assert status == 200 and headers["content-type"] == "audio/ogg"
        assert hashlib.sha256(audio).hexdigest() == hashlib.sha256(ch.audio_file.read_bytes()).hexdigest()
    # a page whose audio is not built says so, and has the transcript
    html_en = raw(server, "GET /kaliko/en/ HTTP/1.1")[2].decode("utf-8")
    assert "<audio" not in html_en and "Audio not built yet" in html_en
    assert load("kaliko", "en").chapter("turn").paragraphs[0] in html_en


def test_every_link_of_every_page_resolves(server: str) -> None:
    files = site_files()
    pages = [k for k in files if k.endswith(".html")]
    assert len(pages) == 1 + len(GAMES) * (1 + len(LANGS))
    for page in pages:
        url = "/" + page.removesuffix("index.html")
        parser = Links()
        parser.feed(urllib.request.urlopen(server + url).read().decode("utf-8"))
        for ref in parser.refs:
            if ref.startswith("#"):
                assert f'id="{ref[1:]}"' in files[page].read().decode("utf-8"), (page, ref)
                continue
            target = urllib.parse.urljoin(server + url, ref)
            with urllib.request.urlopen(urllib.request.Request(target, method="HEAD")) as resp:
                assert resp.status == 200, (page, ref)


def test_head_and_byte_ranges(server: str) -> None:
    path = load("kikoi", "fr").chapter("setup").audio_file
    data = path.read_bytes()
    status, headers, body = raw(server, "HEAD /kikoi/fr/setup.ogg HTTP/1.1")
    assert status == 200 and body == b"" and int(headers["content-length"]) == len(data)
    assert headers["accept-ranges"] == "bytes"
    status, headers, body = raw(server, "GET /kikoi/fr/setup.ogg HTTP/1.1", "Range: bytes=100-199\r\n")
    assert status == 206 and body == data[100:200]
    assert headers["content-range"] == f"bytes 100-199/{len(data)}"
    status, _, body = raw(server, "GET /kikoi/fr/setup.ogg HTTP/1.1", "Range: bytes=-50\r\n")
    assert status == 206 and body == data[-50:]
    status, headers, _ = raw(server, "GET /kikoi/fr/setup.ogg HTTP/1.1", f"Range: bytes={len(data)}-\r\n")
    assert status == 416 and headers["content-range"] == f"bytes */{len(data)}"


TRAVERSALS = [
    "/../../etc/passwd",
    "/kikoi/fr/../../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/%2E%2E/%2E%2E/etc/passwd",
    "/..%2f..%2fetc%2fpasswd",
    "/kikoi/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc/passwd",
    "/%252e%252e/%252e%252e/etc/passwd",
    "/kikoi/..%5c..%5c..%5cetc/passwd",
    "/..\\..\\etc\\passwd",
    "/kikoi/fr/goal.ogg%00.html",
    "/./kikoi/fr/",
    "//etc/passwd",
    "//../../etc/passwd",
    "/kikoi//../../etc/passwd",
    "/%2fetc%2fpasswd",
    "/etc/passwd",
    "/audio/rules/kikoi/fr/goal.txt",
    "/companion/audiorules/server.py",
    "/../audio/rules/build/kikoi/fr/manifest.json",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_nothing_outside_the_site_is_served(server: str, path: str) -> None:
    status, _, body = raw(server, f"GET {path} HTTP/1.1")
    assert status in (400, 404), (path, status)
    assert b"root:" not in body and b"import" not in body and b"KIKOI" not in body


def test_no_listing_no_writes_get_and_head_only(server: str, built_kikoi) -> None:
    before = {p: p.stat().st_mtime_ns for p in built_kikoi["dir"].rglob("*")}
    # A folder is its page (index.html) or nothing: never a listing of files.
    status, _, body = raw(server, "GET /kikoi/fr/?C=M;O=D HTTP/1.1")
    assert status == 200 and body == site_files()["kikoi/fr/index.html"].read()
    status, _, body = raw(server, "GET /kikoi/ HTTP/1.1")
    assert status == 200 and body == site_files()["kikoi/index.html"].read()
    for path in ("/kikoi/fr/goal.ogg/", "/kikoi/en/goal.ogg", "/kaliko/fr/goal.ogg"):
        status, _, body = raw(server, f"GET {path} HTTP/1.1")
        assert status == 404 and b"Index of" not in body
    assert raw(server, "GET /kikoi HTTP/1.1")[:2][0] == 301
    assert raw(server, "GET /kikoi HTTP/1.1")[1]["location"] == "/kikoi/"
    assert raw(server, "GET /kikoi/fr/nothing.ogg HTTP/1.1")[0] == 404
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        status, headers, _ = raw(server, f"{method} /kikoi/fr/goal.ogg HTTP/1.1", "Content-Length: 0\r\n")
        assert status == 405 and headers["allow"] == "GET, HEAD"
    assert {p: p.stat().st_mtime_ns for p in built_kikoi["dir"].rglob("*")} == before


def test_security_headers(server: str) -> None:
    _, headers, _ = raw(server, "GET /kikoi/en/ HTTP/1.1")
    assert headers["x-content-type-options"] == "nosniff"
    assert "default-src 'none'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer"
    assert "python" not in headers.get("server", "").lower()


def test_localhost_unless_lan(built_kikoi) -> None:
    srv = make_server(0)
    assert srv.server_address[0] == "127.0.0.1"
    srv.server_close()
    srv = make_server(0, lan=True)
    assert srv.server_address[0] == "0.0.0.0"
    srv.server_close()


def test_export_writes_the_same_site(built_kikoi, tmp_path: Path, server: str) -> None:
    out: list[str] = []
    assert rules_main(["export", str(tmp_path / "site")], print_fn=out.append) == 0
    files = site_files()
    written = sorted(str(p.relative_to(tmp_path / "site")) for p in (tmp_path / "site").rglob("*") if p.is_file())
    assert written == sorted(files)
    assert len([w for w in written if w.endswith(".ogg")]) == len(CHAPTERS)
    for rel in ("kikoi/fr/index.html", "kikoi/fr/goal.ogg", "style.css", "index.html"):
        assert (tmp_path / "site" / rel).read_bytes() == urllib.request.urlopen(f"{server}/{rel}").read()
    # every relative link of the exported pages exists in the folder
    for page in (tmp_path / "site").rglob("*.html"):
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for ref in parser.refs:
            if ref.startswith("#"):
                continue
            target = (page.parent / ref.split("#")[0]).resolve()
            if ref.endswith("/"):
                target = target / "index.html"
            assert target.exists(), (page, ref)
    assert out == [f"{len(files)} fichiers écrits dans {tmp_path / 'site'}. Ouvrez index.html ou publiez ce dossier."]


def test_serve_command_runs_and_stops(built_kikoi, tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from companion.cli.rules import serve_main; "
         f"sys.exit(serve_main(['--port', '{port}']))"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**__import__("os").environ, "COMPANION_LANG": "en"},
    )
    try:
        def page() -> bytes | None:  # None until the server answers
            try:
                return urllib.request.urlopen(f"http://127.0.0.1:{port}/kikoi/fr/", timeout=WAIT).read()
            except (urllib.error.URLError, ConnectionError):
                assert proc.poll() is None, proc.stderr.read()
                return None

        body = until(page, "the rules page served")
        assert b"Les 5 KIKOI" in body
    finally:
        proc.send_signal(__import__("signal").SIGINT)
        stdout, _ = proc.communicate(timeout=10)
    assert re.search(rf"Rules page: http://localhost:{port}/", stdout)
    assert "Server stopped." in stdout


def test_resolve_never_leaves_the_table() -> None:
    """Any path made of real and hostile segments resolves to a file of the site, a redirect
    inside it, nothing, or a refusal; a climbing segment is always refused."""
    from urllib.parse import unquote

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from companion.audiorules.server import Refused, resolve

    files = {k: v for k, v in site_files(["kissa"]).items()}
    segment = st.sampled_from(["kissa", "fr", "en", "index.html", "goal.ogg", "style.css", "", ".", "..",
                               "%2e%2e", "%2E%2e", "%252e%252e", ".%2e", "..%2f", "%5c", "\\..", "%00",
                               "etc", "passwd", "?x=1", "#top", "%2f"])

    @settings(max_examples=300, deadline=None)
    @given(st.lists(segment, min_size=1, max_size=6))
    def check(parts: list[str]) -> None:
        path = "/" + "/".join(parts)
        try:
            kind, key = resolve(path, files)
        except Refused:
            return
        plain = unquote(unquote(unquote(path.split("?")[0].split("#")[0])))
        assert ".." not in plain.split("/") and "\\" not in plain
        if kind == "file":
            assert key in files
        elif kind == "redirect":
            assert key is not None and key.lstrip("/") + "index.html" in files

    check()
