"""The fast move finder against a slow brute force (tests/kissa/brute.py), on random boards."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kissa.finder import MoveFinder, find_numbers
from tests.kissa import brute
from tests.kissa.helpers import random_board


def listed(f):
    return [(op, f.numbers[a].cells, f.numbers[b].cells, f.numbers[c].cells, s) for op, a, b, c, s in f.moves()]


def compare(board, expert=False, kids=False, zero=True):
    f = MoveFinder(board, expert=expert, kids=kids, zero_is_number=zero)
    # the numpy segment tables and the plain walk along the lines find the same numbers
    assert [(n.cells, n.value) for n in f.numbers] == [(n.cells, n.value) for n in find_numbers(board, expert, zero)]
    got = listed(f)
    want = brute.moves(board, expert, kids, zero)
    assert len(got) == len(set(got)), "a move listed twice"
    assert set(got) == want
    assert f.count() == len(want)
    assert f.any_move() == bool(want)
    scores = [m[4] for m in got]
    assert scores == sorted(scores, reverse=True), "not best first"
    if want:
        best = f.best(5)
        assert [m[4] for m in best] == sorted((m[4] for m in want), reverse=True)[:5]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    empty=st.integers(40, 97),
    expert=st.booleans(),
    kids=st.booleans(),
    zero=st.booleans(),
)
def test_finder_matches_brute_force_on_part_emptied_boards(seed, empty, expert, kids, zero):
    compare(random_board(seed, empty), expert, kids, zero)


@settings(max_examples=15, deadline=None)
@given(
    digits=st.lists(st.sampled_from([0, 1, 1, 2, 2, 3, 4, 5, 6] + [-1] * 10), min_size=100, max_size=100),
    expert=st.booleans(),
)
def test_finder_matches_brute_force_on_small_digit_boards(digits, expert):
    """Many repeated small digits: many equal values, palindromes and lone zeros."""
    compare(tuple(digits), expert)


@pytest.mark.parametrize("seed", [7, 8])
def test_finder_matches_brute_force_on_full_standard_boards(seed):
    compare(random_board(seed))


@pytest.mark.slow
def test_finder_matches_brute_force_on_a_full_expert_board():
    compare(random_board(9), expert=True)


def test_full_boards_hold_the_expected_number_of_moves():
    counts = [MoveFinder(random_board(s)).count() for s in range(3)]
    assert all(80_000 < n < 110_000 for n in counts), counts
    assert MoveFinder(random_board(0), expert=True).count() > 1_000_000


def test_best_stops_early_and_agrees_with_the_full_listing():
    f = MoveFinder(random_board(random.Random(4).randrange(1000)))
    top = f.best(10)
    allm = list(f.moves())
    assert top == allm[:10]
    assert f.best(0) == []
