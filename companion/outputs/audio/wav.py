"""WAV files: the one reader of their layout, and the header we write.

`read_layout(fh)` walks the RIFF chunks of an open binary file (or of a header in a
`BytesIO`) up to the data chunk. It is used for the three WAVs the companion reads:
* the file output, continued when it exists (`FileSink`);
* pyttsx3's files, to know they are whole (`wav_complete`);
* espeak-ng's standard output, whose 44-byte header announces a placeholder size.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO


class NotWav(ValueError):
    """The bytes are not a RIFF/WAVE file (another format: AIFF, or nothing yet)."""


@dataclass(frozen=True)
class WavLayout:
    sample_rate: int
    channels: int
    bits: int
    format_tag: int  # 1: integer PCM, 3: float
    data_at: int  # offset of the first sample
    data_size: int  # the data chunk's size as its header says (a placeholder while streaming)
    file_size: int  # bytes available when read

    @property
    def pcm16_mono(self) -> bool:
        return (self.format_tag, self.channels, self.bits) == (1, 1, 16)

    @property
    def data_whole(self) -> bool:
        """Every byte the data chunk announces is there."""
        return self.data_size > 0 and self.file_size >= self.data_at + self.data_size


def read_layout(fh: BinaryIO) -> WavLayout:
    """The layout of the WAV in `fh` up to its data chunk.

    NotWav when it does not start as a RIFF/WAVE file; ValueError (with the reason, in words
    that follow "the file ...") when its chunks are not whole or have no format or no data.
    """
    fh.seek(0, 2)
    size = fh.tell()
    fh.seek(0)
    head = fh.read(12)
    if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
        raise NotWav("is not a WAV file")
    pos = 12
    fmt: tuple[int, int, int, int] | None = None  # (tag, channels, rate, bits)
    while pos + 8 <= size:
        fh.seek(pos)
        chunk = fh.read(8)
        cid, clen = chunk[:4], int.from_bytes(chunk[4:8], "little")
        if cid == b"fmt ":
            raw = fh.read(16)
            if len(raw) < 16:
                raise ValueError("has a cut format chunk")
            fmt = (int.from_bytes(raw[0:2], "little"), int.from_bytes(raw[2:4], "little"),
                   int.from_bytes(raw[4:8], "little"), int.from_bytes(raw[14:16], "little"))
        elif cid == b"data":
            if fmt is None:
                raise ValueError("has no format before its data")
            tag, channels, rate, bits = fmt
            return WavLayout(rate, channels, bits, tag, pos + 8, clen, size)
        pos += 8 + clen + (clen & 1)
    raise ValueError("has no data")


def read_header(data: bytes) -> WavLayout:
    """The layout announced by a WAV header received as bytes (a stream's first 44)."""
    return read_layout(io.BytesIO(data))


def wav_complete(path: Path) -> bool | None:
    """True when the WAV's data chunk is all there, False when not yet, None when the file is
    not a RIFF/WAVE one (NSSpeechSynthesizer writes AIFF)."""
    try:
        with path.open("rb") as fh:
            return read_layout(fh).data_whole
    except NotWav:
        try:
            return None if path.stat().st_size >= 12 else False
        except OSError:
            return False
    except (OSError, ValueError):
        return False


def wav_header(sr: int, data_size: int) -> bytes:
    """The 44-byte header of a 16-bit mono PCM WAV holding `data_size` bytes."""
    return b"".join([
        b"RIFF", (36 + data_size).to_bytes(4, "little"), b"WAVE",
        b"fmt ", (16).to_bytes(4, "little"), (1).to_bytes(2, "little"), (1).to_bytes(2, "little"),
        sr.to_bytes(4, "little"), (sr * 2).to_bytes(4, "little"), (2).to_bytes(2, "little"),
        (16).to_bytes(2, "little"),
        b"data", data_size.to_bytes(4, "little"),
    ])


def appendable_layout(fh: BinaryIO) -> tuple[int, int, int]:
    """(sample rate, offset of the data, data size) of a 16-bit mono PCM WAV whose data chunk
    is the last one, to append to it; ValueError (NotWav included) otherwise."""
    lay = read_layout(fh)
    if not lay.pcm16_mono:
        raise ValueError("is not a 16-bit mono PCM WAV file")
    avail = lay.file_size - lay.data_at
    data_size = min(lay.data_size, avail) if lay.data_size else avail
    data_size -= data_size % 2
    if lay.data_size and lay.data_at + data_size + (data_size & 1) < lay.file_size - 1:
        raise ValueError("has chunks after its data")
    return lay.sample_rate, lay.data_at, data_size
