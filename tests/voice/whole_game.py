"""A whole seeded game played by voice alone (issue 30, "Done when"): the human's moves are
precomputed by playing the same seeded game in-process (the session `companion play` makes,
a bot choosing for the human), each move said as its canonical phrase (`GameUI.phrases`: the
listed phrase whose command is the move), spoken by a held-out synthesizer, joined with
silences into one recording for `companion play GAME --voice-input FILE`."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.core import find
from companion.games.base import action_command
from companion.language.sayable import shared_phrases

#: the held-out voices (never fitted on, docs/voice.md): English another synthesizer family,
#: French the espeak-ng French variants no benchmark fits on (no other French synthesizer here)
VOICES = {"en": ("flite:slt", "flite:kal16"), "fr": tuple(os.environ.get("VG_FR", "fr+klatt,fr+f5").split(","))}
HUMAN = {"en": "Human", "fr": "Humain"}
#: the languages whose player says « oui » once more after a sure one (see `plan`)
EXTRA_YES = frozenset({"fr"})


@dataclass
class Plan:
    game: str
    lang: str
    seed: int
    bots: int
    options: dict[str, str]
    said: list[tuple[str, str]] = field(default_factory=list)  # (phrase, command) in order
    heard: list[Any] = field(default_factory=list)  # the line heard in-process for each (or None)
    moves: int = 0  # the human's moves
    over: bool = False


def word(command: str, lang: str) -> str:
    return next(p for p, c in shared_phrases(lang) if c == command)


def plan(game_name: str, lang: str, seed: int, bots: int = 1, options: dict[str, str] | None = None,
         max_turns: int = 120, plays: bool = False, bot: bool = True, hear: bool = True, gap: float = 2.0) -> Plan:
    """Play the seeded game as `companion play GAME --players Human --bots N --seed S` makes it,
    the human's moves chosen by the game's default bot on its own stream (`bot=False`: the
    legal move said in the fewest words; KIKOI's bot remembers what it was told, which the
    human's seat is not), each said as its phrase (`plays`: a move that places tiles before
    a pass or an exchange — in Kaliko « passe » is always the shortest).

    `hear`: each utterance is made as the recording will hold it and heard in-process by the
    recogniser `companion play` uses (its listener, the grammar of that state), and the line
    heard fed to the session, so the player answers what the table understood, as a player
    would: « oui » to a read-back of the move said (again if that « oui » was heard with doubt),
    « non » to a read-back of another, the move again (the other voice) when it was not
    understood; a move heard as another and played is the game's new state. Without `hear`,
    the phrases are typed (the plan a perfect recogniser would need)."""
    import atexit
    import contextlib
    import io
    import shutil
    import tempfile

    from companion.core import Rng

    options = dict(options or {})
    session = plan_session(game_name, lang, seed, bots, options)
    game, ui, bot_kinds = session.plan_game, session.ui, session.bot_kinds
    kind = next(iter(bot_kinds))
    match = session.match
    chooser = bot_kinds[kind](game, 0, Rng(seed).fork(999)) if bot else None
    out = Plan(game_name, lang, seed, bots, options)
    yes, no = word("yes", lang), word("no", lang)
    tmp = Path(tempfile.mkdtemp(prefix="whole-game-"))
    atexit.register(shutil.rmtree, tmp, True)  # the plan's own utterances, whatever ends it
    ear = Ear(lang, session, tmp, gap) if hear else None

    def say(text: str, command: str) -> Any:
        """Says `text` (meaning `command`); the line the table took, or None when nothing was heard."""
        out.said.append((text, command))
        with contextlib.redirect_stdout(io.StringIO()):
            if ear is None:
                session.handle(text, 0)
                return None
            line = ear.say(text, len(out.said) - 1)
            out.heard.append(line)
            return line

    def confirm(command: str) -> None:
        for n in range(3):  # a read-back waits for a sure « oui »
            if not session.pending or match.over:
                # French « oui » is heard near the threshold (0.55-0.8): where it took one « oui »
                # here, the recording may need one more; said when nothing waits, it is refused
                # (« Il n'y a rien à confirmer »). Only after a read-back of the move said.
                if n and lang in EXTRA_YES:
                    say(yes, "yes")
                return
            say(yes, "yes")

    for _ in range(max_turns):
        if match.over:
            break
        assert match.current == 0, match.current
        sayable = ui.phrases(match, 0, lang)
        listed = {c: p for p, c in reversed(sayable.concrete) if c.startswith("action:")}  # the first phrase of each
        said = [c for c in (action_command(game, a) for a in match.legal(0)) if c in listed]
        if plays and any('"play"' in c for c in said):
            said = [c for c in said if '"play"' in c]
        want = min(said, key=lambda c: len(listed[c].split()))
        if chooser is not None:
            choice = action_command(game, chooser.choose(match.state))
            want = choice if choice in listed else want
        before = len(match.history)
        # the move said up to three times (the voices in turn), then, as a player whose words
        # are not understood says something else, each other legal move twice, shortest first
        legal = [c for c in (action_command(game, a) for a in match.legal(0)) if c in listed]
        others = [c for c in sorted(legal, key=lambda c: len(listed[c].split())) if c != want]
        for cmd in [want] * 3 + [c for c in others for _ in range(2)][:6]:
            line = say(listed[cmd], cmd)
            if session.pending and (ear is None or (line is not None and line.text == listed[cmd])):
                confirm(cmd)  # the read-back of the move said, or the game's own question
            for _ in range(2):  # another move read back, or never a sure « oui »: not that one
                if not (asking(session) and not match.over and len(match.history) == before):
                    break
                say(no, "no")
            if len(match.history) > before or match.over:
                break
        assert len(match.history) > before, ("the move was never taken", listed[want], out.said[-6:],
                                             [h and (h.heard, round(h.confidence, 3)) for h in out.heard[-6:]])
        out.moves += 1
    out.over = match.over
    for _ in range(4):  # then leave: « quitte », the quit question, a sure « oui »
        if not session.running:
            break
        if session.core.quit_asked:
            say(yes, "yes")
        else:
            say(word("quit", lang), "quit")
    if ear is not None:
        ear.close()
    shutil.rmtree(tmp, ignore_errors=True)
    # the table of `companion play` keeps a save, so it asks before quitting (in-process there
    # is none, and a sure « quit » quits): « oui », and once more where the first was doubted
    out.said += [(yes, "yes"), (yes, "yes")]
    return out


def plan_session(game_name: str, lang: str, seed: int, bots: int = 1, options: dict[str, str] | None = None) -> Any:
    """The session `companion play GAME --players Human --bots N --seed S` makes, started
    (its opening said to nowhere); `.plan_game` (the game) and `.bot_kinds` set on it."""
    import contextlib
    import io

    from companion.cli.runner import load_game, make_session, table_options
    from companion.narration import Msg, catalog

    entry = find(game_name)
    opts = table_options(entry, dict(options or {}), 1, lang)
    game, ui, bot_kinds = load_game(entry, opts, lang)
    kind = next(iter(bot_kinds))
    names = [HUMAN[lang]] + [catalog(lang).text(Msg("core.bot_name", n=i + 1)) for i in range(bots)]
    args = argparse.Namespace(verbosity=None, log=None, log_private=False)
    with contextlib.redirect_stdout(io.StringIO()):
        session = make_session(entry, game, ui, bot_kinds, names, [None] + [kind] * bots, seed, {}, None, None, args, lang)
        session.start()
    session.plan_game, session.bot_kinds = game, bot_kinds
    return session


class Feed:
    """A sound source the plan pushes into as it goes, read by a listener as it reads a
    recording (30 ms chunks); `idle` is set once the listener has taken, and so handled,
    every chunk pushed (it asks for the next one only then)."""

    def __init__(self) -> None:
        import queue
        import threading

        self.queue: Any = queue.Queue()
        self.idle = threading.Event()
        self.rest = np.zeros(0, np.int16)

    def push(self, pcm: np.ndarray) -> None:
        """More sound, cut in chunks where the joined recording's are (from its first sample:
        what is left over waits for the next push)."""
        from companion.inputs.voice.sources import CHUNK

        self.idle.clear()
        pcm = np.concatenate([self.rest, pcm])
        whole = len(pcm) - len(pcm) % CHUNK
        for i in range(0, whole, CHUNK):
            self.queue.put(pcm[i:i + CHUNK])
        self.rest = pcm[whole:]

    def close(self) -> None:
        self.queue.put(None)

    def __iter__(self) -> Any:
        import queue

        while True:
            try:
                chunk = self.queue.get_nowait()
            except queue.Empty:
                self.idle.set()
                chunk = self.queue.get()
            if chunk is None:
                return
            yield chunk


class Ear:
    """What `companion play --voice-input` hears, one utterance at a time: one listener for
    the whole game (its VAD and noise floor carried on from utterance to utterance, as over
    the joined recording), told what is sayable by the session core (`Hearable`, a yes/no
    question included) and read in turns; each line it posts is fed to the session as the
    table loop takes it. Heard in separate files, the same sound came out otherwise often
    enough (French « oui » 0.59 here, 0.81 there; « Robot 1 » heard « Robot 2 ») that the
    recording went out of step with the game."""

    def __init__(self, lang: str, session: Any, tmp: Path, gap: float = 2.0) -> None:
        from companion.inputs.voice.listener import Listener, Told
        from companion.inputs.voice.recognizer import open_recognizer
        from companion.inputs.voice.table import table_speakers, told_phrases
        from companion.session.inbox import Inbox
        from companion.session.outputs import Hearable, replica

        self.lang, self.session, self.tmp, self.gap = lang, session, tmp, gap
        self.recognizer = open_recognizer(lang, None)
        speakers = table_speakers(session.seats, set())
        told = Told()
        m = session.match
        # what is sayable at the start (the core tells from its next answer on: generation 0)
        told.tell(Hearable(replica(m), session.ui.probe(), m.current, lang, -1))
        session.table.hearers.append(told.tell)
        session.core.tells_hearable = True
        self.inbox = Inbox()
        self.feed = Feed()
        self.listener = Listener(self.feed, self.recognizer, self.inbox, told_phrases(told, None, lang, speakers),
                                 takes_turns=True, told=told).start()

    def say(self, text: str, i: int) -> Any:
        """`text` said (and the gap after it); the first line the table took of it, or None."""
        import time

        from companion.inputs.voice import synth

        voices = VOICES[self.lang]
        self.feed.push(np.concatenate([synth.utterance(text, voices[i % len(voices)], 160, seed=i),
                                       synth.silence(self.gap, seed=1000 + i)]))
        first = None
        while True:
            line = self.inbox.get(0)
            if line is not None:
                self.session.loop.feed(line)
                first = first or line
            elif self.feed.idle.is_set() and self.feed.queue.empty():
                return first
            else:
                time.sleep(0.01)

    def close(self) -> None:
        self.feed.close()
        self.listener.stop()


def asking(session: Any) -> bool:
    """A yes/no question waits (a read-back, the quit question): what `Hearable.asking` tells."""
    from companion.session.core import Confirm, ReadBack

    return bool(session.core.quit_asked or any(isinstance(p, (Confirm, ReadBack)) for p in session.pending.values()))


def recording(p: Plan, path: Path, gap: float = 0.8) -> None:
    """The plan's phrases spoken by the held-out voices in turn, joined by `gap` of quiet room."""
    from companion.inputs.voice import synth
    from companion.inputs.voice.sources import write_wav

    voices = VOICES[p.lang]
    synth.prefetch([(text, voices[i % len(voices)], 160) for i, (text, _c) in enumerate(p.said)])
    parts = []
    for i, (text, _c) in enumerate(p.said):
        parts += [synth.utterance(text, voices[i % len(voices)], 160, seed=i), synth.silence(gap, seed=1000 + i)]
    write_wav(path, np.concatenate(parts))


@dataclass
class Run:
    out: str
    inputs: list[dict[str, Any]]
    returncode: int | None
    seconds: float
    ended: bool  # the log has the game's end

    @property
    def voice(self) -> list[dict[str, Any]]:
        return [i for i in self.inputs if i.get("source") == "voice"]


def play(p: Plan, wav: Path, tmp: Path, realtime: bool = False, timeout: float = 240) -> Run:
    """`companion play` with the recording as its only input: standard input stays open and
    says nothing (no keyboard line) until the game ends."""
    import time

    log = tmp / "log.jsonl"
    log.unlink(missing_ok=True)
    env = {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp / "data")}
    cmd = [sys.executable, "-m", "companion.cli", "play", p.game, "--players", HUMAN[p.lang], "--bots", str(p.bots),
           "--lang", p.lang, "--speech", "text", "--voice-input", str(wav), "--seed", str(p.seed), "--log", str(log)]
    for k, v in p.options.items():
        cmd += ["-o", f"{k}={v}"]
    if realtime:
        cmd.append("--voice-realtime")
    printed = tmp / "out.txt"
    t0 = time.monotonic()
    with printed.open("w") as fh:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=fh, stderr=subprocess.STDOUT, env=env)
        try:  # the recording ends with the answer to the quit question: the program leaves
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass  # killed below: its return code then fails the test
        finally:
            proc.kill()
            proc.wait()
            assert proc.stdin is not None
            proc.stdin.close()
    seconds = time.monotonic() - t0
    records = [json.loads(ln) for ln in log.read_text().splitlines()] if log.exists() else []
    return Run(printed.read_text(), [r for r in records if r.get("type") == "input"], proc.returncode, seconds,
               any(r.get("type") == "game_ended" for r in records))


def fold(text: str) -> str:
    """Words as the recogniser prints them: lower case, no accents, digits and letters apart."""
    import re
    import unicodedata

    plain = unicodedata.normalize("NFD", text.lower()).encode("ascii", "ignore").decode()
    return " ".join(re.findall(r"[a-z']+|\d+", plain.replace("-", " ")))


def tally(p: Plan, run: Run) -> dict[str, Any]:
    """Utterances, read-backs and misheard lines (the command heard against the command said,
    with the words heard: a « yes » answering a read-back is logged with the command it
    confirms), the utterances in-process heard nothing of left out of the match."""
    voice = run.voice
    posted = [sc for sc, line in zip(p.said, p.heard + [True] * len(p.said), strict=False) if line is not None]
    misheard = [(said, got.get("heard"), got.get("confidence"), got.get("outcome"), got.get("command"))
                for (said, command), got in zip(posted, voice, strict=False)
                if got.get("command") != command and fold(got.get("heard") or "") != fold(said)]
    return {"game": p.game, "lang": p.lang, "utterances": len(p.said), "heard": len(voice), "moves": p.moves,
            "read_backs": sum(1 for i in voice if i.get("outcome") == "confirm"),
            "misheard": misheard, "played_misheard": played_misheard(p, voice),
            "ended": run.ended, "quit": run.returncode == 0,
            "seconds": round(run.seconds, 1)}


def played_misheard(p: Plan, voice: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The lines the table carried out without a read-back that the player never said: a move
    played (outcome « act ») or a shared word that changes the game or the session, heard as
    words no utterance of the plan had (issue 24: nothing changes on a doubt). A « oui » that
    answers a read-back carries out what was read back, as the rule wants. Read from the log
    alone: the recording's lines need not pair one to one with the plan's."""
    from companion.session.core import CHANGES_STATE

    said = {fold(text) for text, _c in p.said}
    yes = {fold(w) for w, c in shared_phrases(p.lang) if c == "yes"}
    return [(i.get("heard"), i.get("confidence"), i.get("outcome"), i.get("command")) for i in voice
            if (i.get("outcome") == "act" or (i.get("outcome") == "shared" and i.get("command") in CHANGES_STATE))
            and fold(i.get("heard") or "") not in said | yes]
