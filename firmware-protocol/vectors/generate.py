#!/usr/bin/env python3
"""Writes the shared test vectors (*.json here) of PROTOCOL.md, independently of the codecs
they test: framing by the `cobs` package, the CRC by `binascii.crc_hqx`, payloads laid out by
hand below. Run it again after changing a vector; the tests check the files are current.

    python firmware-protocol/vectors/generate.py
"""

from __future__ import annotations

import binascii
import json
from pathlib import Path

from cobs import cobs

HERE = Path(__file__).resolve().parent


def crc(b: bytes) -> bytes:
    return binascii.crc_hqx(b, 0xFFFF).to_bytes(2, "big")


def body(t: int, seq: int, payload: bytes) -> bytes:
    head = bytes((t, seq)) + payload
    return head + crc(head)


def wire(t: int, seq: int, payload: bytes) -> bytes:
    return cobs.encode(body(t, seq, payload)) + b"\x00"


def valid(name: str, t: int, seq: int, payload: bytes, message: dict | None = None) -> dict:
    v = {"name": name, "valid": True, "hex": wire(t, seq, payload).hex(),
         "frame": {"type": t, "seq": seq, "payload_hex": payload.hex()}}
    if message is not None:
        v["message"] = message
    return v


def invalid(name: str, raw: bytes, reason: str) -> dict:
    return {"name": name, "valid": False, "hex": raw.hex(), "reason": reason}


UID4 = bytes.fromhex("a1b2c3d4")
UID7 = bytes.fromhex("04a1b2c3d4e5f6")
UID10 = bytes.fromhex("0400112233445566778f")
TEXT = "kikoi:kigliss-sleep"


def tlv(text: str) -> bytes:
    raw = text.encode()
    return bytes((len(raw),)) + raw


def device_to_host() -> list[dict]:
    return [
        valid("hello", 0x01, 0, bytes([1, 1, 0, 2]) + bytes.fromhex("c0ffee01") + bytes([0b0101, 4]),
              {"kind": "hello", "version": 1, "firmware": [1, 0, 2], "reader_id": 0xC0FFEE01,
               "capabilities": 5, "slots": 4}),
        valid("hello from a newer protocol", 0x01, 9, bytes([2, 3, 0, 0, 0, 0, 0, 1, 0, 1]),
              {"kind": "hello", "version": 2, "firmware": [3, 0, 0], "reader_id": 1,
               "capabilities": 0, "slots": 1}),
        valid("placed, 7-byte UID, text", 0x02, 1, bytes([0, 7]) + UID7 + tlv(TEXT),
              {"kind": "placed", "slot": 0, "uid": UID7.hex(), "text": TEXT}),
        valid("placed, 4-byte UID, no text", 0x02, 2, bytes([3, 4]) + UID4 + bytes([0]),
              {"kind": "placed", "slot": 3, "uid": UID4.hex(), "text": ""}),
        valid("placed, 10-byte UID, accented text", 0x02, 3, bytes([1, 10]) + UID10 + tlv("kikoi:kibouclé"),
              {"kind": "placed", "slot": 1, "uid": UID10.hex(), "text": "kikoi:kibouclé"}),
        valid("placed, maximum payload (51-byte text)", 0x02, 4, bytes([2, 10]) + UID10 + tlv("x" * 51),
              {"kind": "placed", "slot": 2, "uid": UID10.hex(), "text": "x" * 51}),
        valid("removed", 0x03, 5, bytes([0, 7]) + UID7,
              {"kind": "removed", "slot": 0, "uid": UID7.hex()}),
        valid("presence, empty", 0x04, 6, bytes([0, 0]),
              {"kind": "presence", "more": False, "entries": []}),
        valid("presence, two tokens", 0x04, 7, bytes([0, 2, 0, 7]) + UID7 + bytes([2, 4]) + UID4,
              {"kind": "presence", "more": False, "entries": [[0, UID7.hex()], [2, UID4.hex()]]}),
        valid("presence, first part of a long snapshot", 0x04, 8,
              bytes([1, 6]) + b"".join(bytes([s, 7]) + UID7[:-1] + bytes([s]) for s in range(6)),
              {"kind": "presence", "more": True,
               "entries": [[s, (UID7[:-1] + bytes([s])).hex()] for s in range(6)]}),
        valid("button, long press", 0x05, 10, bytes([0, 2]), {"kind": "button", "button": 0, "press": 2}),
        valid("status", 0x06, 11, bytes.fromhex("00012345") + bytes.fromhex("0001000200ff"),
              {"kind": "status", "uptime": 0x12345, "crc_errors": 1, "frames_dropped": 2,
               "reader_faults": 255}),
        valid("ack ok", 0x7F, 12, bytes([7, 0]), {"kind": "ack", "acked": 7, "code": 0}),
        valid("ack no tag", 0x7F, 255, bytes([0, 4]), {"kind": "ack", "acked": 0, "code": 4}),
    ]


def host_to_device() -> list[dict]:
    return [
        valid("hello request", 0x81, 0, b"", {"kind": "hello_req"}),
        valid("ping", 0x82, 1, b"", {"kind": "ping"}),
        valid("write tag", 0x83, 2, bytes([1]) + tlv(TEXT), {"kind": "write_tag", "slot": 1, "text": TEXT}),
        valid("write tag, maximum payload (62-byte text)", 0x83, 3, bytes([0]) + tlv("y" * 62),
              {"kind": "write_tag", "slot": 0, "text": "y" * 62}),
        valid("led", 0x84, 4, bytes([255, 0, 16]), {"kind": "led", "red": 255, "green": 0, "blue": 16}),
        valid("beep 256 ms", 0x85, 5, bytes([1, 0]), {"kind": "beep", "ms": 256}),
        valid("status request", 0x86, 6, b"", {"kind": "status_req"}),
        valid("slot request", 0x87, 7, bytes([3]), {"kind": "slot_req", "slot": 3}),
    ]


def edge() -> list[dict]:
    return [
        valid("all zeros: type 0, seq 0, zero payload", 0x00, 0, bytes(64), {"kind": "unknown", "type": 0}),
        valid("zeros inside a ping's body (seq 0)", 0x82, 0, b"", {"kind": "ping"}),
        valid("unknown type, maximum payload", 0x42, 200, bytes(range(1, 65)), {"kind": "unknown", "type": 0x42}),
        valid("placed, UID length 5 is malformed", 0x02, 13, bytes([0, 5, 1, 2, 3, 4, 5, 0]),
              {"kind": "malformed", "type": 2}),
        valid("removed, truncated payload is malformed", 0x03, 14, bytes([0, 7, 1, 2]),
              {"kind": "malformed", "type": 3}),
        valid("placed, text not UTF-8 is malformed", 0x02, 15, bytes([0, 4]) + UID4 + bytes([2, 0xC3, 0x28]),
              {"kind": "malformed", "type": 2}),
        truncated_by_a_delimiter(),
        valid("hello, trailing bytes ignored", 0x01, 16, bytes([1, 1, 0, 0, 0, 0, 0, 2, 0, 1, 0xEE]),
              {"kind": "hello", "version": 1, "firmware": [1, 0, 0], "reader_id": 2,
               "capabilities": 0, "slots": 1}),
    ]


def truncated_by_a_delimiter() -> dict:
    """COBS + a CRC without final XOR: when the CRC's low byte is 0x00 (1 frame in 256), a frame
    that loses its last byte still passes the CRC, one byte shorter. The payload's own lengths
    catch it: the PLACED below, cut so, is a sound frame with a malformed payload."""
    for n in range(256 * 8):
        seq, slot = n % 256, n // 256
        payload = bytes([slot, 4]) + UID4 + tlv("kikoi:kiboss-house")
        b = body(0x02, seq, payload)
        if b[-1] == 0:
            cut = cobs.encode(b[:-1]) + b"\x00"
            assert cobs.encode(b)[:-1] + b"\x00" == cut
            return {"name": "a PLACED that lost its last byte (its CRC ends in 0x00): malformed",
                    "valid": True, "hex": cut.hex(),
                    "frame": {"type": 2, "seq": seq, "payload_hex": payload[:-1].hex()},
                    "message": {"kind": "malformed", "type": 2}}
    raise AssertionError("no seq gives a CRC ending in 0x00")


def bad() -> list[dict]:
    ping = wire(0x82, 1, b"")
    placed = wire(0x02, 1, bytes([0, 7]) + UID7 + tlv(TEXT))
    b = bytearray(body(0x02, 1, bytes([0, 7]) + UID7 + tlv(TEXT)))
    b[5] ^= 0x10
    flipped = cobs.encode(bytes(b)) + b"\x00"
    crc_swapped = bytearray(body(0x82, 1, b""))
    crc_swapped[-1], crc_swapped[-2] = crc_swapped[-2], crc_swapped[-1]
    return [
        invalid("bad CRC (one payload bit flipped)", flipped, "crc"),
        invalid("bad CRC (little-endian CRC)", cobs.encode(bytes(crc_swapped)) + b"\x00", "crc"),
        invalid("bad COBS (code runs past the end)", bytes([0x09, 0x82, 0x01, 0x11]) + b"\x00", "cobs"),
        invalid("too short (decodes to two bytes)", bytes([0x03, 0x82, 0x01]) + b"\x00", "length"),
        invalid("truncated (last two bytes lost)", placed[:-3] + b"\x00", "cobs"),
        invalid("truncated to three bytes", ping[:3] + b"\x00", "cobs"),
        invalid("body of three bytes", cobs.encode(b"\x82\x01\x02") + b"\x00", "length"),
        invalid("too long (65-byte payload, sound CRC)",
                cobs.encode(body(0x42, 1, bytes(range(1, 66)))) + b"\x00", "too_long"),
        invalid("too long (300 bytes without a zero)", bytes([0x55]) * 300 + b"\x00", "too_long"),
    ]


def streams() -> list[dict]:
    """Several frames with damage between them: the receiver must resynchronise."""
    a = wire(0x82, 1, b"")
    p = wire(0x02, 2, bytes([0, 4]) + UID4 + bytes([0]))
    broken = bytearray(p)
    broken[3] ^= 0x01
    return [
        {"name": "idle zeros, garbage, a frame cut short, then two frames",
         "hex": (b"\x00\x00" + bytes([0x13, 0x37, 0xFF]) + a[:2] + b"\x00" + a + p).hex(),
         "frames": [{"type": 0x82, "seq": 1, "payload_hex": ""},
                    {"type": 0x02, "seq": 2, "payload_hex": (bytes([0, 4]) + UID4 + bytes([0])).hex()}],
         "dropped": 1},
        {"name": "a damaged frame between two sound ones",
         "hex": (a + bytes(broken) + a).hex(),
         "frames": [{"type": 0x82, "seq": 1, "payload_hex": ""}, {"type": 0x82, "seq": 1, "payload_hex": ""}],
         "dropped": 1},
        {"name": "a frame without its delimiter is not delivered until one comes",
         "hex": (a + a[:-1]).hex(),
         "frames": [{"type": 0x82, "seq": 1, "payload_hex": ""}],
         "dropped": 0},
    ]


FILES = {
    "device_to_host.json": ("Every device-to-host message type, sound.", device_to_host),
    "host_to_device.json": ("Every host-to-device message type, sound.", host_to_device),
    "edge.json": ("Sound frames at the edges: zeros, maximum payload, unknown type, malformed payloads.", edge),
    "invalid.json": ("Frames every receiver must drop: bad CRC, bad COBS, truncated, too short, too long.", bad),
    "streams.json": ("Byte streams with several frames and damage: what must come out.", streams),
}


def render(make) -> str:
    description, fn = make
    return json.dumps({"description": description, "vectors": fn()}, indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    for name, make in FILES.items():
        (HERE / name).write_text(render(make), encoding="utf-8")


if __name__ == "__main__":
    main()
