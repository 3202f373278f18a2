"""A trained voice activity detector: Silero VAD's ONNX model (MIT licence, silero-vad 6.2.3)
run in numpy (`silero_np`), or by onnxruntime where its weights cannot be read; without torch.

The silero-vad wheel declares torch as a dependency, but its model ships as ONNX files in
`silero_vad/data/`; the set-up installs the wheel with `--no-deps` and this module reads the
file from where the package lies, without importing it (its `__init__` imports torch). The
model takes 512 samples at 16 kHz (32 ms) with the 64 samples before them as context, and a
recurrent state of 2 × 1 × 128; it returns the probability that the window is speech.

Two runners of the same file, tried in the order of `RUNNERS`: `silero_np.NumpySileroVad`
reads the weights out of the ONNX file and runs the 16 kHz network in numpy (the same
probabilities within 3e-6 here, the same cuts: tests/voice/test_silero_numpy.py), without
the 44-46 MB onnxruntime's library and session cost in every game (docs/voice.md, "Silero's
VAD in numpy");
`OnnxSileroVad`, onnxruntime, where the file is not the one `silero_np` knows.

`SileroSegmenter` is the `Segmenter` with the frame decision taken by the model instead of
webrtcvad (the same start, hangover, pre-roll and level gate; `bench/voice_latency.py --vad`
compares them on the same recordings).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Protocol

import numpy as np

from companion.inputs.voice.vad import RATE, Segmenter

WINDOW = 512
CONTEXT = 64
MODEL_FILE = "silero_vad.onnx"


def model_path() -> Path | None:
    """The ONNX file of the installed silero-vad wheel, or None."""
    spec = importlib.util.find_spec("silero_vad")
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        p = Path(root) / "data" / MODEL_FILE
        if p.is_file():
            return p
    return None


#: the runners tried, in order: numpy first (no onnxruntime in the process), onnxruntime
#: where numpy cannot read the weights (a benchmark sets it to measure one runner)
RUNNERS: tuple[str, ...] = ("numpy", "onnxruntime")


def _numpy_reads(path: Path) -> bool:
    from companion.inputs.voice import silero_np

    try:
        silero_np.network(str(path))
    except (OSError, ValueError):
        return False
    return True


def runner(path: Path | None = None) -> str | None:
    """The first of `RUNNERS` that can run the model (by default the installed one), or None."""
    path = path or model_path()
    if path is None:
        return None
    for name in RUNNERS:
        if name == "numpy" and _numpy_reads(path):
            return name
        if name == "onnxruntime" and importlib.util.find_spec("onnxruntime") is not None:
            return name
    return None


def available() -> bool:
    """Silero's model is installed and one of the runners can run it."""
    return runner() is not None


class WindowModel(Protocol):
    """What the segmenter asks of a runner."""

    def reset(self) -> None: ...

    def prob(self, window: np.ndarray) -> float: ...


def load(path: str | Path | None = None) -> WindowModel:
    """The model at `path` (by default the installed one) in the first runner that can run it."""
    p = Path(path) if path is not None else model_path()
    name = runner(p) if p is not None else None
    if p is None or name is None:
        raise RuntimeError("silero-vad, or a runner of its model, is not installed (./run setup installs them)")
    if name == "numpy":
        from companion.inputs.voice.silero_np import NumpySileroVad

        return NumpySileroVad(p)
    return OnnxSileroVad(p)


class OnnxSileroVad:
    """Speech probability of each 32 ms window of a 16 kHz stream, in order, by onnxruntime."""

    def __init__(self, path: str | Path | None = None) -> None:
        import onnxruntime

        path = path or model_path()
        if path is None:
            raise RuntimeError("silero-vad is not installed (./run setup installs it)")
        opts = onnxruntime.SessionOptions()
        # one thread: the listener runs beside the game loop and the synthesizer on 2 cores
        opts.inter_op_num_threads = opts.intra_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
        self.sr = np.array(RATE, dtype=np.int64)
        self.reset()

    def reset(self) -> None:
        self.state = np.zeros((2, 1, 128), np.float32)
        self.context = np.zeros(CONTEXT, np.float32)

    def prob(self, window: np.ndarray) -> float:
        """`window`: 512 samples (int16 or float in -1..1)."""
        x = window.astype(np.float32)
        if window.dtype == np.int16:
            x /= 32768.0
        inp = np.concatenate([self.context, x])[None, :]
        out, self.state = self.session.run(None, {"input": inp, "state": self.state, "sr": self.sr})
        self.context = x[-CONTEXT:]
        return float(out[0][0])


class SileroSegmenter(Segmenter):
    """A frame is voiced when the model's latest probability is above `threshold` (above
    `threshold - 0.15` once an utterance is under way, as Silero's own iterator does) and,
    unless `margin_db` is None, its band level stands above the room's floor."""

    def __init__(self, threshold: float = 0.5, model: WindowModel | None = None, hysteresis: float = 0.15,
                 **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.model = model or load()
        self.threshold, self.hysteresis = threshold, hysteresis
        self.p = 0.0
        self._buf = np.zeros(0, np.int16)

    def is_voiced(self, frame: np.ndarray) -> tuple[bool, float]:
        self._buf = np.concatenate([self._buf, frame.astype(np.int16, copy=False)])
        while len(self._buf) >= WINDOW:
            self.p = self.model.prob(self._buf[:WINDOW])
            self._buf = self._buf[WINDOW:]
        voiced = self.p >= (self.threshold - self.hysteresis if self.in_speech else self.threshold)
        if self.margin_db is None:
            return voiced, 40.0  # no level: every utterance counts as a clear voice
        return self.gate(frame, voiced)


def default_segmenter() -> Segmenter:
    """The segmenter a listener uses: Silero's model with the babble gate where silero-vad
    is installed (it measured best: `bench/voice_latency.py --vad-compare`, docs/voice.md),
    else webrtcvad with the level and babble gates."""
    if available():
        return SileroSegmenter(**{**SILERO_SETTINGS, "end_ms": int(SILERO_SETTINGS["end_ms"])})  # type: ignore[arg-type]
    return Segmenter(babble_db=6.0)


#: the settings kept (docs/voice.md, "VAD"): no floor margin (at 5 dB white noise it cut
#: words the model heard), the babble gate, and 240 ms of silence to end an utterance
#: whatever the noise (the model's probability stays up some 200 ms after speech in noise:
#: with webrtcvad's 360 ms the end was heard 478 ms after it at 10 dB, 358 ms with 240)
SILERO_SETTINGS: dict[str, float] = {"babble_db": 6.0, "margin_db": 0.0, "end_ms": 240}
