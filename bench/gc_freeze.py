"""Does `gc.freeze()` after start-up change the speech latency's tail? (`companion play`
freezes the heap once start-up ends: `companion.cli.runner._run`.)

The process first builds what `companion play` holds during a game: every module, the
fr/en catalogs and phrase tables, and a started session of each of the four games (bots
seated). With `--freeze` it then calls `gc.freeze()`, as the runner does.
A worker thread keeps allocating while speech is measured, as a bot's search does (the
collections it triggers walk the whole heap unless it is frozen; each pause holds the GIL
and so delays the speech thread). Then `bench/speech_latency.py` measures as usual.

    .venv/bin/python bench/gc_freeze.py --rounds 3            # not frozen
    .venv/bin/python bench/gc_freeze.py --freeze --rounds 3   # frozen

Figures are in docs/architecture.md (start-up).
"""

from __future__ import annotations

import argparse
import gc
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import speech_latency  # noqa: E402

from companion.core import GAMES, Match, Rng  # noqa: E402
from companion.narration import catalog  # noqa: E402
from companion.session import Seat, Session  # noqa: E402
from companion.session.transcript import load  # noqa: E402


def build_heap() -> list[Any]:
    """What a game holds: a started session of each game, catalogs, phrase tables."""
    import companion.cli  # noqa: F401 - the modules `companion play` imports
    import companion.cli.runner  # noqa: F401

    kept: list[Any] = []
    for lang in ("fr", "en"):
        kept.append(catalog(lang))
    for entry in GAMES:
        game, ui, bots = load(entry)
        kind = next(iter(bots))
        n = max(2, entry.min_players)
        names = ["Marie"] + [f"Robot {i}" for i in range(1, n)]
        seats = [Seat("Marie")] + [Seat(nm, bot=bots[kind](game, i, Rng(7).fork(i + 1))) for i, nm in enumerate(names) if i]
        s = Session(entry.name, ui, Match(game, names, 7), seats, lang="fr", out=lambda _: None)
        s.start()
        ui.phrases(s.match, 0)
        kept.append(s)
    return kept


def churn(stop: threading.Event, stats: dict[str, int]) -> None:
    """Allocate container objects steadily (a bot's search), so that collections run."""
    while not stop.is_set():
        junk = [{"cell": (i, i + 1), "tiles": [i, i]} for i in range(2000)]
        stats["rounds"] += 1
        del junk
        time.sleep(0.002)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--freeze", action="store_true", help="gc.freeze() after building the heap")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--engines", nargs="+", default=["espeak-ng"])
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    kept = build_heap()
    built = time.perf_counter() - t0
    if args.freeze:
        t0 = time.perf_counter()
        gc.freeze()
        print(f"gc.freeze(): {gc.get_freeze_count()} objects frozen in {(time.perf_counter() - t0) * 1000:.0f} ms")
    tracked = len(gc.get_objects())
    pauses: list[float] = []
    started: list[float] = []

    def timer(phase: str, info: dict[str, int]) -> None:
        if info.get("generation") == 2:
            if phase == "start":
                started.append(time.perf_counter())
            elif started:
                pauses.append(time.perf_counter() - started.pop())

    gc.callbacks.append(timer)
    stop, stats = threading.Event(), {"rounds": 0}
    worker = threading.Thread(target=churn, args=(stop, stats), daemon=True)
    worker.start()
    print(f"heap built in {built:.1f} s; {tracked} objects tracked by the collector; frozen: {args.freeze}")
    try:
        speech_latency.main(["--engines", *args.engines, "--rounds", str(args.rounds)])
    finally:
        stop.set()
        worker.join()
        gc.callbacks.remove(timer)
    if pauses:
        pauses.sort()
        print(f"full collections during the run: {len(pauses)}, median {pauses[len(pauses) // 2] * 1000:.1f} ms, "
              f"max {pauses[-1] * 1000:.1f} ms")
    else:
        print("full collections during the run: 0")
    del kept
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
