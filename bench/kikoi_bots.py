"""Les 5 KIKOI: the memory bot against two random bots, over 1000 fresh 3-player games.

Game seeds are drawn fresh each run (the run's seed is printed; a second argument replays
it). Prints the memory bot's outright wins and its ties (a tie is not a win: printed apart),
each with its 95 % interval, the same figures for a random bot in its seat (the baseline,
same seeds), and the games per second (median of the batches).
Run: .venv/bin/python bench/kikoi_bots.py [games] [run-seed]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from winrate import game_seeds, rate, run_seed  # noqa: E402

from companion.core import Match, Rng  # noqa: E402
from companion.games.kikoi.bot import BOTS  # noqa: E402
from companion.games.kikoi.rules import Rules  # noqa: E402


def play(seed: int, kinds: list[str], rules: Rules) -> tuple[list[int], list[int], int]:
    n = len(kinds)
    m = Match(rules, [f"P{i}" for i in range(n)], seed)
    root = Rng(seed)
    bots = [BOTS[k](rules, s, root.fork(s + 1)) for s, k in enumerate(kinds)]
    for b in bots:
        b.observe([e for e in m.setup_events if e.visible_to(b.seat)])
    steps = 0
    while not m.over:
        seat = m.current
        events = m.play(seat, bots[seat].choose(m.state))
        steps += 1
        for b in bots:
            b.observe([e for e in events if e.visible_to(b.seat)])
    out = m.outcome()
    return list(out.winners), list(out.scores), steps


def run(seeds: list[int], hero: str, batch: int = 100) -> dict[str, float]:
    rules = Rules()
    games = len(seeds)
    tied = outright = 0
    rates: list[float] = []
    steps = 0
    for start in range(0, games, batch):
        t0 = time.perf_counter()
        count = min(batch, games - start)
        for i in range(start, start + count):
            seat = i % 3  # the hero sits in every seat in turn (the first player moves first)
            kinds = ["random"] * 3
            kinds[seat] = hero
            winners, _scores, k = play(seeds[i], kinds, rules)
            steps += k
            if seat in winners:
                if len(winners) == 1:
                    outright += 1
                else:
                    tied += 1
        rates.append(count / (time.perf_counter() - t0))
    return {"tied": tied, "outright": outright, "gps": statistics.median(rates), "steps": steps / games}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = run_seed(int(sys.argv[2]) if len(sys.argv) > 2 else None)
    seeds = game_seeds(seed, games)
    mem = run(seeds, "memory")
    base = run(seeds, "random")
    print(f"Les 5 KIKOI, {games} fresh 3-player games (run seed {seed}; `{games} {seed}` replays), red tokens on")
    print(f"memory bot vs 2 random bots: outright wins {rate(int(mem['outright']), games)}; "
          f"ties for first {rate(int(mem['tied']), games)}")
    print(f"baseline random bot in the same seat: outright wins {rate(int(base['outright']), games)}; "
          f"ties for first {rate(int(base['tied']), games)}")
    print(f"ratio memory/random outright win rate: {mem['outright'] / max(base['outright'], 1e-9):.2f}")
    print(f"speed: {mem['gps']:.0f} games/s with the memory bot, {base['gps']:.0f} games/s random only "
          f"(median of batches of 100); {mem['steps']:.0f} vs {base['steps']:.0f} actions per game")


if __name__ == "__main__":
    main()
