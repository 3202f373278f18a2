"""Kaliko bots: greedy against the random-legal baseline over 100 fresh two-player games.

Game seeds are drawn fresh each run (the run's seed is printed; a second argument replays
it). Prints the greedy bot's average score per turn (and the baseline's), its outright win
rate and ties with their 95 % intervals, the average final scores and the time taken.
Seats alternate so neither bot always starts first.
Run: .venv/bin/python bench/kaliko_bots.py [games] [run-seed]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from winrate import game_seeds, mean_interval, rate, run_seed  # noqa: E402

from companion.core import Match, Rng  # noqa: E402
from companion.games.kaliko.bot import GreedyBot, RandomPlayBot  # noqa: E402
from companion.games.kaliko.rules import Kaliko  # noqa: E402


def play(seed: int, greedy_seat: int) -> dict[str, float]:
    game = Kaliko()
    match = Match(game, ["greedy", "random"] if greedy_seat == 0 else ["random", "greedy"], seed)
    root = Rng(seed)
    bots = [
        (GreedyBot if seat == greedy_seat else RandomPlayBot)(game, seat, root.fork(seat + 1))
        for seat in range(2)
    ]
    turns = [0, 0]
    gained = [0, 0]
    while not match.over:
        seat = match.current
        assert seat is not None
        for ev in match.play(seat, bots[seat].choose(match.state)):
            if ev.type == "tiles_played":
                gained[seat] += ev.data["score"]
        turns[seat] += 1
    out = match.outcome()
    other = 1 - greedy_seat
    return {
        "greedy_per_turn": gained[greedy_seat] / max(1, turns[greedy_seat]),
        "random_per_turn": gained[other] / max(1, turns[other]),
        "greedy_final": out.scores[greedy_seat],
        "random_final": out.scores[other],
        "win": 1.0 if out.winners == (greedy_seat,) else (0.5 if greedy_seat in out.winners else 0.0),
    }


def main(n: int = 100, given: int | None = None) -> None:
    seed = run_seed(given)
    start = time.perf_counter()
    rows = [play(game_seed, i % 2) for i, game_seed in enumerate(game_seeds(seed, n))]
    elapsed = time.perf_counter() - start
    mean = lambda k: statistics.fmean(r[k] for r in rows)  # noqa: E731
    print(f"Kaliko bots, {n} fresh 2-player games (run seed {seed}; `{n} {seed}` replays) (greedy: best play of up to {GreedyBot.max_tiles} tiles;")
    print("random-legal: a random scoring play of up to 3 tiles; both exchange when stuck)")
    print(f"  greedy average score per turn : {mean('greedy_per_turn'):.2f}")
    print(f"  random average score per turn : {mean('random_per_turn'):.2f}")
    print(f"  ratio greedy / random         : {mean('greedy_per_turn') / max(1e-9, mean('random_per_turn')):.2f}")
    print(f"  average final score           : greedy {mean('greedy_final'):.1f}, random {mean('random_final'):.1f}")
    wins = sum(r["win"] == 1.0 for r in rows)
    ties = sum(r["win"] == 0.5 for r in rows)
    print(f"  greedy outright wins          : {rate(wins, n)}")
    print(f"  ties                          : {rate(ties, n)}")
    print(f"  greedy score share (ties half): {mean_interval([r['win'] for r in rows])}")
    print(f"  time                          : {elapsed:.1f} s ({elapsed / n:.2f} s a game)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100, int(sys.argv[2]) if len(sys.argv) > 2 else None)
