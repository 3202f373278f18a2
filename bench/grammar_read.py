"""How long reading one typed line takes: the one grammar (this tree) against the hand parsers
it replaced (a baseline tree, /work/main by default), on the same lines, in the same run.

For Good Fortune, KIKOI, Kaliko and 2kissa10, in a few states after random moves, the lines
are every phrase `GameUI.phrases` lists (French and English; for 2kissa10, whose full board
lists 2,000 equations per language, an even sample of 300 of them) and some free forms (filler,
requests in any order, stray words; Kaliko's spaced and axial cells, « put it at 5h1 »;
equations typed with signs or said with the values only). Kaliko's searching readings
(« indice », « meilleur », « coups ») are left out: their time is the search's, not the
reading's (bench/kaliko_best.py). Kaliko's hand parser kept the play being built in its UI, so
each Kaliko line is read by a fresh UI (made outside the timing) in both trees: every line then
reads from an empty draft. The baseline is a checkout of the hand parsers (commit 1387084 for
Kaliko and 2kissa10: `git worktree add /tmp/base 1387084`). Each tree runs in its own interpreter (the two `companion` packages
cannot share one); each prints the median and 95th percentile of `GameUI.parse` per line in
microseconds, and the ratio to the baseline is printed at the end.

Run: nice .venv/bin/python bench/grammar_read.py [--baseline /tmp/base] [--repeat 3]

Measured 2026-12-02 on the loaded 2-core VM (`--repeat 3`, baseline 1387084: Kaliko and 2kissa10
on their hand parsers, Good Fortune and KIKOI on the grammar before its rules were filtered by
the words a line holds), median µs per line, grammar / baseline: Good Fortune 36 / 156, KIKOI
114 / 152, Kaliko 45 / 49, 2kissa10 144 / 77 (the one game slower than its hand parser: well
under a millisecond a line).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

FREE = ["euh, je pousse la douze s'il te plaît", "ligne de Bruno", "qu'y a-t-il à gauche ?", "Anne's collection",
        "demande à Bruno le kigliss qui dort", "Bruno, kigliss dort ?", "ask Bruno for kigliss sleep",
        "bonjour tout le monde", "combien de points pour 12 et 3", "le kigliss qui dort, demande-le à bruno"]
# each game's own free forms, besides FREE
FREE_OF = {"kaliko": ["euh, prends la 2 s'il te plaît", "put it at 5h1", "en 9 h 1", "va (1,0)", "case 1h1-3h1",
                      "plateau près de 3h1 anneau 2", "take blue short arc", "rouge vers 9 heures", "um, pass please"],
           "kissa": ["10 + 29 = 39", "trois plus quatre égale sept", "3 and 4 makes 7",
                     "euh, où sont les 7 s'il te plaît", "qu'y a-t-il en C4", "lis la ligne 3",
                     "dix en a un plus vingt-neuf en c quatre vers le bas égale trente-neuf"]}
OPTIONS = {"kaliko": {"hand_size": 4}}  # the plays of a 4-tile hand listed whole (phrases.FULL_HAND)
SEARCHES = ("hint", "best", "moves")
SAMPLE = {"kissa": 300}  # listed phrases timed per state and language (all of them for the others)


def child(repeat: int) -> dict[str, Any]:
    from companion.core import Match, find
    from companion.language import pick

    out: dict[str, Any] = {}
    for name, n in (("goodfortune", 2), ("kikoi", 3), ("kaliko", 2), ("kissa", 2)):
        pkg = find(name).module()
        times: list[float] = []
        for steps in (0, 5, 12):
            game = pkg.Rules(**OPTIONS.get(name, {}))
            match: Match[Any, Any] = Match(game, ["Anne", "Bruno", "Chloé"][:n], steps + 1)
            rng = random.Random(steps)
            for _ in range(steps):
                if match.current is None:
                    break
                match.play(match.current, rng.choice(match.legal(match.current)))
            seat = match.current if match.current is not None else 0
            ui = pkg.UI(game)
            listed = [ui.phrases(match, seat, lang).concrete for lang in ("fr", "en")]
            if name in SAMPLE:
                listed = [pick(c, SAMPLE[name], lambda pc: pc[1][:19]) for c in listed]
            lines = [p for c in listed for p, c2 in c if c2 not in SEARCHES] + FREE + FREE_OF.get(name, [])
            ui.parse(lines[0], match, seat)  # tables read and cached before timing
            for _ in range(repeat):
                for line in lines:
                    if name == "kaliko":
                        ui = pkg.UI(game)
                    t0 = time.perf_counter()
                    ui.parse(line, match, seat)
                    times.append((time.perf_counter() - t0) * 1e6)
        times.sort()
        out[name] = {"lines": len(times), "median_us": statistics.median(times),
                     "p95_us": times[int(0.95 * (len(times) - 1))]}
    return out


def run(tree: Path, repeat: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    got = subprocess.run([sys.executable, __file__, "--child", "--repeat", str(repeat)], env=env, cwd=tree,
                         capture_output=True, text=True, check=True)
    return json.loads(got.stdout)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", type=Path, default=Path("/work/main"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--child", action="store_true")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.repeat)))
        return 0
    here = Path(__file__).resolve().parent.parent
    new, old = run(here, args.repeat), run(args.baseline, args.repeat)
    for name in new:
        a, b = new[name], old[name]
        print(f"{name}: {a['lines']} lines; grammar median {a['median_us']:.0f} µs (p95 {a['p95_us']:.0f}), "
              f"hand parser {b['median_us']:.0f} µs (p95 {b['p95_us']:.0f}); ratio {a['median_us'] / b['median_us']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
