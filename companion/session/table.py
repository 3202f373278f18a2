"""The table around the session core: it carries out the core's outputs.

It renders each `Say` in its listener's language and verbosity, prints it (always: braille
displays and screen readers read the printed line), speaks it on the right channels,
appends the journal records and writes the `--log` lines. It holds the channels of each
seat and is touched by the loop's thread only.

A channel is anything a seat hears on besides the table: a private speaker
(`--private Marie=device:1:left`), a seat's web page, a second terminal. The routing of
private lines was decided by the core (`SessionCore.hears_privately`); here:

* a line for the table (listener None) is printed, said on the table's speaker, and
  delivered to every channel that shows the public lines (pages, terminals: `public`);
* a line for a seat with channels goes to those channels only; the shared screen shows
  « (dit en privé à Marie) »;
* a line for a seat without a channel is printed as ``[Marie] ...`` and said on the
  table's speaker (the core only lets a private line come here when that is allowed).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from companion.narration import Priority, Raw, Utterance, Verbosity, catalog, say, spell
from companion.saves.files import io_message_id

from .outputs import (
    Attach,
    Cue,
    Detach,
    Echo,
    Hearable,
    InputTaken,
    Interrupt,
    JournalAction,
    JournalAnnounced,
    JournalEnd,
    JournalSetting,
    JournalUndo,
    Output,
    Record,
    Release,
    Say,
    ScanRules,
    Tune,
)


@runtime_checkable
class Channel(Protocol):
    """One seat's own output: a private speaker, a web page, a second terminal.

    `deliver` gets every line meant for its seat (`private` marks that player's secrets)
    and, when the channel has `public = True` (the default when the attribute is absent),
    every public line as well: a page shows all that its player hears. Never another
    seat's lines. Called from the loop's thread only: a channel that does I/O queues it.
    """

    def deliver(self, text: str, *, private: bool, priority: Priority, earcon: str | None, lang: str) -> None: ...

    def interrupt(self) -> None: ...


class SpeakerChannel:
    """A private speaker (`--private NAME=OUTPUT`) as a channel: it says only its seat's
    lines (the table's speaker already says the public ones)."""

    public = False

    def __init__(self, speaker: Any) -> None:
        self.speaker = speaker

    def deliver(self, text: str, *, private: bool, priority: Priority, earcon: str | None, lang: str) -> None:
        self.speaker.say(text, priority, earcon or "private", lang)

    def interrupt(self) -> None:
        self.speaker.interrupt()


class Table:
    """Renders, prints, speaks and writes what the core asks; holds the seats' channels."""

    def __init__(
        self,
        names: list[str],
        *,
        lang: str = "fr",
        speaker: Any = None,
        out: Callable[[str], None] = print,
        journal: Any = None,
        log: Path | None = None,
        log_private: bool = False,
    ) -> None:
        self.names = names
        self.lang = lang
        self.speaker = speaker
        self.out = out
        self.journal = journal  # companion.saves.journal.Journal or None
        # Lets go of the page or terminal holding a seat (the seat book's `release`), or None.
        self.on_release: Callable[[int], Any] | None = None
        # Looks through the camera for a rules label (« lis le code », issue 28), or None.
        self.on_scan: Callable[[ScanRules], Any] | None = None
        # Told what is sayable now (`Hearable`): the voice listeners' `told.tell` (issue 24).
        self.hearers: list[Callable[[Any], None]] = []
        self.log_path = log
        self.log_private = log_private  # --log-private: the secrets too (docs/private-channels.md)
        self.verbosity = Verbosity.NORMAL
        self.channels: dict[int, list[Any]] = {}
        self._log_fh: Any = None
        if log is not None:
            try:
                self._log_fh = open_private(log)
            except OSError as exc:
                self._log_failed(exc)

    # ------------------------------------------------------------------ channels
    def attach(self, seat: int, channel: Any) -> None:
        self.channels.setdefault(seat, []).append(channel)

    def detach(self, seat: int, channel: Any) -> None:
        chans = self.channels.get(seat, [])
        if channel in chans:
            chans.remove(channel)

    def _speaker_of(self, seat: int | None) -> Any:
        if seat is not None:
            for ch in self.channels.get(seat, []):
                if isinstance(ch, SpeakerChannel):
                    return ch.speaker
        return self.speaker

    # ------------------------------------------------------------------ outputs
    def deliver(self, outputs: list[Output]) -> None:
        wrote = False
        for o in outputs:
            if isinstance(o, Say):
                self.say(o)
            elif isinstance(o, Echo):
                self.echo(o)
            elif isinstance(o, Interrupt):
                self.interrupt(o.listener)
            elif isinstance(o, Cue):
                if self.speaker is not None:
                    self.speaker.say("", Priority.NOTIFICATION, o.earcon, self.lang)
            elif isinstance(o, JournalAction):
                if self.journal is not None:
                    self.journal.action(o.seat, o.action)
                    wrote = True
            elif isinstance(o, JournalUndo):
                if self.journal is not None:
                    self.journal.undo()
            elif isinstance(o, JournalAnnounced):
                wrote = True  # the journal's `announced` below
            elif isinstance(o, JournalSetting):
                if self.journal is not None and hasattr(self.journal, "setting"):
                    self.journal.setting(o.seat, o.key, o.value)
            elif isinstance(o, JournalEnd):
                if self.journal is not None:
                    self.journal.end(list(o.scores), list(o.winners))
            elif isinstance(o, Record):
                self._log([self._logged_event(ev) for ev in o.events])
            elif isinstance(o, InputTaken):
                self._log([self._logged_input(o)])
            elif isinstance(o, Tune):
                self._tune(o)
            elif isinstance(o, Attach):
                self.attach(o.seat, o.channel)
            elif isinstance(o, Detach):
                self.detach(o.seat, o.channel)
            elif isinstance(o, Release):
                if self.on_release is not None:
                    self.on_release(o.seat)
            elif isinstance(o, ScanRules):
                if self.on_scan is not None:
                    self.on_scan(o)
            elif isinstance(o, Hearable):
                for hear in self.hearers:  # the voice listeners: each builds its grammar in its own thread
                    hear(o)
            # Think, Ended, Stop: the loop's business
        if wrote and hasattr(self.journal, "announced"):
            # The moves of this batch are said: a resume need not say them again (docs/saves.md).
            self.journal.announced()

    def render(self, o: Say) -> str:
        text = catalog(o.lang).render(o.utterance, o.verbosity)
        return spell(text) if o.spell else text

    def say(self, o: Say) -> None:
        utt = o.utterance
        if o.verbosity < utt.least:
            # #29: said in fuller profiles only (the next line says it too): its earcon alone
            if utt.earcon and self.speaker is not None and o.listener is None:
                self.speaker.say("", Priority.NOTIFICATION, utt.earcon, o.lang)
            return
        text = self.render(o)
        if o.listener is None:
            self._print(text)
            if self.speaker is not None:
                self._speak(self.speaker, o, text)
            for chans in self.channels.values():
                for ch in chans:
                    if getattr(ch, "public", True):
                        ch.deliver(text, private=False, priority=utt.priority, earcon=utt.earcon, lang=o.lang)
            return
        name = self.names[o.listener]
        chans = self.channels.get(o.listener, [])
        if chans:
            # RULES KIA-10: a private holding is said only to its owner, on their channel;
            # the shared screen shows only that something was said to them.
            note = catalog(o.lang).render(say("core.said_privately", player=Raw(name)))
            self._print(f"[{name}] {note}")
            # #29: a line said to one seat alone (its secret, or a refusal, an answer) is marked
            # private on every channel of that seat, as the shared screen says it went there
            for ch in chans:
                if isinstance(ch, SpeakerChannel):  # a private voice: the sequence too
                    own = dataclasses.replace(utt, earcon=utt.earcon or "private")
                    self._speak(ch.speaker, Say(o.listener, own, o.private, o.lang, o.verbosity, o.spell), text)
                    continue
                ch.deliver(text, private=True, priority=utt.priority, earcon=utt.earcon, lang=o.lang)
        else:
            self._print(f"[{name}] {text}")
            if self.speaker is not None:
                self._speak(self.speaker, o, text)

    def echo(self, o: Echo) -> None:
        """Printed always; said in the verbose profile only (issue 24: what a voice line was heard as)."""
        said = Say(o.listener, o.utterance, False, o.lang, o.verbosity)
        text = self.render(said)
        self._print(text)
        if o.verbosity >= Verbosity.VERBOSE and self.speaker is not None:
            self._speak(self.speaker, said, text)

    @staticmethod
    def _speak(speaker: Any, o: Say, text: str) -> None:
        """The voice gets the utterance as a sequence — its pauses and spelled parts — not the
        flattened line (#29); a line spelled on a second « répète » is spelled whole."""
        utt = o.utterance
        if not o.spell and hasattr(speaker, "say_utterance"):
            speaker.say_utterance(utt, o.verbosity, o.lang)
        else:
            speaker.say(text, utt.priority, utt.earcon, o.lang)

    def _print(self, text: str) -> None:
        """Print a line; a standard output closed under us (a pipe whose reader left, a
        terminal gone) stops the printing, never the game: the speaker goes on saying it."""
        try:
            self.out(text)
        except (BrokenPipeError, ValueError, OSError):
            self.out = _nowhere
            if sys.stdout is not None:
                release_stdout()

    def interrupt(self, listener: int | None) -> None:
        if listener is None:
            if self.speaker is not None:
                self.speaker.interrupt()
            return
        for ch in self.channels.get(listener, []):
            ch.interrupt()

    def _tune(self, o: Tune) -> None:
        """Rate and volume change live; the speaker keeps them in the player's profile."""
        speaker = self._speaker_of(o.listener)
        if speaker is None:
            utt = say("core.no_voice", Priority.TEXT)
        else:
            profile = speaker.profile
            if o.word in ("faster", "slower"):
                utt = speaker.set_rate(profile.rate + (RATE_STEP if o.word == "faster" else -RATE_STEP))
            else:
                utt = speaker.set_volume(profile.volume + (10 if o.word == "louder" else -10))
        self.say(Say(o.listener, Utterance(utt.parts, utt.priority, utt.earcon, o.listener), False, o.lang, o.verbosity))

    def notices(self, verbosity: Verbosity = Verbosity.NORMAL) -> None:
        """Say what went wrong with an output since last time (a device unplugged mid-game, a
        save that cannot be written), after the batch: nothing calls back into the core."""
        speakers = [self.speaker] + [ch.speaker for chans in self.channels.values() for ch in chans
                                     if isinstance(ch, SpeakerChannel)]
        for source in [*speakers, self.journal]:  # the journal's: a save that cannot be written
            if source is not None and hasattr(source, "notices"):
                for utt in source.notices():
                    self.say(Say(None, utt, False, self.lang, verbosity))

    def _logged_event(self, ev: Any) -> dict[str, Any]:
        """A private event (a token drawn, a hand dealt) is logged as only « something private
        happened to this seat » (even its type would tell a KIPIRAT from a white token), unless
        --log-private asks for the secrets too."""
        if ev.to is None or self.log_private:
            return dict(ev.to_json())
        return {"type": "private", "to": list(ev.to)}

    def _logged_input(self, o: InputTaken) -> dict[str, Any]:
        """A line from a seat's own page or terminal is that player's: its words and what it
        asked are left out (the table saw and heard only that something was said privately)."""
        entry = o.to_json()
        if o.source in PRIVATE_SOURCES and not self.log_private:
            entry.update(text=None, command=None, private=True)
        return entry

    def _log(self, entries: list[dict[str, Any]]) -> None:
        if self._log_fh is None:
            return
        try:
            for entry in entries:
                self._log_fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
            self._log_fh.flush()
        except OSError as exc:
            fh, self._log_fh = self._log_fh, None
            with contextlib.suppress(OSError):
                fh.close()
            self._log_failed(exc)

    def _log_failed(self, exc: OSError) -> None:
        """The `--log` file cannot be opened or written (full or read-only disk): said once in
        one sentence, and the game goes on without it."""
        self._log_fh = None
        path = Raw(str(self.log_path))
        for utt in (say(io_message_id(exc), Priority.IMPORTANT, "error", path=path), say("core.log_stopped", Priority.IMPORTANT)):
            self.say(Say(None, utt, False, self.lang, self.verbosity))

    def close(self) -> None:
        if self._log_fh is not None:
            with contextlib.suppress(OSError):
                self._log_fh.close()
            self._log_fh = None


RATE_STEP = 25


def _nowhere(text: str) -> None:
    """Where lines go once standard output is closed."""


def release_stdout() -> None:
    """Point a closed standard output at /dev/null, so that nothing printed later (nor the
    flush at exit) fails on it."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
# Where a line comes from its player's own channel: the seat's page, a second terminal.
PRIVATE_SOURCES = frozenset({"web", "terminal"})


def open_private(path: Path) -> Any:
    """The log opened to append, readable and writable by its owner only (0600): even with
    its secrets left out it tells who played what and when. An older log is tightened too."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) != 0o600:
            os.fchmod(fd, 0o600)  # a file only, never a device (« --log /dev/stdout »)
        return os.fdopen(fd, "a", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise
