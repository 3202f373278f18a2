"""The table loop with real threads: the keyboard and a second input posting at once through
one inbox, and a bot searching in a worker while the table is answered."""

import io
import itertools
import threading
import time

from companion.core import Match
from companion.inputs.keyboard import pump
from companion.narration import Verbosity
from companion.session import Seat, SessionCore, Table, TableLoop
from companion.session.core import THINK_EARCON
from companion.session.inbox import Closed, Inbox, Line
from companion.session.outputs import Cue, Say, Think
from tests.toygame import Nim, Take
from tests.toyui import NimUI, TakeOne

N = 10_000


class CheapCore:
    """A core that only notes what it was given, so the test measures the loop and inbox."""

    verbosity = Verbosity.NORMAL
    thinking = None

    def __init__(self, sources):
        self.running = True
        self.open = set(sources)
        self.seen = []

    def start(self):
        return []

    def handle(self, item):
        if isinstance(item, Line):
            self.seen.append((item.source, item.text))
        elif isinstance(item, Closed):
            self.open.discard(item.source)
            self.running = bool(self.open)
        return []


def test_two_inputs_at_once_none_lost_or_doubled_each_in_its_order():
    inbox = Inbox()
    core = CheapCore({"keyboard", "web"})
    loop = TableLoop(core, Table([]), inbox, worker=False)
    typed = io.StringIO("".join(f"k{i}\n" for i in range(N)))
    go = threading.Barrier(2)

    def keyboard():
        go.wait()
        pump(inbox, typed)

    def web():
        go.wait()
        for i in range(N):
            inbox.post(Line(f"w{i}", source="web"))
        inbox.post(Closed("web"))

    threads = [threading.Thread(target=keyboard), threading.Thread(target=web)]
    for t in threads:
        t.start()
    loop.start()
    loop.run()  # returns when both inputs are closed
    for t in threads:
        t.join(10)
    kb = [text for src, text in core.seen if src == "keyboard"]
    wb = [text for src, text in core.seen if src == "web"]
    assert kb == [f"k{i}" for i in range(N)] and wb == [f"w{i}" for i in range(N)]
    assert len(core.seen) == 2 * N
    # they really were interleaved: neither input waited for the other to finish
    first_web = next(i for i, (src, _) in enumerate(core.seen) if src == "web")
    first_kb = next(i for i, (src, _) in enumerate(core.seen) if src == "keyboard")
    assert min(first_web, first_kb) == 0 and max(first_web, first_kb) < 2 * N - 1


class SlowBot(TakeOne):
    """Takes one stone, when the test lets its search end."""

    release = threading.Semaphore(0)

    def choose(self, state):
        assert self.release.acquire(timeout=30)
        return Take(1)


class Recorder:
    def __init__(self):
        self.said = []

    def say(self, text, priority, earcon=None, lang=None):
        self.said.append((time.monotonic(), text, earcon))

    def interrupt(self):
        self.interrupted = getattr(self, "interrupted", 0) + 1  # counted: nothing plays here


def test_the_bot_searches_in_a_worker_while_the_table_is_answered():
    game = Nim(pile=7)
    seats = [Seat("Marie"), Seat("Paul", bot=SlowBot(game, 1, None))]
    core = SessionCore("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4), seats, lang="en")
    spk = Recorder()
    lines = []
    inbox = Inbox()
    batches = []
    ticks = itertools.count(0.0, 0.1)  # each tick 0.1 s later: the cue's delay without timing the test
    loop = TableLoop(core, Table(["Marie", "Paul"], lang="en", speaker=spk, out=lines.append), inbox,
                     on_outputs=batches.append, clock=lambda: next(ticks))
    loop.start()
    inbox.post(Line("take 2"))
    inbox.post(Line("take 1"))  # typed ahead: waits for the bot's move
    loop.run_until_idle(timeout=0.6)  # the search is under way, and goes on
    deadline = time.monotonic() + 20
    while not any(isinstance(o, Cue) for b in batches for o in b) and time.monotonic() < deadline:
        loop.run_until_idle(timeout=0.2)  # (a loaded machine ticks less often)
    assert core.thinking is not None and len(core.match.history) == 1
    assert [o for b in batches for o in b if isinstance(o, Cue)] == [Cue(None, THINK_EARCON)]  # « je réfléchis »
    inbox.post(Line("status"))
    loop.run_until_idle(timeout=0.2)
    assert "[Marie] 5 stones left" in lines and core.thinking is not None  # answered while the bot searches
    SlowBot.release.release()
    SlowBot.release.release()
    loop.run_until_idle(timeout=10)
    after = lines[lines.index("[Marie] 5 stones left") + 1:]
    assert after[:3] == ["Paul took 1, 4 left", "Your turn, Marie.", "Marie took 1, 3 left"]
    assert "Paul took 1, 2 left" in lines and core.match.state.pile == 2
    assert core.thinking is None
    assert ("", THINK_EARCON) in [(t, e) for _, t, e in spk.said]
    thinks = [o for b in batches for o in b if isinstance(o, Think)]
    assert [t.ply for t in thinks] == [1, 3]
    assert any(isinstance(o, Say) for b in batches for o in b)
    loop.close()


def test_companion_play_logs_how_each_typed_line_was_taken(tmp_path):
    """The real command: keyboard thread, inbox, loop with its bot worker, --log. (Seed 4: Marie starts,
    so no line is typed while a bot searches before her first move: the order is fixed.)"""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    log = tmp_path / "log.jsonl"
    env = {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}
    r = subprocess.run([str(Path(sys.executable).parent / "companion"), "play", "kissa", "--players", "Marie",
                        "--bots", "1", "--seed", "4", "--lang", "en", "--log", str(log)],
                       input="status\nblah blah\njoue pour moi\nrepeat\nquit\n", capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    inputs = [e for e in map(json.loads, log.read_text().splitlines()) if e["type"] == "input"]
    assert [(e["text"], e["outcome"], e["command"]) for e in inputs] == [
        ("status", "answer", "status"), ("blah blah", "not_understood", None), ("joue pour moi", "act", "autoplay"),
        ("repeat", "shared", "repeat"), ("quit", "shared", "quit")]
    assert all(e["source"] == "keyboard" and e["seat"] == 0 for e in inputs)
    assert "Game saved" in r.stdout
