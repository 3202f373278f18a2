"""What KIKOI knows of its tokens laid on the token reader (moved here from the reader,
issue #23): their names, the gift (a token laid by the player asked for it), the deal's
count, and which refusals mean « check the token »."""

from __future__ import annotations

from typing import Any

from companion.core import IllegalAction, Match
from companion.games.base import Tokens
from companion.narration import Msg

from . import narration
from .rules import ANSWER, DEAL, Drew, Reply, Rules
from .tokens import token_from_id, token_id

# Refusals that mean "this token cannot come now": it lies elsewhere, was used, or was read twice.
CHECK_CODES = frozenset({"already_placed", "out_of_game", "not_in_bag", "red_in_deal", "no_such_token"})


class KikoiTokens(Tokens):
    def name(self, tid: str) -> Msg:
        return narration.tok(tid)

    def answer(self, match: Match[Any, Any], seat: int, tid: str) -> tuple[Any, str] | None:
        """RULES KI-6: the asked player gives the token asked for by laying it."""
        state = match.state
        if state.phase != ANSWER or state.request is None:
            return None
        asked = token_id(state.request[2])
        try:
            laid = token_id(token_from_id(tid))
        except KeyError:
            return None, asked
        if laid != asked:
            return None, asked
        return Reply(True), asked

    def progress(self, match: Match[Any, Any], seat: int) -> tuple[int, int] | None:
        state = match.state
        if state.phase != DEAL:
            return None
        game = match.game
        assert isinstance(game, Rules)
        size = game.deal_size(state.n)
        return size - int(state.deal_left) + 1, size

    def misplaced(self, match: Match[Any, Any], seat: int, tid: str) -> bool:
        try:
            action = Drew(token_from_id(tid))
        except (KeyError, ValueError):
            return False
        try:
            match.game.check(match.state, seat, action)
        except IllegalAction as exc:
            return exc.code in CHECK_CODES
        return False


__all__ = ["CHECK_CODES", "KikoiTokens"]
