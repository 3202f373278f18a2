"""Les 5 KIKOI over random play: the conformance suite, conservation of the 28 tokens,
completed days never broken, every game ends, no board in anyone else's view."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core import Match, Rng
from companion.games.kikoi.rules import Rules
from companion.games.kikoi.tokens import completed
from tests.conformance import random_playout

VARIANTS = [
    {},
    {"physical": True},
    {"red_tokens": False},
    {"two_players": True},
    {"deal": 2},
    {"deal": 5, "physical": True},
    {"end": "bag_empty"},
    {"stall_rounds": 1},
    {"good_draw": "same_kikoi"},
    {"completed_ask": "draw"},
    {"no_request": "pass"},
    {"announce_boards": True, "first": 2},
    {"repeat_public_log": True, "physical": True, "red_tokens": False},
]


@pytest.mark.parametrize("opts", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_conformance_over_seeds_and_variants(opts):
    counts = (2,) if opts.get("two_players") else (3, 4)
    for seed in range(12):
        for n in counts:
            m = random_playout(Rules(**opts), n, seed, check_every=3)
            last = m.events()[-1]
            assert last.type == "game_ended"
            assert last.data["scores"] == [len(d) for d in last.data["days"]]
            assert sum(last.data["scores"]) <= 5


def _walk(rules: Rules, n: int, seed: int) -> Match:
    """Random play checking the invariants after every step."""
    m = Match(rules, [f"P{i}" for i in range(n)], seed)
    rng = Rng(seed + 99)
    for _ in range(5000):
        if m.over:
            break
        seat = m.current
        before_days = sorted(k for b in m.state.boards for k in completed(b))
        m.play(seat, rng.choice(m.legal(seat)))
        loc = rules.token_locations(m.state)
        # the 28 tokens are all somewhere, each in one place (bag, boards, secret, out, passing)
        assert sorted(loc) == list(range(28))
        assert sum(len(b) for b in m.state.boards) + len(m.state.bag) + len(m.state.out) \
            + (m.state.pirate is not None) + (m.state.pending is not None) == 28
        # a completed day never loses a token (it may move with its board, KITOURN)
        after_days = sorted(k for b in m.state.boards for k in completed(b))
        assert set(before_days) <= set(after_days)
        # no token of another board in a player's view
        for owner in range(n):
            for secret in rules.hidden_holdings(m.state, owner):
                for viewer in [None, *range(n)]:
                    if viewer != owner:
                        assert secret not in str(rules.view(m.state, viewer))
    assert m.over, "the game did not end"
    return m


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), n=st.integers(3, 4), opt=st.sampled_from(VARIANTS[:-1]))
def test_tokens_conserved_days_kept_and_games_end(seed, n, opt):
    if opt.get("two_players"):
        n = 2
    m = _walk(Rules(**opt), n, seed)
    ended = m.events()[-1]
    assert ended.type == "game_ended" and list(m.outcome().winners) == ended.data["winners"]


def test_public_events_name_no_board_and_private_ones_go_to_their_owner():
    from companion.core import find
    from companion.session.transcript import bot_game

    for seed in range(10):
        m, _ui = bot_game(find("kikoi"), seed, ["random"] * 4)
        for ev in m.events():
            if ev.type in ("tokens_dealt", "token_drawn", "token_dealt", "kipirat_drawn", "board_received"):
                assert ev.to == (ev.data["seat"],)
            if ev.type in ("boards_rotated", "bad_draw", "good_draw", "drew_blind"):
                assert ev.to is None and "token" not in ev.data and "tokens" not in ev.data
