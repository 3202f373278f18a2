"""The player's promises, checked over random sequences of say() and interrupt() from
several threads (the recording output played ten times faster than real time)."""

import random
import threading
import time

import pytest

from companion.narration import Priority
from companion.outputs.audio.sinks import RecordingSink
from companion.outputs.profile import Profile
from companion.outputs.speaker import Speaker
from companion.outputs.speech import get_engine


class FastSink(RecordingSink):
    """A block of 10 ms takes 1 ms."""

    def __init__(self):
        super().__init__(realtime=False, keep_audio=False)

    def write(self, block, sr):
        super().write(block, sr)
        time.sleep(len(block) / sr / 10)


@pytest.mark.parametrize("seed", range(6))
def test_random_sequences_keep_the_promises(seed):
    eng = get_engine("recording")
    sp = Speaker(eng, FastSink(), "fr", Profile(rate=450))
    log = []  # (time, "say"/"interrupt", item)
    lock = threading.Lock()

    def actor(k):
        r = random.Random(seed * 100 + k)
        for i in range(12):
            if r.random() < 0.2:
                with lock:
                    log.append((time.perf_counter(), "interrupt", None))
                    sp.interrupt()
            else:
                prio = r.choice(list(Priority))
                text = f"{k}{i}" + "x" * r.randint(0, 30)
                with lock:
                    item = sp.say(text, prio)
                    log.append((time.perf_counter(), "say", item))
            time.sleep(r.random() * 0.01)  # random interleavings of the actors (no wait for anything)

    threads = [threading.Thread(target=actor, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sp.wait(20)
    recs = {id(r): r for r in sp.recording.items}
    by_item = {item: sp.recording.record(item) for _, kind, item in log if kind == "say"}
    assert len(recs) == len(by_item)
    for item, r in by_item.items():
        assert item.done.is_set()
        full = eng.duration(item.text, 450)
        if item.priority in (Priority.IMPORTANT, Priority.MESSAGE):
            assert not r.cut and not r.dropped, (item.priority, item.text)
            assert r.seconds == pytest.approx(full, abs=0.011)
        if r.cut and item.priority == Priority.TEXT:
            # only new input or an important message cuts a text
            later = [(t, k, it) for t, k, it in log if t > r.submitted - 0.001]
            assert any(k == "interrupt" or (it is not None and it.priority == Priority.IMPORTANT)
                       for t, k, it in later)
        if not r.cut and not r.dropped:
            assert r.seconds == pytest.approx(full, abs=0.011)
    # messages of one thread are said in the order they were asked for
    for k in range(3):
        said = [it.text for _, kind, it in log
                if kind == "say" and it.priority == Priority.MESSAGE and it.text.startswith(str(k))]
        order = sorted((r.started, r.text) for it, r in by_item.items()
                       if it.priority == Priority.MESSAGE and it.text.startswith(str(k)))
        assert [t for _, t in order] == said
    # one item at a time: no block of one item between the blocks of another
    spans = sorted((r.blocks[0][0], r.blocks[-1][0]) for r in by_item.values() if r.blocks)
    for (_, a1), (b0, _) in zip(spans, spans[1:], strict=False):
        assert a1 <= b0
    sp.close()
