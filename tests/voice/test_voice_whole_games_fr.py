"""Issue 30, "Done when": the four games in French played by voice alone, as
`test_voice_whole_games.py` plays the English ones (its docstring says how); a file of their
own, so that the suite's two workers play the English and the French games at once."""

from __future__ import annotations

import pytest

from tests.voice.test_voice_whole_games import IN_SUITE, check_whole_game

FRENCH = [c for c in IN_SUITE if c[1] == "fr"]


@pytest.mark.slow
@pytest.mark.parametrize("game,lang", FRENCH, ids=[f"{g}-{lang}" for g, lang in FRENCH])
def test_a_whole_game_played_by_voice_alone_in_french(game, lang, tmp_path):
    check_whole_game(game, lang, tmp_path)
