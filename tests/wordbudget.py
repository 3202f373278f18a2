"""The word budget of #17: what a human hears between their move and their next prompt.

A scripted game: one human (seat 0, "Marie") against bots, driven through the real session
by typed lines; the human's moves are « joue pour moi » / "play for me" (the companion's own
bot chooses them), so every game is scripted the same way. Each printed line is attributed
to what caused it: the acknowledgement of the command, the human's own move, each bot move,
the prompt. A word is a whitespace-separated token with a letter or digit (punctuation and
quotes are not heard as words); the "[Marie] " prefix of a private line is not heard either.

Used by tests/test_word_budget.py (limits) and bench/word_budget.py (figures).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from companion.core import Match, Rng, find
from companion.narration import Verbosity
from companion.session import Seat, Session
from companion.transcript import load

GAMES = ("kaliko", "kissa", "kikoi", "goodfortune")
AUTOPLAY = {"fr": "joue pour moi", "en": "play for me"}
_PRIVATE = re.compile(r"^\[[^\]]+\] ")
_CELL = re.compile(r"^(centre|center|\d{1,2}h\d{1,2}(-\d{1,2}h\d{1,2})?)[.,:;]?$")


def words(line: str) -> int:
    text = _PRIVATE.sub("", line)
    return sum(1 for w in text.split() if any(c.isalnum() for c in w))


def cells(line: str) -> int:
    """Kaliko cells named in a line (each one is allowed one more word)."""
    return sum(1 for w in _PRIVATE.sub("", line).split() if _CELL.match(w))


@dataclass
class Move:
    seat: int
    lines: list[str] = field(default_factory=list)
    final: bool = False  # the move that ended the game (the end's scores are not routine)

    @property
    def words(self) -> int:
        return sum(words(x) for x in self.lines)

    @property
    def cells(self) -> int:
        return sum(cells(x) for x in self.lines)


@dataclass
class Turn:
    """From the human's command to their next prompt."""

    ack: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    prompt: list[str] = field(default_factory=list)


def scripted_game(game: str, lang: str, verbosity: Verbosity, seed: int = 3, bots: int = 1, max_turns: int = 12,
                  **options: Any) -> list[Turn]:
    entry = find(game)
    rules, ui, bot_kinds = load(entry, **options)
    kind = next(iter(bot_kinds))
    n = max(entry.min_players, 1 + bots)
    names = ["Marie", "Paul", "Zoé", "Tom"][:n]  # one-word names: a name is heard as one word
    match: Match[Any, Any] = Match(rules, names, seed)
    root = Rng(seed)
    seats = [Seat("Marie")] + [Seat(names[i], bot=bot_kinds[kind](rules, i, root.fork(i + 1))) for i in range(1, n)]
    out: list[Any] = []
    session = Session(game, ui, match, seats, lang=lang, verbosity=verbosity, out=out.append)
    session.helper = lambda seat: bot_kinds[kind](rules, seat, Rng(seed).fork(100 + seat + len(match.history)))
    played = session._played

    def mark_played(seat: int, action: Any, events: Any) -> None:
        out.append(("move", seat))
        played(seat, action, events)

    prompt = ui.turn_prompt

    def mark_prompt(m: Any, seat: int) -> Any:
        out.append(("prompt", seat))
        return prompt(m, seat)

    session._played = mark_played  # type: ignore[method-assign]
    ui.turn_prompt = mark_prompt  # type: ignore[method-assign]
    session.start()
    turns: list[Turn] = []
    for _ in range(max_turns):
        if match.over:
            break
        out.append(("cmd", 0))
        session.handle(AUTOPLAY[lang], 0)
    turn: Turn | None = None
    where: Any = None
    for item in out:
        if isinstance(item, tuple):
            kind_, seat = item
            if kind_ == "cmd":
                turn = Turn()
                turns.append(turn)
                where = turn.ack
            elif turn is None:
                where = None
            elif kind_ == "move":
                move = Move(seat)
                turn.moves.append(move)
                where = move.lines
            else:
                where = turn.prompt
        elif where is not None:
            where.append(item)
    if turns and match.over and turns[-1].moves:
        turns[-1].moves[-1].final = True
    return turns


@dataclass
class Figures:
    own: list[int]  # words of each of the human's own routine moves
    bot: list[int]  # words of each bot move, minus one per Kaliko cell
    ack: list[int]
    prompt: list[int]

    @staticmethod
    def of(turns: list[Turn], per_cell: bool) -> Figures:
        own, bot = [], []
        for t in turns:
            for m in t.moves:
                if m.final:
                    continue
                w = m.words - (m.cells if per_cell else 0)
                (own if m.seat == 0 else bot).append(w)
        return Figures(own, bot, [sum(words(x) for x in t.ack) for t in turns],
                       [sum(words(x) for x in t.prompt) for t in turns])


def figures(game: str, lang: str, verbosity: Verbosity, seed: int = 3, **kw: Any) -> Figures:
    return Figures.of(scripted_game(game, lang, verbosity, seed, **kw), per_cell=game == "kaliko")
