"""Golden transcripts: whole seeded Kaliko bot games as the table (and one player) hear them.

Regenerate with UPDATE_GOLDEN=1 after a deliberate change of wording, and read the diff.
"""

import os
from functools import cache
from pathlib import Path

import pytest

from companion.core import find
from companion.narration import Verbosity
from companion.transcript import bot_game, transcript

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = {
    "standard": dict(seed=4, kinds=["greedy", "random"], names=["Marie", "Paul"]),
    "three": dict(seed=9, kinds=["greedy", "greedy", "random"], names=["Léa", "Tom", "Zoé"], hand_size=4),
}


@cache
def game(case):
    """Each case's game is played once and narrated in every language and verbosity."""
    return bot_game(find("kaliko"), **CASES[case])


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("verbosity", [Verbosity.TERSE, Verbosity.NORMAL, Verbosity.VERBOSE])
def test_golden_transcript(case, lang, verbosity):
    match, ui = game(case)
    lines = transcript(ui, match, lang, verbosity, viewer=0, strict=True)
    assert match.over and lines
    assert lines[-1].startswith(("Fin", "Game over", "End"))
    path = GOLDEN / f"{case}.{lang}.{verbosity.name.lower()}.txt"
    text = "\n".join(lines) + "\n"
    if os.environ.get("UPDATE_GOLDEN") == "1" or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_private_lines_stay_private():
    match, ui = game("standard")
    table = transcript(ui, match, "fr", strict=True)
    assert not any(line.startswith("[") for line in table)
    mine = transcript(ui, match, "fr", viewer=0, strict=True)
    assert any(line.startswith("[Marie] Ta main") for line in mine)
    assert not any(line.startswith("[Paul]") for line in mine)
