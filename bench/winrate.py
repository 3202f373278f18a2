"""Shared by the bot benchmarks: fresh game seeds each run (printed, so a run can be replayed)
and win rates with their 95 % interval (issue 26: claims that hold on fresh games)."""

from __future__ import annotations

import math
import random
import statistics


def run_seed(given: int | None) -> int:
    """The run's seed: the one given (`--seed`, a replay) or a fresh one."""
    return given if given is not None else random.SystemRandom().randrange(10**9)


def game_seeds(run: int, n: int) -> list[int]:
    """`n` distinct game seeds drawn from the run's seed."""
    return random.Random(run).sample(range(10**9), n)


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / max(n, 1):.1%} (95 % interval {lo:.1%}-{hi:.1%}; {k}/{n})"


def mean_interval(values: list[float]) -> str:
    """A mean with its 95 % interval (normal approximation), e.g. a win rate counting ties as half."""
    m = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("inf")
    return f"{m:.1%} (95 % interval {max(0.0, m - half):.1%}-{min(1.0, m + half):.1%}; n={len(values)})"
