"""Consistent Overhead Byte Stuffing (Cheshire and Baker, 1999), by hand: standard library only.

`encode` turns any bytes into bytes without a single 0x00 (at most one byte longer per 254);
`decode` undoes it and returns None, never raises, when its input is not a valid encoding.
The 0x00 delimiter that ends a frame on the wire is not part of either.
"""

from __future__ import annotations


def encode(data: bytes) -> bytes:
    out = bytearray()
    i, n = 0, len(data)
    while True:
        j = i
        while j < n and j - i < 254 and data[j] != 0:
            j += 1
        out.append(j - i + 1)
        out += data[i:j]
        if j - i == 254:  # a full block: no zero consumed, and nothing more if data ends here
            i = j
            if i == n:
                break
            continue
        if j == n:
            break
        i = j + 1  # the zero this block stands for
    return bytes(out)


def decode(data: bytes) -> bytes | None:
    """The decoded bytes, or None when `data` is empty, holds a 0x00 or a code runs past its end."""
    out = bytearray()
    i, n = 0, len(data)
    if n == 0:
        return None
    while i < n:
        code = data[i]
        if code == 0 or i + code > n:
            return None
        block = data[i + 1 : i + code]
        if 0 in block:
            return None
        out += block
        i += code
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)
