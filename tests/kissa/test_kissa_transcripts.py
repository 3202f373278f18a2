"""Golden transcripts: whole seeded bot games of 2kissa10 as the table hears them.

Regenerate with UPDATE_GOLDEN=1 after a deliberate change of wording, and read the diff.
"""

import os
from pathlib import Path

import pytest

from companion.core import find
from companion.narration import Verbosity
from companion.transcript import bot_game, transcript

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = {
    "standard": dict(seed=7, kinds=["greedy", "prudent"], names=["Anne", "Alain"]),
    "kids": dict(seed=3, kinds=["prudent", "greedy", "greedy"], names=["Léa", "Tom", "Zoé"], kids=True),
    "expert": dict(seed=5, kinds=["greedy", "greedy"], names=["Anne", "Alain"], expert=True),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("verbosity", [Verbosity.NORMAL, Verbosity.TERSE])
def test_golden_transcript(case, lang, verbosity):
    if case == "expert" and verbosity is Verbosity.TERSE:
        pytest.skip("one verbosity is enough for the expert game")
    match, ui = bot_game(find("2kissa10"), **CASES[case])
    lines = transcript(ui, match, lang, verbosity, strict=True)
    assert match.over and lines
    path = GOLDEN / f"{case}.{lang}.{verbosity.name.lower()}.txt"
    text = "\n".join(lines) + "\n"
    if os.environ.get("UPDATE_GOLDEN") == "1" or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
