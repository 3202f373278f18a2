"""The two ends of a line, sans I/O: `Decoder` (bytes in, numbered messages out) and
`Encoder` (messages in, bytes out, each side numbering its own frames modulo 256)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.protocol.frame import DecoderStats, FrameDecoder, encode_frame
from companion.protocol.messages import Malformed, Message, Unknown, parse_message


@dataclass(frozen=True)
class Received:
    seq: int
    message: Message


class Decoder:
    """Feed it whatever the line gave; it returns the messages of the sound frames.

    Never raises on bad bytes. `stats` counts frames dropped by kind; `malformed` and
    `unknown` count sound frames whose payload did not fit or whose type is not known.
    """

    def __init__(self) -> None:
        self._frames = FrameDecoder()
        self.malformed = 0
        self.unknown = 0

    @property
    def stats(self) -> DecoderStats:
        return self._frames.stats

    def feed(self, data: bytes) -> list[Received]:
        out = []
        for frame in self._frames.feed(data):
            msg = parse_message(frame)
            if isinstance(msg, Malformed):
                self.malformed += 1
            elif isinstance(msg, Unknown):
                self.unknown += 1
            out.append(Received(frame.seq, msg))
        return out

    def reset(self) -> None:
        self._frames.reset()


class Encoder:
    def __init__(self, seq: int = 0) -> None:
        self.seq = seq & 0xFF

    def encode(self, message: Message) -> tuple[int, bytes]:
        """(the seq given to this frame, its bytes on the wire)."""
        seq = self.seq
        self.seq = (seq + 1) & 0xFF
        return seq, encode_frame(message.frame(seq))
