"""What a Kaliko player waits for, through the session core: from the line typed to the first
word said, for « coups », « indice », « meilleur » and « joue pour moi » (issue 26: never more
than the deadline + 50 ms).

Positions: mid-game positions of greedy-bot games (3-tile plays) from game seeds drawn fresh
each run (the run's seed is printed: `--seed S` replays it), 30-40 tiles down, the player to
move holding 7 tiles. Each position gets a session core, a table and the table loop with its
bot worker, as `companion play` has them; the speaker is a stand-in that notes the time of its
first `say` call (no audio: bench/speech_latency.py measures the engine). Each line is posted
to the inbox from this thread; the time is from the post to that first call (wall time: what
the player waits). « joue pour moi » asks the game's default bot, bounded by its work budget
(`bot.BUDGET` nodes, not the clock), so its wait is the budget's CPU time on this machine.
Then the same with the process held to one core (`taskset -c 0`), printed beside.

Run: /work/main/.venv/bin/python bench/kaliko_wait.py [--positions 30] [--seed S]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kaliko_best import mid_games  # noqa: E402

from companion.core import Match, Rng, find  # noqa: E402
from companion.games.kaliko import search  # noqa: E402
from companion.games.kaliko.bot import BUDGET, GreedyBot  # noqa: E402
from companion.session import Seat, SessionCore, Table, TableLoop  # noqa: E402
from companion.session.inbox import Inbox, Line  # noqa: E402
from companion.session.transcript import load  # noqa: E402

COMMANDS = ("coups", "indice", "meilleur", "joue pour moi")


class Stamp:
    """A speaker that notes when it was first called after `arm()`."""

    def __init__(self) -> None:
        self.when = 0.0
        self.done = threading.Event()

    def arm(self) -> None:
        self.done.clear()
        self.when = 0.0

    def say(self, text: str, priority: Any = None, earcon: str | None = None, lang: str | None = None) -> None:
        if text and not self.done.is_set():
            self.when = time.perf_counter()
            self.done.set()

    def interrupt(self) -> None:
        """Nothing to cut: only the time of the first word is kept."""


def waits(n: int, seed: int) -> dict[str, list[float]]:
    """For each command, the wait from the line posted to the first word, on each position."""
    entry = find("kaliko")
    _game, ui, _ = load(entry)
    got: dict[str, list[float]] = {c: [] for c in COMMANDS}
    for game_seed, match in mid_games(n, seed, ("Marie", "Paul")):
        game = match.game
        for command in COMMANDS:  # a fresh table each: « joue pour moi » plays the move
            m: Match[Any, Any] = copy.deepcopy(match)
            spk = Stamp()
            turn = m.state.turn
            seats = [Seat(p) for p in m.players]  # the other player a bot: one human, who may hear her hand
            seats[1 - turn] = Seat(m.players[1 - turn], bot=GreedyBot(game, 1 - turn, Rng(game_seed).fork(7)))
            core = SessionCore(entry.name, ui, m, seats, lang="fr")
            core.resumed = True
            default_bot = next(iter(dict(entry.spec().bots()).values()))  # as cli/runner.py
            ply = len(m.history)
            core.helper = lambda s, g=game, b=default_bot, gs=game_seed, k=ply: b(g, s, Rng(gs).fork(100 + s + k))
            table = Table(m.players, lang="fr", speaker=spk, out=lambda _line: None)
            inbox = Inbox()
            loop = TableLoop(core, table, inbox, worker=True)
            loop.start()  # says where the game stands
            runner = threading.Thread(target=loop.run, daemon=True)
            runner.start()
            spk.arm()
            t0 = time.perf_counter()
            inbox.post(Line(command, seat=turn))
            if not spk.done.wait(30):
                raise SystemExit(f"no answer to « {command} » on game seed {game_seed}")
            got[command].append(spk.when - t0)
            inbox.post(Line("quitte", seat=turn))
            inbox.post(Line("oui", seat=turn))
            runner.join(10)
            loop.close()
    return got


def summary(got: dict[str, list[float]], label: str) -> list[str]:
    limit = search.DEADLINE + 0.05
    lines = []
    for command, v in got.items():
        worst = max(v)
        bound = "" if command == "joue pour moi" else f" ({'within' if worst <= limit else 'OVER'} deadline + 50 ms)"
        lines.append(f"[{label}] « {command} »: median {statistics.median(v) * 1e3:.0f} ms, max {worst * 1e3:.0f} ms{bound}")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--seed", type=int, default=None, help="replay a run (default: a fresh seed)")
    ap.add_argument("--times-only", action="store_true", help="(internal) print the waits as JSON")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    if args.times_only:
        print(json.dumps(waits(args.positions, seed)))
        return
    print(f"Kaliko: from the line to the first word, through the session core and the table loop, on "
          f"{args.positions} fresh mid-game positions (7-tile hands), seed {seed} (--seed {seed} replays); "
          f"deadline {search.DEADLINE:.2f} s, « joue pour moi » bounded by {BUDGET} nodes; wall time")
    lines = summary(waits(args.positions, seed), "2 cores")
    other = ["[taskset -c 0] taskset not found"] * len(lines)
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", sys.executable, __file__, "--positions", str(args.positions), "--seed", str(seed), "--times-only"]
        other = summary(json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout), "taskset -c 0")
    for a, b in zip(lines, other, strict=True):
        print(a)
        print(b)


if __name__ == "__main__":
    main()
