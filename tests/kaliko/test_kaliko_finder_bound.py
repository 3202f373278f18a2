"""The best-play search's pruning bound (issue 26, `Finder._bounded`): sound, exact, and
kept away from the bots' budgeted walk."""

import pytest

from companion.games.kaliko import finder
from companion.games.kaliko.finder import best_play, search_best

from .helpers import packed, random_position


def _positions(count: int, turns: int, hand_size: int) -> list[tuple[dict[int, int], list[int]]]:
    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        _game, match = random_position(seed * 101, turns, hand_size=hand_size)
        if not match.over:
            out.append((packed(match), list(match.state.hands[match.current])))
    return out


def _checked_class():  # type: ignore[no-untyped-def]
    """A pure finder that walks as if nothing were pruned, and checks every claim of the
    bound: where it says « nothing below here beats the best found », every play scored in
    that subtree scores at most that best."""
    base = finder.pure().Finder

    class Checked(base):  # type: ignore[misc, valid-type]
        claims: list[int]
        checked = 0

        def _walk(self, x, e, phase):  # type: ignore[no-untyped-def]
            mark = len(self.claims)
            try:
                return super()._walk(x, e, phase)
            finally:
                del self.claims[mark:]

        def _bounded(self, z, g, left, other, room):  # type: ignore[no-untyped-def]
            if super()._bounded(z, g, left, other, room):
                self.claims.append(self.best_score)
            return False  # walk on: the subtree is checked, not skipped

        def _candidate(self, seq, closed):  # type: ignore[no-untyped-def]
            score = super()._candidate(seq, closed)
            if score is not None:
                for limit in self.claims:
                    self.checked += 1
                    assert score <= limit, "the bound let a better play be pruned"
            return score

    return Checked


@pytest.mark.parametrize("turns", [8, 12])
def test_the_bound_never_prunes_a_play_that_beats_the_best_found(turns):
    checked_class = _checked_class()
    claims = 0
    for board, hand in _positions(8, turns, 5):
        f = checked_class(board, hand, best_only=True, prune=True)
        f.claims = []
        f.run()
        claims += f.checked
    assert claims > 0  # the bound did claim subtrees, and each claim held


def test_pruned_best_play_is_the_unpruned_one():
    pure = finder.pure()
    for board, hand in _positions(5, 10, 5):
        plain = pure.Finder(board, hand, best_only=True).run()
        pruned = pure.Finder(board, hand, best_only=True, prune=True)
        got = pruned.run()
        assert [p.placements for p in got] == [p.placements for p in plain]
        assert [p.score for p in got] == [p.score for p in plain]


def test_the_bound_does_prune_and_only_without_a_budget():
    pure = finder.pure()
    fewer = 0
    for board, hand in _positions(4, 12, 5):
        plain = pure.Finder(board, hand, best_only=True)
        plain.run()
        pruned = pure.Finder(board, hand, best_only=True, prune=True)
        pruned.run()
        assert pruned.nodes <= plain.nodes
        fewer += pruned.nodes < plain.nodes
        # a bot's budgeted search walks the same nodes as before (bot.BUDGET, goldens)
        budget = pure.Finder(board, hand, best_only=True, budget=10**9)
        budget.run()
        assert budget.nodes == plain.nodes
    assert fewer > 0


def test_variants_are_not_pruned_and_the_deadline_search_agrees():
    # the bound counts crossings on the whole path (K-16 DEFAULT): the variant walks unpruned
    board, hand = _positions(1, 10, 5)[0]
    pure = finder.pure()
    assert not pure.Finder(board, hand, crossings_new_tiles_only=True, best_only=True, prune=True).prune
    assert pure.Finder(board, hand, best_only=True, prune=True).prune
    best = best_play(board, hand)
    found, proven = search_best(board, hand)  # no budget: the pruned search, to the end
    assert proven and (found.score if found else None) == (best.score if best else None)
