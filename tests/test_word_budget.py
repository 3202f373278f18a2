"""The word budget (#17, DESIGN "A routine turn is short"): scripted games of every game, in
French and English, terse and normal, counted as a human hears them (tests/wordbudget.py).

Terse: one's own move at most 12 words, each bot move at most 8 (Kaliko: plus one a cell,
and one a path beyond the main one), and the whole stretch from one's move to the next
prompt within 12 + 8 a bot move. Normal: one's own move at most 25 words. « Joue pour moi »
is acknowledged in at most two words. Paired with a content test: every terse move line still
names the move (its cells, numbers, token or tile). Figures: bench/word_budget.py.
"""

from __future__ import annotations

from functools import cache

import pytest

from companion.core import find
from companion.narration import Verbosity, catalog
from companion.session.transcript import bot_game
from tests.wordbudget import GAMES, Figures, figures

LANGS = ("fr", "en")


@cache
def measured(game: str, lang: str, verbosity: Verbosity) -> Figures:
    return figures(game, lang, verbosity, seed=3)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_terse_budget(game, lang):
    f = measured(game, lang, Verbosity.TERSE)
    assert len(f.turn) >= 5, "the scripted game is too short to measure"
    assert max(f.own) <= 12, f.own
    assert max(f.bot, default=0) <= 8, f.bot
    over = [(t, b) for t, b in zip(f.turn, f.budget, strict=True) if t > b]
    assert not over, over
    assert max(f.ack) <= 2, f.ack


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_normal_budget(game, lang):
    f = measured(game, lang, Verbosity.NORMAL)
    assert max(f.own) <= 25, f.own
    assert max(f.ack) <= 2, f.ack


def _terse(utts, lang):
    cat = catalog(lang)
    return " ".join(cat.render(u, Verbosity.TERSE) for u in utts if u.to is None)


@cache
def _game(name):
    names = {"kikoi": ["Marie", "Paul", "Zoé"]}.get(name, ["Marie", "Paul"])
    return bot_game(find(name), seed=5, names=names)


def _named(ev, text):
    """What a terse line must name for this event, or None when the event is not a move."""
    d = ev.data
    if ev.type == "tiles_played":  # Kaliko: every cell
        from companion.games.kaliko.notation import cell_text

        return all(cell_text(*p["cell"]).replace(" ", "-") in text for p in d["placements"])
    if ev.type == "move_played":  # 2kissa10: the three numbers
        return all(str(v) in text for v in d["values"])
    if ev.type == "asked":  # KIKOI: the token asked for, by its KIKOI's name
        return d["token"].split("-")[0].lower() in text.lower()
    if ev.type in ("tile_pushed", "tile_placed"):  # Good Fortune: the tile's number
        return str(int(d["tile"].split(":")[0])) in text
    return None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_terse_move_line_names_the_move(game, lang):
    match, ui = _game(game)
    checked = 0
    for ev in match.events():
        text = _terse(ui.narrate(ev, match), lang)
        named = _named(ev, text)
        if named is None:
            continue
        assert named, (ev.type, ev.data, text)
        checked += 1
    assert checked >= 5
