"""Frames: the body `type ‖ seq ‖ payload ‖ crc16`, COBS-encoded, ended by one 0x00 (PROTOCOL.md §2).

`encode_frame` makes the bytes of one frame; `FrameDecoder.feed` takes bytes as they come and
returns the frames that are whole and sound. It never raises on bad bytes: a frame whose COBS,
length or CRC is wrong is dropped and counted, and decoding starts again after the next 0x00.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass

from companion.protocol import cobs

MAX_PAYLOAD = 64
MIN_BODY = 4  # type, seq, crc (2)
MAX_BODY = 2 + MAX_PAYLOAD + 2
MAX_ENCODED = MAX_BODY + (MAX_BODY + 253) // 254  # COBS adds one byte per 254
MAX_WIRE = MAX_ENCODED + 1  # with the delimiter


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR."""
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True)
class Frame:
    type: int
    seq: int
    payload: bytes = b""

    def __post_init__(self) -> None:
        if not 0 <= self.type <= 0xFF or not 0 <= self.seq <= 0xFF:
            raise ValueError("type and seq are bytes (0 to 255)")
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(self.payload)} bytes: at most {MAX_PAYLOAD}")


def encode_frame(frame: Frame) -> bytes:
    """The bytes on the wire for `frame`, the final 0x00 included."""
    head = bytes((frame.type, frame.seq)) + frame.payload
    body = head + crc16(head).to_bytes(2, "big")
    return cobs.encode(body) + b"\x00"


def decode_body(encoded: bytes) -> tuple[Frame | None, str]:
    """One frame from the bytes between two delimiters: (frame, "") or (None, reason)."""
    if len(encoded) > MAX_ENCODED:
        return None, "too_long"
    body = cobs.decode(encoded)
    if body is None:
        return None, "cobs"
    if len(body) < MIN_BODY or len(body) > MAX_BODY:
        return None, "length"
    if crc16(body[:-2]) != int.from_bytes(body[-2:], "big"):
        return None, "crc"
    return Frame(body[0], body[1], bytes(body[2:-2])), ""


@dataclass
class DecoderStats:
    """What the decoder saw: sound frames, and each kind of dropped frame."""

    frames: int = 0
    cobs_errors: int = 0
    length_errors: int = 0
    crc_errors: int = 0
    too_long: int = 0
    bytes_in: int = 0

    @property
    def dropped(self) -> int:
        return self.cobs_errors + self.length_errors + self.crc_errors + self.too_long


class FrameDecoder:
    """Bytes in, frames out; resynchronises at every 0x00. Empty frames (00 00) are idle fill."""

    def __init__(self) -> None:
        self.stats = DecoderStats()
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list[Frame]:
        frames: list[Frame] = []
        self.stats.bytes_in += len(data)
        start = 0
        while True:
            end = data.find(0, start)
            if end < 0:
                self._take(data[start:])
                return frames
            self._take(data[start:end])
            frame = self._close()
            if frame is not None:
                frames.append(frame)
            start = end + 1

    def reset(self) -> None:
        """Forget a partial frame (after the line was reopened)."""
        self._buf.clear()
        self._overflow = False

    def _take(self, chunk: bytes) -> None:
        if self._overflow or not chunk:
            return
        if len(self._buf) + len(chunk) > MAX_ENCODED:
            self._buf.clear()
            self._overflow = True
            return
        self._buf += chunk

    def _close(self) -> Frame | None:
        if self._overflow:
            self._overflow = False
            self.stats.too_long += 1
            return None
        if not self._buf:
            return None
        encoded = bytes(self._buf)
        self._buf.clear()
        frame, why = decode_body(encoded)
        if frame is None:
            if why == "cobs":
                self.stats.cobs_errors += 1
            elif why == "length":
                self.stats.length_errors += 1
            elif why == "crc":
                self.stats.crc_errors += 1
            else:
                self.stats.too_long += 1
            return None
        self.stats.frames += 1
        return frame
