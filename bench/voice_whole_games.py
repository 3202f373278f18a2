"""Whole games by voice alone (issue 30), every game in French and in English: the seeded
game's human moves planned in-process (one listener for the whole game, as the recording is
heard), said by held-out voices (English: flite; French: the espeak-ng variants fr+klatt and
fr+f5, which no confidence is fitted on), joined with 2 s of quiet room and played through
`companion play GAME --players Human --bots N --seed 3 --voice-input FILE` (read as fast as possible),
no keyboard line. Prints, per game and language, whether the game reached its end, the
utterances, moves, read-backs and misheard lines (those carried out without a read-back
apart), and what is known to fail (`tests/voice/test_voice_whole_games.py` plays them in the
suite, 2kissa10 in English in `tests/voice/test_voice_game.py`). `--realtime` reads the
recording at real speed (`--voice-realtime`), as a microphone gives it.

Run: nice .venv/bin/python bench/voice_whole_games.py [--games kissa,kaliko] [--langs en,fr]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.voice.test_voice_whole_games import CASES, KNOWN, whole_game_by_voice  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", default=",".join(CASES))
    ap.add_argument("--langs", default="en,fr")
    ap.add_argument("--realtime", action="store_true", help="--voice-realtime: the recording at real speed")
    args = ap.parse_args()
    for game in args.games.split(","):
        for lang in args.langs.split(","):
            t0 = time.monotonic()
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    run, tally = whole_game_by_voice(game, lang, Path(tmp), realtime=args.realtime)
                except BaseException as exc:  # a skip or a failed assertion: say it and go on
                    print(f"{game} {lang}: did not run: {exc!r:.300}")
                    continue
            end = "reached its end" if run.ended and run.returncode == 0 else "did NOT end"
            print(f"{game} {lang}: {end} in {time.monotonic() - t0:.0f} s ({tally['seconds']} s played); "
                  f"{tally['utterances']} utterances, {tally['moves']} moves, {tally['read_backs']} read back, "
                  f"{len(tally['misheard'])} misheard, {len(tally['played_misheard'])} of them carried out unasked")
            print(f"  {tally}")
            if (game, lang) in KNOWN:
                print(f"  known: {KNOWN[game, lang]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
