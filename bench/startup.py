"""Start-up and memory on a small machine (target: a Raspberry Pi).

Prints, each as the median of several runs, side by side with a bare `python -c pass`:
  * the time to answer `companion --help` (target < 300 ms);
  * the time until a new game is ready for its first command (target < 1 s): from the
    process start to the printed turn prompt of the first human player;
  * the peak memory (max RSS) of a whole 4-player bot game with speech written to a WAV
    file (target < 150 MB).
Run: .venv/bin/python bench/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
COMPANION = [str(BIN / "companion")]
ENV = {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": tempfile.mkdtemp()}


def timed(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENV)
    return time.perf_counter() - t0


def ready_time(game: str) -> float:
    """Seconds from launch until the game has answered its first command (`help`).

    The command is typed at once, as an impatient player would; the clock stops when the
    answer's first line ("Always possible: ...") is printed.
    """
    t0 = time.perf_counter()
    bots = "2" if game == "kikoi" else "1"
    p = subprocess.Popen(
        [*COMPANION, "play", game, "--players", "Marie", "--bots", bots, "--seed", "3", "--lang", "en",
         "--speech", "none"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=ENV,
    )
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write("Marie: help\nquit\n")
    p.stdin.flush()
    elapsed = None
    for line in p.stdout:
        if elapsed is None and "Always possible" in line:
            elapsed = time.perf_counter() - t0
    p.wait(timeout=60)
    if elapsed is None:
        raise RuntimeError("the game never answered `help`")
    return elapsed


def peak_rss_mb(cmd: list[str]) -> float:
    """Max RSS of one child process, in MB (a fresh interpreter per measurement)."""
    code = (
        "import resource, subprocess, sys;"
        f"subprocess.run({cmd!r}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, check=True)
    return int(out.stdout.strip()) / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    base = statistics.median(timed([sys.executable, "-c", "pass"]) for _ in range(args.runs))
    helps = statistics.median(timed([*COMPANION, "--help"]) for _ in range(args.runs))
    print(f"python -c pass            median {base * 1000:7.1f} ms   (baseline)")
    print(f"companion --help          median {helps * 1000:7.1f} ms   ratio {helps / base:4.1f}x   target < 300 ms")
    for game in ("kissa", "goodfortune", "kikoi", "kaliko"):
        try:
            ready = statistics.median(ready_time(game) for _ in range(max(3, args.runs // 2)))
        except Exception as exc:  # noqa: BLE001 - report and go on with the other games
            print(f"ready for first command   {game:12s} failed: {exc}")
            continue
        print(f"ready for first command   {game:12s} median {ready * 1000:7.1f} ms   target < 1000 ms")
    with tempfile.TemporaryDirectory() as d:
        wav = Path(d) / "game.wav"
        cmd = [*COMPANION, "play", "kikoi", "--bots", "4", "--seed", "5", "--speech", "espeak-ng", "--out", f"file:{wav}"]
        rss = peak_rss_mb(cmd)
        size = wav.stat().st_size / 1e6 if wav.exists() else 0.0
        base_rss = peak_rss_mb([sys.executable, "-c", "pass"])
    print(f"peak memory, 4-player bot game with speech to a file: {rss:6.1f} MB "
          f"(bare python {base_rss:.1f} MB; WAV {size:.1f} MB)   target < 150 MB")


if __name__ == "__main__":
    main()
