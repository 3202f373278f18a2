"""Voice commands on labelled synthetic speech, and real talk that is no command.

For each game, states along a seeded bot game give what is sayable; utterances of those
phrases (shared words and moves), in several voices and rates, clean, with white noise and
with six-talker babble at 10 and 5 dB SNR, go through the real recogniser (pocketsphinx +
grammar). The voices are of three synthesizer families (Debian's espeak-ng, flite and
Festival); the confidence is fitted on espeak-ng only, and every figure is printed apart
for the fitted voices and for the held-out ones. French has only espeak-ng (no other French
synthesizer in Debian main or PyPI): its held-out voices are espeak-ng variants never used
for fitting (fr-ch, fr+klatt, fr+Andy, fr+f5). Debian's pocketsphinx-testdata recordings of
real people (cards, goforward, numbers, something, tidigits, librivox), none of them a
command, are decoded through the same path with the grammar of every state: the rate at
which real talk is taken as a command. Prints:

* exact-line accuracy, clean and noisy, per game and for the shared commands;
* confidence: how often a wrong line is taken without read-back (confidence >= threshold,
  the line is an action and not the one said), and how often a right line is read back;
  with `--calibrate`, the logistic weights fitted on these features (the ones in
  companion/inputs/voice/recognizer.py come from such a run) and a threshold table;
* out-of-grammar speech (sentences that are no command): how often it is taken as a command;
* latency through the Listener (WAV source at full speed): VAD decision -> line in the
  inbox (median), and last voiced sample -> line (median);
* peak memory of the real `companion play GAME --voice-input` for each game (VmHWM);
* the French fallback: French phrases, French espeak-ng voices, English acoustic model with
  the French pronunciations mapped to its phones.

Utterances are fed 30 ms at a time (`begin`, `feed`, `finish`), as the listener does; with
`--compare K`, K utterances per game are also decoded with the grammar as before
2026-12-01 (pocketsphinx's own compile of the JSGF text), and both are printed with their
ratio, with the time each takes to compile a state's grammar. The grammar is the whole of
what is sayable, as in play (`--limit N`: the shared words and N listed moves only, as the
figures before 2026-12-01 were measured). `--calibrate` fits the confidence on the voices FIT_VOICES and the even-numbered
out-of-grammar sentences and prints threshold tables on the others; `--rows FILE` saves
every result with its features, `--fit-from FILE` refits from such a file without decoding.

Run: nice .venv/bin/python bench/voice_accuracy.py [--n 300] [--calibrate] [--compare 10] [--lang en,fr]
     [--limit N] [--games ...] [--rows FILE] [--fit-from FILE] [--conditions clean,babble10]
     [--no-held-out] [--no-real] [--no-latency] [--no-memory] [--filler 0.05|none] [--rival-margin M] [--sampled-legal-margin M]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from companion.core import Match, Rng, find  # noqa: E402
from companion.inputs.voice import synth  # noqa: E402
from companion.inputs.voice.grammar import Phrase as Said  # noqa: E402
from companion.inputs.voice.recognizer import CONFIDENCE, SphinxRecognizer  # noqa: E402
from companion.inputs.voice.sayable import sayable_now, shared_commands  # noqa: E402
from companion.session.transcript import load  # noqa: E402

GAMES = {"kikoi": ["Chloé", "Paul", "Zoé"], "goodfortune": ["Chloé", "Paul"], "kaliko": ["Chloé", "Paul"],
         "kissa": ["Chloé", "Paul"]}
SHARED_CMDS = ("help", "repeat", "status", "undo", "yes", "no")
OUT_OF_GRAMMAR = {
    "en": ["what time is it", "pass the salt please", "I think it is raining", "good night everybody", "banana",
           "where did I put my glasses", "this is fun", "hold on a second", "who wants tea", "open the window",
           "my turn already", "can you hear me", "let me think", "seven", "that was close", "sorry",
           "oh no not again", "the cat is hungry", "how many left", "wait for me"],
    "fr": ["quelle heure est il", "passe moi le sel", "il pleut dehors", "bonne nuit tout le monde", "banane",
           "où sont mes lunettes", "c'est drôle", "attends une seconde", "qui veut du thé", "ouvre la fenêtre"],
}
THRESHOLD = 0.6


def states(game_name: str, n_states: int = 4, seed: int = 5) -> list[tuple[Any, Any, int]]:
    """(ui, match, seat) at a few points of a bot game, always a seat to move."""
    entry = find(game_name)
    game, ui, bots = load(entry)
    names = GAMES[game_name]
    match = Match(game, names, seed)
    bot_cls = next(iter(bots.values()))
    players = [bot_cls(game, i, Rng(seed).fork(i + 1)) for i in range(len(names))]
    for p in players:
        p.observe([e for e in match.setup_events if e.visible_to(p.seat)])
    out = []
    plies = 0
    while not match.over and len(out) < n_states:
        seat = match.current
        assert seat is not None
        if plies % 3 == 0:
            snap = Match(game, names, seed)
            snap.replay(match.actions_json())
            out.append((ui, snap, seat))
        action = players[seat].choose(match.state)
        events = match.play(seat, action)
        for p in players:
            p.observe([e for e in events if e.visible_to(p.seat)])
        plies += 1
    return out


def decode(rec: SphinxRecognizer, pcm: np.ndarray) -> tuple[Any, float]:
    """As the listener does: `begin`, `feed` 30 ms at a time, `finish`; returns the result
    and the time `finish` took (what is left to do once the VAD has decided), in ms."""
    rec.begin()
    for k in range(0, len(pcm), 480):
        rec.feed(pcm[k:k + 480])
    t = time.perf_counter()
    r = rec.finish()
    return r, (time.perf_counter() - t) * 1000


#: (lang, game) -> seconds each `set_phrases` took: the grammar in use, and the JSGF of before
COMPILE: dict[tuple[str, str], list[float]] = {}
BASE_COMPILE: dict[tuple[str, str], list[float]] = {}


#: the noise suppressor the sound goes through before the recogniser (`--suppress`), and the
#: room before each utterance it is given first, to learn the noise from (then cut off)
SUPPRESS = {"name": "none"}
WARM_S = 1.0


def make_utterance(text: str, voice: str, rate: int, snr: float | None, seed: int, kind: str) -> np.ndarray:
    if SUPPRESS["name"] == "none":
        return synth.utterance(text, voice, rate, snr, seed=seed, noise=kind)
    from companion.inputs.voice.suppress import make

    pcm = synth.utterance(text, voice, rate, snr, pad=0.3 + WARM_S, seed=seed, noise=kind)
    out = make(SUPPRESS["name"]).process(pcm)
    k = int(WARM_S * synth.RATE)
    return out[k:len(out) - k]


#: noise conditions: (kind, SNR in dB); None is clean
CONDITIONS = {"clean": (None, None), "white10": ("white", 10.0), "white5": ("white", 5.0),
              "babble10": ("babble", 10.0), "babble5": ("babble", 5.0)}


def voices_of(lang: str, held_out: bool = True) -> tuple[list[str], list[str]]:
    """(fitted, held out): the confidence is fitted on espeak-ng voices only; flite and
    Festival (English) and espeak-ng French variants never fitted on (French) are held out."""
    if lang == "en":
        held = [v for v in (*synth.FLITE_VOICES, *synth.FESTIVAL_VOICES) if synth.available(v)] if held_out else []
        return list(synth.EN_VOICES), held
    # fr-ch says fr's samples (the same voice): not held out
    return list(synth.FR_VOICES), [v for v in synth.FR_HELD_OUT if v != "fr-ch"] if held_out else []


def run_game(rec: SphinxRecognizer, game_name: str, lang: str, n: int, rnd: random.Random,
             rows: list[dict[str, Any]], base: SphinxRecognizer | None = None, n_base: int = 0,
             limit: int | None = None, conditions: tuple[str, ...] = ("clean", "white10"),
             held_out: bool = True, whisper: Any = None, rescorer: Any = None) -> None:
    fitted, held = voices_of(lang, held_out)
    # as many utterances from held-out voices as from fitted ones
    voices = fitted + held * max(1, len(fitted) // max(1, len(held))) if held else fitted
    compile_s = COMPILE.setdefault((lang, game_name), [])
    base_compile_s = BASE_COMPILE.setdefault((lang, game_name), [])
    sts = states(game_name)
    per_state = max(1, n // len(sts))
    for k, (ui, match, seat) in enumerate(sts):
        phrases = sayable_now(ui, match, seat, lang, limit=limit)
        STATE_OF[(lang, game_name, k)] = (ui, match, seat, phrases)
        t = time.perf_counter()
        rec.set_phrases(phrases)
        compile_s.append(time.perf_counter() - t)
        if whisper is not None:
            whisper.set_phrases(phrases)
        if rescorer is not None:
            rescorer.set_phrases(phrases)
        if base is not None:
            t = time.perf_counter()
            base.set_phrases(phrases)
            base_compile_s.append(time.perf_counter() - t)
        listed = phrases.phrases()
        moves = [m for m in listed if m.command and m.command not in shared_commands(lang)]
        # a player says any legal move: when the list is a sample (2kissa10 lists 2,000 of
        # 95,000), a move drawn from it is replaced by one drawn from all the legal moves
        every = [Said(p, c) for p, c in ui.phrases(match, seat, lang, limit=10**7).concrete
                 if c.startswith("action")] if phrases.sampled else []
        shared = [m for m in listed if m.command in SHARED_CMDS]
        plan = []
        for i in range(per_state):
            # half shared words, half moves (when there are moves)
            pool = shared if (i % 2 == 0 or not moves) else moves
            m = rnd.choice(pool)
            if every and m.command and m.command.startswith("action"):
                m = rnd.choice(every)
            plan.append((m, rnd.choice(voices), rnd.choice((130, 160, 190, 220)), rnd.randrange(1 << 20)))
        oog_plan = []
        for _ in range(max(4, per_state // 5)):
            oog_i = rnd.randrange(len(OUT_OF_GRAMMAR[lang]))
            oog_plan.append((oog_i, rnd.choice(voices), rnd.choice((130, 160, 190)), rnd.choice(conditions),
                             rnd.randrange(1 << 20)))
        synth.prefetch([(m.phrase, v, r) for m, v, r, _ in plan]
                       + [(OUT_OF_GRAMMAR[lang][i], v, r) for i, v, r, _c, _s in oog_plan])
        for m, voice, rate, seed in plan:
            for cond in conditions:
                kind, snr = CONDITIONS[cond]
                pcm = make_utterance(m.phrase, voice, rate, snr, seed, kind or "white")
                t = time.perf_counter()
                r, finish_ms = decode(rec, pcm)
                row = {"game": game_name, "lang": lang, "state": k, "text": r.text, "said": m.phrase, "cmd": m.command, "line": r.line,
                       "got_cmd": r.command, "conf": r.confidence, "feat": r.features, "snr": snr, "cond": cond,
                       "shared": m.command in SHARED_CMDS, "ms": (time.perf_counter() - t) * 1000,
                       "finish_ms": finish_ms, "voice": voice, "family": synth.family(voice), "rate": rate,
                       "rival": rec.last_rival, "sampled": phrases.sampled,
                       "rival_total": getattr(rec, "last_rival_total", None),
                       "legal_rival": getattr(rec, "last_legal_rival", None),
                       "rival_edits": getattr(rec, "last_rival_edits", None),
                       "rival_words": " ".join(rec.last_rival_words or ()) or None}
                if base is not None and sum(1 for x in rows if x["game"] == game_name and "base_line" in x
                                            and x["lang"] == lang) < n_base:
                    b, row["base_ms"] = decode(base, pcm)
                    row["base_line"] = b.line
                if whisper is not None:
                    row.update(whisper_row(whisper, pcm))
                if rescorer is not None:
                    row.update(rescore_row(rescorer, r, pcm))
                rows.append(row)
        for oog_i, voice, rate, cond, seed in oog_plan:
            kind, snr = CONDITIONS[cond]
            s = OUT_OF_GRAMMAR[lang][oog_i]
            pcm = make_utterance(s, voice, rate, snr, seed, kind or "white")
            r, _ms = decode(rec, pcm)
            rows.append({"game": game_name, "lang": lang, "state": k, "text": r.text, "said": s, "oog_i": oog_i, "voice": voice,
                         "family": synth.family(voice), "cmd": None, "line": r.line, "got_cmd": r.command,
                         "conf": r.confidence, "feat": r.features, "snr": snr, "cond": cond, "shared": False,
                         "oog": True, "ms": 0, **(whisper_row(whisper, pcm) if whisper is not None else {}),
                         **(rescore_row(rescorer, r, pcm) if rescorer is not None else {})})


#: Debian's pocketsphinx-testdata: recordings of real people, none of them a command here
TESTDATA = Path("/usr/share/pocketsphinx/test/data")
REAL_TALK = ["cards/001.wav", "cards/002.wav", "cards/003.wav", "cards/004.wav", "cards/005.wav",
             "goforward.raw", "numbers.raw", "something.raw", "tidigits/dhd.2934z.raw",
             *[f"librivox/sense_and_sensibility_01_austen_64kb-0{k}.wav" for k in (870, 880, 890, 920, 930)]]


def real_recordings() -> list[tuple[str, np.ndarray]]:
    """The testdata's recordings of real talk (16 kHz, 16-bit: .raw files headerless)."""
    from companion.inputs.voice.sources import read_wav

    out = []
    for name in REAL_TALK:
        p = TESTDATA / name
        if not p.exists():
            continue
        pcm = np.fromfile(p, dtype="<i2") if p.suffix == ".raw" else read_wav(p)
        out.append((name, np.concatenate([synth.silence(0.3), pcm, synth.silence(0.3, seed=2)])))
    return out


def real_talk(rec: SphinxRecognizer, lang: str, games: list[str], rows: list[dict[str, Any]],
              conditions: tuple[str, ...], n_states: int = 1, whisper: Any = None, whisper_games: int = 2,
              rescorer: Any = None) -> None:
    """Each real recording decoded, through the same path, with the grammar of `n_states`
    states a game: none is a command, so any line taken is talk taken as a command."""
    recs = real_recordings()
    if not recs:
        return
    for g in games:
        for k, (ui, match, seat) in enumerate(states(g)[:n_states]):
            phrases = sayable_now(ui, match, seat, lang)
            STATE_OF.setdefault((lang, g, k), (ui, match, seat, phrases))
            rec.set_phrases(phrases)
            heard_by = whisper if whisper is not None and games.index(g) < whisper_games else None
            if heard_by is not None:
                heard_by.set_phrases(phrases)
            if rescorer is not None:
                rescorer.set_phrases(phrases)
            for name, pcm in recs:
                for cond in conditions:
                    if cond not in ("clean", "babble10"):
                        continue  # real recordings: clean and in babble at 10 dB only
                    kind, snr = CONDITIONS[cond]
                    x = synth.add_babble(pcm, snr, seed=len(rows)) if kind else pcm
                    r, _ms = decode(rec, x)
                    rows.append({"game": g, "lang": lang, "state": k, "text": r.text, "said": name, "voice": "real", "family": "real",
                                 "cmd": None, "line": r.line, "got_cmd": r.command, "conf": r.confidence,
                                 "feat": r.features, "snr": snr, "cond": cond, "shared": False, "real": True,
                                 "oog": True, "oog_i": 1, "ms": 0,
                                 **(whisper_row(heard_by, x) if heard_by is not None else {}),
                                 **(rescore_row(rescorer, r, x) if rescorer is not None else {})})


#: (lang, game, state index) -> (ui, match, seat, phrases): the states the rows were heard in
STATE_OF: dict[tuple[str, str, int], tuple[Any, Any, int, Any]] = {}


def through_session(row: dict[str, Any]) -> tuple[str, bool]:
    """What the session's real rules do with one heard utterance (issue 24): the line the
    listener posts for it (`Listener.line_of`: talk, a near miss, or the listed phrase and its
    typed command) handed to a `SessionCore` on a replica of its state. (outcome, whether the
    game or the session changed: a move, an undo, a bot's search for « joue pour moi »,
    verbosity, language, quit)."""
    from companion.inputs.voice.listener import Listener
    from companion.inputs.voice.recognizer import Result
    from companion.session import Seat, SessionCore
    from companion.session.inbox import Inbox
    from companion.session.outputs import InputTaken, Think, replica

    ui, match, seat, phrases = STATE_OF[(row["lang"], row["game"], row["state"])]
    listener = Listener([], None, Inbox(), lambda: phrases, segmenter=object())  # the recognise step alone
    listener._current = phrases
    line = listener.line_of(Result(row.get("text") or "", row["line"], row["got_cmd"], row["conf"]))
    if line is None:
        return "nothing", False
    core = SessionCore(row["game"], ui.probe(), replica(match), [Seat(n) for n in match.players], lang=row["lang"],
                       private_policy="table")
    core.start()
    before = (len(core.match.history), core.verbosity, core.lang)
    out = core.handle(line)
    taken = next((o for o in out if isinstance(o, InputTaken)), None)
    changed = (before != (len(core.match.history), core.verbosity, core.lang) or not core.running
               or any(isinstance(o, Think) for o in out))
    return (taken.outcome if taken is not None else "nothing"), changed


def session_report(rows: list[dict[str, Any]], lang: str) -> None:
    """Per game, through the session's real rules: the wrong-action rate (a state change the
    player did not say, carried out without read-back) over every utterance of listed phrases
    and sentences that are no command; and for real talk (pocketsphinx-testdata), how often it
    is taken as a command at once (answered or carried out), read back (a question, nothing
    done), and acted on (a state change)."""
    mine = [r for r in rows if r["lang"] == lang and (lang, r["game"], r.get("state", -1)) in STATE_OF]
    if not mine:
        return
    print(f"\n== {lang}: through the session's rules (SessionCore.handle on a replica of each state) ==")
    print(f"{'game':12s} {'wrong action (not said, no read-back)':>40s} {'real talk taken at once':>26s} "
          f"{'read back':>20s} {'acted on':>20s}")
    for g in GAMES:
        xs = [r for r in mine if r["game"] == g]
        if not xs:
            continue
        wrong = 0
        for r in xs:
            _outcome, changed = through_session(r)
            wrong += changed and r["line"] != r["said"]
        real = [r for r in xs if r.get("real")]
        taken = [through_session(r) for r in real]
        # taken at once: answered or carried out without a question (a read-back asks first)
        took = sum(o not in ("talk", "not_understood", "nothing", "confirm") for o, _c in taken)
        asked = sum(o == "confirm" for o, _c in taken)
        acted = sum(c for _o, c in taken)
        print(f"{g:12s} {pct(wrong, len(xs)):>40s} {pct(took, len(real)):>26s} {pct(asked, len(real)):>20s} "
              f"{pct(acted, len(real)):>20s}")


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f} % ({a}/{b})" if b else "   -"


def changes_state(cmd: str | None) -> bool:
    # "action": a move said through a template (2kissa10's unlisted ones), read by the game
    return bool(cmd) and (cmd.startswith("action:") or cmd in ("action", "undo", "yes", "ask", "autoplay"))


def report(rows: list[dict[str, Any]], lang: str, threshold: float) -> None:
    rows = [r for r in rows if r["lang"] == lang]
    said = [r for r in rows if not r.get("oog")]
    conds = [c for c in CONDITIONS if any(r.get("cond", "clean") == c for r in said)]
    fitted = sorted({r["voice"] for r in said if is_fit(r)})
    held = sorted({r["voice"] for r in said if not is_fit(r)})
    print(f"\n== {lang}: {len(said)} utterances of listed phrases (synthetic speech) ==")
    print(f"fitted on: {', '.join(fitted) or '-'}\nheld out:  {', '.join(held) or '-'}")
    groups = [("fitted (espeak-ng)", lambda r: is_fit(r))]
    for fam in sorted({r["family"] for r in said if not is_fit(r)}):
        groups.append((f"held out: {fam}", lambda r, fam=fam: not is_fit(r) and r["family"] == fam))
    if len(groups) > 2:
        groups.append(("held out: all", lambda r: not is_fit(r)))
    head = f"{'exact line':24s}" + "".join(f"{c:>22s}" for c in conds)
    for glabel, gsel in groups:
        print(f"\n-- {glabel} --\n{head}")
        for label, sel in [("shared words", lambda r: r["shared"]), *[(g, lambda r, g=g: r["game"] == g) for g in GAMES],
                           ("all", lambda r: True)]:
            cells = []
            for c in conds:
                xs = [r for r in said if gsel(r) and sel(r) and r.get("cond", "clean") == c]
                cells.append(pct(sum(r["line"] == r["said"] for r in xs), len(xs)))
            if any(c.strip() != "-" for c in cells):
                print(f"{label:24s}" + "".join(f"{c:>22s}" for c in cells))
    print(f"\nsafety at {threshold} (wrong state-changing line run without read-back / right ones read back):")
    for glabel, gsel in groups:
        for c in conds:
            xs = [r for r in said if gsel(r) and r.get("cond", "clean") == c]
            wrong = [r for r in xs if r["line"] is not None and r["line"] != r["said"] and changes_state(r["got_cmd"])
                     and r["conf"] >= threshold]
            right_acts = [r for r in xs if r["line"] == r["said"] and changes_state(r["cmd"])]
            rb = [r for r in right_acts if r["conf"] < threshold]
            print(f"  {glabel:22s} {c:9s} wrong run {pct(len(wrong), len(xs)):>20s}   right read back {pct(len(rb), len(right_acts)):>20s}")
    oog = [r for r in rows if r.get("oog") and not r.get("real")]
    for label, xs in [("synthetic out-of-grammar sentences", oog),
                      ("real talk (pocketsphinx-testdata), clean", [r for r in rows if r.get("real") and r["cond"] == "clean"]),
                      *[(f"real talk (pocketsphinx-testdata), {c}", [r for r in rows if r.get("real") and r["cond"] == c])
                        for c in conds if c.startswith("babble")]]:
        if xs:
            taken = [r for r in xs if r["line"] is not None and r["conf"] >= threshold]
            state = [r for r in taken if changes_state(r["got_cmd"])]
            print(f"{label} taken as a command (conf >= {threshold}): {pct(len(taken), len(xs))}, "
                  f"of which state-changing {len(state)}; any line at all {sum(r['line'] is not None for r in xs)}")
    ms = [r["ms"] for r in said]
    fin = [r["finish_ms"] for r in said]
    if not said:
        return
    print(f"recogniser time per utterance: median {statistics.median(ms):.0f} ms, 90th pct {np.percentile(ms, 90):.0f} ms; "
          f"left once it ended (finish): median {statistics.median(fin):.0f} ms, 90th pct {np.percentile(fin, 90):.0f} ms")
    both = [r for r in said if "base_line" in r]
    if both:
        a = sum(r["line"] == r["said"] for r in both)
        b = sum(r["base_line"] == r["said"] for r in both)
        fa = statistics.median(r["finish_ms"] for r in both)
        fb = statistics.median(r["base_ms"] for r in both)
        print(f"same utterances, the compact grammar (in use) against pocketsphinx's JSGF compile (before): right {a} "
              f"against {b} of {len(both)} (ratio {a / max(1, b):.2f}); finish median {fa:.0f} against {fb:.0f} ms "
              f"(ratio {fa / max(1e-9, fb):.3f})")
    for game in GAMES:
        now, before = COMPILE.get((lang, game)), BASE_COMPILE.get((lang, game))
        if now:
            line = f"grammar compile (set_phrases) {game}: median {statistics.median(now):.2f} s"
            if before:
                line += f" against {statistics.median(before):.2f} s for the JSGF (ratio {statistics.median(now) / statistics.median(before):.2f})"
            print(line)


def margin_table(rows: list[dict[str, Any]], lang: str, threshold: float) -> None:
    """For the moves of a sampled list (2kissa10): at several `recognizer.SAMPLED_LEGAL_MARGIN`
    (those at least the one in use when the rows were decoded: under it, every move was read
    back already; `--sampled-legal-margin -inf` gives them all), the moves heard as another
    line and carried out without read-back, and the right moves read back, fitted voices and
    held-out ones apart, per condition."""
    from companion.inputs.voice import recognizer

    said = [r for r in rows if r["lang"] == lang and (r.get("sampled") or recognizer.LEGAL_RIVAL_LISTED)
            and not r.get("oog") and changes_state(r["cmd"])]
    if not said:
        return
    used = recognizer.SAMPLED_LEGAL_MARGIN
    conds = [c for c in CONDITIONS if any(r["cond"] == c for r in said)]
    groups = [(f"{g} {c}", lambda r, sel=sel, c=c: sel(r) and r["cond"] == c)
              for g, sel in (("fitted", is_fit), ("held out", lambda r: not is_fit(r))) for c in conds]
    print(f"\n{lang}: moves of a sampled list (2kissa10) against their margin over the nearest legal move one slot "
          f"away (in use: {used}); wrong played · right read back")
    print(f"{'margin':>8s}" + "".join(f"{g:>30s}" for g, _s in groups))
    for m in sorted({used, *(x for x in (2.0, 3.0, 4.0, 4.5, 5.0, 5.5, 6.0, 8.0) if x >= used)}):
        cells = []
        for _g, sel in groups:
            xs = [r for r in said if sel(r)]
            back = [r["conf"] < threshold or (r.get("legal_rival") is not None and r["legal_rival"] < m) for r in xs]
            wrong = sum(1 for r, b in zip(xs, back, strict=True) if not b and r["line"] is not None
                        and r["line"] != r["said"] and changes_state(r["got_cmd"]))
            right = [b for r, b in zip(xs, back, strict=True) if r["line"] == r["said"]]
            cells.append(f"{wrong}/{len(xs)} · {sum(right)}/{len(right)}")
        print(f"{'none' if m == -math.inf else m:>8}" + "".join(f"{c:>30s}" for c in cells))
    wrong = sorted(round(r["legal_rival"], 2) for r in said if r["line"] is not None and r["line"] != r["said"]
                   and r.get("legal_rival") is not None and r["conf"] >= threshold and is_fit(r))
    print(f"margins of the wrong moves of the fitted voices over a legal rival, confidence above the threshold: {wrong}")


def threshold_table(rows: list[dict[str, Any]]) -> None:
    said = [r for r in rows if not r.get("oog")]
    print("\nthreshold | wrong state-changing lines executed | right ones read back | out-of-grammar taken")
    oog = [r for r in rows if r.get("oog")]
    for t in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
        w = sum(1 for r in said if r["line"] is not None and r["line"] != r["said"] and changes_state(r["got_cmd"]) and r["conf"] >= t)
        rb = [r for r in said if r["line"] == r["said"] and changes_state(r["cmd"])]
        b = sum(1 for r in rb if r["conf"] < t)
        o = sum(1 for r in oog if r["line"] is not None and r["conf"] >= t)
        print(f"   {t:.1f}    | {pct(w, len(said)):>24s} | {pct(b, len(rb)):>22s} | {pct(o, len(oog))}")


# the confidence is fitted on these espeak-ng voices (and the even-numbered out-of-grammar
# sentences) and evaluated on the others (flite, Festival, other espeak-ng French variants,
# real recordings), so the figures are for voices it was not fitted on
FIT_VOICES = {"en": synth.EN_VOICES, "fr": synth.FR_VOICES}
WRONG_TARGET = 0.005
# the direction each feature may push the confidence: a closer match, a higher score per
# frame raise it; more filler, a length mismatch lower it (so that a fit on few examples
# cannot learn, say, that a phrase nearer to another phrase is more likely right)
SIGNS = (1, 1, 1, -1, -1, 1)  # wrong state-changing lines taken without read-back, on the fitting set


def is_fit(r: dict[str, Any]) -> bool:
    if r.get("real") or r["voice"] not in FIT_VOICES[r["lang"]]:
        return False
    return r["oog_i"] % 2 == 0 if r.get("oog") else True


def fit_logistic(x: np.ndarray, y: np.ndarray, sw: np.ndarray, signs: Any, steps: int = 5000) -> tuple[np.ndarray, float]:
    """Weighted logistic regression by gradient descent on standardised features, each weight
    held to its sign in `signs` (+1 a feature only ever raises the confidence, -1 only lowers
    it): the weights and bias on the raw features."""
    signs = np.array(signs, dtype=float)[: x.shape[1]]
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = (x - mu) / sd
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        g = (p - y) * sw
        w -= 0.1 * (z.T @ g / sw.sum() + 1e-3 * w)
        w = np.where(signs * w < 0, 0.0, w)
        b -= 0.1 * g.sum() / sw.sum()
    return w / sd, float(b - np.sum(w * mu / sd))


def calibrate(rows: list[dict[str, Any]], threshold: float) -> tuple[np.ndarray, float]:
    """Logistic regression (gradient descent) of 'the line is the one said' on the features;
    out-of-grammar sentences that got a line count as wrong (weighted 3: they are rarer here
    than at a table). Then the bias is lowered until, on the fitting set, wrong state-changing
    lines at `threshold` are at most WRONG_TARGET of the utterances."""
    fit = [r for r in rows if r["line"] is not None and r["feat"]]
    x = np.array([r["feat"] for r in fit], dtype=float)
    y = np.array([float(r["line"] == r["said"]) for r in fit])
    sw = np.array([3.0 if r.get("oog") else 1.0 for r in fit])
    w_raw, b_raw = fit_logistic(x, y, sw, SIGNS)  # each feature only ever one way
    said = [r for r in rows if not r.get("oog")]
    n_wrong = [r for r in said if r["line"] is not None and r["line"] != r["said"] and changes_state(r["got_cmd"]) and r["feat"]]
    while True:
        wrong = sum(1 for r in n_wrong if 1 / (1 + np.exp(-(np.dot(w_raw, r["feat"]) + b_raw))) >= threshold)
        if wrong <= WRONG_TARGET * len(said) or b_raw < -50:
            break
        b_raw -= 0.05
    lang = rows[0]["lang"] if rows else "en"
    in_use = CONFIDENCE.get(lang, CONFIDENCE["en"])
    print(f"\nfitted ({lang}) on {len(y)} recognised utterances ({int(y.sum())} right; voices {', '.join(FIT_VOICES[lang])}, "
          f"even-numbered out-of-grammar sentences): weights {np.round(w_raw, 4).tolist()}, bias {b_raw:.3f} "
          f"(in use: {list(in_use[0])}, {in_use[1]:.4f})")
    return w_raw, b_raw


def rescore(rows: list[dict[str, Any]], w: np.ndarray, b: float) -> None:
    for r in rows:
        if r["line"] is not None and r["feat"]:
            r["conf"] = float(1 / (1 + np.exp(-(np.dot(w, r["feat"]) + b))))


def latency(lang: str, n: int = 30, limit: int | None = None) -> None:
    """Through the Listener: WAV files -> VAD -> recogniser -> inbox, at full speed."""
    import tempfile

    from companion.inputs.voice.listener import Listener
    from companion.inputs.voice.sources import WavSource, write_wav
    from companion.session.inbox import Inbox

    ui, match, seat = states("kissa", 1)[0]
    phrases = sayable_now(ui, match, seat, lang, limit=limit)
    listed = phrases.phrases()
    rnd = random.Random(3)
    voices = synth.EN_VOICES if lang == "en" else synth.FR_VOICES
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i in range(n):
            p = Path(tmp) / f"{i}.wav"
            write_wav(p, synth.utterance(rnd.choice(listed).phrase, rnd.choice(voices), 170))
            paths.append(p)
        rec = SphinxRecognizer(lang)
        listener = Listener(WavSource(paths, realtime=False), rec, Inbox(), lambda: phrases)
        listener.start().join()
    lat = [h.latency for h in listener.heard if h.latency is not None]
    lat_v = [h.latency_from_voice for h in listener.heard if h.latency_from_voice is not None]
    print(f"\nlatency ({lang}, {len(lat)} of {n} utterances through VAD + recogniser): VAD decision -> line "
          f"median {1000 * statistics.median(lat):.0f} ms (90th pct {1000 * np.percentile(lat, 90):.0f}); "
          f"last voiced sample -> line median {1000 * statistics.median(lat_v):.0f} ms "
          f"(the VAD waits {listener.segmenter.end_frames * 30} ms of silence)")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


#: run before `companion play` to measure it with webrtcvad, not Silero's model (run by numpy, silero_np.py)
WITHOUT_SILERO = "import companion.inputs.voice.silero as s; s.available = lambda: False; "


def _peak_of_play(game: str, wav: Path | None, home: Path, extra: tuple[str, ...] = (), pre: str = "") -> int:
    """VmHWM (kB) of `companion play GAME` against bots, with `--voice-input WAV` (None: no
    voice), once it has heard the whole recording and waits for the keyboard; `pre`: Python
    run first in that process (`WITHOUT_SILERO`)."""
    players = GAMES[game]
    cmd = [sys.executable, "-c", pre + "import sys; from companion.cli import main; sys.exit(main())", "play", game, "--lang", "en", "--seed", "5",
           "--players", players[0], "--bots", str(len(players) - 1)]
    if wav is not None:
        cmd += ["--voice-input", str(wav), *extra]
    env = {**os.environ, "XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home), "XDG_CACHE_HOME": str(home)}
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=Path(__file__).resolve().parent.parent, env=env)
    try:
        last, idle, t0 = -1.0, 0, time.time()
        while idle < 6 and time.time() - t0 < 180:  # idle 3 s: the recording is heard
            time.sleep(0.5)
            cpu = _cpu_seconds(proc.pid)
            idle = idle + 1 if cpu - last < 0.02 else 0
            last = cpu
        status = Path(f"/proc/{proc.pid}/status").read_text()
        if proc.poll() is not None or "VmHWM:" not in status:
            raise RuntimeError(f"companion play {game} ended early: {' '.join(cmd)}")
        return int(status.split("VmHWM:")[1].split()[0])
    finally:
        proc.kill()
        proc.wait()


GRAMMAR_MEMORY_SCRIPT = """
import sys
sys.path.insert(0, %r)
from bench.voice_accuracy import states
from companion.inputs.voice.recognizer import SphinxRecognizer
from companion.inputs.voice.sayable import sayable_now
from companion.inputs.voice import synth
ui, match, seat = states(%r, 1)[0]
ps = sayable_now(ui, match, seat, "en")
said = [synth.utterance(m.phrase) for m in ps.phrases()[-3:]]
rec = SphinxRecognizer("en", grammar=%r)
rec.set_phrases(ps)
for pcm in said:
    rec.recognize(pcm)
print(open("/proc/self/status").read().split("VmHWM:")[1].split()[0])
"""


def grammar_memory(game: str) -> None:
    """The same process (a state's whole grammar, three of its moves decoded) with the grammar
    in use and with pocketsphinx's own compile of the JSGF text (before 2026-12-01)."""
    root = str(Path(__file__).resolve().parent.parent)
    peaks = {}
    for grammar in ("fsg", "jsgf"):
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", GRAMMAR_MEMORY_SCRIPT % (root, game, grammar)],
                           capture_output=True, text=True, check=True, cwd=root)
        peaks[grammar] = (int(r.stdout.split()[-1]) / 1024, time.perf_counter() - t)
    (a, ta), (b, tb) = peaks["fsg"], peaks["jsgf"]
    print(f"  {game}, one recogniser, whole grammar, three moves decoded: {a:.0f} MB in {ta:.1f} s with the compact "
          f"grammar against {b:.0f} MB in {tb:.1f} s with the JSGF compile (ratios {a / b:.2f}, {ta / tb:.2f})")


def memory_recording(game: str, home: Path) -> Path:
    """The recording the memory figures hear (`memory`, `whisper_memory`, bench/silero_numpy.py):
    « status », « help » and two listed moves of the game's first state, a second apart."""
    from companion.inputs.voice.sources import write_wav

    ui, match, seat = states(game, 1)[0]
    listed = sayable_now(ui, match, seat, "en").phrases()
    said = ["status", "help", *[m.phrase for m in listed if m.command and m.command.startswith("action")][:2]]
    wav = home / f"{game}.wav"
    write_wav(wav, np.concatenate([x for t in said for x in (synth.utterance(t), np.zeros(16000, np.int16))]))
    return wav


def memory(games: list[str]) -> None:
    """The peak resident memory of the real `companion play` with the recogniser, the whole
    grammar of what is sayable (not a shortened list) and a recording of four commands."""
    import tempfile


    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        base = _peak_of_play("kissa", None, home)
        print(f"\npeak memory (VmHWM) of `companion play` against bots, whole grammar, four commands heard "
              f"from a recording (without voice: {base / 1024:.0f} MB):")
        for game in games:
            wav = memory_recording(game, home)
            peak = _peak_of_play(game, wav, home)
            webrtc = _peak_of_play(game, wav, home, pre=WITHOUT_SILERO)  # the VAD model's share
            print(f"  {game}: {peak / 1024:.0f} MB (target < 150 MB: {'met' if peak < 150 * 1024 else 'NOT met'}); "
                  f"with webrtcvad instead of Silero's model (no model at all): {webrtc / 1024:.0f} MB")
    print("the grammar's part, measured apart (process with the benchmark's imports):")
    for game in games:
        grammar_memory(game)


def whisper_row(whisper: Any, pcm: np.ndarray) -> dict[str, Any]:
    """The same utterance through Whisper (as the listener gives it: the whole utterance once
    the VAD has cut it): its line, command, confidence, transcript and time."""
    t = time.perf_counter()
    w = whisper.recognize(pcm)
    ms = (time.perf_counter() - t) * 1000
    return {"w_line": w.line, "w_cmd": w.command, "w_conf": w.confidence, "w_ms": ms,
            "w_text": w.transcript.text if getattr(w, "transcript", None) else "", "w_feat": list(w.features),
            "w_best": w.nearest.phrase if getattr(w, "nearest", None) else None,
            "w_best_cmd": w.nearest.command if getattr(w, "nearest", None) else None}


def combined(r: dict[str, Any], how: str, threshold: float) -> tuple[str | None, str | None, float]:
    """(line, command, confidence) of one utterance under an engine choice, from its row:
    ``sphinx`` pocketsphinx alone; ``whisper`` Whisper alone; ``confirm`` (--voice-engine
    confirm) pocketsphinx, and a state-changing line under the threshold runs without
    read-back when Whisper heard the same line; ``reject`` pocketsphinx, its line dropped when
    Whisper heard no command; ``both`` confirm and reject; ``checked`` (--voice-engine
    checked) confirm, and pocketsphinx's line dropped when Whisper's transcript is far from it."""
    line, cmd, conf = r["line"], r["got_cmd"], r["conf"]
    if how == "whisper":
        return r["w_line"], r["w_cmd"], r["w_conf"]
    if how == "checked":  # as companion/inputs/voice/engines.py's Checked does
        from companion.inputs.voice.engines import REJECT_FAR
        from companion.inputs.voice.nearest import cost_to

        if line is not None and cost_to(r["w_text"], line, r["lang"]) > REJECT_FAR:
            return None, None, 0.0
    if how in ("reject", "both") and line is not None and r["w_line"] is None:
        return None, None, 0.0
    doubtful = line is not None and changes_state(cmd) and conf < threshold
    if how in ("confirm", "both", "checked") and doubtful and r["w_line"] == line:
        return line, cmd, max(conf, threshold)
    return line, cmd, conf


ENGINE_CHOICES = ("sphinx", "whisper", "confirm", "reject", "both", "checked")


def rescore_row(engine: Any, got: Any, pcm: np.ndarray) -> dict[str, Any]:
    """The same utterance rescored (`--voice-engine rescore`): pocketsphinx's result `got`
    (just decoded by the same recogniser, as the engine's own `finish` does) and Whisper's
    scores over the shortlist; the line before the talk cut is kept (`r_best`), with the
    features, so that `rescore_fit` can fit the cut and the confidence on these rows."""
    t = time.perf_counter()
    r = engine.rescore(got, pcm)
    ms = (time.perf_counter() - t) * 1000
    best = r.line
    best_cmd = r.command
    if best is None and r.features:  # cut as talk: the line it would have been
        from companion.inputs.voice.grammar import tokens_of

        p = engine.phrases.resolve(list(tokens_of(r.text)))
        best, best_cmd = (p.phrase, p.command) if p is not None else (None, None)
    return {"r_line": r.line, "r_cmd": r.command, "r_conf": r.confidence, "r_feat": list(r.features), "r_ms": ms,
            "r_best": best, "r_best_cmd": best_cmd, "r_free": getattr(r, "free", ""), "r_n": getattr(r, "candidates", 0),
            "r_scores": [list(x) for x in getattr(r, "scores", ())], "r_free_score": list(getattr(r, "free_score", ())),
            "r_first": [got.line, got.command, got.confidence]}


def rechosen(r: dict[str, Any], bonus: tuple[float, float]) -> tuple[str | None, str | None, tuple[float, ...]]:
    """The line `RescoreRecognizer.rescore` takes from a row's candidate scores with this bonus
    for pocketsphinx's line (`rescore.Fitted.bonus`, `per_logit`), and its features."""
    from companion.inputs.voice import rescore as rs

    sc = r.get("r_scores") or []
    if not sc:
        return r.get("r_line"), r.get("r_cmd"), tuple(r.get("r_feat") or ())
    first, _cmd, conf = r["r_first"]
    extra = rs.sphinx_bonus(conf, *bonus)
    post = rs.posterior([x + (extra if p == first else 0.0) for p, _c, x, _n in sc])
    i = int(np.argmax(post))
    phrase, cmd, x, n = sc[i]
    same = sum(float(q) for q, (p, c, _x, _n) in zip(post, sc, strict=True) if c == cmd and (cmd is not None or p == phrase))
    free, _free_n = r["r_free_score"]
    feats = (math.log(max(same, 1e-6) / max(1e-6, 1 - same)), (x - free) / max(1, n), float(first == phrase), conf)
    return phrase, cmd, feats


def rescored(r: dict[str, Any], weights: tuple[float, ...], bias: float, gap: float,
             bonus: tuple[float, float] | None = None) -> tuple[str | None, str | None, float]:
    """(line, command, confidence) of a row under these confidence weights, talk cut and bonus."""
    from companion.inputs.voice import rescore as rs

    fit = rs.fitted(r["lang"])
    line, cmd, feat = rechosen(r, bonus or (fit.bonus, fit.per_logit))
    if line is None or not feat:
        return r.get("r_line"), r.get("r_cmd"), r.get("r_conf", 0.0)
    if feat[1] < -gap:
        return None, None, 0.0
    return line, cmd, rs.logistic(float(np.dot(weights, feat)) + bias)


def rescore_fit(rows: list[dict[str, Any]], threshold: float) -> tuple[tuple[float, ...], float, float, tuple[float, float]]:
    """pocketsphinx's bonus, the talk cut and the confidence's logistic, fitted on the espeak-ng
    voices (and the even-numbered out-of-grammar sentences): the bonus of most exact lines; the
    cut of the highest share of exact lines less the share of talk given a line (the confidence
    then keeps the rest of the talk from being carried out); the weights by logistic regression
    of 'the line is the one said' (talk that got a line counts as wrong, weighted 3), the bias
    lowered until wrong state changes at `threshold` are at most WRONG_TARGET of the utterances."""
    fit = [r for r in rows if is_fit(r) and r.get("r_scores")]
    said = [r for r in fit if not r.get("oog")]
    oog = [r for r in fit if r.get("oog")]
    bonus, best_exact = (0.0, 0.0), -1
    for a in (0.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 14.0):
        for b in (0.0, 0.5, 1.0, 2.0):
            exact = sum(rechosen(r, (a, b))[0] == r["said"] for r in said)
            if exact > best_exact:
                bonus, best_exact = (a, b), exact
    print(f"\nrescore: pocketsphinx's bonus fitted on {len(said)} espeak-ng utterances: {bonus[0]:g} + {bonus[1]:g} × "
          f"logit(its confidence), exact {pct(best_exact, len(said))} (pocketsphinx alone "
          f"{pct(sum(r['line'] == r['said'] for r in said), len(said))})")
    best, best_score = None, -1e9
    for gap in (1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 1e9):
        w_raw, b_raw = _rescore_confidence(fit, said, gap, bonus, threshold)
        exact = sum(rescored(r, w_raw, b_raw, gap, bonus)[0] == r["said"] for r in said)
        taken = sum((g := rescored(r, w_raw, b_raw, gap, bonus))[0] is not None and g[2] >= threshold for r in oog)
        score = exact / max(1, len(said)) - 3 * taken / max(1, len(oog))
        print(f"  talk cut {gap:g}: exact {pct(exact, len(said))}, talk taken (conf >= {threshold}) {pct(taken, len(oog))}")
        if score > best_score + 1e-9:
            best, best_score = (gap, w_raw, b_raw), score
    assert best is not None
    best_gap, w_raw, b_raw = best
    print(f"rescore fitted on {len(said)} espeak-ng utterances and {len(oog)} out-of-grammar sentences: talk cut "
          f"{best_gap:g} nats per token below the free transcript; confidence weights "
          f"{[round(v, 4) for v in w_raw]}, bias {b_raw:.3f}")
    return w_raw, b_raw, best_gap, bonus


def _rescore_confidence(fit: list[dict[str, Any]], said: list[dict[str, Any]], gap: float, bonus: tuple[float, float],
                        threshold: float) -> tuple[tuple[float, ...], float]:
    """The confidence's logistic under this cut and bonus (see `rescore_fit`)."""
    xs = [(r, rechosen(r, bonus)) for r in fit]
    xs = [(r, line, feat) for r, (line, _c, feat) in xs if line is not None and feat and feat[1] >= -gap]
    if len(xs) < 4:
        return (0.0, 0.0, 0.0, 0.0), -10.0
    x = np.array([feat for _r, _l, feat in xs], dtype=float)
    y = np.array([float(line == r["said"]) for r, line, _f in xs])
    sw = np.array([3.0 if r.get("oog") else 1.0 for r, _l, _f in xs])
    w_fit, b_raw = fit_logistic(x, y, sw, [1] * x.shape[1], steps=3000)  # each feature only ever raises it
    w_raw = tuple(float(v) for v in w_fit)
    while True:
        got = [(r, *rescored(r, w_raw, b_raw, gap, bonus)) for r in said]
        wrong = sum(1 for r, ln, cm, cf in got if ln is not None and ln != r["said"] and changes_state(cm) and cf >= threshold)
        if wrong <= WRONG_TARGET * len(said) or b_raw < -50:
            return w_raw, b_raw
        b_raw -= 0.05


def rescore_report(rows: list[dict[str, Any]], lang: str, threshold: float) -> None:
    """pocketsphinx against `--voice-engine rescore` on the same utterances: exact line per
    condition, fitted and held-out voices apart; wrong state changes run without read-back and
    right ones read back; talk taken as a command; the time the rescoring took."""
    mine = [r for r in rows if r["lang"] == lang and "r_best" in r]
    if not mine:
        return
    from companion.inputs.voice import rescore as rs

    w, b, gap, bonus = rescore_fit(mine, threshold)
    use = rs.fitted(lang)
    print(f"(in use in companion/inputs/voice/rescore.py for {lang}: {use})")
    said = [r for r in mine if not r.get("oog")]
    conds = [c for c in CONDITIONS if any(r.get("cond", "clean") == c for r in said)]
    engines = {"sphinx": lambda r: (r["line"], r["got_cmd"], r["conf"]),
               "rescore (fitted)": lambda r: rescored(r, w, b, gap, bonus),
               "rescore, in use": lambda r: rescored(r, use.weights, use.bias, use.talk_gap, (use.bonus, use.per_logit))}
    print(f"\n== {lang}: pocketsphinx against rescore (Whisper base scoring a shortlist), same utterances ==")
    for glabel, gsel in [("fitted voices (espeak-ng)", is_fit), ("held-out voices", lambda r: not is_fit(r))]:
        print(f"\n-- {glabel}: exact line --\n{'engine':16s}" + "".join(f"{c:>22s}" for c in conds))
        for name, how in engines.items():
            cells = []
            for c in conds:
                xs = [r for r in said if gsel(r) and r.get("cond", "clean") == c]
                cells.append(pct(sum(how(r)[0] == r["said"] for r in xs), len(xs)))
            print(f"{name:16s}" + "".join(f"{x:>22s}" for x in cells))
        print(f"  wrong state change run without read-back (of all) · right state changes read back (conf < {threshold})")
        for name, how in engines.items():
            cells = []
            for c in conds:
                xs = [r for r in said if gsel(r) and r.get("cond", "clean") == c]
                got = [(r, *how(r)) for r in xs]
                wrong = sum(1 for r, ln, cm, cf in got if ln is not None and ln != r["said"] and changes_state(cm)
                            and cf >= threshold)
                right = [cf for r, ln, cm, cf in got if ln == r["said"] and changes_state(r["cmd"])]
                cells.append(f"{wrong}/{len(xs)} · {sum(cf < threshold for cf in right)}/{len(right)}")
            print(f"{name:16s}" + "".join(f"{x:>22s}" for x in cells))
    for label, xs in [("synthetic out-of-grammar sentences, held out (odd)", [r for r in mine if r.get("oog") and not r.get("real")
                                                                               and not is_fit(r)]),
                      *[(f"real talk (pocketsphinx-testdata), {c}", [r for r in mine if r.get("real") and r["cond"] == c])
                        for c in ("clean", "babble10")]]:
        if xs:
            cells = [f"{name} {pct(sum(1 for r in xs if (g := how(r))[0] is not None and g[2] >= threshold), len(xs)).strip()}"
                     for name, how in engines.items()]
            print(f"{label} taken as a command (conf >= {threshold}): " + "; ".join(cells))
    ms = [r["r_ms"] for r in mine if not r.get("real")]
    n = [r["r_n"] for r in mine if not r.get("real")]
    if not ms:
        return
    fin = [r["finish_ms"] for r in said if "finish_ms" in r]
    print(f"rescoring time per utterance (after pocketsphinx's finish): median {statistics.median(ms):.0f} ms, p95 "
          f"{np.percentile(ms, 95):.0f} ms (n={len(ms)}, candidates median {statistics.median(n):.0f}, max {max(n)}); "
          f"pocketsphinx's finish on the same: median {statistics.median(fin):.0f} ms, p95 {np.percentile(fin, 95):.0f} ms")


def whisper_remap(rows: list[dict[str, Any]], accept: float) -> list[dict[str, Any]]:
    """The rows as if the mapping took its nearest phrase up to `accept` per word (the run
    keeps the nearest phrase, its cost and the next one's: `w_best`, `w_feat`)."""
    from companion.inputs.voice import nearest as nr
    from companion.inputs.voice.whisper import Transcript, confidence_of

    out = []
    for r in rows:
        if "w_best" not in r or not r.get("w_feat"):
            out.append(r)
            continue
        logprob, no_speech, cost, runner = r["w_feat"][:4]
        take = r["w_best"] is not None and cost <= accept and runner - cost >= nr.MARGIN
        out.append({**r, "w_line": r["w_best"] if take else None, "w_cmd": r["w_best_cmd"] if take else None,
                    "w_conf": confidence_of(Transcript("", logprob, no_speech), cost) if take else 0.0})
    return out


def whisper_fit(rows: list[dict[str, Any]], lang: str) -> float:
    """The mapping's threshold fitted on the espeak-ng voices (exact lines less three times the
    talk taken as a command, synthetic out-of-grammar sentences of even number), printed with
    the held-out figures it gives; returns it."""
    mine = [r for r in rows if r["lang"] == lang and "w_best" in r and not r.get("real")]
    if not mine:
        return 0.25
    fit = [r for r in mine if is_fit(r)]
    print(f"\n{lang}: Whisper's mapping threshold (cost per word) fitted on espeak-ng voices "
          f"({sum(not r.get('oog') for r in fit)} commands, {sum(bool(r.get('oog')) for r in fit)} out-of-grammar):")
    best, best_score = 0.25, -1e9
    for a in (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4):
        got = whisper_remap(fit, a)
        said = [r for r in got if not r.get("oog")]
        oog = [r for r in got if r.get("oog")]
        exact = sum(r["w_line"] == r["said"] for r in said)
        taken = sum(r["w_line"] is not None for r in oog)
        score = exact / max(1, len(said)) - 3 * taken / max(1, len(oog))
        print(f"  {a:.2f}: exact {pct(exact, len(said))}, talk taken {pct(taken, len(oog))}")
        if score > best_score:
            best, best_score = a, score
    print(f"  kept: {best:.2f}")
    return best


def whisper_report(rows: list[dict[str, Any]], lang: str, threshold: float) -> None:
    """Per language and condition: exact lines, wrong state changes run without read-back,
    right ones read back, and talk taken as a command, for pocketsphinx alone, Whisper alone,
    Whisper confirming pocketsphinx's doubtful state changes, Whisper rejecting talk, and both."""
    mine = [r for r in rows if r["lang"] == lang and "w_line" in r]
    if not mine:
        return
    said = [r for r in mine if not r.get("oog")]
    conds = [c for c in CONDITIONS if any(r.get("cond", "clean") == c for r in said)]
    print(f"\n== {lang}: Whisper base (int8, CPU) beside pocketsphinx, same utterances ==")
    print("sphinx: pocketsphinx + grammar alone; whisper: Whisper + nearest phrase alone; confirm: a doubtful state "
          "change pocketsphinx heard runs when Whisper heard the same line; reject: pocketsphinx's line dropped when "
          "Whisper heard no command; both: confirm and reject; checked (--voice-engine checked): confirm, and "
          "pocketsphinx's line dropped when Whisper's transcript is far from it")
    for glabel, gsel in [("fitted voices (espeak-ng)", is_fit), ("held-out voices", lambda r: not is_fit(r))]:
        print(f"\n-- {glabel}: exact line --\n{'engine':10s}" + "".join(f"{c:>22s}" for c in conds))
        for how in ENGINE_CHOICES:
            cells = []
            for c in conds:
                xs = [r for r in said if gsel(r) and r.get("cond", "clean") == c]
                cells.append(pct(sum(combined(r, how, threshold)[0] == r["said"] for r in xs), len(xs)))
            print(f"{how:10s}" + "".join(f"{x:>22s}" for x in cells))
    print(f"\nall voices, per condition: wrong state change run without read-back (of all) / right state changes "
          f"read back (conf < {threshold})")
    for how in ENGINE_CHOICES:
        cells = []
        for c in conds:
            xs = [r for r in said if r.get("cond", "clean") == c]
            got = [(r, *combined(r, how, threshold)) for r in xs]
            wrong = sum(1 for r, ln, cm, cf in got if ln is not None and ln != r["said"] and changes_state(cm) and cf >= threshold)
            right = [(r, cf) for r, ln, cm, cf in got if ln == r["said"] and changes_state(r["cmd"])]
            rb = sum(1 for _r, cf in right if cf < threshold)
            cells.append(f"{wrong}/{len(xs)} · {rb}/{len(right)}")
        print(f"{how:10s}" + "".join(f"{x:>22s}" for x in cells))
    for label, xs in [("synthetic out-of-grammar sentences", [r for r in mine if r.get("oog") and not r.get("real")]),
                      *[(f"real talk (pocketsphinx-testdata), {c}", [r for r in mine if r.get("real") and r["cond"] == c])
                        for c in ("clean", "babble10")]]:
        if not xs:
            continue
        cells = []
        for how in ENGINE_CHOICES:
            got = [combined(r, how, threshold) for r in xs]
            cells.append(f"{how} {pct(sum(1 for ln, _c, cf in got if ln is not None and cf >= threshold), len(xs)).strip()}")
        print(f"{label} taken as a command: " + "; ".join(cells))
    ms = [r["w_ms"] for r in mine if not r.get("real")]
    ps = [r["ms"] for r in said]
    print(f"Whisper time per utterance (whole utterance, after the VAD cut it): median {statistics.median(ms):.0f} ms, "
          f"p95 {np.percentile(ms, 95):.0f} ms (n={len(ms)}); pocketsphinx per utterance (streamed, all of it): "
          f"median {statistics.median(ps):.0f} ms, p95 {np.percentile(ps, 95):.0f} ms")


#: the engines whose memory `whisper_memory` measures (`--memory-engines`)
ENGINES_MEASURED = ["pocketsphinx", "whisper", "checked", "rescore"]


def whisper_memory(model: str | None, games: tuple[str, ...] = ("goodfortune", "kissa")) -> None:
    """Peak memory (VmHWM) of the real `companion play GAME --voice-input` with four commands
    heard, with each engine (the whole grammar; Whisper's model is the packaged one or
    `model`), and how long the process took to hear them."""
    import tempfile


    print("\npeak memory of `companion play` against bots, four commands heard from a recording, per engine:")
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        for game in games:
            wav = memory_recording(game, home)
            peaks = {}
            for engine in ENGINES_MEASURED:
                extra = ("--voice-engine", engine, *(("--whisper-model", model) if model else ()))
                peaks[engine] = _peak_of_play(game, wav, home, extra) / 1024
            base = peaks.get("pocketsphinx")
            print(f"  {game}: " + ", ".join(
                f"{e} {mb:.0f} MB" + (f" (ratio {mb / base:.2f} to pocketsphinx; target <= 450 MB: "
                                      f"{'met' if mb <= 450 else 'NOT met'})" if base and e != "pocketsphinx" else "")
                for e, mb in peaks.items()))


def progress(rows: list[dict[str, Any]], path: str | None, what: str, t0: float) -> None:
    """Each part's rows saved as soon as it is done (`--fit-from` reports from them if the
    run is cut short), and a line to say so."""
    if path:
        Path(path).write_text(json.dumps(rows))
    print(f"  {what}: done, {len(rows)} results so far, {time.time() - t0:.0f} s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300, help="utterances per game and language (each also with noise)")
    ap.add_argument("--lang", default="en,fr")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--calibrate", action="store_true")
    ap.add_argument("--threshold", type=float, default=THRESHOLD)
    ap.add_argument("--no-latency", action="store_true")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--suppress", default="none", help="noise suppressor before the recogniser: none, webrtc, rnnoise, deepfilter")
    ap.add_argument("--no-subtract", action="store_true", help="without the recogniser's own spectral subtraction")
    ap.add_argument("--conditions", default="clean,white10,white5,babble10,babble5",
                    help=f"noise conditions, of {', '.join(CONDITIONS)}")
    ap.add_argument("--no-held-out", action="store_true", help="espeak-ng voices only (no flite, Festival)")
    ap.add_argument("--no-real", action="store_true", help="without pocketsphinx-testdata's real recordings")
    ap.add_argument("--seed", type=int, default=11, help="which utterances are drawn (runs with other seeds add up)")
    ap.add_argument("--only-real", action="store_true", help="only the real recordings (no synthetic speech)")
    ap.add_argument("--real-states", type=int, default=1, help="states a game whose grammar hears the real recordings")
    ap.add_argument("--rows", help="save every utterance's result and features to this JSON file")
    ap.add_argument("--fit-from", help="only fit the confidence on rows saved by --rows (no decoding)")
    ap.add_argument("--compare", type=int, default=0,
                    help="utterances per game also decoded with pocketsphinx's own compile of the JSGF text (as before)")
    ap.add_argument("--whisper", action="store_true",
                    help="every utterance also through Whisper base (companion/inputs/voice/whisper.py): its column, "
                         "and Whisper as confirmer and as talk rejecter beside pocketsphinx")
    ap.add_argument("--rescore", action="store_true",
                    help="every utterance also through --voice-engine rescore (companion/inputs/voice/rescore.py: "
                         "Whisper scoring a shortlist of lines by teacher forcing), beside pocketsphinx")
    ap.add_argument("--rescore-window", default="short", choices=("short", "30s"),
                    help="with --rescore: the encoder's window (the utterance's length, or Whisper's 30 s)")
    ap.add_argument("--memory-engines", default=",".join(ENGINES_MEASURED),
                    help="with --whisper or --rescore: the engines whose `companion play` memory is measured")
    ap.add_argument("--only-memory", action="store_true", help="only the memory of `companion play` per engine")
    ap.add_argument("--whisper-real-games", type=int, default=2,
                    help="with --whisper: the real recordings go through Whisper with this many games' grammars")
    ap.add_argument("--whisper-accept", type=float, default=None,
                    help="with --fit-from: Whisper's mapping threshold (default: fitted on the espeak-ng voices)")
    ap.add_argument("--whisper-model", default=None, help="a faster-whisper model folder (default: the packaged base)")
    ap.add_argument("--limit", type=int, default=None,
                    help="only the shared words and this many listed moves, no templates (default: the whole "
                         "grammar, as in play; the figures before 2026-12-01 used 150)")
    ap.add_argument("--filler", default=None,
                    help="the shared filler's weight in the recogniser's grammar (fsg.FILLER), or none: not heard")
    ap.add_argument("--sampled-legal-margin", type=float, default=None,
                    help="recognizer.SAMPLED_LEGAL_MARGIN (a 2kissa10 move this close to another legal move is read back)")
    ap.add_argument("--legal-rival-listed", action="store_true",
                    help="recognizer.LEGAL_RIVAL_LISTED: a listed move is weighed against its listed rivals too")
    ap.add_argument("--rival-margin", type=float, default=None,
                    help="recognizer.RIVAL_MARGIN (a listed move this close to a line not legal now is read back)")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    conditions = tuple(args.conditions.split(","))
    from companion.inputs.voice import fsg, recognizer

    if args.filler is not None:
        fsg.FILLER = None if args.filler == "none" else float(args.filler)
    if args.rival_margin is not None:
        recognizer.RIVAL_MARGIN = args.rival_margin
    if args.sampled_legal_margin is not None:
        recognizer.SAMPLED_LEGAL_MARGIN = args.sampled_legal_margin
    recognizer.LEGAL_RIVAL_LISTED = recognizer.LEGAL_RIVAL_LISTED or args.legal_rival_listed
    print(f"filler weight {fsg.FILLER}; rival margin {recognizer.RIVAL_MARGIN}; "
          f"sampled moves' legal margin {recognizer.SAMPLED_LEGAL_MARGIN}; one null transition to every word"
          f" {fsg.ONE_NULL_HOP}; a sample's templates flat {fsg.SAMPLED_FLAT}; whole-language odds {fsg.WHOLE_ODDS}")
    SUPPRESS["name"] = args.suppress
    print(f"noise suppressor: {args.suppress}; the recogniser's spectral subtraction {'off' if args.no_subtract else 'on'}")
    t0 = time.time()
    ENGINES_MEASURED[:] = args.memory_engines.split(",")
    if args.only_memory:
        whisper_memory(args.whisper_model, tuple(args.games.split(",")))
        return
    if args.fit_from:
        rows = json.loads(Path(args.fit_from).read_text())
        for lang in args.lang.split(","):
            mine = [r for r in rows if r["lang"] == lang]
            if not mine:
                continue
            print(f"\n== {lang}: the weights in use, on the voices and sentences not used for fitting ==")
            threshold_table([r for r in mine if not is_fit(r)])
            w, b = calibrate([r for r in mine if is_fit(r)], args.threshold)
            refit = [dict(r) for r in mine if not is_fit(r)]
            rescore(refit, w, b)
            print("with the weights fitted now, on the same:")
            threshold_table(refit)
            report(rows, lang, args.threshold)
            margin_table(rows, lang, args.threshold)
            if any("r_best" in r for r in mine):
                rescore_report(rows, lang, args.threshold)
            if any("w_line" in r for r in mine):
                accept = whisper_fit(rows, lang) if args.whisper_accept is None else args.whisper_accept
                print(f"(Whisper's mapping threshold: {accept:.2f})")
                whisper_report(whisper_remap(rows, accept), lang, args.threshold)
        return
    for lang in args.lang.split(","):
        rec = SphinxRecognizer(lang, denoise=None) if args.no_subtract else SphinxRecognizer(lang)
        # the grammar of before: pocketsphinx's own compile of the JSGF text
        base = SphinxRecognizer(lang, grammar="jsgf") if args.compare else None
        rnd = random.Random(args.seed)
        n = args.n if lang == "en" else max(8, args.n // 2)
        whisper = None
        if args.whisper:
            from companion.inputs.voice.whisper import WhisperRecognizer

            whisper = WhisperRecognizer(lang, args.whisper_model)
        rescorer = None
        if args.rescore:
            from companion.inputs.voice.rescore import Rescorer, RescoreRecognizer

            rescorer = RescoreRecognizer(rec, Rescorer(lang, args.whisper_model, window=args.rescore_window == "short"))
        for g in ([] if args.only_real else args.games.split(",")):
            run_game(rec, g, lang, n, rnd, rows, base, args.compare, args.limit, conditions, not args.no_held_out,
                     whisper, rescorer)
            progress(rows, args.rows, f"{lang} {g}", t0)
        if not args.no_real:
            real_talk(rec, lang, args.games.split(","), rows, conditions, args.real_states, whisper,
                      args.whisper_real_games, rescorer)
            progress(rows, args.rows, f"{lang} real talk", t0)
    if args.calibrate:
        for lang in args.lang.split(","):
            mine = [r for r in rows if r["lang"] == lang]
            held = [r for r in mine if not is_fit(r)]
            print(f"\n{lang}: with the weights in use, voices {', '.join(sorted({r['voice'] for r in held}))}, "
                  "odd-numbered out-of-grammar sentences and real talk (not used for fitting):")
            threshold_table(held)
            w, b = calibrate([r for r in mine if is_fit(r)], args.threshold)
            refit = [dict(r) for r in held]  # the figures below keep the weights in use
            rescore(refit, w, b)
            print("with the weights fitted now, on the same held-out voices and sentences:")
            threshold_table(refit)
    for lang in args.lang.split(","):
        report(rows, lang, args.threshold)
        margin_table(rows, lang, args.threshold)
        session_report(rows, lang)
        if args.whisper:
            whisper_report(rows, lang, args.threshold)
        if args.rescore:
            rescore_report(rows, lang, args.threshold)
    if (args.whisper or args.rescore) and not args.no_memory:
        whisper_memory(args.whisper_model)
    if not args.no_latency:
        latency("en", limit=args.limit)
    if not args.no_memory:
        memory(args.games.split(","))
    print(f"\n(ran in {time.time() - t0:.0f} s; peak memory of this benchmark process "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")


if __name__ == "__main__":
    main()
