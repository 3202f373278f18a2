"""Benchmark: the 2kissa10 move finder against a straightforward pure-Python enumeration.

    .venv/bin/python bench/kissa_moves.py [--boards N] [--expert-boards N]

On full random boards (ten of each digit, seeded), side by side in the same run:

* the baseline below: every pair of numbers, a dict lookup of their sum and product among
  the numbers, disjoint cells checked with bit masks (pure Python);
* `MoveFinder`: value triples first with numpy, then the occurrences of each triple
  expanded and filtered as arrays; it lists exactly the same moves (checked here).

Printed: moves per board, medians of both (each board timed in `--repeat` interleaved rounds,
the best run of each method kept: the machine is shared), the speed ratio, and the time to the best move
(`MoveFinder.best(1)`, one run per board with a fresh finder, no caching), standard and expert.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.kissa.finder import MoveFinder, find_numbers, mask_of  # noqa: E402


def random_board(seed: int) -> tuple[int, ...]:
    r = random.Random(seed)
    b = [d for d in range(10) for _ in range(10)]
    r.shuffle(b)
    return tuple(b)


def baseline_moves(board: tuple[int, ...], expert: bool = False) -> list[tuple[str, int, int, int]]:
    """The straightforward way: every pair of numbers, its sum and product looked up."""
    nums = find_numbers(board, expert)
    values = [n.value for n in nums]
    masks = [mask_of(n.cells) for n in nums]
    by_value: dict[int, list[int]] = {}
    for i, v in enumerate(values):
        by_value.setdefault(v, []).append(i)
    out = []
    n = len(nums)
    for i in range(n):
        vi, mi = values[i], masks[i]
        for j in range(i + 1, n):
            if mi & masks[j]:
                continue
            vj = values[j]
            mij = mi | masks[j]
            a, b = (i, j) if (vi, i) <= (vj, j) else (j, i)
            for k in by_value.get(vi + vj, ()):
                if not masks[k] & mij:
                    out.append(("+", a, b, k))
            if vi and vj:
                for k in by_value.get(vi * vj, ()):
                    if not masks[k] & mij:
                        out.append(("*", a, b, k))
    return out


def fast_moves(board: tuple[int, ...], expert: bool = False) -> tuple[MoveFinder, int]:
    """All moves as arrays (the finder's own enumeration), and their number."""
    f = MoveFinder(board, expert=expert)
    total = 0
    for _, (t, _ia, _ib, _ic) in f.chunks():
        total += int(t.size)
    return f, total


REPEAT = 3  # rounds per board; the best run of each method counts (the machine is shared)


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


def run(boards: int, expert_boards: int) -> None:
    import numpy  # noqa: F401  (imported once, outside the timings)

    MoveFinder(random_board(0)).best(1)  # warm-up
    for expert, n in ((False, boards), (True, expert_boards)):
        label = "expert" if expert else "standard"
        t_base, t_fast, t_list, t_best, counts = [], [], [], [], []
        for seed in range(1000, 1000 + n):
            board = random_board(seed)
            tb = tf = tl = float("inf")
            for _ in range(REPEAT):  # interleaved, so that a busy moment hits all three alike
                t, base = timed(baseline_moves, board, expert)
                tb = min(tb, t)
                t, (_finder, total) = timed(fast_moves, board, expert)
                tf = min(tf, t)
                t, listed = timed(lambda b=board, e=expert: list(MoveFinder(b, expert=e).moves()))
                tl = min(tl, t)
            assert total == len(base) == len(listed), (total, len(base), len(listed))
            canon = {(op, a, b, c) for op, a, b, c, _ in listed}
            assert canon == set(base), "the finder and the baseline disagree"
            t_base.append(tb)
            t_fast.append(tf)
            t_list.append(tl)
            counts.append(total)
        for seed in range(2000, 2000 + max(n, 30)):
            board = random_board(seed)
            t0 = time.perf_counter()  # one run per board: the median is over boards
            MoveFinder(board, expert=expert).best(1)
            t_best.append(time.perf_counter() - t0)
        mb, mf, ml = (statistics.median(x) for x in (t_base, t_fast, t_list))
        print(f"{label}: {n} full boards, {statistics.median(counts):,.0f} legal moves (median), "
              f"{min(counts):,} to {max(counts):,}")
        print(f"  baseline (pure-Python pairs):        {mb * 1e3:9.1f} ms median")
        print(f"  finder, all moves as arrays:         {mf * 1e3:9.1f} ms median   {mb / mf:6.1f}x faster")
        print(f"  finder, all moves as Python tuples:  {ml * 1e3:9.1f} ms median   {mb / ml:6.1f}x faster")
        print(f"  best move ({len(t_best)} boards):               {statistics.median(t_best) * 1e3:9.1f} ms median"
              f", {max(t_best) * 1e3:.1f} ms worst")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--boards", type=int, default=10, help="standard boards (baseline is ~0.1 s each)")
    p.add_argument("--expert-boards", type=int, default=3, help="expert boards (baseline is ~1 s each)")
    p.add_argument("--repeat", type=int, default=3, help="runs per board and method; the best one counts")
    args = p.parse_args()
    global REPEAT
    REPEAT = max(1, args.repeat)
    run(args.boards, args.expert_boards)


if __name__ == "__main__":
    main()
