"""The legal moves nearest what was heard, for the recogniser's second pass.

A game with many moves lists a sample of them (2kissa10: 2,000 of some 95,000 legal
equations at the start); the others are said through its templates, which know the board's
numbers but not its arithmetic, so a misheard letter gives an equation that is no move
(« 2 at C5 plus 5 at A2 equals 7 at B7 » for G5). As voice move entry elsewhere does (a
heard move is matched against the legal ones), the recogniser then decodes the same sound
again among the legal moves whose words are nearest what it heard, and a move it had to
correct is read back before it is played.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import overload

from .memory import give_back

#: how many legal moves, the nearest in words to what was heard, the second pass weighs
NEAREST = 40
#: how many strings a `Packed` joins into one
CHUNK = 4096


class Packed(Sequence[str]):
    """Many short strings kept as a few long ones (`CHUNK` of them joined by newlines):
    2kissa10's 95,000 legal moves take 4.7 MB so, against 9.9 MB as as many string objects
    (each one's header is 49 bytes, as long as the move's words). Made from an iterable one
    chunk at a time; `chunks` gives them back as lists, one chunk at a time."""

    def __init__(self, strings: Iterable[str], size: int = CHUNK) -> None:
        self._size = size
        self._joined: list[str] = []
        self._len = 0
        part: list[str] = []
        for text in strings:
            part.append(text)
            if len(part) == size:
                self._add(part)
                part = []
        if part:
            self._add(part)

    def _add(self, part: list[str]) -> None:
        self._joined.append("\n".join(part))
        self._len += len(part)

    def chunks(self) -> Iterator[list[str]]:
        for joined in self._joined:
            yield joined.split("\n")

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[str]:
        for part in self.chunks():
            yield from part

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        return self._joined[i // self._size].split("\n")[i % self._size]


class LegalMoves:
    """Every legal move's grammar tokens (spaced: « 2 at g 5 plus… »), made in a thread of
    their own (2 s for 2kissa10's 95,000) as soon as the phrases of a state are set."""

    def __init__(self, make: Callable[[], Sequence[str]]) -> None:
        self._make = make
        self._moves: Sequence[str] = []
        self.failed: BaseException | None = None
        self._thread = threading.Thread(target=self._build, name="voice-legal-moves", daemon=True)
        self._thread.start()

    def _build(self) -> None:
        try:
            self._moves = self._make()
        except Exception as exc:  # noqa: BLE001 - the second pass is skipped, and says why in `failed`
            self.failed = exc
        give_back()  # the build's freed pages, in this thread's own malloc arena (memory.py)

    def nearest(self, heard: str, k: int = NEAREST, wait: float = 10.0) -> list[tuple[str, ...]]:
        """The tokens of the `k` legal moves nearest `heard` (grammar tokens, spaced), or none
        when they could not be made in `wait` seconds."""
        import numpy as np
        from rapidfuzz import fuzz, process

        self._thread.join(wait)
        if self._thread.is_alive() or not self._moves:
            return []
        moves = self._moves
        # as rapidfuzz's `extract` sorts them (by score, then by index), a chunk at a time: the
        # best `k` of each chunk, then of those
        best: list[tuple[float, int, str]] = []
        first = 0
        for part in (moves.chunks() if isinstance(moves, Packed) else [list(moves)]):
            scores = process.cdist([heard], part, scorer=fuzz.ratio, dtype=np.float64, workers=1)[0]
            for i in np.argsort(-scores, kind="stable")[:k].tolist():
                best.append((-float(scores[i]), first + i, part[i]))
            first += len(part)
        best.sort()
        return [tuple(m.split()) for _score, _i, m in best[:k]]
