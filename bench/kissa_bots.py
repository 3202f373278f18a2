"""Benchmark: the greedy 2kissa10 bot against the prudent one (one move of lookahead).

    .venv/bin/python bench/kissa_bots.py [--games 1000] [--expert] [--seed S]

Two-player games on game seeds drawn fresh each run (the run's seed is printed; `--seed S`
replays it); the bots swap seats every game (the first player is drawn by the rules).
Printed: wins, draws and the prudent bot's win rate with its 95 % interval, mean scores and
mean margin, and time per move of each bot.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from winrate import game_seeds, mean_interval, rate, run_seed  # noqa: E402

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
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--expert", action="store_true")
    p.add_argument("--seed", type=int, default=None, help="the run's seed (default: fresh)")
    args = p.parse_args()
    seed = run_seed(args.seed)
    game = Kissa(expert=args.expert)
    clock: dict[str, list[float]] = {"greedy": [], "prudent": []}
    wins = losses = draws = 0
    prudent_scores, greedy_scores = [], []
    t0 = time.perf_counter()
    for g, game_seed in enumerate(game_seeds(seed, args.games)):
        pr, gr = play(game, game_seed, g % 2, clock)
        prudent_scores.append(pr)
        greedy_scores.append(gr)
        wins += pr > gr
        losses += pr < gr
        draws += pr == gr
    elapsed = time.perf_counter() - t0
    label = "expert" if args.expert else "standard"
    print(f"2kissa10 {label}, {args.games} fresh games (run seed {seed}; --seed {seed} replays), "
          "prudent vs greedy (seats alternate):")
    print(f"  prudent wins {wins}, greedy wins {losses}, draws {draws}")
    print(f"  prudent win rate {rate(wins, args.games)}")
    print(f"  prudent win rate among decided games {rate(wins, wins + losses)}")
    print(f"  prudent score share (draws = half) "
          f"{mean_interval([1.0 if p > g else 0.5 if p == g else 0.0 for p, g in zip(prudent_scores, greedy_scores, strict=True)])}")
    print(f"  mean score: prudent {statistics.mean(prudent_scores):.1f}, greedy {statistics.mean(greedy_scores):.1f}, "
          f"mean margin {statistics.mean(p - g for p, g in zip(prudent_scores, greedy_scores, strict=True)):+.1f}")
    for name, times in clock.items():
        print(f"  {name}: {len(times)} moves, {statistics.median(times) * 1e3:.1f} ms median per move")
    print(f"  total {elapsed:.1f} s")


if __name__ == "__main__":
    main()
