"""RULES §1.4 fixtures KF-0 to KF-4 (= seed examples 6 and 8) and every refusal reason."""

from companion.games.kaliko.scoring import evaluate
from companion.games.kaliko.tiles import cell_id, oriented

from .helpers import board, play, shape

START_A = board(((0, 0), shape("A", "RWB")))


def _paths(verdict):
    return [(p.colour, p.segments, p.crossings, p.closed, p.score, p.main) for p in verdict.paths]


def test_kf1_small_round_is_seed_example_6():
    v = evaluate(START_A, play(((1, 0), shape("A", "WRB")), ((0, 1), shape("A", "BBR"))))
    assert v.legal and v.score == 6
    assert _paths(v) == [("R", 3, 0, True, 6, True)]


def test_kf0_extension_alone_does_not_score():
    v = evaluate(START_A, play(((1, 0), shape("A", "WRB"))))
    assert not v.legal and v.reason == "no_scoring_path" and v.score == 0


KF2_OLD = board(((0, 0), shape("B", "WRR")))
KF2 = [((-1, 1), shape("A", "BBR")), ((-1, 0), shape("A", "RBW"))]
KF3 = KF2 + [((0, -1), shape("A", "RWB"))]
KF4 = KF3 + [((1, -1), shape("A", "WRW"))]


def test_kf2_joining_crossing_segments_counts_the_old_crossing():
    v = evaluate(KF2_OLD, play(*KF2))
    assert v.legal and v.score == 7
    assert _paths(v) == [("R", 4, 1, False, 7, True)]
    only_new = evaluate(KF2_OLD, play(*KF2), crossings_new_tiles_only=True)
    assert only_new.score == 4  # RULES KA-3 variant


def test_kf3_extension_of_the_main_path_and_a_new_only_pair_that_does_not_score():
    v = evaluate(KF2_OLD, play(*KF3))
    assert v.legal and v.score == 8
    assert _paths(v) == [("R", 5, 1, False, 8, True)]


def test_kf4_closed_figure_eight_is_seed_example_8():
    v = evaluate(KF2_OLD, play(*KF4))
    assert v.legal and v.score == 18
    assert _paths(v) == [("R", 6, 1, True, 18, True)]
    assert evaluate(KF2_OLD, play(*KF4), double_main_only=True).score == 18


def test_occupied_cell_and_the_same_cell_twice():
    v = evaluate(START_A, play(((0, 0), shape("A", "WRB"))))
    assert v.reason == "occupied" and v.detail["cell"] == (0, 0)
    v = evaluate(START_A, play(((1, 0), shape("A", "WRB")), ((1, 0), shape("A", "BBR"))))
    assert v.reason == "occupied"


def test_colour_mismatch_says_where():
    # (1, 0) edge 3 meets the start tile's edge 0 (red); A[R,W,B] puts white there
    v = evaluate(START_A, play(((1, 0), shape("A", "RWB"))))
    assert v.reason == "colour_mismatch"
    assert v.detail["cell"] == (1, 0) and v.detail["edge"] == 3
    assert (v.detail["colour"], v.detail["other"]) == ("W", "R")


def test_too_many_tiles():
    cells = [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0)]
    v = evaluate(START_A, play(*[(c, shape("A", "RWB")) for c in cells]))
    assert v.reason == "too_many_tiles"


def test_no_main_path_two_separate_connections():
    # Kadon "common mistake" (ii): each tile joins two old paths, no path carries both
    old = {
        cell_id(q, r): oriented(t)
        for (q, r), t in [
            ((0, 0), "02W 14W 35W"),
            ((0, -1), "01W 23B 45R"),
            ((1, -1), "05B 14R 23W"),
            ((0, -2), "03W 15R 24B"),
            ((1, -3), "01B 24R 35B"),
            ((1, -2), "04B 12R 35W"),
        ]
    }
    a = (cell_id(2, -2), oriented("01B 23B 45B"))
    b = (cell_id(-1, -1), oriented("05B 12R 34B"))
    assert evaluate(old, [a]).legal and evaluate(old, [b]).legal
    v = evaluate(old, [a, b])
    assert not v.legal and v.reason == "no_main_path"


CLOSED_INCIDENTAL_OLD = [
    ((0, 0), "02W 14W 35W"), ((-1, 0), "05W 13B 24R"), ((0, -1), "03R 12W 45R"),
    ((0, 1), "01W 24W 35W"), ((1, -1), "02W 15B 34R"), ((2, -1), "02R 14B 35W"),
    ((-4, 5), "05R 12W 34B"), ((-3, 2), "03W 15R 24B"), ((-3, 3), "05W 14R 23B"),
    ((-3, 4), "01B 24R 35B"), ((-2, 1), "03R 14W 25R"), ((-1, -1), "01R 24W 35B"),
    ((-4, 1), "03R 14W 25W"), ((-4, 2), "04W 12B 35W"), ((-2, 2), "05W 12W 34W"),
    ((-2, 0), "03B 15W 24W"), ((-1, -2), "04R 15W 23R"), ((0, -3), "02W 14W 35R"),
    ((1, -3), "05R 14B 23W"),
]
CLOSED_INCIDENTAL_PLAY = [((-4, 3), "03B 14B 25B"), ((-4, 4), "05B 14B 23B"), ((-2, 3), "02B 15B 34W")]


def test_incidental_paths_score_and_a_closed_incidental_path_doubles():
    old = {cell_id(q, r): oriented(t) for (q, r), t in CLOSED_INCIDENTAL_OLD}
    new = [(cell_id(q, r), oriented(t)) for (q, r), t in CLOSED_INCIDENTAL_PLAY]
    v = evaluate(old, new)
    assert v.legal and v.score == 15  # RULES K-13, K-17 DEFAULT (KA-4)
    assert sorted(_paths(v)) == sorted(
        [("W", 3, 0, True, 6, False), ("B", 4, 0, False, 4, False), ("B", 5, 0, False, 5, True)]
    )
    v2 = evaluate(old, new, double_main_only=True)
    assert v2.score == 12  # variant KALIKO_DOUBLE_MAIN_ONLY: the white loop is not doubled


def test_a_loop_of_new_segments_only_does_not_score():
    # KF-3's white pair (-1,0)45 + (0,-1)23 joins new segments only: in KF-3 no white path
    v = evaluate(KF2_OLD, play(*KF3))
    assert all(p.colour == "R" for p in v.paths)


def test_no_main_path_names_a_tile_off_the_line():
    old = {
        cell_id(q, r): oriented(t)
        for (q, r), t in [
            ((0, 0), "02W 14W 35W"), ((0, -1), "01W 23B 45R"), ((1, -1), "05B 14R 23W"),
            ((0, -2), "03W 15R 24B"), ((1, -3), "01B 24R 35B"), ((1, -2), "04B 12R 35W"),
        ]
    }
    v = evaluate(old, [(cell_id(2, -2), oriented("01B 23B 45B")), (cell_id(-1, -1), oriented("05B 12R 34B"))])
    assert v.reason == "no_main_path" and v.detail["cell"] in ((2, -2), (-1, -1))
    from companion.core import IllegalAction
    from companion.games.kaliko import UI, Rules
    from companion.narration import catalog

    ui = UI(Rules())
    exc = IllegalAction(v.reason, **v.detail)
    text = catalog("en").render(ui.refusal(exc, None, 0)[0])
    assert text.startswith("no scoring line goes through every tile placed: the tile at ")
    assert "is off the blue line" in text or "is off the red line" in text or "is off the white line" in text


def test_the_plane_has_no_edge_a_play_far_out_scores_the_same():
    # RULES KA-10: an unbounded plane; KF-4 moved 1,000 cells away judges exactly the same
    def moved(items, dq, dr):
        return [((q + dq, r + dr), t) for (q, r), t in items]

    near = evaluate(KF2_OLD, play(*KF4))
    for dq, dr in ((1000, -1000), (-1500, 700)):
        far = evaluate(board(*moved([((0, 0), shape("B", "WRR"))], dq, dr)), play(*moved(KF4, dq, dr)))
        assert far.legal and far.score == near.score == 18
        assert [(p.colour, p.segments, p.crossings, p.closed) for p in far.paths] == [
            (p.colour, p.segments, p.crossings, p.closed) for p in near.paths]
