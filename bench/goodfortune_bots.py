"""Good Fortune: the searching bot against the greedy bot over 500 fresh games.

Game seeds are drawn fresh each run (the run's seed is printed; a fourth argument replays
it); seats alternate with the seed (even seeds: search is seat 0). Rates carry their 95 %
interval. Prints the searching bot's
win / draw / loss rates and mean score margin; the same figures for greedy against greedy
on the same seeds (the baseline: seat luck); the searching bot's time per decision (median,
90th percentile, max), the greedy bot's median for comparison, and how often the search
reached the end of the game exactly. Each search decision is bounded by a node budget
(deterministic) and a one-second cap.

Run: .venv/bin/python bench/goodfortune_bots.py [games] [max_nodes] [workers] [run-seed]
"""

from __future__ import annotations

import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from winrate import game_seeds, rate, run_seed  # noqa: E402

from companion.core import Match, Rng  # noqa: E402
from companion.games.goodfortune import Rules  # noqa: E402
from companion.games.goodfortune.bot import GreedyBot, SearchBot  # noqa: E402

MAX_NODES = 8000  # the benchmark's budget per decision (the bot's own default is SearchBot.max_nodes)
MAX_SECONDS = SearchBot.max_seconds


def play(args: tuple[int, int, bool]) -> dict[str, object]:
    seed, max_nodes, baseline = args
    game = Rules()
    hero = seed % 2  # the searching bot's seat
    m = Match(game, ["P0", "P1"], seed)
    root = Rng(seed)
    bots = []
    for seat in (0, 1):
        rng = root.fork(seat + 1)
        if seat == hero and not baseline:
            bots.append(SearchBot(game, seat, rng, max_nodes=max_nodes, max_seconds=MAX_SECONDS))
        else:
            bots.append(GreedyBot(game, seat, rng))
    times: dict[int, list[float]] = {0: [], 1: []}
    exact = decisions = 0
    while not m.over:
        seat = m.current
        legal = m.legal(seat)
        t0 = time.perf_counter()
        action = bots[seat].choose(m.state)
        dt = time.perf_counter() - t0
        if len(legal) > 1:
            times[seat].append(dt)
            if isinstance(bots[seat], SearchBot):
                decisions += 1
                exact += bool(bots[seat].stats.get("exact"))
        m.play(seat, action)
    scores = m.outcome().scores
    return {"margin": scores[hero] - scores[1 - hero], "hero_times": times[hero],
            "other_times": times[1 - hero], "exact": exact, "decisions": decisions}


def summary(results: list[dict[str, object]]) -> tuple[str, str, str, float]:
    n = len(results)
    wins = sum(1 for r in results if r["margin"] > 0)  # type: ignore[operator]
    draws = sum(1 for r in results if r["margin"] == 0)
    margin = statistics.mean(r["margin"] for r in results)  # type: ignore[misc]
    return rate(wins, n), rate(draws, n), rate(n - wins - draws, n), margin


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    max_nodes = int(sys.argv[2]) if len(sys.argv) > 2 else MAX_NODES
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    seed = run_seed(int(sys.argv[4]) if len(sys.argv) > 4 else None)
    # the seat follows the seed's parity (`play`): keep even and odd seeds alternating
    seeds = [s - s % 2 + i % 2 for i, s in enumerate(game_seeds(seed, games))]
    print(f"Good Fortune bots: {games} fresh games (run seed {seed}; `{games} {max_nodes} {workers} {seed}` "
          "replays), synthetic deck, default rules")
    print(f"search budget: max_nodes={max_nodes} per decision, max_seconds={MAX_SECONDS}; {workers} worker(s)")
    t0 = time.perf_counter()
    with Pool(workers) as pool:
        hero = pool.map(play, [(s, max_nodes, False) for s in seeds], chunksize=5)
        base = pool.map(play, [(s, max_nodes, True) for s in seeds], chunksize=10)
    wall = time.perf_counter() - t0
    w, d, lo, mg = summary(hero)
    bw, bd, bl, bm = summary(base)
    print(f"search vs greedy : win {w}  draw {d}  loss {lo}  mean margin {mg:+.1f} points")
    print(f"greedy vs greedy : win {bw}  draw {bd}  loss {bl}  mean margin {bm:+.1f} points (same seats, baseline)")
    st = [t for r in hero for t in r["hero_times"]]
    gt = [t for r in hero for t in r["other_times"]]
    q = statistics.quantiles(st, n=10)
    exact = sum(r["exact"] for r in hero) / max(1, sum(r["decisions"] for r in hero))
    print(f"search time per decision: median {statistics.median(st) * 1000:.1f} ms, p90 {q[-1] * 1000:.1f} ms, "
          f"max {max(st) * 1000:.1f} ms over {len(st)} decisions; exact to the end in {exact:.0%} of them")
    print(f"greedy time per decision: median {statistics.median(gt) * 1000:.2f} ms "
          f"(search/greedy median ratio {statistics.median(st) / statistics.median(gt):.0f}x)")
    print(f"wall time {wall:.0f} s")


if __name__ == "__main__":
    main()
