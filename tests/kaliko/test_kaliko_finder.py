"""The play finder: every play it lists is legal and scores what the scorer says, and it
misses none (compared with generate-and-test on small cases)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kaliko.finder import all_plays, naive_plays
from companion.games.kaliko.scoring import evaluate
from companion.games.kaliko.tiles import OT_NUMBER

from .helpers import board, packed, random_position, shape


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 8))
def test_every_listed_play_is_legal_and_scored_by_the_scorer(seed, turns):
    game, match = random_position(seed, turns, hand_size=4)
    if match.over:
        return
    b = packed(match)
    hand = list(match.state.hands[match.current])
    for f in all_plays(b, hand):
        verdict = evaluate(b, list(f.placements))
        assert verdict.legal and verdict.score == f.score
        assert len({OT_NUMBER[ot] for _, ot in f.placements}) == len(f.placements)
        assert {OT_NUMBER[ot] for _, ot in f.placements} <= set(hand)


@pytest.mark.parametrize("seed,k", [(1, 1), (2, 1), (3, 2), (4, 2)])
def test_finder_finds_exactly_what_generate_and_test_finds(seed, k):
    game, match = random_position(seed, 3, hand_size=4)
    if match.over:
        pytest.skip("game over")
    b = packed(match)
    hand = list(match.state.hands[match.current])
    fast = {f.placements: f.score for f in all_plays(b, hand, max_tiles=k)}
    slow = {f.placements: f.score for f in naive_plays(b, hand, max_tiles=k)}
    assert fast == slow


def test_finder_is_exhaustive_with_three_tiles_on_the_start_tile():
    b = board(((0, 0), shape("A", "RWB")))
    hand = [2, 17, 33, 48, 61, 77]
    fast = {f.placements: f.score for f in all_plays(b, hand, max_tiles=3)}
    slow = {f.placements: f.score for f in naive_plays(b, hand, max_tiles=3)}
    assert fast == slow and fast


def test_finder_finds_kf1_and_kf4():
    from companion.games.kaliko.tiles import NUMBER, ORIENTED, identity

    def num(ot):
        return NUMBER[identity(ORIENTED[ot])]

    b = board(((0, 0), shape("A", "RWB")))
    best = all_plays(b, [num(shape("A", "WRB")), num(shape("A", "BBR"))])
    assert best and best[0].score == 6
    b2 = board(((0, 0), shape("B", "WRR")))
    kf4 = [shape("A", "BBR"), shape("A", "RBW"), shape("A", "RWB"), shape("A", "WRW")]
    plays = all_plays(b2, [num(t) for t in kf4])
    assert max(f.score for f in plays) >= 18
    assert any(f.score == 18 and len(f.placements) == 4 for f in plays)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 10))
def test_best_play_search_agrees_with_the_full_list(seed, turns):
    from companion.games.kaliko.finder import best_play

    game, match = random_position(seed, turns, hand_size=5)
    if match.over:
        return
    b = packed(match)
    hand = list(match.state.hands[match.current])
    plays = all_plays(b, hand)
    best = best_play(b, hand)
    if not plays:
        assert best is None
        return
    assert best is not None and best.score == plays[0].score
    assert evaluate(b, list(best.placements)).score == best.score


def test_the_start_tile_has_six_open_ends():
    # RULES K-3, KA-1: every edge of the lone start tile faces an empty cell: one open end
    # each, of the colour of the segment end at that edge, seen from the empty cell.
    from companion.games.kaliko.finder import open_ends
    from companion.games.kaliko.tiles import STEP, cell_id

    start = board(((0, 0), shape("A", "RWB")))  # 01 red, 23 white, 45 blue
    ends = open_ends(start)
    assert len(ends) == 6
    centre = cell_id(0, 0)
    colour_at = {(centre + STEP[e], (e + 3) % 6): c for e, c in enumerate((1, 1, 2, 2, 3, 3))}
    assert {(cell, edge): c for cell, edge, c in ends} == colour_at
