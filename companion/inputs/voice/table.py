"""Voice at the table: the `play`/`resume` options and the listeners they start.

What `companion play` and `resume` use (`companion.cli`, `companion.cli.runner`):
`add_voice_args(parser)` adds the options; `start_voice(args, session, inbox)`
starts one listener per microphone (or WAV file), each posting `Line(source="voice")` to the
inbox. What is sayable is told by the session core as an output (`Hearable`: a replica of the
match made in the loop's thread), which the table hands to each listener's `Told`; the
listener builds its grammar from it in its own thread (issue 24 §4).

    --voice                 the default microphone (the speaker is the player to move, or
                            says their name first)
    --voice DEVICE=SEAT     a microphone per seat (index or name of the device; repeatable)
    --voice-input FILE.wav  a recording instead of a microphone (tests, demos), read as fast as
                            possible, each command once the companion answered the one before
    --voice-realtime        play the recording at real speed, as a microphone
    --voice-model DIR       a vosk model folder (French: vosk-model-small-fr)
    --barge-in              listen while the companion speaks (headphones): speaking cuts it off
    --voice-wake WORD       every command starts with WORD (« compagnon aide »), for noisy tables
    --voice-ptt [WORD]      push-to-talk: Enter on an empty line (or WORD typed) opens the
                            microphones for one command; earcons say when they open and close

With one microphone for several players, each may name themselves first (« Paul : mon
plateau »): the human players without a microphone of their own are the names the table's
microphone listens for. A seat with its own microphone cannot be spoken for at another.

Push-to-talk needs the keyboard's lines to reach the microphones: the runner starts the
keyboard pump on `keyboard_inbox(inbox, listeners)` instead of `inbox` (the same inbox when
no listener has push-to-talk).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any

from companion.session.inbox import Inbox, Input, Line

from .listener import Listener, TalkGate, Told
from .options import add_voice_args
from .recognizer import NoModel, answer_phrases, answers_apart
from .sayable import sayable_now


def parse_specs(specs: list[str], names: list[str]) -> list[tuple[Any, int | None]]:
    """`["", "2=Marie"]` -> `[(None, None), (2, 0)]`: (device, seat) pairs."""
    from companion.core import fold

    out: list[tuple[Any, int | None]] = []
    for spec in specs:
        dev, sep, who = spec.partition("=")
        seat = None
        if sep:
            matches = [i for i, n in enumerate(names) if fold(n) == fold(who)]
            if not matches:
                raise ValueError(f"--voice {spec}: no player named {who!r} ({', '.join(names)})")
            seat = matches[0]
        device: Any = int(dev) if dev.strip().isdigit() else (dev.strip() or None)
        out.append((device, seat))
    return out


def table_speakers(seats: list[Any], own: set[int]) -> list[str]:
    """The names a player may say first at the table's microphone: the human seats without a
    microphone of their own (`own`), when there are at least two of them."""
    names = [s.name for i, s in enumerate(seats) if getattr(s, "bot", None) is None and i not in own]
    return names if len(names) > 1 else []


def told_phrases(told: Told, seat: int | None, lang: str, speakers: list[str], wake: str | None = None) -> Any:
    """What a listener of `seat` (None: the table's microphone, where `speakers` may name
    themselves) hears now: a function the listener asks at every utterance."""
    last: list[Any] = []  # the replica told, the seat, and the phrases made for them

    def now() -> Any:
        # issue 24 §4: from the replica the core told (made in the loop's thread), never the
        # live match; asked at every utterance, made again only when a new one was told
        told_now = told.latest
        match, ui = told_now.match, told_now.ui
        who = seat if seat is not None else (told_now.seat if told_now.seat is not None else 0)
        asked = getattr(told_now, "asking", ())
        if answers_apart(lang) and (who in asked if seat is not None else bool(asked)):
            # a yes/no question waits: the answer's own grammar (the game's is kept, issue 30)
            return answer_phrases(lang, wake, speakers if seat is None else ())
        # the game's question waiting for this seat (2kissa10's « which reading? »): its replies
        replies = dict(getattr(told_now, "replying", ())).get(who)
        if last and last[0] is match and last[1] == who and last[3] == replies:
            return last[2]
        ps = sayable_now(ui, match, who, lang, replies=replies).with_wake(wake)
        ps = ps.with_speakers(speakers) if seat is None else ps
        last[:] = [match, who, ps, replies]
        return ps
    return now


def start_voice(args: argparse.Namespace, session: Any, inbox: Inbox, *, lang: str | None = None) -> list[Listener]:
    """Start the listeners the options ask for (none when there is no voice option).

    Raises NoModel (its text says where to put a model) when vosk is asked for without one,
    NoSuppressor when `--voice-suppress` names one that is not installed.
    `session` gives the state (`ui`, `match`, `seats`, `speaker`, `lang`); what is sayable
    is computed for the listener's seat, or the player to move."""
    specs = getattr(args, "voice", None) or []
    files = getattr(args, "voice_input", None) or []
    if not specs and not files:
        return []
    lang = lang or session.lang
    names = [s.name for s in session.seats]
    listeners: list[Listener] = []
    pairs = parse_specs(specs, names)
    speakers = table_speakers(session.seats, {seat for _device, seat in pairs if seat is not None})
    ptt = getattr(args, "voice_ptt", None) is not None

    def phrases_for(seat: int | None, told: Told) -> Any:
        return told_phrases(told, seat, lang, speakers, getattr(args, "voice_wake", None))

    def listening(listener: Listener) -> Listener:
        # the core tells what is sayable as an output (`Hearable`), which the table hands on
        if listener.told is not None:
            session.table.hearers.append(listener.told.tell)
        return listener

    def gate(speaker: Any) -> TalkGate | None:
        return TalkGate(speaker, args.voice_ptt) if ptt else None

    def recognizer() -> Any:
        from .engines import open_engine  # --voice-engine (docs/voice.md, « Whisper »)

        rec = open_engine(lang, getattr(args, "voice_engine", "auto"), getattr(args, "voice_model", None),
                          getattr(args, "whisper_model", None))
        if getattr(args, "voice_suppress", "none") != "none":
            from .suppress import SUPPRESSORS, without_subtraction

            if SUPPRESSORS[args.voice_suppress].replaces_subtraction:
                without_subtraction(rec)
        return rec

    def cleaned(source: Any) -> Any:
        """The source through `--voice-suppress` (made here: a missing one is said before the game)."""
        name = getattr(args, "voice_suppress", "none")
        if name == "none":
            return source
        from .suppress import Suppressed, open_suppressor

        try:
            return Suppressed(source, open_suppressor(name))
        except BaseException:
            close = getattr(source, "close", None)
            if callable(close):
                close()
            raise

    if files:
        from .sources import WavSource

        told = Told()
        listeners.append(listening(Listener(cleaned(WavSource(files, realtime=args.voice_realtime)), recognizer(), inbox,
                                            phrases_for(None, told), speaker=session.speaker, barge_in=args.barge_in,
                                            gate=gate(session.speaker), takes_turns=not args.voice_realtime, told=told)))
    for device, seat in pairs:
        from .sources import MicSource

        speaker = (session.seats[seat].speaker if seat is not None else None) or session.speaker
        told = Told()
        listeners.append(listening(Listener(cleaned(MicSource(device)), recognizer(), inbox, phrases_for(seat, told), seat=seat,
                                            speaker=speaker, barge_in=args.barge_in, gate=gate(speaker), told=told)))
    session.core.tells_hearable = True  # before the loop starts: its first outputs tell them
    for listener in listeners:
        listener.start()
    return listeners


@dataclass
class TalkKey(Inbox):
    """The keyboard's way into the inbox when push-to-talk is on: every line goes on to the
    table's inbox as before, and the talk key — Enter on an empty line, or `word` typed
    alone — also opens (or, pressed again before anything was said, closes) the microphones.
    The empty line still reaches the session, where it cuts the companion's speech, as it
    always did: the microphone does not listen while the companion speaks."""

    inner: Inbox = field(default_factory=Inbox)
    gates: list[TalkGate] = field(default_factory=list)
    word: str = ""

    def post(self, item: Input) -> None:
        if isinstance(item, Line) and item.source == "keyboard" and self.is_key(item.text):
            for g in self.gates:
                g.toggle()
            if item.text.strip():
                return  # the talk word itself is no command
        self.inner.post(item)

    def is_key(self, text: str) -> bool:
        from companion.core import fold

        return fold(text.strip()) == fold(self.word.strip())


def keyboard_inbox(inbox: Inbox, listeners: list[Listener]) -> Inbox:
    """Where the keyboard pump posts: `inbox` itself, or a `TalkKey` in front of it when some
    listener has push-to-talk (`--voice-ptt [WORD]`)."""
    gates = [listener.gate for listener in listeners if listener.gate is not None]
    if not gates:
        return inbox
    return TalkKey(inner=inbox, gates=gates, word=gates[0].key)


__all__ = ["NoModel", "TalkKey", "add_voice_args", "keyboard_inbox", "parse_specs", "start_voice", "table_speakers"]
