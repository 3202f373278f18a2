"""Voice latency end to end, and the VAD's splitting errors (labelled synthetic speech, NOT
recordings of people).

Two parts:

1. ``--vad``: the segmenter alone (no recogniser, as fast as the CPU goes) on pairs of
   commands said back to back with a short gap (0.5–1.2 s), clean and with white or pink
   noise (20, 10, 5 dB SNR), and on single commands said slowly or with a pause (a comma:
   « Paul, mon plateau »): pairs cut right / merged / lost / split, single commands split,
   for the old settings (webrtcvad alone, 360 ms) and for end-of-utterance silences from
   150 to 450 ms. The trade-off: a shorter hangover answers sooner and cuts more commands
   in two.

2. Latency (default): synthesised commands of the four games, one stream per game with
   1.0–1.5 s between commands, played through the `Listener` as a real-time source (WAV at
   real speed: each 30 ms chunk given when its last sample would have been captured), the
   real recogniser, up to the `Line` in the inbox. For each setting: VAD decision -> line,
   and last voiced sample (where the synthesised speech really ends) -> line, medians and
   95th percentiles; commands heard right, merged, split, missed; and the ratios to the
   baseline (the old VAD, whole-utterance decoding once the VAD has decided), all in the
   same run.

``--vad-compare``: today's webrtcvad + level gate against Silero's trained model (ONNX, run
by onnxruntime), alone and with the same level gate, on the same recordings (the pairs
above, six-talker babble at 10 and 5 dB included; single commands; synthetic door, cough
and cup sounds that must not start an utterance).

Run: nice .venv/bin/python bench/voice_latency.py [--n 12] [--snr none,10] [--vad] [--vad-compare] [--no-latency]
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.voice_accuracy import GAMES, states  # noqa: E402
from companion.inputs.voice import synth  # noqa: E402
from companion.inputs.voice.grammar import PhraseSet  # noqa: E402
from companion.inputs.voice.listener import Heard, Listener  # noqa: E402
from companion.inputs.voice.recognizer import SphinxRecognizer  # noqa: E402
from companion.inputs.voice.sayable import sayable_now  # noqa: E402
from companion.inputs.voice.sources import WavSource, write_wav  # noqa: E402
from companion.inputs.voice.vad import Segmenter  # noqa: E402
from companion.session.inbox import Inbox  # noqa: E402

RATE = 16000
OLD_VAD: dict[str, Any] = {"margin_db": None, "start_frames": 4, "end_ms": 360, "quiet_end_ms": None}
#: name -> (segmenter settings, decode while speaking)
SETTINGS: dict[str, tuple[dict[str, Any], bool]] = {
    "baseline: old VAD, whole-utterance decode": (OLD_VAD, False),
    "old VAD, decode while speaking": (OLD_VAD, True),
    "new VAD (240 ms after a clear voice, else 360), decode while speaking": ({}, True),
    "new VAD, 360 ms always": ({"quiet_end_ms": None}, True),
    "new VAD, 180 ms after a clear voice": ({"quiet_end_ms": 180}, True),
    "Silero + babble gate, decode while speaking, the VAD's end": ({"vad": "default", "grammar_end_ms": None}, True),
    # the same, ending on Silero's start threshold (hysteresis 0) or nearly (0.05) instead of
    # 0.15 below it: its probability stays up after the speech in noise (#30's 300 ms)
    "Silero, hysteresis 0.05, the VAD's end": ({"vad": "silero", "hysteresis": 0.05, "grammar_end_ms": None}, True),
    "Silero, no hysteresis, the VAD's end": ({"vad": "silero", "hysteresis": 0.0, "grammar_end_ms": None}, True),
    # a line heard whole with nothing sayable after it ends the utterance after this much
    # silence (listener.GRAMMAR_END_MS), the VAD's 240 ms otherwise
    "Silero and babble gate, the grammar's end after 60 ms": ({"vad": "default", "grammar_end_ms": 60}, True),
    "in use: Silero + babble gate, the grammar's end after 90 ms": ({"vad": "default", "grammar_end_ms": 90}, True),
    "Silero and babble gate, the grammar's end after 120 ms": ({"vad": "default", "grammar_end_ms": 120}, True),
}


# --------------------------------------------------------------------------- speech
def noise_like(kind: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    w = rng.normal(0, 1, n)
    if kind == "pink":  # 1/f: most power low, like a fan or a room's rumble
        f = np.fft.rfft(w)
        k = np.arange(len(f), dtype=float)
        k[0] = 1.0
        w = np.fft.irfft(f / np.sqrt(k), n)
    return w / np.std(w)


def with_noise(pcm: np.ndarray, snr_db: float | None, kind: str = "white", seed: int = 0, ref: np.ndarray | None = None) -> np.ndarray:
    """Noise at `snr_db` below the speech's power (measured on its voiced samples, of `ref`)."""
    if snr_db is None:
        return pcm
    if kind == "babble":
        return synth.add_babble(pcm, snr_db, seed)
    x = pcm.astype(np.float64)
    r = (ref if ref is not None else pcm).astype(np.float64)
    power = float(np.mean(r[np.abs(r) > 0.05 * (np.max(np.abs(r)) or 1)] ** 2))
    noise = noise_like(kind, len(x), seed) * np.sqrt(power / 10 ** (snr_db / 10))
    return np.clip(x + noise, -32768, 32767).astype(np.int16)


def sounding(pcm: np.ndarray) -> tuple[float, float]:
    """(first, last) second of espeak-ng's output that is not near-silent (it pads with zeros)."""
    loud = np.flatnonzero(np.abs(pcm.astype(np.int32)) > 300)
    return (loud[0] / RATE, (loud[-1] + 1) / RATE) if len(loud) else (0.0, len(pcm) / RATE)


_CACHE: dict[tuple[str, str, int], np.ndarray] = {}


def speak(text: str, voice: str, rate: int) -> np.ndarray:
    key = (text, voice, rate)
    if key not in _CACHE:
        _CACHE[key] = synth.speak(text, voice, rate)
    return _CACHE[key]


# --------------------------------------------------------------------------- part 1: the VAD alone
EN = ["ten times fifty equals five hundred", "help", "push four", "ask Paul for kigliss sleeping", "status", "yes",
      "three plus four equals seven", "exchange all", "undo", "repeat"]
FR = ["dix fois cinquante égale cinq cent", "aide", "pousse quatre", "je demande le kigliss qui dort à Zoé", "état", "oui",
      "échange tout", "annule", "répète", "passe"]
PAUSED = [("Paul, my board", "en-us"), ("Zoé, status", "en+f3"), ("Paul, mon plateau", "fr"), ("Chloé, répète", "fr+f3"),
          ("ask Paul, for kigliss sleeping", "en-us+m3"), ("je demande, le kigliss qui dort, à Zoé", "fr-be")]


def vad_cases() -> tuple[list[tuple[str, np.ndarray, float, float]], list[tuple[str, np.ndarray]]]:
    """(pairs: condition, sound, end of the first command, start of the second), (singles)."""
    pairs = []
    for snr, kind in [(None, "white"), (20, "white"), (10, "white"), (10, "pink"), (5, "white"), (5, "pink"),
                      (10, "babble"), (5, "babble")]:
        cond = "clean" if snr is None else f"{snr} dB {kind}"
        for texts, voices in ((EN, synth.EN_VOICES), (FR, synth.FR_VOICES)):
            for i in range(len(texts)):
                a, b = texts[i], texts[(i * 3 + 1) % len(texts)]
                v, r, gap = voices[i % len(voices)], (130, 170, 200)[i % 3], (0.5, 0.8, 1.2)[i % 3]
                sa, sb = speak(a, v, r), speak(b, v, r)
                pcm = np.concatenate([synth.silence(0.5, seed=i), sa, synth.silence(gap, seed=i + 1), sb, synth.silence(1.0, seed=i + 2)])
                end_a = 0.5 + sounding(sa)[1]
                start_b = 0.5 + len(sa) / RATE + gap + sounding(sb)[0]
                pairs.append((cond, with_noise(pcm, snr, kind, i), end_a, start_b))
    singles = []
    for snr in (None, 10):
        cond = "clean" if snr is None else f"{snr} dB white"
        for texts, voices in ((EN, synth.EN_VOICES), (FR, synth.FR_VOICES)):
            for i, t in enumerate(texts):
                for r in (120, 190):
                    pcm = np.concatenate([synth.silence(0.4, seed=3), speak(t, voices[(i + r) % len(voices)], r), synth.silence(1.0, seed=4)])
                    singles.append((cond, with_noise(pcm, snr, "white", i)))
        for i, (t, v) in enumerate(PAUSED):
            for r in (130, 170):
                pcm = np.concatenate([synth.silence(0.4, seed=3), speak(t, v, r), synth.silence(1.0, seed=4)])
                singles.append((cond + ", paused", with_noise(pcm, snr, "white", i)))
    return pairs, singles


def knocks(seed: int) -> list[tuple[str, np.ndarray]]:
    """Sounds that are no speech (synthetic): a door shut (a click and a low, decaying
    thud), a cough (two bursts of breath noise with a throat resonance), a cup set down,
    each 25 dB above a quiet room, alone in 2 s of it."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(0.4 * RATE)) / RATE
    door = np.sin(2 * np.pi * 70 * t) * np.exp(-t / 0.08) + rng.normal(0, 1, len(t)) * np.exp(-t / 0.01)
    burst_t = np.arange(int(0.22 * RATE)) / RATE
    env = np.minimum(1, burst_t / 0.01) * np.exp(-burst_t / 0.07)
    f = np.fft.rfft(rng.normal(0, 1, len(burst_t)))
    freqs = np.fft.rfftfreq(len(burst_t), 1 / RATE)
    f *= np.exp(-((freqs - 900) / 700) ** 2) + 0.3 * np.exp(-((freqs - 2500) / 500) ** 2)
    cough1 = np.fft.irfft(f, len(burst_t)) * env
    cough = np.concatenate([cough1, np.zeros(int(0.12 * RATE)), 0.7 * cough1])
    ct = np.arange(int(0.15 * RATE)) / RATE
    cup = np.sin(2 * np.pi * 2300 * ct) * np.exp(-ct / 0.03) + 0.5 * np.sin(2 * np.pi * 3700 * ct) * np.exp(-ct / 0.02)
    out = []
    for name, x in (("door", door), ("cough", cough), ("cup", cup)):
        x = x / np.sqrt(np.mean(x ** 2)) * 8.0 * 10 ** (25 / 20)  # the room's noise is 8 units rms
        room = synth.silence(2.0, seed=seed).astype(np.float64)
        room[8000:8000 + len(x)] += x
        out.append((name, np.clip(room, -32768, 32767).astype(np.int16)))
    return out


#: the segmenters compared on the same recordings: name -> (class name, settings)
VADS: dict[str, tuple[str, dict[str, Any]]] = {
    "webrtcvad + level gate (before)": ("webrtc", {}),
    "silero alone": ("silero", {"margin_db": None}),
    "webrtcvad + gate + babble gate": ("webrtc", {"babble_db": 6.0}),
    "silero + babble gate (no floor margin)": ("silero", {"babble_db": 6.0, "margin_db": 0.0}),
    "in use: the same, 240 ms to end": ("silero", {"babble_db": 6.0, "margin_db": 0.0, "end_ms": 240}),
    # Silero's probability stays up some 200 ms after the speech in noise: ending on the start
    # threshold itself (no hysteresis) or nearly, to hear the end sooner (#30's 300 ms)
    "in use, hysteresis 0.05": ("silero", {"babble_db": 6.0, "margin_db": 0.0, "end_ms": 240, "hysteresis": 0.05}),
    "in use, no hysteresis": ("silero", {"babble_db": 6.0, "margin_db": 0.0, "end_ms": 240, "hysteresis": 0.0}),
    "in use, 210 ms to end": ("silero", {"babble_db": 6.0, "margin_db": 0.0, "end_ms": 210}),
    "in use, 180 ms to end": ("silero", {"babble_db": 6.0, "margin_db": 0.0, "end_ms": 180}),
}


def segment(pcm: np.ndarray, **kw: Any) -> list[Any]:
    kind = kw.pop("vad", "webrtc")
    if kind == "silero":
        from companion.inputs.voice.silero import SileroSegmenter

        seg: Segmenter = SileroSegmenter(**kw)
    else:
        seg = Segmenter(**kw)
    out = seg.feed_samples(pcm)
    last = seg.flush()
    return out + ([last] if last is not None else [])


def vad_compare() -> None:
    """webrtcvad + level gate against Silero's model, on the same recordings: pairs of
    commands cut right (start and end found) by condition, babble included; single
    commands split; door, cough and cup sounds alone taken for an utterance; and the time
    each takes per 30 ms frame."""
    pairs, singles = vad_cases()
    noises = [x for seed in range(8) for x in knocks(seed)]
    conds = list(dict.fromkeys(c for c, *_ in pairs))
    print(f"\nVAD compared: {len(pairs)} pairs, {len(singles)} single commands, {len(noises)} knocks "
          f"(door, cough, cup; synthetic, 25 dB above a quiet room)")
    print(f"{'VAD':34} {'pairs right':>12} {'extra utt.':>10} {'single split':>13} {'knocks taken':>13} {'ms/frame':>9}   by condition "
          f"({', '.join(conds)})")
    for name, (kind, kw) in VADS.items():
        try:
            c = 0
            by: collections.Counter[str] = collections.Counter()
            t = time.perf_counter()
            frames = 0
            extra = 0
            for cond, pcm, end_a, start_b in pairs:
                u = segment(pcm, vad=kind, **kw)
                frames += len(pcm) // 480
                # each command in an utterance of its own (in babble the other talkers may
                # make utterances of their own besides: counted apart, as extra)
                first = [x for x in u if x.start <= end_a - 0.1 and x.last_voiced >= end_a - 0.15 and x.last_voiced <= start_b + 0.05]
                second = [x for x in u if x.start >= end_a - 0.05 and x.start <= start_b + 0.1 and x.last_voiced >= start_b + 0.2]
                if first and second:
                    c += 1
                    by[cond] += 1
                extra += max(0, len(u) - 2)
            per_frame = (time.perf_counter() - t) * 1000 / frames
            split = sum(len(segment(pcm, vad=kind, **kw)) > 1 for _c, pcm in singles)
            taken = collections.Counter(n for n, pcm in noises if segment(pcm, vad=kind, **kw))
        except RuntimeError as e:
            print(f"{name:34} not measured: {e}")
            continue
        print(f"{name:34} {c:>5}/{len(pairs):<6} {extra:>10} {split:>6}/{len(singles):<6} {sum(taken.values()):>6}/{len(noises):<6} "
              f"{per_frame:>8.2f}   " + " ".join(f"{by[k]}/{sum(1 for x in pairs if x[0] == k)}" for k in conds)
              + (f"   (knocks: {dict(taken)})" if taken else ""))


def vad_table() -> None:
    pairs, singles = vad_cases()
    print(f"VAD alone: {len(pairs)} pairs of commands back to back (gap 0.5/0.8/1.2 s; espeak-ng, en and fr voices, "
          f"120–200 wpm), {len(singles)} single commands (some with a pause at a comma)")
    rows: list[tuple[str, dict[str, Any]]] = [("old: webrtcvad alone, 360 ms", OLD_VAD)]
    for end in (150, 180, 210, 240, 270, 300, 360, 450):
        rows.append((f"new, {end} ms always", {"end_ms": end, "quiet_end_ms": None}))
    for quiet in (180, 210, 240, 270):
        rows.append((f"new, {quiet} ms after a clear voice, else 360", {"quiet_end_ms": quiet}))
    conds = list(dict.fromkeys(c for c, *_ in pairs))
    print(f"{'setting':44} {'pairs cut right':>16} {'merged':>7} {'lost':>5} {'split':>6} {'single split':>13} "
          f"{'paused split':>13}   pairs right by condition ({', '.join(conds)})")
    for name, kw in rows:
        c: collections.Counter[str] = collections.Counter()
        by: collections.Counter[str] = collections.Counter()
        for cond, pcm, end_a, start_b in pairs:
            u = segment(pcm, **kw)
            if len(u) == 2 and u[0].last_voiced <= start_b + 0.05 and u[1].start >= end_a - 0.05:
                c["ok"] += 1
                by[cond] += 1
            elif len(u) < 2 and any(x.start < end_a and x.last_voiced > start_b for x in u):
                c["merged"] += 1
            elif len(u) < 2:
                c["lost"] += 1
            else:
                c["split"] += 1
        s_split = sum(len(segment(pcm, **kw)) > 1 for cond, pcm in singles if "paused" not in cond)
        p_split = sum(len(segment(pcm, **kw)) > 1 for cond, pcm in singles if "paused" in cond)
        n_s = sum("paused" not in cond for cond, _ in singles)
        n_p = len(singles) - n_s
        print(f"{name:44} {c['ok']:>9}/{len(pairs):<6} {c['merged']:>7} {c['lost']:>5} {c['split']:>6} "
              f"{s_split:>6}/{n_s:<6} {p_split:>6}/{n_p:<6}   " + " ".join(f"{by[k]}/{sum(1 for x in pairs if x[0] == k)}" for k in conds))


# --------------------------------------------------------------------------- part 2: latency
@dataclass
class Said:
    phrase: str
    start: float  # stream seconds: the command's sound
    end: float  # its last voiced sample


def paused(phrase: str, rnd: random.Random) -> str:
    """The phrase with a comma after one of its words (espeak-ng pauses there, as a player
    does mid-command): where an utterance must not end, however soon the grammar's end comes."""
    words = phrase.split()
    if len(words) < 2:
        return phrase
    k = rnd.randrange(1, len(words))
    return " ".join(words[:k]) + ", " + " ".join(words[k:])


def stream(phrases: PhraseSet, n: int, snr: float | None, rnd: random.Random,
           pause: bool = False) -> tuple[np.ndarray, list[Said]]:
    """n listed phrases (moves and shared words), said one after another with 1.0–1.5 s between
    (`pause`: each said with a comma inside, `paused`)."""
    listed = [m.phrase for m in phrases.phrases()]
    moves = [m.phrase for m in phrases.phrases() if m.command and m.command.startswith("action:")]
    parts = [synth.silence(0.6, seed=rnd.randrange(1000))]
    said = []
    t = 0.6
    for i in range(n):
        phrase = rnd.choice(moves if moves and i % 2 == 0 else listed)
        pcm = speak(paused(phrase, rnd) if pause else phrase, rnd.choice(synth.EN_VOICES), rnd.choice((150, 170, 190)))
        a, b = sounding(pcm)
        said.append(Said(phrase, t + a, t + b))
        gap = rnd.uniform(1.0, 1.5)
        parts += [pcm, synth.silence(gap, seed=rnd.randrange(1000))]
        t += len(pcm) / RATE + gap
    pcm = np.concatenate(parts)
    return with_noise(pcm, snr, "white", 1), said


@dataclass
class Outcome:
    heard: list[Heard]
    t0: float
    said: list[Said]

    def matched(self) -> tuple[list[tuple[Said, Heard]], collections.Counter[str]]:
        """Each command with the one utterance that holds it; counts of right, merged, split, missed."""
        counts: collections.Counter[str] = collections.Counter()
        pairs = []
        for s in self.said:
            over = [h for h in self.heard if h.utterance.start < s.end and h.utterance.last_voiced + 0.3 > s.start]
            holds = [h for h in over if sum(1 for o in self.said if h.utterance.start < o.end and h.utterance.last_voiced + 0.3 > o.start) > 1]
            if not over:
                counts["missed"] += 1
            elif holds:
                counts["merged"] += 1
            elif len(over) > 1:
                counts["split"] += 1
            else:
                counts["one utterance"] += 1
                pairs.append((s, over[0]))
                counts["line right"] += over[0].posted is not None and over[0].result.line == s.phrase
        return pairs, counts


def run_setting(kw: dict[str, Any], streaming: bool, rec: SphinxRecognizer, phrases: PhraseSet, wav: Path,
                said: list[Said]) -> Outcome:
    source = WavSource([wav], realtime=True, gap=0.0)
    kw = dict(kw)
    grammar_end = kw.pop("grammar_end_ms", None)  # the old settings: the VAD's silence alone
    if kw.get("vad") == "default":
        from companion.inputs.voice.silero import default_segmenter

        seg = default_segmenter()
    elif kw.get("vad") == "silero":  # the settings in use, with these changed
        from companion.inputs.voice.silero import SILERO_SETTINGS, SileroSegmenter

        seg = SileroSegmenter(**{**SILERO_SETTINGS, "end_ms": int(SILERO_SETTINGS["end_ms"]),
                                 **{k: v for k, v in kw.items() if k != "vad"}})
    else:
        seg = Segmenter(**kw)
    listener = Listener(source, rec, Inbox(), lambda: phrases, segmenter=seg, streaming=streaming,
                        grammar_end_ms=grammar_end)
    listener.start().join()
    assert source.t0 is not None
    return Outcome(listener.heard, source.t0, said)


def cond_name(snr: float | str | None, long: bool = False) -> str:
    if snr is None:
        return "clean"
    if snr == "paused":
        return "clean, a pause inside each command" if long else "paused"
    return f"{snr:g} dB white noise" if long else f"{snr:g} dB"


def ms(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{1000 * statistics.median(values):5.0f} / {1000 * float(np.percentile(values, 95)):5.0f}"


def latency(n: int, snrs: list[float | str | None], games: list[str], only: list[str] | None = None,
            engine: str = "pocketsphinx") -> None:
    from companion.inputs.voice.engines import (
        open_engine,  # --engine whisper: docs/voice.md « Whisper »
    )

    rec = open_engine("en", engine)
    print(f"engine: {engine} ({type(rec).__name__})")
    rnd = random.Random(7)
    streams = []
    with tempfile.TemporaryDirectory() as tmp:
        for g in games:
            ui, match, seat = states(g, 2)[-1]  # three moves into a bot game
            phrases = sayable_now(ui, match, seat, "en", limit=None)
            for snr in snrs:
                pause = snr == "paused"  # clean, each command with a pause inside
                pcm, said = stream(phrases, n, None if pause or snr is None else float(snr), rnd, pause=pause)
                wav = Path(tmp) / f"{g}-{snr}.wav"
                write_wav(wav, pcm)
                streams.append((g, snr, phrases, wav, said, len(pcm) / RATE))
        total = sum(s[-1] for s in streams)
        print(f"\nLatency through the Listener at real speed: {len(streams)} streams ({', '.join(games)}; "
              f"{', '.join(cond_name(s, long=True) for s in snrs)}), {n} commands each, "
              f"{total:.0f} s of sound per setting")
        results: dict[str, dict[str, Any]] = {}
        for name, (kw, streaming) in SETTINGS.items():
            if only and not any(o in name for o in only):
                continue
            t = time.time()
            r: dict[str, Any] = {"dec": [], "voice": [], "wait": [], "late": [], "counts": collections.Counter(),
                                 "by": collections.defaultdict(list)}
            for g, snr, phrases, wav, said, _dur in streams:
                out = run_setting(kw, streaming, rec, phrases, wav, said)
                pairs, c = out.matched()
                r["counts"].update(c)
                for s, h in pairs:
                    if h.posted_at is None:
                        continue
                    r["dec"].append(h.posted_at - h.decided_at)
                    r["voice"].append(h.posted_at - (out.t0 + s.end))
                    r["wait"].append(h.utterance.decided - s.end)  # stream time: the VAD's own wait
                    r["late"].append(h.decided_at - (out.t0 + h.utterance.decided))  # the thread behind the sound
                    r["by"][(g, cond_name(snr))].append(h.posted_at - (out.t0 + s.end))
            results[name] = r
            print(f"  ran {name!r} in {time.time() - t:.0f} s", flush=True)
    n_all = n * len(streams)
    print(f"\n{'setting':72} {'VAD decision -> line':>21} {'last voiced -> line':>20} {'VAD wait':>9} {'behind':>7}  "
          f"{'one utt.':>8} {'right':>6} {'merged':>6} {'split':>5} {'missed':>6}")
    print(f"{'':72} {'median / p95 ms':>21} {'median / p95 ms':>20} {'median':>9} {'median':>7}")
    for name, r in results.items():
        c = r["counts"]
        print(f"{name:72} {ms(r['dec']):>21} {ms(r['voice']):>20} {med(r['wait']):>9} {med(r['late']):>7}  "
              f"{c['one utterance']:>4}/{n_all:<3} {c['line right']:>6} {c['merged']:>6} {c['split']:>5} {c['missed']:>6}")
    print("\n(VAD wait: from the true end of the speech to the VAD's decision, in stream time; behind: how late the "
          "listener's thread took that decision, still decoding the command before)")
    keys = list(dict.fromkeys(k for r in results.values() for k in r["by"]))
    print("\nlast voiced -> line, median ms, per stream: " + ", ".join(f"{g} {c}" for g, c in keys))
    for name, r in results.items():
        print(f"  {name:72} " + " ".join(f"{med(r['by'][k]):>6}" for k in keys))
    base = next(iter(results.values()))
    print("\nratios to the baseline (median; below 1 is faster):")
    for name, r in list(results.items())[1:]:
        if r["dec"] and r["voice"] and base["dec"] and base["voice"]:
            print(f"  {name:72} decision -> line x{statistics.median(r['dec']) / statistics.median(base['dec']):.2f}   "
                  f"last voiced -> line x{statistics.median(r['voice']) / statistics.median(base['voice']):.2f}")


def med(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):.0f}" if values else "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10, help="commands per game and noise condition")
    ap.add_argument("--snr", default="none,10", help="noise conditions for the latency part: none (clean), dB of white noise, or paused "
                    "(clean, a comma inside each command: utterances split by ending too soon)")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--vad", action="store_true", help="the VAD's splitting table")
    ap.add_argument("--vad-compare", action="store_true", help="webrtcvad + gate against Silero, same recordings")
    ap.add_argument("--no-latency", action="store_true")
    ap.add_argument("--settings", default="", help="only the latency settings whose names contain these words "
                    "(comma-separated), e.g. 'baseline,in use'")
    ap.add_argument("--engine", default="pocketsphinx", help="the recogniser: pocketsphinx, whisper, confirm, checked, rescore")
    args = ap.parse_args()
    t0 = time.time()
    if args.vad:
        vad_table()
    if args.vad_compare:
        vad_compare()
    if not args.no_latency:
        snrs: list[float | str | None] = [None if s.strip() == "none" else "paused" if s.strip() == "paused" else float(s)
                                          for s in args.snr.split(",")]
        latency(args.n, snrs, args.games.split(","), [x for x in args.settings.split(",") if x], args.engine)
    print(f"\n(ran in {time.time() - t0:.0f} s on {Path('/proc/loadavg').read_text().split()[0]} load average)")


if __name__ == "__main__":
    main()
