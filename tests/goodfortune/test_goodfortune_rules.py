"""Good Fortune rules: docs/rules.md §2.4 worked examples, variants, conformance and properties."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core import IllegalAction, Match, Rng
from companion.games.goodfortune import Rules
from companion.games.goodfortune.deck import Deck, DeckError, make_deck, problems, synthetic
from companion.games.goodfortune.notation import parse_tile
from companion.games.goodfortune.rules import (
    Declare,
    GoodFortune,
    Place,
    Push,
    next_medallion,
    placing_order,
)
from companion.games.goodfortune.scoring import score
from companion.games.goodfortune.tiles import CHARMS, Tile
from tests.conformance import random_playout

VARIANTS = [
    {},
    {"medallion": "pass_only"},
    {"medallion": "flip_only"},
    {"match": "domino_half"},
    {"free_end": True},
    {"free_end": True, "match": "domino_half"},
    {"tie_order": "fixed"},
    {"tiebreak": "most_tiles"},
    {"tiebreak": "largest_group"},
    {"physical": True},
    {"physical": True, "match": "domino_half", "free_end": True},
]


def tiles(*specs: str) -> list[Tile]:
    return [parse_tile(s) for s in specs]


# --- RULES §2.4 worked examples ---------------------------------------------------------------
def test_blog_example_scores_39():
    col = tiles("neko+clover:4", "neko+scarab:3", "neko+mati:2", "horseshoe+fatima:2",
                "horseshoe+clover:2", "ganesh+scarab:4")
    b = score(col)
    assert b.total == 39
    assert [(g.charm, len(g.tiles), g.dice, g.points) for g in b.groups] == [
        ("neko", 3, 9, 27), ("horseshoe", 2, 4, 8), ("ganesh", 1, 4, 4)]


def test_die_sum_tie_break_scores_33_not_30():
    col = tiles("clover+horseshoe:3", "clover+scarab:1", "horseshoe+ganesh:4", "horseshoe+mati:2",
                "clover+neko:2")
    b = score(col)
    assert b.total == 33
    assert [(g.charm, g.points) for g in b.groups] == [("horseshoe", 27), ("clover", 6)]
    assert b.groups[1].tiles == (1, 4)  # indices of the remaining clover tiles, in given order


def test_gfa5_best_branch_against_fixed_order():
    # clover and horseshoe tie (2 tiles, sum 5); taking horseshoe first leaves clover+mati
    # with the mati tile, which then groups by 2 and scores more.
    col = tiles("clover+neko:1", "clover+scarab:4", "horseshoe+mati:4", "horseshoe+ganesh:1", "mati+clover:4")
    best, fixed = score(col), score(col, "fixed")
    assert best.total >= fixed.total
    # an exhaustive check of the rule on every tied branch by brute force
    assert best.total == max(_all_greedy_totals(col))
    assert fixed.groups[0].charm == "clover"


def _all_greedy_totals(col):
    def rec(rest):
        if not rest:
            yield 0
            return
        stats = {c: (sum(1 for t in rest if t.has(c)), sum(t.die for t in rest if t.has(c))) for c in CHARMS}
        top = max(stats.values())
        for c, s in stats.items():
            if s == top:
                for sub in rec([t for t in rest if not t.has(c)]):
                    yield s[0] * s[1] + sub
    return list(rec(col))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(itertools.combinations(CHARMS, 2))), st.integers(1, 4)),
                max_size=10))
def test_grouping_matches_brute_force_and_partitions(items):
    col = [Tile(None, p, d) for p, d in items]
    b = score(col)
    assert b.total == max(_all_greedy_totals(col))
    assert sorted(i for g in b.groups for i in g.tiles) == list(range(len(col)))
    assert b.total == sum(g.points for g in b.groups)
    for g in b.groups:
        assert all(col[i].has(g.charm) for i in g.tiles)
    fixed = score(col, "fixed")
    assert fixed.total in _all_greedy_totals(col)


def example_deck() -> Deck:
    fixed = {5: ("clover", "mati"), 12: ("neko", "scarab"), 16: ("ganesh", "horseshoe"),
             9: ("clover", "fatima"), 14: ("horseshoe", "neko")}
    rest = [p for p in itertools.combinations(CHARMS, 2) if set(p) not in [set(v) for v in fixed.values()]]
    out, it = [], iter(rest)
    for n in range(1, 22):
        out.append(Tile(n, fixed.get(n) or next(it), 1 + n % 4))
    return make_deck("example", out)


def test_one_round_example():
    game = GoodFortune(deck=example_deck())
    m = Match(game, ["P1", "P2"], seed=0)
    hands = ((1, 2, 3, 4, 6, 7, 8, 9, 10), (11, 13, 14, 15, 17, 18, 19, 20, 21))
    m.state = replace(m.state, lines=hands, central=(5, 12, 16), holder=0, face="small", first_holder=0)
    m.play(0, Push(9))
    events = m.play(1, Push(14))
    placed = [e.data for e in events if e.type == "tile_placed"]
    assert [(p["tile"].split(":")[0], p["end"], p["collected"].split(":")[0]) for p in placed] == [
        ("9", "left", "16"), ("14", "right", "9")]
    assert m.state.central == (5, 12, 14)
    assert m.state.collections == ((16,), (9,))
    assert (m.state.holder, m.state.face, m.state.round) == (1, "large", 2)
    assert m.current == 1


def test_both_ends_match_owner_chooses_and_each_end_collects_the_other():
    game = GoodFortune(deck=example_deck())
    assert game.deck.tile(1).pair == {"clover", "horseshoe"}
    s = game.setup(2, Rng(1))[0]
    # line 5 {clover,mati} 12 {neko,scarab} 9 {clover,fatima}: tile 1 (clover) matches both ends
    s = replace(s, lines=((1, 2), (21, 3)), central=(5, 12, 9), holder=0, face="small")
    s, _ = game.apply(s, 0, Push(1), Rng(0))
    s, ev = game.apply(s, 1, Push(21), Rng(0))
    assert game.current_player(s) == 0 and s.phase == "place"
    assert game.legal_actions(s, 0) == [Place("left"), Place("right")]
    choice = [e for e in ev if e.type == "placement_choice"][0].data
    assert [(c["end"], c["gone"].split(":")[0]) for c in choice["choices"]] == [("left", "9"), ("right", "5")]
    left, _ = game.apply(s, 0, Place("left"), Rng(0))
    right, _ = game.apply(s, 0, Place("right"), Rng(0))
    assert left.collections[0] == (9,) and right.collections[0] == (5,)
    assert left.central[:3] != right.central[:3]


def test_no_match_discards_the_opposite_end():
    game = GoodFortune(deck=example_deck())
    s = game.setup(2, Rng(1))[0]
    # tile 16 {ganesh, horseshoe} against 5 {clover, mati} and 12 {neko, scarab}: no match
    s = replace(s, lines=((16, 1), (21, 2)), central=(5, 9, 12), holder=0, face="small", pushed=(None, None))
    s, _ = game.apply(s, 0, Push(16), Rng(0))
    s, ev = game.apply(s, 1, Push(21), Rng(0))
    assert s.phase == "place" and s.order[0] == 0
    assert set(game.legal_actions(s, 0)) == {Place("left"), Place("right")}
    s, ev = game.apply(s, 0, Place("right"), Rng(0))
    placed = [e for e in ev if e.type == "tile_placed"][0]
    assert placed.data["discarded"].startswith("5:") and placed.data["collected"] is None
    assert s.discarded == (5,) and s.collections[0] == ()


def test_forced_placement_refuses_the_unmatched_end():
    game = GoodFortune(deck=example_deck())
    s = game.setup(2, Rng(1))[0]
    # 9 {clover, fatima} matches only 5 {clover, mati} on the left, in a state where it must choose? no:
    # forced placements are played by the engine, so a Place is refused with must_place / not legal.
    s = replace(s, lines=((9, 1), (21, 2)), central=(5, 12, 16), holder=0, face="small")
    with pytest.raises(IllegalAction) as exc:
        game.check(s, 0, Place("right"))
    assert exc.value.code == "push_first"
    with pytest.raises(IllegalAction) as exc:
        game.check(s, 0, Push(21))
    assert exc.value.code == "not_in_line" and exc.value.detail["where"] == "opponent"


def test_free_end_variant_lets_a_matching_tile_go_to_the_other_end():
    game = GoodFortune(deck=example_deck(), free_end=True)
    s = game.setup(2, Rng(1))[0]
    s = replace(s, lines=((9, 1), (21, 2)), central=(5, 12, 16), holder=0, face="small")
    s, _ = game.apply(s, 0, Push(9), Rng(0))
    s, _ = game.apply(s, 1, Push(21), Rng(0))
    assert set(game.legal_actions(s, 0)) == {Place("left"), Place("right")}
    s, ev = game.apply(s, 0, Place("right"), Rng(0))
    assert s.discarded == (5,)  # 16 {ganesh, horseshoe} shares nothing with 9: discard


def test_domino_half_only_the_outer_half_matches():
    game = GoodFortune(deck=example_deck(), match="domino_half")
    s = game.setup(2, Rng(1))[0]
    # left end 5 shows its left half: mati (lefts[0]); 9 {clover, fatima} has no mati
    s = replace(s, lines=((9, 1), (21, 2)), central=(5, 12, 16), lefts=("mati", "neko", "ganesh"),
                holder=0, face="small")
    # right end 16 {ganesh, horseshoe} with ganesh on its left half shows horseshoe: no match either
    s, _ = game.apply(s, 0, Push(9), Rng(0))
    s, _ = game.apply(s, 1, Push(21), Rng(0))
    legal = set(game.legal_actions(s, 0))
    assert legal == {Place(e, c) for e in ("left", "right") for c in ("clover", "fatima")}
    s, ev = game.apply(s, 0, Place("left", "fatima"), Rng(0))
    mine = [e.data for e in ev if e.type == "tile_placed" and e.data["seat"] == 0][0]
    assert [t.split(":")[0] for t in mine["line"]] == ["9", "5", "12"]
    assert mine["lefts"] == ["fatima", "mati", "neko"] and mine["discarded"].startswith("16:")
    assert 16 in s.discarded


@pytest.mark.parametrize("mode,expected", [
    ("pass_flip", [(0, "small"), (1, "large"), (0, "small")]),
    ("pass_only", [(0, "small"), (1, "small"), (0, "small")]),
    ("flip_only", [(0, "small"), (0, "large"), (0, "small")]),
])
def test_medallion_modes(mode, expected):
    seen = [(0, "small")]
    for _ in range(2):
        seen.append(next_medallion(*seen[-1], mode))
    assert seen == expected


def test_placing_order_by_face():
    assert placing_order((9, 14), "small") == (0, 1)
    assert placing_order((9, 14), "large") == (1, 0)
    assert placing_order((20, 3), "small") == (1, 0)


# --- conformance and properties --------------------------------------------------------------------
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_conformance_over_seeds(options):
    for seed in range(12):
        random_playout(Rules(**options), 2, seed, check_every=3)


def _recount(game, m):
    """Replay the event log alone and recount the collections from it."""
    cols = {0: [], 1: []}
    for e in m.events():
        if e.type == "tile_placed" and e.data["collected"]:
            cols[e.data["seat"]].append(parse_tile(e.data["collected"]))
    return cols


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(VARIANTS))
def test_properties_conservation_rounds_and_recount(seed, variant):
    game = Rules(**variant)
    m = random_playout(game, 2, seed, check_every=50)
    s = m.state
    every = list(s.lines[0] + s.lines[1] + s.central + s.collections[0] + s.collections[1] + s.discarded)
    assert sorted(every) == list(range(1, 22))  # 21 tiles conserved
    assert s.lines == ((), ())
    assert len(s.central) == 3
    events = m.events()
    pushes = [e for e in events if e.type == "tile_pushed"]
    assert len(pushes) == 18 and sorted({e.data["round"] for e in pushes}) == list(range(1, 10))
    placed = [e for e in events if e.type == "tile_placed"]
    assert len(placed) == 18
    assert len(s.collections[0]) + len(s.collections[1]) + len(s.discarded) == 18
    cols = _recount(game, m)
    end = events[-1]
    assert end.type == "game_ended"
    for seat in (0, 1):
        assert end.data["scores"][seat] == score(cols[seat], game.config["tie_order"]).total
        assert sum(g["points"] for g in end.data["breakdowns"][seat]) == end.data["scores"][seat]
    assert tuple(end.data["scores"]) == m.outcome().scores


def test_synthetic_deck_obeys_every_constraint():
    d = synthetic()
    assert d.name == "synthetic" and d.synthetic
    assert problems(list(d.tiles)) == []
    assert [t.number for t in d.tiles] == list(range(1, 22))
    for c in CHARMS:
        assert sum(1 for t in d.tiles if t.has(c)) == 6


def test_bad_decks_are_refused_with_reasons():
    d = list(synthetic().tiles)
    bad = d[:20] + [Tile(21, d[0].charms, 3)]
    codes = {c for c, _ in problems(bad)}
    assert "pair_twice" in codes
    with pytest.raises(DeckError):
        make_deck("x", d[:20])
    assert {c for c, _ in problems(d[:20] + [Tile(20, ("clover", "ganesh"), 5)])} >= {"number_twice", "die"}


def test_physical_declaration_order_and_refusals():
    game = Rules(physical=True)
    m = Match(game, ["A", "B"], seed=0)
    assert m.state.phase == "declare" and m.current == 0
    for n in (2, 3, 4, 5, 6, 7, 8, 9):
        m.play(0, Declare(n))
    with pytest.raises(IllegalAction) as exc:
        m.play(0, Declare(10))
    assert exc.value.code == "needs_one_or_twentyone"
    with pytest.raises(IllegalAction) as exc:
        m.play(0, Declare(2))
    assert exc.value.code == "already_declared"
    m.play(0, Declare(21))
    with pytest.raises(IllegalAction) as exc:
        m.play(0, Declare(1))
    assert exc.value.code == "not_central"
    for n in (12, 10, 11):
        ev = m.play(0, Declare(n))
    assert m.state.phase == "push" and m.state.central == (12, 10, 11)
    assert m.state.lines[1] == (1, 13, 14, 15, 16, 17, 18, 19, 20)
    assert m.state.holder == 1 and m.current == 1  # seat 1 holds tile 1: medallion, small face
    assert any(e.type == "medallion_taken" and e.data["seat"] == 1 for e in ev)


def test_state_json_round_trip_mid_game():
    game = Rules()
    m = random_playout(game, 2, 5)
    data = json.loads(json.dumps(game.state_to_json(m.history[7].before)))
    assert game.state_to_json(game.state_from_json(data)) == data


def test_the_deal_gives_one_and_twentyone_apart_nine_each_and_three_in_the_centre():
    # RULES GF-1 to GF-5, checked over many seeds (the companion deals)
    holders, central_sorted = set(), set()
    for seed in range(30):
        s = Match(Rules(), ["A", "B"], seed=seed).state
        assert all(len(line) == 9 and list(line) == sorted(line) for line in s.lines)  # GF-2, GF-4
        one = 0 if 1 in s.lines[0] else 1
        assert 21 in s.lines[1 - one]  # GF-1: one each
        assert len(s.central) == 3 and not {1, 21} & set(s.central)  # GF-3
        assert sorted(s.lines[0] + s.lines[1] + s.central) == list(range(1, 22))
        assert (s.phase, s.holder, s.face, s.first_holder, s.round) == ("push", one, "small", one, 1)  # GF-5
        holders.add(one)
        central_sorted.add(list(s.central) == sorted(s.central))
    assert holders == {0, 1}  # GF-1: at random
    assert central_sorted == {True, False}  # GF-3: in random order


def _ended(options: dict, cols: tuple[tuple[int, ...], tuple[int, ...]]):
    game = GoodFortune(deck=example_deck(), **options)
    s = game.setup(2, Rng(1))[0]
    return game.outcome(replace(s, phase="over", lines=((), ()), collections=cols))


def test_a_tie_is_a_draw_unless_a_tiebreak_is_chosen():
    # RULES GF-14, GFA-7. With the example deck (die = 1 + number % 4): tile 3 alone scores 1 x 4;
    # tiles 4 and 8 share a charm and score 2 x (1 + 1); tiles 1 and 13 share none, 2 + 2.
    one_tile, one_group_of_two, two_groups = (3,), (4, 8), (1, 13)
    assert _ended({}, (one_tile, one_group_of_two)).scores == (4, 4)
    assert _ended({}, (one_tile, two_groups)).scores == (4, 4)
    assert _ended({}, (one_tile, one_group_of_two)).winners == (0, 1)  # GFA-7 default: a draw
    assert _ended({"tiebreak": "most_tiles"}, (one_tile, two_groups)).winners == (1,)
    assert _ended({"tiebreak": "largest_group"}, (one_tile, one_group_of_two)).winners == (1,)
    assert _ended({"tiebreak": "largest_group"}, (one_tile, two_groups)).winners == (0, 1)
    assert _ended({"tiebreak": "most_tiles"}, ((3, 4), two_groups)).winners == (0,)  # GF-14: higher wins


def test_every_seat_sees_the_whole_table():
    # RULES GFA-9: perfect information; every view is the whole state but the deck's table
    game = Rules()
    m = random_playout(game, 2, 3)
    for step in m.history[::5]:
        s = step.before
        public = game.view(s, None)
        assert public == game.view(s, 0) == game.view(s, 1)
        full = game.state_to_json(s)
        full.pop("tiles")
        assert public == full
