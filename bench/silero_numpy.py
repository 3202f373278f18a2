"""Silero's VAD model in numpy (`companion/inputs/voice/silero_np.py`) against the same ONNX
file run by onnxruntime, in the same run:

  --speed   CPU time (this thread's) per 32 ms window of each runner, and of the segmenter
            per 30 ms frame, interleaved window by window on the same recordings (espeak-ng
            commands, babble, white noise, a quiet room); medians, ratio numpy / onnxruntime,
            and the largest difference of their probabilities there
  --memory  peak resident memory (VmHWM) of the real `companion play GAME --voice-input FILE`
            against bots, four commands heard (`bench/voice_accuracy.py`'s `_peak_of_play`
            and its recording), with each runner, and with webrtcvad instead of Silero's model
            (no model at all) for reference; `--engine rescore` for Whisper's engine

  PYTHONPATH=$PWD nice .venv/bin/python bench/silero_numpy.py --speed
  PYTHONPATH=$PWD nice .venv/bin/python bench/silero_numpy.py --memory --games kissa,kikoi,goodfortune,kaliko
  PYTHONPATH=$PWD nice .venv/bin/python bench/silero_numpy.py --memory --games kissa --engine rescore
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from companion.inputs.voice import silero, silero_np, synth  # noqa: E402

#: Python run first in the measured process (`_peak_of_play`'s `pre`), per VAD
RUNS = {
    "numpy": "",  # the default where silero_np reads the weights
    "onnxruntime": "import companion.inputs.voice.silero as s; s.RUNNERS = ('onnxruntime',); ",
    "webrtcvad": "import companion.inputs.voice.silero as s; s.available = lambda: False; ",
}


def recordings() -> list[np.ndarray]:
    q = synth.silence
    said = [synth.speak(t, v, r) for t, v, r in (("push four", "en-us", 170), ("status", "en+f3", 150),
                                                 ("je demande le kigliss qui dort à Zoé", "fr", 160),
                                                 ("ten times fifty equals five hundred", "en-us+m3", 190))]
    speech = np.concatenate([x for s in said for x in (s, q(0.6, seed=len(s)))])
    return [np.concatenate([q(0.5), speech]), synth.add_babble(speech, 5.0, seed=3), synth.add_noise(speech, 10.0, seed=4),
            q(5.0, seed=5)]


def speed(rounds: int) -> None:
    path = silero.model_path()
    if path is None:
        sys.exit("silero-vad is not installed")
    models = {"numpy": silero_np.NumpySileroVad(path), "onnxruntime": silero.OnnxSileroVad(path)}
    recs = recordings()
    per: dict[str, list[int]] = {k: [] for k in models}
    diff = 0.0
    for _ in range(rounds):
        for pcm in recs:
            for m in models.values():
                m.reset()
            for k in range(0, len(pcm) - silero.WINDOW + 1, silero.WINDOW):
                w = pcm[k:k + silero.WINDOW]
                p = {}
                for name, m in models.items():  # interleaved: the same load on both
                    t = time.thread_time_ns()
                    p[name] = m.prob(w)
                    per[name].append(time.thread_time_ns() - t)
                diff = max(diff, abs(p["numpy"] - p["onnxruntime"]))
    med = {k: statistics.median(v) / 1000 for k, v in per.items()}
    n = len(per["numpy"])
    print(f"Silero VAD, one 32 ms window (512 samples + 64 of context), CPU time of this thread, median of {n} windows:")
    for k, v in med.items():
        print(f"  {k:12} {v:7.1f} us  ({v / 320:.2f} % of one core in real time)")
    print(f"  ratio numpy / onnxruntime: {med['numpy'] / med['onnxruntime']:.2f}; largest |p numpy - p onnxruntime|: {diff:.2e}")
    # the segmenter as the listener runs it: 30 ms frames, a window every 512 samples
    seg_t: dict[str, list[int]] = {k: [] for k in models}
    for _ in range(rounds):
        for pcm in recs:
            segs = {k: silero.SileroSegmenter(model=m, **{**silero.SILERO_SETTINGS, "end_ms": 240}) for k, m in models.items()}  # type: ignore[arg-type]
            for i in range(0, len(pcm) - 480 + 1, 480):
                for k, s in segs.items():
                    t = time.thread_time_ns()
                    s.feed(pcm[i:i + 480])
                    seg_t[k].append(time.thread_time_ns() - t)
    seg = {k: statistics.mean(v) / 1000 for k, v in seg_t.items()}  # mean: a window falls in 15 frames of 16
    print("the segmenter in use (Silero + babble gate), per 30 ms frame, mean CPU time: "
          + ", ".join(f"{k} {v:.0f} us" for k, v in seg.items()) + f" (ratio {seg['numpy'] / seg['onnxruntime']:.2f})")


def memory(games: list[str], engine: str | None) -> None:
    from bench.voice_accuracy import _peak_of_play, memory_recording

    extra = ("--voice-engine", engine) if engine else ()
    print(f"peak memory (VmHWM) of `companion play GAME --voice-input FILE`{' ' + ' '.join(extra) if extra else ''}, "
          "against bots, four commands heard:")
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        for game in games:
            wav = memory_recording(game, home)
            peaks = {vad: _peak_of_play(game, wav, home, extra, pre=pre) / 1024 for vad, pre in RUNS.items()}
            print(f"  {game}: " + ", ".join(f"{vad} {mb:.1f} MB" for vad, mb in peaks.items())
                  + f"; numpy saves {peaks['onnxruntime'] - peaks['numpy']:.1f} MB", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--rounds", type=int, default=3, help="with --speed: passes over the recordings")
    ap.add_argument("--memory", action="store_true")
    ap.add_argument("--games", default="kissa,kikoi")
    ap.add_argument("--engine", default=None, help="with --memory: --voice-engine of `companion play` (e.g. rescore)")
    args = ap.parse_args()
    if args.speed:
        speed(args.rounds)
    if args.memory:
        memory(args.games.split(","), args.engine)


if __name__ == "__main__":
    main()
