"""Latency of the token reader's path: from the last byte of a PLACED frame written to the
pseudo-terminal to the `TokenPlaced` event in the program (the `TokenReader` callback).

    .venv/bin/python bench/reader_latency.py [--n 400]

This process plays the board on the master side of a pty (as `companion reader emulate` does):
it writes HELLO once, then for each round a PLACED frame, takes the time, writes the PRESENCE
that the device sends at once after it (the event waits for that confirmation), then later a
REMOVED and its PRESENCE. On a real line at 115200 baud, add the PRESENCE's own transmission
time: about 1.3 ms for a one-token snapshot (15 bytes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
import tty

from companion import protocol as p
from companion.inputs.reader.device import TokenReader
from companion.inputs.reader.events import ReaderEvent, TokenPlaced


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=400)
    a = ap.parse_args()
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    got = threading.Event()
    stamp: list[float] = []
    hello = threading.Event()

    def on_event(e: ReaderEvent) -> None:
        if isinstance(e, TokenPlaced):
            stamp.append(time.perf_counter())
            got.set()
        elif e.to_json()["event"] == "hello":
            hello.set()

    reader = TokenReader(path, on_event).start()
    enc = p.Encoder()
    dec = p.Decoder()
    end = time.monotonic() + 5
    while not any(isinstance(r.message, p.HelloReq) for r in dec.feed(os.read(master, 4096))):
        assert time.monotonic() < end, "the reader asked no HELLO"
    os.write(master, enc.encode(p.Hello(1, (1, 0, 0), 0x52440001, 0x0F, 1))[1])
    assert hello.wait(5), "no hello"
    lat = []
    for i in range(a.n):
        uid = bytes([4]) + i.to_bytes(6, "big")
        got.clear()
        os.write(master, enc.encode(p.Placed(0, uid, "kikoi:kigliss-sleep"))[1])
        t0 = time.perf_counter()
        os.write(master, enc.encode(p.Presence(((0, uid),)))[1])
        assert got.wait(5), f"no event for round {i}"
        lat.append(stamp[-1] - t0)
        os.write(master, enc.encode(p.Removed(0, uid))[1] + enc.encode(p.Presence(()))[1])
        time.sleep(0.005)
        while _readable(master) and os.read(master, 4096):  # drain what the host sent
            continue
    reader.close()
    os.close(master)
    os.close(slave)
    lat_ms = sorted(x * 1000 for x in lat)
    p95 = lat_ms[int(0.95 * (len(lat_ms) - 1))]
    print(f"reader_latency: {len(lat_ms)} placements over a pty, PLACED last byte -> TokenPlaced event: "
          f"median {statistics.median(lat_ms):.3f} ms, p95 {p95:.3f} ms, max {lat_ms[-1]:.3f} ms")


def _readable(fd: int) -> bool:
    import select

    return bool(select.select([fd], [], [], 0)[0])


if __name__ == "__main__":
    main()
