"""The edge holds and stays quiet (issue #25, finding 4): malformed and hostile requests to the
seat pages (`play --web`) and to `companion serve` print nothing on the table's screen (one
rate-limited line each in the edge's log, mode 0600); connections are limited per client and
overall, and the idle ones make room for the pages; all on 127.0.0.0/8 only."""

from __future__ import annotations

import http.client
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

from companion.inputs.web.hub import WebHub
from companion.net.edge import LOG_LINES, Gate, RateLimitedFile
from companion.session.inbox import Inbox
from tests.web.hostile import CUT, MALFORMED, send
from tests.web.test_hub import JAR, claim, fetch
from tests.web.test_join import Play, play_env

ROUNDS = 7  # 7 x 16 kinds = 112 hostile requests for each server


def attack(port: int) -> int:
    """Every hostile request, ROUNDS times; how many the server refused with a 4xx answer."""
    answers = [send(port, data, read=i not in CUT) for _ in range(ROUNDS) for i, data in enumerate(MALFORMED)]
    refused = sum(bool(re.match(rb"HTTP/1\.[01] 4\d\d ", a)) for a in answers)
    assert refused == ROUNDS * (len(MALFORMED) - len(CUT))  # each answered, none ignored
    return refused


def test_hostile_requests_print_nothing_at_the_table(tmp_path: Path) -> None:
    game = Play(["kissa", "--players", "Anne,Bruno", "--seed", "4", "--web", "--port", "0",  # kissa: no deal waits for pages
                 "--journal", str(tmp_path / "game.jsonl")], play_env(tmp_path))
    try:
        game.wait_for("Pages des joueurs")
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/t", "\n".join(game.term.lines))[1])  # type: ignore[index]
        before = len(game.term.lines)
        attack(port)
        # the table still answers, and its answer is the next thing printed
        assert game.proc.stdin is not None
        game.proc.stdin.write("état\n")
        game.proc.stdin.flush()
        game.term.wait_for(lambda ls: any("Reste 100 jetons" in ln for ln in ls[before:]))  # the status line
        printed = game.term.lines[before:]
    finally:
        out, err = game.quit()
    assert not any("Traceback" in ln or "Error handling" in ln for ln in printed), printed[:5]
    assert "Traceback" not in err and "Error" not in err, err[:500]
    log = tmp_path / "edge.log"
    assert log.stat().st_mode & 0o077 == 0
    assert 1 <= len(log.read_text(encoding="utf-8").splitlines()) <= LOG_LINES + 1


def test_hostile_requests_to_companion_serve_print_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_EDGE_LOG": str(tmp_path / "edge.log")}
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--port", "0", "--no-build"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        first = []
        for line in proc.stdout:  # its first lines, up to the address it listens on
            first.append(line)
            if "localhost:" in line:
                break
        port = int(re.search(r"localhost:(\d+)", first[-1])[1])  # type: ignore[index]
        attack(port)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/")
        assert conn.getresponse().status in (200, 301, 404)  # it still answers
        conn.close()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    printed = out.splitlines() + err.splitlines()
    assert not any("Traceback" in ln or "Error handling" in ln for ln in printed), printed[:5]
    assert len(printed) <= 2, printed  # only « stopped » (and nothing from the requests)


def raw_get(port: int, source: str, path: str = "/t") -> socket.socket:
    """A keep-alive connection from `source` that made one whole request (so it is admitted)."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    head = conn.recv(65536)
    assert head.startswith(b"HTTP/1.1 200"), head[:60]
    return conn


def cut(conn: socket.socket) -> bool:
    """True when the server closed this connection (waits for it: the event, not a clock)."""
    try:
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_connections_are_limited_per_client_and_overall(tmp_path: Path) -> None:
    gate = Gate(per_client=4, total=8, header_timeout=120.0)
    hub = WebHub(Inbox(), ["Anne", "Bruno"], port=0, gate=gate)
    hub.start()
    conns: list[socket.socket] = []
    try:
        port = hub.port
        # a live page: Anne's stream, busy all along
        anne = claim(hub, 0)
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.2", 0))
        keyed = urllib.request.Request(anne + "/events")
        JAR.add_cookie_header(keyed)
        stream.request("GET", anne.split(str(port), 1)[1] + "/events", headers=keyed.unredirected_hdrs)
        resp = stream.getresponse()
        assert resp.status == 200
        # one client: four connections, the fifth is cut at once
        conns = [raw_get(port, "127.0.0.3") for _ in range(4)]
        extra = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=("127.0.0.3", 0))
        assert cut(extra)
        # others fill the server (8 in all with the stream), one of them silent: a newcomer makes
        # the silent one go first (it never finished a request), then the oldest idle keep-alive
        conns += [raw_get(port, "127.0.0.4") for _ in range(2)]
        silent = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=("127.0.0.6", 0))
        conns.append(silent)
        newcomer = raw_get(port, "127.0.0.5")
        assert cut(silent) and gate.evicted == 1
        second = raw_get(port, "127.0.0.5")
        assert cut(conns[0])
        assert gate.evicted == 2 and gate.refused >= 1
        second.close()
        # the live page never lost its stream
        hub.channel(0).deliver("encore là", private=True, priority=1, earcon=None, lang="fr")
        while True:
            line = resp.fp.readline().decode()
            if line.startswith("data: "):
                assert json.loads(line[6:])["text"] == "encore là"
                break
        newcomer.close()
        stream.close()
    finally:
        for c in conns:
            c.close()
        hub.stop()


def test_a_silent_connection_is_closed_after_the_header_timeout() -> None:
    hub = WebHub(Inbox(), ["Anne"], port=0, gate=Gate(header_timeout=0.3))
    hub.start()
    try:
        silent = socket.create_connection(("127.0.0.1", hub.port), timeout=30)
        assert cut(silent)  # the server closed it; waited on, not slept
        assert fetch(hub.table_url)[0] == 200
    finally:
        hub.stop()


def test_the_edge_log_is_one_line_per_report_rate_limited(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "edge.log"
    handler = RateLimitedFile(path, lines=3, window=3600.0)
    logger = logging.getLogger("companion.edge.test")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        for i in range(10):
            try:
                raise ValueError(f"bad\nrequest {i}")
            except ValueError:
                logger.exception("Error handling request")
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) == 3 and all("ValueError: bad request" in ln for ln in lines)
        assert path.stat().st_mode & 0o777 == 0o600
        handler._start -= 3600.0  # the window turns: the ones left out are counted in one line
        logger.warning("next")
        lines = path.read_text(encoding="utf-8").splitlines()
        assert "7 more reports left out" in lines[3] and lines[4].endswith("next")
        # an unwritable log drops the report; nothing is printed (logging would print to stderr)
        blocked = RateLimitedFile(Path("/proc/no/such/edge.log"))
        err = threading.Event()
        blocked.handleError = lambda record: err.set()  # type: ignore[method-assign]
        blocked.emit(logging.makeLogRecord({"msg": "x"}))
        assert not err.is_set() and blocked.written == 0
    finally:
        logger.removeHandler(handler)


def test_the_hosts_a_server_is_reached_by() -> None:
    from companion.net.edge import host_allowed

    for host in ("127.0.0.1:8766", "192.168.1.20:8766", "[::1]:8766", "[fe80::1]", "localhost", "LOCALHOST:1",
                 "maison.local:8766", "maison.local.", "x.localhost:8766"):
        assert host_allowed(host), host
    assert host_allowed("maison:8766", {"maison"})
    for host in ("", ":8766", "evil.example:8766", "127.0.0.1.evil.example", "local:8766", "maison:8766",
                 "192.168.1.20.nip.io:8766"):
        assert not host_allowed(host), host
