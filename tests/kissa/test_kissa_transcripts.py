"""Golden transcripts: whole seeded bot games of 2kissa10 as the table hears them.

Each game is a committed journal, replayed (tests/golden.py): a bot change never rewrites
them. COMPANION_REGEN_GOLDEN=1 writes the texts after a deliberate change of wording.
"""

from pathlib import Path

import pytest

from companion.core import find
from companion.narration import Verbosity
from companion.session.transcript import bot_game, transcript
from tests import golden

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = {
    "standard": dict(seed=7, kinds=["greedy", "prudent"], names=["Anne", "Alain"]),
    "kids": dict(seed=3, kinds=["prudent", "greedy", "greedy"], names=["Léa", "Tom", "Zoé"], kids=True),
    "expert": dict(seed=5, kinds=["greedy", "greedy"], names=["Anne", "Alain"], expert=True),
}


@pytest.mark.parametrize(
    ("case", "verbosity"),
    [(case, v) for case in sorted(CASES) for v in (Verbosity.NORMAL, Verbosity.TERSE)
     if case != "expert" or v is Verbosity.NORMAL],  # one verbosity is enough for the expert game
)
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_golden_transcript(case, lang, verbosity):
    spec = CASES[case]
    options = {k: v for k, v in spec.items() if k not in ("seed", "kinds", "names")}
    match, ui = golden.game(GOLDEN / f"{case}.journal.jsonl", "2kissa10", options, list(spec["kinds"]),
                            lambda: bot_game(find("kissa"), **spec)[0])
    lines = transcript(ui, match, lang, verbosity, strict=True)
    assert match.over and lines
    golden.check(GOLDEN / f"{case}.{lang}.{verbosity.name.lower()}.txt", "\n".join(lines) + "\n")


def physical_match():
    """A game at a table: the board entered row by row (one row corrected), three moves,
    then a declared "no solution" (TA-7 R3)."""
    from companion.core import Match, Rng
    from companion.games.kissa import UI, Rules
    from companion.games.kissa.bot import GreedyBot
    from companion.games.kissa.notation import board_rows
    from companion.games.kissa.rules import Declare, EnterRow, StartPlay
    from tests.kissa.helpers import random_board

    game = Rules(physical=True)
    match = Match(game, ["Anne", "Alain"], seed=4)
    rows = board_rows(random_board(4))
    match.play(0, EnterRow(0, "1234567890"))
    for r, row in enumerate(rows):
        match.play(0, EnterRow(r, row))
    match.play(0, StartPlay(1))
    bot = GreedyBot(game, 0, Rng(9))
    for _ in range(3):
        seat = match.current
        bot.seat = seat
        match.play(seat, bot.choose(match.state))
    match.play(match.current, Declare())
    return match, UI(game)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_golden_transcript_physical_table(lang):
    match, ui = golden.game(GOLDEN / "physical.journal.jsonl", "2kissa10", {"physical": True}, [None, None],
                            lambda: physical_match()[0])
    lines = transcript(ui, match, lang, Verbosity.NORMAL, strict=True)
    golden.check(GOLDEN / f"physical.{lang}.normal.txt", "\n".join(lines) + "\n")
