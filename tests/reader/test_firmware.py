"""The C firmware: its codec against the shared vectors (gcc, ctypes), the board build
(avr-gcc, size), and the very board program running in simavr on a pseudo-terminal."""

from __future__ import annotations

import ctypes
import re
import subprocess

import pytest

from companion import protocol as p

from .conftest import FIRMWARE, all_frame_vectors, load
from .firmware import BUILD, SimBoard, make


class CFrame(ctypes.Structure):
    _fields_ = [("type", ctypes.c_uint8), ("seq", ctypes.c_uint8), ("len", ctypes.c_uint8),
                ("payload", ctypes.c_uint8 * 64)]


class CDecoder(ctypes.Structure):
    _fields_ = [("buf", ctypes.c_uint8 * 69), ("n", ctypes.c_uint8), ("overflow", ctypes.c_uint8),
                ("frames", ctypes.c_uint16), ("cobs_errors", ctypes.c_uint16),
                ("length_errors", ctypes.c_uint16), ("crc_errors", ctypes.c_uint16),
                ("too_long", ctypes.c_uint16), ("last_drop", ctypes.c_uint8)]


@pytest.fixture(scope="module")
def lib():
    make("host")
    so = ctypes.CDLL(str(BUILD / "libreaderproto.so"))
    so.proto_decoder_push.restype = ctypes.c_int
    so.proto_encode.restype = ctypes.c_size_t
    so.proto_crc16.restype = ctypes.c_uint16
    so.crc_a.restype = ctypes.c_uint16
    so.ndef_text.restype = ctypes.c_uint8
    so.ndef_make.restype = ctypes.c_uint8
    return so


def c_feed(lib, data: bytes):
    d = CDecoder()
    lib.proto_decoder_init(ctypes.byref(d))
    out, f = [], CFrame()
    for b in data:
        if lib.proto_decoder_push(ctypes.byref(d), ctypes.c_uint8(b), ctypes.byref(f)):
            out.append({"type": f.type, "seq": f.seq, "payload_hex": bytes(f.payload[: f.len]).hex()})
    return out, d


VECTORS_ALL = all_frame_vectors()
DROP_FIELD = {"cobs": "cobs_errors", "length": "length_errors", "crc": "crc_errors", "too_long": "too_long"}


@pytest.mark.parametrize("v", VECTORS_ALL, ids=[v["name"] for v in VECTORS_ALL])
def test_c_decoder_passes_every_vector(lib, v):
    frames, d = c_feed(lib, bytes.fromhex(v["hex"]))
    if v["valid"]:
        assert frames == [v["frame"]]
    else:
        assert frames == [] and getattr(d, DROP_FIELD[v["reason"]]) == 1 and d.frames == 0


@pytest.mark.parametrize("v", [v for v in VECTORS_ALL if v["valid"]], ids=[v["name"] for v in VECTORS_ALL if v["valid"]])
def test_c_encoder_passes_every_vector(lib, v):
    payload = bytes.fromhex(v["frame"]["payload_hex"])
    out = (ctypes.c_uint8 * 70)()
    n = lib.proto_encode(ctypes.c_uint8(v["frame"]["type"]), ctypes.c_uint8(v["frame"]["seq"]),
                         payload, ctypes.c_size_t(len(payload)), out)
    assert bytes(out[:n]).hex() == v["hex"]


def test_c_encoder_refuses_a_long_payload(lib):
    out = (ctypes.c_uint8 * 70)()
    assert lib.proto_encode(1, 0, bytes(65), ctypes.c_size_t(65), out) == 0


@pytest.mark.parametrize("v", load("streams.json"), ids=[v["name"] for v in load("streams.json")])
def test_c_decoder_resynchronises(lib, v):
    frames, d = c_feed(lib, bytes.fromhex(v["hex"]))
    assert frames == v["frames"]
    assert d.cobs_errors + d.length_errors + d.crc_errors + d.too_long == v["dropped"]


def test_c_and_python_agree_on_random_damage(lib):
    import random

    rng = random.Random(7)
    for _ in range(300):
        wire = bytearray(b"".join(p.encode_frame(p.Frame(rng.randrange(256), rng.randrange(256),
                                                         rng.randbytes(rng.randrange(66) % 65)))
                                  for _ in range(3)))
        for _ in range(rng.randrange(4)):
            at = rng.randrange(len(wire))
            wire[at] = rng.choice([0, rng.randrange(256), wire[at] ^ (1 << rng.randrange(8))])
        c_frames, _ = c_feed(lib, bytes(wire))
        py = [{"type": f.type, "seq": f.seq, "payload_hex": f.payload.hex()} for f in p.FrameDecoder().feed(bytes(wire))]
        assert c_frames == py


def test_crc16_and_crc_a_known_values(lib):
    assert lib.proto_crc16(b"123456789", ctypes.c_size_t(9), ctypes.c_uint16(0xFFFF)) == 0x29B1  # CCITT-FALSE check
    assert p.crc16(b"123456789") == 0x29B1
    assert lib.crc_a(b"\x50\x00", ctypes.c_uint8(2)) == 0xCD57  # HLTA is 50 00 57 CD on the air


def test_ndef_text_record_round_trip(lib):
    text = b"kikoi:kigliss-sleep"
    tlv = (ctypes.c_uint8 * 80)()
    n = lib.ndef_make(text, ctypes.c_uint8(len(text)), tlv)
    mem = bytes(tlv[:n]).ljust(64, b"\x00")
    assert mem[:9] == bytes([0x03, len(text) + 7, 0xD1, 0x01, len(text) + 3, ord("T"), 0x02]) + b"en"
    out = ctypes.create_string_buffer(51)
    assert lib.ndef_text(bytes([0x01, 0x03, 0xA0, 0x0C, 0x34]) + mem[:59], ctypes.c_uint8(64), out, ctypes.c_uint8(51)) == len(text)
    assert out.raw[: len(text)] == text  # after a Lock Control TLV, as on NTAG213
    assert lib.ndef_text(bytes([0xFE]) + bytes(63), ctypes.c_uint8(64), out, ctypes.c_uint8(51)) == 0


# --- the board program --------------------------------------------------------------------------


def test_board_build_fits_the_atmega328p():
    make("all")
    assert (BUILD / "reader.hex").stat().st_size > 0
    out = subprocess.run(["avr-size", "-A", str(BUILD / "reader.elf")], capture_output=True, text=True, check=True).stdout
    sec = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\.(\w+)\s+(\d+)", out, re.M)}
    flash = sec["text"] + sec.get("data", 0)
    ram = sec.get("data", 0) + sec.get("bss", 0)
    assert flash <= 32768 - 512, flash  # leaves room for the Arduino bootloader (optiboot)
    assert ram <= 2048 - 768, ram       # leaves room for the stack


def test_four_slot_build_fits_too(tmp_path):
    make("all")  # the tools are there
    r = subprocess.run(["make", "-C", str(FIRMWARE), f"BUILD={tmp_path}", "SLOTS=4", "all"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    out = subprocess.run(["avr-size", "-A", str(tmp_path / "reader.elf")], capture_output=True, text=True, check=True).stdout
    sec = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\.(\w+)\s+(\d+)", out, re.M)}
    assert sec["text"] + sec.get("data", 0) <= 32768 - 512
    assert sec.get("data", 0) + sec.get("bss", 0) <= 2048 - 768


@pytest.fixture
def board():
    make("sim")
    b = SimBoard("reader-inject.hex")
    yield b
    b.close()


def test_simulated_board_says_hello_and_answers_ping(board):
    hello = board.wait_for(lambda r: isinstance(r.message, p.Hello))
    assert hello.seq == 0
    assert hello.message.version == 1 and hello.message.slots == 1
    seq = board.send(p.Ping())
    assert board.wait_for(lambda r: isinstance(r.message, p.Ack)).message == p.Ack(seq, p.ACK_OK)
    seq = board.send(p.HelloReq())
    board.wait_for(lambda r: isinstance(r.message, p.Hello))
    assert board.wait_for(lambda r: isinstance(r.message, p.Ack)).message == p.Ack(seq, p.ACK_OK)
    seq = board.send(p.Unknown(0xA5, b"\x01"))
    assert board.wait_for(lambda r: isinstance(r.message, p.Ack)).message == p.Ack(seq, p.ACK_UNKNOWN_TYPE)
    seq = board.send(p.SlotReq(0))
    assert board.wait_for(lambda r: isinstance(r.message, p.Ack)).message == p.Ack(seq, p.ACK_NO_TAG)
    board.port.write(b"\x05\x82\x07\x11\x22\x00")  # a damaged frame: dropped, counted
    seq = board.send(p.StatusReq())
    status = board.wait_for(lambda r: isinstance(r.message, p.Status)).message
    assert status.crc_errors == 1 and status.frames_dropped == 1
    assert board.wait_for(lambda r: isinstance(r.message, p.Presence)).message == p.Presence(())


def test_simulated_board_reports_an_injected_token(board):
    uid = bytes.fromhex("04a1b2c3d4e5f6")
    text = b"kikoi:kigliss-sleep"
    board.wait_for(lambda r: isinstance(r.message, p.Hello))
    board.send(p.Unknown(0xF0, bytes([0, len(uid)]) + uid + bytes([len(text)]) + text))
    placed = board.wait_for(lambda r: isinstance(r.message, p.Placed))
    assert placed.message == p.Placed(0, uid, text.decode())
    pres = board.wait_for(lambda r: isinstance(r.message, p.Presence))
    assert pres.seq == (placed.seq + 1) % 256 and pres.message.entries == ((0, uid),)  # at once
    seq = board.send(p.SlotReq(0))
    assert board.wait_for(lambda r: isinstance(r.message, p.Placed)).message == placed.message
    assert board.wait_for(lambda r: isinstance(r.message, p.Ack)).message == p.Ack(seq, 0)
    seq = board.send(p.WriteTag(0, "z" * 52))  # more than a PLACED could report back
    assert board.wait_for(lambda r: isinstance(r.message, p.Ack)).message == p.Ack(seq, p.ACK_BAD_PAYLOAD)
    board.send(p.Unknown(0xF1, b"\x00"))
    assert board.wait_for(lambda r: isinstance(r.message, p.Removed)).message == p.Removed(0, uid)
    assert board.wait_for(lambda r: isinstance(r.message, p.Presence)).message.entries == ()


def test_production_build_runs_in_the_simulator():
    make("sim")
    b = SimBoard("reader.hex")
    try:
        assert b.wait_for(lambda r: isinstance(r.message, p.Hello)).message.capabilities == 0x0F
        seq = b.send(p.Ping())
        assert b.wait_for(lambda r: isinstance(r.message, p.Ack)).message == p.Ack(seq, 0)
        seq = b.send(p.Unknown(0xF0, bytes([0, 4, 1, 2, 3, 4, 0])))  # no injection in production
        assert b.wait_for(lambda r: isinstance(r.message, p.Ack)).message == p.Ack(seq, p.ACK_UNKNOWN_TYPE)
    finally:
        b.close()


def test_production_build_reads_and_writes_a_simulated_ntag213():
    """Stretch: the production firmware's own MFRC522 driver, on a register-level MFRC522
    simulated on the SPI bus (REQA/WUPA, anticollision, SELECT at two cascade levels, READ,
    WRITE, HLTA), reads a tag's UID and NDEF text, writes a new text, and sees it go."""
    make("sim")
    b = SimBoard("reader.hex")
    uid = bytes.fromhex("04a1b2c3d4e5f6")
    try:
        b.wait_for(lambda r: isinstance(r.message, p.Hello))
        assert b.command("tag 0 04a1b2c3d4e5f6 kikoi:kigliss-sleep") == "ok tag"
        placed = b.wait_for(lambda r: isinstance(r.message, p.Placed), timeout=8)
        assert placed.message == p.Placed(0, uid, "kikoi:kigliss-sleep")
        seq = b.send(p.WriteTag(0, "kikoi:kiboss-house"))
        assert b.wait_for(lambda r: isinstance(r.message, p.Ack), timeout=8).message == p.Ack(seq, p.ACK_OK)
        assert b.command("text 0") == "ok text kikoi:kiboss-house"
        assert b.command("untag 0") == "ok untag"
        assert b.wait_for(lambda r: isinstance(r.message, p.Removed), timeout=8).message == p.Removed(0, uid)
        assert b.command("retag 0") == "ok retag"  # the same tag, its new text read from memory
        placed = b.wait_for(lambda r: isinstance(r.message, p.Placed), timeout=8)
        assert placed.message == p.Placed(0, uid, "kikoi:kiboss-house")
        seq = b.send(p.StatusReq())
        status = b.wait_for(lambda r: isinstance(r.message, p.Status), timeout=8).message
        assert status.reader_faults == 0 and status.crc_errors == 0
    finally:
        b.close()
