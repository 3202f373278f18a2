"""Recognisers: audio of one utterance -> one listed phrase (or none) and a confidence.

`SphinxRecognizer` (pocketsphinx 5.1.1, its wheel's US English acoustic model) decodes with
a JSGF grammar compiled from what is sayable now, rebuilt only when that changes. Beside it
a second decoder runs a free phone loop (pocketsphinx's ``allphone`` search with its phone
language model) on the same audio. Both decode while the player speaks: the first
`STREAM_AFTER` seconds of an utterance are kept, their cepstral mean measured (a third
decoder, features only, with the model's batch normalisation), and both decoders start from
that mean; so the mean is right from the first frame (a mean carried over from the previous
utterance, pocketsphinx's live default, lost much accuracy) and little is left to do when
the utterance ends. How well the two decoders agree gives the confidence:

* ``llr``: the grammar path's score minus the phone loop's, per frame (a word sequence that
  fits the audio as well as unconstrained phones do is likely right);
* ``sim``: how close the phones heard are to the recognised phrase's pronunciation
  (normalised Indel similarity, 0..1), and ``margin``: how much closer than to any other
  listed phrase.

`confidence` = logistic(w · (llr, sim, margin) + b), on a 0..1 scale meant to read as the
probability that the line is the one said; ``bench/voice_accuracy.py --calibrate`` measures
it against labelled synthetic speech (figures in docs/voice.md). Lines below the session's
threshold (0.6) are read back before they change anything.

`VoskRecognizer` uses a Kaldi model the user supplies (`--voice-model DIR`), restricted to
the same phrases; without a model it raises `NoModel`, whose message says where to put one.
"""

from __future__ import annotations

import math
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .grammar import PhraseSet
from .pronounce import Lexicon

RATE = 16000

# logistic weights over (llr per frame ×1e4, phone similarity, similarity margin), and bias.
# Set by hand from a first look at the features; `bench/voice_accuracy.py --calibrate` fits
# them on labelled synthetic speech and prints both threshold tables (docs/voice.md: the
# fitted weights nearly ignore the margin and rate out-of-grammar sentences high, so
# these are kept until a fit on real recordings)
CONFIDENCE_WEIGHTS = (0.12, 6.0, 10.0)
CONFIDENCE_BIAS = -3.0
# noise and silence may sit between and around words (measured on espeak-ng speech at 10 dB
# SNR: 39/57 right instead of 36/57, and 3 utterances with no result instead of 8).
# bestpath off: with it, pocketsphinx builds the grammar's word lattice for every hypothesis
# (`hyp()` asks for it twice, for the words and for a posterior it then reports), which took
# 0.4-12 s per utterance with the 2kissa10 grammar; without it the answer is the Viterbi
# path, as accurate on synthetic speech (measured: 41 against 33 right of 64, docs/voice.md)
DECODER_SETTINGS: dict[str, Any] = {"fillprob": 1e-2, "silprob": 0.1, "bestpath": False}
# seconds of an utterance kept before the decoders start on it with its cepstral mean
STREAM_AFTER: float | None = 1.0


@dataclass(frozen=True)
class Result:
    """What one utterance was heard as: the decoder's words, the listed phrase (or None),
    its command, and the confidence in 0..1."""

    text: str
    line: str | None
    command: str | None
    confidence: float
    features: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "line": self.line, "confidence": round(self.confidence, 3)}


class Recognizer(Protocol):
    lang: str

    def set_phrases(self, phrases: PhraseSet) -> None: ...

    def recognize(self, pcm: np.ndarray) -> Result: ...


class NoModel(RuntimeError):
    """No recogniser model for a language: the message says where to put one."""

    def __init__(self, lang: str, where: Path | None) -> None:
        self.lang, self.where = lang, where
        super().__init__(no_model_message(lang, where))


def default_model_dir(lang: str) -> Path:
    """Where a vosk model for `lang` is looked for when `--voice-model` is not given."""
    import platformdirs

    return Path(platformdirs.user_data_dir("companion")) / "voice" / f"vosk-{lang}"


def no_model_message(lang: str, where: Path | None) -> str:
    """Where to put a model and how to get one, in the language asked for (French for fr)."""
    from companion.narration import Msg, catalog

    where = where or default_model_dir(lang)
    name = {"fr": "vosk-model-small-fr-0.22", "en": "vosk-model-small-en-us-0.15"}.get(lang, f"vosk-model-small-{lang}")
    return catalog(lang if lang in ("fr", "en") else "en").text(Msg("core.voice.no_model", where=str(where), name=name))


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def confidence_of(features: tuple[float, ...]) -> float:
    return logistic(sum(w * f for w, f in zip(CONFIDENCE_WEIGHTS, features, strict=True)) + CONFIDENCE_BIAS)


def to_pcm16(samples: np.ndarray) -> bytes:
    """Float (-1..1) or int16 samples -> little-endian 16-bit PCM bytes."""
    if samples.dtype != np.int16:
        samples = (np.clip(samples, -1.0, 1.0) * 32767).astype(np.int16)
    return samples.astype("<i2").tobytes()


def dither(pcm: np.ndarray, level: float = 8.0, seed: int = 0) -> np.ndarray:
    """Add a faint noise floor: digital silence (exact zeros) derails pocketsphinx's feature
    normalisation (measured: empty results on zero-padded synthetic speech)."""
    noise = np.random.default_rng(seed).normal(0.0, level, len(pcm))
    return np.clip(pcm.astype(np.float64) + noise, -32768, 32767).astype(np.int16)


class SphinxRecognizer:
    """pocketsphinx with a grammar of the phrases; thread-safe (one utterance at a time)."""

    def __init__(self, lang: str = "en", *, confidence: bool = True, stream_after: float | None = STREAM_AFTER,
                 settings: dict[str, Any] | None = None) -> None:
        self.lang = lang
        self.settings = {**DECODER_SETTINGS, **(settings or {})}
        self.stream_after = stream_after
        self.lexicon = Lexicon(lang)
        self.phrases: PhraseSet | None = None
        self.with_confidence = confidence
        self._key: str | None = None
        self._decoder: Any = None
        self._phones: Any = None
        self._feat: Any = None
        self._known: set[str] = set()
        self._lock = threading.Lock()
        self._search = 0
        self._pron: list[tuple[str, str]] = []  # (phone string, phrase key) for the margin
        self._tmp = tempfile.TemporaryDirectory(prefix="companion-voice-")

    # ------------------------------------------------------------------ set-up
    @staticmethod
    def model_dir() -> Path:
        import pocketsphinx

        return Path(pocketsphinx.get_model_path()) / "en-us"

    def _dict_lines(self, prons: dict[str, tuple[str, ...]]) -> list[str]:
        out = []
        for tok, variants in prons.items():
            for i, phones in enumerate(dict.fromkeys(variants)):
                out.append(f"{tok}{'' if i == 0 else f'({i + 1})'} {phones}")
        return out

    def set_phrases(self, phrases: PhraseSet) -> None:
        """Use these phrases from the next utterance on (recompiled only when they changed)."""
        key = phrases.key()
        with self._lock:
            if key == self._key:
                self.phrases = phrases
                return
            import pocketsphinx

            prons = self.lexicon.pronounce(phrases.vocabulary)
            if self._decoder is None:
                path = Path(self._tmp.name) / "words.dict"
                path.write_text("\n".join(self._dict_lines(prons)) + "\n", encoding="utf-8")
                self._decoder = pocketsphinx.Decoder(hmm=str(self.model_dir() / "en-us"), dict=str(path), lm=None, **self.settings,
                                                     loglevel="FATAL")
                if self.with_confidence:
                    self._phones = pocketsphinx.Decoder(hmm=str(self.model_dir() / "en-us"), dict=str(path), lm=None,
                                                        allphone=str(self.model_dir() / "en-us-phone.lm.bin"),
                                                        loglevel="FATAL")
                # a third decoder, never streamed, keeps pocketsphinx's batch cepstral mean:
                # it measures the mean of a stretch of sound (features only, no search)
                self._feat = pocketsphinx.Decoder(hmm=str(self.model_dir() / "en-us"), dict=str(path), lm=None,
                                                  loglevel="FATAL")
                self._feat.add_jsgf_string("feat", phrases.jsgf())
                self._feat.activate_search("feat")
                self._known = set(prons)
            else:
                new = {t: p for t, p in prons.items() if t not in self._known}
                for line in self._dict_lines(new):
                    word, _, phones = line.partition(" ")
                    self._decoder.add_word(word, phones, True)
                self._known |= set(new)
            self._search += 1
            name = f"s{self._search}"
            self._decoder.add_jsgf_string(name, phrases.jsgf())
            self._decoder.activate_search(name)
            if self._search > 1:
                self._decoder.remove_search(f"s{self._search - 1}")
            self._pron = [(_phone_string(m.phrase, prons), m.phrase) for m in phrases.phrases()]
            self._prons = prons
            self.phrases, self._key = phrases, key

    # ------------------------------------------------------------------ decoding
    def recognize(self, pcm: np.ndarray) -> Result:
        """One whole utterance (16 kHz mono, int16 or float)."""
        self.begin()
        self.feed(pcm)
        return self.finish()

    def begin(self) -> None:
        """An utterance starts. Its sound is kept (`feed`) until `stream_after` seconds of it
        are there; then both decoders start with the cepstral mean of that stretch and decode
        the rest as it comes, so that little is left to do when it ends (`finish`). Shorter
        utterances are decoded whole when they end, with the mean of the whole."""
        if self.phrases is None:
            raise RuntimeError("set_phrases first")
        self._lock.acquire()
        self._n = 0
        self._buf: list[bytes] = []
        self._samples = 0
        self._streaming = False
        self.cmn_used: str | None = None

    def feed(self, pcm: np.ndarray) -> None:
        if pcm.dtype != np.int16:
            pcm = (np.clip(pcm, -1.0, 1.0) * 32767).astype(np.int16)
        if not len(pcm):
            return
        data = to_pcm16(dither(pcm, seed=self._n))
        self._n += 1
        if self._streaming:
            self._decoder.process_raw(data, False, False)
            if self._phones is not None:
                self._phones.process_raw(data, False, False)
            return
        self._buf.append(data)
        self._samples += len(pcm)
        if self.stream_after is not None and self._samples >= self.stream_after * RATE:
            self._start_streaming()

    def _start_streaming(self) -> None:
        raw = b"".join(self._buf)
        self._buf = []
        self.cmn_used = self._mean_of(raw)
        for d in (self._decoder, self._phones):
            if d is not None:
                d.set_cmn(self.cmn_used)
                d.start_utt()
                d.process_raw(raw, False, False)
        self._streaming = True

    def _mean_of(self, raw: bytes) -> str:
        """pocketsphinx's cepstral mean over this sound (its batch normalisation's)."""
        f = self._feat
        f.start_utt()
        f.process_raw(raw, True, True)
        f.end_utt()
        return str(f.get_cmn(False))

    def finish(self) -> Result:
        try:
            d, p = self._decoder, self._phones
            if not self._streaming:  # a short utterance: decoded whole, with its own mean
                raw = b"".join(self._buf)
                if not raw:
                    return Result("", None, None, 0.0)
                self.cmn_used = self._mean_of(raw)
                for dec in (d, p):
                    if dec is not None:
                        dec.set_cmn(self.cmn_used)
                        dec.start_utt()
                        dec.process_raw(raw, False, True)
            d.end_utt()
            hyp = d.hyp()
            frames = max(1, d.n_frames())
            words = hyp.hypstr.split() if hyp is not None else []
            gscore = _ln(hyp.score) if hyp is not None else None
            phones: list[str] = []
            pscore = None
            if p is not None:
                p.end_utt()
                ph = p.hyp()
                if ph is not None and words:
                    pscore = _ln(ph.score)
                    phones = [s.word for s in p.seg() if s.word in _PHONE_CHAR]
        finally:
            self._buf = []
            self._streaming = False
            self._lock.release()
        text = " ".join(words)
        assert self.phrases is not None
        match = self.phrases.resolve(words) if words else None
        if match is None:
            return Result(text, None, None, 0.0)
        if not self.with_confidence:
            return Result(text, match.phrase, match.command, 1.0)
        llr = ((gscore or 0.0) - (pscore or 0.0)) / frames * 1e4 if pscore is not None else -50.0
        sim, margin = self._agreement(phones, match.phrase)
        feats = (llr, sim, margin)
        return Result(text, match.phrase, match.command, confidence_of(feats), feats)

    def _agreement(self, phones: list[str], phrase: str) -> tuple[float, float]:
        from rapidfuzz import fuzz, process

        heard = "".join(_PHONE_CHAR[p] for p in phones)
        if not heard:
            return 0.0, 0.0
        mine = _phone_string(phrase, self._prons)
        sim = fuzz.ratio(heard, mine) / 100.0
        best_other = 0.0
        for _s, score, _i in process.extract(heard, [s for s, ph in self._pron if ph != phrase], scorer=fuzz.ratio, limit=1):
            best_other = score / 100.0
        return sim, sim - best_other


def _ln(prob: float) -> float:
    return math.log(prob) if prob > 0 else -1e9


_PHONE_LIST = sorted("AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH".split())
_PHONE_CHAR = {p: chr(0x41 + i) for i, p in enumerate(_PHONE_LIST)}


def _phone_string(phrase: str, prons: dict[str, tuple[str, ...]]) -> str:
    from .grammar import tokens_of

    out: list[str] = []
    for tok in tokens_of(phrase):
        variants = prons.get(tok)
        if variants:
            out.extend(_PHONE_CHAR[p] for p in variants[0].split() if p in _PHONE_CHAR)
    return "".join(out)


# --------------------------------------------------------------------------- vosk
class VoskRecognizer:
    """vosk (Kaldi) with a model directory the user supplies, limited to the listed phrases."""

    def __init__(self, lang: str, model_dir: Path | None = None) -> None:
        self.lang = lang
        where = Path(model_dir) if model_dir else default_model_dir(lang)
        if not (where / "am").is_dir() and not (where / "conf").is_dir() and not (where / "final.mdl").exists():
            raise NoModel(lang, where)
        import vosk

        vosk.SetLogLevel(-1)
        self.model = vosk.Model(str(where))
        self.phrases: PhraseSet | None = None
        self._grammar = "[]"

    def set_phrases(self, phrases: PhraseSet) -> None:
        import json

        self.phrases = phrases
        self._grammar = json.dumps([" ".join(t) for t in phrases.by_tokens] + ["[unk]"], ensure_ascii=False)

    def recognize(self, pcm: np.ndarray) -> Result:
        import json

        import vosk

        if self.phrases is None:
            raise RuntimeError("set_phrases first")
        rec = vosk.KaldiRecognizer(self.model, RATE, self._grammar)
        rec.SetWords(True)
        rec.AcceptWaveform(to_pcm16(pcm))
        out = json.loads(rec.FinalResult())
        text = out.get("text", "")
        words = out.get("result", [])
        conf = min((w.get("conf", 0.0) for w in words), default=0.0)
        match = self.phrases.resolve(text) if text else None
        if match is None:
            return Result(text, None, None, 0.0)
        return Result(text, match.phrase, match.command, float(conf))


def open_recognizer(lang: str, model_dir: Path | None = None, engine: str = "auto") -> Recognizer:
    """The recogniser for `lang`: vosk with the user's model when there is one (or asked
    for), else pocketsphinx — English, or French through the English model as a fallback
    (measured in docs/voice.md). Raises NoModel when vosk is asked for and has no model."""
    if engine == "vosk" or model_dir is not None:
        return VoskRecognizer(lang, model_dir)
    if engine == "auto" and lang != "en" and os.path.isdir(default_model_dir(lang)):
        return VoskRecognizer(lang, None)
    return SphinxRecognizer(lang)
