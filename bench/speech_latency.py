"""Speech latency: from `Speaker.say()` to the first audio frame handed to the sound output.

Each engine side by side in one run, over French and English sentences of 3 to 20 words,
through the real player (priority queue, synthesis, 10 ms blocks). The output is the
recording sink (paced like a device), so the figure is that of the companion itself; a real
device adds its own buffer (about 10 to 20 ms with latency "low"). Each sentence is cut by
`interrupt()` once its first frame is out, which also measures how fast a cut is heard.

    .venv/bin/python bench/speech_latency.py                 # espeak-ng, pyttsx3, text
    .venv/bin/python bench/speech_latency.py --rounds 5 --engines espeak-ng pyttsx3

Target (issue 3): espeak-ng median <= 25 ms and p95 <= 50 ms. For engines that play by
themselves (text, speech-dispatcher) the figure is the time until the engine was asked to
speak: the floor set by the queue and the player thread.

Measured 2026-11-29 on the 2-core development VM, 5 rounds (110 sentences per engine):
espeak-ng median 1.01 ms, p95 11.1 ms, max 17 ms; pyttsx3 median 14.2 ms, p95 21.9 ms,
max 33 ms; text 0.03 ms. espeak-ng was at 8-10 ms median before spare processes.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.adapters.speaker import open_speaker  # noqa: E402
from companion.adapters.speech import UnavailableEngine, get_engine  # noqa: E402
from companion.narration import Priority  # noqa: E402

SENTENCES = {
    "fr": [
        "À toi, Marie.",
        "Paul pioche un jeton.",
        "Trois points pour Zoé.",
        "C'est au tour de Marie de lancer le dé.",
        "La tuile est posée en haut à gauche du plateau.",
        "Le domino six-quatre se place à droite, il reste deux bouts ouverts.",
        "Tu as choisi les nombres deux, cinq et neuf, ce qui fait seize en tout.",
        "La partie est finie : Marie gagne avec quarante-deux points, devant Paul qui en a trente-huit.",
        "Rangée trois : un, quatre, quatre, sept, zéro, deux, neuf, six, cinq et huit.",
        "Commande refusée : cette case est déjà prise, choisis une case vide de la colonne E.",
        "Il te reste trois jetons en main : le soleil, la lune et l'étoile, et tu peux en poser un maintenant.",
    ],
    "en": [
        "Your turn, Mary.",
        "Paul draws a token.",
        "Three points for Zoe.",
        "It is Mary's turn to roll the die.",
        "The tile is placed at the top left of the board.",
        "The six-four domino goes on the right, two open ends remain.",
        "You chose the numbers two, five and nine, which makes sixteen in all.",
        "The game is over: Mary wins with forty-two points, ahead of Paul with thirty-eight.",
        "Row three: one, four, four, seven, zero, two, nine, six, five and eight.",
        "Command refused: this cell is already taken, choose an empty cell in column E.",
        "You have three tokens left in your hand: the sun, the moon and the star, and you may play one.",
    ],
}


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def measure(engine: str, rounds: int) -> dict[str, list[float]] | str:
    try:
        get_engine(engine)
    except UnavailableEngine as exc:
        return exc.reason
    first: list[float] = []
    cuts: list[float] = []
    for lang in ("fr", "en"):
        sp = open_speaker(engine, "recording", lang)
        try:
            assert sp.engine.name == engine
            # one sentence unmeasured: imports, process caches
            sp.say(SENTENCES[lang][0], Priority.TEXT)
            sp.wait(10)
            for _ in range(rounds):
                for text in SENTENCES[lang]:
                    item = sp.say(text, Priority.TEXT)
                    rec = sp.recording.record(item)
                    deadline = time.perf_counter() + 10
                    while time.perf_counter() < deadline:
                        t = rec.first_frame if sp.engine.produces_audio else rec.started
                        if t is not None or item.done.is_set():
                            break
                        time.sleep(0.0005)
                    t = rec.first_frame if sp.engine.produces_audio else rec.started
                    if t is None:
                        continue
                    first.append((t - rec.submitted) * 1000)
                    if sp.engine.produces_audio and not item.done.is_set():
                        t_cut = time.perf_counter()
                        sp.interrupt()
                        sp.wait(5)
                        if rec.cut and rec.blocks:
                            # the last block handed to the output sounds until its end
                            t_last, n, sr = rec.blocks[-1]
                            cuts.append(max(0.0, t_last + n / sr - t_cut) * 1000)
                    sp.wait(10)
        finally:
            sp.close()
    return {"first": first, "cut": cuts}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="times each sentence is said (default 3)")
    parser.add_argument(
        "--engines", nargs="+", default=["espeak-ng", "pyttsx3", "text", "speech-dispatcher"],
        help="engines to compare",
    )
    args = parser.parse_args(argv)
    words = [len(re.findall(r"\w[\w'-]*", s)) for lang in SENTENCES.values() for s in lang]
    print(f"say() -> first audio frame at the output; {len(words)} sentences of {min(words)}-{max(words)} "
          f"words (fr, en) x {args.rounds} rounds; python {sys.version.split()[0]}")
    print(f"{'engine':<18} {'n':>4} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}   {'interrupt() -> end of the last block heard, median/max ms'}")
    for name in args.engines:
        res = measure(name, args.rounds)
        if isinstance(res, str):
            print(f"{name:<18} unavailable: {res}")
            continue
        f = res["first"]
        if not f:
            print(f"{name:<18} no measurement")
            continue
        cut = res["cut"]
        cut_s = f"{statistics.median(cut):.2f} / {max(cut):.2f}" if cut else "-"
        print(f"{name:<18} {len(f):>4} {statistics.median(f):>10.2f} {percentile(f, 95):>8.2f} "
              f"{max(f):>8.2f}   {cut_s}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
