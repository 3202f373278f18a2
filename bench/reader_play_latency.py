"""Latency of a draw laid on the token reader, end to end through the game: from the PLACED frame
written to the pseudo-terminal to the drawer's private answer (« Tu as pioché le Kigliss qui dort »)
— the first `say()` on the drawer's own speaker, the first block of its sound handed to the
output, and its first audible sample (the first sample louder than -40 dBFS, as
bench/speech_latency.py counts it: a block may open with silence).

    .venv/bin/python bench/reader_play_latency.py [--n 200] [--engine espeak-ng]

This process plays the board on the master side of a pty (as `companion reader emulate` does):
HELLO once, then for each round a PLACED frame and at once the PRESENCE the device sends after it
(the reader adapter reports a token only once PRESENCE confirms it). On the slave side the real
path of `companion play --reader`: `TokenReader` thread -> inbox -> `TableLoop` thread ->
`SessionCore` -> `ReaderPlay` -> `GameUI.told` -> the match -> `Table` -> the drawer's private
channel, a `Speaker` on the recording sink (paced like a sound device; a real device adds its own
buffer, about 10-20 ms). The game is a physical KIKOI table of three, Marie to draw after a
refusal; « annule la lecture » takes the draw back between rounds, and each round lays a tag
with a new UID (the previous one is lifted first). On a real line at 115200 baud add the PRESENCE's
own transmission, about 1.3 ms.

Measured 2026-11-30 on the 2-core development VM (n=100, espeak-ng): first say() median 0.92 ms,
p95 1.40 ms; first block handed to the output (the private earcon) median 1.25 ms, p95 3.28 ms
(that figure was labelled « first audible sample » then: it is the first block, not the first
loud sample). With the test suite running beside it: 1.7 ms median, 19 ms p95 to the first block.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
import tty
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import protocol as p  # noqa: E402
from companion.core import Match, find  # noqa: E402
from companion.inputs.reader.device import TokenReader  # noqa: E402
from companion.inputs.reader.play import ReaderPlay  # noqa: E402
from companion.outputs.speaker import open_speaker  # noqa: E402
from companion.session import Seat, SessionCore, SpeakerChannel, Table, TableLoop  # noqa: E402
from companion.session.inbox import Inbox, Line  # noqa: E402
from companion.session.outputs import Say  # noqa: E402

SOURCE = "reader:bench"


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    k = (len(s) - 1) * q / 100
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def game_at_a_draw() -> tuple[SessionCore, str]:
    """A physical KIKOI table, dealt; Marie asked Paul for a token he lacks and must draw."""
    pkg = find("kikoi").module()
    game = pkg.Rules(physical=True, red_tokens=False)
    match = Match(game, ["Marie", "Paul", "Zoé"], 1)
    deal = {0: ["kimouss-house", "kimouss-eat", "kigratt-house", "kigratt-eat"],
            1: ["kigliss-house", "kigliss-eat", "kiboss-house", "kiboss-eat"],
            2: ["kiboucle-house", "kiboucle-eat", "kiboucle-bike", "kiboss-bike"]}
    for seat, tokens in deal.items():
        for tid in tokens:
            match.play(seat, game.action_from_json({"drew": tid}))
    match.play(0, game.action_from_json({"ask": 1, "token": "kimouss-bike"}))
    match.play(1, game.action_from_json({"reply": "refuse"}))
    assert match.state.phase == "draw" and match.current == 0
    core = SessionCore("kikoi", pkg.UI(game), match, [Seat(n) for n in match.players], private_policy="withhold")
    core.extend(ReaderPlay.bound([(SOURCE, None)]))
    return core, "kikoi:kigliss-sleep"  # a bad draw: the table hears only « mauvaise pioche »


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--engine", default="espeak-ng")
    ap.add_argument("--threshold-db", type=float, default=-40.0, help="audible: louder than this (dBFS)")
    a = ap.parse_args(argv)
    threshold = 10 ** (a.threshold_db / 20)

    core, text = game_at_a_draw()
    speaker = open_speaker(a.engine, "recording", "fr")
    sink = speaker.recording
    loud_at: dict[int, float] = {}  # id(recorded item) -> when its first loud sample is heard
    plain_write = sink.write

    def write(block: np.ndarray, sr: int) -> None:
        """The recording sink paces like a device (a block plays from when it is written):
        note when the current item's first sample above the threshold is heard."""
        cur = sink._current
        now = time.perf_counter()
        if cur is not None and id(cur) not in loud_at:
            loud = np.nonzero(np.abs(block) > threshold)[0]
            if len(loud):
                loud_at[id(cur)] = now + float(loud[0]) / sr
        plain_write(block, sr)

    sink.write = write  # type: ignore[method-assign]
    table = Table([s.name for s in core.seats], lang="fr", speaker=None, out=lambda line: None)
    inbox = Inbox()
    said: list[tuple[float, Say]] = []
    loop = TableLoop(core, table, inbox, worker=False,
                     on_outputs=lambda batch: said.extend((time.perf_counter(), o) for o in batch if isinstance(o, Say)))
    from companion.session.inbox import Device, SeatClaimed

    loop.feed(Device(SeatClaimed(0, SpeakerChannel(speaker)), "bench"))
    loop.start()
    runner = threading.Thread(target=loop.run, name="table-loop", daemon=True)
    runner.start()

    master, slave = os.openpty()
    tty.setraw(slave)
    reader = TokenReader.to_inbox(os.ttyname(slave), inbox, SOURCE).start()
    enc, dec = p.Encoder(), p.Decoder()
    end = time.monotonic() + 5
    while not any(isinstance(r.message, p.HelloReq) for r in dec.feed(os.read(master, 4096))):
        assert time.monotonic() < end, "the reader asked no HELLO"
    os.write(master, enc.encode(p.Hello(1, (1, 0, 0), 0x52440001, 0x0F, 1))[1])
    time.sleep(0.3)

    to_call: list[float] = []
    to_sound: list[float] = []
    to_block: list[float] = []
    history = len(core.match.history)
    for i in range(a.n + 3):
        uid = bytes([4]) + (i + 1).to_bytes(6, "big")
        start_items = len(speaker.recording.items)
        os.write(master, enc.encode(p.Placed(0, uid, text))[1])
        t0 = time.perf_counter()
        os.write(master, enc.encode(p.Presence(((0, uid),)))[1])
        deadline = time.perf_counter() + 10
        rec = None
        while time.perf_counter() < deadline:
            items = speaker.recording.items[start_items:]
            rec = next((r for r in items if "pioché" in r.text), None)
            if rec is not None and (id(rec) in loud_at or not speaker.engine.produces_audio):
                break
            time.sleep(0.0005)
        assert rec is not None, f"round {i}: the drawer heard nothing"
        if i >= 3:  # the first rounds warm the caches (catalogs, imports, the engine)
            to_call.append((rec.submitted - t0) * 1000)
            if rec.first_frame is not None:
                to_block.append((rec.first_frame - t0) * 1000)
            if id(rec) in loud_at:
                to_sound.append((loud_at[id(rec)] - t0) * 1000)
        speaker.wait(10)  # a private MESSAGE is not cut by new input: the next draw waits for it to end
        os.write(master, enc.encode(p.Removed(0, uid))[1] + enc.encode(p.Presence(()))[1])
        inbox.post(Line("Marie: annule la lecture"))
        end = time.monotonic() + 5
        while len(core.match.history) != history and time.monotonic() < end:
            time.sleep(0.002)
        assert len(core.match.history) == history, "the draw was not taken back"
        time.sleep(0.05)
    if os.environ.get("BENCH_DEBUG"):
        for r in speaker.recording.items[-8:]:
            print(r.text, r.priority, r.earcon, r.submitted, r.first_frame, r.started, r.cut)
    reader.close()
    inbox.post(Line("quitte"))
    runner.join(5)
    speaker.close()
    print(f"PLACED written -> drawer's private answer ({a.n} rounds, engine {speaker.engine.name}, "
          f"python {sys.version.split()[0]})")
    print(f"  first say() on the drawer's speaker: median {statistics.median(to_call):.2f} ms, "
          f"p95 {percentile(to_call, 95):.2f} ms, max {max(to_call):.2f} ms")
    if to_block:
        print(f"  first block handed to the output:    median {statistics.median(to_block):.2f} ms, "
              f"p95 {percentile(to_block, 95):.2f} ms, max {max(to_block):.2f} ms")
    if to_sound:
        print(f"  first audible sample (> {a.threshold_db:.0f} dBFS):  median {statistics.median(to_sound):.2f} ms, "
              f"p95 {percentile(to_sound, 95):.2f} ms, max {max(to_sound):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
