"""Issue #16 (7): the rules server times out slow and idle connections, answers Range and HEAD
right (huge numbers: 416), follows no symlink out of the site, checks ports, and can carry
other pages on the same aiohttp application."""

from __future__ import annotations

import argparse
import socket
import time
import urllib.request
from pathlib import Path

import pytest
from aiohttp import web

from companion.audiorules.server import (
    Server,
    add_rules_routes,
    parse_range,
    port_number,
    serve_in_thread,
)
from companion.audiorules.site import SiteFile

DATA = bytes(range(256)) * 40


@pytest.fixture
def site(tmp_path: Path):
    audio = tmp_path / "site"
    audio.mkdir()
    (audio / "a.ogg").write_bytes(DATA)
    (audio / "escape.ogg").symlink_to("/etc/passwd")
    files = {"index.html": SiteFile(b"<p>hi</p>"), "a.ogg": SiteFile(path=audio / "a.ogg"),
             "escape.ogg": SiteFile(path=audio / "escape.ogg")}
    srv, base = serve_in_thread(0, files, header_timeout=0.6)
    yield base
    srv.shutdown()
    srv.server_close()


def raw(base: str, request: str, timeout: float = 5) -> tuple[int, dict[str, str], bytes]:
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as s:
        s.sendall(request.encode("latin-1"))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def get(base: str, path: str, extra: str = "", method: str = "GET"):
    return raw(base, f"{method} {path} HTTP/1.1\r\nHost: x\r\n{extra}Connection: close\r\n\r\n")


def test_an_idle_connection_is_closed_after_the_timeout(site):
    host, port = site.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        t0 = time.monotonic()
        assert s.recv(100) == b""  # closed by the server, nothing sent
        assert time.monotonic() - t0 < 5


def test_a_slow_header_dribbler_is_cut_off(site):
    host, port = site.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.1\r\n")
        t0 = time.monotonic()
        closed = False
        for i in range(100):  # one header line every 0.1 s, never ending the head
            try:
                s.sendall(b"X-Slow-%d: y\r\n" % i)
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            s.settimeout(0.1)
            try:
                closed = s.recv(100) == b""
            except TimeoutError:  # nothing within 0.1 s: still open, send the next line
                continue
            except ConnectionResetError:  # cut off with a reset rather than a close: cut off too
                closed = True
            if closed:
                break
        assert closed and time.monotonic() - t0 < 5
    assert get(site, "/")[0] == 200  # and the server still answers


def test_a_kept_alive_connection_idle_after_a_request_is_closed(site):
    host, port = site.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        data = b""
        t0 = time.monotonic()
        while chunk := s.recv(65536):
            data += chunk
        assert data.startswith(b"HTTP/1.1 200") and time.monotonic() - t0 < 5


@pytest.mark.parametrize("header", ["bytes=1" + "0" * 5000 + "-", "bytes=-" + "9" * 5000, "bytes=99999999999999999999-",
                                    f"bytes={len(DATA)}-", "bytes=-0"])
def test_unsatisfiable_ranges_are_416(site, header):
    status, headers, _ = get(site, "/a.ogg", f"Range: {header}\r\n")
    assert status == 416 and headers["content-range"] == f"bytes */{len(DATA)}"


def test_head_and_ranges(site):
    status, headers, body = get(site, "/a.ogg", "Range: bytes=10-19\r\n", "HEAD")
    assert status == 206 and body == b"" and headers["content-length"] == "10"
    status, headers, body = get(site, "/a.ogg", "Range: bytes=10-19\r\n")
    assert status == 206 and body == DATA[10:20] and headers["content-range"] == f"bytes 10-19/{len(DATA)}"
    status, _, body = get(site, "/a.ogg", "Range: bytes=0-1,5-6\r\n")  # several ranges: the whole file
    assert status == 200 and body == DATA
    status, headers, body = get(site, "/a.ogg", method="HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) == len(DATA)
    assert headers["server"] == "companion-rules"


def test_parse_range():
    assert parse_range("bytes=0-9", 100) == (0, 10)
    assert parse_range("bytes=-10", 100) == (90, 100)
    assert parse_range("bytes=90-", 100) == (90, 100)
    assert parse_range("bytes=9-2", 100) is None
    assert parse_range("items=1-2", 100) is None
    assert parse_range("bytes=100-", 100) is False


def test_no_symlink_leaves_the_site(site):
    status, _, body = get(site, "/escape.ogg")
    assert status == 404 and b"root:" not in body


@pytest.mark.parametrize("text", ["99999", "-1", "abc", "٣٠٠٠", "1" * 5000])
def test_ports_are_checked(text):
    with pytest.raises(argparse.ArgumentTypeError):
        port_number(text)


def test_a_port_in_use_is_said_clearly():
    from companion.cli.rules import serve_main

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        out: list[str] = []
        assert serve_main(["--port", str(s.getsockname()[1])], print_fn=out.append) == 1
    assert "already in use" in out[-1]


def test_the_rules_routes_share_an_application_with_other_pages(tmp_path):
    async def seat(request: web.Request) -> web.Response:
        return web.Response(text="seat page")

    app = web.Application()
    app.router.add_get("/seat/{name}", seat)
    add_rules_routes(app, {"index.html": SiteFile(b"rules index")})
    srv = Server(app, 0, header_timeout=2).start()
    try:
        assert urllib.request.urlopen(srv.base_url + "/seat/marie").read() == b"seat page"
        assert urllib.request.urlopen(srv.base_url + "/").read() == b"rules index"
    finally:
        srv.shutdown()
        srv.server_close()



def test_rules_scan_refuses_a_huge_image_before_decoding_it(tmp_path):
    import resource
    import zlib

    from companion.audiorules.scan import TooLarge, decode

    # A 41 kB-class PNG of 20000 x 20000 white pixels: its header says the size.
    width = height = 20000
    raw_rows = zlib.compress((b"\x00" + b"\xff" * width) * 200, 9)
    png = b"\x89PNG\r\n\x1a\n"

    def chunk(kind: bytes, data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")

    png += chunk(b"IHDR", width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 0, 0, 0, 0]))
    png += chunk(b"IDAT", raw_rows) + chunk(b"IEND", b"")
    path = tmp_path / "huge.png"
    path.write_bytes(png)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.monotonic()
    with pytest.raises(TooLarge) as exc:
        decode(path)
    assert "20000 x 20000" in str(exc.value) and time.monotonic() - t0 < 5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # kB: nothing decoded


def test_the_load_bench_answers_and_cuts_off_slow_clients():
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import server_load

    r = server_load.run(clients=20, dribblers=3, header_timeout=0.5, normal=3, hold=1.5)
    assert r["storm_ok"] == 20 and r["storm_failed"] == 0 and r["normal_median"] is not None
    assert r["dribblers_closed"] == 3
