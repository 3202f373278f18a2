"""The answer to a yes/no question, heard with the answer's own grammar (issue 30: French
never heard « oui » at 0.6 with the game's grammar, so no move heard with doubt was ever played).

While a read-back or the quit question waits, the recogniser hears `answer_phrases(lang)`
(yes, no, undo, repeat words). Said into it: every yes word (what must pass), and what a
player may say instead — « non », « annule », « répète », the other shared words, moves of
the four games, sentences that are no command (what must never pass as a « oui »: a wrong
« oui » plays a misheard move). Fitted on the voices the benchmarks fit on (`FIT`), the
confidence is a logistic of the recogniser's six features fitted on the lines heard as « yes »
there, its bias lowered until every wrong « yes » stays `MARGIN` (in logit) under the session's
0.6 (`ANSWER_CONFIDENCE`). Reported on the held-out voices (`HELD_OUT`:
espeak-ng French variants no benchmark fits on — the only other French voices here), clean
and in six-talker babble at 10 dB, with the game's grammar beside it (as before).

Run: nice .venv/bin/python bench/voice_answers.py [--lang fr] [--rates 140,170] [--no-noise]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.inputs.voice import synth  # noqa: E402
from companion.inputs.voice.recognizer import (  # noqa: E402
    ANSWER_CONFIDENCE,
    SphinxRecognizer,
    answer_phrases,
)
from companion.inputs.voice.sayable import sayable_now  # noqa: E402
from companion.language.sayable import shared_phrases  # noqa: E402

FIT = {"fr": synth.FR_VOICES, "en": synth.EN_VOICES}
#: fr-ch is left out: espeak-ng says these words with the very samples of fr (a fitting voice)
HELD_OUT = {"fr": ("fr+klatt", "fr+Andy", "fr+f5"), "en": ("flite:slt", "flite:kal16", "flite:awb", "flite:rms")}
TALK = {"fr": ["quelle heure est il", "passe moi le sel", "il pleut dehors", "bonne nuit tout le monde", "banane",
               "où sont mes lunettes", "c'est drôle", "attends une seconde", "qui veut du thé", "ouvre la fenêtre",
               "voilà", "ouais bon", "bof", "euh", "il y a du bruit"],
        "en": ["what time is it", "pass the salt please", "banana", "this is fun", "hold on a second", "we", "well"]}
MARGIN = 0.5  # logit between the fitting voices' worst wrong « yes » and 0.6


def moves(lang: str, per_game: int = 3) -> list[str]:
    """A few listed moves of each game at its start (what a player may say instead of « oui »)."""
    from tests.voice.whole_game import plan_session

    out = []
    for game in ("goodfortune", "kikoi", "kaliko", "kissa"):
        session = plan_session(game, lang, 3, 2 if game == "kikoi" else 1)
        listed = [p for p, c in sayable_now(session.ui, session.match, 0, lang).concrete if c and c.startswith("action:")]
        out += listed[:: max(1, len(listed) // per_game)][:per_game]
    return out


def logit(feats: tuple[float, ...], lang: str) -> float:
    from companion.inputs.voice.recognizer import CONFIDENCE

    weights, bias = CONFIDENCE[lang]
    return sum(w * f for w, f in zip(weights, feats, strict=True)) + bias


def score(row: tuple, model: tuple[tuple[float, ...], float]) -> float:
    weights, bias = model
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, sum(w * f for w, f in zip(weights, row[7], strict=True)) + bias))))


#: the way each feature may push (as bench/voice_accuracy.py's SIGNS): a better score, a closer
#: match up; more filler, a length mismatch down
SIGNS = (1, 1, 1, -1, -1, 1)


def calibrate(heard_yes: list[tuple]) -> tuple[list[float], float]:
    """Logistic regression of « yes was said » on the features of the lines heard as « yes »
    (wrong ones weighted 3: a wrong « oui » plays a misheard move), each weight to its sign;
    then the bias lowered until no wrong « yes » of the fitting voices reaches 0.6 + MARGIN."""
    import numpy as np

    x = np.array([r[7] for r in heard_yes], dtype=float)
    y = np.array([float(r[2]) for r in heard_yes])
    sw = np.where(y > 0, 1.0, 3.0)
    from bench.voice_accuracy import fit_logistic

    w_raw, b_raw = fit_logistic(x, y, sw, SIGNS)
    wrong = x[y == 0]
    if len(wrong):
        worst = float(np.max(wrong @ w_raw + b_raw))
        b_raw = min(b_raw, b_raw - (worst - math.log(0.6 / 0.4)) - MARGIN)
    return [float(v) for v in w_raw], float(b_raw)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lang", default="fr")
    ap.add_argument("--rates", default="140,170")
    ap.add_argument("--no-noise", action="store_true")
    ap.add_argument("--rows", help="save every row (JSON lines) to this file")
    ap.add_argument("--from", dest="from_", help="the rows of an earlier run: no decoding")
    a = ap.parse_args()
    lang = a.lang
    rates = [int(r) for r in a.rates.split(",")]
    shared = shared_phrases(lang)
    yes_words = [p for p, c in shared if c == "yes"]
    others = [p for p, c in shared if c != "yes"]
    said = [(w, True) for w in yes_words] + [(w, False) for w in others + moves(lang) + TALK[lang]]
    conditions = [("clean", None)] + ([] if a.no_noise else [("babble10", 10.0)])
    rows = []  # (voice, condition, said yes, heard yes, logit, heard, said)
    if a.from_:
        import json

        rows = [tuple(json.loads(ln)) for ln in Path(a.from_).read_text().splitlines()]
        conditions = [c for c in conditions if any(r[1] == c[0] for r in rows)]
    rec = SphinxRecognizer(lang)
    rec.set_phrases(answer_phrases(lang))
    for group in () if a.from_ else (FIT[lang], HELD_OUT[lang]):
        for voice in group:
            if not synth.available(voice):
                continue
            synth.prefetch([(t, voice, r) for t, _y in said for r in rates])
            for cond, snr in conditions:
                for i, (text, is_yes) in enumerate(said):
                    for r in rates:
                        pcm = synth.utterance(text, voice, r, snr_db=snr, seed=i, noise="babble")
                        got = rec.recognize(pcm)
                        heard_yes = got.command == "yes"
                        rows.append((voice, cond, is_yes, heard_yes, logit(got.features, lang) if got.features else -50.0,
                                     got.line, text, list(got.features or ())))
    if a.rows:
        import json

        Path(a.rows).write_text("".join(json.dumps(r) + "\n" for r in rows))
    fit = [r for r in rows if r[0] in FIT[lang]]
    w, b = calibrate([r for r in fit if r[3] and r[7]])
    print(f"{lang}: fitted on {', '.join(FIT[lang])}; held out {', '.join(HELD_OUT[lang])}; rates {rates}")
    print(f"fitted: weights {[round(x, 4) for x in w]}, bias {b:.3f} (in use: {ANSWER_CONFIDENCE.get(lang)})")
    use = ANSWER_CONFIDENCE.get(lang) or (tuple(w), b)
    for r in sorted((r for r in fit if r[3] and not r[2]), key=lambda r: -score(r, use))[:4]:
        print(f"  worst wrong « yes » (fitting voices): {r[6]!r} heard {r[5]!r} by {r[0]} {r[1]}, "
              f"confidence {score(r, use):.2f}")
    for label, voices in (("fitted", FIT[lang]), ("held out", HELD_OUT[lang])):
        for cond, _snr in conditions:
            part = [r for r in rows if r[0] in voices and r[1] == cond]
            yes = [r for r in part if r[2]]
            sure = [r for r in yes if r[3] and score(r, use) >= 0.6]
            oui = [r for r in yes if r[6] == yes_words[0]]
            not_yes = [r for r in part if not r[2]]
            wrong_sure = [r for r in not_yes if r[3] and score(r, use) >= 0.6]
            print(f"  {label:8} {cond:8}: yes said {len(yes):3}, heard yes {sum(1 for r in yes if r[3]):3}, sure {len(sure):3} "
                  f"({100 * len(sure) / max(1, len(yes)):.0f} %; « {yes_words[0]} » alone "
                  f"{sum(1 for r in oui if r[3] and score(r, use) >= 0.6)}/{len(oui)}); "
                  f"other said {len(not_yes):3}, taken for a sure yes {len(wrong_sure)} "
                  f"({100 * len(wrong_sure) / max(1, len(not_yes)):.1f} %) {[(r[6], r[0]) for r in wrong_sure][:4]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
