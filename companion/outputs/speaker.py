"""One output of the companion: a speech engine, a sound output and a player's profile.

The speaker protocol (what the session, the table's channels and the voice input use; it
only grows, nothing is removed or changed):

    sp = open_speaker(engine="auto", output="auto", lang="fr", profile=None, fallback_wav=None)
    sp.say(text, priority=Priority.MESSAGE, earcon=None, lang=None) -> Item
        Queue `text`; never blocks. `item.done` (threading.Event) is set once it has been
        said, cut or dropped; `item.cut`, `item.dropped` say which.
    sp.interrupt()                 a key press / new input: cut TEXT and NOTIFICATION, now
    sp.wait(timeout=None) -> bool  until everything queued was said (False: timed out)
    sp.is_speaking() -> bool       something is being said or waits to be (thread-safe)
    sp.add_listener(fn)            fn(True) when it starts speaking, fn(False) when it
                                   stops (called from the thread that caused the change)
    sp.remove_listener(fn)
    sp.close()                     cut everything, release the output
    sp.describe() -> [Utterance]   which voice, where the sound goes, what went wrong
    sp.notices() -> [Utterance]    what happened since the last call (a device lost)
    sp.profile                     the player's Profile (rate, volume, voice, language)
    sp.set_rate(wpm) / sp.set_volume(0..100) / sp.set_voice(name) -> Utterance to say
    sp.rate, sp.volume, sp.voice, sp.busy
    sp.say_utterance(utt, verbosity, lang), sp.repeat(), sp.play_earcon(name),
    sp.play_audio(samples, rate, priority, text), sp.play_file(path, priority)

Priorities (`companion.narration.Priority`, speech-dispatcher's): IMPORTANT is said before
everything waiting, never cut by input, and cuts a TEXT being said; MESSAGE is said in order
and never cut by input; TEXT is cut by `interrupt()`; NOTIFICATION is dropped when anything
else is on. The whole table is in `speech_queue`.

The session opens one `Speaker` for the table and one for each player who has a private
channel (another device, or the left or right side of one):

    table = open_speaker("auto", "auto", lang="fr", fallback_wav=Path("partie.wav"))
    marie = open_speaker("auto", "device:USB:left", lang="fr", profile=Profile.for_player("Marie"))
    for utt in table.describe():           # which voice, where the sound goes
        print(catalog("fr").render(utt)); table.say_utterance(utt)
    table.say("C'est au tour de Marie.", Priority.MESSAGE, earcon="turn")
    table.interrupt()                        # new input: cut answers being read

Output specs: "auto" (default device; with none, `fallback_wav` if given, else silence),
"device", "device:NAME_OR_INDEX", "device:NAME_OR_INDEX:left" / ":right", "file:PATH.wav",
"null", "recording". Nothing hangs or crashes without a sound device: the speaker falls
back and `describe()` says so.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.narration import Priority, Raw, Utterance, Verbosity, catalog, say, spell
from companion.outputs.audio.player import Player
from companion.outputs.audio.policy import Item
from companion.outputs.audio.sinks import (
    AudioUnavailable,
    DeviceSink,
    FileSink,
    NullSink,
    RecordingSink,
    Sink,
)

from .profile import Profile
from .speech import SpeechEngine, UnavailableEngine, clamp_rate, get_engine
from .worker import WorkerTimeout, call_with_timeout

SIDES = ("left", "right")


@dataclass(frozen=True)
class OutputSpec:
    kind: str  # auto, device, file, null, recording
    device: int | str | None = None
    channel: str | None = None  # left, right
    path: Path | None = None


def parse_output(spec: str) -> OutputSpec:
    """Read an output spec; ValueError (with the accepted forms) when it is not one."""
    raw = (spec or "auto").strip()
    low = raw.lower()
    if low in ("auto", "null", "recording", "device"):
        return OutputSpec(low)
    if low.startswith("file:"):
        path = raw[5:].strip()
        if not path:
            raise ValueError("file: needs a path, e.g. file:partie.wav")
        return OutputSpec("file", path=Path(path).expanduser())
    if low.startswith("device:"):
        rest = raw[7:]
        channel = None
        for side in SIDES:
            if rest.lower() == side or rest.lower().endswith(":" + side):
                channel = side
                rest = rest[: -len(side)].rstrip(":")
                break
        rest = rest.strip()
        device: int | str | None
        if not rest:
            device = None
        elif rest.isdigit():
            device = int(rest)
        else:
            device = rest
        return OutputSpec("device", device=device, channel=channel)
    raise ValueError(
        f"unknown output {spec!r}: use auto, device, device:NAME, device:NAME:left, "
        "device:NAME:right, file:PATH.wav, null or recording"
    )


class Speaker:
    """Says things on one output, by priority, interruptibly. See the module docstring."""

    def __init__(
        self,
        engine: SpeechEngine,
        sink: Sink,
        lang: str = "fr",
        profile: Profile | None = None,
        notes: list[Utterance] | None = None,
        output: OutputSpec | None = None,
        fallback_wav: Path | None = None,
    ) -> None:
        self.engine = engine
        self.lang = lang if lang in ("fr", "en") else "fr"
        self.profile = profile if profile is not None else Profile(language=self.lang)
        self.output = output or OutputSpec(sink.kind)
        self.fallback_wav = fallback_wav
        self._notes = list(notes or [])
        self._notices: list[Utterance] = []
        self._lock = threading.Lock()
        self._last: tuple[str, str] | None = None  # (text, lang) of the last thing said
        self._repeats = 0
        self._output_note = _output_note(sink, self.output, failed=None)
        self.player = Player(engine, sink, self._settings, on_sink_error=self._sink_failed)
        rate, voice, _ = self._settings(self.lang)
        engine.prepare(self.lang, rate, voice)  # the first sentence comes quicker

    # --- what the player reads for every block ---
    def _settings(self, lang: str) -> tuple[int, str | None, float]:
        p = self.profile
        voice = p.voice if lang == p.language else None
        return p.rate, voice, p.volume / 100.0

    def _sink_failed(self, old: Sink, exc: BaseException) -> Sink:
        """The device stopped working while playing: go on in the WAV file, or in silence."""
        new: Sink = NullSink()
        if self.fallback_wav is not None:
            try:
                new = FileSink(self.fallback_wav, realtime=True)
            except AudioUnavailable:
                new = NullSink()
        note = _output_note(new, OutputSpec(new.kind, path=self.fallback_wav), failed=str(exc))
        with self._lock:
            self._output_note = note
            self._notices.append(note)
        return new

    @property
    def sink(self) -> Sink:
        return self.player.sink

    @property
    def recording(self) -> RecordingSink:
        """The in-memory record (output "recording" only)."""
        if not isinstance(self.player.sink, RecordingSink):
            raise AttributeError("this speaker does not record (output is not 'recording')")
        return self.player.sink

    # --- saying ---
    def say(
        self,
        text: str,
        priority: Priority = Priority.MESSAGE,
        earcon: str | None = None,
        lang: str | None = None,
    ) -> Item:
        """Queue `text` (non-blocking). Returns the queued item (its `done` event is set when
        it has been said, cut or dropped)."""
        lang = lang if lang in ("fr", "en") else self.lang
        if priority != Priority.NOTIFICATION and text.strip():
            with self._lock:
                self._last = (text, lang)
                self._repeats = 0
        return self.player.submit(text, priority, earcon, lang)

    def say_utterance(self, utt: Utterance, verbosity: Verbosity = Verbosity.NORMAL, lang: str | None = None) -> Item:
        """Render an utterance in this speaker's language and say it with its priority and
        earcon; its pauses (`Pause`) are heard as silences."""
        lang = lang if lang in ("fr", "en") else self.lang
        cat = catalog(lang)
        segments = cat.segments(utt, verbosity)
        text = " ".join(str(v) for k, v in segments if k in ("text", "spell"))
        if all(k == "text" for k, _ in segments):
            return self.say(text, utt.priority, utt.earcon, lang)
        if utt.priority != Priority.NOTIFICATION:
            with self._lock:
                self._last = (text, lang)
                self._repeats = 0
        return self.player.submit(text, utt.priority, utt.earcon, lang, segments=list(segments))

    def repeat(self) -> Item | None:
        """Say the last thing again (even identical); a second repeat in a row spells it.

        Returns the queued item, or None when nothing was said yet."""
        with self._lock:
            if self._last is None:
                return None
            self._repeats += 1
            text, lang = self._last
            if self._repeats >= 2:
                text = spell(text)
        return self.player.submit(text, Priority.TEXT, None, lang)

    def play_audio(self, samples, sample_rate: int, priority: Priority = Priority.TEXT, text: str = "") -> Item:
        """Recorded sound (float mono samples in [-1, 1]) through the same queue, cut the same
        way; `text` names it in the recording output and the repeat memory is left alone."""
        import numpy as np

        data = np.asarray(samples, dtype=np.float32)
        if data.ndim > 1:
            data = data.mean(axis=1)
        return self.player.submit(text, priority, None, self.lang, segments=[("audio", (data, int(sample_rate)))])

    def play_file(self, path: Path | str, priority: Priority = Priority.TEXT) -> Item:
        """A sound file (WAV, FLAC, OGG, MP3: what soundfile reads), e.g. a rules chapter."""
        import soundfile as sf

        data, sr = sf.read(str(path), dtype="float32", always_2d=False)
        return self.play_audio(data, sr, priority, text=str(path))

    def play_earcon(self, name: str) -> Item:
        """Play one earcon alone (as TEXT: cut by input)."""
        return self.player.submit("", Priority.TEXT, name, self.lang)

    def interrupt(self) -> None:
        """New input arrived: cut TEXT and NOTIFICATION now (at most two 4 ms blocks are
        still heard)."""
        self.player.interrupt()

    def is_speaking(self) -> bool:
        """Something is being said or waits to be (thread-safe): the voice input does not
        listen meanwhile."""
        return self.player.is_speaking()

    def add_listener(self, fn: Callable[[bool], None]) -> None:
        """`fn(True)` when the speaker starts speaking, `fn(False)` when it has nothing more
        to say (from the thread that made the change; keep it short)."""
        self.player.add_listener(fn)

    def remove_listener(self, fn: Callable[[bool], None]) -> None:
        self.player.remove_listener(fn)

    def wait(self, timeout: float | None = None) -> bool:
        """Until everything queued was said (or cut); False if `timeout` ran out first."""
        return self.player.wait(timeout)

    @property
    def busy(self) -> bool:
        return self.player.busy

    def close(self) -> None:
        self.player.close()

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- describing ---
    def describe(self) -> list[Utterance]:
        """Which engine and which output are used, and anything that went wrong."""
        with self._lock:
            out = list(self._notes)
            out.append(_engine_note(self.engine))
            out.append(self._output_note)
            if self.profile.problem:
                out.append(say("speech.profile_damaged", Priority.MESSAGE, problem=Raw(self.profile.problem)))
        return out

    def notices(self) -> list[Utterance]:
        """What happened since the last call (a device that stopped working); then cleared."""
        with self._lock:
            out, self._notices = self._notices, []
        return out

    # --- live settings, kept in the profile ---
    @property
    def rate(self) -> int:
        return self.profile.rate

    @property
    def volume(self) -> int:
        return self.profile.volume

    @property
    def voice(self) -> str | None:
        return self.profile.voice

    def set_rate(self, rate: int) -> Utterance:
        self.profile.rate = clamp_rate(rate)
        self._save()
        return say("speech.rate_set", Priority.TEXT, n=self.profile.rate)

    def set_volume(self, volume: int) -> Utterance:
        self.profile.volume = max(0, min(100, int(volume)))
        self._save()
        return say("speech.volume_set", Priority.TEXT, n=self.profile.volume)

    def set_voice(self, voice: str | None) -> Utterance:
        """Change the voice (for this speaker's language); an unknown name changes nothing."""
        voice = (voice or "").strip() or None
        if voice is not None:
            known = self.engine.voices(self.lang)
            base = voice.split("+", 1)[0].lower()
            if known and base not in [k.lower() for k in known]:
                return say(
                    "speech.voice_unknown", Priority.IMPORTANT, earcon="error",
                    voice=Raw(voice), choices=[Raw(v) for v in known[:12]],
                )
        self.profile.voice = voice
        self.profile.language = self.lang  # a voice is for the language this speaker speaks
        self._save()
        if voice is None:
            return say("speech.voice_default", Priority.TEXT)
        return say("speech.voice_set", Priority.TEXT, voice=Raw(voice))

    def _save(self) -> None:
        try:
            self.profile.save()
        except OSError as exc:
            self.profile.problem = f"{self.profile.path}: {exc}"


def _engine_note(engine: SpeechEngine) -> Utterance:
    key = engine.name.replace("-", "_")
    return say(f"speech.engine.{key}", Priority.MESSAGE)


def _output_note(sink: Sink, spec: OutputSpec, failed: str | None) -> Utterance:
    """Where the sound goes, in words."""
    if isinstance(sink, DeviceSink):
        if sink.channel:
            return say("speech.output.device_side", Priority.MESSAGE,
                       device=Raw(sink.device_name), side=say_side(sink.channel))
        return say("speech.output.device", Priority.MESSAGE, device=Raw(sink.device_name))
    if isinstance(sink, RecordingSink):
        return say("speech.output.recording", Priority.MESSAGE)
    wanted_device = spec.kind in ("auto", "device") or failed is not None
    if isinstance(sink, FileSink):
        if wanted_device:
            return say("speech.output.no_device_file", Priority.IMPORTANT,
                       path=Raw(str(sink.path)), reason=Raw(failed or ""))
        return say("speech.output.file", Priority.MESSAGE, path=Raw(str(sink.path)))
    if wanted_device:
        return say("speech.output.no_device_silent", Priority.IMPORTANT, reason=Raw(failed or ""))
    return say("speech.output.null", Priority.MESSAGE)


def say_side(side: str):
    from companion.narration import Msg

    return Msg(f"speech.side.{side}")


DEVICE_OPEN_TIMEOUT = 5.0


def _open_device(spec: OutputSpec) -> DeviceSink:
    """Open the device in a helper thread: a sound server that does not answer must not
    freeze the start of a game (the thread is left behind if it never returns)."""
    try:
        return call_with_timeout(lambda: DeviceSink(spec.device, spec.channel), DEVICE_OPEN_TIMEOUT, "open-device")
    except WorkerTimeout:
        raise AudioUnavailable(f"the sound device did not open within {DEVICE_OPEN_TIMEOUT:.0f} s") from None
    except AudioUnavailable:
        raise
    except Exception as exc:
        raise AudioUnavailable(f"{type(exc).__name__}: {exc}") from None


def open_speaker(
    engine: str = "auto",
    output: str = "auto",
    lang: str = "fr",
    profile: Profile | None = None,
    fallback_wav: Path | None = None,
    paced_fallback: bool = True,
) -> Speaker:
    """A speaker for `output`, speaking with `engine`.

    `paced_fallback`: write the fallback WAV at the pace of speech (so it holds what a
    listener would have heard, cuts included); False writes it as fast as it is made (the
    demo and bot-only games, where nothing can cut it).

    An engine that cannot be used is replaced by the automatic choice, and a device that
    cannot be opened by `fallback_wav` (or silence); `describe()` tells which and why.
    A malformed output spec raises ValueError (check the command line with `parse_output`).
    """
    spec = parse_output(output)
    notes: list[Utterance] = []
    try:
        eng = get_engine(engine)
    except UnavailableEngine as exc:
        notes.append(say("speech.engine_unavailable", Priority.IMPORTANT,
                         engine=Raw(exc.name), reason=Raw(exc.reason)))
        eng = get_engine("auto")
    sink: Sink
    failed: str | None = None
    if spec.kind == "null":
        sink = NullSink()
    elif spec.kind == "recording":
        sink = RecordingSink()
    elif spec.kind == "file":
        assert spec.path is not None
        try:
            sink = FileSink(spec.path)
        except AudioUnavailable as exc:
            failed = exc.reason
            sink = NullSink()
    else:
        try:
            sink = _open_device(spec)
        except AudioUnavailable as exc:
            failed = exc.reason
            sink = NullSink()
            if fallback_wav is not None:
                try:
                    sink = FileSink(fallback_wav, realtime=paced_fallback)
                except AudioUnavailable as exc2:
                    failed = f"{failed}; {exc2.reason}"
    speaker = Speaker(eng, sink, lang, profile, notes, spec, fallback_wav)
    if failed is not None and spec.kind == "file":
        speaker._output_note = say("speech.output.file_failed", Priority.IMPORTANT,
                                   path=Raw(str(spec.path)), reason=Raw(failed))
    elif failed is not None:
        speaker._output_note = _output_note(sink, spec, failed)
    return speaker


def say_and_print(text: str, lang: str, wait: float = 10.0) -> None:
    """A message said once outside a game (an error before it starts, a missing voice model):
    printed on stderr first, then spoken when speech works. Speech is a bonus here: a machine
    without a sound card or an engine has the printed line, which its screen reader reads."""
    import os
    import sys

    print(text, file=sys.stderr, flush=True)
    if os.environ.get("COMPANION_SPEECH", "auto") in ("none", "text"):
        return
    try:
        spk = open_speaker(engine="auto", output="auto", lang=lang)
    except Exception:  # noqa: BLE001 - no engine, no sound card: the printed line is out
        return
    try:
        spk.say(text, Priority.IMPORTANT)
        spk.wait(wait)
    finally:
        spk.close()

