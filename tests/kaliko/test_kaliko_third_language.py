"""Kaliko's vocabulary is data: a third language is a phrase table (`phrases_eo/eo/kaliko.json`,
a toy Esperanto beside the shared one of `tests/phrases_eo`), read by the same parser with no
change to any Python file: readings, colours and shapes, numbers, told draws at a real table."""

from __future__ import annotations

from pathlib import Path

from companion.core import Match
from companion.games.base import Act, Answer
from companion.games.kaliko import UI, Rules
from companion.games.kaliko.rules import Drew, Pass
from companion.language import extra_dir, languages

SHARED = Path(__file__).parent.parent / "phrases_eo"
KALIKO = Path(__file__).parent / "phrases_eo"


def test_a_third_language_is_a_folder_of_tables():
    rules = Rules(physical=True, hand_size=3)
    ui = UI(rules)
    match = Match(rules, ["Marie", "Paul"], 1)
    seat = match.current
    assert not isinstance(ui.parse("mi tiris ruĝa 3 5 blanka 7 9 blua 11 1", match, seat), Act)  # no Esperanto yet
    with extra_dir(SHARED), extra_dir(KALIKO):
        assert "eo" in languages()
        intent = ui.parse("mi tiris ruĝa 3 5 blanka 7 9 blua 11 1", match, seat)
        assert isinstance(intent, Act) and intent.action == Drew((5,))
        match.play(seat, intent.action)
        intent = ui.parse("tiris 12 kaj 40 kaj tri", match, match.current)  # « tri »: the shared number words
        assert isinstance(intent, Act) and intent.action == Drew((12, 40, 3))
        match.play(match.current, intent.action)
        intent = ui.parse("mano", match, match.current)
        assert isinstance(intent, Answer) and intent.command == "hand"
        match.play(match.current, Drew((30, 31, 32)))
        assert ui.parse("pasu", match, match.current).action == Pass()
        sayable = ui.phrases(match, match.current, "eo")
        assert ("mano", "hand") in sayable.concrete
    with_english = ui.parse("mi tiris ruĝa 3 5 blanka 7 9 blua 11 1", match, match.current)
    assert not isinstance(with_english, Act)  # gone with its folder
