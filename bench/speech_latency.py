"""Speech latency as heard: from `say()` to the first audible sample, and from `interrupt()`
to the last audible sample, at the sound output.

The output is a probe that behaves like a sound device with a one-block buffer: a block
handed to it at time w starts to play at s = max(w, end of the previous block) and `write`
returns at s (the device has room again). Every block is kept with w and s, so each sample
has the time it is heard: s + i / rate.

* **first audible**: from just before `say()` to the time the first sample louder than the
  threshold (default -40 dBFS) is heard;
* **after interrupt**: from just before `interrupt()` to the end of the last sample louder
  than the threshold handed to the output. Blocks handed to the output are counted as heard
  to their end even if the player discards them afterwards (a WAV file or a device that
  cannot drop its buffer): the worst case.

Each engine (espeak-ng, pyttsx3, speech-dispatcher when installed) speaks French and
English sentences of three kinds: short (2-5 words), long (12-20 words), and sentences
starting with the plosives P or T (espeak-ng puts 40-50 ms of silence before them). Each
sentence is cut by `interrupt()` at a random moment 30-300 ms after its first audible
sample (seeded). Engines that play by themselves (speech-dispatcher) give no samples to
the companion: they are listed as such.

    .venv/bin/python bench/speech_latency.py                       # 3 rounds, all engines
    .venv/bin/python bench/speech_latency.py --rounds 5 --engines espeak-ng
    .venv/bin/python bench/speech_latency.py --dump out/           # keep what the output got
    .venv/bin/python bench/speech_latency.py --recompute out/      # the figures from a dump

`--dump DIR` writes `DIR/utterances.jsonl` (per utterance: engine, text, the call and
interrupt times, and each block: received at, heard from, frames, rate) and `DIR/NNNN.wav`
(the samples received, float32, blocks one after the other), from which `--recompute DIR`
(or anyone) computes the same figures again.

Targets (issue 18), espeak-ng: first audible median <= 5 ms, p95 <= 15 ms; after
interrupt <= 10 ms. Figures measured on the 2-core development VM are in docs/speech.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.narration import Priority  # noqa: E402
from companion.outputs.speaker import Speaker  # noqa: E402
from companion.outputs.speech import UnavailableEngine, get_engine  # noqa: E402

try:  # after the split (issue 18)
    from companion.outputs.audio.sinks import Sink  # noqa: E402
except ImportError:  # pragma: no cover - before it
    from companion.outputs.audio.sinks import Sink  # type: ignore[no-redef]  # noqa: E402

SENTENCES: dict[str, dict[str, list[str]]] = {
    "fr": {
        "short": ["À toi, Marie.", "Marie joue.", "Six points.", "Encore une fois.", "Zoé gagne."],
        "long": [
            "C'est au tour de Marie de lancer le dé, elle peut avancer de trois cases ou rester.",
            "Le domino six-quatre se place à droite, il reste deux bouts ouverts sur la table.",
            "La partie est finie : Marie gagne avec quarante-deux points, devant Zoé.",
            "Il te reste trois jetons en main : le soleil, la lune et l'étoile, choisis-en un.",
        ],
        "plosive": [
            "Paul pioche un jeton.", "Trois points pour Zoé.", "Tu as choisi le neuf.",
            "Pas encore, attends ton tour.", "Toutes les cases sont prises dans la colonne E.",
        ],
    },
    "en": {
        "short": ["Your turn, Mary.", "Mary plays.", "Six points.", "Once more.", "Zoe wins."],
        "long": [
            "It is Mary's turn to roll the die, and she may move three spaces or stay where she is.",
            "The six-four domino goes on the right, and two open ends remain on the table.",
            "The game is over: Mary wins with forty-two points, ahead of Zoe with thirty-eight.",
            "You have three tokens left in your hand: the sun, the moon and the star; choose one.",
        ],
        "plosive": [
            "Paul draws a token.", "Three points for Zoe.", "Take another one.",
            "Put it on the left.", "Two cells are still free in column E.",
        ],
    },
}
KINDS = ("short", "long", "plosive")


class ProbeSink(Sink):
    """A sound device with a one-block buffer, keeping every block with its times."""

    kind = "recording"
    realtime = True

    def __init__(self, threshold: float = 0.01) -> None:
        self._clock = 0.0
        self.threshold = threshold
        self.blocks: list[tuple[float, float, np.ndarray, int]] = []  # (received, heard from, samples, rate)
        self.discards: list[float] = []
        self.audible = threading.Event()  # a block with a sample above the threshold came
        self._lock = threading.Lock()

    def write(self, block: Any, sr: int) -> None:
        now = time.perf_counter()
        start = max(self._clock, now)
        self._clock = start + len(block) / sr
        samples = np.array(block, dtype=np.float32)
        with self._lock:
            self.blocks.append((now, start, samples, sr))
        if not self.audible.is_set() and len(samples) and float(np.max(np.abs(samples))) > self.threshold:
            self.audible.set()
        delay = start - time.perf_counter()
        if delay > 0:
            time.sleep(delay)

    def discard(self) -> None:
        self.discards.append(time.perf_counter())
        self._clock = time.perf_counter()

    def take(self) -> list[tuple[float, float, np.ndarray, int]]:
        with self._lock:
            out, self.blocks = self.blocks, []
            self.audible.clear()
        return out


def first_audible(blocks: list[tuple[float, float, np.ndarray, int]], threshold: float) -> float | None:
    """The time the first sample louder than `threshold` is heard."""
    for _received, start, samples, sr in blocks:
        loud = np.nonzero(np.abs(samples) > threshold)[0]
        if len(loud):
            return start + float(loud[0]) / sr
    return None


def last_audible_end(blocks: list[tuple[float, float, np.ndarray, int]], threshold: float) -> float | None:
    """The time the last sample louder than `threshold` handed to the output has been heard."""
    for _received, start, samples, sr in reversed(blocks):
        loud = np.nonzero(np.abs(samples) > threshold)[0]
        if len(loud):
            return start + float(loud[-1] + 1) / sr
    return None


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def measure(engine: str, rounds: int, seed: int, threshold: float, dump: Path | None,
            counter: list[int]) -> list[dict[str, Any]] | str:
    try:
        eng = get_engine(engine)
    except UnavailableEngine as exc:
        return exc.reason
    if not eng.produces_audio:
        return "plays by itself: the companion never receives its samples"
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for lang, kinds in SENTENCES.items():
        probe = ProbeSink(threshold)
        sp = Speaker(eng, probe, lang)
        try:
            sp.say(kinds["short"][0], Priority.TEXT)  # unmeasured: imports, caches, spare process
            sp.wait(10)
            time.sleep(0.05)
            for _ in range(rounds):
                for kind in KINDS:
                    for text in kinds[kind]:
                        probe.take()
                        t_call = time.perf_counter()
                        item = sp.say(text, Priority.TEXT)
                        # the measuring thread sleeps meanwhile: it takes nothing from the player
                        probe.audible.wait(10)
                        with probe._lock:
                            heard = first_audible(list(probe.blocks), threshold)
                        t_int = None
                        if heard is not None:
                            delay = heard + rng.uniform(0.03, 0.3) - time.perf_counter()
                            time.sleep(max(0.0, delay))
                            if not item.done.is_set():
                                t_int = time.perf_counter()
                                sp.interrupt()
                        sp.wait(10)
                        blocks = probe.take()
                        row = {
                            "engine": engine, "lang": lang, "kind": kind, "text": text,
                            "call": t_call, "interrupt": t_int if item.cut else None,
                            "blocks": [(r, s, len(b), sr) for r, s, b, sr in blocks],
                        }
                        row.update(figures(row, blocks, threshold))
                        rows.append(row)
                        if dump is not None:
                            counter[0] += 1
                            write_dump(dump, counter[0], row, blocks)
                        time.sleep(0.02)
        finally:
            sp.close()
    return rows


def figures(row: dict[str, Any], blocks: list[tuple[float, float, np.ndarray, int]], threshold: float) -> dict[str, Any]:
    first = first_audible(blocks, threshold)
    out: dict[str, Any] = {"first_ms": None if first is None else (first - row["call"]) * 1000}
    if row["interrupt"] is not None:
        end = last_audible_end(blocks, threshold)
        out["after_interrupt_ms"] = max(0.0, (end or row["interrupt"]) - row["interrupt"]) * 1000
    else:
        out["after_interrupt_ms"] = None
    return out


def write_dump(folder: Path, n: int, row: dict[str, Any], blocks: list[tuple[float, float, np.ndarray, int]]) -> None:
    import soundfile as sf

    folder.mkdir(parents=True, exist_ok=True)
    rates = {sr for *_, sr in blocks}
    if len(rates) > 1:
        raise SystemExit(f"utterance {n}: blocks at several rates {sorted(rates)}")
    wav = f"{n:04d}.wav"
    if blocks:
        sf.write(str(folder / wav), np.concatenate([b for _, _, b, _ in blocks]), blocks[0][3], subtype="FLOAT")
    with (folder / "utterances.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({k: v for k, v in row.items() if not k.endswith("_ms")} | {"wav": wav if blocks else None},
                            ensure_ascii=False) + "\n")


def read_dump(folder: Path, threshold: float) -> list[dict[str, Any]]:
    import soundfile as sf

    rows = []
    for line in (folder / "utterances.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        samples = sf.read(str(folder / row["wav"]), dtype="float32")[0] if row["wav"] else np.zeros(0, np.float32)
        blocks, at = [], 0
        for received, start, n, sr in row["blocks"]:
            blocks.append((received, start, samples[at : at + n], sr))
            at += n
        row.update(figures(row, blocks, threshold))
        rows.append(row)
    return rows


def report(rows: list[dict[str, Any]], engine: str) -> None:
    for kind in (*KINDS, "all"):
        sel = [r for r in rows if r["engine"] == engine and kind in (r["kind"], "all")]
        first = [r["first_ms"] for r in sel if r["first_ms"] is not None]
        cut = [r["after_interrupt_ms"] for r in sel if r["after_interrupt_ms"] is not None]
        if not first:
            continue
        cut_s = (f"{statistics.median(cut):>8.2f} {percentile(cut, 95):>8.2f} {max(cut):>8.2f}"
                 if cut else f"{'-':>8} {'-':>8} {'-':>8}")
        print(f"{engine:<18} {kind:<8} {len(first):>4} {statistics.median(first):>8.2f} "
              f"{percentile(first, 95):>8.2f} {max(first):>8.2f}   {len(cut):>4} {cut_s}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="times each sentence is said (default 3)")
    parser.add_argument("--engines", nargs="+", default=["espeak-ng", "pyttsx3", "speech-dispatcher"])
    parser.add_argument("--threshold-db", type=float, default=-40.0, help="audible above this (dBFS, default -40)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--dump", type=Path, help="write what the output received into this folder")
    parser.add_argument("--recompute", type=Path, help="only compute the figures from a dump folder")
    args = parser.parse_args(argv)
    threshold = 10 ** (args.threshold_db / 20)
    header = (f"{'engine':<18} {'kind':<8} {'n':>4} {'median':>8} {'p95':>8} {'max':>8}   "
              f"{'n':>4} {'median':>8} {'p95':>8} {'max':>8}")
    if args.recompute is not None:
        rows = read_dump(args.recompute, threshold)
        print(f"recomputed from {args.recompute}, audible above {args.threshold_db:.0f} dBFS")
        print(f"{'':<33}say() -> first audible (ms)    interrupt() -> last audible (ms)")
        print(header)
        for name in dict.fromkeys(r["engine"] for r in rows):
            report(rows, name)
        return 0
    if args.dump is not None:
        args.dump.mkdir(parents=True, exist_ok=True)
        (args.dump / "utterances.jsonl").write_text("", encoding="utf-8")
    n = sum(len(v) for k in SENTENCES.values() for v in k.values())
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"{n} sentences (fr, en; short, long, starting with P or T) x {args.rounds} rounds; "
          f"audible above {args.threshold_db:.0f} dBFS; python {sys.version.split()[0]}; "
          f"{os.cpu_count()} cores, load average {load}")
    print(f"{'':<33}say() -> first audible (ms)    interrupt() -> last audible (ms)")
    print(header)
    counter = [0]
    for name in args.engines:
        res = measure(name, args.rounds, args.seed, threshold, args.dump, counter)
        if isinstance(res, str):
            print(f"{name:<18} unavailable: {res}")
            continue
        report(res, name)
    if hasattr(os, "getloadavg"):
        print("load average at the end: " + " / ".join(f"{x:.1f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
