"""Issue 24 §4: no thread but the loop reads the match. The match is guarded (every read or
write from another thread than the loop's is recorded); a recording is heard through
`start_voice`, as `companion play --voice-input` hears it, its lines fed to the loop here: the
listener builds its grammar from the replica the core tells, never from the match."""

import argparse
import contextlib
import threading

import numpy as np

from companion.core import Match, find
from companion.inputs.voice import synth
from companion.inputs.voice.sources import write_wav
from companion.inputs.voice.table import add_voice_args, start_voice
from companion.session import Seat, Session
from companion.session.inbox import Line
from companion.session.transcript import load
from tests.voice.needs import need_voice


class GuardedMatch:
    """A match that records who touches it from a thread other than its owner's."""

    def __init__(self, match: Match) -> None:
        object.__setattr__(self, "_match", match)
        object.__setattr__(self, "_owner", threading.get_ident())
        object.__setattr__(self, "touched", [])

    def _check(self, name: str) -> None:
        if threading.get_ident() != object.__getattribute__(self, "_owner"):
            object.__getattribute__(self, "touched").append((threading.current_thread().name, name))
            raise RuntimeError(f"the match read from thread {threading.current_thread().name}: {name}")

    def __getattr__(self, name: str):
        self._check(name)
        return getattr(object.__getattribute__(self, "_match"), name)

    def __setattr__(self, name: str, value) -> None:
        self._check(name)
        setattr(object.__getattribute__(self, "_match"), name, value)

    def __copy__(self):
        import copy

        self._check("copy")
        return copy.copy(object.__getattribute__(self, "_match"))


def test_the_guard_catches_another_thread():
    game, _ui, _ = load(find("goodfortune"))
    guarded = GuardedMatch(Match(game, ["Marie", "Paul"], 1))
    guarded.state  # noqa: B018 - its owner's thread: allowed
    t = threading.Thread(target=_touch, args=(guarded,), name="toucher")
    t.start()
    t.join()
    assert guarded.touched == [("toucher", "state")]


def _touch(guarded):
    with contextlib.suppress(RuntimeError):  # refused from this thread, as it must be
        guarded.state  # noqa: B018 - touched on purpose


def test_only_the_loop_reads_the_match_while_voice_listens(tmp_path):
    need_voice()
    game, ui, _ = load(find("goodfortune"))
    guarded = GuardedMatch(Match(game, ["Marie", "Paul"], 1))
    lines: list[str] = []
    session = Session("goodfortune", ui, guarded, [Seat("Marie"), Seat("Paul")], lang="en", out=lines.append)
    wav = tmp_path / "two.wav"
    said = [synth.utterance(t, "en-us", 160) for t in ("status", "repeat")]
    write_wav(wav, np.concatenate([said[0], synth.silence(0.8), said[1]]))
    p = argparse.ArgumentParser()
    add_voice_args(p)
    listeners = start_voice(p.parse_args(["--voice-input", str(wav)]), session, session.loop.inbox)
    try:
        session.start()  # the loop's thread (this one): the core tells the listener what is sayable
        got = []
        for _ in range(2):
            item = session.loop.inbox.get(60)
            assert isinstance(item, Line), f"heard {got}, then nothing"
            got.append(item)
            session.loop.feed(item)
        listeners[0].join(60)
    finally:
        for listener in listeners:
            listener.stop()
    assert guarded.touched == [], guarded.touched
    assert listeners[0].failed is None
    assert [g.text for g in got] == ["status", "repeat"] and all(g.source == "voice" for g in got)
    assert "Heard: status" in lines and "Heard: repeat" in lines


def test_a_line_said_before_the_grammar_is_ready_is_heard_once_it_is():
    """A microphone's sound waits in its queue while the first grammar is built (nothing is
    told yet): once the core tells what is sayable, the line said meanwhile is heard."""
    need_voice()
    import queue

    from companion.inputs.voice.listener import Listener, Told
    from companion.inputs.voice.recognizer import SphinxRecognizer
    from companion.inputs.voice.sayable import sayable_now
    from companion.session.inbox import Inbox
    from companion.session.outputs import Hearable, replica

    game, ui, _ = load(find("goodfortune"))
    match = Match(game, ["Marie", "Paul"], 1)
    sound: queue.Queue = queue.Queue()
    pcm = np.concatenate([synth.silence(0.3), synth.utterance("status", "en-us", 160), synth.silence(0.5)])
    for k in range(0, len(pcm), 480):  # all said before anything is told, as a microphone queues it
        sound.put(pcm[k:k + 480])
    sound.put(None)
    told = Told()
    inbox = Inbox()
    lang = "en"
    def microphone():
        while (chunk := sound.get()) is not None:
            yield chunk

    listener = Listener(microphone(), SphinxRecognizer(lang), inbox,
                        lambda: sayable_now(told.latest.ui, told.latest.match, told.latest.seat, lang), told=told)
    listener.start()  # returns at once: nothing is told yet, the thread waits
    assert inbox.empty()
    told.tell(Hearable(replica(match), ui.probe(), match.current, lang, 0))
    line = inbox.get(60)
    listener.join(60)
    assert isinstance(line, Line) and line.text == "status" and line.heard == "status"
