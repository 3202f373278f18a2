"""Malformed and hostile HTTP requests, as anyone who reaches a port can send them (issue #25):
shared by tests/web/test_edge.py and bench/edge_load.py. Each is sent on its own connection,
which the sender then closes (or half-closes and reads the answer)."""

from __future__ import annotations

import socket

# Each one the server answers (400, 403, 404, 413...) unless it is in CUT: those are left
# unfinished, the sender going away (the server then only sees the connection close).
MALFORMED: list[bytes] = [
    b"POST /t/claim HTTP/1.1\r\nHost: h\r\nContent-Type: application/x-www-form-urlencoded\r\n"
    b"Content-Length: 100\r\n\r\nseat=0",  # a body cut short
    b"GET /t HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",  # a bad chunk size
    b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + b"\x00" * 40,  # a TLS hello on plain HTTP
    b"G\x00T /t HTTP/1.1\r\nHost: h\r\n\r\n",  # a NUL in the method
    b"GET /t HTTP/1.1\r\nHost h\r\nno colon here\r\n\r\n",  # headers without a colon
    b"GET /t HTTP/1.1\r\nHost: h\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n",  # a header too long
    b"GET /t HTTP/9.9\r\nHost: h\r\n\r\n",  # an unknown version
    b"POST /t/claim HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"POST /t/claim HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",  # a negative length
    "GET /t/\u00e9\u00e8 HTTP/1.1\r\nHost: h\r\n\r\n".encode("latin-1"),  # not ASCII
    b"GET /t HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(300)) + b"\r\n",  # many headers
    b"GET /t HTTP/1.1\r\n",  # a request head never finished
    b"POST /t/claim HTTP/1.1\r\nHost: h\r\nContent-Type: multipart/form-data; boundary=zz\r\n"
    b"Content-Length: 40\r\n\r\n--zz\r\nContent-Disposition: form-data\r\n",  # a multipart body cut
    b"\r\n\r\n\r\n\r\n",  # nothing but blank lines
    b"GET /t/s/%ZZ%00/events HTTP/1.1\r\nHost: h\r\n\r\n",  # a bad escape in a seat's address
    b"POST /t/s/x/line HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999\r\n\r\nline=",  # too big, cut
]


CUT = frozenset({0, 11, 12, 13, 15})


def send(port: int, data: bytes, host: str = "127.0.0.1", source: str | None = None, read: bool = True) -> bytes:
    """Send one hostile request on a new connection; with `read`, wait for the head of the
    server's answer (or its closing the connection), else go away at once."""
    conn = socket.create_connection((host, port), timeout=30, source_address=(source, 0) if source else None)
    try:
        conn.sendall(data)
        if not read:
            return b""
        out = b""
        while b"\r\n\r\n" not in out:
            try:
                chunk = conn.recv(65536)
            except (ConnectionResetError, TimeoutError):
                return out
            if not chunk:
                return out
            out += chunk
        return out
    except (ConnectionResetError, BrokenPipeError):
        return b""
    finally:
        conn.close()


__all__ = ["CUT", "MALFORMED", "send"]
