"""The network edge under attack, on 127.0.0.0/8 only (issue #25): before and after, one run.

For each code base (before: the unmodified checkout given by --before, default /work/main;
after: this worktree), a server runs in its own process with a 1,024 file limit (as on the
machine where the finding was made), and prints to pipes that stand for the table's screen:

* the seat pages (`WebHub`, as `play --web` runs them) with 200 seats and a table thread that
  answers each line on the seat's channel (and a keyboard probe: the table loop's own delay);
  200 live pages (each its own loopback address, its seat claimed, its event stream open);
* `companion serve` (the rules server, `make_server`) with a small site.

Phases: 5 s quiet, then 20 s (10 s for serve) of attack: 1,500 idle connections held open
(reopened when the server cuts one, from 15 addresses) and 100 malformed requests a second
(tests/web/hostile.py). Probes all along: a line posted on a random live page and timed until
its answer arrives on that page's stream; the keyboard probe; for serve, a GET of a page.
Prints medians, 90th percentiles, failures, the lines printed by the server, and ratios
after/before, for each round (before and after alternate). Bounded: about 80 s a round, every
loop stops by itself.

Run: /work/main/.venv/bin/python bench/edge_load.py [--before /work/main] [--attack 20] [--rounds 2]

Measured 2026-12-01 (2 shared cores, load average 6-7; two rounds, before -> after):
  lines printed to the table in 20 s of attack on the seat pages: 333,000 / 367,742 -> 0 / 0;
  companion serve, 10 s: 252,312 / 289,110 -> 0 / 0;
  a line on a live page answered on its stream, under attack: before, 8 probes fitted in 20 s
  and 4 of 8 had no answer within 5 s; after, 147 / 130 probes, 0 / 1 failed (a connection
  reset), median 11.2 / 19.0 ms, p90 57 / 88 ms, max 0.87 / 1.47 s; quiet: 1.4 -> 1.3 and
  5.4 -> 3.7 ms; the table loop's own delay 0.1 ms median throughout;
  serve, a page under attack: before 2 of 5 / 2 of 6 failed; after 0 of 74 / 0 of 82,
  median 9.0 / 6.6 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LIVE = 200
IDLE = 1500
IDLE_SOURCES = 15
MALFORMED_PER_S = 100
PROBE_EVERY = 0.1
FILE_LIMIT = 1024
FAILURES: dict[str, int] = {}  # why probes failed, by exception


# --------------------------------------------------------------------------- the server side
def serve_pages() -> None:
    """Child: the seat pages and an echo table; its stdout/stderr are the table's screen."""
    try:  # the layout of issue #23, or the one before it
        from companion.session.inbox import Device, Inbox, Line, SeatClaimed
    except ImportError:
        from companion.session.inbox import Device, Inbox, Line, SeatClaimed  # type: ignore[no-redef]
    try:
        from companion.inputs.web.hub import WebHub
    except ImportError:
        from companion.inputs.web.hub import WebHub  # type: ignore[no-redef]

    inbox = Inbox()
    names = [f"P{i}" for i in range(LIVE + 1)]
    hub = WebHub(inbox, names, lang="fr", game_title="bench", port=0)
    hub.start()
    channels: dict[int, Any] = {}
    delays: list[float] = []

    def table() -> None:
        while True:
            item = inbox.get()
            if isinstance(item, Device) and isinstance(item.event, SeatClaimed):
                channels[item.event.seat] = item.event.channel
            elif isinstance(item, Line) and item.source == "probe":
                delays.append(time.perf_counter() - float(item.text))
            elif isinstance(item, Line) and item.seat in channels:
                channels[item.seat].deliver(f"answer {item.text}", private=True, priority=1, earcon=None, lang="fr")

    threading.Thread(target=table, daemon=True).start()
    _protocol(f"PORT {hub.port}")
    for command in sys.stdin:
        if command.startswith("probe"):
            inbox.post(Line(repr(time.perf_counter()), None, source="probe"))
        elif command.startswith("mark"):
            delays.clear()
            _protocol("MARKED")
        elif command.startswith("report"):
            gate = getattr(hub, "gate", None)  # after: what the edge's gate did
            counts = {k: getattr(gate, k) for k in ("refused", "evicted", "timed_out")} if gate else {}
            _protocol("REPORT " + json.dumps({"delays": delays, "gate": counts}))
    hub.stop()


def serve_rules() -> None:
    from companion.audiorules.server import make_server
    from companion.audiorules.site import SiteFile

    server = make_server(0, False, {"kikoi/fr/index.html": SiteFile(b"<p>" + b"x" * 20000 + b"</p>")})
    server.start()
    _protocol(f"PORT {server.server_address[1]}")
    sys.stdin.read()  # serves until the parent closes our stdin
    server.shutdown()


def _protocol(line: str) -> None:
    sys.__stdout__.write("@@ " + line + "\n")
    sys.__stdout__.flush()


class Child:
    """A server process; counts every other line it prints (stdout and stderr)."""

    def __init__(self, mode: str, pythonpath: str) -> None:
        self.log = Path(tempfile.mkdtemp(prefix="edge-bench-")) / "edge.log"
        self.log_lines = 0
        env = {**os.environ, "PYTHONPATH": pythonpath, "PYTHONUNBUFFERED": "1", "COMPANION_EDGE_LOG": str(self.log)}
        self.proc = subprocess.Popen([sys.executable, __file__, "--child", mode], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                     cwd="/", preexec_fn=_limit_files)
        self.printed = 0
        self.sample: list[str] = []
        self.answers: dict[str, list[str]] = {}
        self._cv = threading.Condition()
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
        threading.Thread(target=self._count, daemon=True).start()

    def _count(self) -> None:
        """Standard error, where logging prints: counted in big reads (a flood of lines must
        not slow the bench's own probes down)."""
        assert self.proc.stderr is not None
        fd = self.proc.stderr.fileno()
        while chunk := os.read(fd, 1 << 20):
            with self._cv:
                if len(self.sample) < 3:
                    self.sample.extend(ln[:100] for ln in chunk.decode("utf-8", "replace").splitlines()[:3])
                self.printed += chunk.count(b"\n")

    def _read(self, stream: Any) -> None:
        for line in stream:
            with self._cv:
                if line.startswith("@@ "):
                    word, _, rest = line[3:].rstrip("\n").partition(" ")
                    self.answers.setdefault(word, []).append(rest)
                else:
                    self.printed += 1
                    if len(self.sample) < 3:
                        self.sample.append(line.rstrip()[:100])
                self._cv.notify_all()

    def wait(self, word: str, timeout: float = 60.0) -> str:
        with self._cv:
            ok = self._cv.wait_for(lambda: bool(self.answers.get(word)), timeout)
            if not ok:
                raise RuntimeError(f"the server did not say {word}")
            return self.answers[word].pop(0)

    def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        if self.log.exists():  # after: the edge's log, one line per report at most
            self.log_lines = len(self.log.read_text(encoding="utf-8", errors="replace").splitlines())
        shutil.rmtree(self.log.parent, ignore_errors=True)


def _limit_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


# --------------------------------------------------------------------------- the attackers
async def idle_holder(port: int, source: str, stop: asyncio.Event, stats: dict[str, int]) -> None:
    """Keep one idle connection open (reopen it when the server cuts it) until `stop`."""
    while not stop.is_set():
        try:
            _reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 5)
        except (OSError, TimeoutError):
            stats["refused"] += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.5)
            continue
        stats["opened"] += 1
        try:
            closed = asyncio.ensure_future(_reader.read())
            done, _ = await asyncio.wait({closed, asyncio.ensure_future(stop.wait())},
                                         return_when=asyncio.FIRST_COMPLETED)
            if closed in done:
                stats["cut"] += 1
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1.0)  # a stubborn client comes back
            else:
                closed.cancel()
        except OSError:
            stats["cut"] += 1
        finally:
            writer.close()


async def malformed(port: int, stop: asyncio.Event, stats: dict[str, int]) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.web.hostile import MALFORMED

    i = 0
    start = time.monotonic()
    while not stop.is_set():
        data = MALFORMED[i % len(MALFORMED)]
        i += 1
        with contextlib.suppress(OSError, TimeoutError):
            _r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.4.1", 0)), 2)
            w.write(data)
            with contextlib.suppress(OSError):
                await w.drain()
            w.close()
        stats["malformed"] += 1
        wait = start + i / MALFORMED_PER_S - time.monotonic()
        if wait > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), wait)


# --------------------------------------------------------------------------- the live pages
class Page:
    def __init__(self, n: int) -> None:
        self.n = n
        self.source = f"127.0.1.{n + 1}"
        self.session: Any = None
        self.url = ""
        self.got: asyncio.Queue[str] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    async def open(self, base: str) -> None:
        import aiohttp

        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(self.source, 0), limit=4),
            cookie_jar=aiohttp.CookieJar(unsafe=True), timeout=aiohttp.ClientTimeout(total=None, sock_read=None))
        async with self.session.post(base + "/t/claim", data={"seat": str(self.n)}, allow_redirects=False) as r:
            self.url = base + r.headers["Location"]
        async with self.session.get(self.url) as r:
            await r.read()
        self.task = asyncio.ensure_future(self._stream())

    async def _stream(self) -> None:
        with contextlib.suppress(Exception):
            async with self.session.get(self.url + "/events") as r:
                async for raw in r.content:
                    line = raw.decode()
                    if line.startswith("data: "):
                        self.got.put_nowait(json.loads(line[6:])["text"])

    async def probe(self, timeout: float = 5.0) -> float | None:
        """Seconds from posting a line on this page to its answer on the page's stream; None
        when it failed or took more than `timeout` (the whole round trip, connection included)."""
        try:
            return await asyncio.wait_for(self._probe(timeout), timeout)
        except TimeoutError:
            FAILURES["no answer in 5 s"] = FAILURES.get("no answer in 5 s", 0) + 1
            return None

    async def _probe(self, timeout: float) -> float | None:
        import aiohttp

        word = f"w{random.randrange(10**9)}"
        t0 = time.perf_counter()
        try:
            for again in (True, False):
                try:
                    async with self.session.post(self.url + "/line", data={"line": word},
                                                 headers={"Accept": "application/json"}) as r:
                        await r.read()
                        if r.status != 200:
                            raise RuntimeError(f"HTTP {r.status}")
                    break
                except aiohttp.ServerDisconnectedError:
                    # a kept-alive connection the server had just closed (its idle limit): a
                    # browser sends the request again on a new one, once; so does the bench
                    if not again:
                        raise
                    FAILURES["(sent again)"] = FAILURES.get("(sent again)", 0) + 1
            while True:
                text = await asyncio.wait_for(self.got.get(), timeout - (time.perf_counter() - t0))
                if text == f"answer {word}":
                    return time.perf_counter() - t0
        except Exception as exc:  # noqa: BLE001 - a failure is counted, not raised
            why = f"{type(exc).__name__} {exc}"[:40]
            FAILURES[why] = FAILURES.get(why, 0) + 1
            return None

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.session is not None:
            await self.session.close()


async def get_page(port: int, timeout: float = 5.0) -> float | None:
    t0 = time.perf_counter()
    try:
        async def get() -> bytes:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.5.1", 0))
            writer.write(f"GET /kikoi/fr/index.html HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                         "Connection: close\r\n\r\n".encode())
            data = await reader.read()
            writer.close()
            return data

        data = await asyncio.wait_for(get(), timeout)  # the whole answer, connection included
        return time.perf_counter() - t0 if data.startswith(b"HTTP/1.1 200") else None
    except Exception:  # noqa: BLE001
        return None


# --------------------------------------------------------------------------- one run
def _stats(xs: list[float | None]) -> dict[str, Any]:
    ok = sorted(x * 1000 for x in xs if x is not None)
    return {"n": len(xs), "failed": len(xs) - len(ok),
            "median_ms": round(statistics.median(ok), 1) if ok else None,
            "p90_ms": round(ok[int(0.9 * (len(ok) - 1))], 1) if ok else None,
            "max_ms": round(ok[-1], 1) if ok else None}


async def attack(port: int, seconds: float) -> dict[str, int]:
    """The attackers, in a process of their own (so that they do not slow the probes down)."""
    stop = asyncio.Event()
    stats = {"opened": 0, "cut": 0, "refused": 0, "malformed": 0}
    holders = [asyncio.ensure_future(idle_holder(port, f"127.0.3.{1 + i % IDLE_SOURCES}", stop, stats))
               for i in range(IDLE)]
    bad = asyncio.ensure_future(malformed(port, stop, stats))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    stop.set()
    await asyncio.wait([*holders, bad], timeout=20)
    return stats


async def attack_phase(port: int, seconds: float, probe: Any) -> tuple[list[float | None], dict[str, int]]:
    proc = await asyncio.create_subprocess_exec(sys.executable, __file__, "--child", "attack", str(port), str(seconds),
                                                stdout=asyncio.subprocess.PIPE)
    times: list[float | None] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        times.append(await probe())
        await asyncio.sleep(PROBE_EVERY)
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    return times, json.loads(out.decode().strip().splitlines()[-1])


async def run_pages(pythonpath: str, seconds: float) -> dict[str, Any]:
    child = Child("pages", pythonpath)
    result: dict[str, Any] = {}
    try:
        port = int(child.wait("PORT"))
        base = f"http://127.0.0.1:{port}"
        pages = [Page(i) for i in range(LIVE)]
        await asyncio.gather(*(p.open(base) for p in pages))

        async def probe() -> float | None:
            child.send("probe")
            return await random.choice(pages).probe()

        quiet = [await probe() for _ in range(int(5 / PROBE_EVERY / 2))]
        child.send("mark")
        child.wait("MARKED")
        printed_before = child.printed
        times, stats = await attack_phase(port, seconds, probe)
        child.send("report")
        report = json.loads(child.wait("REPORT"))
        table = report["delays"]
        printed = child.printed - printed_before
        await asyncio.gather(*(p.close() for p in pages))
        failures = dict(FAILURES)
        FAILURES.clear()
        result = {"page_quiet": _stats(quiet), "page_attack": _stats(times), "why_failed": failures,
                "keyboard_attack": _stats(table), "printed": printed, "sample": child.sample,
                  "server_gate": report["gate"], **stats}
    finally:
        child.stop()
    return {**result, "log_lines": child.log_lines}


async def run_rules(pythonpath: str, seconds: float) -> dict[str, Any]:
    child = Child("rules", pythonpath)
    result: dict[str, Any] = {}
    try:
        port = int(child.wait("PORT"))
        quiet = [await get_page(port) for _ in range(25)]
        printed_before = child.printed
        times, stats = await attack_phase(port, seconds, lambda: get_page(port))
        result = {"get_quiet": _stats(quiet), "get_attack": _stats(times),
                  "printed": child.printed - printed_before, "sample": child.sample, **stats}
    finally:
        child.stop()
    return {**result, "log_lines": child.log_lines}


def _ratio(after: Any, before: Any) -> str:
    if not after or not before:
        return "-"
    return f"{after / before:.2f}"


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--before", default="/work/main", help="the unmodified code (PYTHONPATH)")
    p.add_argument("--attack", type=float, default=20.0, help="seconds of attack on the seat pages")
    p.add_argument("--rounds", type=int, default=2, help="before/after pairs")
    p.add_argument("--child", choices=("pages", "rules", "attack"))
    p.add_argument("target", nargs="*")
    args = p.parse_args()
    if args.child == "attack":
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(20000, resource.getrlimit(resource.RLIMIT_NOFILE)[1]),) * 2)
        print(json.dumps(asyncio.run(attack(int(args.target[0]), float(args.target[1])))), flush=True)
        return
    if args.child == "pages":
        serve_pages()
        return
    if args.child == "rules":
        serve_rules()
        return
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(20000, resource.getrlimit(resource.RLIMIT_NOFILE)[1]),) * 2)
    for n in range(args.rounds):  # before and after alternate: the machine's load drifts
        results: dict[str, dict[str, Any]] = {}
        for label, path in (("before", args.before), ("after", str(ROOT))):
            results[label] = {"pages": asyncio.run(run_pages(path, args.attack)),
                              "serve": asyncio.run(run_rules(path, args.attack / 2))}
            print(label, json.dumps(results[label], ensure_ascii=False), flush=True)
        print(f"\n== round {n + 1} of {args.rounds}")
        report(results["before"], results["after"])


def report(b: dict[str, Any], a: dict[str, Any]) -> None:
    print("seat pages (play --web): 200 live pages, 1,500 idle connections, 100 malformed requests/s")
    for key in ("page_quiet", "page_attack", "keyboard_attack"):
        print(f"  {key:16} median ms before {b['pages'][key]['median_ms']}  after {a['pages'][key]['median_ms']}"
              f"  (ratio {_ratio(a['pages'][key]['median_ms'], b['pages'][key]['median_ms'])});"
              f" p90 {b['pages'][key]['p90_ms']} -> {a['pages'][key]['p90_ms']};"
              f" max {b['pages'][key]['max_ms']} -> {a['pages'][key]['max_ms']};"
              f" failed {b['pages'][key]['failed']}/{b['pages'][key]['n']} -> {a['pages'][key]['failed']}/{a['pages'][key]['n']}")
    print(f"  lines printed to the table during the attack: before {b['pages']['printed']}, after {a['pages']['printed']}"
          f" (lines in the edge's log: {b['pages']['log_lines']} -> {a['pages']['log_lines']})")
    print("companion serve: the same attack")
    for key in ("get_quiet", "get_attack"):
        print(f"  {key:16} median ms before {b['serve'][key]['median_ms']}  after {a['serve'][key]['median_ms']};"
              f" max {b['serve'][key]['max_ms']} -> {a['serve'][key]['max_ms']};"
              f" failed {b['serve'][key]['failed']}/{b['serve'][key]['n']} -> {a['serve'][key]['failed']}/{a['serve'][key]['n']}")
    print(f"  lines printed during the attack: before {b['serve']['printed']}, after {a['serve']['printed']}"
          f" (lines in the edge's log: {b['serve']['log_lines']} -> {a['serve']['log_lines']})")


if __name__ == "__main__":
    main()
