"""How soon the first prompt comes with voice and without (issue 24 §4).

`companion play GAME --players Marie --bots 1 --speech text` is started as a user starts it,
once without voice and once with `--voice-input FILE` (a recording of « status » by espeak-ng),
and the time from the start of the process to the first prompt printed (« Your turn, Marie. »)
is measured, `--runs` times each, alternately. Before issue 24 the listener built its first
grammar before the table loop started (2kissa10: 2.4 s with voice against 0.3 s without);
now the core tells the listener what is sayable as an output and the grammar is built in the
listener's thread while the opening is said. Prints the medians and the ratio voice/without.

Run: nice .venv/bin/python bench/voice_first_prompt.py [--game kissa] [--runs 5]
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

PROMPT = "Your turn, Marie."


def first_prompt(game: str, voice: Path | None, home: Path) -> float:
    """Seconds from the process start to its first prompt on standard output."""
    cmd = [sys.executable, "-m", "companion.cli", "play", game, "--players", "Marie", "--bots", "1", "--lang", "en",
           "--speech", "text", "--seed", "3"]
    if voice is not None:
        cmd += ["--voice-input", str(voice)]
    env = {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(home)}
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert p.stdout is not None
        for line in p.stdout:
            if PROMPT in line:
                return time.perf_counter() - t0
        raise SystemExit(f"no prompt from {' '.join(cmd)}")
    finally:
        p.kill()
        p.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="kissa")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    from companion.inputs.voice import synth
    from companion.inputs.voice.sources import write_wav

    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "status.wav"
        write_wav(wav, synth.utterance("status", "en-us", 160))
        without, voice = [], []
        for i in range(args.runs):
            without.append(first_prompt(args.game, None, Path(tmp) / f"a{i}"))
            voice.append(first_prompt(args.game, wav, Path(tmp) / f"b{i}"))
    a, b = statistics.median(without), statistics.median(voice)
    print(f"{args.game}: first prompt, median of {args.runs} runs (process start -> « {PROMPT} » printed)")
    print(f"  without voice        {a:6.2f} s   {[round(x, 2) for x in without]}")
    print(f"  --voice-input FILE   {b:6.2f} s   {[round(x, 2) for x in voice]}")
    print(f"  ratio voice/without  {b / a:6.2f}")


if __name__ == "__main__":
    main()
