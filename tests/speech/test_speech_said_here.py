"""A sentence asked for while nothing plays is begun by the asking thread (issue 26): its
first block goes to the output from `say()` itself, the rest from the player, with the real
libespeak-ng; otherwise (something playing, an output that could make it wait, a refused
voice, an engine without `speak_into`) the player says it, as before. Nothing here is timed."""

from __future__ import annotations

import os
import shutil
import threading

import numpy as np
import pytest

from companion.narration import Priority
from companion.outputs.audio.player import BLOCK_MS, FIRST_BLOCK_MS
from companion.outputs.audio.sinks import RecordingSink
from companion.outputs.profile import Profile
from companion.outputs.speaker import Speaker
from companion.outputs.speech import get_engine

_MISSING = shutil.which("espeak-ng") is None
assert not (_MISSING and os.environ.get("CI") == "true"), "espeak-ng is required under CI (./run setup)"
pytestmark = pytest.mark.skipif(_MISSING, reason="espeak-ng not installed")


class ThreadSink(RecordingSink):
    """Records which thread handed each block; `room` says whether a write would not wait."""

    def __init__(self, room: bool = True) -> None:
        super().__init__(realtime=False)
        self.room = room
        self.by: list[tuple[int, int, int]] = []  # (thread id, frames, rate)

    def ready(self, frames: int, sr: int) -> bool:
        return self.room and super().ready(frames, sr)

    def write(self, block, sr):
        self.by.append((threading.get_ident(), len(block), sr))
        super().write(block, sr)


class GatedSink(ThreadSink):
    """The player's writes (not the asking thread's) wait until `gate` is set: what is cut
    is cut mid-sentence, whatever the machine's speed."""

    def __init__(self) -> None:
        super().__init__()
        self.asker = threading.get_ident()
        self.gate = threading.Event()

    def write(self, block, sr):
        self.by.append((threading.get_ident(), len(block), sr))
        if threading.get_ident() != self.asker:
            self.gate.wait(30)
        RecordingSink.write(self, block, sr)


def speaker(sink, profile=None):
    eng = get_engine("espeak-ng")
    if not eng.pushes_audio:  # pragma: no cover - libespeak-ng missing, the program only
        if os.environ.get("CI") == "true":
            pytest.fail("libespeak-ng does not load here (under CI every part must be there)")
        pytest.skip("libespeak-ng does not load here")
    return Speaker(eng, sink, "fr", profile or Profile(language="fr"))


def loud(sink) -> bool:
    audio = np.concatenate([b for b, _ in sink.audio])
    return float(np.max(np.abs(audio))) > 0.1


def test_said_when_idle_the_first_block_comes_from_say_itself():
    sink = ThreadSink()
    sp = speaker(sink)
    try:
        me = threading.get_ident()
        sp.say("Paul pioche un jeton.", Priority.TEXT)
        assert sink.by and sink.by[0][0] == me  # handed before say() returned, by this thread
        assert sp.wait(10)
        first, rest = sink.by[0], sink.by[1:]
        assert first[1] <= first[2] * FIRST_BLOCK_MS // 1000
        assert rest and all(t != me for t, _, _ in rest)  # the player wrote the rest
        assert all(n <= sr * BLOCK_MS // 1000 for _, n, sr in rest)
        assert sink.items[0].seconds > 0.8 and not sink.items[0].cut and loud(sink)
        # its first sample is the sentence's onset: the leading silence was cut
        assert np.max(np.abs(sink.audio[0][0][:23])) < 0.0032 < np.max(np.abs(sink.audio[0][0]))
    finally:
        sp.close()


def test_an_output_without_room_gets_every_block_from_the_player():
    sink = ThreadSink(room=False)
    sp = speaker(sink)
    try:
        me = threading.get_ident()
        sp.say("Marie joue.", Priority.TEXT)
        assert sp.wait(10)
        assert sink.by and all(t != me for t, _, _ in sink.by)
        assert sink.items[0].seconds > 0.4 and loud(sink)
    finally:
        sp.close()


def test_while_something_plays_the_next_sentence_is_the_players():
    sink = ThreadSink()
    sp = speaker(sink)
    try:
        me = threading.get_ident()
        sp.say("C'est au tour de Marie de lancer le dé.", Priority.MESSAGE)
        n = len(sink.by)
        sp.say("Zoé gagne.", Priority.MESSAGE)  # queued behind the first
        assert sp.wait(20)
        assert [r.text for r in sink.items] == ["C'est au tour de Marie de lancer le dé.", "Zoé gagne."]
        assert all(t != me for t, _, _ in sink.by[n:])
        assert all(not r.cut and r.seconds > 0.4 for r in sink.items)
    finally:
        sp.close()


def test_cut_right_after_say_ends_the_sentence_and_the_next_one_is_said():
    sink = GatedSink()
    sp = speaker(sink)
    try:
        sp.say("Une longue lecture des règles qui dure bien plus de quelques secondes.", Priority.TEXT)
        sp.interrupt()
        n = len(sink.by)  # the asking thread's first block, and at most the one the player holds
        sink.gate.set()
        assert sp.wait(10)
        assert sink.items[0].cut and len(sink.by) == n  # not one block after interrupt()
        assert sum(f for _t, f, _sr in sink.by) < sink.by[0][2] * 2  # cut well before its end
        sp.say("Marie joue.", Priority.TEXT)
        assert sp.wait(10)
        assert not sink.items[1].cut and sink.items[1].seconds > 0.4
    finally:
        sp.close()


def test_a_refused_voice_falls_back_to_the_default_one_through_the_player():
    sink = ThreadSink()
    sp = speaker(sink, Profile(language="fr", voice="xx-klingon"))
    try:
        sp.say("Bonjour.", Priority.TEXT)
        assert sp.wait(10)
        assert sink.items[0].seconds > 0.3 and loud(sink)
        assert any("xx-klingon" in e for e in sp.player.errors)
    finally:
        sp.close()


def test_the_listeners_hear_speaking_then_done():
    sink = ThreadSink()
    sp = speaker(sink)
    heard: list[bool] = []
    sp.player.add_listener(heard.append)
    try:
        sp.say("Six points.", Priority.TEXT)
        assert sp.wait(10)
        assert heard == [True, False]
    finally:
        sp.close()
