"""Kaliko best-play search: the exhaustive finder against naive generate-and-test.

Positions: mid-game positions of seeded greedy-bot games, 30-40 tiles down, the player to
move holding 7 tiles. For each: the time of the exhaustive best-play search (every legal
play of 1-7 tiles, pruned by open ends and parity), then the time of the finder and of a
naive generate-and-test search at the same scope (plays of up to NAIVE_TILES tiles: the
naive search cannot finish 7-tile plays), checking that both find the same plays.
Prints medians, maxima and ratios. Run: .venv/bin/python bench/kaliko_best.py [positions]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core import Match, Rng  # noqa: E402
from companion.games.kaliko.bot import GreedyBot  # noqa: E402
from companion.games.kaliko.finder import Finder, best_play, naive_plays  # noqa: E402
from companion.games.kaliko.rules import Kaliko, packed_board  # noqa: E402

NAIVE_TILES = 2


def positions(n: int) -> list[tuple[int, dict[int, int], list[int]]]:
    out = []
    seed = 0
    while len(out) < n and seed < 10 * n:
        game = Kaliko()
        match = Match(game, ["A", "B"], seed)
        root = Rng(seed)
        bots = [GreedyBot(game, s, root.fork(s + 1), max_tiles=3) for s in range(2)]
        for _ in range(200):
            if match.over or len(match.state.board) >= 30:
                break
            seat = match.current
            assert seat is not None
            match.play(seat, bots[seat].choose(match.state))
        s = match.state
        if not match.over and len(s.board) <= 40 and len(s.hands[s.turn]) == 7:
            out.append((seed, packed_board(s.board), list(s.hands[s.turn])))
        seed += 1
    return out


def main(n: int = 12) -> None:
    rows = []
    print(f"Kaliko best-play search on {n} mid-game positions (7-tile hands)")
    print(f"{'seed':>4} {'tiles':>5} {'plays':>7} {'best':>4} {'best s':>7} {'all s':>8} "
          f"{'finder<=' + str(NAIVE_TILES) + ' s':>11} {'naive<=' + str(NAIVE_TILES) + ' s':>10} {'ratio':>7}")
    for seed, board, hand in positions(n):
        t0 = time.perf_counter()
        best = best_play(board, hand)
        t_best = time.perf_counter() - t0
        t0 = time.perf_counter()
        found = Finder(board, hand).run()
        t_full = time.perf_counter() - t0
        t0 = time.perf_counter()
        small = Finder(board, hand, max_tiles=NAIVE_TILES).run()
        t_small = time.perf_counter() - t0
        t0 = time.perf_counter()
        naive = naive_plays(board, hand, max_tiles=NAIVE_TILES)
        t_naive = time.perf_counter() - t0
        same = {f.placements: f.score for f in small} == {f.placements: f.score for f in naive}
        score = found[0].score if found else 0
        if not same or (best.score if best else 0) != score:
            print("  MISMATCH between the searches!")
        rows.append((t_best, t_small, t_naive, t_full))
        print(f"{seed:>4} {len(board):>5} {len(found):>7} {score:>4} {t_best:>7.3f} {t_full:>8.3f} {t_small:>11.4f} "
              f"{t_naive:>10.3f} {t_naive / max(t_small, 1e-9):>7.0f}")
    full = [r[0] for r in rows]
    small = [r[1] for r in rows]
    naive = [r[2] for r in rows]
    listing = [r[3] for r in rows]
    print(f"exhaustive best play (1-7 tiles): median {statistics.median(full):.3f} s, max {max(full):.3f} s")
    print(f"every legal play listed (1-7 tiles): median {statistics.median(listing):.3f} s, max {max(listing):.3f} s")
    print(f"same scope (1-{NAIVE_TILES} tiles): finder median {statistics.median(small):.4f} s, "
          f"naive median {statistics.median(naive):.3f} s, ratio of medians "
          f"{statistics.median(naive) / max(statistics.median(small), 1e-9):.0f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 12)
