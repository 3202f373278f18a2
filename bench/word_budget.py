"""Words a human hears per turn, per game, language and verbosity (#17's word budget, #29's rounds).

#29 counts a round as printed: from « joue pour moi » to Marie's next prompt, every
whitespace-separated token (speaker tags and lone punctuation included), over six rounds from
the first move; terse against its limit plus the words the meaning needs
(tests/wordbudget.py MEANING_WORDS), normal against a median of 45 and a maximum of 90.

Plays the scripted games of tests/wordbudget.py (one human, « joue pour moi » for each of
their moves, bots in the other seats) over a few seeds and prints, for each game, language
and verbosity: one's own move (max and median words), each bot move (max, median; Kaliko
minus one a cell and the incidental paths' allowance), the whole stretch from one's move to
the next prompt (max, and how many turns exceed 12 + 8 a bot move), the prompt, and the
acknowledgement of « joue pour moi ». The limits asserted by tests/test_word_budget.py are
terse own <= 12, bot <= 8, normal own <= 25, acknowledgement <= 2.

Run: .venv/bin/python bench/word_budget.py [seeds...]   (default: 3 4 7)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.narration import Verbosity  # noqa: E402
from tests.wordbudget import (  # noqa: E402
    GAMES,
    NORMAL_MAX,
    NORMAL_MEDIAN,
    TERSE_ROUND,
    Figures,
    figures,
    round_tokens,
    terse_rounds,
)


def rounds_table(seed: int) -> None:
    """#29: tokens printed per round, six rounds, seed `seed`."""
    print(f"rounds as printed (seed {seed}): terse max / limit (+ meaning words) and normal median, max")
    for game in GAMES:
        for lang in ("fr", "en"):
            terse = terse_rounds(game, lang, seed)
            worst = max(terse, key=lambda r: r[0] - r[1])
            normal = round_tokens(game, lang, Verbosity.NORMAL, seed)
            print(f"{game:12} {lang:3} terse {[n for n, _, _ in terse]} max {max(n for n, _, _ in terse)} "
                  f"(limit {TERSE_ROUND[game]}, worst round {worst[0]} of {worst[1]} allowed) | normal "
                  f"{normal} median {statistics.median(normal):g} (<= {NORMAL_MEDIAN}), max {max(normal)} (<= {NORMAL_MAX})")


def main(seeds: list[int]) -> None:
    print(f"seeds {seeds}; words counted as heard (tokens with a letter or digit)")
    print(f"{'game':12} {'lang':4} {'verbosity':9} {'own max/med':>12} {'bot max/med':>12} {'turn max':>8} "
          f"{'over':>7} {'prompt':>6} {'ack':>4}")
    t0 = time.perf_counter()
    for game in GAMES:
        for lang in ("fr", "en"):
            for verbosity in (Verbosity.TERSE, Verbosity.NORMAL, Verbosity.VERBOSE):
                runs = [figures(game, lang, verbosity, seed) for seed in seeds]
                f = Figures(*[sum((getattr(r, k) for r in runs), []) for k in
                              ("own", "bot", "table", "turn", "budget", "ack", "prompt")])
                over = sum(1 for t, b in zip(f.turn, f.budget, strict=True) if t > b)
                own = f"{max(f.own)}/{statistics.median(f.own):g}"
                bot = f"{max(f.bot)}/{statistics.median(f.bot):g}" if f.bot else "-"
                print(f"{game:12} {lang:4} {verbosity.name.lower():9} {own:>12} {bot:>12} {max(f.turn):>8} "
                      f"{over:>3}/{len(f.turn):<3} {max(f.prompt):>6} {max(f.ack):>4}")
    rounds_table(seeds[0])
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [3, 4, 7])
