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
from collections.abc import Callable

#: how many legal moves, the nearest in words to what was heard, the second pass weighs
NEAREST = 40


class LegalMoves:
    """Every legal move's grammar tokens (spaced: « 2 at g 5 plus… »), made in a thread of
    their own (2 s for 2kissa10's 95,000) as soon as the phrases of a state are set."""

    def __init__(self, make: Callable[[], list[str]]) -> None:
        self._make = make
        self._moves: list[str] = []
        self.failed: BaseException | None = None
        self._thread = threading.Thread(target=self._build, name="voice-legal-moves", daemon=True)
        self._thread.start()

    def _build(self) -> None:
        try:
            self._moves = self._make()
        except Exception as exc:  # noqa: BLE001 - the second pass is skipped, and says why in `failed`
            self.failed = exc

    def nearest(self, heard: str, k: int = NEAREST, wait: float = 10.0) -> list[tuple[str, ...]]:
        """The tokens of the `k` legal moves nearest `heard` (grammar tokens, spaced), or none
        when they could not be made in `wait` seconds."""
        from rapidfuzz import fuzz, process

        self._thread.join(wait)
        if self._thread.is_alive() or not self._moves:
            return []
        return [tuple(m.split()) for m, _score, _i in process.extract(heard, self._moves, scorer=fuzz.ratio, limit=k)]
