"""Type random legal and illegal lines for every seat and count what lets a listener infer a
secret (issue 25, point 1): the harness of `tests/test_hidden_outputs.py`, on more games.

Each line is typed in the real state and in every state that hides the same secrets, at one
keyboard without channels and with a channel per seat; a leak is a listener who hears two such
worlds differently. Run: .venv/bin/python bench/secrets_fuzz.py [seeds=4]
Prints, per game: lines typed, comparisons, leaks (target 0), and the first leak if any.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.test_hidden_outputs import CASES, Table  # noqa: E402


def main(argv: list[str]) -> int:
    extra = int(argv[0]) if argv else 4
    total = [0, 0, 0]
    for name, n, seeds, steps, every, count, options in CASES:
        t0 = time.process_time()
        typed = compared = 0
        leaks: list[str] = []
        for seed in [*seeds, *range(100, 100 + extra)]:
            table = Table(name, n, seed, **options)
            table.strict = False
            table.play(steps, every, count)
            typed, compared, leaks = typed + table.typed_lines, compared + table.compared, leaks + table.leaks
        total = [total[0] + typed, total[1] + compared, total[2] + len(leaks)]
        print(f"{name} {n}p {options or ''}: {typed} lines typed, {compared} comparisons, {len(leaks)} leaks "
              f"({time.process_time() - t0:.1f} s)")
        if leaks:
            print("  first:", leaks[0].splitlines()[0])
    print(f"total: {total[0]} lines typed, {total[1]} comparisons, {total[2]} leaks")
    return 1 if total[2] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
