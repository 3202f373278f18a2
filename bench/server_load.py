"""The rules server under load, on 127.0.0.1 only (issue #16).

200 clients connect at once and each fetches a rules page, while 50 slow clients dribble
request headers (one line a second, never finishing); then normal requests are timed while
the dribblers are still connected. Prints the answer times (median, 90th percentile, max),
failures, and how many dribblers the server had cut off by the end (after its header timeout).

Run: .venv/bin/python bench/server_load.py [clients=200] [dribblers=50] [header_timeout=30]
(target: median under 50 ms; every request answered)
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.audiorules.site import SiteFile  # noqa: E402

PAGE = "/kikoi/fr/"


def site() -> dict[str, SiteFile]:
    try:
        from companion.audiorules.site import site_files

        return site_files(["kikoi"])
    except Exception:  # noqa: BLE001 - no manifests here: a page of the same size
        return {"kikoi/fr/index.html": SiteFile(b"<p>" + b"x" * 20000 + b"</p>")}


async def fetch(port: int, path: str = PAGE, timeout: float = 30) -> float:
    """Seconds to get a whole 200 answer on a fresh connection (raises on failure)."""
    t0 = time.perf_counter()
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), timeout)
    writer.close()
    if not data.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(data[:40])
    return time.perf_counter() - t0


async def dribble(port: int, stop: asyncio.Event, closed: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET " + PAGE.encode() + b" HTTP/1.1\r\n")
    i = 0
    try:
        while not stop.is_set():
            writer.write(b"X-Slow-%d: y\r\n" % i)
            await writer.drain()
            i += 1
            with contextlib.suppress(TimeoutError):  # still open after a second: dribble on
                if await asyncio.wait_for(reader.read(1), 1.0) == b"":
                    closed.append(1)
                    return
    except (ConnectionError, OSError):
        closed.append(1)
    finally:
        writer.close()


async def load(port: int, clients: int, dribblers: int, normal: int, hold: float) -> dict[str, Any]:
    stop = asyncio.Event()
    closed: list[int] = []
    slow = [asyncio.create_task(dribble(port, stop, closed)) for _ in range(dribblers)]
    await asyncio.sleep(0.2)
    await fetch(port)  # warm
    during: list[float] = []

    async def normal_during() -> None:
        for _ in range(5):
            await asyncio.sleep(0.01)  # the storm's connections are in flight
            during.append(await fetch(port))

    storm_task = asyncio.gather(*(fetch(port) for _ in range(clients)), return_exceptions=True)
    _, storm = await asyncio.gather(normal_during(), storm_task)
    times = []
    for _ in range(normal):
        times.append(await fetch(port))
    await asyncio.sleep(hold)
    stop.set()
    await asyncio.gather(*slow, return_exceptions=True)
    ok = [t for t in storm if isinstance(t, float)]
    return {"storm_ok": len(ok), "storm_failed": len(storm) - len(ok), "storm_median": statistics.median(ok) if ok else None,
            "storm_p90": statistics.quantiles(ok, n=10)[-1] if len(ok) > 1 else None, "storm_max": max(ok, default=None),
            "normal_median": statistics.median(times) if times else None, "during_median": statistics.median(during),
            "dribblers_closed": len(closed)}


SERVER = """
import sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {bench!r})
from server_load import site
from companion.audiorules.server import serve_in_thread
srv, base = serve_in_thread(0, site(), header_timeout={timeout!r})
print(base.rsplit(":", 1)[1], flush=True)
sys.stdin.read()
srv.shutdown()
srv.server_close()
"""


def run(clients: int = 200, dribblers: int = 50, header_timeout: float = 30.0, normal: int = 50,
        hold: float | None = None) -> dict[str, Any]:
    """The figures, with the server in its own process (as `companion serve` runs)."""
    import subprocess

    here = Path(__file__).resolve().parent
    code = SERVER.format(root=str(here.parent), bench=str(here), timeout=header_timeout)
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        return asyncio.run(load(port, clients, dribblers, normal, header_timeout + 1.5 if hold is None else hold))
    finally:
        proc.communicate("", timeout=30)


def main() -> int:
    clients = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    dribblers = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 30.0
    r = run(clients, dribblers, timeout)

    def ms(x: float | None) -> str:
        return "-" if x is None else f"{x * 1000:.1f} ms"

    print(f"{clients} clients at once: {r['storm_ok']} answered, {r['storm_failed']} failed; median {ms(r['storm_median'])}, "
          f"p90 {ms(r['storm_p90'])}, max {ms(r['storm_max'])}")
    print(f"normal request during the {clients}-client storm: median {ms(r['during_median'])}")
    print(f"normal request with {dribblers} slow clients connected: median {ms(r['normal_median'])} (target < 50 ms)")
    print(f"slow clients cut off after the {timeout:g} s header timeout: {r['dribblers_closed']} of {dribblers}")
    return 0 if r["storm_failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
