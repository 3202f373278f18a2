"""The priority policy, pure: every pair of priorities, and every sequence of up to four
steps, on `SpeechQueue` with a counter for a clock. No thread, no sound, no sleep."""

import itertools

import pytest

from companion.narration import Priority
from companion.outputs.audio.policy import CUT_BY_INPUT, SpeechQueue, cuts_playing

P = list(Priority)
IMP, MSG, TXT, NOTE = Priority.IMPORTANT, Priority.MESSAGE, Priority.TEXT, Priority.NOTIFICATION


class Counter:
    """The injected clock: each reading is one tick later."""

    def __init__(self):
        self.now = 0

    def __call__(self):
        self.now += 1
        return self.now


def fresh():
    return SpeechQueue(clock=Counter())


def ask(q, priority, text=None):
    item = q.new_item(text or priority.name.lower(), priority)
    return item, q.submit(item)


# --- what a new utterance does to the one playing: all 16 pairs ---------------------------

# (playing, new) -> is the one playing cut?
CUTS = {
    (IMP, IMP): False, (IMP, MSG): False, (IMP, TXT): False, (IMP, NOTE): False,
    (MSG, IMP): False, (MSG, MSG): False, (MSG, TXT): False, (MSG, NOTE): False,
    (TXT, IMP): True, (TXT, MSG): False, (TXT, TXT): False, (TXT, NOTE): False,
    (NOTE, IMP): True, (NOTE, MSG): True, (NOTE, TXT): True, (NOTE, NOTE): False,
}


@pytest.mark.parametrize("playing, new", list(itertools.product(P, P)))
def test_a_new_utterance_and_the_one_playing(playing, new):
    q = fresh()
    a, _ = ask(q, playing)
    assert q.start_next() is a
    b, d = ask(q, new)
    assert cuts_playing(new, playing) == CUTS[playing, new]
    assert a.cut == CUTS[playing, new] and (d.stop is a) == CUTS[playing, new]
    assert not a.dropped and not a.over  # cut or not, the player ends it (finish)
    if new == NOTE:  # a notification while something plays is dropped at once
        assert b.dropped and b.over and d.over == [b] and q.pending == ()
    else:
        assert not b.dropped and q.pending == (b,) and d.over == []
    q.finish(a)
    assert q.start_next() is (None if new == NOTE else b)


# --- what waits for what: every pair queued behind something playing --------------------


@pytest.mark.parametrize("first, second", list(itertools.product(P, P)))
def test_two_utterances_waiting(first, second):
    q = fresh()
    playing, _ = ask(q, MSG)
    q.start_next()
    a, _ = ask(q, first)
    b, d = ask(q, second)
    waiting = [x for x in (a, b) if x.priority != NOTE]
    if first == NOTE:
        assert a.dropped  # something was playing
    if second == NOTE:
        assert b.dropped and d.over == [b]
    # the others wait in priority order, then the order asked
    assert list(q.pending) == sorted(waiting, key=lambda x: (x.priority, x.seq))
    q.finish(playing)
    said = []
    while (x := q.start_next()) is not None:
        said.append(x)
        q.finish(x)
    assert said == sorted(waiting, key=lambda x: (x.priority, x.seq))
    assert all(x.over for x in (playing, a, b))


@pytest.mark.parametrize("queued, new", list(itertools.product(P, P)))
def test_a_new_utterance_and_one_waiting_with_nothing_playing(queued, new):
    q = fresh()
    a, _ = ask(q, queued)  # alone: a notification too is queued
    assert not a.dropped and q.pending == (a,)
    b, _ = ask(q, new)
    if new == NOTE:
        assert b.dropped  # something waits
        assert q.pending == (a,)
    elif queued == NOTE:
        assert a.dropped and a.over and q.pending == (b,)  # pushed out by something useful
    else:
        assert list(q.pending) == sorted([a, b], key=lambda x: (x.priority, x.seq))


# --- what a key press cuts: each priority, playing and waiting ----------------------------


@pytest.mark.parametrize("playing", P)
@pytest.mark.parametrize("waiting", P)
def test_interrupt_cuts_text_and_notifications_only(playing, waiting):
    q = fresh()
    a, _ = ask(q, playing)
    q.start_next()
    b, _ = ask(q, waiting)
    already = cuts_playing(waiting, playing)  # (a notification playing is cut by any other)
    assert a.cut == already
    d = q.interrupt()
    assert a.cut == (already or playing in CUT_BY_INPUT)
    assert (d.stop is a) == (playing in CUT_BY_INPUT and not already)  # cut once, not twice
    if waiting == NOTE:
        assert b.dropped  # (refused on arrival: something was playing)
    elif waiting == TXT:
        assert b.cut and b.over and b in d.over and q.pending == ()
    else:
        assert not b.cut and q.pending == (b,)


def test_interrupt_when_nothing_is_said_changes_nothing():
    q = fresh()
    d = q.interrupt()
    assert d.over == [] and d.stop is None and not q.busy


def test_close_cuts_everything_even_important():
    q = fresh()
    a, _ = ask(q, IMP)
    q.start_next()
    b, _ = ask(q, MSG)
    d = q.close()
    assert a.cut and d.stop is a and b.cut and d.over == [b]
    c, d2 = ask(q, IMP)
    assert c.dropped and d2.over == [c]


def test_times_come_from_the_injected_clock():
    q = fresh()
    a, _ = ask(q, MSG)  # tick 1
    b, _ = ask(q, TXT)  # tick 2
    assert (a.submitted, b.submitted) == (1, 2)
    q.start_next()  # tick 3
    q.finish(a)  # tick 4
    q.interrupt()  # b cut: tick 5
    assert (a.started, a.ended, b.started, b.ended) == (3, 4, None, 5)


def test_the_player_takes_one_at_a_time():
    q = fresh()
    a, _ = ask(q, MSG)
    ask(q, MSG)
    q.start_next()
    with pytest.raises(RuntimeError):
        q.start_next()
    with pytest.raises(RuntimeError):
        q.finish(q.pending[0])
    q.finish(a)


# --- every sequence of up to four steps keeps the promises --------------------------------

STEPS = [("say", p) for p in P] + [("interrupt", None), ("start", None), ("finish", None)]


def run(steps):
    """Play `steps`, then let the player say everything left; return the items and a log."""
    q = fresh()
    items, log = [], []  # log: (step index, what, item)
    for i, (what, prio) in enumerate(steps):
        if what == "say":
            busy = q.busy
            item, d = ask(q, prio, f"u{i}")
            items.append((item, busy))
            log.append((i, "say", item, d))
        elif what == "interrupt":
            log.append((i, "interrupt", None, q.interrupt()))
        elif what == "start":
            if q.current is None:
                item = q.start_next()
                log.append((i, "start", item, None))
        elif q.current is not None:
            log.append((i, "finish", q.current, None))
            q.finish(q.current)
    if q.current is not None:
        q.finish(q.current)
    said = []
    while (x := q.start_next()) is not None:
        said.append(x)
        q.finish(x)
    return q, items, log, said


@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_every_sequence_keeps_the_promises(length):
    checked = 0
    for steps in itertools.product(STEPS, repeat=length):
        q, items, log, said = run(list(steps))
        checked += 1
        assert not q.busy
        starts = [e[2] for e in log if e[1] == "start" and e[2] is not None] + said
        for item, busy_on_arrival in items:
            assert item.over, steps  # every item ends
            assert starts.count(item) <= 1, steps  # and is played at most once
            cut_by = [e for e in log if e[3] is not None and (e[3].stop is item or item in e[3].over)]
            if item.priority in (IMP, MSG):
                assert not item.cut and not item.dropped and item in starts, steps  # never lost
            if item.cut:  # only a key press or an IMPORTANT cuts a TEXT; a NOTIFICATION by anything
                whys = {e[1] if e[1] == "interrupt" else e[2].priority for e in cut_by}
                if item.priority == TXT:
                    assert whys <= {"interrupt", IMP}, steps
            if item.dropped:
                assert item.priority == NOTE, steps
                assert busy_on_arrival or any(
                    e[1] == "say" and e[2].priority != NOTE and item in e[3].over for e in log
                ), steps
            if item.priority == NOTE and not busy_on_arrival and not item.dropped and not item.cut:
                assert item in starts, steps
        # whenever the player took an item, it was the first in (priority, order asked)
        q2 = fresh()
        for what, prio in steps:
            if what == "say":
                ask(q2, prio)
            elif what == "interrupt":
                q2.interrupt()
            elif what == "start" and q2.current is None:
                expected = min(q2.pending, key=lambda x: (x.priority, x.seq), default=None)
                assert q2.start_next() is expected, steps
            elif what == "finish" and q2.current is not None:
                q2.finish(q2.current)
    assert checked == len(STEPS) ** length
