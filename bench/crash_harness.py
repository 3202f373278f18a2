"""Kill the companion at random moments and count what is lost (issue #16).

Three kinds of kill -9, at a uniformly random moment:

* play:    `companion play goodfortune` with a human asking « joue pour moi » over and over
           (journal writes, announced markers, narration); then `companion resume` must work.
           Moves lost = the moves durable or announced before the kill that the resumed game
           does not have. Unresumable = resume fails or prints a traceback.
* repair:  a process repairing damaged saves again and again (write beside, fsync, keep the
           .damaged copy, rename). After the kill the save must be whole and the original bytes
           must still exist (the save itself or a .damaged copy).
* profile: a process saving a speech profile again and again; after the kill the profile must
           be complete JSON, never empty or half written.

(The token reader's tag pairings belong to the reader's issue; they are not written yet.)

Run: .venv/bin/python bench/crash_harness.py [kills=100] [seed=1]
Prints the counts per kind and the totals (targets: 0 moves lost, 0 unresumable, 0 broken).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.saves import journal as jr  # noqa: E402

BIN = Path(sys.executable).parent / "companion"


def env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp / "data"),
            "XDG_CONFIG_HOME": str(tmp / "config"), "HOME": str(tmp)}


def durable(path: Path) -> tuple[int, int]:
    """(moves in the save, moves marked announced) as the bytes on disk say, tolerantly."""
    try:
        s = jr.scan(path.read_bytes(), path)
    except (OSError, jr.JournalError):
        return 0, 0
    recs = [r for line, r in s.records if s.stop is None or line < s.stop]
    c = jr.contents(recs)
    return len(c.actions), c.announced or 0


def kill_play(tmp: Path, rnd: random.Random) -> dict[str, int]:
    path = tmp / "game.jsonl"
    proc = subprocess.Popen([str(BIN), "play", "goodfortune", "--players", "Marie", "--bots", "1", "--seed",
                             str(rnd.randrange(1000)), "--lang", "fr", "--journal", str(path)],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=env(tmp))
    assert proc.stdin is not None
    deadline = time.monotonic() + rnd.uniform(0.3, 3.0)
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            proc.stdin.write(b"joue pour moi\n")
            proc.stdin.flush()
            time.sleep(rnd.uniform(0.0, 0.05))
    except BrokenPipeError:
        print("  (the companion ended before it was killed: its stdin closed)", file=sys.stderr)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    moves, announced = durable(path)
    if not path.exists():
        return {"kills": 1, "lost": 0, "unresumable": 0, "moves": 0}
    r = subprocess.run([str(BIN), "resume", str(path), "--lang", "fr"], input="quitte\n", capture_output=True,
                       text=True, env=env(tmp), timeout=120)
    finished = "déjà finie" in r.stderr
    unresumable = int((r.returncode != 0 and not finished) or "Traceback" in r.stderr)
    kept = len(jr.read(path).actions) if not unresumable else 0
    lost = max(0, max(moves, announced) - kept) if not finished else 0
    return {"kills": 1, "lost": lost, "unresumable": unresumable, "moves": moves}


REPAIR_CHILD = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from companion.saves import journal as jr
path = Path({path!r})
n = 0
while True:
    with open(path, 'ab') as fh:  # damaged again: a line of garbage at the end
        fh.write(b'garbage ' + str(n).encode() + b'\\n')
    jr.open_resume(path).settle().close()
    n += 1
"""


def kill_repair(tmp: Path, rnd: random.Random) -> dict[str, int]:
    path = tmp / "save.jsonl"
    start = {"game": "kissa", "options": {}, "players": ["A", "B"], "seats": [None, None], "seed": 1, "lang": "fr"}
    with jr.Journal.create(path, start) as j:
        for i in range(20):
            j.action(i % 2, {"type": "declare"})
    moves = 20
    proc = subprocess.Popen([sys.executable, "-c", REPAIR_CHILD.format(root=str(ROOT), path=str(path))],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(rnd.uniform(0.05, 1.0))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    broken = 0
    try:
        opened = jr.open_resume(path)  # what a resume would do now
        opened.settle().close()
        if len(jr.read(path).actions) != moves or list(path.parent.glob(".*.tmp")):
            broken = 1
    except (jr.JournalError, OSError):
        broken = 1
    return {"kills": 1, "broken": broken, "lost": 0 if not broken else moves}


PROFILE_CHILD = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from companion.outputs.profile import Profile
p = Profile(name="marie", path=Path({path!r}))
n = 0
while True:
    p.rate = 100 + n % 300
    p.voice = "v" * (n % 50)
    p.save()
    n += 1
"""


def kill_profile(tmp: Path, rnd: random.Random) -> dict[str, int]:
    path = tmp / "marie.json"
    proc = subprocess.Popen([sys.executable, "-c", PROFILE_CHILD.format(root=str(ROOT), path=str(path))],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(rnd.uniform(0.3, 1.5))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    broken = 0
    if not path.exists():
        return {"kills": 1, "broken": 0, "before_first_save": 1}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        broken = int(not isinstance(data, dict) or "rate" not in data)
    except (OSError, ValueError):
        broken = 1
    return {"kills": 1, "broken": broken}


def main() -> int:
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    plan = {"play": kills * 2 // 5, "repair": kills * 3 // 10}
    plan["profile"] = kills - plan["play"] - plan["repair"]
    fns = {"play": kill_play, "repair": kill_repair, "profile": kill_profile}
    totals: dict[str, dict[str, int]] = {}
    t0 = time.monotonic()
    for kind, n in plan.items():
        agg: dict[str, int] = {}
        for _ in range(n):
            with tempfile.TemporaryDirectory(prefix=f"crash-{kind}-") as tmp:
                for k, v in fns[kind](Path(tmp), rnd).items():
                    agg[k] = agg.get(k, 0) + v
        totals[kind] = agg
        print(f"{kind:8s} " + ", ".join(f"{k} {v}" for k, v in agg.items()), flush=True)
    lost = sum(t.get("lost", 0) for t in totals.values())
    unresumable = sum(t.get("unresumable", 0) for t in totals.values())
    broken = sum(t.get("broken", 0) for t in totals.values())
    print(f"total: {kills} kills in {time.monotonic() - t0:.0f} s: {lost} moves lost, {unresumable} games unresumable, "
          f"{broken} files broken (targets: 0, 0, 0)")
    return 0 if lost == unresumable == broken == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
