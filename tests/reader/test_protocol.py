"""The Python codec against the shared vectors, the `cobs` package, and a fuzzer."""

from __future__ import annotations

import ast
import importlib.util
import random
import subprocess
import sys

import pytest
from cobs import cobs as cobs_lib
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import protocol as p
from companion.protocol import cobs

from .conftest import ROOT, VECTORS, all_frame_vectors, load


def as_json(msg: p.Message) -> dict:
    """The vectors' "message" notation of a decoded message."""
    if isinstance(msg, p.Hello):
        return {"kind": "hello", "version": msg.version, "firmware": list(msg.firmware),
                "reader_id": msg.reader_id, "capabilities": msg.capabilities, "slots": msg.slots}
    if isinstance(msg, p.Placed):
        return {"kind": "placed", "slot": msg.slot, "uid": msg.uid.hex(), "text": msg.text}
    if isinstance(msg, p.Removed):
        return {"kind": "removed", "slot": msg.slot, "uid": msg.uid.hex()}
    if isinstance(msg, p.Presence):
        return {"kind": "presence", "more": msg.more, "entries": [[s, u.hex()] for s, u in msg.entries]}
    if isinstance(msg, p.Button):
        return {"kind": "button", "button": msg.button, "press": msg.press}
    if isinstance(msg, p.Status):
        return {"kind": "status", "uptime": msg.uptime, "crc_errors": msg.crc_errors,
                "frames_dropped": msg.frames_dropped, "reader_faults": msg.reader_faults}
    if isinstance(msg, p.Ack):
        return {"kind": "ack", "acked": msg.acked, "code": msg.code}
    if isinstance(msg, p.WriteTag):
        return {"kind": "write_tag", "slot": msg.slot, "text": msg.text}
    if isinstance(msg, p.Led):
        return {"kind": "led", "red": msg.red, "green": msg.green, "blue": msg.blue}
    if isinstance(msg, p.Beep):
        return {"kind": "beep", "ms": msg.ms}
    if isinstance(msg, p.SlotReq):
        return {"kind": "slot_req", "slot": msg.slot}
    if isinstance(msg, p.Unknown):
        return {"kind": "unknown", "type": msg.type}
    if isinstance(msg, p.Malformed):
        return {"kind": "malformed", "type": msg.type}
    names = {p.HelloReq: "hello_req", p.Ping: "ping", p.StatusReq: "status_req"}
    return {"kind": names[type(msg)]}


VECTORS_ALL = all_frame_vectors()


@pytest.mark.parametrize("v", VECTORS_ALL, ids=[v["name"] for v in VECTORS_ALL])
def test_vector_decodes_as_specified(v):
    d = p.Decoder()
    got = d.feed(bytes.fromhex(v["hex"]))
    if not v["valid"]:
        assert got == []
        assert d.stats.dropped == 1
        assert d.stats.frames == 0
        reason = {"cobs": "cobs_errors", "length": "length_errors", "crc": "crc_errors",
                  "too_long": "too_long"}[v["reason"]]
        assert getattr(d.stats, reason) == 1
        return
    assert len(got) == 1 and d.stats.dropped == 0
    f = v["frame"]
    assert got[0].seq == f["seq"]
    assert p.FrameDecoder().feed(bytes.fromhex(v["hex"])) == [
        p.Frame(f["type"], f["seq"], bytes.fromhex(f["payload_hex"]))]
    assert as_json(got[0].message) == v["message"]


@pytest.mark.parametrize("v", [v for v in VECTORS_ALL if v["valid"]],
                         ids=[v["name"] for v in VECTORS_ALL if v["valid"]])
def test_vector_encodes_to_the_same_bytes(v):
    f = v["frame"]
    frame = p.Frame(f["type"], f["seq"], bytes.fromhex(f["payload_hex"]))
    assert p.encode_frame(frame).hex() == v["hex"]
    msg = p.parse_message(frame)
    if not isinstance(msg, p.Malformed):  # a typed message lays its payload out the same way
        assert frame.payload.startswith(msg.payload())  # (bytes after known fields are ignored)


@pytest.mark.parametrize("v", load("streams.json"), ids=[v["name"] for v in load("streams.json")])
def test_stream_resynchronises(v):
    data = bytes.fromhex(v["hex"])
    for chunking in (len(data), 1, 3):
        d = p.FrameDecoder()
        frames = []
        for i in range(0, len(data), chunking):
            frames += d.feed(data[i : i + chunking])
        assert [{"type": f.type, "seq": f.seq, "payload_hex": f.payload.hex()} for f in frames] == v["frames"]
        assert d.stats.dropped == v["dropped"]


def test_vectors_are_current():
    spec = importlib.util.spec_from_file_location("gen", VECTORS / "generate.py")
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    for name, make in gen.FILES.items():
        assert (VECTORS / name).read_text(encoding="utf-8") == gen.render(make), f"run generate.py: {name}"


def test_cobs_matches_the_cobs_package():
    rng = random.Random(13)
    for _ in range(800):
        n = rng.choice([0, 1, 2, 253, 254, 255, 256, 508, 509, rng.randrange(100)])
        data = bytes(rng.choice([0, 0, 1, 255, rng.randrange(256)]) for _ in range(n))
        assert cobs.encode(data) == cobs_lib.encode(data)
        assert cobs.decode(cobs_lib.encode(data)) == data
    assert cobs.decode(b"") is None and cobs.decode(b"\x05\x01") is None and cobs.decode(b"\x02\x00") is None


def test_every_message_round_trips():
    msgs = [
        p.Hello(1, (1, 2, 3), 0xDEADBEEF, p.CAP_LED | p.CAP_BUZZER, 4),
        p.Placed(0, bytes(range(1, 8)), "kikoi:kigliss-sleep"), p.Placed(9, b"\x01\x02\x03\x04"),
        p.Removed(1, bytes(range(10))), p.Presence(((0, b"abcd"), (1, b"abcdefg"))),
        p.Button(0, p.PRESS_LONG), p.Status(1, 2, 3, 4), p.Ack(5, p.ACK_NO_TAG),
        p.HelloReq(), p.Ping(), p.WriteTag(0, "kikoi:kiboss-house"), p.Led(1, 2, 3), p.Beep(300),
        p.StatusReq(), p.SlotReq(2),
    ]
    enc, dec = p.Encoder(250), p.Decoder()
    wire = b"".join(enc.encode(m)[1] for m in msgs)
    got = dec.feed(wire)
    assert [r.message for r in got] == msgs
    assert [r.seq for r in got] == [(250 + i) % 256 for i in range(len(msgs))]


def test_presence_parts_cut_a_big_snapshot():
    entries = [(s, bytes([s]) * 10) for s in range(12)]
    parts = p.presence_parts(entries)
    assert [len(x.entries) for x in parts] == [5, 5, 2]
    assert [x.more for x in parts] == [True, True, False]
    assert all(len(x.payload()) <= p.MAX_PAYLOAD for x in parts)
    assert [e for x in parts for e in x.entries] == entries


def test_encoder_refuses_what_cannot_be_sent():
    with pytest.raises(ValueError):
        p.Placed(0, b"\x01\x02\x03", "x").payload()
    with pytest.raises(ValueError):
        p.Placed(0, b"\x01\x02\x03\x04", "é" * 30).payload()
    with pytest.raises(ValueError):
        p.Frame(1, 0, bytes(65))


# --- fuzzing: no input makes the decoder raise, and it always recovers -----------------------

SOUND = [p.encode_frame(p.Frame(0x02, 7, bytes([0, 4, 1, 2, 3, 4, 0])))]


def _check_recovers(data: bytes) -> None:
    d = p.Decoder()
    d.feed(data)  # anything at all
    s = d.stats
    assert s.frames + s.dropped <= data.count(0) + 1
    # after a delimiter, a sound frame always comes through
    got = d.feed(b"\x00" + SOUND[0])
    assert got and got[-1].message == p.Placed(0, b"\x01\x02\x03\x04", "")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_random_bytes(data):
    _check_recovers(data)


frames_st = st.builds(
    lambda t, s, pl: p.encode_frame(p.Frame(t, s, pl)),
    st.integers(0, 255), st.integers(0, 255), st.binary(max_size=64),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(frames_st, min_size=1, max_size=5), st.data())
def test_fuzz_damaged_frames(frames, data):
    wire = bytearray(b"".join(frames))
    kind = data.draw(st.sampled_from(["truncate", "flip", "zero", "drop"]))
    at = data.draw(st.integers(0, len(wire) - 1))
    if kind == "truncate":
        wire = wire[:at]
    elif kind == "flip":
        wire[at] ^= 1 << data.draw(st.integers(0, 7))
    elif kind == "zero":
        wire.insert(at, 0)
    else:
        del wire[at]
    _check_recovers(bytes(wire))
    got = p.FrameDecoder().feed(bytes(wire))
    # frames that came through whole are among those sent (a CRC collision aside)
    sent = {p.FrameDecoder().feed(f)[0] for f in frames}
    assert sum(1 for f in got if f not in sent) <= 1


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=64))
def test_fuzz_any_sound_frame_parses_without_raising(t, s, payload):
    msg = p.parse_message(p.Frame(t, s, payload))
    assert isinstance(msg, p.Message)


# --- the package's imports: standard library only -------------------------------------------


def test_protocol_imports_only_the_standard_library():
    for path in (ROOT / "companion" / "protocol").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                ok = top in sys.stdlib_module_names or top == "__future__" or name.startswith("companion.protocol")
                assert ok, f"{path.name} imports {name}"


def test_protocol_loads_alone():
    code = "import sys, companion.protocol; print(sorted(m for m in sys.modules if m.startswith('companion')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert all(m == "companion" or m.startswith("companion.protocol") for m in eval(out))
