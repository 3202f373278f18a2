"""Whisper held to the grammar: a shortlist of sayable lines scored against the utterance
by teacher forcing (issue 30, point 3).

Whisper's free transcript of a short command throws most of its acoustic evidence away (« D3 »
written "the three", a French command written as a French sentence it resembles). Here
Whisper is asked instead how likely each candidate line is, given the sound: the encoder
runs once on the utterance, and CTranslate2's `Whisper.align` gives, for each candidate's
tokens after the start sequence <|startoftranscript|><|lang|><|transcribe|>, the
probability of each token (`text_token_probs`, as faster-whisper's word timestamps use it).
A candidate's score is the sum of its tokens' log-probabilities; the candidates' posterior
is the softmax of those scores.

* **The shortlist** (`RescoreRecognizer.shortlist`): pocketsphinx decodes as ever (streamed
  with the grammar of what is sayable); its heard line, the lines that differ from it in one
  slot's value (`PhraseSet.rivals`, the nearest in spelling), the legal moves nearest it where
  the listed ones are a sample (2kissa10), the lines nearest Whisper's own free transcript,
  the shared words, and every listed line when there are few (`ALL_UNDER`).
* **The encoder window**: CTranslate2 takes a mel window shorter than Whisper's 30 s (the
  audio_ctx idea of whisper.cpp): the utterance and `WINDOW_PAD` of padding, in whole
  seconds. Measured (docs/voice.md): the same scores within a few hundredths of a nat, the
  encoder 10-20 times faster and its working memory as much smaller.
* **Talk**: the free transcript is decoded greedily from the same encoder output and scored
  in the same way; a line whose score falls far below it (`Fitted.talk_gap` per token) is no command.
* **Confidence** (`confidence_of`): a logistic over the candidate's posterior, its gap to the
  free transcript, whether pocketsphinx heard the same line, and pocketsphinx's confidence;
  fitted by bench/voice_accuracy.py --rescore on espeak-ng voices only (`FITTED`).
"""

from __future__ import annotations

import math
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .engines import SecondPass
from .grammar import Phrase, PhraseSet, fold_token
from .recognizer import Result

RATE = 16000
#: tokens Whisper writes at most in its free transcript (as `whisper.MAX_TOKENS`)
MAX_TOKENS = 64
#: every listed line is a candidate when a state lists at most this many (an answer's words)
ALL_UNDER = 24
#: the rivals of pocketsphinx's line (one slot's value changed) kept, the nearest in spelling
RIVALS = 12
#: the listed lines nearest Whisper's free transcript kept, and as many nearest pocketsphinx's
NEAR_FREE = 8
#: the encoder's window: the utterance, then this much padding (s), rounded up to whole seconds
WINDOW_PAD = 0.5
#: candidates aligned per call (CTranslate2's batch: measured faster than one by one, and than
#: larger batches, whose cross-attention over the repeated encoder output grew worse than linearly)
BATCH = 4
#: added to a candidate's score per token: the sum of log-probabilities favours short lines
#: (« what », « no »), as a recogniser without a word insertion bonus does (measured: no gain)
TOKEN_BONUS = 0.0


@dataclass(frozen=True)
class Fitted:
    """What bench/voice_accuracy.py --rescore fits per language on espeak-ng voices only."""

    #: added to the score of the line pocketsphinx heard: its own acoustic evidence, with its
    #: grammar's prior (legal moves likelier), beside Whisper's: `bonus` + `per_logit` ×
    #: logit(pocketsphinx's confidence), so that a line it is sure of stays (clean speech) and
    #: Whisper decides where it is not (noise)
    bonus: float
    per_logit: float
    #: a line this far (nats per token) below the free transcript is talk
    talk_gap: float
    #: the confidence's logistic over `RescoreRecognizer.rescore`'s features, and its bias
    weights: tuple[float, float, float, float]
    bias: float


#: 2026-12-02, `bench/voice_accuracy.py --n 24 --lang en --conditions clean,white10,babble10
#: --rescore` (102 utterances of espeak-ng voices, 11 out-of-grammar sentences; docs/voice.md)
FITTED: dict[str, Fitted] = {
    "en": Fitted(8.0, 1.0, 5.0, (0.1531, 0.1455, 2.3791, 1.1312), -3.255),
    # `--n 40 --lang fr --conditions clean,babble10 --rescore` (87 utterances of fr, fr+f3,
    # fr-be, fr+m3; 14 out-of-grammar sentences): pocketsphinx's line weighs far more in French
    "fr": Fitted(14.0, 2.0, 5.0, (0.0, 0.2254, 3.6692, 2.0693), -2.659),
}


def fitted(lang: str) -> Fitted:
    return FITTED.get(lang, FITTED["en"])


@dataclass(frozen=True)
class Scored:
    """One utterance scored: the free transcript and its score, each candidate's score (sum of
    log-probabilities of its tokens) and token count, and the time it took."""

    free: str
    free_score: float
    free_tokens: int
    scores: list[float]
    counts: list[int]
    ms: float


class Rescorer:
    """Whisper's encoder once per utterance, then its decoder forced along each candidate."""

    def __init__(self, lang: str = "en", model: Path | str | None = None, *, threads: int | None = None,
                 window: bool = True) -> None:
        from . import whisper

        self.lang = lang
        self.folder = whisper.model_folder(model, lang)  # a missing model is said before a game starts
        self.threads = threads
        self.window = window  # False: Whisper's 30-second window, as trained (for the figures)
        self._model: Any = None
        self._lock: threading.Lock | None = None
        self._tok: Any = None

    def load(self) -> None:
        if self._model is None:
            # CTranslate2's OpenMP threads spin after each call by default, taking the cores from
            # pocketsphinx and the VAD beside them: on a loaded 2-core machine the listener fell
            # 10-20 s behind (measured: end of speech -> line 4.9 s median, p95 19 s; passive,
            # 0.62 / 0.71 s). Read when OpenMP starts: before CTranslate2 is first imported
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            from faster_whisper.tokenizer import Tokenizer

            from .whisper import load_model

            self._model, self._lock = load_model(self.folder, self.threads)
            ct2 = self._model.model
            self._tok = Tokenizer(self._model.hf_tokenizer, ct2.is_multilingual, task="transcribe",
                                  language=self.lang if ct2.is_multilingual else None)

    def features(self, pcm: np.ndarray) -> np.ndarray:
        """The log-mel features of the utterance, padded to the encoder's window."""
        self.load()
        audio = pcm.astype(np.float32) / 32768.0 if pcm.dtype == np.int16 else pcm.astype(np.float32)
        mel = self._model.feature_extractor(audio)
        n = mel.shape[1]
        full = self._model.feature_extractor.nb_max_frames  # 3000: 30 s
        want = full if not self.window else min(full, 100 * math.ceil((n + WINDOW_PAD * 100) / 100))
        mel = mel[:, :want]
        return np.ascontiguousarray(np.pad(mel, ((0, 0), (0, want - mel.shape[1])))[None].astype(np.float32))

    def render(self, line: str, end: str) -> list[int]:
        """A line's tokens as Whisper writes a sentence: a capital first, its end mark after."""
        text = line.strip()
        text = text[:1].upper() + text[1:]
        return list(self._tok.encode(" " + text + end))

    def encode(self, pcm: np.ndarray) -> Encoded:
        """The encoder's output for the utterance, and Whisper's free transcript from it."""
        import ctranslate2

        t0 = time.perf_counter()
        feats = self.features(pcm)
        frames = max(1, min(feats.shape[2], len(pcm) // 160))
        ct2 = self._model.model
        assert self._lock is not None
        with self._lock:
            enc = ct2.encode(ctranslate2.StorageView.from_array(feats), to_cpu=True)
            # a short window invites a repeated phrase to fill it: no 4-gram twice, and a length
            # bounded by the utterance's (2kissa10's longest move: some 40 tokens in 5 s)
            got = ct2.generate(enc, [[*self._tok.sot_sequence, self._tok.no_timestamps]], beam_size=1,
                               max_length=min(MAX_TOKENS, 8 + int(8 * len(pcm) / RATE)), no_repeat_ngram_size=3,
                               repetition_penalty=1.2)
        ids = [t for t in got[0].sequences_ids[0] if t < self._tok.eot]
        return Encoded(np.asarray(enc), frames, ids, self._tok.decode(ids).strip(), t0)

    def score(self, heard: Encoded, lines: list[str]) -> Scored:
        """Each line's score against the encoded utterance, and the free transcript's."""
        import ctranslate2

        # the end mark Whisper put, or a full stop: every candidate must end where the sound ends
        end = heard.free[-1] if heard.free[-1:] in ".?!" else "."
        rows = [heard.ids or self.render("", end)] + [self.render(line, end) for line in lines]
        ct2 = self._model.model
        probs: list[np.ndarray] = []
        assert self._lock is not None
        with self._lock:
            for k in range(0, len(rows), BATCH):
                chunk = rows[k:k + BATCH]
                batch = ctranslate2.StorageView.from_array(np.ascontiguousarray(np.repeat(heard.enc, len(chunk), 0)))
                for r in ct2.align(batch, self._tok.sot_sequence, chunk, heard.frames):
                    probs.append(np.asarray(r.text_token_probs, dtype=np.float64))
        sums = [float(np.log(np.maximum(p, 1e-30)).sum()) for p in probs]
        counts = [len(r) for r in rows]
        return Scored(heard.free, sums[0], counts[0], sums[1:], counts[1:], (time.perf_counter() - heard.t0) * 1000)


@dataclass(frozen=True)
class Encoded:
    """An utterance through Whisper's encoder: its output, its frames, the free transcript."""

    enc: np.ndarray
    frames: int
    ids: list[int]
    free: str
    t0: float


def posterior(scores: list[float]) -> np.ndarray:
    """The softmax of the candidates' scores."""
    x = np.asarray(scores, dtype=np.float64)
    x = np.exp(x - x.max())
    return np.asarray(x / x.sum())


def sphinx_bonus(confidence: float, bonus: float, per_logit: float) -> float:
    """What pocketsphinx's line adds to its score, given pocketsphinx's confidence in it."""
    c = min(max(confidence, 1e-4), 1 - 1e-4)
    return bonus + per_logit * math.log(c / (1 - c))


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def confidence_of(features: tuple[float, ...], lang: str = "en") -> float:
    f = fitted(lang)
    return logistic(sum(w * x for w, x in zip(f.weights, features, strict=True)) + f.bias)


@dataclass(frozen=True)
class RescoredResult(Result):
    """A Result with what the rescoring saw (for `voice test` and the figures)."""

    first: Result | None = None  # pocketsphinx's own
    free: str = ""
    candidates: int = 0
    ms: float = 0.0
    #: each candidate's (phrase, command, score, tokens) and the free transcript's (score, tokens)
    scores: tuple[tuple[str, str | None, float, int], ...] = ()
    free_score: tuple[float, int] = (0.0, 0)
    #: Whisper heard something else far likelier than any line: talk, no command
    talk: bool = False


class RescoreRecognizer(SecondPass):
    """pocketsphinx's streamed decode, then Whisper's scores over a shortlist of lines: the
    recogniser contract of the listener (`set_phrases`, `begin`/`feed`/`finish`, `recognize`)."""

    def __init__(self, first: Any, rescorer: Rescorer) -> None:
        super().__init__(first)
        self.rescorer = rescorer
        self.phrases: PhraseSet | None = None
        self._index: Any = None
        self._key: str | None = None

    def set_phrases(self, phrases: PhraseSet) -> None:
        # Whisper loads first, in the listener's thread: its load's passing peak (the model read
        # while its weights are made) then comes before pocketsphinx's grammar is built, not on top
        self.rescorer.load()
        self.first.set_phrases(phrases)
        self.phrases = phrases
        if phrases.key() != self._key:
            self._index, self._key = None, phrases.key()

    def second(self, got: Result, pcm: np.ndarray) -> Result:
        return self.rescore(got, pcm)

    # ------------------------------------------------------------------ the shortlist
    def shortlist(self, got: Result, free: str | None = None) -> list[tuple[tuple[str, ...], Phrase]]:
        """(tokens after the prefix, phrase) of each candidate line, pocketsphinx's first."""
        assert self.phrases is not None
        ps = self.phrases
        out: dict[tuple[str, ...], Phrase] = {}

        def add(toks: tuple[str, ...]) -> None:
            if toks and toks not in out:
                hit = ps._resolve(toks)  # noqa: SLF001 - the listed phrase of these words, prefix apart
                if hit is not None:
                    out[toks] = hit

        heard: tuple[str, ...] = ()
        if got.line is not None:
            words = got.text.split()
            match = ps.resolve(words)
            if match is not None:
                heard = tuple(fold_token(w) for w in words[ps.prefix_length(words, match):])
                add(heard)
        if heard:
            from rapidfuzz import fuzz, process

            rivals = [" ".join(r) for r in ps.rivals(heard)]
            for _s, _score, i in process.extract(" ".join(heard), rivals, scorer=fuzz.ratio, limit=RIVALS):
                add(tuple(rivals[i].split()))
            legal = getattr(self.first, "_legal", None)  # where the listed moves are a sample
            if legal is not None and (match := ps.resolve(heard)) is not None and (match.command or "").startswith("action"):
                for toks in legal.nearest(" ".join(heard), k=RIVALS // 2, wait=0.5):
                    add(toks)
        from rapidfuzz import fuzz, process

        from .nearest import normalise

        tokens, strings = self._listed()
        for said in (" ".join(normalise(free or "", self.lang)), " ".join(heard)):
            if said:
                for _s, _score, i in process.extract(said, strings, scorer=fuzz.ratio, limit=NEAR_FREE):
                    add(tokens[i])
        if len(ps.by_tokens) <= ALL_UNDER:
            for toks in ps.by_tokens:
                add(toks)
        return list(out.items())

    def _listed(self) -> tuple[list[tuple[str, ...]], list[str]]:
        """The listed lines' tokens and their normalised spelling (number words as digits). The
        listed lines only: 2kissa10's every legal move (95,000) took seconds to index; its moves
        near what pocketsphinx heard come from its own second pass's list (`shortlist`)."""
        if self._index is None:
            from .nearest import normalise

            assert self.phrases is not None
            tokens = list(self.phrases.by_tokens)
            self._index = (tokens, [" ".join(normalise(" ".join(t), self.lang)) for t in tokens])
        return self._index

    # ------------------------------------------------------------------ the choice
    def rescore(self, got: Result, pcm: np.ndarray) -> Result:
        if self.phrases is None:
            raise RuntimeError("set_phrases first")
        pcm = np.asarray(pcm)
        if not got.text or len(pcm) < RATE // 10 or pcm.ndim != 1:
            return got  # no speech heard (silence, steady noise): nothing to score
        words = got.text.split()
        match = self.phrases.resolve(words) if got.line is not None else None
        prefix = words[: self.phrases.prefix_length(words, match)] if match is not None else []
        # pocketsphinx's candidates first, Whisper's free transcript's after it is decoded: one
        # encoder pass for both (`Rescorer.score` decodes the transcript before it aligns)
        heard = self.rescorer.encode(pcm)
        cands = self.shortlist(got, heard.free)
        if not cands:
            return got
        scored = self.rescorer.score(heard, [" ".join([*prefix, p.phrase]) for _t, p in cands])
        fit = fitted(self.lang)
        extra = sphinx_bonus(got.confidence, fit.bonus, fit.per_logit)
        post = posterior([x + TOKEN_BONUS * n + (extra if p.phrase == got.line else 0.0)
                          for x, n, (_t, p) in zip(scored.scores, scored.counts, cands, strict=True)])
        best = int(np.argmax(post))
        toks, phrase = cands[best]
        # the command's posterior: the lines that say the same command (aliases) add up
        same = sum(float(q) for q, (_t, p) in zip(post, cands, strict=True) if p.command == phrase.command
                   and (phrase.command is not None or p.phrase == phrase.phrase))
        per_tok = (scored.scores[best] - scored.free_score) / max(1, scored.counts[best])
        agree = float(got.line is not None and got.line == phrase.phrase)
        feats = (math.log(max(same, 1e-6) / max(1e-6, 1 - same)), per_tok, agree, got.confidence)
        text = " ".join([*prefix, *toks])
        seen = (tuple((p.phrase, p.command, x, n) for (_t, p), x, n in zip(cands, scored.scores, scored.counts, strict=True)),
                (scored.free_score, scored.free_tokens))
        if per_tok < -fit.talk_gap:  # Whisper heard something else far likelier: talk
            return RescoredResult(text, None, None, 0.0, feats, got, scored.free, len(cands), scored.ms, *seen,
                                  talk=True)
        return RescoredResult(text, phrase.phrase, phrase.command, confidence_of(feats, self.lang), feats, got, scored.free,
                              len(cands), scored.ms, *seen)


__all__ = ["ALL_UNDER", "FITTED", "Fitted", "RescoreRecognizer", "RescoredResult", "Rescorer", "Scored", "posterior"]
