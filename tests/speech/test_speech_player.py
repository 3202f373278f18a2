"""Priorities, interruption, repeat and spelling, live settings: on the recording output.

The recording output is paced like a sound device (a 4 ms block takes 4 ms), and the
recording engine makes a tone as long as the text would take to say (1 character = 1/17.5 s
at 175 words a minute). No test here asserts how fast anything happens on the clock: a cut
is checked with a gated output that holds the player inside a write while `interrupt()`
is called, and counts the blocks handed over afterwards (the benchmark measures times).
"""

import shutil
import threading

import numpy as np
import pytest

from companion.narration import Priority, catalog, spell
from companion.outputs.audio.player import BLOCK_MS
from companion.outputs.audio.sinks import FileSink, NullSink, RecordingSink
from companion.outputs.earcons import earcon
from companion.outputs.profile import Profile
from companion.outputs.speaker import Speaker, open_speaker
from companion.outputs.speech import get_engine
from tests.waiting import WAIT, until

LONG = "Une longue lecture des règles qui dure bien plus de quelques secondes, " * 3
SHORT = "Marie joue."  # 11 characters: 0.24 s at FAST
FAST = 450


@pytest.fixture
def speaker(tmp_path):
    profile = Profile.load(tmp_path / "p.json")
    profile.rate = FAST  # the quickest rate: short tests
    sp = open_speaker("recording", "recording", "fr", profile=profile)
    yield sp
    sp.close()


def started(item_rec, timeout=WAIT):
    until(lambda: item_rec.first_frame is not None, "nothing was played", timeout)


def rec(sp, i):
    return sp.recording.items[i]


class GatedSink(RecordingSink):
    """Holds the player inside its `at`-th write until released; counts every write and
    every wake-up (the player's "stop waiting for the device")."""

    def __init__(self, at):
        super().__init__(realtime=False)
        self.at = at
        self.writes = 0
        self.wakes = 0
        self.reached = threading.Event()
        self.release = threading.Event()

    def write(self, block, sr):
        super().write(block, sr)
        self.writes += 1
        if self.writes == self.at:
            self.reached.set()
            self.release.wait(10)

    def wake(self):
        self.wakes += 1


def cut_while_writing(sp, sink):
    """interrupt() while the player is inside a write; the writes handed over before."""
    assert sink.reached.wait(10), "the player never got that far"
    before = sink.writes
    sp.interrupt()
    sink.release.set()
    assert sp.wait(10)
    return before


@pytest.mark.parametrize("at", [1, 2, 17])
def test_interrupt_stops_the_text_at_the_block_being_written(at):
    sink = GatedSink(at)
    sp = Speaker(get_engine("recording"), sink, "fr", Profile(rate=FAST))
    try:
        sp.say(LONG, Priority.TEXT)
        before = cut_while_writing(sp, sink)
        r = sink.items[0]
        assert r.cut and sink.writes == before == at  # not one block more after interrupt()
        assert sink.wakes == 1  # and a device waiting for room was told to stop waiting
        # what was handed over and still to be heard: the last block, 4 ms
        assert r.blocks[-1][1] / r.blocks[-1][2] == pytest.approx(BLOCK_MS / 1000, abs=1 / 16000)
    finally:
        sp.close()


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_interrupt_with_real_espeak_stops_the_sound_and_the_synthesis():
    sink = GatedSink(at=10)
    sp = Speaker(get_engine("espeak-ng"), sink, "fr")
    try:
        sp.say(LONG * 3, Priority.TEXT)  # about a minute of speech
        before = cut_while_writing(sp, sink)
        assert sink.items[0].cut and sink.writes == before
        assert sink.items[0].seconds < 1.0
    finally:
        sp.close()


def test_important_and_message_are_never_cut_by_input(speaker):
    speaker.say(SHORT, Priority.IMPORTANT)
    speaker.say(SHORT, Priority.MESSAGE)
    speaker.say(SHORT, Priority.TEXT)
    started(rec(speaker, 0))
    speaker.interrupt()
    assert speaker.wait(5)
    imp, msg, txt = speaker.recording.items
    assert not imp.cut and not msg.cut
    full = get_engine("recording").duration(SHORT, FAST)
    assert imp.seconds == pytest.approx(full, abs=0.01)
    assert msg.seconds == pytest.approx(full, abs=0.01)
    assert txt.cut and txt.blocks == []  # queued text is dropped by new input


def test_queue_order_by_priority(speaker):
    speaker.say(SHORT, Priority.MESSAGE)  # playing
    started(rec(speaker, 0))
    speaker.say("texte a", Priority.TEXT)
    speaker.say("message b", Priority.MESSAGE)
    speaker.say("important c", Priority.IMPORTANT)
    speaker.say("message d", Priority.MESSAGE)
    assert speaker.wait(10)
    order = sorted(speaker.recording.items, key=lambda r: r.started)
    assert [r.text for r in order] == [SHORT, "important c", "message b", "message d", "texte a"]
    assert not any(r.cut for r in order)


def test_important_cuts_text_being_read_but_not_a_message(speaker):
    speaker.say(LONG, Priority.TEXT)
    started(rec(speaker, 0))
    speaker.say("Erreur.", Priority.IMPORTANT)
    assert speaker.wait(3)
    assert rec(speaker, 0).cut and not rec(speaker, 1).cut
    speaker.say(SHORT, Priority.MESSAGE)
    started(rec(speaker, 2))
    speaker.say("Erreur.", Priority.IMPORTANT)
    assert speaker.wait(3)
    assert not rec(speaker, 2).cut and rec(speaker, 3).first_frame > rec(speaker, 2).last_frame


def test_notifications_dropped_when_anything_else_waits(speaker):
    speaker.say("notif seule", Priority.NOTIFICATION)  # alone: said
    assert speaker.wait(3)
    speaker.say(SHORT, Priority.MESSAGE)
    speaker.say("notif 2", Priority.NOTIFICATION)  # something is playing: dropped
    assert speaker.wait(3)
    alone, msg, n2 = speaker.recording.items
    assert alone.blocks and not alone.dropped
    assert n2.dropped and not n2.blocks


def test_a_notification_being_said_is_cut_by_any_other_item(speaker):
    speaker.say(LONG, Priority.NOTIFICATION)
    started(rec(speaker, 0))
    speaker.say(SHORT, Priority.MESSAGE)
    assert speaker.wait(3)
    n, m = speaker.recording.items
    assert n.cut and not m.cut and m.first_frame >= n.last_frame


def test_repeat_says_again_even_identical_and_twice_spells(speaker):
    speaker.say("Trois points.", Priority.MESSAGE)
    speaker.repeat()
    speaker.repeat()
    assert speaker.wait(5)
    texts = speaker.recording.texts()
    assert texts == ["Trois points.", "Trois points.", spell("Trois points.")]
    assert all(r.blocks for r in speaker.recording.items)
    speaker.say("Autre.", Priority.MESSAGE)
    speaker.repeat()  # a new sentence resets the count: said again, not spelled
    assert speaker.wait(5)
    assert speaker.recording.texts()[-1] == "Autre."


def test_repeat_before_anything_said_does_nothing(speaker):
    assert speaker.repeat() is None


def test_rate_changes_live_and_is_saved(speaker, tmp_path):
    speaker.set_rate(175)
    speaker.say("x" * 14, Priority.MESSAGE)
    assert speaker.wait(5)
    speaker.set_rate(350)
    speaker.say("x" * 14, Priority.MESSAGE)
    assert speaker.wait(5)
    a, b = speaker.recording.items
    assert a.seconds == pytest.approx(0.8, abs=0.02) and b.seconds == pytest.approx(0.4, abs=0.02)
    assert Profile.load(tmp_path / "p.json").rate == 350
    assert speaker.rate == 350


def test_volume_changes_during_an_utterance(speaker, tmp_path):
    speaker.say(LONG, Priority.TEXT)
    started(rec(speaker, 0))
    audio = speaker.recording.audio
    until(lambda: audio, "a block played at the first volume")
    speaker.set_volume(25)
    until(lambda: abs(float(np.max(np.abs(audio[-1][0]))) - 0.125) <= 0.01, "a block played at the new volume")
    speaker.interrupt()
    speaker.wait(WAIT)
    peaks = [float(np.max(np.abs(b))) for b, _ in audio]
    assert peaks[0] == pytest.approx(0.5, abs=0.01)
    assert peaks[-1] == pytest.approx(0.125, abs=0.01)
    assert Profile.load(tmp_path / "p.json").volume == 25


def test_voice_set_and_unknown_voice_refused(tmp_path):
    sp = open_speaker("espeak-ng", "null", "fr", profile=Profile.load(tmp_path / "v.json"))
    try:
        ok = sp.set_voice("fr-be")
        assert ok.parts[0].id == "speech.voice_set" and sp.voice == "fr-be"
        bad = sp.set_voice("klingon")
        assert bad.parts[0].id == "speech.voice_unknown" and sp.voice == "fr-be"
        assert "fr" in catalog("fr").render(bad)
        assert Profile.load(tmp_path / "v.json").voice == "fr-be"
        sp.set_voice(None)
        assert sp.voice is None
    finally:
        sp.close()


def test_earcon_is_played_before_the_speech(speaker):
    speaker.say(SHORT, Priority.MESSAGE, earcon="turn")
    assert speaker.wait(3)
    samples, sr = earcon("turn")
    r = rec(speaker, 0)
    at_earcon_rate = sum(n for _, n, s in r.blocks if s == sr)
    assert at_earcon_rate == len(samples)
    assert r.blocks[0][2] == sr  # first comes the earcon
    speaker.play_earcon("good")
    assert speaker.wait(3)
    assert rec(speaker, 1).seconds == pytest.approx(len(earcon("good")[0]) / sr)


def test_unknown_earcon_is_skipped_not_fatal(speaker):
    speaker.say(SHORT, Priority.MESSAGE, earcon="trumpet")
    assert speaker.wait(3)
    assert rec(speaker, 0).blocks and not speaker.player.errors


def test_wait_with_timeout(speaker):
    speaker.say(LONG, Priority.MESSAGE)
    assert speaker.wait(0.05) is False
    speaker.close()
    assert speaker.wait(1) is True


def test_close_while_speaking_does_not_hang_and_later_say_is_dropped(speaker):
    speaker.say(LONG, Priority.IMPORTANT)
    started(rec(speaker, 0))
    speaker.close()
    assert not speaker.player._thread.is_alive()  # the player has stopped, IMPORTANT or not
    assert rec(speaker, 0).cut
    item = speaker.say("après", Priority.MESSAGE)
    assert item.done.is_set() and item.dropped


def test_say_from_many_threads(speaker):
    def talk(k):
        for i in range(5):
            speaker.say(f"{k}{i}", Priority.MESSAGE)

    threads = [threading.Thread(target=talk, args=(k,)) for k in "abcd"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert speaker.wait(10)
    said = speaker.recording.texts(said_only=True)
    assert sorted(said) == sorted(f"{k}{i}" for k in "abcd" for i in range(5))
    for k in "abcd":  # each thread's messages in its own order
        assert [s for s in said if s[0] == k] == [f"{k}{i}" for i in range(5)]


def test_text_engine_goes_through_the_queue_without_audio():
    sp = open_speaker("text", "recording", "en")
    try:
        sp.say("Hello.", Priority.MESSAGE, earcon="move")
        assert sp.wait(2)
        r = rec(sp, 0)
        assert r.started is not None and r.seconds == pytest.approx(len(earcon("move")[0]) / 22050)
        lines = [catalog("en").render(u) for u in sp.describe()]
        assert lines == ["Voice: none. The text is printed for your screen reader.", "Output: recorded in memory."]
    finally:
        sp.close()


class FailingSink(RecordingSink):
    kind = "device"

    def __init__(self, after):
        super().__init__(realtime=False)
        self.after = after

    def write(self, block, sr):
        self.after -= 1
        if self.after < 0:
            raise OSError("device unplugged")
        super().write(block, sr)


def test_device_failing_while_playing_falls_back_to_the_file_and_says_so(tmp_path):
    wav = tmp_path / "fallback.wav"
    sp = Speaker(get_engine("recording"), FailingSink(after=5), "fr", fallback_wav=wav)
    try:
        sp.say(SHORT, Priority.MESSAGE)
        sp.wait(3)
        sp.say(SHORT, Priority.MESSAGE)
        assert sp.wait(3)
        assert isinstance(sp.sink, FileSink)
        notes = [catalog("fr").render(u) for u in sp.notices()]
        assert notes == [f"Sortie : pas de carte son, le son est écrit dans {wav}."]
        assert catalog("fr").render(sp.describe()[-1]) == notes[0]
        assert sp.notices() == []
    finally:
        sp.close()
    import soundfile as sf

    assert sf.info(str(wav)).duration == pytest.approx(get_engine("recording").duration(SHORT), abs=0.05)


def test_device_failing_without_fallback_goes_silent(tmp_path):
    sp = Speaker(get_engine("recording"), FailingSink(after=0), "en")
    try:
        sp.say(SHORT, Priority.MESSAGE)
        assert sp.wait(3)
        assert isinstance(sp.sink, NullSink)
        assert [u.parts[0].id for u in sp.notices()] == ["speech.output.no_device_silent"]
        sp.say(SHORT, Priority.MESSAGE)  # and it goes on without error
        assert sp.wait(3)
    finally:
        sp.close()


def test_pauses_of_an_utterance_are_heard_as_silence(speaker):
    from companion.narration import Pause, Raw, Utterance

    utt = Utterance((Raw("Un."), Pause(300), Raw("Deux.")), Priority.MESSAGE)
    speaker.say_utterance(utt)
    assert speaker.wait(3)
    r = rec(speaker, 0)
    assert r.text == "Un. Deux."
    eng = get_engine("recording")
    expected = eng.duration("Un.", FAST) + 0.3 + eng.duration("Deux.", FAST)
    assert r.seconds == pytest.approx(expected, abs=0.02)
    audio = np.concatenate([b for b, sr in speaker.recording.audio if sr == 22050])
    assert len(audio) == pytest.approx(0.3 * 22050, abs=2) and not audio.any()


def test_a_voice_that_is_not_installed_falls_back_to_the_default_voice(tmp_path):
    profile = Profile(language="fr", voice="xx-klingon")
    sp = open_speaker("espeak-ng", "recording", "fr", profile=profile)
    try:
        sp.say("Bonjour.", Priority.MESSAGE, earcon="move")
        sp.say("Au revoir.", Priority.MESSAGE)
        assert sp.wait(5)
        assert all(r.seconds > 0.3 for r in sp.recording.items)
        assert any("xx-klingon" in e for e in sp.player.errors)
    finally:
        sp.close()


def test_an_engine_failing_does_not_replace_the_output(tmp_path):
    class Broken(type(get_engine("recording"))):
        def stream(self, *a, **k):
            raise FileNotFoundError("espeak-ng vanished")

    sp = Speaker(Broken(), RecordingSink(), "fr", fallback_wav=tmp_path / "f.wav")
    try:
        sp.say("Bonjour.", Priority.MESSAGE)
        assert sp.wait(2)
        assert sp.sink.kind == "recording" and sp.notices() == []
        assert "espeak-ng vanished" in sp.player.errors[0]
    finally:
        sp.close()


def test_recorded_audio_goes_through_the_same_queue_and_is_cut_the_same_way(tmp_path):
    import soundfile as sf

    sr = 16000
    tone = (0.3 * np.sin(2 * np.pi * 440 * np.arange(5 * sr) / sr)).astype(np.float32)
    sf.write(str(tmp_path / "chapter.ogg"), np.stack([tone, tone], axis=1), sr, format="OGG")
    sink = GatedSink(at=5)
    sp = Speaker(get_engine("recording"), sink, "fr")
    try:
        sp.play_file(tmp_path / "chapter.ogg")
        before = cut_while_writing(sp, sink)
        r = sink.items[0]
        assert r.cut and sink.writes == before and r.text.endswith("chapter.ogg")
        sp.play_audio(tone[:1600], sr, Priority.MESSAGE)
        assert sp.wait(2)
        assert sink.items[1].seconds == pytest.approx(0.1)
        assert sp.repeat() is None  # recorded sound is not "the last thing said"
    finally:
        sp.close()


class StuckStream:
    """A sound server that stops answering: write blocks until the stream is aborted."""

    def __init__(self, ok_writes):
        self.ok_writes = ok_writes
        self.aborted = threading.Event()

    def write(self, data):
        self.ok_writes -= 1
        if self.ok_writes < 0:
            self.aborted.wait()

    def abort(self):
        self.aborted.set()

    def start(self):
        pass

    def close(self):
        pass


def test_a_stalled_sound_device_is_abandoned_not_waited_for(tmp_path, monkeypatch):
    from companion.outputs.audio.sinks import DeviceSink

    monkeypatch.setattr(DeviceSink, "STALL_SECONDS", 0.3)
    sink = object.__new__(DeviceSink)
    sink.device_name, sink.channel, sink.channels, sink.sample_rate = "stuck", None, 2, 22050
    stream = StuckStream(ok_writes=5)
    sink._attach(stream)
    sp = Speaker(get_engine("recording"), sink, "fr", fallback_wav=tmp_path / "f.wav")
    try:
        sp.say(SHORT, Priority.MESSAGE)
        sp.say(SHORT, Priority.MESSAGE)
        assert sp.wait(3)
        assert stream.aborted.is_set() and sink.stalled
        assert isinstance(sp.sink, FileSink)
        assert [u.parts[0].id for u in sp.notices()] == ["speech.output.no_device_file"]
    finally:
        sp.close()


def test_is_speaking_and_the_listeners_follow_what_is_said():
    sink = GatedSink(at=3)
    sp = Speaker(get_engine("recording"), sink, "fr", Profile(rate=FAST))
    heard = []
    sp.add_listener(heard.append)
    try:
        assert not sp.is_speaking()
        sp.say(SHORT, Priority.MESSAGE)
        assert sp.is_speaking()  # from the moment it is asked
        sp.say(SHORT, Priority.MESSAGE)
        assert sink.reached.wait(10)
        assert sp.is_speaking() and heard == [True]  # one change, not one per sentence
        sink.release.set()
        assert sp.wait(10)
        assert not sp.is_speaking() and heard == [True, False]
        sp.remove_listener(heard.append)
        sp.say(SHORT, Priority.MESSAGE)
        assert sp.wait(10) and heard == [True, False]
    finally:
        sp.close()


def test_a_failing_listener_does_not_stop_the_speech():
    def bad(_speaking):
        raise ValueError("listener bug")

    sp = Speaker(get_engine("recording"), RecordingSink(realtime=False), "fr")
    try:
        sp.add_listener(bad)
        sp.say(SHORT, Priority.MESSAGE)
        assert sp.wait(10) and sp.recording.items[0].blocks
        assert any("listener bug" in e for e in sp.player.errors)
    finally:
        sp.close()


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_two_speakers_speak_at_once_with_real_espeak():
    """The table and a private channel: each sentence has its own synthesis (one waiting for
    its listener must not hold the other back)."""
    from companion.outputs.speech.espeak import EspeakNgEngine

    eng = EspeakNgEngine(backend="library")
    sinks = [GatedSink(at=30), GatedSink(at=30)]
    speakers = [Speaker(eng, sink, "fr") for sink in sinks]
    try:
        for sp in speakers:
            sp.say(LONG, Priority.MESSAGE)
        # both are held inside a write, 30 blocks into their sentence, at the same time
        assert all(sink.reached.wait(20) for sink in sinks)
        for sink in sinks:
            sink.release.set()
        for sp in speakers:
            sp.interrupt()  # (MESSAGE: not cut) they finish
        assert all(sp.wait(60) for sp in speakers)
        assert all(not s.items[0].cut and s.items[0].seconds > 5 for s in sinks)
    finally:
        for sp in speakers:
            sp.close()
        eng.close()
