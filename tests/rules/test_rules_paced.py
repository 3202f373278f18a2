"""Without a sound card the rules player prints sentence by sentence at the listener's pace
(Enter for the next), so « pause » and « reprends » mean something (#17)."""

from __future__ import annotations

import threading

from companion.audiorules.manifest import load
from companion.audiorules.player import PositionStore, RulesPlayer
from companion.cli.rules import _has_sound
from companion.narration import Priority
from tests.waiting import WAIT, until


class Instant:
    """A silent speaker: every sentence is 'said' at once (the text engine, no device)."""

    def __init__(self) -> None:
        self.rate = 175

    def say(self, text: str, priority: Priority = Priority.MESSAGE):
        done = threading.Event()
        done.set()
        return type("Item", (), {"done": done})()

    def interrupt(self) -> None:
        self.interrupted = getattr(self, "interrupted", 0) + 1  # counted: nothing plays here


def wait_for(cond, timeout=WAIT):
    return until(cond, "the player", timeout)


def test_paced_player_prints_one_sentence_per_enter_and_pause_resume(tmp_path):
    man = load("kikoi", "fr")
    ch = man.chapters[0]
    assert len(ch.sentences) >= 3
    printed: list[str] = []
    player = RulesPlayer(man, Instant(), store=PositionStore(tmp_path / "pos.json"), print_fn=printed.append, paced=True)
    player._worker.start()
    try:
        player.handle("1")
        assert wait_for(lambda: ch.sentences[0] in printed)
        assert player.wait_idle(WAIT)  # the playback thread rests: it waits for Enter
        assert ch.sentences[1] not in printed
        player.handle("")
        assert wait_for(lambda: ch.sentences[1] in printed)
        assert player.wait_idle(WAIT)
        assert ch.sentences[2] not in printed
        player.handle("pause")
        player.handle("")  # Enter while paused: nothing
        assert player.wait_idle(WAIT)
        assert ch.sentences[2] not in printed
        player.handle("reprends")  # goes on from the next sentence, not the chapter's start
        assert wait_for(lambda: ch.sentences[2] in printed)
        assert printed.count(ch.sentences[0]) == 1
    finally:
        with player._lock:
            player._stop = True
            player._cut()
        player._worker.join(timeout=5)


def test_has_sound():
    class Eng:
        def __init__(self, name):
            self.name = name

    class Sink:
        def __init__(self, kind):
            self.kind = kind

    def spk(engine, kind):
        return type("S", (), {"engine": Eng(engine), "player": type("P", (), {"sink": Sink(kind)})()})()

    assert _has_sound(spk("espeak-ng", "device"))
    assert not _has_sound(spk("text", "device"))
    assert not _has_sound(spk("espeak-ng", "null"))
    assert not _has_sound(spk("espeak-ng", "file"))


def test_of_title_joins_the_article():
    from companion.audiorules.player import of_title

    assert of_title("fr", "Les 5 KIKOI") == "des 5 KIKOI"
    assert of_title("fr", "Kaliko") == "de Kaliko"
    assert of_title("fr", "Good Fortune") == "de Good Fortune"
    assert of_title("en", "Les 5 KIKOI") == "of Les 5 KIKOI"
