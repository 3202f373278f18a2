"""Whole games played eyes-free through the keyboard, printed lines only (#29's closing note).

Runs the real `companion play GAME --speech text` with one human, Marie, against bots, and
reads only what it prints. Whenever Marie is prompted it types « joue pour moi » / « play
for me » (and « peu importe » / « whichever » to a question); at the end « quitte », « oui ».
Prints each game's transcript to a file and, per round (from Marie's line to her next
prompt), the tokens printed, every whitespace-separated token counted (speaker tags too).

Run: .venv/bin/python bench/eyes_free_games.py OUTDIR [terse|normal] [langs...]
"""

from __future__ import annotations

import os
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

GAMES = {"kissa": 1, "kikoi": 2, "goodfortune": 1, "kaliko": 1}  # bots beside Marie
WORDS = {"fr": ("joue pour moi", "peu importe", "quitte", "oui"), "en": ("play for me", "whichever", "quit", "yes")}
# Marie's prompt, in every verbosity and language (the line that asks her to act)
PROMPT = re.compile(r"^(À toi, Marie|Your (turn|push), Marie|Marie( \?|\?|\.)$|Marie, )")
QUESTION = re.compile(r"(\?|Dis la case|peu importe|whichever)")
OVER = re.compile(r"(« quitte » pour partir|“quit” to leave)")


def play(game: str, lang: str, verbosity: str, seed: int, out: Path) -> list[int]:
    env = {**os.environ, "COMPANION_SPEECH": "text"}
    home = tempfile.mkdtemp(prefix="eyesfree-")
    env.update(HOME=home, XDG_DATA_HOME=f"{home}/data", XDG_CONFIG_HOME=f"{home}/config")
    bot = ["--bot", "greedy"] if game == "goodfortune" else []  # deterministic (no time cap)
    cmd = [str(Path(sys.executable).parent / "companion"), "play", game, "--players", "Marie", "--bots",
           str(GAMES[game]), "--seed", str(seed), "--lang", lang, "--verbosity", verbosity, *bot]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=env, bufsize=1)
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=lambda: ([lines.put(x.rstrip("\n")) for x in proc.stdout], lines.put(None)),
                     daemon=True).start()
    autoplay, any_, quit_, yes = WORDS[lang]
    transcript: list[str] = []
    rounds: list[int] = []
    current: list[str] | None = None

    def send(text: str) -> None:
        transcript.append(f"> {text}")
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    over = False
    while True:
        try:
            line = lines.get(timeout=60)
        except queue.Empty:  # nothing printed for a minute: a prompt this script does not know
            transcript.append("(no prompt recognised: stopped)")
            proc.kill()
            break
        if line is None:
            break
        transcript.append(line)
        if current is not None:
            current.append(line)
        if OVER.search(line) and not over:
            over = True
            if current is not None:
                rounds.append(-sum(len(x.split()) for x in current))  # the end: negative marks it
            current = None
            send(quit_)
            send(yes)
            continue
        if over:
            continue
        if PROMPT.match(line) or (line.startswith("[Marie] ") and QUESTION.search(line) and "Quel" in line):
            # wait for the rest of the batch before answering
            time.sleep(0.2)
            while not lines.empty():
                extra = lines.get()
                if extra is None:
                    break
                transcript.append(extra)
                if current is not None:
                    current.append(extra)
            if current is not None:
                rounds.append(sum(len(x.split()) for x in current))
            current = []
            send(any_ if "Quel" in line or "Which" in line else autoplay)
    proc.wait(timeout=30)
    out.write_text("\n".join(transcript) + "\n", encoding="utf-8")
    return rounds


def main(outdir: Path, verbosity: str, langs: list[str]) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        for lang in langs:
            t0 = time.perf_counter()
            rounds = play(game, lang, verbosity, 3, outdir / f"{game}-{lang}-{verbosity}.txt")
            routine = [r for r in rounds if r >= 0]
            end = [-r for r in rounds if r < 0]
            print(f"{game:12} {lang} {verbosity:7} rounds {len(routine):3}  tokens per round: median "
                  f"{statistics.median(routine):g}, max {max(routine)}; the end {end[0] if end else '-'}; "
                  f"all: {routine}  ({time.perf_counter() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "terse", sys.argv[3:] or ["fr", "en"])
