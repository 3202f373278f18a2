"""What Kaliko knows of its tiles laid on the token reader (issue #23): a tile's spoken name,
and which refusals of a tile told mean « check the tile » (it lies on the board, or is not in
the bag) rather than « nothing is expected now »."""

from __future__ import annotations

from typing import Any

from companion.core import IllegalAction, Match
from companion.games.base import Tokens
from companion.narration import Msg

from . import narration
from .rules import Drew

CHECK_CODES = frozenset({"not_in_bag", "told_on_board", "no_such_tile", "told_twice"})


class KalikoTokens(Tokens):
    def name(self, tid: str) -> Msg:
        return narration.tok(tid)

    def misplaced(self, match: Match[Any, Any], seat: int, tid: str) -> bool:
        try:
            action = Drew((int(tid),))
        except ValueError:
            return False
        try:
            match.game.check(match.state, seat, action)
        except IllegalAction as exc:
            return exc.code in CHECK_CODES
        return False


__all__ = ["CHECK_CODES", "KalikoTokens"]
