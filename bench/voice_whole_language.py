"""Issue 24 §3: KIKOI requests heard through the whole well-formed language against the listed
(legal) phrases only, in the same run (labelled synthetic speech, espeak-ng, NOT recordings of
people).

For each seed, a three-player game is played by its first legal moves up to Marie's request;
then « ask Bot 1 (or 2) for T » is said for tokens T Marie already holds (not legal now: refused
when typed) and for legal requests, each kind of both bots in turn, by two voices, and
recognised with the grammar of that state:

* ``whole``: the whole language (`sayable.WHOLE_GAMES`), the listed phrases likelier
  (`fsg.WHOLE_ODDS` times likelier than one line of the whole language);
* an illegal request heard as another legal move is played unless its confidence is under
  the session's threshold (then read back first): both counted;
* ``listed``: the listed phrases and templates only (the baseline: before issue 24 §3).

Printed per setting: requests heard as said; illegal requests heard as a *different legal*
move (which would be played: the target is 0); legal requests heard right; grammar size
(automaton states and arcs), compile time and the median decode time per utterance.

Each illegal request heard as another legal move, and each legal one heard right, keeps its
margin over the nearest rival command (`recognizer.RIVAL_MARGIN`: the same sound decoded again
with no prior, the heard words against the lines that say another command); a table prints,
at several margins, how many of the first would be played and how many of the second read
back, on the fitted voices (espeak-ng) and apart on the held-out ones (`--held-out`: flite; French: fr+klatt, fr+Andy, fr+f5).

Run: nice .venv/bin/python bench/voice_whole_language.py [--seeds 6] [--odds 3,10] [--no-baseline] [--lang fr]
     [--conditions clean,babble10] [--held-out] [--stream | --listener 0,0.3,1] [--dump F]
     [--legal-margins 3,4,5,6] [--voices V1,V2] | --sizes | --kissa [--lang fr] [--held-out] [--conditions clean,babble10] | --filler [--lang fr] [--held-out]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from companion.core import Match, find
from companion.games.kikoi.phrases import token_name
from companion.games.kikoi.rules import ASK, Ask
from companion.inputs.voice import fsg, sayable, synth
from companion.inputs.voice.recognizer import Result, SphinxRecognizer
from companion.session.core import CONFIDENCE_THRESHOLD
from companion.session.transcript import load

CONDITIONS = {"clean": (None, None), "white10": ("white", 10.0), "babble10": ("babble", 10.0)}

VOICES = {"en": ("en-us", "en+f3"), "fr": ("fr", "fr+f3")}
SAY = {"en": "ask {player} for {token}", "fr": "je demande {token} à {player}"}
NAMES = ["Marie", "Bot 1", "Bot 2"]


def bot_names(lang: str) -> list[str]:
    """Marie and two bots, named as the game names them in `lang` (« Robot 1 » in French)."""
    from companion.narration import Msg, catalog

    return ["Marie"] + [catalog(lang).text(Msg("core.bot_name", n=i)) for i in (1, 2)]
STREAM = 0  # --stream: samples per chunk fed (0: each utterance whole, `recognize`)
#: --listener: each try said after these seconds of quiet, through the live listener itself
#: (its VAD's segmenting, streamed decode and dither), each lead apart: the same sound landed
#: either side of the margin with the start of the recording moved (issue 24, stop 34)
LEADS: tuple[float, ...] = ()


def states(n: int, names: list[str] = NAMES) -> list[Match]:
    game, _ui, _bots = load(find("kikoi"))
    out = []
    for seed in range(1, n + 1):
        match = Match(game, names, seed)
        while not match.over and not (match.current == 0 and match.state.phase == ASK):
            match.play(match.current, match.legal(match.current)[0])
        if not match.over:
            out.append(match)
    return out


def run(setting: str, matches: list[Match], lang: str = "en", voices: tuple[str, ...] | None = None,
        cond: str = "clean", rows: list[dict] | None = None) -> None:
    from companion.inputs.voice import recognizer

    _game, ui, _bots = load(find("kikoi"))
    saved = sayable.WHOLE_GAMES, recognizer.RIVAL_MARGIN  # RIVAL_TAKEN_MARGIN stays: --take-rival
    sayable.WHOLE_GAMES = frozenset({"kikoi"}) if setting == "whole" else frozenset()
    recognizer.RIVAL_MARGIN = -float("inf")  # the margin is kept, applied below at each threshold
    rec = SphinxRecognizer(lang)
    said = {True: [0, 0], False: [0, 0]}
    wrong_legal = unsure = refused = taken = 0
    decode, compile_s, size = [], [], []
    kind, snr = CONDITIONS[cond]
    try:
        for k, match in enumerate(matches):
            legal = [a for a in match.legal(0) if isinstance(a, Ask)]
            held = [t for t in match.state.boards[0] if t < 25]
            # each kind asked of both bots in turn: « Bot 1 » and « Bot 2 » differ by one short
            # number word, which some French voices pull one way and some the other
            illegal = [Ask(1 + (i + k) % 2, t) for i, t in enumerate(held[:3])]
            by_bot = [[a for a in legal if a.target == b] for b in (1 + k % 2, 2 - k % 2)]
            chosen = [a for pair in zip(*by_bot, strict=False) for a in pair][:3] or legal[:3]
            tries = [(a, False) for a in illegal] + [(a, True) for a in chosen]
            ps = sayable.sayable_now(ui, match, 0, lang)
            fa = fsg.automaton(ps, sayable.shared_commands(lang))
            size.append((fa.n, len(fa.arcs)))
            t = time.perf_counter()
            rec.set_phrases(ps)
            compile_s.append(time.perf_counter() - t)
            for action, is_legal in tries:
                text = SAY[lang].format(player=match.players[action.target], token=token_name(action.token, lang))
                for voice in voices or VOICES[lang]:
                    pcm = synth.utterance(text, voice, 160, snr, seed=action.token, noise=kind or "white")
                    t = time.perf_counter()
                    if LEADS:
                        for lead in LEADS[:-1]:
                            row(rows, ui, match, ps, rec, by_listener(rec, ps, pcm, lead), action, is_legal, voice,
                                text, lead)
                        r = by_listener(rec, ps, pcm, LEADS[-1])
                    else:  # --stream: as the live listener feeds it (30 ms chunks)
                        r = rec.recognize(pcm, chunk=STREAM or None)
                    decode.append(time.perf_counter() - t)
                    cmd = ps.read(r.line, None) if r.line else None
                    heard = _action(ui, match, cmd)
                    said[is_legal][1] += 1
                    said[is_legal][0] += heard == action
                    taken += rec.last_rival_taken and not is_legal and heard == action
                    refused += is_legal and heard is not None and heard not in legal  # a right move lost
                    other_legal = not is_legal and heard is not None and heard != action and heard in legal
                    if other_legal:
                        wrong_legal += 1
                        unsure += r.confidence < CONFIDENCE_THRESHOLD  # read back before it is played
                    row(rows, ui, match, ps, rec, r, action, is_legal, voice, text, LEADS[-1] if LEADS else None)
    finally:
        sayable.WHOLE_GAMES, recognizer.RIVAL_MARGIN = saved
    ill, leg = said[False], said[True]
    print(f"{lang} {cond} {setting:7} illegal heard as said {ill[0]}/{ill[1]}, illegal heard as another legal move "
          f"{wrong_legal}/{ill[1]} ({unsure} of them read back), {taken} heard as said by taking the rival; legal heard right "
          f"{leg[0]}/{leg[1]}, legal heard as a request not legal now (refused: a move lost) {refused}/{leg[1]}; automaton states "
          f"{statistics.median(s for s, _a in size):.0f} arcs {statistics.median(a for _s, a in size):.0f}, "
          f"compile {statistics.median(compile_s) * 1000:.0f} ms, decode median {statistics.median(decode):.2f} s")


def by_listener(rec: SphinxRecognizer, ps: sayable.PhraseSet, pcm: np.ndarray, lead: float) -> Result:
    """What the live listener hears of `pcm` said after `lead` s of quiet (1 s after): its own
    VAD, its streamed decode fed 30 ms chunks, as `companion play --voice-input` feeds it."""
    from companion.inputs.voice.listener import Listener
    from companion.session.inbox import Inbox

    quiet = np.zeros(int(16000 * lead), np.int16)
    sound = np.concatenate([quiet, pcm.astype(np.int16), np.zeros(16000, np.int16)])
    listener = Listener(iter([sound[i:i + 480] for i in range(0, len(sound), 480)]), rec, Inbox(), lambda: ps)
    listener.start().join(120)
    heard = [h.result for h in listener.heard if h.result.line is not None]
    return heard[-1] if heard else Result("", None, None, 0.0)


def row(rows: list[dict] | None, ui, match, ps, rec: SphinxRecognizer, r: Result, action, is_legal: bool, voice: str,
        text: str, lead: float | None) -> None:
    """One try's margin, rival and confidence, for the table of `rival_table` and `--dump`."""
    if rows is None:
        return
    heard = _action(ui, match, ps.read(r.line, None) if r.line else None)
    rw = rec.last_rival_words
    rival = None
    if rw is not None and (rm := ps.resolve(rw)) is not None:
        rival = _action(ui, match, ps.read(rm.phrase, None))
    legal = [a for a in match.legal(0) if isinstance(a, Ask)]
    wrong_legal = heard is not None and heard != action and heard in legal  # played unless read back
    rows.append({"legal": is_legal, "right": heard == action,
                 "other_legal": not is_legal and wrong_legal, "wrong_legal": wrong_legal,
                 "conf": r.confidence, "rival": rec.last_rival, "legal_rival": rec.last_legal_rival, "voice": voice,
                 "rival_said": rival == action, "rival_words": " ".join(rw or ()),
                 "edits": rec.last_rival_edits, "taken": rec.last_rival_taken,
                 "fitted": voice in synth.EN_VOICES + synth.FR_VOICES, "heard": r.line, "said": text,
                 "seed": match.seed, "lead": lead})


def rival_table(rows: list[dict], margins: tuple[float, ...] = (-1e9, 2.0, 4.0, 5.0, 6.0, 7.0, 7.5, 8.0)) -> None:
    """At each rival margin (`recognizer.RIVAL_MARGIN`): illegal requests heard as another legal
    move and played (confidence >= threshold and margin >= it), and legal requests heard right
    but read back (confidence under the threshold, or margin under it); fitted and held-out
    voices apart."""
    for fitted in (True, False):
        xs = [r for r in rows if r["fitted"] == fitted]
        if not xs:
            continue
        bad = [r for r in xs if r["other_legal"]]
        good = [r for r in xs if r["legal"] and r["right"]]
        from companion.inputs.voice import recognizer

        ill = [r for r in xs if not r["legal"]]
        leg = [r for r in xs if r["legal"]]
        def as_played(r: dict) -> bool:
            return r["conf"] >= CONFIDENCE_THRESHOLD and (r["rival"] is None or r["rival"] >= recognizer.RIVAL_MARGIN)
        played = sum(as_played(r) for r in bad)
        swapped = [r for r in leg if r.get("wrong_legal")]  # a legal request heard as another legal one
        back = sum(r["conf"] < CONFIDENCE_THRESHOLD or (r["rival"] is not None and r["rival"] < recognizer.RIVAL_MARGIN)
                   for r in good)
        lost = sum(r["legal"] and not r["right"] and r["taken"] for r in leg)
        print(f"  {'fitted' if fitted else 'held-out'} voices, as played (RIVAL_MARGIN {recognizer.RIVAL_MARGIN:g}, "
              f"RIVAL_TAKEN_MARGIN {recognizer.RIVAL_TAKEN_MARGIN:g}): illegal heard as said "
              f"{sum(r['right'] for r in ill)}/{len(ill)} ({sum(r['right'] and r['taken'] for r in ill)} by taking the "
              f"rival), as another legal move {len(bad)}, played wrongly {played}; legal heard right "
              f"{len(good)}/{len(leg)}, of them read back {back}; legal heard as the rival (refused) {lost}; "
              f"legal heard as another legal move {len(swapped)}, played wrongly {sum(as_played(r) for r in swapped)}")
        print(f"  {'fitted' if fitted else 'held-out'} voices: {len(xs)} tries; margins of illegal-as-legal "
              f"{sorted(round(r['rival'] or 0) for r in bad)}; of legal heard right "
              f"{sorted(round(r['rival'] or 0) for r in good)}")
        for m in margins:
            def sure(r: dict, m: float = m) -> bool:
                return r["conf"] >= CONFIDENCE_THRESHOLD and (r["rival"] is None or r["rival"] >= m)
            played = sum(sure(r) for r in bad)
            back = sum(not sure(r) for r in good)
            print(f"    margin {m:>6g}: illegal played as another legal move {played}/{len(bad)} heard so "
                  f"(of {sum(1 for r in xs if not r['legal'])}), legal heard right read back {back}/{len(good)}")


def legal_margin_table(rows: list[dict], margins: tuple[float, ...]) -> None:
    """At each margin over the nearest legal request one slot away (`kikoi/phrases.LEGAL_RIVALS`,
    measured by --legal-margins with the check run but not applied): requests heard as another
    legal one and played, right legal requests read back; fitted and held-out voices apart."""
    from companion.inputs.voice import recognizer

    for fitted in (True, False):
        xs = [r for r in rows if r["fitted"] == fitted]
        right = [r for r in xs if r["legal"] and r["right"]]
        for m in margins:
            def sure(r: dict, m: float = m) -> bool:
                return r["conf"] >= CONFIDENCE_THRESHOLD and (r["rival"] is None or r["rival"] >= recognizer.RIVAL_MARGIN) \
                    and (r["legal_rival"] is None or r["legal_rival"] >= m)
            print(f"  {'fitted' if fitted else 'held-out'} voices, legal margin {m:>6g}: played as another legal "
                  f"request {sum(sure(r) for r in xs if r['wrong_legal'])}/{sum(r['legal'] for r in xs)} legal tries, "
                  f"right legal read back {sum(not sure(r) for r in right)}/{len(right)}")


def _action(ui, match, cmd):
    """The request a typed command means (its ask, whatever its legality), or None."""
    if cmd is None:
        return None
    token, player = getattr(cmd, "token", None), getattr(cmd, "player", None)
    if token is None or player is None or len(token.kikois) != 1 or len(token.moments) != 1:
        return None
    return Ask(player, token.kikois[0] * 5 + token.moments[0])


def sizes() -> None:
    """Each game's grammar, whole language on and off, at a state of play: lines and slot values
    of the whole language, automaton states and arcs, compile time (`set_phrases`), and the
    median decode of six listed moves said (the full form)."""
    for gid, names in (("kikoi", NAMES), ("goodfortune", ["Marie", "Bot"]), ("kissa", ["Marie", "Bot"]),
                       ("kaliko", ["Marie", "Bot"])):
        game, ui, _bots = load(find(gid))
        match = Match(game, names, 1)
        while match.current != 0 or (gid == "kikoi" and match.state.phase != ASK):
            match.play(match.current, match.legal(match.current)[0])
        for lang in ("en", "fr"):
            for setting in ("listed", "whole"):
                saved = sayable.WHOLE_GAMES
                sayable.WHOLE_GAMES = saved if setting == "whole" else frozenset()
                try:
                    ps = sayable.sayable_now(ui, match, 0, lang)
                finally:
                    sayable.WHOLE_GAMES = saved
                fa = fsg.automaton(ps, sayable.shared_commands(lang))
                rec = SphinxRecognizer(lang)
                t = time.perf_counter()
                rec.set_phrases(ps)
                compiled = time.perf_counter() - t
                decode = []
                if lang == "en":
                    moves = [m.phrase for m in ps.phrases() if m.command and m.command.startswith("action:")][:6]
                    for text in moves:
                        t = time.perf_counter()
                        rec.recognize(synth.utterance(text, "en-us", 160))
                        decode.append(time.perf_counter() - t)
                values = {k: len(v) for k, v in ps.whole_slots.items()}
                print(f"{gid:11} {lang} {setting:6} whole lines {len(ps.whole):5} values {values} states {fa.n:5} "
                      f"arcs {len(fa.arcs):6} compile {compiled:.2f} s"
                      + (f" decode median {statistics.median(decode):.2f} s ({len(decode)})" if decode else ""))


def kissa_values(lang: str = "en", held_out: bool = True, conditions: tuple[str, ...] = ("clean",),
                 per_state: int = 8, seed: int = 5) -> None:
    """2kissa10 equations said by their values (« 3 plus 4 equals 7 », issue 24 §7): legal
    moves drawn at four states of a seeded game, said in the session language by fitted and
    held-out voices in turn, fed 30 ms at a time as the listener feeds them; heard right when
    the line heard reads as the same command (« égal » for « égale » is right). Before and with
    `fsg.ONE_NULL_HOP` and `fsg.SAMPLED_FLAT` (both off, the baseline, then both as in use), on
    the same utterances: heard right, of those read back (under the session's threshold), lines
    of another command at or above it, and of those the ones played at once (a move not said)."""
    import random

    from companion.games.base import Act
    from companion.games.kissa.finder import TIMES, value_of
    from companion.games.kissa.rules import Move
    from companion.language import spoken

    game, ui, _bots = load(find("kissa"))
    match = Match(game, ["Chloé", "Bot"], seed)
    states: list[tuple[Match, int]] = []
    plies = 0
    while not match.over and len(states) < 4:
        if plies % 3 == 0:
            snap = Match(game, ["Chloé", "Bot"], seed)
            snap.replay(match.actions_json())
            states.append((snap, match.current))
        match.play(match.current, match.legal(match.current)[0])
        plies += 1
    fitted = list(VOICES[lang])
    held = ([v for v in synth.FLITE_VOICES[:2] + synth.FESTIVAL_VOICES[:1] if synth.available(v)] if lang == "en"
            else list(synth.FR_HELD_OUT[1:3])) if held_out else []
    templates = spoken("kissa", "templates", lang)
    rnd = random.Random(seed)
    plan = []
    for k, (m, seat) in enumerate(states):
        board = m.state.board
        moves = [a for a in m.game.legal_actions(m.state, seat) if isinstance(a, Move)]
        for i, mv in enumerate(rnd.sample(moves, min(per_state, len(moves)))):
            values = [value_of(board, x) for x in (mv.a, mv.b, mv.c)]
            text = templates["times" if mv.op == TIMES else "plus"].replace("{number}", "{}").format(*values)
            pool = held if held and i % 2 else fitted
            plan.append((k, text, pool is held and bool(held), rnd.choice(pool), rnd.choice((130, 160, 190, 220)), i))
    saved = fsg.ONE_NULL_HOP, fsg.SAMPLED_FLAT
    try:
        for hop, flat in ((False, False), saved):
            fsg.ONE_NULL_HOP, fsg.SAMPLED_FLAT = hop, flat
            rec = SphinxRecognizer(lang)
            tally: dict[tuple[str, bool], list[int]] = {}
            confs: dict[tuple[str, bool], list[float]] = {}
            for k, (m, seat) in enumerate(states):
                rec.set_phrases(sayable.sayable_now(ui, m, seat, lang))
                for _k, text, is_held, voice, rate, i in (p for p in plan if p[0] == k):
                    want = ui.command(text, m, seat)
                    for cond in conditions:
                        kind, snr = CONDITIONS[cond]
                        pcm = synth.utterance(text, voice, rate, snr, seed=i, noise=kind or "white")
                        r = rec.recognize(pcm, chunk=480)
                        right = r.line is not None and ui.command(r.line, m, seat) == want
                        t = tally.setdefault((cond, is_held), [0, 0, 0, 0, 0])
                        t[0] += right
                        t[1] += 1
                        t[2] += right and r.confidence < CONFIDENCE_THRESHOLD
                        sure_wrong = not right and r.line is not None and r.confidence >= CONFIDENCE_THRESHOLD
                        t[3] += sure_wrong
                        if sure_wrong:  # played at once if it reads as one move now (a state change not said)
                            played = isinstance(ui.read(r.line, m, seat)[0], Act)
                            t[4] += played
                            print(f"  {'PLAYED' if played else 'not played'}: «{text}» ({voice}, {cond}) heard"
                                  f" «{r.line}» at {r.confidence:.2f}")
                        if right:
                            confs.setdefault((cond, is_held), []).append(r.confidence)
            for (cond, is_held), (right, tried, back, wrong, played) in sorted(tally.items()):
                med = statistics.median(confs[(cond, is_held)]) if confs.get((cond, is_held)) else float("nan")
                print(f"2kissa10 values only, {lang}, ONE_NULL_HOP {hop}, SAMPLED_FLAT {flat}, {cond},"
                      f" {'held out' if is_held else 'fitted'}"
                      f" ({', '.join(held if is_held else fitted)}): heard right {right}/{tried}, read back {back}"
                      f" (median confidence {med:.2f}); another line at >= {CONFIDENCE_THRESHOLD}: {wrong}/{tried},"
                      f" of them played (a move not said): {played}")
    finally:
        fsg.ONE_NULL_HOP, fsg.SAMPLED_FLAT = saved


FILLER_FORMS = {"en": ("{}", "um, {}", "{} please"), "fr": ("{}", "euh, {}", "{} s'il te plaît")}


def filler(lang: str = "en", probs: tuple[float | None, ...] = (None, 0.05), cond: str = "clean",
           held_out: bool = True) -> None:
    """Issue 24 §1: the shared filler heard by the recogniser (`fsg.FILLER`) or not (None: the
    decoder's own noise fillers take a hesitation). KIKOI and Good Fortune at a state of play;
    four shared words and four listed moves, each said plain, after « um » / « euh » and before
    "please" / « s'il te plaît »; exact lines per form and setting, fitted and held-out voices
    apart (and how many of the right ones came under the confidence threshold: read back), and
    wrong lines at or above the threshold (taken without read-back)."""
    voices = list(VOICES[lang])
    if held_out:
        voices += [v for v in synth.FLITE_VOICES[:2] if synth.available(v)] if lang == "en" else list(synth.FR_HELD_OUT[:2])
    kind, snr = CONDITIONS[cond]
    plans = []
    for gid, names in (("kikoi", NAMES), ("goodfortune", ["Marie", "Bot"])):
        game, ui, _bots = load(find(gid))
        match = Match(game, names, 1)
        while match.current != 0 or (gid == "kikoi" and match.state.phase != ASK):
            match.play(match.current, match.legal(match.current)[0])
        listed = sayable.sayable_now(ui, match, 0, lang).phrases()
        shared = [m.phrase for m in listed if m.command in ("help", "repeat", "undo", "status")][:4]
        moves = [m.phrase for m in listed if m.command and m.command.startswith("action")][:4]
        plans.append((ui, match, shared + moves))
    saved = fsg.FILLER
    try:
        for prob in probs:
            fsg.FILLER = prob
            rec = SphinxRecognizer(lang)
            right: dict[tuple[bool, str], list[int]] = {}
            wrong = tried = 0
            for ui, match, phrases in plans:
                rec.set_phrases(sayable.sayable_now(ui, match, 0, lang))
                for k, phrase in enumerate(phrases):
                    for form in FILLER_FORMS[lang]:
                        for voice in voices:
                            r = rec.recognize(synth.utterance(form.format(phrase), voice, 160, snr, seed=k,
                                                              noise=kind or "white"))
                            key = (voice in synth.EN_VOICES + synth.FR_VOICES, form)
                            c = right.setdefault(key, [0, 0, 0])
                            c[0] += r.line == phrase
                            c[1] += 1
                            c[2] += r.line == phrase and r.confidence < CONFIDENCE_THRESHOLD  # right, read back
                            tried += 1
                            wrong += r.line is not None and r.line != phrase and r.confidence >= CONFIDENCE_THRESHOLD
            print(f"{lang} {cond} FILLER {prob}: " + "; ".join(
                f"{'fitted' if f else 'held-out'} {form!r} {a}/{b} ({c} under {CONFIDENCE_THRESHOLD})" for (f, form), (a, b, c) in sorted(right.items(), key=lambda kv: (not kv[0][0], kv[0][1])))
                + f"; wrong at >= {CONFIDENCE_THRESHOLD}: {wrong}/{tried}")
    finally:
        fsg.FILLER = saved


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", type=int, default=6)
    p.add_argument("--odds", default=str(fsg.WHOLE_ODDS), help="comma-separated fsg.WHOLE_ODDS to try")
    p.add_argument("--no-baseline", action="store_true")
    p.add_argument("--lang", default="en", help="en or fr (French through the English acoustic model)")
    p.add_argument("--conditions", default="clean", help="comma-separated: clean, white10, babble10")
    p.add_argument("--held-out", action="store_true", help="also two voices never fitted on (flite; French: espeak-ng variants)")
    p.add_argument("--sizes", action="store_true", help="each game's grammar sizes, compile and decode times")
    p.add_argument("--kissa", action="store_true",
                   help="2kissa10 equations said by their values, before and with fsg.ONE_NULL_HOP and SAMPLED_FLAT")
    p.add_argument("--filler", action="store_true", help="the shared filler heard or not (fsg.FILLER)")
    p.add_argument("--take-rival", type=float, default=None,
                   help="recognizer.RIVAL_TAKEN_MARGIN (-1e9: the rival never taken, as before 2026-12-02)")
    p.add_argument("--stream", action="store_true", help="feed each utterance in 30 ms chunks, as the live listener")
    p.add_argument("--listener", default=None,
                   help="comma-separated seconds of quiet before each try, heard through the live listener (e.g. 0,0.3,1)")
    p.add_argument("--voices", default=None,
                   help="comma-separated voices to say the requests instead (fitted: those the benchmarks fit on)")
    p.add_argument("--legal-margins", default=None,
                   help="comma-separated margins over the nearest legal request to tabulate (the check run, not applied)")
    p.add_argument("--dump", help="write each try's row (margin, rival, confidence) to this JSON file")
    args = p.parse_args()
    if args.filler:
        for cond in args.conditions.split(","):
            filler(args.lang, cond=cond, held_out=args.held_out)
        return
    if args.sizes:
        sizes()
        return
    if args.kissa:
        kissa_values(args.lang, args.held_out, tuple(args.conditions.split(",")))
        return
    if args.stream:
        global STREAM
        STREAM = 480
    if args.listener:
        global LEADS
        LEADS = tuple(float(x) for x in args.listener.split(","))
    if args.take_rival is not None:
        from companion.inputs.voice import recognizer
        recognizer.RIVAL_TAKEN_MARGIN = args.take_rival
    margins = tuple(float(m) for m in args.legal_margins.split(",")) if args.legal_margins else ()
    if margins:  # the check runs and keeps its margin, but reads nothing back: tabulated below
        from companion.games.kikoi import phrases as kikoi_phrases
        kikoi_phrases.LEGAL_RIVALS = -float("inf")
    matches = states(args.seeds, bot_names(args.lang))
    voices = tuple(VOICES[args.lang]) + (tuple(v for v in synth.FLITE_VOICES[:2] + synth.FESTIVAL_VOICES[:1]
                                               if synth.available(v)) if args.held_out and args.lang == "en" else ())
    if args.held_out and args.lang == "fr":  # fr-ch left out: espeak-ng says it with fr's own samples
        voices += tuple(v for v in synth.FR_HELD_OUT if v != "fr-ch")
    if args.voices:
        voices = tuple(args.voices.split(","))
    for cond in args.conditions.split(","):
        if not args.no_baseline:
            run("listed", matches, args.lang, voices, cond)
        for odds in args.odds.split(","):
            fsg.WHOLE_ODDS = float(odds)
            print(f"WHOLE_ODDS {odds}:", end=" ")
            rows: list[dict] = []
            run("whole", matches, args.lang, voices, cond, rows)
            rival_table(rows)
            if margins:
                legal_margin_table(rows, margins)
            if args.dump:
                import json
                with open(args.dump, "w") as f:
                    json.dump(rows, f, indent=0)


if __name__ == "__main__":
    main()
