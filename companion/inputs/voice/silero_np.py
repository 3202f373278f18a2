"""Silero VAD's 16 kHz model (silero-vad 6.2.3's `silero_vad.onnx`, MIT) run in numpy alone,
float32, without onnxruntime.

Why: onnxruntime, the model's usual runner, costs 44-46 MB of peak memory in every game (its
library's code mapped and its session; its memory options change nothing: docs/voice.md,
"Memory"), a third of the 150 MB target of `companion play --voice`. The model itself is
1.2 MB of weights, an FFT and a few small matrix products per 32 ms window (numpy: 1.0 MB
kept, 71 us a window against onnxruntime's 88: `bench/silero_numpy.py`).

The weights are read from the ONNX file itself, at first use, by the small protobuf reader
below (varints and length-delimited fields are all an ONNX file needs): neither onnx,
protobuf nor onnxruntime is imported, nothing is converted at set-up or cached, and the
weights are those onnxruntime runs. (The wheel's `silero_vad_16k.safetensors` holds the same
network's weights but other values — another training — so it is not used: its
probabilities are not those the VAD was measured with.) `tests/voice/test_silero_numpy.py`
checks every window's probability against onnxruntime (within 1e-4) and the segmenter's cuts
(identical) on speech, babble, noise, silence and knocks.

The 16 kHz branch of the model, for one window (64 context samples + 512 new ones = 576):
reflect-pad 64 on the right (640) -> "STFT": a 1-D convolution of 258 filters of 256 taps,
stride 128 (4 frames), magnitude of its 129 real and 129 imaginary rows (a Hann-windowed
DFT: computed here by numpy's FFT) -> four 3-tap convolutions with ReLU (129->128 stride 1,
128->64 stride 2, 64->64 stride 2, 64->128 stride 1; 4 -> 4 -> 2 -> 1 -> 1 frames) -> an LSTM cell of 128 (state h, c) -> ReLU,
a 1x1 convolution to one value, sigmoid.
"""

from __future__ import annotations

import functools
import math
import mmap
from collections.abc import Iterator
from pathlib import Path

import numpy as np

N_FFT, HOP, PAD = 256, 128, 64
CUTOFF = N_FFT // 2 + 1  # 129 frequency bins
WINDOW, CONTEXT = 512, 64
HIDDEN = 128
_ZERO = np.zeros(1, np.float32)  # the encoder's padding (`_conv_gather`)

#: the tensors of the 16 kHz branch (their names in the ONNX file, after its `..._Inline_0__`
#: prefix) and their shapes; a file that differs is refused, and onnxruntime runs it instead
SHAPES: dict[str, tuple[int, ...]] = {
    "stft.forward_basis_buffer": (2 * CUTOFF, 1, N_FFT),
    "encoder.0.reparam_conv.weight": (128, CUTOFF, 3), "encoder.0.reparam_conv.bias": (128,),
    "encoder.1.reparam_conv.weight": (64, 128, 3), "encoder.1.reparam_conv.bias": (64,),
    "encoder.2.reparam_conv.weight": (64, 64, 3), "encoder.2.reparam_conv.bias": (64,),
    "encoder.3.reparam_conv.weight": (128, 64, 3), "encoder.3.reparam_conv.bias": (128,),
    "decoder.rnn.weight_ih": (4 * HIDDEN, HIDDEN), "decoder.rnn.weight_hh": (4 * HIDDEN, HIDDEN),
    "decoder.rnn.bias_ih": (4 * HIDDEN,), "decoder.rnn.bias_hh": (4 * HIDDEN,),
    "decoder.decoder.2.weight": (1, HIDDEN, 1), "decoder.decoder.2.bias": (1,),
}

# onnx.proto's field numbers (github.com/onnx/onnx, onnx/onnx.proto), the few read here
_MODEL_GRAPH = 7
_GRAPH_NODE = 1
_NODE_OUTPUT, _NODE_OP_TYPE, _NODE_ATTRIBUTE = 2, 4, 5
_ATTR_T, _ATTR_G = 5, 6
_TENSOR_DIMS, _TENSOR_DATA_TYPE, _TENSOR_FLOAT_DATA, _TENSOR_RAW_DATA = 1, 2, 4, 9
_FLOAT = 1  # TensorProto.DataType.FLOAT


def _varint(buf: memoryview, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def _fields(buf: memoryview) -> Iterator[tuple[int, int | memoryview]]:
    """(field number, value) of each field of a protobuf message: an int for a varint, the
    bytes (a view, not a copy) of a length-delimited field or a fixed 32/64-bit one."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        field, wire = key >> 3, key & 7
        value: int | memoryview
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            n, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + n], pos + n
        elif wire in (1, 5):
            n = 8 if wire == 1 else 4
            value, pos = buf[pos:pos + n], pos + n
        else:  # groups (3, 4): not in onnx.proto
            raise ValueError(f"protobuf wire type {wire} at byte {pos}")
        yield field, value


def _tensor(buf: memoryview) -> np.ndarray | None:
    """A float tensor's values (a view of `buf`, not a copy), or None for a tensor of another type."""
    dims: list[int] = []
    dtype, raw, floats = 0, None, None
    for field, value in _fields(buf):
        if field == _TENSOR_DIMS:  # packed or not
            if isinstance(value, int):
                dims.append(value)
            else:
                pos = 0
                while pos < len(value):
                    d, pos = _varint(value, pos)
                    dims.append(d)
        elif field == _TENSOR_DATA_TYPE and isinstance(value, int):
            dtype = value
        elif field == _TENSOR_RAW_DATA and isinstance(value, memoryview):
            raw = value
        elif field == _TENSOR_FLOAT_DATA and isinstance(value, memoryview):
            floats = value
    data = raw if raw is not None else floats
    if dtype != _FLOAT or data is None:
        return None
    return np.frombuffer(data, dtype="<f4").reshape(dims)


def _constants(graph: memoryview) -> dict[str, np.ndarray]:
    """The float tensors of a graph's own Constant nodes, by output name."""
    out = {}
    for field, node in _fields(graph):
        if field != _GRAPH_NODE or not isinstance(node, memoryview):
            continue
        parts = [(f, v) for f, v in _fields(node) if isinstance(v, memoryview)]
        outputs = [bytes(v).decode() for f, v in parts if f == _NODE_OUTPUT]
        if b"Constant" not in [bytes(v) for f, v in parts if f == _NODE_OP_TYPE] or not outputs:
            continue
        for f, attr in parts:
            if f == _NODE_ATTRIBUTE:
                for g, v in _fields(attr):
                    tensor = _tensor(v) if g == _ATTR_T and isinstance(v, memoryview) else None
                    if tensor is not None:
                        out[outputs[0]] = tensor
    return out


def _branches(graph: memoryview) -> Iterator[memoryview]:
    """The subgraphs (the If's then and else branches) of a graph's own nodes."""
    for field, node in _fields(graph):
        if field == _GRAPH_NODE and isinstance(node, memoryview):
            for f, attr in _fields(node):
                if f == _NODE_ATTRIBUTE and isinstance(attr, memoryview):
                    yield from (v for g, v in _fields(attr) if g == _ATTR_G and isinstance(v, memoryview))


def load_weights(path: str | Path) -> dict[str, np.ndarray]:
    """The 16 kHz branch's tensors of Silero's ONNX model at `path`, by the names of SHAPES.

    The model's top graph is `If(sr == 16000)` over two branches, one per rate, whose weights
    are Constant nodes named `If_0_<branch>__Inline_0__<tensor>`; the 16 kHz branch is the one
    whose STFT has 256 taps. ValueError if no branch has every tensor in its shape.

    The arrays are views of the file mapped in memory (unmapped once the last is dropped),
    not of a 2.3 MB buffer freed afterwards: with the buffer, 2kissa10's peak was 152.9-153.1
    MB, with the mapping 150.3-151.7 (likely: freeing it raised glibc's mmap threshold to
    2.3 MB for every thread, and later allocations below that stayed in the heaps)."""
    with open(path, "rb") as f:
        try:
            model = memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
        except ValueError as exc:  # an empty file
            raise ValueError(f"{path}: not an ONNX model ({exc})") from exc
    try:
        graph = next((v for f, v in _fields(model) if f == _MODEL_GRAPH and isinstance(v, memoryview)), None)
        for branch in _branches(graph if graph is not None else memoryview(b"")):
            found = {name.rsplit("__", 1)[-1]: t for name, t in _constants(branch).items()}
            if all(k in found and found[k].shape == shape for k, shape in SHAPES.items()):
                return {k: found[k] for k in SHAPES}
    except (IndexError, UnicodeDecodeError) as exc:  # a truncated or foreign file
        raise ValueError(f"{path}: not a readable ONNX model ({exc!r})") from exc
    raise ValueError(f"{path}: no branch with Silero VAD's 16 kHz weights")


def _conv_gather(in_c: int, frames: int, taps: int, stride: int) -> tuple[np.ndarray, int]:
    """For a `taps`-tap 1-D convolution with one zero of padding each side (the encoder's),
    over `frames` input frames flattened channel-major (c * frames + t) with one zero
    appended: where each row (input channel, tap) of each output frame takes its sample
    (the appended zero, index in_c * frames, for the padding), and the number of output
    frames. The convolution is then one gather and one product with the weights reshaped
    (out, in * taps): the windows are 4 frames long at most, so this costs no more than a
    pad and strided views would, and keeps only the weights themselves in memory."""
    out_frames = (frames + 2 - taps) // stride + 1
    src = np.arange(out_frames)[None, :] * stride - 1 + np.arange(taps)[:, None]  # (taps, out frames)
    inside = (src >= 0) & (src < frames)
    idx = np.where(inside[None], np.arange(in_c)[:, None, None] * frames + src[None], in_c * frames)
    return idx.reshape(in_c * taps, out_frames), out_frames


class Network:
    """The 16 kHz branch's weights laid out for `NumpySileroVad.forward` (read-only: every
    model of the same file shares one, `network()`)."""

    def __init__(self, w: dict[str, np.ndarray]) -> None:
        n = CONTEXT + WINDOW
        # the reflect padding and the STFT's 4 overlapping frames as one gather from the
        # 576 samples: sample n + j is sample n - 2 - j (the edge sample not repeated)
        padded = np.concatenate([np.arange(n), np.arange(n - 2, n - 2 - PAD, -1)])
        starts = range(0, n + PAD - N_FFT + 1, HOP)
        self.frames_idx = np.stack([padded[s:s + N_FFT] for s in starts])  # (4, 256)
        # the "STFT" convolution's 258 filters are a periodic Hann window times the DFT's
        # cosines and minus its sines: numpy's real FFT computes the same (within 1e-6 of
        # the magnitude) without the 264 KB matrix; a file whose basis is another is refused
        # (onnxruntime runs it)
        tap, fbin = np.arange(N_FFT), np.arange(CUTOFF)[:, None]
        hann = 0.5 - 0.5 * np.cos(2 * np.pi * tap / N_FFT)
        phase = 2 * np.pi * fbin * tap / N_FFT
        dft = np.concatenate([hann * np.cos(phase), -hann * np.sin(phase)])
        if np.abs(w["stft.forward_basis_buffer"][:, 0, :] - dft).max() > 1e-6:
            raise ValueError("the model's STFT basis is not a Hann-windowed DFT")
        self.hann = hann.astype(np.float32)
        # every array copied out of the file's mapping once, in its final layout, with no
        # large temporary freed afterwards (`load_weights`)
        self.convs = []
        frames = len(starts)
        for k, stride in enumerate((1, 2, 2, 1)):
            weight, bias = w[f"encoder.{k}.reparam_conv.weight"], w[f"encoder.{k}.reparam_conv.bias"]
            idx, frames = _conv_gather(weight.shape[1], frames, weight.shape[2], stride)
            self.convs.append((weight.reshape(len(bias), -1).copy(), bias[:, None].copy(), idx))
        # the LSTM: one product for both inputs, [W_ih | W_hh] @ [x; h] + (b_ih + b_hh), in
        # PyTorch's gate order (input, forget, cell, output); the input, forget and output
        # rows halved (exact in binary floats) so that one tanh over the 512 gates gives
        # tanh(z / 2) for those, and sigmoid(z) = (1 + tanh(z / 2)) / 2
        half = np.ones(4 * HIDDEN, np.float32)
        half[:2 * HIDDEN] = half[3 * HIDDEN:] = 0.5
        self.lstm_w = np.empty((4 * HIDDEN, 2 * HIDDEN), np.float32)
        np.multiply(w["decoder.rnn.weight_ih"], half[:, None], out=self.lstm_w[:, :HIDDEN])
        np.multiply(w["decoder.rnn.weight_hh"], half[:, None], out=self.lstm_w[:, HIDDEN:])
        self.lstm_b = (w["decoder.rnn.bias_ih"] + w["decoder.rnn.bias_hh"]) * half
        self.out_w = w["decoder.decoder.2.weight"][0, :, 0].copy()
        self.out_b = float(w["decoder.decoder.2.bias"][0])
        for a in (self.frames_idx, self.hann, self.lstm_w, self.lstm_b, self.out_w, *(x for mb in self.convs for x in mb)):
            a.flags.writeable = False


@functools.lru_cache(maxsize=2)
def network(path: str) -> Network:
    """The network of the ONNX file at `path`, read once per process; ValueError or OSError
    if it cannot be read."""
    return Network(load_weights(path))


class NumpySileroVad:
    """Speech probability of each 32 ms window of a 16 kHz stream, in order (the interface
    of `silero.OnnxSileroVad`: `reset()`, `prob(window)`, `state`)."""

    def __init__(self, path: str | Path) -> None:
        self.net = network(str(path))
        self.reset()

    def reset(self) -> None:
        self.hc = np.zeros(2 * HIDDEN, np.float32)  # h then c
        self.context = np.zeros(CONTEXT, np.float32)

    @property
    def state(self) -> np.ndarray:
        """The recurrent state as onnxruntime's runner keeps it: (2, 1, 128), h then c."""
        return self.hc.reshape(2, 1, HIDDEN)

    def forward(self, x: np.ndarray) -> float:
        """One window of 576 float32 samples (context + new); the state updated."""
        net = self.net
        y = np.abs(np.fft.rfft(x[net.frames_idx] * net.hann)).T.ravel()  # (129 bins, 4 frames), channel-major
        for weight, bias, idx in net.convs:
            y = np.maximum(weight @ np.concatenate([y, _ZERO])[idx] + bias, np.float32(0.0)).ravel()
        gates = np.tanh(net.lstm_w @ np.concatenate([y, self.hc[:HIDDEN]]) + net.lstm_b)
        sig = gates * np.float32(0.5) + np.float32(0.5)
        c = sig[HIDDEN:2 * HIDDEN] * self.hc[HIDDEN:] + sig[:HIDDEN] * gates[2 * HIDDEN:3 * HIDDEN]
        h = sig[3 * HIDDEN:] * np.tanh(c)
        self.hc = np.concatenate([h, c])
        z = float(net.out_w @ np.maximum(h, np.float32(0.0))) + net.out_b
        return 0.5 * (1.0 + math.tanh(0.5 * z))  # the sigmoid, without exp's overflow

    def prob(self, window: np.ndarray) -> float:
        """`window`: 512 samples (int16 or float in -1..1)."""
        if len(window) != WINDOW:  # the gathers are laid out for 512 + 64 samples
            raise ValueError(f"Silero's 16 kHz model takes {WINDOW} samples, not {len(window)}")
        x = window.astype(np.float32)
        if window.dtype == np.int16:
            x /= 32768.0
        p = self.forward(np.concatenate([self.context, x]))
        self.context = x[-CONTEXT:]
        return p
