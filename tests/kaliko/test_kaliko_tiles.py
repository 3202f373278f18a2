"""The 85 tiles (RULES §1.1 and §7): generated, unique under rotation, numbered in order."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kaliko.tiles import (
    COLOUR,
    FITS,
    MATCHINGS,
    NUMBER,
    ORIENTED,
    ROTATIONS,
    TILES,
    fit_key,
    identity,
    parse_segments,
    rotate_segments,
    segments_string,
    shape_of,
)


def test_fifteen_matchings_and_85_tiles_numbered_in_ascii_order():
    assert len(MATCHINGS) == 15
    assert len(TILES) == 85
    assert list(TILES) == sorted(TILES)
    assert TILES[0] == "01B 23B 45B" and NUMBER["01B 23B 45B"] == 1


def test_each_tile_is_its_smallest_rotation_and_no_two_share_a_rotation():
    owner = {}
    for n, t in enumerate(TILES, 1):
        rots = {segments_string(rotate_segments(parse_segments(t), k)) for k in range(6)}
        assert t == min(rots)
        for s in rots:
            assert s not in owner, (s, owner.get(s), n)
            owner[s] = n
    assert len(owner) == 405 == len(ORIENTED)  # 15 x 27 labelled designs, all covered
    assert sum(len(r) for r in ROTATIONS.values()) == 405


def test_shape_counts_and_reflection_classes():
    assert Counter(shape_of(t) for t in TILES) == {"A": 11, "B": 27, "C": 18, "D": 18, "E": 11}

    def mirror(t):  # edge e -> (-e) mod 6 reflects the hexagon
        return identity(segments_string([((-a) % 6, (-b) % 6, c) for a, b, c in parse_segments(t)]))

    classes = {min(t, mirror(t)) for t in TILES}
    assert len(classes) == 74  # flipping would merge tiles: it must stay illegal
    assert any(mirror(t) != t for t in TILES)


def test_parity_fact_every_tile_has_even_colour_counts():
    for col in COLOUR:
        for c in (1, 2, 3):
            assert col.count(c) % 2 == 0
    # a hole whose six fixed edges force an odd count of a colour can never be filled
    assert FITS[fit_key([1, 2, 3, 1, 2, 1])] == ()
    assert FITS[fit_key([1, 1, 2, 2, 3, 3])]
    assert len(FITS[0]) == 405


def test_identity_accepts_any_rotation_and_segment_order():
    assert identity("45b 01r 23w") == identity("01R 23W 45B")
    assert identity("12R 34W 05B") == identity("01B 23R 45W")


@settings(max_examples=200, deadline=None)
@given(edges=st.lists(st.integers(1, 3), min_size=6, max_size=6))
def test_parity_a_closed_hole_with_an_odd_colour_count_never_fills(edges):
    fits = FITS[fit_key(edges)]
    odd = any(edges.count(c) % 2 for c in (1, 2, 3))
    if odd:
        assert fits == ()
    for ot in fits:
        assert list(COLOUR[ot]) == edges
