"""Benchmark: the greedy 2kissa10 bot against the prudent one (one move of lookahead).

    .venv/bin/python bench/kissa_bots.py [--games 200] [--expert]

Seeded two-player games; the bots swap seats every game (the first player is drawn by the
rules). Printed: wins, draws, mean scores and mean margin, and time per move of each bot.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core import Match, Rng  # noqa: E402
from companion.games.kissa.bot import GreedyBot, PrudentBot  # noqa: E402
from companion.games.kissa.rules import Kissa  # noqa: E402


def play(game: Kissa, seed: int, prudent_seat: int, clock: dict[str, list[float]]) -> tuple[int, int]:
    match = Match(game, ["A", "B"], seed)
    root = Rng(seed)
    bots = [
        (PrudentBot if seat == prudent_seat else GreedyBot)(game, seat, root.fork(seat + 1))
        for seat in range(2)
    ]
    while not match.over:
        seat = match.current
        assert seat is not None
        t0 = time.perf_counter()
        action = bots[seat].choose(match.state)
        clock[bots[seat].name].append(time.perf_counter() - t0)
        match.play(seat, action)
    scores = match.outcome().scores
    return scores[prudent_seat], scores[1 - prudent_seat]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--expert", action="store_true")
    args = p.parse_args()
    game = Kissa(expert=args.expert)
    clock: dict[str, list[float]] = {"greedy": [], "prudent": []}
    wins = losses = draws = 0
    prudent_scores, greedy_scores = [], []
    t0 = time.perf_counter()
    for g in range(args.games):
        pr, gr = play(game, 10_000 + g, g % 2, clock)
        prudent_scores.append(pr)
        greedy_scores.append(gr)
        wins += pr > gr
        losses += pr < gr
        draws += pr == gr
    elapsed = time.perf_counter() - t0
    label = "expert" if args.expert else "standard"
    print(f"2kissa10 {label}, {args.games} seeded games, prudent vs greedy (seats alternate):")
    print(f"  prudent wins {wins}, greedy wins {losses}, draws {draws}"
          f"  (prudent win rate {wins / args.games:.1%})")
    print(f"  mean score: prudent {statistics.mean(prudent_scores):.1f}, greedy {statistics.mean(greedy_scores):.1f}, "
          f"mean margin {statistics.mean(p - g for p, g in zip(prudent_scores, greedy_scores, strict=True)):+.1f}")
    for name, times in clock.items():
        print(f"  {name}: {len(times)} moves, {statistics.median(times) * 1e3:.1f} ms median per move")
    print(f"  total {elapsed:.1f} s")


if __name__ == "__main__":
    main()
