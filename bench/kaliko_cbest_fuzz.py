"""Kaliko's best-play search in C (cbest.c) against the finder's walk, on many random positions:
a long fuzz (tests/kaliko/test_kaliko_cbest.py keeps a fast one).

Boards: mid-game positions of seeded greedy-bot games (bench/kaliko_best.py's `mid_games`,
30-40 tiles) and boards of 10-60 tiles from seeded greedy games with 2-tile plays; hands:
the player's own 7 tiles, or 1-7 tiles drawn from the tiles not on the board; max_tiles 1-7;
both variant flags. For each, the C search's best score must equal the walk's (`best_play`
without the C search: the compiled finder when built, which tests/kaliko/test_kaliko_native.py
checks against the pure one) and, where max_tiles <= 2, the exhaustive listing's maximum
(`Finder(...).run()`), and its play must be legal by `scoring.evaluate` with that score.
The run's seed is printed (`--seed S` replays it); it stops after `--cases` cases or
`--seconds`, and exits 1 on any mismatch.

Run: nice /work/main/.venv/bin/python bench/kaliko_cbest_fuzz.py [--cases 2000] [--seconds 600] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kaliko_best import positions  # noqa: E402

from companion.core import Match, Rng  # noqa: E402
from companion.games.kaliko import cbest, finder  # noqa: E402
from companion.games.kaliko.bot import GreedyBot  # noqa: E402
from companion.games.kaliko.rules import Kaliko, packed_board  # noqa: E402
from companion.games.kaliko.scoring import evaluate  # noqa: E402
from companion.games.kaliko.tiles import OT_NUMBER  # noqa: E402


def small_boards(seed: int, games: int) -> list[dict[int, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        game_seed = rng.randrange(10**9)
        game = Kaliko()
        match = Match(game, ["A", "B"], game_seed)
        bots = [GreedyBot(game, s, Rng(game_seed).fork(s + 1), max_tiles=2) for s in range(2)]
        for ply in range(30):
            if match.over:
                break
            match.play(match.current, bots[match.current].choose(match.state))
            if ply % 5 == 4:
                out.append(packed_board(match.state.board))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=600.0)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    if cbest.load() is None:
        print(f"no C search: {cbest.STATUS}")
        return 1
    walk = getattr(finder.best_play, "__wrapped__", finder.best_play)
    print(f"seed {seed} (--seed {seed} replays); C search {cbest.STATUS}; walk: "
          f"{'compiled' if finder.COMPILED else 'pure'}")
    mids = positions(20, seed)
    boards = small_boards(seed + 1, 8)
    rng = random.Random(seed + 2)
    t0 = time.perf_counter()
    bad = done = with_play = exhaustive = 0
    c_time = w_time = 0.0
    while done < args.cases and time.perf_counter() - t0 < args.seconds:
        if rng.random() < 0.5:
            _gs, board, own = rng.choice(mids)
        else:
            board, own = rng.choice(boards), []
        on = {OT_NUMBER[ot] for ot in board.values()}
        if own and rng.random() < 0.5:
            hand = list(own)
        else:
            hand = rng.sample([t for t in range(1, 86) if t not in on], rng.randint(1, 7))
        cnto, dmo = rng.random() < 0.25, rng.random() < 0.15
        top = 7 if not dmo else 4  # the walk lists every play under double_main_only: slow at 7
        max_tiles = rng.randint(1, min(len(hand), top))
        a = time.process_time()
        got = cbest.search(board, hand, cnto, dmo, max_tiles)
        b = time.process_time()
        ref = walk(board, hand, cnto, dmo, max_tiles)
        c_time, w_time = c_time + b - a, w_time + time.process_time() - b
        want = ref.score if ref else -1
        ok = got is not None and got[0] == want
        if ok and got is not None and got[0] >= 0:
            verdict = evaluate(board, list(got[1]), cnto, dmo)
            ok = verdict.legal and verdict.score == got[0] and len(got[1]) <= max_tiles
            with_play += 1
        if ok and max_tiles <= 2:
            listing = finder.Finder(board, hand, cnto, dmo, max_tiles).run()
            ok = got is not None and got[0] == (listing[0].score if listing else -1)
            exhaustive += 1
        if not ok:
            bad += 1
            print(f"MISMATCH: C {got and got[:2]} walk {want} board {board} hand {hand} "
                  f"crossings_new_tiles_only={cnto} double_main_only={dmo} max_tiles={max_tiles}")
        done += 1
    print(f"{done} cases ({with_play} with a play, {exhaustive} also against the exhaustive listing), "
          f"{bad} mismatches; CPU: C {c_time:.2f} s, walk {w_time:.1f} s ({w_time / max(c_time, 1e-9):.0f}x)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
