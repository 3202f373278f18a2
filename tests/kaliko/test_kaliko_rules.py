"""Kaliko rules: set-up, turns, exchange, pass, refill, the end, every variant, conformance."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core import IllegalAction, Match, Rng
from companion.games.kaliko.rules import Exchange, Kaliko, Pass, Play
from companion.games.kaliko.tiles import NUMBER, TILES, identity
from tests.conformance import random_playout


def tiles_conserved(match):
    s = match.state
    placed = [NUMBER[identity(t)] for _, _, t in s.board]
    everything = placed + list(s.bag) + [n for h in s.hands for n in h]
    assert sorted(everything) == list(range(1, 86))


def test_setup_random_start_tile_hands_of_seven_and_84_left():
    m = Match(Kaliko(), ["A", "B", "C"], seed=11)
    s = m.state
    assert len(s.board) == 1 and s.board[0][:2] == (0, 0)
    assert all(len(h) == 7 for h in s.hands)
    assert len(s.bag) == 85 - 1 - 21
    tiles_conserved(m)
    starts = {Match(Kaliko(), ["A", "B"], seed=k).state.board[0][2] for k in range(20)}
    assert len(starts) > 5  # RULES K-4 DEFAULT: drawn at random


def test_chosen_start_tile_and_player_counts():
    m = Match(Kaliko(start_tile=42), ["A", "B"], seed=1)
    assert m.state.board[0][2] == TILES[41]
    assert 42 not in m.state.bag
    with pytest.raises(IllegalAction):
        Match(Kaliko(), list("ABCDE"), seed=1)  # DEFAULT 2-4 players
    m6 = Match(Kaliko(max_players=6), list("ABCDEF"), seed=1)
    tiles_conserved(m6)


def test_exchange_draws_then_returns_and_resets_passes():
    g = Kaliko()
    m = Match(g, ["A", "B"], seed=3)
    seat = m.current
    m.play(seat, Pass())
    assert m.state.passes == 1
    other = m.current
    old = m.state.hands[other]
    give = tuple(sorted(old[:3]))
    m.play(other, Exchange(give))
    assert m.state.passes == 0 and len(m.state.hands[other]) == 7
    assert set(give) <= set(m.state.bag)  # returned after the draw
    tiles_conserved(m)
    with pytest.raises(IllegalAction) as exc:
        m.play(m.current, Exchange((999,)))
    assert exc.value.code == "not_in_hand"


def test_exchange_counts_as_pass_variant_ends_the_game():
    m = Match(Kaliko(exchange_counts_as_pass=True), ["A", "B"], seed=3)
    m.play(m.current, Pass())
    m.play(m.current, Exchange((m.state.hands[m.current][0],)))
    assert m.over and m.state.end_reason == "all_passed"


def test_all_players_passing_ends_the_game_and_ties_share_the_win():
    m = Match(Kaliko(), ["A", "B", "C"], seed=5)
    for _ in range(3):
        m.play(m.current, Pass())
    assert m.over
    ev = m.events()[-1]
    assert ev.type == "game_ended" and ev.data["winners"] == [0, 1, 2]


def test_hand_penalty_variant():
    m = Match(Kaliko(hand_penalty=3), ["A", "B"], seed=5)
    m.play(m.current, Pass())
    m.play(m.current, Pass())
    assert m.outcome().scores == (-21, -21)


def test_a_scoring_play_scores_refills_and_refusals_say_why():
    g = Kaliko()
    m = Match(g, ["A", "B"], seed=2)
    for _ in range(10):
        seat = m.current
        plays = g.plays(m.state, seat)
        if plays:
            break
        m.play(seat, Exchange(tuple(sorted(m.state.hands[seat]))))
    assert plays
    best = plays[0]
    before = m.state.scores[seat]
    bag = len(m.state.bag)
    events = m.play(seat, best)
    played = events[0]
    assert played.type == "tiles_played" and played.data["score"] > 0
    assert m.state.scores[seat] == before + played.data["score"]
    assert len(m.state.hands[seat]) == 7 and len(m.state.bag) == bag - len(best.placements)
    tiles_conserved(m)
    # the same play again: its cells are taken now
    other = m.current
    with pytest.raises(IllegalAction) as exc:
        m.check(other, best)
    assert exc.value.code in ("not_in_hand", "occupied")


def test_play_of_a_tile_not_in_hand_is_refused():
    g = Kaliko()
    m = Match(g, ["A", "B"], seed=4)
    seat = m.current
    missing = next(n for n in range(1, 86) if n not in m.state.hands[seat])
    with pytest.raises(IllegalAction) as exc:
        m.check(seat, Play.of([(1, 0, TILES[missing - 1])]))
    assert exc.value.code == "not_in_hand"


def test_game_ends_when_a_hand_empties_with_the_bag_empty():
    # greedy play to the end with small hands reaches K-20 or K-21; tiles always conserved
    g = Kaliko(hand_size=4)
    m = Match(g, ["A", "B"], seed=8)
    rng = Rng(1)
    while not m.over:
        seat = m.current
        plays = g.plays(m.state, seat)
        if plays:
            m.play(seat, plays[0])
        elif m.state.bag:
            m.play(seat, Exchange(tuple(sorted(m.state.hands[seat]))[: len(m.state.bag)]))
        else:
            m.play(seat, Pass())
        tiles_conserved(m)
    assert m.state.end_reason in ("hand_and_bag_empty", "all_passed")
    if m.state.end_reason == "hand_and_bag_empty":
        assert not m.state.bag and any(not h for h in m.state.hands)
    del rng


VARIANTS = [
    {},
    {"start_tile": 7},
    {"crossings_new_tiles_only": True},
    {"double_main_only": True},
    {"exchange_counts_as_pass": True},
    {"hand_penalty": 3},
]


@pytest.mark.parametrize("opts", VARIANTS, ids=lambda o: ",".join(o) or "default")
@pytest.mark.parametrize("seed", range(6))
def test_conformance_small_hands(opts, seed):
    # hands of 3 keep the legal-action lists (every exchange and every play) small
    random_playout(Kaliko(hand_size=3, **opts), 2 + seed % 3, seed)


@pytest.mark.parametrize("seed", range(3))
def test_conformance_hands_of_five(seed):
    random_playout(Kaliko(hand_size=5, max_players=6), 2 + seed * 2, seed, check_every=3)


# Full hands of 7: tests/test_conformance.py already plays six whole random games of the
# default Kaliko (about 50 s), so no duplicate here.


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 100_000), n=st.integers(2, 4))
def test_tiles_are_conserved_through_random_play(seed, n):
    g = Kaliko(hand_size=3)
    m = Match(g, [f"P{i}" for i in range(n)], seed)
    rng = Rng(seed)
    for _ in range(60):
        if m.over:
            break
        m.play(m.current, rng.choice(g.legal_actions(m.state, m.current)))
        tiles_conserved(m)
        assert sum(m.state.scores) >= 0


def test_exchange_is_refused_beyond_the_bag():
    # RULES K-7: no more tiles than the bag holds, and none at all when it is empty
    from dataclasses import replace

    m = Match(Kaliko(), ["A", "B"], seed=3)
    seat = m.current
    hand = m.state.hands[seat]
    m.state = replace(m.state, bag=m.state.bag[:2])
    with pytest.raises(IllegalAction) as exc:
        m.check(seat, Exchange(tuple(sorted(hand[:3]))))
    assert exc.value.code == "bag_too_small"
    assert not any(isinstance(a, Exchange) and len(a.tiles) > 2 for a in m.legal(seat))
    m.check(seat, Exchange(tuple(sorted(hand[:2]))))
    m.state = replace(m.state, bag=())
    with pytest.raises(IllegalAction) as exc:
        m.check(seat, Exchange((hand[0],)))
    assert exc.value.code == "bag_empty"
    assert not any(isinstance(a, Exchange) for a in m.legal(seat))
