"""Kaliko best play: the C search and the finder of issue 26 against the frozen pre-issue finder, on fresh positions.

Positions: mid-game positions of greedy-bot games (3-tile plays) from game seeds drawn fresh
each run (the run's seed is printed: `--seed S` replays it), 30-40 tiles down, the player to
move holding 7 tiles. For each: the CPU time (process time) and wall time of `best_play`
(the C search, cbest.c, when `./run setup` built it: the line « best play: » says), of the
finder's walk (`best_play` without the C search: compiled by mypyc or not), of the pure
finder, of the old finder's best play (bench/kaliko_finder_old.py, measured in the same run), the
check that the best score equals the maximum of the old exhaustive listing
(`Finder(board, hand).run()`) and is the pure finder's play, and the wall time of what a player waits for within the
deadline (« meilleur », `coups`) and of a bot's move within its work budget.
Then the same timings with the process held to one core (`taskset -c 0`), printed beside.
`best_play` is the finder as the companion imports it: compiled by mypyc when `./run setup`
built it from these very sources (companion/games/kaliko/native.py; the line « finder: » says
which ran), else pure Python; the pure finder (`finder.pure()`) is timed beside in the same run.

Run: /work/main/.venv/bin/python bench/kaliko_best.py [--positions 30] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import kaliko_finder_old as old  # noqa: E402

from companion.core import Match, Rng  # noqa: E402
from companion.games.kaliko import cbest, native, search  # noqa: E402
from companion.games.kaliko import finder as finder_module  # noqa: E402
from companion.games.kaliko.bot import BUDGET, GreedyBot  # noqa: E402
from companion.games.kaliko.finder import Finder, best_play, search_best  # noqa: E402
from companion.games.kaliko.rules import Kaliko, packed_board  # noqa: E402


def mid_games(n: int, seed: int, players: tuple[str, str] = ("A", "B")) -> list[tuple[int, Match[Any, Any]]]:
    """`n` games of greedy bots (3-tile plays) from game seeds drawn from `seed`, stopped at
    30-40 tiles down with the player to move holding 7 tiles (also bench/kaliko_wait.py's)."""
    rng = random.Random(seed)
    out: list[tuple[int, Match[Any, Any]]] = []
    while len(out) < n:
        game_seed = rng.randrange(10**9)
        game = Kaliko()
        match: Match[Any, Any] = Match(game, list(players), game_seed)
        root = Rng(game_seed)
        bots = [GreedyBot(game, s, root.fork(s + 1), max_tiles=3) for s in range(2)]
        for _ in range(200):
            if match.over or len(match.state.board) >= 30:
                break
            seat = match.current
            assert seat is not None
            match.play(seat, bots[seat].choose(match.state))
        s = match.state
        if not match.over and 30 <= len(s.board) <= 40 and len(s.hands[s.turn]) == 7:
            out.append((game_seed, match))
    return out


def positions(n: int, seed: int) -> list[tuple[int, dict[int, int], list[int]]]:
    return [(gs, packed_board(m.state.board), list(m.state.hands[m.state.turn])) for gs, m in mid_games(n, seed)]


def timed(fn):  # type: ignore[no-untyped-def]
    c0, w0 = time.process_time(), time.perf_counter()
    got = fn()
    return got, time.process_time() - c0, time.perf_counter() - w0


def timings(pos: list[tuple[int, dict[int, int], list[int]]]) -> list[dict[str, float]]:
    """CPU and wall times of the new best-play searches (as imported: the C search when built;
    the walk, compiled or not; pure) and the old one, and of the waits."""
    rows = []
    walk_best = getattr(best_play, "__wrapped__", best_play)  # the walk under the C search
    for _seed, board, hand in pos:
        new, c_new, w_new = timed(lambda b=board, h=hand: best_play(b, h))
        walked, c_walk, w_walk = timed(lambda b=board, h=hand: walk_best(b, h))
        pure, c_pure, w_pure = timed(lambda b=board, h=hand: finder_module.pure().best_play(b, h))
        was, c_old, w_old = timed(lambda b=board, h=hand: old.best_play(b, h))
        (hint, proven), _, w_hint = timed(lambda b=board, h=hand: search.best_within(b, h, False, False))
        _, _, w_moves = timed(lambda b=board, h=hand: search.count_within(b, h, False, False))
        (_, bot_proven), _, w_bot = timed(lambda b=board, h=hand: search_best(b, h, budget=BUDGET))
        def placed(f):  # type: ignore[no-untyped-def]
            return f.placements if f else None

        rows.append({
            "new": new.score if new else 0, "old": was.score if was else 0, "same": placed(new) == placed(was),
            "pure": pure.score if pure else 0, "same_pure": placed(new) == placed(pure) == placed(walked),
            "c_new": c_new, "w_new": w_new, "c_old": c_old, "w_old": w_old, "c_pure": c_pure, "w_pure": w_pure,
            "c_walk": c_walk, "w_walk": w_walk,
            "w_hint": w_hint, "hint_proven": proven, "w_moves": w_moves, "w_bot": w_bot, "bot_proven": bot_proven,
        })
    return rows


def summary(rows: list[dict[str, float]], label: str) -> list[str]:
    def med_max(key: str) -> str:
        v = [r[key] for r in rows]
        return f"median {statistics.median(v):.3f} s, max {max(v):.3f} s"

    def ratios(key: str) -> str:  # that search's CPU time over best_play's: of medians, of maxima
        med = statistics.median(r[key] for r in rows) / max(statistics.median(r["c_new"] for r in rows), 1e-9)
        top = max(r[key] for r in rows) / max(max(r["c_new"] for r in rows), 1e-9)
        return f"{med:.1f}x, {top:.1f}x"

    worst_wait = max(max(r["w_hint"], r["w_moves"]) for r in rows)
    return [
        f"[{label}] best_play CPU {med_max('c_new')} (wall {med_max('w_new')})",
        f"[{label}] its walk (best_play without the C search) CPU {med_max('c_walk')} (wall {med_max('w_walk')})",
        f"[{label}] pure Python finder CPU {med_max('c_pure')} (wall {med_max('w_pure')})",
        f"[{label}] old finder CPU {med_max('c_old')} (wall {med_max('w_old')})",
        f"[{label}] CPU ratios over best_play (of medians, of maxima): walk {ratios('c_walk')}; "
        f"pure {ratios('c_pure')}; old {ratios('c_old')}",
        f"[{label}] targets (CPU): median <= 0.1 s {'met' if statistics.median(r['c_new'] for r in rows) <= 0.1 else 'NOT met'}, "
        f"max <= 0.5 s {'met' if max(r['c_new'] for r in rows) <= 0.5 else 'NOT met'}",
        f"[{label}] « meilleur » within the deadline {search.DEADLINE:.2f} s: wall {med_max('w_hint')}, "
        f"proven best on {sum(bool(r['hint_proven']) for r in rows)}/{len(rows)}",
        f"[{label}] « coups » within the deadline: wall {med_max('w_moves')}; worst wait {worst_wait:.3f} s "
        f"({'within' if worst_wait <= search.DEADLINE + 0.05 else 'OVER'} deadline + 50 ms)",
        f"[{label}] bot move within its budget ({BUDGET} nodes): wall {med_max('w_bot')}, "
        f"proven best on {sum(bool(r['bot_proven']) for r in rows)}/{len(rows)}",
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--seed", type=int, default=None, help="replay a run (default: a fresh seed)")
    ap.add_argument("--times-only", action="store_true", help="(internal) print the timings as JSON")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    pos = positions(args.positions, seed)
    if args.times_only:
        rows = timings(pos)
        print(json.dumps({"finder": native.STATUS, "best": cbest.STATUS, "rows": rows}))
        return
    print(f"Kaliko best play on {len(pos)} fresh mid-game positions (7-tile hands), seed {seed} (--seed {seed} replays)")
    print(f"best play: {cbest.STATUS if finder_module.C_SEARCH else 'the walk (no C search: ' + cbest.STATUS + ')'}")
    print(f"finder: {native.STATUS}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    rows = timings(pos)
    print(f"{'game seed':>10} {'tiles':>5} {'best':>4} {'max all':>7} {'new cpu':>8} {'walk cpu':>8} {'pure cpu':>8} "
          f"{'old cpu':>8} {'walk/new':>8}")
    bad = 0
    for (game_seed, board, hand), r in zip(pos, rows, strict=True):
        listing = old.Finder(board, hand).run()  # exhaustive at 7 tiles: the reference maximum
        top = listing[0].score if listing else 0
        ok = r["new"] == top == r["pure"] and r["same"] and r["same_pure"]
        bad += not ok
        print(f"{game_seed:>10} {len(board):>5} {int(r['new']):>4} {top:>7} {r['c_new']:>8.4f} {r['c_walk']:>8.3f} "
              f"{r['c_pure']:>8.3f} {r['c_old']:>8.3f} {r['c_walk'] / max(r['c_new'], 1e-9):>8.1f}{'' if ok else '  MISMATCH'}")
    print(f"best score equal to the exhaustive maximum and the pure finder's (and the same play as the pure, "
          f"walk and old finders) on {len(rows) - bad}/{len(rows)} positions")
    lines = summary(rows, "2 cores")
    one = None
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", sys.executable, __file__, "--positions", str(args.positions), "--seed", str(seed), "--times-only"]
        got = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        one = got["rows"]
        same = ("the same searches" if (got["finder"], got["best"]) == (native.STATUS, cbest.STATUS)
                else f"ANOTHER search: {got['finder']}, {got['best']}")
        print(f"[taskset -c 0] run in a second process: {same}")
    other = summary(one, "taskset -c 0") if one else ["[taskset -c 0] taskset not found"] * len(lines)
    for a, b in zip(lines, other, strict=True):
        print(a)
        print(b)
    nodes = Finder(pos[0][1], pos[0][2], best_only=True)
    n0 = time.process_time()
    nodes.run()
    print(f"walk speed on the first position: {nodes.nodes / max(time.process_time() - n0, 1e-9):,.0f} nodes per CPU second "
          f"(the bots' budget of {BUDGET} nodes is sized from it)")


if __name__ == "__main__":
    main()
