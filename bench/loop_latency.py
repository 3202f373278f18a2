"""The table loop's cost: what the inbox and the loop's thread add before the first speech
call, and how fast « répète » is answered while a bot searches a 7-tile Kaliko hand.

1. Input to first speech call. A 2kissa10 game with two human seats; « état » is typed
   N times. Baseline: the same core and table called directly on this thread (core.handle,
   then table.deliver up to the speaker's `say`). Loop: the line is posted to the inbox from
   this thread, the table loop drains it in its own thread. Both measure from the moment the
   line exists to the first `say` call; the difference is what the loop adds.
2. « répète » during a search. Kaliko positions from seeded greedy games (30-40 tiles down,
   the bot to move holding 7 tiles); the bot is `greedy_full` (the exhaustive 1-7 tile
   search) and runs in the loop's worker thread. While it searches, « répète » is posted
   every 50 ms; each answer time is from the post to the repeated line's `say` call.

The speaker is a stand-in that records the time of each call (no audio): this measures the
loop, not the speech engine (bench/speech_latency.py does). Prints medians and p95.
Run: .venv/bin/python bench/loop_latency.py [inputs] [positions]
"""

from __future__ import annotations

import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core import Match, Rng, find  # noqa: E402
from companion.session import Seat, SessionCore, Table, TableLoop  # noqa: E402
from companion.session.inbox import Inbox, Line  # noqa: E402
from companion.session.transcript import load  # noqa: E402


class Stamp:
    """A speaker that notes when it was first called after `arm()`."""

    def __init__(self) -> None:
        self.when = 0.0
        self.texts: list[str] = []
        self.done = threading.Event()
        self.want: str | None = None

    def arm(self, want: str | None = None) -> None:
        self.done.clear()
        self.want = want
        self.when = 0.0

    def say(self, text: str, priority: Any = None, earcon: str | None = None, lang: str | None = None) -> None:
        if not self.done.is_set() and (self.want is None or text == self.want):
            self.when = time.perf_counter()
            self.done.set()

    def interrupt(self) -> None:
        self.interrupted = getattr(self, "interrupted", 0) + 1  # counted, nothing to silence


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def input_to_speech(n: int) -> tuple[list[float], list[float]]:
    entry = find("2kissa10")
    game, ui, _ = load(entry)
    names = ["Anne", "Alain"]
    spk = Stamp()
    core = SessionCore(entry.name, ui, Match(game, names, 7), [Seat(x) for x in names], lang="fr")
    table = Table(names, lang="fr", speaker=spk, out=lambda _line: None)
    inbox = Inbox()
    loop = TableLoop(core, table, inbox, worker=False)
    loop.start()
    base = []
    for _ in range(n):  # baseline: the core and the table called on this thread
        spk.arm()
        t0 = time.perf_counter()
        table.deliver(core.handle(Line("état")))
        base.append(spk.when - t0)
    looped = []
    runner = threading.Thread(target=loop.run, daemon=True)
    runner.start()
    for _ in range(n):
        spk.arm()
        t0 = time.perf_counter()
        inbox.post(Line("état"))
        spk.done.wait(5)
        looped.append(spk.when - t0)
    inbox.post(Line("quitte"))
    runner.join(5)
    return base, looped


def kaliko_positions(n: int) -> list[tuple[int, Match[Any, Any], Any]]:
    from companion.games.kaliko.bot import GreedyBot

    out = []
    seed = 0
    while len(out) < n and seed < 20 * n:
        game, ui, _ = load(find("kaliko"))
        match: Match[Any, Any] = Match(game, ["Marie", "Robot"], seed)
        root = Rng(seed)
        bots = [GreedyBot(game, s, root.fork(s + 1), max_tiles=3) for s in range(2)]
        for _ in range(200):
            if match.over or len(match.state.board) >= 30:
                break
            seat = match.current
            assert seat is not None
            match.play(seat, bots[seat].choose(match.state))
        s = match.state
        if not match.over and len(s.board) <= 40 and len(s.hands[s.turn]) == 7:
            out.append((seed, match, ui))
        seed += 1
    return out


def repeat_while_searching(n: int) -> tuple[list[float], list[float]]:
    from companion.games.kaliko.bot import FullGreedyBot

    entry = find("kaliko")
    answers: list[float] = []
    searches: list[float] = []
    for seed, match, ui in kaliko_positions(n):
        game = match.game
        bot_seat = match.state.turn
        seats = [Seat(name) for name in match.players]
        seats[bot_seat] = Seat(match.players[bot_seat], bot=FullGreedyBot(game, bot_seat, Rng(seed).fork(9)))
        spk = Stamp()
        lines: list[str] = []
        core = SessionCore(entry.name, ui, match, seats, lang="fr")
        core.resumed = True
        table = Table(match.players, lang="fr", speaker=spk, out=lines.append)
        inbox = Inbox()
        loop = TableLoop(core, table, inbox, worker=True)
        runner = threading.Thread(target=loop.run, daemon=True)
        t_search = time.perf_counter()
        loop.start()  # says where the game stands, then the bot's search begins in the worker
        runner.start()
        while core.thinking is not None:
            spk.arm()
            t0 = time.perf_counter()
            inbox.post(Line("répète", seat=1 - bot_seat))
            spk.done.wait(5)
            if core.thinking is not None and spk.when:
                answers.append(spk.when - t0)
            time.sleep(0.05)
        searches.append(time.perf_counter() - t_search)
        inbox.post(Line("quitte", seat=1 - bot_seat))
        runner.join(10)
        loop.close()
    return answers, searches


def main(n: int = 2000, positions: int = 4) -> None:
    base, looped = input_to_speech(n)
    mb, ml = statistics.median(base), statistics.median(looped)
    print(f"Input to first speech call, « état » in 2kissa10, {n} inputs each:")
    print(f"  core called directly: median {mb * 1e3:.3f} ms, p95 {pct(base, 95) * 1e3:.3f} ms")
    print(f"  through inbox + loop: median {ml * 1e3:.3f} ms, p95 {pct(looped, 95) * 1e3:.3f} ms")
    print(f"  the loop adds: median {(ml - mb) * 1e3:.3f} ms, p95 {(pct(looped, 95) - pct(base, 95)) * 1e3:.3f} ms")
    answers, searches = repeat_while_searching(positions)
    print(f"« répète » while greedy_full searches a 7-tile Kaliko hand ({len(searches)} searches, "
          f"median search {statistics.median(searches):.2f} s, max {max(searches):.2f} s):")
    if answers:
        print(f"  answer time: median {statistics.median(answers) * 1e3:.2f} ms, p95 {pct(answers, 95) * 1e3:.2f} ms, "
              f"max {max(answers) * 1e3:.2f} ms over {len(answers)} repeats")
    else:
        print("  no repeat landed during a search (searches too short)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, int(sys.argv[2]) if len(sys.argv) > 2 else 4)
