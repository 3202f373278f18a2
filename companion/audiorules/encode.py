"""Compressed, reproducible audio files: OGG Vorbis (default), FLAC or MP3, through soundfile.

MP3 is written beside each Ogg chapter: older iOS Safari (what VoiceOver users often have)
plays no Ogg.

libsndfile gives each Ogg stream a random serial number, so two encodings of the same samples
differ by those four bytes in every page (and by each page's checksum). `encode` rewrites the
serial to a fixed value and recomputes the page checksums, so the same samples always give the
same bytes. FLAC output is reproducible as it comes.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path

import numpy as np

FORMATS = {"ogg": ("OGG", "VORBIS"), "flac": ("FLAC", "PCM_16"), "mp3": ("MP3", "MPEG_LAYER_III")}
#: the serial number every stream gets ("RULE")
OGG_SERIAL = 0x52554C45
BLOCK = 8192  # frames per write


def _crc_table() -> list[int]:
    table = []
    for i in range(256):
        r = i << 24
        for _ in range(8):
            r = ((r << 1) ^ 0x04C11DB7) if r & 0x80000000 else (r << 1)
        table.append(r & 0xFFFFFFFF)
    return table


_CRC = _crc_table()


def ogg_crc(data: bytes) -> int:
    """The Ogg page checksum (CRC-32, polynomial 0x04C11DB7, not reflected, no final xor)."""
    crc = 0
    for b in data:
        crc = ((crc << 8) & 0xFFFFFFFF) ^ _CRC[((crc >> 24) & 0xFF) ^ b]
    return crc


def normalize_ogg(data: bytes, serial: int = OGG_SERIAL) -> bytes:
    """The same Ogg stream with a fixed serial number and recomputed page checksums."""
    out = bytearray(data)
    pos = 0
    while pos < len(out):
        if out[pos : pos + 4] != b"OggS":
            raise ValueError(f"not an Ogg page at byte {pos}")
        n_segments = out[pos + 26]
        body = sum(out[pos + 27 : pos + 27 + n_segments])
        end = pos + 27 + n_segments + body
        struct.pack_into("<I", out, pos + 14, serial)
        struct.pack_into("<I", out, pos + 22, 0)
        struct.pack_into("<I", out, pos + 22, ogg_crc(bytes(out[pos:end])))
        pos = end
    return bytes(out)


def encode(samples: np.ndarray, sample_rate: int, fmt: str = "ogg") -> bytes:
    """Mono float samples as the bytes of an .ogg (Vorbis), .flac or .mp3 file (libsndfile 1.1+
    writes MP3 with its own LAME: no system package), reproducibly."""
    import soundfile as sf

    container, subtype = FORMATS[fmt]
    buf = io.BytesIO()
    data = np.clip(np.asarray(samples, dtype=np.float32), -1.0, 1.0)
    # Written in blocks: libsndfile's Vorbis encoder can crash on one very large write.
    with sf.SoundFile(buf, "w", samplerate=sample_rate, channels=1, format=container, subtype=subtype) as f:
        for i in range(0, len(data), BLOCK):
            f.write(data[i : i + BLOCK])
    raw = buf.getvalue()
    return normalize_ogg(raw) if fmt == "ogg" else raw


def duration(path: Path) -> float:
    """Seconds of audio in a file soundfile can read."""
    import soundfile as sf

    info = sf.info(str(path))
    return info.frames / info.samplerate
