"""Recognisers: audio of one utterance -> one listed phrase (or none) and a confidence.

`SphinxRecognizer` (pocketsphinx 5.1.1, its wheel's US English acoustic model) decodes with
a JSGF grammar compiled from what is sayable now, rebuilt only when that changes. Beside it
a second decoder runs a free phone loop (pocketsphinx's ``allphone`` search with its phone
language model) on the same audio. Both decode while the player speaks: the first
`STREAM_AFTER` seconds of an utterance are kept, their cepstral mean measured (a third
decoder, features only, with the model's batch normalisation), and both decoders start from
that mean; so the mean is right from the first frame (a mean carried over from the previous
utterance, pocketsphinx's live default, lost much accuracy) and little is left to do when
the utterance ends. Before the decoders, a streamed spectral subtraction (`Denoiser`) takes
off the noise floor measured on that first stretch. How well the two decoders agree gives
the confidence:

* ``llr``: the grammar path's score minus the phone loop's, per frame (a word sequence that
  fits the audio as well as unconstrained phones do is likely right), and the same for the
  phrase's worst word (`_worst_word`);
* ``sim``: how close the phones heard are to the recognised phrase's pronunciation
  (normalised Indel similarity, 0..1), and ``margin``: how much closer than to any other
  listed phrase;
* the share of the grammar path in noise fillers and inner silence (`_filler_share`), and
  the length mismatch between the phones heard and the phrase's.

`confidence` = logistic(w · features + b), on a 0..1 scale meant to read as the
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion import paths

from . import fsg
from .fsg import Automaton, Ends, automaton
from .grammar import PhraseSet
from .legal import NEAREST, LegalMoves
from .memory import give_back, give_back_later
from .pronounce import Lexicon
from .sayable import shared_commands

RATE = 16000

# logistic weights over the features of `finish` (llr per frame ×1e4, phone similarity,
# similarity margin, filler share, length mismatch, worst word's llr per frame ×1e4), and
# bias. Fitted by `bench/voice_accuracy.py --n 60 --lang en --calibrate` (2026-11-30) on
# 328 recognised synthetic utterances of the voices en-us, en+f3, en-us+m3 and half the
# out-of-grammar sentences (those count as wrong), each weight kept to its sign (the margin
# and the length mismatch came out 0); the bias is then raised so that lines the fit
# rated 0.4 or more pass the session's 0.6 (fitted bias -0.676; 0.4 was that run's
# lowest threshold with no wrong line on the held-out voices en, en+f4). A later run with
# other utterances measures it on the held-out voices again: docs/voice.md.
CONFIDENCE_WEIGHTS = (0.2412, 2.5085, 0.0, -2.9627, 0.0, 0.0106)
CONFIDENCE_BIAS = -0.676 + math.log(0.6 / 0.4) - math.log(0.4 / 0.6)
# French through the English acoustic model (French pronunciations in its phones) errs in
# other ways: its own weights, fitted by `bench/voice_accuracy.py --n 150 --calibrate`
# (2026-12-01) on 227 recognised utterances of the voices fr and fr+f3 and half the
# out-of-grammar sentences. On the voices not used for fitting (fr+m3, fr-be: 190 utterances)
# at 0.6: no wrong state-changing line taken without read-back (2.6 %, 5 of 190, with the
# English weights), and 97 % of right ones read back: a fallback this unsure asks first.
CONFIDENCE_FR = ((0.2041, 0.4577, 0.0, -7.3017, 0.0, 0.0003), -1.197)
CONFIDENCE: dict[str, tuple[tuple[float, ...], float]] = {"en": (CONFIDENCE_WEIGHTS, CONFIDENCE_BIAS),
                                                           "fr": CONFIDENCE_FR}
# While a yes/no question waits (a read-back, « Quitter la partie ? »), the grammar is the
# answer's alone (`answer_phrases`): a few short words, so the same sound scores otherwise (a
# long move forced onto « vas-y » fits it as well as unconstrained phones do) and its
# confidence has weights of its own, fitted on heard « yes » lines only (the one answer that
# changes anything). Languages not listed keep the game's grammar during a question. Fitted
# by bench/voice_answers.py on the fitting voices, reported on held-out ones (docs/voice.md)
# fr: bench/voice_answers.py --rates 150,175 (2026-12-02), 62 lines heard as « yes » of the
# voices fr, fr+f3, fr-be, fr+m3 (all yes words, and what else a player may say then)
ANSWER_CONFIDENCE: dict[str, tuple[tuple[float, ...], float]] = {
    "fr": ((0.2641, 3.1881, 0.0943, 0.0, -1.8195, 0.0), -2.771)}
#: an answer is short: a longer utterance heard while a question waits is no answer (a move
#: said then, talk): the yes/no words last 0.6-1.2 s as espeak-ng says them, 0.7 s of pre-roll
#: and hangover around them; a 2kissa10 equation or a Kaliko play takes 3 s or more
ANSWER_MAX_SECONDS = 2.2
#: the commands the answer grammar hears: the answer, « annule » (drops the question), « répète »
ANSWER_COMMANDS = ("yes", "no", "undo", "repeat")
# noise and silence may sit between and around words (measured on espeak-ng speech at 10 dB
# SNR: 39/57 right instead of 36/57, and 3 utterances with no result instead of 8).
# bestpath off: with it, pocketsphinx builds the grammar's word lattice for every hypothesis
# (`hyp()` asks for it twice, for the words and for a posterior it then reports), which took
# 0.4-12 s per utterance with the 2kissa10 grammar; without it the answer is the Viterbi
# path, as accurate on synthetic speech (measured: 41 against 33 right of 64, docs/voice.md)
# Wider beams than pocketsphinx's (1e-48, 1e-48, 7e-29): noise makes the right path look
# worse early on, and narrow beams prune it (measured: 21 against 17 of 32 noisy moves right)
DECODER_SETTINGS: dict[str, Any] = {"fillprob": 1e-2, "silprob": 0.1, "bestpath": False,
                                    "beam": 1e-64, "pbeam": 1e-64, "wbeam": 1e-48}
# a move the second pass among the legal moves corrected is read back (the session reads back
# what it is given under 0.6)
CORRECTED_CONFIDENCE = 0.5
# a move heard less than this far (per frame, ×1e4) above the nearest line that says another
# command, both decoded again with no prior (`_rival_margin`), is read back: legality weighs
# much in the grammar (fsg.WHOLE_ODDS raised to the language weight), and « Kiboss », held, was
# heard as « Kigliss », legal, at 0.99. Fitted by bench/voice_whole_language.py (docs/voice.md):
# 5 on whole utterances, 6 fed in chunks (`--stream`: at 5, 2 of 36 played), 7.5 through the
# live listener itself (`--listener 0,0.3,1`: its VAD's cut moves the margin of one sound by up
# to 0.8; the worst wrong legal move stood at 6.4, and the same sound was played at 6.3 by
# `companion play`; at 7.5 none of 7 is played, 42 of 108 right requests are read back)
RIVAL_MARGIN = 7.5
# a move of a sampled list (2kissa10) heard less than this far above the nearest line one slot
# away that is a legal move too is read back: the templates weigh every line alike, so the
# likeliest misreading is another legal move the second pass keeps (« 4 at G3 » heard as « 4
# at D3 », the other cells the same, at 0.975). Fitted on espeak-ng voices by
# bench/voice_accuracy.py --games kissa --sampled-legal-margin=-inf (the worst wrong move
# played stood at 5.75, seeds 11 and 12); held-out flite and Festival voices, clean: 5 of 103
# state changes played wrong without it, none at 6, and 75 of 95 right ones read back against
# 15 (docs/voice.md)
SAMPLED_LEGAL_MARGIN = 6.0
# how many legal moves, the nearest in words to what was heard, the check looks its legal
# rivals up among (the second pass decodes among the first `legal.NEAREST` of them): on a
# crowded board more than 40 lie within two letters of a move, and « 4 at B6 », said, was not
# among the 40 nearest « 4 at D3 », heard and played
LEGAL_NEAR = 400
# whether a listed move of every game, not only of those whose phrases say so
# (`PhraseSet.legal_rivals`: 2kissa10, sampled or not), is weighed against its listed (legal)
# rivals one slot away the same way. Off: in Kaliko the held-out voices' right plays read back
# went from 1 to 13 of 19 for 1 wrong play of 20 caught (bench/voice_accuracy.py
# --legal-rival-listed; docs/voice.md)
LEGAL_RIVAL_LISTED = False
# how many rivals, the nearest in phones, the second decode weighs
RIVALS = 30
# within this margin, the rival is taken instead of the heard move (then refused, as typed: it is
# not legal now) when the free phones (the allphone decode) stand at least RIVAL_TAKEN_EDITS edits
# nearer its phones than the heard line's: « Kiboss eating », held, heard as « Kigliss eating »
# at margins 2-4, was read back, not heard as said. Fitted on espeak-ng voices by
# bench/voice_whole_language.py (docs/voice.md); -inf: never taken
RIVAL_TAKEN_MARGIN = 5.0
RIVAL_TAKEN_EDITS = 1
# the languages it is fitted and measured in: French is heard through the English acoustic
# model, whose free phones took « à Robot 1 » for its rival « à humain » (the French whole game
# by voice then never made its move); there a close rival is read back, as before
RIVAL_TAKEN_LANGS = frozenset({"en"})
# the grammar's probabilities count this many times the acoustic scores' logarithm (None: the
# decoder's `lw`, 6.5, as pocketsphinx's JSGF compile does). At 1, legal 2kissa10 equations were
# no more likely than any three numbers (« 4 at D3 plus 4 at D3 equals 4 at D3 » was heard
# twice in 20): at 6.5, 17 against 15 of 20 clean moves right, the rest unchanged (measured)
LANGUAGE_WEIGHT: float | None = None
# spectral subtraction before the decoders (over-subtraction, spectral floor); None: none
DENOISE: tuple[float, float] | None = (0.7, 0.2)
# the loudest 32 ms of an utterance must have this many times the power of its noise floor
# (6 dB) to be speech; steady noise alone gives about 1.5
SPEECH_ABOVE_FLOOR = 4.0
# the loudest fifth of the frames, 250-4000 Hz, must be less flat than this to be speech:
# white noise gives 0.57 (a burst, a rustle of paper, a fan), espeak-ng speech 0.01-0.03
# clean, 0.11-0.24 at 10 dB SNR, 0.31-0.48 at 0 dB (measured on four phrases and voices)
NOISE_FLATNESS = 0.5
# feature settings over the model's feat.params (e.g. {"remove_noise": False})
FRONTEND_SETTINGS: dict[str, Any] = {}
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
    return paths.data_dir() / "voice" / f"vosk-{lang}"


def no_model_message(lang: str, where: Path | None) -> str:
    """Where to put a model and how to get one, in the language asked for (French for fr)."""
    from companion.narration import Msg, catalog

    where = where or default_model_dir(lang)
    name = {"fr": "vosk-model-small-fr-0.22", "en": "vosk-model-small-en-us-0.15"}.get(lang, f"vosk-model-small-{lang}")
    return catalog(lang if lang in ("fr", "en") else "en").text(Msg("core.voice.no_model", where=str(where), name=name))


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def confidence_of(features: tuple[float, ...], lang: str = "en", answering: bool = False) -> float:
    weights, bias = (ANSWER_CONFIDENCE.get(lang) if answering else None) or CONFIDENCE.get(lang, CONFIDENCE["en"])
    return logistic(sum(w * f for w, f in zip(weights, features, strict=True)) + bias)


def answers_apart(lang: str) -> bool:
    """A yes/no question is heard with the answer's own grammar in `lang` (`ANSWER_CONFIDENCE`)."""
    return lang in ANSWER_CONFIDENCE


def answer_phrases(lang: str, wake: str | None = None, speakers: list[str] | tuple[str, ...] = ()) -> PhraseSet:
    """The grammar of an answer to a yes/no question: the shared words of `ANSWER_COMMANDS`
    (marked `answering`: the recogniser keeps the game's grammar aside and calibrates apart)."""
    from companion.language.sayable import shared_phrases

    ps = PhraseSet.build([(p, c) for p, c in shared_phrases(lang) if c in ANSWER_COMMANDS], None, lang,
                         wake=wake, speakers=list(speakers))
    ps.answering = True  # type: ignore[attr-defined]
    return ps


def is_answer(phrases: PhraseSet | None) -> bool:
    return bool(getattr(phrases, "answering", False))


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
                 settings: dict[str, Any] | None = None, frontend: dict[str, Any] | None = None,
                 denoise: tuple[float, float] | None = DENOISE, grammar: str = "fsg") -> None:
        self.lang = lang
        # "fsg": the compact automaton of `fsg.automaton`; "jsgf": pocketsphinx's own compile of
        # the same grammar's JSGF text (as before it; kept for benchmarks to compare with)
        self.grammar = grammar
        self.frontend = {**FRONTEND_SETTINGS, **(frontend or {})}
        self.settings = {**DECODER_SETTINGS, **(settings or {})}
        self.stream_after = stream_after
        self.denoise = denoise
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
        self._legal: LegalMoves | None = None  # every legal move, when the listed ones are a sample
        self._legal_make: Callable[[], Sequence[str]] | None = None
        #: the last utterance's margin over its nearest rival (`_rival_margin`), for the figures
        self.last_rival: float | None = None
        #: the words of that rival; how many edits nearer its phones than the heard line's the
        #: free phones (allphone) stand; whether it was taken instead of the heard line
        self.last_rival_words: list[str] | None = None
        self.last_rival_edits: int | None = None
        self.last_rival_taken = False
        #: the margin not per frame: the whole utterance's score over the rival's (ln)
        self.last_rival_total: float | None = None
        #: a sampled list's move: its margin over the nearest rival one slot away that is a
        #: legal move too (None: no such rival), and the legal moves the second pass weighed
        self.last_legal_rival: float | None = None
        self._legal_near: set[tuple[str, ...]] = set()
        self._tmp = tempfile.TemporaryDirectory(prefix="companion-voice-")
        self._game: tuple[Any, ...] | None = None  # the game's grammar's state while an answer is heard
        self._answer_key: str | None = None
        #: where a line of the active grammar ends with nothing after it (`heard_whole`)
        self._ends: Ends | None = None
        self._answer_ends: Ends | None = None
        self._prons: dict[str, tuple[str, ...]] = {}
        self._phone_memo: tuple[dict[str, tuple[str, ...]], dict[str, str]] = (self._prons, {})

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
            if is_answer(phrases) and self._search and self._answer(phrases, key):
                return
            if key == self._key:
                if self._game is not None:  # back from an answer: the game's grammar was kept
                    self._decoder.activate_search(f"s{self._search}")
                    self._pron, self._prons, self._legal, self._legal_make, self._ends = self._game
                    self._game = None
                self.phrases = phrases
                return
            self._game = None
            import pocketsphinx

            prons = self.lexicon.pronounce(phrases.vocabulary)
            if self._search:
                # the old grammar goes before the new one is built, and before new words are
                # added (each one added updates the active grammar: 2kissa10's was rebuilt for
                # every new number, and the process's peak went from 150 to 206 MB, measured);
                # an empty grammar is active meanwhile, as pocketsphinx must always have one
                if self._search == 1:
                    self._decoder.add_fsg("idle", self._decoder.create_fsg("idle", 0, 1, [(0, 1, 1.0)]))
                self._decoder.activate_search("idle")
                self._decoder.remove_search(f"s{self._search}")
            if self._decoder is None:
                path = Path(self._tmp.name) / "words.dict"
                path.write_text("\n".join(self._dict_lines(prons)) + "\n", encoding="utf-8")
                self._decoder = pocketsphinx.Decoder(hmm=str(self.model_dir() / "en-us"), dict=str(path), lm=None, **self.settings,
                                                     loglevel="FATAL")
                if self.with_confidence:
                    self._phones = pocketsphinx.Decoder(hmm=str(self.model_dir() / "en-us"), dict=str(path), lm=None,
                                                        allphone=str(self.model_dir() / "en-us-phone.lm.bin"),
                                                        loglevel="FATAL")
                self._feat = _features_decoder(self.model_dir(), self.frontend)
                if self.frontend:  # the model's feat.params win over arguments: set them after
                    for dec in (self._decoder, self._phones):
                        if dec is not None:
                            for k, v in self.frontend.items():
                                dec.config[k] = v
                            dec.reinit_feat()
                self._known = set(prons)
            else:
                new = {t: p for t, p in prons.items() if t not in self._known}
                for line in self._dict_lines(new):
                    word, _, phones = line.partition(" ")
                    self._decoder.add_word(word, phones, True)
                self._known |= set(new)
            self._search += 1
            name = f"s{self._search}"
            if self.grammar == "jsgf":
                self._decoder.add_jsgf_string(name, phrases.jsgf())
                self._ends = None
            else:
                fa = automaton(phrases, shared_commands(self.lang))
                self._add_fsg(name, fa)
                self._ends = self._ends_of(fa, phrases)
            self._decoder.activate_search(name)
            self._pron = [(_phone_string(m.phrase, prons), m.phrase) for m in phrases.phrases()]
            # every legal move is made when someone starts speaking in this state (`begin`), not
            # before: the first grammar of a table is often a bot's turn (2kissa10: 155 against 139 MB)
            self._legal = None
            self._legal_make = phrases.every_move if phrases.sampled else None
            self._prons = prons
            self.phrases, self._key = phrases, key
        give_back()  # the old grammar's and the build's freed pages (memory.py)

    def _answer(self, phrases: PhraseSet, key: str) -> bool:
        """The answer's grammar, the game's kept aside to come back to at once (2kissa10's
        takes seconds to build). Its words are shared words, already known."""
        prons = self.lexicon.pronounce(phrases.vocabulary)
        if any(t not in self._known for t in prons):
            return False  # built as any other grammar
        if self._game is None:
            self._game = (self._pron, self._prons, self._legal, self._legal_make, self._ends)
        if self._answer_key != key:
            if self._answer_key is not None:
                self._decoder.activate_search(f"s{self._search}")
                self._decoder.remove_search("answer")
            fa = automaton(phrases, shared_commands(self.lang))
            self._add_fsg("answer", fa)
            self._answer_ends = self._ends_of(fa, phrases)
            self._answer_key = key
        self._ends = self._answer_ends
        self._decoder.activate_search("answer")
        self._pron = [(_phone_string(m.phrase, prons), m.phrase) for m in phrases.phrases()]
        self._prons, self._legal, self._legal_make = prons, None, None
        self.phrases = phrases
        return True

    # ------------------------------------------------------------------ decoding
    def recognize(self, pcm: np.ndarray, chunk: int | None = None) -> Result:
        """One whole utterance (16 kHz mono, int16 or float); with `chunk`, fed that many
        samples at a time as the listener feeds it (480: 30 ms, each chunk dithered apart)."""
        self.begin()
        for k in range(0, len(pcm), chunk) if chunk else [0]:
            self.feed(pcm[k:k + chunk] if chunk else pcm)
        return self.finish()

    def begin(self) -> None:
        """An utterance starts. Its sound is kept (`feed`) until `stream_after` seconds of it
        are there; then the noise floor is measured on that stretch (its quietest frames), and
        both decoders start, with the cepstral mean of that stretch once denoised, and decode
        the rest as it comes, so that little is left to do when it ends (`finish`). Shorter
        utterances are decoded whole when they end, in the same way."""
        if self.phrases is None:
            raise RuntimeError("set_phrases first")
        if self._legal is None and self._legal_make is not None:
            self._legal = LegalMoves(self._legal_make)  # made while the player speaks
        give_back_later()  # what the last utterance's decoding and the game since freed (memory.py)
        self._lock.acquire()
        self.last_rival = None
        self.last_rival_words, self.last_rival_edits, self.last_rival_taken = None, None, False
        self.last_rival_total, self.last_legal_rival, self._legal_near = None, None, set()
        self._n = 0
        self._heard: list[bytes] = []  # what the decoders were given, for a second pass
        self._buf: list[np.ndarray] = []
        self._samples = 0
        self._streaming = False
        self._denoiser: Denoiser | None = None
        self._speechless = False
        self.cmn_used: str | None = None

    def feed(self, pcm: np.ndarray) -> None:
        if pcm.dtype != np.int16:
            pcm = (np.clip(pcm, -1.0, 1.0) * 32767).astype(np.int16)
        if not len(pcm):
            return
        if self._streaming:
            self._decode(pcm)
            return
        self._buf.append(pcm)
        self._samples += len(pcm)
        if self.stream_after is not None and self._samples >= self.stream_after * RATE:
            self._start(last=False)

    @staticmethod
    def _ends_of(fa: Automaton, phrases: PhraseSet) -> Ends:
        # a filler after the phrase (« … s'il te plaît », when heard: fsg.FILLER) goes on
        # from no command: the utterance may end before it, the filler heard apart as talk
        return Ends(fa, ignore=(t for f in phrases.filler for t in f) if fsg.FILLER else ())

    def heard_whole(self) -> bool:
        """Between `begin` and `finish`, in the listener's thread: whether the words heard so
        far are a whole line of the grammar after which nothing sayable goes on (`fsg.Ends`),
        so the utterance may end without the VAD's full silence (`Listener.grammar_end_ms`).
        Only a streamed utterance (longer than `stream_after`) is asked: a shorter one is
        decoded whole once it has ended, as before. Started here, from a shorter stretch, or
        decoded once on trial, the same sound came out with other confidences (« undo »
        0.53 -> 0.30 and 0.32: pocketsphinx's noise estimate carries from one decode to the next)."""
        if self._ends is None or self.phrases is None or self._decoder is None:
            return False
        if not self._streaming or self._speechless:
            return False
        hyp = self._decoder.hyp()  # the best path so far (partial: its last state need not be final)
        words = hyp.hypstr.split() if hyp is not None else []
        return bool(words) and self._ends.closed(words)

    def _clean(self, pcm: np.ndarray) -> bytes:
        if self._denoiser is not None:
            pcm = self._denoiser.process(pcm)
        data = to_pcm16(dither(pcm, seed=self._n)) if len(pcm) else b""
        self._n += 1
        self._heard.append(data)
        return data

    def _decode(self, pcm: np.ndarray, last: bool = False) -> None:
        data = self._clean(pcm)
        if last and self._denoiser is not None:
            tail = to_pcm16(dither(self._denoiser.flush(), seed=self._n))
            self._heard.append(tail)
            data += tail
        for d in (self._decoder, self._phones):
            if d is not None and data:
                d.process_raw(data, False, False)

    def _start(self, last: bool) -> None:
        """Measure the noise floor and the cepstral mean of what was kept, start both
        decoders from them, and decode it (`last`: it is the whole utterance)."""
        pcm = np.concatenate(self._buf)
        self._buf = []
        noise, peak = Denoiser.noise_of(pcm)
        # nothing stands out of the noise floor: no speech (with wide beams the grammar would
        # still find its likeliest phrase in a quiet room)
        self._speechless = peak < SPEECH_ABOVE_FLOOR or Denoiser.flatness(pcm) > NOISE_FLATNESS
        if self.denoise is not None:
            self._denoiser = Denoiser(noise, *self.denoise)
            clean = self._denoiser.process(pcm)
            if last:
                clean = np.concatenate([clean, self._denoiser.flush()])
        else:
            clean = pcm
        data = to_pcm16(dither(clean, seed=self._n))
        self._n += 1
        self._heard.append(data)
        self.cmn_used = self._mean_of(data)
        for d in (self._decoder, self._phones):
            if d is not None:
                d.set_cmn(self.cmn_used)
                d.start_utt()
                # never a whole-utterance call on a decoder that streams: mixing the two
                # crashed pocketsphinx 5.1.1 (a segfault in end_utt)
                d.process_raw(data, False, False)
        self._streaming = True

    def _mean_of(self, raw: bytes) -> str:
        """pocketsphinx's cepstral mean over this sound (its batch normalisation's)."""
        f, lock = self._feat
        with lock:
            f.start_utt()
            f.process_raw(raw, True, True)  # features only, no search
            f.end_utt()
            return str(f.get_cmn(False))

    def finish(self) -> Result:
        try:
            d, p = self._decoder, self._phones
            if self._streaming:
                self._decode(np.zeros(0, np.int16), last=True)
            elif not self._buf:
                return Result("", None, None, 0.0)
            else:  # a short utterance: decoded whole
                self._start(last=True)
            d.end_utt()
            if p is not None:
                p.end_utt()
            if self._speechless:
                return Result("", None, None, 0.0)
            hyp = d.hyp()
            frames = max(1, d.n_frames())
            words = hyp.hypstr.split() if hyp is not None else []
            gscore = _ln(hyp.score) if hyp is not None else None
            segs = [(sg.word, sg.start_frame, sg.end_frame, _ln(sg.ascore)) for sg in d.seg()] if words else []
            phones: list[str] = []
            loop: list[tuple[str, int, int, float]] = []
            pscore = None
            if p is not None:
                ph = p.hyp()
                if ph is not None and words:
                    pscore = _ln(ph.score)
                    loop = [(sg.word, sg.start_frame, sg.end_frame, _ln(sg.ascore)) for sg in p.seg()]
                    phones = [w for w, _a, _b, _s in loop if w in _PHONE_CHAR]
        finally:
            self._buf = []
            self._streaming = False
            self._lock.release()
        text = " ".join(words)
        assert self.phrases is not None
        match = self.phrases.resolve(words) if words else None
        corrected = False
        if match is not None and self._legal is not None and match.command == "action":
            # a move said through a template, where the listed moves are a sample: decoded
            # again among the legal moves nearest what was heard (legal.py)
            again = self._among_legal(words, match)
            if again is None:  # no legal move fits: read back what was heard
                corrected = True
            elif again != words:
                text, words, corrected = " ".join(again), again, True
                match = self.phrases.resolve(words)
        if match is None or (is_answer(self.phrases) and frames > ANSWER_MAX_SECONDS * 100):
            return Result(text, None, None, 0.0)
        # issue 24 §3: a move (or a line of the whole language) that stands close to another
        # command when legality weighs nothing is read back, whatever its confidence
        self.last_rival = self._rival_margin(words, match, phones) if not corrected else None
        sampled = self.phrases.sampled
        if self.last_rival is not None and self.last_rival < RIVAL_MARGIN and not sampled:
            corrected = True
        own = self.phrases.legal_rivals
        legal_margin = SAMPLED_LEGAL_MARGIN if sampled or own is None else own  # own None: LEGAL_RIVAL_LISTED
        if self.last_legal_rival is not None and self.last_legal_rival < legal_margin:
            corrected = True
        if self.last_rival is not None and self.last_rival < RIVAL_TAKEN_MARGIN and self.last_rival_words \
                and not sampled and (self.last_rival_edits or 0) >= RIVAL_TAKEN_EDITS and self.lang in RIVAL_TAKEN_LANGS:
            # the sound is nearer a line not legal now than the move it was heard as: heard as
            # said, it is refused as typed (issue 24 §3: never another move than the one asked)
            rival = self.phrases.resolve(self.last_rival_words)
            if rival is not None:
                text, words, match, corrected = " ".join(self.last_rival_words), self.last_rival_words, rival, True
                self.last_rival_taken = True
        if not self.with_confidence:
            return Result(text, match.phrase, match.command, 1.0)
        llr = ((gscore or 0.0) - (pscore or 0.0)) / frames * 1e4 if pscore is not None else -50.0
        # what was said before the phrase (a wake word, the speaker's name) is heard too: the
        # phones are compared with it in front of every phrase
        prefix = " ".join(words[: self.phrases.prefix_length(words, match)])
        sim, margin = self._agreement(phones, match.phrase, prefix)
        filler = frozenset(t for f in self.phrases.filler for t in f)
        feats = (llr, sim, margin, _filler_share(segs, frames, filler),
                 _length_mismatch(phones, f"{prefix} {match.phrase}", self._prons), _worst_word(segs, loop))
        confidence = confidence_of(feats, self.lang, is_answer(self.phrases))
        if corrected:  # not what the grammar heard first: read back before it is played
            confidence = min(confidence, CORRECTED_CONFIDENCE)
        return Result(text, match.phrase, match.command, confidence, feats)

    def _add_fsg(self, name: str, fa: Automaton) -> None:
        """A search of this grammar, its probabilities weighted as the JSGF compile weighs them."""
        lw = self._decoder.config["lw"] if LANGUAGE_WEIGHT is None else LANGUAGE_WEIGHT
        self._decoder.add_fsg(name, self._decoder.create_fsg(name, fa.start, fa.final, fa.search(lw)))

    def _among_legal(self, words: list[str], match: Any) -> list[str] | None:
        """The words of the legal move, among those nearest what was heard, that the sound
        fits best (the same sound, decoded again with a grammar of those moves alone); None
        when none fits and what was heard is no legal move."""
        assert self.phrases is not None and self._legal is not None
        n = self.phrases.prefix_length(words, match)
        prefix, heard = words[:n], " ".join(words[n:])
        wide = self._legal.nearest(heard, k=LEGAL_NEAR)
        # the board's numbers are in the grammar's words
        known = [tuple(prefix) + toks for toks in wide if all(t in self._known for t in toks)]
        self._legal_near = set(known)
        nearest = wide[:NEAREST]
        candidates = [tuple(prefix) + toks for toks in nearest if tuple(prefix) + toks in self._legal_near]
        if not candidates:
            return None
        legal = " ".join(nearest[0]) == heard  # what was heard is a legal move
        hyp, _frames = self._decode_again("legal", candidates)
        if hyp is not None and hyp.hypstr:
            return hyp.hypstr.split()
        return list(words) if legal else None

    def _rival_margin(self, words: list[str], match: Any, phones: list[str] | None = None) -> float | None:
        """How far the sound of a listed move stands from the nearest line that says another
        command and is not listed (another token, player, cell or number, not legal now:
        `PhraseSet.rivals`), per frame (×1e4, as `llr`): the same sound decoded again twice with
        no prior at all, once with the heard words alone and once among the `RIVALS` rivals
        nearest them in phones. Only the legal moves' weighting can have put the heard line
        above such a rival; two lines equally likely in the grammar are the confidence's to
        tell apart. None: not a listed move, or no rival. (pocketsphinx's n-best needs the
        lattice, which is off: `DECODER_SETTINGS`.)"""
        if self.phrases is None or not (match.command or "").startswith("action"):
            return None
        n = self.phrases.prefix_length(words, match)
        prefix, said = tuple(words[:n]), tuple(words[n:])
        listed = self.phrases.by_tokens
        tail: tuple[str, ...] = ()
        if said not in listed and self.phrases.filler:  # « … s'il te plaît »: the filler after it
            bare = self.phrases.unfilled(said)[1]
            if said[:len(bare)] == bare:
                said, tail = bare, said[len(bare):]
        sampled = self.phrases.sampled
        if said not in listed and not sampled:
            return None
        # the rivals the legal weighting put below it: lines not listed (not legal now). A
        # sample's moves are said through the templates alone (`fsg.automaton`), but the second
        # pass keeps a legal move only (`_among_legal`): every line one slot away is a rival,
        # legal or not (« 8 at G8 », legal, was heard as « 8 at J8 », legal, at 0.978 and played)
        every = [r for r in self.phrases.rivals(said) if all(t in self._known for t in r)]
        rivals = every if sampled else [r for r in every if r not in listed]
        if sampled and not self._legal_near and self._legal is not None:  # a listed move: no second pass ran
            self._legal_near = {prefix + toks for toks in self._legal.nearest(" ".join(said), k=LEGAL_NEAR)}
        # the rivals that are legal moves too: « G8 » heard as « J8 » plays another move, the
        # likeliest misreading where every line weighs alike; weighed apart (`SAMPLED_LEGAL_MARGIN`)
        legal_pool = [r for r in every if prefix + r in self._legal_near] if sampled else \
            [r for r in every if r in listed] if LEGAL_RIVAL_LISTED or self.phrases.legal_rivals is not None else []
        if not rivals and not legal_pool:
            return None
        from rapidfuzz import fuzz, process

        mine = self._phone_chars(said)
        phrases, read = self.phrases, self.phrases.read
        own = read(match.phrase, match.speaker) if read is not None else None

        def another(r: tuple[str, ...]) -> bool:  # a rival that reads as the same command is none (an alias)
            return read is None or own is None or (p := phrases.resolve(prefix + r)) is None \
                or read(p.phrase, match.speaker) != own

        def nearest(pool: list[tuple[str, ...]]) -> list[tuple[str, ...]]:  # the RIVALS nearest in phones
            sounds = [self._phone_chars(r) for r in pool]
            ranked = [pool[i] for _s, _score, i in process.extract(mine, sounds, scorer=fuzz.ratio, limit=RIVALS * 2)]
            return [r for r in ranked if another(r)][:RIVALS]

        near = nearest(rivals) if rivals else []
        legal = [prefix + r + tail for r in nearest(legal_pool)] if legal_pool else []
        if not near and not legal:
            return None
        heard = self._score_among([prefix + said + tail])
        if heard is None:
            return None
        other = self._score_among([prefix + r + tail for r in near]) if near else None
        per_frame = 1e4 / max(1, heard[1])
        if legal:
            closest = other if other is not None and tuple(other[2]) in legal else self._score_among(legal)
            self.last_legal_rival = 1e9 if closest is None else (heard[0] - closest[0]) * per_frame
        if not near:
            return None
        if other is None:
            return 1e9
        self.last_rival_words = other[2]
        self.last_rival_total = heard[0] - other[0]
        if phones:  # the free phones' edits to the heard line's phones, less those to the rival's
            from rapidfuzz.distance import Levenshtein

            free = "".join(_PHONE_CHAR[p] for p in phones)
            theirs = _phone_string(" ".join(other[2]), self._prons)
            ours = _phone_string(" ".join(prefix + said + tail), self._prons)
            self.last_rival_edits = Levenshtein.distance(free, ours) - Levenshtein.distance(free, theirs)
        return (heard[0] - other[0]) * per_frame

    def _phone_chars(self, toks: Sequence[str]) -> str:
        """`_phone_string` of grammar tokens, each token's phones made once a lexicon (2kissa10's
        hundreds of rivals were tokenised again and looked up one by one: 130 ms a move)."""
        if self._phone_memo[0] is not self._prons:
            self._phone_memo = (self._prons, {})
        memo = self._phone_memo[1]
        out = []
        for tok in toks:
            got = memo.get(tok)
            if got is None:
                got = memo[tok] = _phone_string(tok, self._prons)
            out.append(got)
        return "".join(out)

    def _score_among(self, candidates: list[tuple[str, ...]]) -> tuple[float, int, list[str]] | None:
        """The same sound decoded again among these word sequences alone, each as likely as any
        other (no grammar prior): (the best path's score, ln; frames; its words), or None when
        none fits."""
        hyp, frames = self._decode_again("rival", candidates, flat=True)
        if hyp is None or not hyp.hypstr:
            return None
        return _ln(hyp.score), frames, hyp.hypstr.split()

    def _decode_again(self, name: str, candidates: list[tuple[str, ...]], flat: bool = False) -> tuple[Any, int]:
        """The utterance just heard decoded again with a grammar of these word sequences alone
        (`flat`: each as likely as any other), the game's search back after: (hypothesis, frames)."""
        fa = Automaton()
        fa.words(candidates, fa.start, fa.final, flat=flat)
        with self._lock:
            d = self._decoder
            self._add_fsg(name, fa)
            d.activate_search(name)
            try:
                d.set_cmn(self.cmn_used)
                d.start_utt()
                d.process_raw(b"".join(self._heard), False, False)  # streamed, as this decoder always is
                d.end_utt()
                return d.hyp(), d.n_frames()
            finally:
                d.activate_search(f"s{self._search}")
                d.remove_search(name)

    def _agreement(self, phones: list[str], phrase: str, prefix: str = "") -> tuple[float, float]:
        from rapidfuzz import fuzz, process

        heard = "".join(_PHONE_CHAR[p] for p in phones)
        if not heard:
            return 0.0, 0.0
        pre = _phone_string(prefix, self._prons) if prefix else ""
        mine = pre + _phone_string(phrase, self._prons)
        sim = fuzz.ratio(heard, mine) / 100.0
        best_other = 0.0
        others = [pre + s for s, ph in self._pron if ph != phrase]
        for _s, score, _i in process.extract(heard, others, scorer=fuzz.ratio, limit=1):
            best_other = score / 100.0
        return sim, sim - best_other


_FEATURES: dict[tuple[str, str], tuple[Any, threading.Lock]] = {}
_FEATURES_LOCK = threading.Lock()


def _features_decoder(model: Path, frontend: dict[str, Any]) -> tuple[Any, threading.Lock]:
    """A decoder that is never streamed, so it keeps the model's batch cepstral mean: it
    measures the mean of a stretch of sound (features only; its search, of one word, never
    runs). One per model and feature settings, shared by the recognisers of a process (each
    costs some 10 MB), with a lock."""
    key = (str(model), repr(sorted(frontend.items())))
    with _FEATURES_LOCK:
        if key not in _FEATURES:
            import pocketsphinx

            path = Path(tempfile.mkdtemp(prefix="companion-voice-feat-")) / "a.dict"
            path.write_text("a AH\n", encoding="utf-8")
            f = pocketsphinx.Decoder(hmm=str(model / "en-us"), dict=str(path), lm=None, loglevel="FATAL")
            f.add_jsgf_string("feat", "#JSGF V1.0;\ngrammar feat;\npublic <feat> = a ;\n")
            f.activate_search("feat")
            path.unlink()  # read at start-up
            path.parent.rmdir()
            for k, v in frontend.items():
                f.config[k] = v
            if frontend:
                f.reinit_feat()
            _FEATURES[key] = (f, threading.Lock())
        return _FEATURES[key]


class Denoiser:
    """Spectral subtraction, streamed: 32 ms Hann frames every 8 ms, each frame's power less
    `alpha` times the noise floor's, never below `floor` of itself, overlap-added back.
    The noise floor is the mean power spectrum of the quietest fifth of the frames of the
    utterance's first stretch (the VAD keeps 300 ms from before the speech)."""

    NFFT, HOP = 512, 128
    _WIN = np.hanning(NFFT + 1)[:-1]

    def __init__(self, noise: np.ndarray, alpha: float, floor: float) -> None:
        self.noise, self.alpha, self.floor = noise, alpha, floor
        self._in = np.zeros(self.NFFT - self.HOP)
        self._out = np.zeros(self.NFFT)
        self._skip = self.NFFT - self.HOP  # the zeros put first come out first: dropped

    @classmethod
    def _frames(cls, pcm: np.ndarray) -> np.ndarray:
        """The utterance cut in Hann-windowed frames of NFFT samples every HOP (one at least)."""
        x = pcm.astype(np.float64)
        n = 1 + max(0, (len(x) - cls.NFFT) // cls.HOP)
        return np.stack([np.pad(x[i * cls.HOP:i * cls.HOP + cls.NFFT], (0, max(0, cls.NFFT - len(x))))
                         for i in range(n)]) * cls._WIN

    @classmethod
    def noise_of(cls, pcm: np.ndarray, share: float = 0.2) -> tuple[np.ndarray, float]:
        """The noise floor's power spectrum, and how far the loudest frame stands above it
        (a power ratio: about 1.5 for steady noise with no speech in it)."""
        frames = cls._frames(pcm)
        n = len(frames)
        power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
        energy = power.sum(axis=1)
        quiet = np.argsort(energy)[: max(1, int(share * n))]
        noise = np.asarray(power[quiet].mean(axis=0))
        return noise, float(energy.max() / max(1e-9, float(noise.sum())))

    @classmethod
    def flatness(cls, pcm: np.ndarray, share: float = 0.2) -> float:
        """The median spectral flatness (geometric over arithmetic mean of the power, 250-4000
        Hz) of the loudest `share` of the frames: near 0 for a voice (harmonics and formants),
        about 0.56 for white noise. A loud sound that is all noise is no command."""
        frames = cls._frames(pcm)
        n = len(frames)
        lo, hi = 250 * cls.NFFT // 16000, 4000 * cls.NFFT // 16000
        band = np.abs(np.fft.rfft(frames, axis=1))[:, lo:hi] ** 2 + 1e-9
        loud = band[np.argsort(band.sum(axis=1))[-max(1, int(share * n)):]]
        return float(np.median(np.exp(np.log(loud).mean(axis=1)) / loud.mean(axis=1)))

    def process(self, pcm: np.ndarray) -> np.ndarray:
        """The denoised samples that are final so far (they lag the input by 24 ms)."""
        self._in = np.concatenate([self._in, pcm.astype(np.float64)])
        out = []
        while len(self._in) >= self.NFFT:
            spec = np.fft.rfft(self._in[: self.NFFT] * self._WIN)
            power = np.abs(spec) ** 2
            gain = np.sqrt(np.maximum(1.0 - self.alpha * self.noise / np.maximum(power, 1e-9), self.floor))
            self._out += np.fft.irfft(spec * gain, n=self.NFFT) * self._WIN
            out.append(self._out[: self.HOP] / 1.5)  # Hann² at 75 % overlap sums to 1.5
            self._out = np.concatenate([self._out[self.HOP:], np.zeros(self.HOP)])
            self._in = self._in[self.HOP:]
        y = np.concatenate(out) if out else np.zeros(0)
        if self._skip:
            cut = min(self._skip, len(y))
            y, self._skip = y[cut:], self._skip - cut
        return np.clip(y, -32768, 32767).astype(np.int16)

    def flush(self) -> np.ndarray:
        """The rest, once the utterance has ended."""
        return self.process(np.zeros(self.NFFT - self.HOP, np.int16))


def _worst_word(segs: list[tuple[str, int, int, float]], loop: list[tuple[str, int, int, float]]) -> float:
    """The lowest, over the phrase's words, of the word's acoustic score minus the free phone
    loop's over the same frames, per frame (×1e4, as `llr`): one wrong word in a long phrase
    (a cell, a number) is diluted in the whole utterance's score but not here."""
    worst = 0.0
    found = False
    for w, a, b, score in segs:
        if _is_filler(w) or b < a:
            continue
        other = sum(s * _overlap(a, b, la, lb) / (lb - la + 1) for _w, la, lb, s in loop if lb >= la)
        per_frame = (score - other) / (b - a + 1) * 1e4
        worst = per_frame if not found else min(worst, per_frame)
        found = True
    return worst if found else -50.0


def _overlap(a: int, b: int, la: int, lb: int) -> int:
    return max(0, min(b, lb) - max(a, la) + 1)


def _filler_share(segs: list[tuple[str, int, int, float]], frames: int, filler: frozenset[str] = frozenset()) -> float:
    """The share of the utterance the grammar path spends in noise and speech fillers (the
    grammar's own, `filler`: « um », "would you kindly"), and in silence between its words:
    high when more was said than the phrase (a sentence that is no command is forced onto a
    short phrase and the rest absorbed by fillers)."""
    spoken = [(a, b) for w, a, b, _s in segs if not _is_filler(w)]
    if not spoken:
        return 1.0
    # pocketsphinx's "(NULL)" segments are the grammar's null transitions, no sound: one after
    # the final silence (the trailing filler's way to the final state) made that silence
    # « inner », so the phrase ends with its last word. The one before the first word stays
    # counted, as the weights were fitted (skipping it too, filler off, raised the wrong lines
    # at 0.6 from 1 to 5 of 192: docs/voice.md « Filler »)
    ends = [b for w, _a, b, _s in segs if not _is_filler(w) and w != "(NULL)"]
    first, last = spoken[0][0], (ends[-1] if ends else spoken[-1][1])
    filled = 0
    for w, a, b, _s in segs:
        if _is_filler(w) and (w not in ("<sil>", "<s>", "</s>") or (a >= first and b <= last)):
            filled += b - a + 1
        elif w.split("(")[0] in filler:
            filled += b - a + 1
    return min(1.0, filled / max(1, frames))


def _is_filler(word: str) -> bool:
    return word.startswith(("<", "[")) or word == "++"


def _length_mismatch(phones: list[str], phrase: str, prons: dict[str, tuple[str, ...]]) -> float:
    """|log(phones heard by the free phone loop / phones of the phrase)|: 0 when as long."""
    mine = len(_phone_string(phrase, prons))
    return abs(math.log(max(1, len(phones)) / max(1, mine)))


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
        self._grammar = json.dumps(phrases.sentences() + ["[unk]"], ensure_ascii=False)  # names, wake word too

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
