"""The word budget (#17, DESIGN "A routine turn is short"): scripted games of every game, in
French and English, terse and normal, counted as a human hears them (tests/wordbudget.py).

Terse (#29): each of six rounds of « joue pour moi », counted as printed (every token, the
speaker's tag included), within the game's limit plus the words its meaning needs; 2kissa10
says a cell for every number. Normal: one's own move at most 25 words, and each round's
median and maximum (45, 90). « Joue pour moi »
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


# #29 counts a whole round as printed (test_terse_round_within_budget below); a terse move
# said subject – verb – object with its cells is no longer held to #17's 12 / 8 words a move.


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


# --- #29: a round as printed (every token, speaker tags included), six rounds ---------------
import re  # noqa: E402
import statistics  # noqa: E402

from tests.wordbudget import NORMAL_MAX, NORMAL_MEDIAN, round_tokens, terse_rounds  # noqa: E402

_KISSA_CELL = re.compile(r"^[A-J](10|[1-9])[.,]?$")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_terse_round_within_budget(game, lang):
    """Per terse round: 2kissa10 <= 30, KIKOI <= 24, Good Fortune <= 24, Kaliko <= 28, plus the
    words the meaning needs (tests/wordbudget.py MEANING_WORDS, said in the report)."""
    rounds = terse_rounds(game, lang)
    assert len(rounds) >= 5
    over = [(n, limit, lines) for n, limit, lines in rounds if n > limit]
    assert not over, over


@pytest.mark.parametrize("lang", LANGS)
def test_terse_kissa_says_a_cell_for_every_number(lang):
    """« Marie joue 67 D8 bas fois 98 H2 égale 6566 C7. »: three numbers, three cells."""
    verb = {"fr": " joue ", "en": " plays "}[lang]
    moves = [x for _, _, lines in terse_rounds("kissa", lang) for x in lines if verb in x]
    assert len(moves) >= 10
    for line in moves:
        words = line.split()
        assert sum(1 for w in words if _KISSA_CELL.match(w)) == 3, line


NORMAL_OVER: set[str] = set()  # games whose normal rounds are not yet within the budget (none)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_normal_round_median_and_max(game, lang, request):
    if game in NORMAL_OVER:
        request.applymarker(pytest.mark.xfail(strict=True, reason="normal rounds still over 45 words (report)"))
    t = round_tokens(game, lang, Verbosity.NORMAL)
    assert statistics.median(t) <= NORMAL_MEDIAN and max(t) <= NORMAL_MAX, t
