"""Les 5 KIKOI: the memory bot against two random bots, over 1000 seeded 3-player games.

Prints the memory bot's win rate (shared wins and outright wins), the same figure for a
random bot in its seat (the baseline, same seeds), and the games per second (median of the
batches). Run: .venv/bin/python bench/kikoi_bots.py [games]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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


def run(games: int, hero: str, batch: int = 100) -> dict[str, float]:
    rules = Rules()
    shared = outright = 0
    rates: list[float] = []
    steps = 0
    for start in range(0, games, batch):
        t0 = time.perf_counter()
        count = min(batch, games - start)
        for seed in range(start, start + count):
            seat = seed % 3  # the hero sits in every seat in turn (the first player moves first)
            kinds = ["random"] * 3
            kinds[seat] = hero
            winners, _scores, k = play(seed, kinds, rules)
            steps += k
            if seat in winners:
                shared += 1
                if len(winners) == 1:
                    outright += 1
        rates.append(count / (time.perf_counter() - t0))
    return {"shared": shared / games, "outright": outright / games,
            "gps": statistics.median(rates), "steps": steps / games}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    mem = run(games, "memory")
    base = run(games, "random")
    print(f"Les 5 KIKOI, {games} seeded 3-player games, red tokens on (defaults)")
    print(f"memory bot vs 2 random bots: win rate {mem['shared']:.1%} (ties shared), "
          f"{mem['outright']:.1%} outright")
    print(f"baseline random bot in the same seat: {base['shared']:.1%} (ties shared), "
          f"{base['outright']:.1%} outright")
    print(f"ratio memory/random win rate: {mem['shared'] / max(base['shared'], 1e-9):.2f}")
    print(f"speed: {mem['gps']:.0f} games/s with the memory bot, {base['gps']:.0f} games/s random only "
          f"(median of batches of 100); {mem['steps']:.0f} vs {base['steps']:.0f} actions per game")


if __name__ == "__main__":
    main()
