"""The host's reconciliation (ReaderTracker), message by message: no phantom, nothing twice."""

from __future__ import annotations

from companion import protocol as p
from companion.inputs.reader.device import ReaderTracker
from companion.inputs.reader.events import (
    ButtonPressed,
    ReaderHello,
    ReaderTooNew,
    TokenPlaced,
    TokenRemoved,
)

UID = bytes.fromhex("04a1b2c3d4e5f6")
UID2 = bytes.fromhex("a1b2c3d4")
HELLO = p.Hello(1, (1, 0, 0), 0xC0FFEE01, p.CAP_LED, 4)


class Line:
    def __init__(self) -> None:
        self.t = ReaderTracker()
        self.seq = 0
        self.now = 0.0
        self.requests: list[p.Message] = []

    def __call__(self, *msgs: p.Message, skip: int = 0) -> list:
        out = []
        self.seq += skip
        for m in msgs:
            self.now += 0.1
            events, reqs = self.t.handle(p.Received(self.seq & 0xFF, m), self.now)
            self.seq += 1
            out += events
            self.requests += reqs
        return out


def presence(*entries):
    return p.Presence(tuple(entries))


def test_hello_then_placed_confirmed_by_presence():
    line = Line()
    assert line(HELLO) == [ReaderHello("c0ffee01", 1, "1.0.0", 4, ("led",))]
    assert line(p.Placed(0, UID, "kikoi:kigliss-sleep")) == []  # not yet: PRESENCE must agree
    assert line(presence((0, UID))) == [TokenPlaced("c0ffee01", 0, UID.hex(), "kikoi:kigliss-sleep")]
    assert line(presence((0, UID))) == []  # heartbeat: nothing new
    assert line(p.Removed(0, UID), presence()) == [TokenRemoved("c0ffee01", 0, UID.hex(), "kikoi:kigliss-sleep")]
    assert line(presence()) == []


def test_nothing_before_a_hello_and_too_new_is_ignored():
    line = Line()
    assert line(p.Placed(0, UID, "x"), presence((0, UID))) == []
    assert line(p.Hello(2, (9, 0, 0), 1, 0, 1)) == [ReaderTooNew("00000001", 2)]
    assert line(p.Placed(0, UID, "x"), presence((0, UID))) == []
    assert line.t.counters["ignored"] == 4


def test_placed_not_confirmed_is_dropped():
    line = Line()
    line(HELLO)
    assert line(p.Placed(1, UID, "phantom"), presence()) == []
    assert line.t.counters["unconfirmed"] == 1
    assert line(presence()) == []


def test_unannounced_token_asks_its_text_and_needs_a_second_presence():
    line = Line()
    line(HELLO)
    assert line(presence((2, UID))) == []            # the PLACED was lost
    assert line.requests == [p.SlotReq(2)]
    assert line(p.Placed(2, UID, "kikoi:kiboss-house"), p.Ack(0)) == []  # the answer
    assert line(presence((2, UID))) == [TokenPlaced("c0ffee01", 2, UID.hex(), "kikoi:kiboss-house")]


def test_a_single_presence_cannot_invent_a_token():
    line = Line()
    line(HELLO)
    assert line(presence((3, UID2))) == []           # e.g. a frame falsely accepted by the CRC
    assert line(presence()) == []                    # gone at the next one: never reported
    assert line(presence(), presence()) == []


def test_token_without_text_is_reported_after_three_presences():
    line = Line()
    line(HELLO)
    assert line(presence((0, UID2)), presence((0, UID2))) == []
    assert line(presence((0, UID2))) == [TokenPlaced("c0ffee01", 0, UID2.hex(), None)]


def test_missing_without_removed_needs_two_presences():
    line = Line()
    line(HELLO, p.Placed(0, UID, "a"), presence((0, UID)))
    assert line(presence()) == []                    # once: maybe a part was lost
    assert line(presence()) == [TokenRemoved("c0ffee01", 0, UID.hex(), "a")]


def test_a_different_token_on_the_slot_replaces_the_first():
    line = Line()
    line(HELLO, p.Placed(0, UID, "a"), presence((0, UID)))
    ev = line(p.Removed(0, UID), p.Placed(0, UID2, "b"), presence((0, UID2)))
    assert ev == [TokenRemoved("c0ffee01", 0, UID.hex(), "a"), TokenPlaced("c0ffee01", 0, UID2.hex(), "b")]


def test_snapshot_in_parts_and_a_lost_part():
    line = Line()
    line(HELLO)
    uids = [bytes([s]) * 10 for s in range(7)]
    parts = p.presence_parts(list(enumerate(uids)))
    assert len(parts) == 2
    placed = [p.Placed(s, u, f"t{s}") for s, u in enumerate(uids)]
    ev = line(*placed, *parts)
    assert [e.slot for e in ev] == list(range(7))
    # the first part of the next snapshot is lost: the second alone must not remove anything
    assert line(parts[1], skip=1) == []
    assert line(*parts) == []


def test_reboot_hello_is_reported_and_tokens_survive():
    line = Line()
    line(HELLO, p.Placed(0, UID, "a"), presence((0, UID)))
    line.seq = 0
    assert line(HELLO) == [ReaderHello("c0ffee01", 1, "1.0.0", 4, ("led",))]
    assert line(presence(), p.Placed(0, UID, "a"), presence((0, UID)), presence((0, UID))) == []


def test_button():
    line = Line()
    line(HELLO)
    assert line(p.Button(1, p.PRESS_SHORT)) == [ButtonPressed("c0ffee01", 1, False)]
