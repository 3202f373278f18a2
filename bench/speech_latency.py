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

**The limit** (espeak-ng): `bench/speech_limit.c`, libespeak-ng called from C in one thread
with the same voice, rate, buffer and silence trim as the companion, timed the same way
(from just before `espeak_Synth()` to the first audible sample as the probe would hear it).
It is compiled here with gcc (cached by the source's hash in a temporary folder) and asked
for each sentence just before the companion says it, so both are measured in the same
moments of the machine's load; the figures are printed side by side with their difference.
Without gcc or the libespeak-ng-dev headers, one line says so and only the companion is
measured.

    .venv/bin/python bench/speech_latency.py --engines espeak-ng --as-user companion-bench --busy 2

`--as-user NAME` (as root): both run as the ordinary user NAME, without raised priority
(the user is made with useradd --system when missing and removed afterwards; the Python
used is one that user may run, with this venv's packages). `--busy N` starts N busy
processes (`yes > /dev/null`) for the time of the measure and stops them.

Targets (issue 18), espeak-ng: first audible median <= 5 ms, p95 <= 15 ms; after
interrupt <= 10 ms. Issue 26: the first audible sample's p95 within 1 ms of the limit's, as
an ordinary user beside two busy processes. Figures measured on the 2-core development VM
are in docs/speech.md.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import shutil
import stat
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.narration import Priority  # noqa: E402
from companion.outputs.speaker import Speaker  # noqa: E402
from companion.outputs.speech import DEFAULT_VOICES, UnavailableEngine, get_engine  # noqa: E402

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

    def ready(self, frames: int, sr: int) -> bool:  # the device holds nothing not yet heard
        return self._clock <= time.perf_counter()

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


LIMIT_SOURCE = Path(__file__).resolve().parent / "speech_limit.c"


class Limit:
    """bench/speech_limit.c, compiled once per source (cached by its hash), running beside
    the companion: `first(voice, rate, cut_ms, text)` is its first audible sample (ms)."""

    def __init__(self, threshold: float) -> None:
        binary = self.build()
        self.proc = subprocess.Popen([str(binary), repr(threshold)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        assert self.proc.stdout is not None
        ready = self.proc.stdout.readline().split()
        if not ready or ready[0] != "ready":
            raise RuntimeError("the C harness did not start (no voice data?)")

    @staticmethod
    def build() -> Path:
        """The compiled harness; RuntimeError saying why it cannot be built."""
        source = LIMIT_SOURCE.read_bytes()
        key = hashlib.sha256(source).hexdigest()[:16]
        cache = Path(tempfile.gettempdir()) / f"companion-bench-{os.getuid()}"
        cache.mkdir(mode=0o700, parents=True, exist_ok=True)
        # a shared /tmp: run only what is in a folder of ours that nobody else may write
        st = cache.lstat()
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
            raise RuntimeError(f"{cache} is not a private folder of this user: remove it")
        binary = cache / f"speech_limit-{key}"
        if binary.exists():
            return binary
        gcc = shutil.which("gcc") or shutil.which("cc")
        if gcc is None:
            raise RuntimeError("no C compiler (apt-get install gcc)")
        tmp = cache / f".speech_limit-{key}.{os.getpid()}"
        done = subprocess.run([gcc, "-O2", "-o", str(tmp), str(LIMIT_SOURCE), "-lespeak-ng", "-lm"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            first = (done.stderr.strip().splitlines() or ["?"])[0]
            raise RuntimeError(f"cannot build it ({first}; the headers are in libespeak-ng-dev)")
        tmp.replace(binary)
        return binary

    def first(self, voice: str, rate: int, cut_ms: float, text: str) -> float | None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{voice}\t{rate}\t{cut_ms:.1f}\t{' '.join(text.split())}\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        try:
            value = float(answer)
        except ValueError:
            raise RuntimeError(f"the C harness answered {answer!r}") from None
        return None if value != value else value

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start_busy(n: int) -> list[subprocess.Popen[bytes]]:
    """`n` busy processes (`yes > /dev/null`), as the load of the target."""
    return [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(n)]


def stop_busy(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        p.wait()


def priorities(sp: Speaker) -> str:
    """The nice value of the speaking threads (the player's and the library's)."""
    out = []
    for t in threading.enumerate():
        if t.name.startswith(("player-", "espeak-lib")) and t.native_id is not None:
            with contextlib.suppress(OSError):
                out.append(f"{t.name} {os.getpriority(os.PRIO_PROCESS, t.native_id)}")
    return ", ".join(dict.fromkeys(out)) or "?"


def measure(engine: str, rounds: int, seed: int, threshold: float, dump: Path | None,
            counter: list[int], limit: Limit | None = None) -> list[dict[str, Any]] | str:
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
            rate, voice, _volume = sp.player.settings(lang)
            voice = voice or DEFAULT_VOICES.get(lang, lang)
            if limit is not None:
                limit.first(voice, rate, 30.0, kinds["short"][0])  # unmeasured, as above
            print(f"  {engine} {lang}: voice {voice}, rate {rate}; nice of the threads: {priorities(sp)}",
                  file=sys.stderr)
            time.sleep(0.05)
            for _ in range(rounds):
                for kind in KINDS:
                    for text in kinds[kind]:
                        cut_s = rng.uniform(0.03, 0.3)
                        limit_ms = None
                        if limit is not None:  # just before, in the same moment of the load
                            limit_ms = limit.first(voice, rate, cut_s * 1000, text)
                            time.sleep(0.02)
                        probe.take()
                        t_call = time.perf_counter()
                        item = sp.say(text, Priority.TEXT)
                        # the measuring thread sleeps meanwhile: it takes nothing from the player
                        probe.audible.wait(10)
                        with probe._lock:
                            heard = first_audible(list(probe.blocks), threshold)
                        t_int = None
                        if heard is not None:
                            delay = heard + cut_s - time.perf_counter()
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
                            "limit_ms": limit_ms,
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
        fh.write(json.dumps({k: v for k, v in row.items() if k not in ("first_ms", "after_interrupt_ms")} | {"wav": wav if blocks else None},
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


def gaps(rows: list[dict[str, Any]], engine: str) -> str:
    """Silences inside what was played: a block heard later than the end of the one before
    (the player late for the output: on a loaded machine), from the first block to the cut."""
    n = late = 0
    total = worst = 0.0
    for r in rows:
        if r["engine"] != engine:
            continue
        blocks = r["blocks"]
        for (_r0, s0, n0, sr0), (_r1, s1, _n1, _sr1) in zip(blocks, blocks[1:], strict=False):
            n += 1
            gap = s1 - (s0 + n0 / sr0)
            if gap > 0.0005:
                late += 1
                total += gap
                worst = max(worst, gap)
    per = total * 1000 / max(1, len([r for r in rows if r["engine"] == engine]))
    return (f"{engine}: {late} of {n} blocks came late (> 0.5 ms) to the output, {per:.1f} ms of silence "
            f"a sentence on average, {worst * 1000:.1f} ms at most")


def report_limit(rows: list[dict[str, Any]], engine: str) -> None:
    """The limit and the companion side by side, on the sentences where both were heard."""
    print(f"\n{'first audible (ms)':<18} {'kind':<8} {'n':>4}   {'limit (C)':>26}   {'companion':>26}"
          f"   {'difference':>17}")
    print(f"{'':<18} {'':<8} {'':>4}   {'median':>8} {'p95':>8} {'max':>8}   {'median':>8} {'p95':>8} {'max':>8}"
          f"   {'median':>8} {'p95':>8}")
    for kind in (*KINDS, "all"):
        sel = [r for r in rows if r["engine"] == engine and kind in (r["kind"], "all")
               and r.get("limit_ms") is not None and r["first_ms"] is not None]
        if not sel:
            continue
        lim = [r["limit_ms"] for r in sel]
        com = [r["first_ms"] for r in sel]
        ml, pl, mc, pc = statistics.median(lim), percentile(lim, 95), statistics.median(com), percentile(com, 95)
        print(f"{engine:<18} {kind:<8} {len(sel):>4}   {ml:>8.2f} {pl:>8.2f} {max(lim):>8.2f}   "
              f"{mc:>8.2f} {pc:>8.2f} {max(com):>8.2f}   {mc - ml:>+8.2f} {pc - pl:>+8.2f}")


def as_user(name: str, argv: list[str]) -> int:
    """Run this benchmark again as the ordinary user `name` (made when missing, removed after)."""
    import pwd

    made = False
    try:
        pw = pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                        "--shell", "/usr/sbin/nologin", name], check=True)
        made = True
        pw = pwd.getpwnam(name)
    home = Path(tempfile.mkdtemp(prefix="companion-bench-home-"))
    try:
        os.chown(home, pw.pw_uid, pw.pw_gid)
        for i, a in enumerate(argv):  # a dump folder is written by that user
            if a == "--dump" and i + 1 < len(argv):
                Path(argv[i + 1]).mkdir(parents=True, exist_ok=True)
                os.chown(argv[i + 1], pw.pw_uid, pw.pw_gid)
        root = str(Path(__file__).resolve().parent.parent)
        env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
               "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": os.environ.get("LANG", "C.UTF-8"),
               "PYTHONPATH": root}
        user = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}
        python = sys.executable
        try:  # this interpreter may sit where that user cannot go (a root's pyenv)
            subprocess.run([python, "-c", "import numpy"], env=env, check=True, capture_output=True, **user)
        except (OSError, subprocess.CalledProcessError):
            import sysconfig

            python = shutil.which(f"python{sys.version_info[0]}.{sys.version_info[1]}", path="/usr/bin:/bin") or "python3"
            env["PYTHONPATH"] = os.pathsep.join([root, sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
        print(f"as the ordinary user {name} (uid {pw.pw_uid}{', made for this run' if made else ''}), "
              f"with {python}", flush=True)
        return subprocess.run([python, str(Path(__file__).resolve()), *argv], env=env, **user).returncode
    finally:
        shutil.rmtree(home, ignore_errors=True)
        if made:
            subprocess.run(["userdel", name], check=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="times each sentence is said (default 3)")
    parser.add_argument("--engines", nargs="+", default=["espeak-ng", "pyttsx3", "speech-dispatcher"])
    parser.add_argument("--threshold-db", type=float, default=-40.0, help="audible above this (dBFS, default -40)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--dump", type=Path, help="write what the output received into this folder")
    parser.add_argument("--recompute", type=Path, help="only compute the figures from a dump folder")
    parser.add_argument("--no-limit", action="store_true", help="do not measure the limit (bench/speech_limit.c)")
    parser.add_argument("--as-user", metavar="NAME", help="as root: run as this ordinary user (made if missing)")
    parser.add_argument("--busy", type=int, default=0, metavar="N", help="start N busy processes meanwhile")
    raw = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(raw)
    if args.as_user and args.recompute is None:
        import pwd

        if pwd.getpwuid(os.getuid()).pw_name != args.as_user:
            if os.geteuid() != 0:
                raise SystemExit(f"--as-user {args.as_user}: only root can switch to another user")
            return as_user(args.as_user, raw)
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
        for name in dict.fromkeys(r["engine"] for r in rows):
            print(gaps([dict(r, blocks=[tuple(b) for b in r["blocks"]]) for r in rows], name))
        for name in dict.fromkeys(r["engine"] for r in rows if r.get("limit_ms") is not None):
            report_limit(rows, name)
        return 0
    if args.dump is not None:
        args.dump.mkdir(parents=True, exist_ok=True)
        (args.dump / "utterances.jsonl").write_text("", encoding="utf-8")
    n = sum(len(v) for k in SENTENCES.values() for v in k.values())
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"{n} sentences (fr, en; short, long, starting with P or T) x {args.rounds} rounds; "
          f"audible above {args.threshold_db:.0f} dBFS; python {sys.version.split()[0]}; "
          f"{os.cpu_count()} cores, load average {load}")
    import pwd

    print(f"user {pwd.getpwuid(os.getuid()).pw_name} (uid {os.getuid()}), nice {os.getpriority(os.PRIO_PROCESS, 0)}; "
          f"{args.busy} busy processes; seed {args.seed}")
    limit: Limit | None = None
    if "espeak-ng" in args.engines and not args.no_limit:
        try:
            limit = Limit(threshold)
        except (OSError, RuntimeError) as exc:
            print(f"limit (bench/speech_limit.c) not measured: {exc}")
    busy = start_busy(args.busy)
    results: dict[str, list[dict[str, Any]]] = {}
    try:
        print(f"{'':<33}say() -> first audible (ms)    interrupt() -> last audible (ms)")
        print(header)
        counter = [0]
        for name in args.engines:
            res = measure(name, args.rounds, args.seed, threshold, args.dump, counter,
                          limit if name == "espeak-ng" else None)
            if isinstance(res, str):
                print(f"{name:<18} unavailable: {res}")
                continue
            results[name] = res
            report(res, name)
    finally:
        stop_busy(busy)
        if limit is not None:
            limit.close()
    for name, res in results.items():
        print(gaps(res, name))
    if "espeak-ng" in results and limit is not None:
        report_limit(results["espeak-ng"], "espeak-ng")
    if hasattr(os, "getloadavg"):
        print("load average at the end: " + " / ".join(f"{x:.1f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
