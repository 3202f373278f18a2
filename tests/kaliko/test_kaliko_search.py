"""Issue 26: the best-play search equals the exhaustive one (the frozen pre-issue finder kept in
bench/), and the anytime search: a budget or a deadline stops it with a legal play, said as not
proven best; a completed one is exactly `best_play`."""

import importlib.util
import sys
from pathlib import Path

import pytest

from companion.core import Match, Rng
from companion.games.kaliko import search
from companion.games.kaliko.bot import GreedyBot
from companion.games.kaliko.finder import Finder, best_play, count_plays, search_best, search_plays
from companion.games.kaliko.rules import Kaliko, packed_board
from companion.games.kaliko.scoring import evaluate

from .test_kaliko_commands import said, setup_kf1

_OLD = Path(__file__).resolve().parents[2] / "bench" / "kaliko_finder_old.py"


def _old_finder():
    spec = importlib.util.spec_from_file_location("kaliko_finder_old", _OLD)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def _positions():
    """A few positions of greedy 2-tile games, 7-tile hands (cheap to reach)."""
    out = []
    for seed, plies in ((3, 4), (11, 8), (21, 12)):
        game = Kaliko()
        match = Match(game, ["A", "B"], seed)
        bots = [GreedyBot(game, s, Rng(seed).fork(s + 1), max_tiles=2) for s in range(2)]
        for _ in range(plies):
            if match.over:
                break
            match.play(match.current, bots[match.current].choose(match.state))
        if not match.over:
            out.append((packed_board(match.state.board), list(match.state.hands[match.current])))
    return out


@pytest.mark.parametrize("max_tiles", [3, 4])
def test_best_play_equals_the_exhaustive_maximum_of_the_old_finder(max_tiles):
    old = _old_finder()
    for b, hand in _positions():
        everything = old.Finder(b, hand, max_tiles=max_tiles).run()  # exhaustive listing, before issue 26
        new = best_play(b, hand, max_tiles=max_tiles)
        was = old.best_play(b, hand, max_tiles=max_tiles)
        assert (new.score if new else 0) == (everything[0].score if everything else 0)
        assert (new.placements if new else None) == (was.placements if was else None)  # the same play on ties
        listed = {f.placements: f.score for f in Finder(b, hand, max_tiles=max_tiles).run()}
        assert listed == {f.placements: f.score for f in everything}


@pytest.mark.parametrize("crossings_new_tiles_only", [False, True])
def test_the_quick_scores_of_every_play_are_the_judges_scores(crossings_new_tiles_only):
    # paths.py walks old paths whole and the finder re-traces only what the last tile
    # changed: every play's score must still be the one score_paths gives (both variants)
    for b, hand in _positions():
        listed = {frozenset(f.placements): f.score for f in Finder(b, hand, crossings_new_tiles_only, max_tiles=4).run()}
        quick = Finder(b, hand, crossings_new_tiles_only, max_tiles=4, scores_only=True)
        quick.walk()
        assert quick.complete and quick.scores == listed
        n, top, proven = count_plays(b, hand, crossings_new_tiles_only)
        full = Finder(b, hand, crossings_new_tiles_only).run()
        assert (n, top, proven) == (len(full), max((f.score for f in full), default=0), True)


def test_a_search_within_a_large_budget_is_best_play_and_proven():
    for b, hand in _positions():
        got, proven = search_best(b, hand, max_tiles=4, budget=10**9)
        want = best_play(b, hand, max_tiles=4)
        assert proven
        assert (got.placements if got else None) == (want.placements if want else None)


def test_a_spent_budget_stops_with_a_legal_play_not_proven_and_the_same_each_time():
    b, hand = _positions()[0]
    first, proven = search_best(b, hand, budget=2000)  # the whole search walks ~37,000 nodes
    again, _ = search_best(b, hand, budget=2000)
    assert not proven
    assert (first.placements if first else None) == (again.placements if again else None)
    if first is not None:
        verdict = evaluate(b, list(first.placements))
        assert verdict.legal and verdict.score == first.score


def test_a_passed_deadline_stops_the_listing_and_the_best_play():
    b, hand = _positions()[0]
    ticks = iter(range(10**6))

    def clock():
        return next(ticks)

    plays, complete = search_plays(b, hand, deadline=0, clock=clock)
    assert not complete and plays == []
    best, proven = search_best(b, hand, deadline=0, clock=clock)
    short = best_play(b, hand, max_tiles=2)  # always searched: a player hears a play if a short one exists
    assert not proven and (best.placements if best else None) == (short.placements if short else None)


def test_hints_and_best_play_say_found_not_proven_when_the_deadline_is_spent(monkeypatch):
    game, ui, match, seat, a, b = setup_kf1()
    assert said(ui.parse("meilleur", match, seat)).startswith("Meilleur coup, ")
    monkeypatch.setattr(search, "DEADLINE", -1.0)  # already past: the search stops at once
    best = said(ui.parse("meilleur", match, seat))
    assert best.startswith("Meilleur coup trouvé") or best.startswith("Aucun coup")
    moves = said(ui.parse("coups", match, seat), "en")
    assert moves.startswith("At least 0 legal plays")
    assert "Best play found" in said(ui.parse("best", match, seat), "en") or "No scoring" in said(ui.parse("best", match, seat), "en")
