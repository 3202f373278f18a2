"""One microphone (or WAV file) as an input of the table: sound -> utterances -> lines.

The listener runs in its own thread: it cuts the sound into utterances (VAD), recognises
each against what is sayable *now* (`phrases()` is asked at every utterance, and the
recogniser recompiles its grammar only when the answer changed), and posts
`Line(text=<the listed phrase>, seat, source="voice", confidence=c)` to the inbox. Nothing
else: the table loop alone touches the match.

With one microphone for the table, a player may name themselves first (« Paul : mon
plateau »; the names are in the grammar, `PhraseSet.speakers`): the line is then posted as
typed, ``"Paul: mon plateau"``, and the session takes it as Paul's. A name said alone
(« Paul… », the VAD cutting at the pause) names the speaker of the next utterance.

It does not listen to the companion: while a speaker `is_speaking()` (when the speaker has
that method) sound is dropped, unless `barge_in` (players wearing headphones), where the
start of an utterance cuts the companion off instead.

Push-to-talk (`gate`, a `TalkGate`): sound is dropped until the gate is opened (a key at the
keyboard, see `companion.inputs.voice.table.TalkKey`); an earcon says the microphone is open, one
utterance is heard, and another earcon says it is closed (the error earcon when nothing
listed was heard).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.session.inbox import Inbox, Line

from .grammar import SPEAKER, PhraseSet
from .recognizer import Recognizer, Result
from .silero import default_segmenter
from .vad import FRAME, FRAME_MS, Segmenter, Utterance

#: a name said alone names the speaker of the next utterance if it starts within this many
#: seconds of sound (a stale name must not make a later command someone else's)
NAMED_FOR_S = 4.0

#: a recording read as fast as possible waits this long after the session took its line, for
#: the answer to start (then for the answer to end)
TURN_SETTLE_S = 0.2

#: a recognised line below this confidence is talk that is no command (people talking at the
#: table): posted as talk, printed as heard, nothing else. Measured 2026-12-01 on the first
#: state of each of the four games, English model (/tmp run, figures in docs/voice.md): of 56
#: trials of real talk (pocketsphinx-testdata's 14 recordings, clean) 36 came out below 0.08;
#: of 55 listed phrases said right by espeak-ng (en-us, en+f3) none did (lowest 0.086). What is
#: above it and below the session's threshold is read back, never carried out at once.
TALK_FLOOR = 0.08
#: per language where its confidence is on another scale: French through the English model
#: (its own weights, recognizer.CONFIDENCE_FR) rates right lines far lower — « j'avance la
#: sept » said right at 0.04 was dropped as talk, so no French game went past its first move
TALK_FLOORS: dict[str, float] = {"fr": 0.01}


def is_talk(confidence: float, lang: str) -> bool:
    """A line heard so unsure that it is talk at the table, not a command (`TALK_FLOOR`)."""
    return confidence < TALK_FLOORS.get(lang, TALK_FLOOR)

#: after a line of the grammar heard whole with nothing sayable after it (« end game », « ask
#: Bot 2 for Kigliss eating »; not « Paul », « vingt » or « ask Bot 2 for », which may go on),
#: this much silence ends the utterance instead of the VAD's 240 ms (`_heard_whole`,
#: `recognizer.heard_whole`, `fsg.Ends`: utterances already streamed); None: the VAD's silence
#: always. The VAD's wait was most of the time to an answer (issue 30: 391 / 551 ms against
#: 300 / 450); bench/voice_latency.py, docs/voice.md « 2026-12-03 (evening) »
GRAMMAR_END_MS: int | None = 90

#: earcons of push-to-talk: the microphone opens / closes / heard nothing it knows.
EARCONS = {"open": "listen", "close": "listened", "nothing": "error"}


def earcon_name(kind: str) -> str:
    """The earcon to play for `kind` ("open", "close", "nothing")."""
    return EARCONS[kind]


def _abandon(rec: Any) -> None:
    """An utterance streamed to the recogniser and dropped (the companion spoke, too short):
    ended without a second pass where the recogniser has one (`engines.SecondPass`)."""
    end = getattr(rec, "abandon", None) or rec.finish
    end()


class TalkGate:
    """Push-to-talk: closed, the listener hears nothing; `open()` lets one utterance through.
    Thread-safe (the keyboard thread opens, the listener's closes)."""

    def __init__(self, speaker: Any = None, key: str = "") -> None:
        self.speaker = speaker
        self.key = key  # the word typed to open it ("": Enter on an empty line)
        self._open = threading.Event()
        self.opened = 0  # how many times it was opened (the figures, the tests)

    @property
    def is_open(self) -> bool:
        return self._open.is_set()

    def open(self) -> None:
        if not self._open.is_set():
            self.opened += 1
            self._open.set()
            self._earcon("open")

    def close(self, kind: str = "close") -> None:
        if self._open.is_set():
            self._open.clear()
            self._earcon(kind)

    def toggle(self) -> None:
        """The key pressed: open, or close again when nothing was said yet."""
        if self.is_open:
            self.close()
        else:
            self.open()

    def _earcon(self, kind: str) -> None:
        play = getattr(self.speaker, "play_earcon", None)
        if callable(play):
            play(earcon_name(kind))


class Told:
    """What the session core last told a listener is sayable (`companion.session.outputs.Hearable`):
    the loop's thread `tell`s, the listener's thread reads. The listener builds its grammar from
    the replica told, never from the live match (issue 24 §4)."""

    def __init__(self) -> None:
        self._cv = threading.Condition()
        self.latest: Any = None
        self.count = 0  # how many were told (one after each voice line taken, at least)

    def tell(self, hearable: Any) -> None:
        with self._cv:
            self.latest = hearable
            self.count += 1
            self._cv.notify_all()

    def wait(self, after: int, stop: threading.Event) -> Any:
        """The latest told once more than `after` were (None: stopped first)."""
        with self._cv:
            while self.count <= after and not stop.is_set():
                self._cv.wait(0.1)  # wakes on `tell`; the timeout only notices a stop
            return self.latest if self.count > after else None

    def wait_while(self, told: Callable[[Any], bool], stop: threading.Event) -> None:
        """While what was told last is such that `told(latest)` (or until stopped)."""
        with self._cv:
            while self.latest is not None and told(self.latest) and not stop.is_set():
                self._cv.wait(0.1)  # wakes on `tell`; the timeout only notices a stop

    def generation(self) -> int | None:
        with self._cv:
            return None if self.latest is None else self.latest.generation


@dataclass
class Heard:
    """One utterance and what became of it (for `companion voice test` and the figures)."""

    result: Result
    utterance: Utterance
    decided_at: float  # monotonic time when the VAD decided the utterance had ended
    posted_at: float | None  # when its line reached the inbox (None: nothing recognised)
    posted: Line | None = None  # the line posted, as the session gets it
    speaker: str | None = None  # the player who named themselves (« Paul : … »), if any

    @property
    def latency(self) -> float | None:
        """VAD decision -> line in the inbox, seconds."""
        return None if self.posted_at is None else self.posted_at - self.decided_at

    @property
    def latency_from_voice(self) -> float | None:
        """Last voiced sample -> line in the inbox, seconds (the hangover included)."""
        if self.latency is None:
            return None
        return self.utterance.decided - self.utterance.last_voiced + self.latency


@dataclass
class Listener:
    source: Iterable[np.ndarray]
    recognizer: Recognizer
    inbox: Inbox
    phrases: Callable[[], PhraseSet]
    seat: int | None = None
    speaker: Any = None
    barge_in: bool = False
    #: the VAD (None: Silero's where installed, `default_segmenter`; with `told` it is loaded in
    #: the listener's thread, not before the first prompt: 0.7 s on a loaded machine)
    segmenter: Segmenter | None = None
    on_heard: Callable[[Heard], None] | None = None
    heard: list[Heard] = field(default_factory=list)
    muted_chunks: int = 0
    #: push-to-talk: None listens all the time
    gate: TalkGate | None = None
    #: decode while the player speaks when the recogniser can (False: the whole utterance
    #: once it has ended, as before; for the baseline of bench/voice_latency.py)
    streaming: bool = True
    #: a recording read as fast as possible takes turns with the table (`companion play
    #: --voice-input` without `--voice-realtime`): it is not read while the companion speaks,
    #: nor after a line until the session has taken it and answered. A microphone, or a
    #: recording played as one, is dropped while the companion speaks instead: those commands
    #: would be lost, and the first ones were, while the game's opening was said.
    takes_turns: bool = False
    #: a microphone stays deaf this long after the companion stops speaking: its last words
    #: still come back from the loudspeaker's buffer and the room (never a command)
    echo_tail_s: float = 0.3
    #: what the session core tells is sayable (`Told`): the grammar is then built in this
    #: thread from the replica told, as soon as it is told (while the table talks), and
    #: `start` does not wait for it; None: `phrases` is asked at each utterance (tests, tools)
    told: Told | None = None
    #: the silence that ends an utterance heard whole (`GRAMMAR_END_MS`; None: the VAD's always)
    grammar_end_ms: int | None = GRAMMAR_END_MS

    def __post_init__(self) -> None:
        if self.segmenter is None and self.told is None:
            self.segmenter = default_segmenter()
        self._thread: threading.Thread | None = None
        self._posted = False
        self._stop = threading.Event()
        self._said_by: tuple[str, float] | None = None  # a name said alone, and when: the next utterance is theirs
        self._current: PhraseSet | None = None
        self._built: int | None = None  # the generation told that the grammar was built from
        self._acked = 0  # how many `Told` tells had come when the last line was posted
        #: (last voiced time, silent frames) of the check that last found the line whole
        self._whole_after: tuple[float, int] | None = None
        self.failed: BaseException | None = None

    # ------------------------------------------------------------------ running
    def start(self) -> Listener:
        """Listen in a thread, once the model and the first grammar are loaded (their errors
        are raised here). They are loaded in that thread: every later grammar is built there,
        and the memory an old one frees is only reused by the same thread (glibc's arenas:
        2kissa10's second grammar took 46 MB more when the first was built elsewhere).

        With `told`, nothing waits: the first grammar is built in that thread as soon as the
        core tells what is sayable, while the opening is said (2kissa10's took 2.4 s before the
        first prompt); what is said meanwhile waits in the source and is heard once it is built.
        An error then is posted to the table as a notice, and this listener stops."""
        if self.told is not None:
            self._thread = threading.Thread(target=self._run_told, name="voice-listener", daemon=True)
            self._thread.start()
            return self
        ready = threading.Event()
        failed: list[BaseException] = []

        def first_then_run() -> None:
            try:
                self._set_phrases()
            except BaseException as exc:  # noqa: BLE001 - handed to start(), which raises it
                failed.append(exc)
                return
            finally:
                ready.set()
            self.run()

        self._thread = threading.Thread(target=first_then_run, name="voice-listener", daemon=True)
        self._thread.start()
        ready.wait()
        if failed:
            raise failed[0]
        return self

    def stop(self) -> None:
        self._stop.set()
        close = getattr(self.source, "close", None)
        if callable(close):
            close()
        if self._thread is not None:
            self._thread.join(5)

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _speaking(self) -> bool:
        fn = getattr(self.speaker, "is_speaking", None)
        return bool(fn()) if callable(fn) else False

    def _run_told(self) -> None:
        try:
            self._set_phrases()
            self.run()
        except Exception as exc:  # noqa: BLE001 - said to the table: the game goes on by keyboard
            self.failed = exc
            from companion.narration import Msg, Priority, Utterance
            from companion.session.inbox import Device, Notice

            utt = Utterance((Msg("core.voice.failed", reason=str(exc) or type(exc).__name__),
                             Msg("core.voice.recording.keyboard")), Priority.IMPORTANT, "error", None)
            self.inbox.post(Device(Notice(utt), "voice"))

    def _set_phrases(self) -> None:
        if self.told is not None:
            if self.told.wait(0, self._stop) is None:
                return  # stopped before anything was told
            self._built = self.told.generation()
        self._current = self.phrases()
        self.recognizer.set_phrases(self._current)

    def _told_anew(self) -> bool:
        """The core told a new state since the grammar was built (built here, between utterances)."""
        return self.told is not None and self.told.generation() != self._built

    def run(self) -> None:
        if self.segmenter is None:
            self.segmenter = default_segmenter()
        seg = self.segmenter
        rec = self.recognizer
        streaming = self.streaming and all(callable(getattr(rec, n, None)) for n in ("begin", "feed", "finish"))
        active = False
        fed = 0
        spoke_at = -1e9
        for chunk in self.source:
            if self._stop.is_set():
                break
            if self.takes_turns and not self.barge_in:
                self._wait_turn()
            if not active and not seg.in_speech and self._told_anew():
                self._set_phrases()  # the sound meanwhile waits in the source, heard once it is built
            speaking = self._speaking()
            if speaking:
                spoke_at = seg.t
            elif not self.takes_turns and seg.t - spoke_at < self.echo_tail_s:
                speaking = True  # the echo of its last words
            closed = self.gate is not None and not self.gate.is_open
            if (speaking and not self.barge_in) or closed:
                self.muted_chunks += 1
                seg.reset()  # what the companion says is not a command; nor is talk before the key
                if closed and not speaking:
                    seg.note_floor(chunk)  # the room's noise, for when the key is pressed
                else:
                    seg.t += len(chunk) / 16000
                if active:
                    _abandon(rec)
                    active = False
                continue
            was = seg.in_speech
            for utt in seg.feed_samples(chunk):
                if streaming and active:
                    decided = time.monotonic()
                    rec.feed(utt.pcm[fed * FRAME:])  # type: ignore[attr-defined]
                    self._done(utt, rec.finish(), decided)  # type: ignore[attr-defined]
                    active = False
                else:
                    self._handle(utt)
            if streaming and seg.in_speech:
                if not active:  # an utterance began: decode it while it is said
                    self._set_phrases()
                    rec.begin()  # type: ignore[attr-defined]
                    active, fed = True, 0
                rec.feed(np.concatenate(seg.frames[fed:]) if len(seg.frames) > fed else np.zeros(0, np.int16))  # type: ignore[attr-defined]
                fed = len(seg.frames)
                if self._heard_whole(seg, rec):  # nothing sayable goes on: no need to wait more
                    decided = time.monotonic()
                    rest = seg.silence_to_end() - seg.silent
                    quiet = seg.frames[-seg.silent:]
                    whole = seg.end_now()
                    if whole is not None:
                        # the decoders get the rest of the VAD's silence, made of the room's sound
                        # just heard: the confidence was fitted on utterances that end so (cut
                        # short, « end game » came out 0.07, under the talk floor, and was dropped)
                        rec.feed(np.concatenate([quiet[k % len(quiet)] for k in range(rest)]) if rest > 0 else  # type: ignore[attr-defined]
                                 np.zeros(0, np.int16))
                        self._done(whole, rec.finish(), decided)  # type: ignore[attr-defined]
                    else:
                        _abandon(rec)
                    active = False
            elif streaming and active:  # it ended too short to be a command
                _abandon(rec)
                active = False
            if speaking and self.barge_in and seg.in_speech and not was:
                interrupt = getattr(self.speaker, "interrupt", None)
                if callable(interrupt):
                    interrupt()
        last = seg.flush()
        if last is not None:
            if streaming and active:
                decided = time.monotonic()
                rec.feed(last.pcm[fed * FRAME:])  # type: ignore[attr-defined]
                self._done(last, rec.finish(), decided)  # type: ignore[attr-defined]
            else:
                self._handle(last)
        elif streaming and active:
            _abandon(rec)

    def _heard_whole(self, seg: Segmenter, rec: Any) -> bool:
        """`grammar_end_ms` of silence after the last voiced frame, and the line heard so far a
        whole one that nothing sayable goes on from, at this check and at the one before it
        (pocketsphinx's partial hypothesis wanders while words end: once is not sure)."""
        if self.grammar_end_ms is None:
            return False
        need = max(2, self.grammar_end_ms // FRAME_MS)
        if seg.silent < need - 1:  # the first check a frame sooner, to have two by then
            return False
        whole = getattr(rec, "heard_whole", None)
        if not (callable(whole) and whole()):
            self._whole_after = None
            return False
        before = self._whole_after
        self._whole_after = (seg.last_voiced, seg.silent)
        return before is not None and before[0] == seg.last_voiced and before[1] < seg.silent and seg.silent >= need

    def _wait_turn(self) -> None:
        """Until the line posted last is taken and answered, no bot is choosing its move, and
        the companion is silent."""
        if self._posted and self.told is not None:
            self.told.wait(self._acked, self._stop)  # the core told it took the line (and what is sayable now)
        self._wait_for_bots()
        while not self._stop.is_set():
            if self._posted and not self.inbox.empty():
                time.sleep(0.01)
            elif self._posted:
                self._posted = False
                time.sleep(TURN_SETTLE_S)  # the session starts its answer
            elif self._speaking():
                if self._told_anew():
                    self._set_phrases()  # built while the table talks
                else:
                    time.sleep(0.01)
            else:
                return

    def _wait_for_bots(self) -> None:
        """While the core says a bot is choosing (`Hearable.bot_thinking`), until it tells
        again: the bot's move comes from the worker after the human's line was answered."""
        if self.told is not None:
            self.told.wait_while(lambda h: bool(getattr(h, "bot_thinking", False)), self._stop)

    def _handle(self, utt: Utterance) -> None:
        decided = time.monotonic()
        self._set_phrases()
        self._done(utt, self.recognizer.recognize(utt.pcm), decided)

    def _done(self, utt: Utterance, result: Result, decided: float) -> None:
        posted_at = None
        line = None
        match = self._current.resolve(result.text) if result.line is not None and self._current is not None else None
        named = match.speaker if match is not None else None
        if match is not None and match.command == SPEAKER and named is not None:
            # « Paul… » alone: the next utterance is Paul's (the microphone stays open)
            self._said_by = (named, utt.decided)
        else:
            before = self._said_by
            self._said_by = None
            who = named or (before[0] if before is not None and utt.start - before[1] <= NAMED_FOR_S else None)
            if self.gate is not None:
                self.gate.close("close" if result.line is not None else "nothing")
            line = self.line_of(result, who)
            if line is not None:
                if self.told is not None:
                    self._acked = self.told.count
                self.inbox.post(line)
                posted_at = time.monotonic()
                self._posted = True
            named = who
        heard = Heard(result, utt, decided, posted_at, line, named)
        self.heard.append(heard)
        if self.on_heard is not None:
            self.on_heard(heard)

    def line_of(self, result: Result, who: str | None = None) -> Line | None:
        """What one recognised utterance posts (issue 24 §3), `who` the player who named
        themselves: the listed phrase (as typed: « Paul: mon plateau » is Paul's), with the words
        heard and the typed command the game's grammar reads it as on this listener's replica;
        below `TALK_FLOOR`, talk that is no command (printed as heard, nothing else); words
        heard that are no listed phrase, the nearest phrase (a free transcript that is none:
        talk); nothing heard, nothing posted."""
        heard = result.text.strip() or None
        if result.line is None:
            if heard is None:
                return None
            if getattr(result, "talk", False):
                # Whisper's own words that are no listed phrase, or a line Whisper found far less
                # likely than what it heard, are what people said at the table, not a command
                # near one: talk, printed as heard and nothing else
                return Line(text=heard, seat=self.seat, source="voice", confidence=result.confidence, heard=heard,
                            talk=True)
            return Line(text=heard, seat=self.seat, source="voice", confidence=result.confidence, heard=heard,
                        nearest=self._nearest(heard))
        text = f"{who}: {result.line}" if who and self.seat is None else result.line
        if is_talk(result.confidence, getattr(self.recognizer, "lang", "")):
            return Line(text=text, seat=self.seat, source="voice", confidence=result.confidence, heard=heard, talk=True)
        read = self._current.read if self._current is not None else None
        command = read(result.line, who) if read is not None else None
        # read in this thread right after the recogniser's answer (its own attribute, per utterance)
        margin = getattr(self.recognizer, "last_rival", None)
        return Line(text=text, seat=self.seat, source="voice", confidence=result.confidence, heard=heard,
                    command=command, rival_margin=margin if isinstance(margin, float) and margin < 1e8 else None)

    def _nearest(self, heard: str) -> str | None:
        """The listed phrase nearest words heard that are none (rapidfuzz on the grammar's tokens)."""
        if self._current is None:
            return None
        from rapidfuzz import fuzz, process

        phrases = {" ".join(toks): m.phrase for toks, m in self._current.by_tokens.items()}
        got = process.extractOne(heard, list(phrases), scorer=fuzz.ratio)
        return phrases[got[0]] if got is not None else None
