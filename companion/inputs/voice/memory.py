"""Freed memory given back to the system, so that the recogniser's peak stays low.

glibc's malloc keeps what a thread frees in that thread's own arena (one per thread, up to
eight per core): the grammar built in the listener's thread, the legal moves made in one of
their own and the decoders' per-utterance tables each leave freed pages that the other
threads cannot reuse, and the process's resident memory adds them up. ``malloc_trim(0)``
returns the free pages of every arena (measured on `companion play kissa --voice-input`:
a peak of 182 against 194 MB, docs/voice.md). Where the C library has no ``malloc_trim``
(not glibc), nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


def give_back() -> None:
    """Return the free pages of every malloc arena to the system (a few ms after big frees)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def give_back_later() -> None:
    """`give_back` in a thread of its own: off the path from the end of speech to the answer."""
    threading.Thread(target=give_back, name="voice-give-back", daemon=True).start()


__all__ = ["give_back", "give_back_later"]
