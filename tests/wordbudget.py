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

from companion.cli.runner import table_options
from companion.core import Match, Rng, find
from companion.narration import Verbosity
from companion.session import Seat, Session
from companion.session.outputs import JournalAction, Record, Say
from companion.session.transcript import load

GAMES = ("kaliko", "kissa", "kikoi", "goodfortune")
SEAT_KEYS = ("seat", "asker", "pirate", "receiver")  # whose event it is (KIKOI: the asker, who receives)
# What the table hears about the round, whose turn it is, a KIKOI completed (a milestone):
# nobody's routine move.
TABLE_EVENTS = frozenset({"medallion_passed", "round_started", "order_decided", "turn_began", "day_completed"})
QUESTIONS = frozenset({"placement_choice"})
# Deterministic bots (Good Fortune's first bot searches under a time cap: its choices would
# depend on the machine's load).
BOT_KIND = {"goodfortune": "greedy"}
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
    owners: list[int | None] = field(default_factory=list)  # per line: the seat its event names, None: the table
    events: list[Any] = field(default_factory=list)
    final: bool = False  # the move that ended the game (the end's scores are not routine)

    @property
    def words(self) -> int:
        return sum(words(x) for x in self.lines)

    @property
    def cells(self) -> int:
        return sum(cells(x) for x in self.lines)

    @property
    def incidental(self) -> int:
        """Kaliko: scoring paths beyond the main one (each adds its colour, or a sentence)."""
        return sum(max(len(e.data.get("paths", [])) - 1, 0) for e in self.events if e.type == "tiles_played")

    def words_of(self, seat: int | None) -> int:
        """Words of the lines whose event names `seat` (None: the table's lines)."""
        return sum(words(x) for x, o in zip(self.lines, self.owners, strict=True) if o == seat)


@dataclass
class Turn:
    """From the human's command to their next prompt."""

    ack: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    prompt: list[str] = field(default_factory=list)


def scripted_game(game: str, lang: str, verbosity: Verbosity, seed: int = 3, bots: int = 1, max_turns: int = 12,
                  **options: Any) -> list[Turn]:
    entry = find(game)
    options = table_options(entry, options, 1, lang)  # one human, as `companion play` decides it
    rules, ui, bot_kinds = load(entry, **options)
    kind = BOT_KIND.get(game) or next(iter(bot_kinds))
    n = max(entry.min_players, 1 + bots)
    names = ["Marie", "Paul", "Zoé", "Tom"][:n]  # one-word names: a name is heard as one word
    match: Match[Any, Any] = Match(rules, names, seed)
    root = Rng(seed)
    seats = [Seat("Marie")] + [Seat(names[i], bot=bot_kinds[kind](rules, i, root.fork(i + 1))) for i in range(1, n)]
    out: list[Any] = []
    session = Session(game, ui, match, seats, lang=lang, verbosity=verbosity, out=out.append)
    session.helper = lambda seat: bot_kinds[kind](rules, seat, Rng(seed).fork(100 + seat + len(match.history)))
    deliver = session.table.deliver

    def marking_deliver(outputs: list[Any]) -> None:
        # Output by output, as the table receives them from the core: a move's journal record,
        # then its events, then each line said (its owner marked just before it is printed).
        for o in outputs:
            if isinstance(o, JournalAction):
                out.append(("move", o.seat))
            elif isinstance(o, Record) and o.events:
                out.append(("events", list(o.events)))
            elif isinstance(o, Say):
                asked = prompts.get(id(o.utterance))
                if asked is not None and asked[0] is o.utterance:
                    out.append(("prompt", asked[1]))
                known = owner.get(id(o.utterance))  # the very utterance narrated (ids are reused)
                out.append(("owner", known[1] if known is not None and known[0] is o.utterance else -1))
            deliver([o])

    prompt = ui.turn_prompt

    prompts: dict[int, tuple[Any, int]] = {}  # id -> (the prompt's first utterance, kept alive; seat)

    def mark_prompt(m: Any, seat: int) -> Any:
        utts = prompt(m, seat)
        if utts:  # marked when the table says it: the core hands its outputs over in batches
            prompts[id(utts[0])] = (utts[0], seat)
        return utts

    # Each utterance is owned by the seat its event names ("seat"), or by the table (a round's
    # outcome, a new round): remembered by identity when narrated, marked when said.
    owner: dict[int, tuple[Any, int | None]] = {}  # id -> (the utterance, kept alive; its owner)
    narrate = ui.narrate

    def own_narrate(event: Any, m: Any) -> Any:
        utts = narrate(event, m)
        seat = None
        if event.type not in TABLE_EVENTS:
            seat = next((event.data[k] for k in SEAT_KEYS if isinstance(event.data.get(k), int)), None)
        if event.type in QUESTIONS and seat == 0:
            seat = None  # a question put to the human is their prompt, not their move
        for u in utts:
            owner[id(u)] = (u, seat)
        return utts

    session.table.deliver = marking_deliver  # type: ignore[method-assign]
    ui.turn_prompt = mark_prompt  # type: ignore[method-assign]
    ui.narrate = own_narrate  # type: ignore[method-assign]
    session.start()
    turns: list[Turn] = []
    for _ in range(max_turns):
        if match.over:
            break
        out.append(("cmd", 0))
        session.handle(AUTOPLAY[lang], 0)
    turn: Turn | None = None
    where: Any = None
    move: Move | None = None
    line_owner: int | None = -1
    for item in out:
        if isinstance(item, tuple):
            kind_, seat = item
            if kind_ == "owner":
                line_owner = seat
                continue
            if kind_ == "events":
                if move is not None:
                    move.events = seat
                continue
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
            if move is not None and where is move.lines:
                move.owners.append(line_owner)
            line_owner = -1
    if turns and match.over and turns[-1].moves:
        turns[-1].moves[-1].final = True
    return turns


@dataclass
class Figures:
    """Per turn of the human (from « joue pour moi » to their next prompt), the end excluded."""

    own: list[int]  # words of the human's own move (lines of events naming seat 0), each turn
    bot: list[int]  # words of each bot move (lines of events naming that bot)
    table: list[int]  # words of the table's lines (a round's outcome), each turn
    turn: list[int]  # all words between the move and the prompt, each turn
    budget: list[int]  # each turn's terse allowance: 12 for one's own move + 8 for each bot move
    ack: list[int]
    prompt: list[int]

    @staticmethod
    def of(turns: list[Turn], kaliko: bool, verbosity: Verbosity) -> Figures:
        """Kaliko's allowance: one word a cell, and for each incidental path its colour (terse)
        or its sentence (normal: 7 words)."""
        path_words = 1 if verbosity == Verbosity.TERSE else 7

        def allowance(m: Move) -> int:
            return m.cells + path_words * m.incidental if kaliko else 0

        f = Figures([], [], [], [], [], [], [])
        for t in turns:
            moves = [m for m in t.moves if not m.final]
            if not moves or len(moves) < len(t.moves):
                continue  # the game ended in this turn: its end is not routine
            f.own.append(sum(m.words_of(0) for m in moves) - sum(allowance(m) for m in moves if m.seat == 0))
            f.bot += [m.words_of(m.seat) - allowance(m) for m in moves if m.seat != 0]
            f.table.append(sum(m.words_of(None) + m.words_of(-1) for m in moves))
            f.turn.append(sum(m.words for m in moves) - sum(allowance(m) for m in moves))
            # a bot move is a step by a bot, or a bot's own event inside another step (Good
            # Fortune places both tiles of a round when the second is pushed)
            bot_moves = sum(1 for m in moves for o in set(m.owners) | {m.seat} if isinstance(o, int) and o > 0)
            f.budget.append(12 + 8 * bot_moves)
            f.ack.append(sum(words(x) for x in t.ack))
            f.prompt.append(sum(words(x) for x in t.prompt))
        return f


def figures(game: str, lang: str, verbosity: Verbosity, seed: int = 3, **kw: Any) -> Figures:
    return Figures.of(scripted_game(game, lang, verbosity, seed, **kw), game == "kaliko", verbosity)


# --- #29: a round as it is printed -------------------------------------------------------
ROUNDS = 6  # rounds of « joue pour moi » from the first move
# Terse limits per round (#29 "Done when"); normal: median and max per round, every game.
TERSE_ROUND = {"kissa": 30, "kikoi": 24, "goodfortune": 24, "kaliko": 28}
NORMAL_MEDIAN, NORMAL_MAX = 45, 90


def tokens(line: str) -> int:
    """Every whitespace-separated token printed, the speaker's tag and lone punctuation
    included (a braille display shows them all, a screen reader says most)."""
    return len(line.split())


def round_lines(turn: Turn) -> list[str]:
    return turn.ack + [x for m in turn.moves for x in m.lines] + turn.prompt


def rounds(game: str, lang: str, verbosity: Verbosity, seed: int = 3, n: int = ROUNDS) -> list[list[str]]:
    """The printed lines of each of the first `n` rounds, from « joue pour moi » to the next
    prompt, a round that ended the game left out (its end is not routine)."""
    out = []
    for t in scripted_game(game, lang, verbosity, seed, max_turns=n):
        if any(m.final for m in t.moves):
            continue
        out.append(round_lines(t))
    return out


def round_tokens(game: str, lang: str, verbosity: Verbosity, seed: int = 3, n: int = ROUNDS) -> list[int]:
    return [sum(tokens(x) for x in r) for r in rounds(game, lang, verbosity, seed, n)]


# Where "who did what to whom" needs more words than the budget (#29: the meaning wins, and
# the report says by how many): the verb of each move said subject – verb – object, the
# « à » / « for » of a KIKOI question, the « Ligne » naming each Kaliko path.
MEANING_WORDS = {
    "kissa": {},
    "kikoi": {"asked": 2, "kikonk_asked": 1},
    "goodfortune": {"tile_pushed": 1, "placement_choice": 4},  # a choice: its two options said
    "kaliko": {"tiles_played": 1},
}


def meaning_words(game: str, turn: Turn) -> int:
    extra = 0
    for m in turn.moves:
        for e in m.events:
            extra += MEANING_WORDS[game].get(e.type, 0)
            if game == "kaliko" and e.type == "tiles_played":
                extra += len(e.data.get("paths", []))
    return extra


def terse_rounds(game: str, lang: str, seed: int = 3, n: int = ROUNDS) -> list[tuple[int, int, list[str]]]:
    """(tokens, allowance, lines) of each terse round: the limit plus the meaning's words."""
    out = []
    for t in scripted_game(game, lang, Verbosity.TERSE, seed, max_turns=n):
        if any(m.final for m in t.moves):
            continue
        lines = round_lines(t)
        out.append((sum(tokens(x) for x in lines), TERSE_ROUND[game] + meaning_words(game, t), lines))
    return out
