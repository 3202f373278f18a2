"""Golden transcripts: whole seeded Kaliko bot games as the table (and one player) hear them.

Each game is a committed journal, replayed (tests/golden.py): a bot change never rewrites
them. COMPANION_REGEN_GOLDEN=1 writes the texts after a deliberate change of wording.
"""

from pathlib import Path

import pytest

from companion.core import find
from companion.narration import Verbosity
from companion.session.transcript import bot_game, transcript
from tests import golden
from tests.kaliko.helpers import physical_game

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = {
    "standard": dict(seed=4, kinds=["greedy", "random"], names=["Marie", "Paul"]),
    "three": dict(seed=9, kinds=["greedy", "greedy", "random"], names=["Léa", "Tom", "Zoé"], hand_size=4),
    # at a physical table: two people telling the tiles they draw (no bots: RULES-side refusal)
    "physical": dict(seed=6, kinds=[None, None], names=["Marie", "Paul"], hand_size=4, physical=True),
}


def game(case):
    """Each case's game is replayed once from its journal and narrated in every language and verbosity."""
    spec = CASES[case]
    options = {k: v for k, v in spec.items() if k not in ("seed", "kinds", "names")}
    if spec.get("physical"):
        return golden.game(GOLDEN / f"{case}.journal.jsonl", "kaliko", options, list(spec["kinds"]),
                           lambda: physical_game(spec["seed"], spec["names"], spec["hand_size"]))
    return golden.game(GOLDEN / f"{case}.journal.jsonl", "kaliko", options, list(spec["kinds"]),
                       lambda: bot_game(find("kaliko"), **spec)[0])


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("verbosity", [Verbosity.TERSE, Verbosity.NORMAL, Verbosity.VERBOSE])
def test_golden_transcript(case, lang, verbosity):
    match, ui = game(case)
    lines = transcript(ui, match, lang, verbosity, viewer=0, strict=True)
    assert match.over and lines
    assert lines[-1].startswith(("Fin", "Game over", "End"))
    golden.check(GOLDEN / f"{case}.{lang}.{verbosity.name.lower()}.txt", "\n".join(lines) + "\n")


def test_private_lines_stay_private():
    match, ui = game("standard")
    table = transcript(ui, match, "fr", strict=True)
    assert not any(line.startswith("[") for line in table)
    mine = transcript(ui, match, "fr", viewer=0, strict=True)
    assert any(line.startswith("[Marie] Ta main") for line in mine)
    assert not any(line.startswith("[Paul]") for line in mine)
