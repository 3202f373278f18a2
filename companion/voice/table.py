"""Voice at the table: the `play`/`resume` options and the listeners they start.

For the lead to wire into `companion play` (runner and the table loop are not this
package's): `add_voice_args(parser)` adds the options; `start_voice(args, session, inbox)`
starts one listener per microphone (or WAV file), each posting `Line(source="voice")` to the
inbox, with what is sayable asked from the session's state at every utterance.

    --voice                 the default microphone (the speaker is the player to move, or
                            says their name first)
    --voice DEVICE=SEAT     a microphone per seat (index or name of the device; repeatable)
    --voice-input FILE.wav  a recording instead of a microphone (tests, demos)
    --voice-realtime        play the recording at real speed (default: as fast as possible)
    --voice-model DIR       a vosk model folder (French: vosk-model-small-fr)
    --barge-in              listen while the companion speaks (headphones): speaking cuts it off
    --voice-wake WORD       every command starts with WORD (« compagnon aide »), for noisy tables
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.inbox import Inbox

from .listener import Listener
from .options import add_voice_args
from .recognizer import NoModel, open_recognizer
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


def start_voice(args: argparse.Namespace, session: Any, inbox: Inbox, *, lang: str | None = None) -> list[Listener]:
    """Start the listeners the options ask for (none when there is no voice option).

    Raises NoModel (its text says where to put a model) when vosk is asked for without one.
    `session` gives the state (`ui`, `match`, `seats`, `speaker`, `lang`); what is sayable
    is computed for the listener's seat, or the player to move."""
    specs = getattr(args, "voice", None) or []
    files = getattr(args, "voice_input", None) or []
    if not specs and not files:
        return []
    lang = lang or session.lang
    names = [s.name for s in session.seats]
    listeners: list[Listener] = []

    def phrases_for(seat: int | None) -> Any:
        def now() -> Any:
            match = session.match
            who = seat if seat is not None else (match.current if match.current is not None else 0)
            return sayable_now(session.ui, match, who, lang).with_wake(getattr(args, "voice_wake", None))
        return now

    def recognizer() -> Any:
        return open_recognizer(lang, getattr(args, "voice_model", None))

    if files:
        from .sources import WavSource

        listeners.append(Listener(WavSource(files, realtime=args.voice_realtime), recognizer(), inbox,
                                  phrases_for(None), speaker=session.speaker, barge_in=args.barge_in))
    for device, seat in parse_specs(specs, names):
        from .sources import MicSource

        speaker = (session.seats[seat].speaker if seat is not None else None) or session.speaker
        listeners.append(Listener(MicSource(device), recognizer(), inbox, phrases_for(seat), seat=seat,
                                  speaker=speaker, barge_in=args.barge_in))
    for listener in listeners:
        listener.start()
    return listeners


__all__ = ["NoModel", "add_voice_args", "parse_specs", "start_voice"]
