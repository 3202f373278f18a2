"""Latency of a braille seat, through brltty really started (Virtual driver, as in the tests):

* baseline: a key sent by the display to the moment a bare BrlAPI client reads it, and a
  `writeDots` to the moment the display receives the cells;
* the seat: a panning key sent by the display to the moment the display shows the next
  window drawn by the seat (key in, liblouis rendering, the view, cells out);
* a line delivered by the table to the moment the display shows it.

    .venv/bin/python bench/braille_latency.py [--n 60]

brltty reads its Virtual driver's socket at its own pace (a few tens of milliseconds): that
is most of any key's latency, the seat's own share is the difference.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.inputs.braille.seat import BrailleSeat  # noqa: E402
from companion.inputs.braille.view import Info  # noqa: E402
from tests.braille.display import Brltty, Display  # noqa: E402


def ms(xs: list[float]) -> str:
    xs = sorted(xs)
    return f"median {statistics.median(xs) * 1000:6.1f} ms, p90 {xs[int(len(xs) * 0.9)] * 1000:6.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=60)
    n = ap.parse_args().n
    import brlapi

    b = Brltty(Path(tempfile.mkdtemp(prefix="braille-bench-")))
    b.start()
    try:
        d = Display(b, 40)
        c = brlapi.Connection(b.host.encode(), f"keyfile:{b.key}".encode())
        c.enterTtyModeWithPath([])
        key_raw, write_raw = [], []
        for i in range(n):
            t = time.perf_counter()
            d.command("FwinRt")
            c.readKeyWithTimeout(5000)
            key_raw.append(time.perf_counter() - t)
            frames = d.frames
            t = time.perf_counter()
            c.writeDots(bytes([i % 255 + 1]) * 40)
            d.wait_for(lambda _, frames=frames: d.frames > frames)
            write_raw.append(time.perf_counter() - t)
        c.leaveTtyMode()
        c.closeConnection()

        seat = BrailleSeat(0, "fr", lambda _: None, host=b.host, auth=f"keyfile:{b.key}")
        assert seat.open() is None
        seat.start()
        words = " ".join(f"mot{i}" for i in range(20 * n))
        seat.push(words, False, 3, None, Info(turn="Anne", mine=True, score=0))
        d.wait_for(lambda cells: b"\x00" not in cells[7:9])
        key_seat, line_seat = [], []
        for _ in range(n):
            before = d.shown
            t = time.perf_counter()
            d.command("FwinRt")
            d.wait_for(lambda cells, before=before: cells != before)
            key_seat.append(time.perf_counter() - t)
        for i in range(n):
            before = d.shown
            seat.view.entries[-1].seen = True  # read: the next line shows at once
            t = time.perf_counter()
            seat.push(f"Ligne {i} : Anne joue.", False, 2, None, Info(turn="Anne", mine=True, score=i))
            d.wait_for(lambda cells, before=before: cells != before)
            line_seat.append(time.perf_counter() - t)
            seat.view.pos = len(seat.view.entries) - 1
        seat.stop()
        d.close()
    finally:
        b.stop()
    print(f"baseline, key to a bare BrlAPI client:     {ms(key_raw)}")
    print(f"baseline, writeDots to the display:        {ms(write_raw)}")
    print(f"seat, panning key to the next window shown: {ms(key_seat)}  "
          f"(x{statistics.median(key_seat) / statistics.median(key_raw):.2f} the bare key)")
    print(f"seat, a line delivered to it shown:         {ms(line_seat)}")


if __name__ == "__main__":
    main()
