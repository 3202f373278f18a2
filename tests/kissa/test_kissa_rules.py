"""2kissa10 rules: the seed's and docs/rules.md's worked examples (§4.4), every end, every variant."""

import json

import pytest

from companion.core import IllegalAction, Match, Rng
from companion.games.kissa.finder import MoveFinder, find_numbers
from companion.games.kissa.rules import Declare, EnterRow, Kissa, Move, StartPlay, State
from tests.conformance import random_playout
from tests.kissa.helpers import board_with, cells

FILLER = {"J10": 5}  # a token far away, so that a move does not clear the board (T-8)


def play_state(board, n=2, turn=0, scores=None):
    return State(tuple(board), tuple(scores or (0,) * n), turn, "play", (True,) * 10)


def apply(game, state, move, seat=0):
    game.check(state, seat, move)
    return game.apply(state, seat, move, Rng(0))


def seed_board():
    # 10 at A1-B1 (row), 29 at C4-C5 (column, down), 39 at E2-F2, 290 at A7-C7
    return board_with(A1=1, B1=0, C4=2, C5=9, E2=3, F2=9, A7=2, B7=9, C7=0, **FILLER)


def test_seed_addition_scores_34():
    game = Kissa()
    state = play_state(seed_board())
    new, events = apply(game, state, Move("+", cells("A1", "B1"), cells("C4", "C5"), cells("E2", "F2")))
    played = events[0]
    assert played.type == "move_played"
    assert played.data["values"] == [10, 29, 39]
    assert played.data["score"] == 34 and new.scores[0] == 34
    for name in ("A1", "B1", "C4", "C5", "E2", "F2"):
        assert new.board[cells(name)[0]] == -1  # T-6: removed


def test_seed_multiplication_scores_86():
    game = Kissa()
    state = play_state(seed_board())
    _, events = apply(game, state, Move("*", cells("A1", "B1"), cells("C4", "C5"), cells("A7", "B7", "C7")))
    assert events[0].data["score"] == 86 and events[0].data["product"]


def test_both_relations_are_two_moves_and_product_scores_16():
    board = board_with(A1=2, C1=2, E1=4, **FILLER)
    f = MoveFinder(board)
    listed = {(op, s) for op, *_, s in f.moves()}
    assert listed == {("+", 8), ("*", 16)}
    assert f.best(1)[0][0] == "*"


@pytest.mark.parametrize(
    ("op", "digits", "expected"), [("+", (3, 4, 7), 28), ("*", (2, 3, 6), 44)]
)
def test_board_cleared_doubles_the_last_move(op, digits, expected):
    game = Kissa()
    state = play_state(board_with(A1=digits[0], C1=digits[1], E1=digits[2]))
    new, events = apply(game, state, Move(op, cells("A1"), cells("C1"), cells("E1")))
    assert events[0].data["score"] == expected and events[0].data["cleared"]
    assert events[-1].type == "game_ended" and events[-1].data["reason"] == "board_cleared"
    assert game.is_over(new) and new.scores == (expected, 0)


def stuck_after_a_move(penalty):
    """1 + 8 = 9 leaves 5, 0, 7 in separate cells: no triple (5 + 0 = 5 needs two 5s)."""
    game = Kissa(penalty=penalty)
    board = board_with(A1=1, C1=8, E1=9, A5=5, E5=0, I5=7)
    state = play_state(board, scores=(100, 100))
    return game, apply(game, state, Move("+", cells("A1"), cells("C1"), cells("E1")))


def test_stuck_player_to_move_loses_44():
    game, (new, events) = stuck_after_a_move("to_move")
    stuck = [e for e in events if e.type == "stuck"][0]
    assert stuck.data["seat"] == 1 and stuck.data["penalised"] == 1 and stuck.data["penalty"] == 44
    assert new.scores == (100 + 18, 100 - 44)
    assert all(d == -1 for d in new.board)  # the board is cleared
    assert events[-1].data["winners"] == [0]


def test_stuck_last_mover_variant():
    _, (new, events) = stuck_after_a_move("last_mover")
    assert [e for e in events if e.type == "stuck"][0].data["penalised"] == 0
    assert new.scores == (100 + 18 - 44, 100)


def test_lone_zero_is_a_number_by_default():
    board = board_with(A1=7, C1=0, E1=7, **FILLER)
    game = Kissa()
    _, events = apply(game, play_state(board), Move("+", cells("C1"), cells("A1"), cells("E1")))
    assert events[0].data["score"] == 24
    strict = Kissa(zero_is_number=False)
    with pytest.raises(IllegalAction) as exc:
        strict.check(play_state(board), 0, Move("+", cells("C1"), cells("A1"), cells("E1")))
    assert exc.value.code == "lone_zero"
    assert not MoveFinder(board, zero_is_number=False).any_move()


def test_zero_plus_zero_scores_30_and_times_zero_is_never_valid():
    board = board_with(A1=0, C1=0, E1=0, G1=7, **FILLER)
    game = Kissa()
    _, events = apply(game, play_state(board), Move("+", cells("A1"), cells("C1"), cells("E1")))
    assert events[0].data["score"] == 30
    with pytest.raises(IllegalAction) as exc:
        game.check(play_state(board), 0, Move("*", cells("A1"), cells("G1"), cells("E1")))
    assert exc.value.code == "times_zero"
    assert all(op == "+" for op, *_ in MoveFinder(board).moves())


def test_refusals_say_why():
    game = Kissa()
    state = play_state(seed_board())
    cases = [
        (Move("+", cells("A1", "B1"), cells("C4", "C5"), cells("E2")), "wrong_result"),
        (Move("+", cells("B1"), cells("C4", "C5"), cells("E2", "F2")), "wrong_result"),
        (Move("+", cells("A1", "B1"), cells("B1", "C1"), cells("E2", "F2")), "empty_cell"),
        (Move("+", cells("A1", "B1"), cells("A1", "B1"), cells("E2", "F2")), "overlap"),
        (Move("+", cells("B1", "A1"), cells("C4", "C5"), cells("E2", "F2")), "leading_zero"),
        (Move("+", cells("C5", "C4"), cells("A1", "B1"), cells("E2", "F2")), "not_a_number"),
        (Move("+", cells("A1", "C4"), cells("A1", "B1"), cells("E2", "F2")), "not_a_number"),
        (Move("-", cells("A1", "B1"), cells("C4", "C5"), cells("E2", "F2")), "bad_operation"),
    ]
    for move, code in cases:
        with pytest.raises(IllegalAction) as exc:
            game.check(state, 0, move)
        assert exc.value.code == code, move


def test_operand_order_and_reading_are_one_move():
    game = Kissa()
    state = play_state(seed_board())
    swapped = Move("+", cells("C4", "C5"), cells("A1", "B1"), cells("E2", "F2"))
    game.check(state, 0, swapped)  # b + a is accepted and played as a + b
    canonical = game.normalize(state.board, swapped)
    assert canonical.a == cells("A1", "B1")
    legal = game.legal_actions(state, 0)
    assert canonical in legal and swapped not in legal
    assert len({json.dumps(game.action_to_json(m)) for m in legal}) == len(legal)


def test_kids_variant_single_digit_operands():
    board = board_with(A1=7, C1=8, E1=1, F1=5, H1=5, A3=6, C3=7, E3=4, F3=2, A5=1, B5=0, **FILLER)
    game = Kissa(kids=True)
    state = play_state(board)
    apply(game, state, Move("+", cells("A1"), cells("C1"), cells("E1", "F1")))  # 7 + 8 = 15
    apply(game, state, Move("*", cells("A3"), cells("C3"), cells("E3", "F3")))  # 6 × 7 = 42
    with pytest.raises(IllegalAction) as exc:
        game.check(state, 0, Move("+", cells("A5", "B5"), cells("H1"), cells("E1", "F1")))
    assert exc.value.code == "kids_single_digit"
    Kissa().check(state, 0, Move("+", cells("A5", "B5"), cells("H1"), cells("E1", "F1")))  # 10 + 5


def test_expert_reads_backwards_and_diagonally():
    # 21 read right to left on B1-A1 ("12" forwards), 3 on a diagonal: C3 D4 (3, 4 -> 34 / 43)
    board = board_with(A1=1, B1=2, D1=3, F1=2, G1=4, **FILLER)
    expert_numbers = {n.value: n.cells for n in find_numbers(board, expert=True)}
    assert expert_numbers[21] == cells("B1", "A1") and expert_numbers[12] == cells("A1", "B1")
    diag = board_with(A1=1, B2=2, C3=3, J10=9)
    values = {n.value for n in find_numbers(diag, expert=True)}
    assert {12, 21, 123, 321, 23, 32} <= values
    assert {12, 123} & {n.value for n in find_numbers(diag)} == set()
    # a palindrome is one number, written forwards
    pal = board_with(A1=1, B1=2, C1=1)
    assert [n.cells for n in find_numbers(pal, expert=True) if n.value == 121] == [cells("A1", "B1", "C1")]
    game = Kissa(expert=True)
    move = Move("+", cells("C1", "B1"), cells("A1"), cells("B1", "A1"))  # 12 + 1 ... overlapping
    with pytest.raises(IllegalAction):
        game.check(play_state(pal), 0, move)


def test_physical_table_entry_then_declared_no_solution():
    game = Kissa(physical=True)
    m = Match(game, ["Anne", "Alain"], seed=3)
    assert m.state.phase == "entry"
    with pytest.raises(IllegalAction) as exc:
        m.play(0, StartPlay(0))
    assert exc.value.code == "board_incomplete"
    rows = [f"{(r * 3) % 10}{(r * 3 + 1) % 10}........" for r in range(10)]
    for r, row in enumerate(rows):
        m.play(0, EnterRow(r, row))
    m.play(0, EnterRow(0, "12........"))  # a correction
    m.play(0, StartPlay(1))
    assert m.current == 1 and m.state.board[0] == 1
    assert m.legal(1)[-1] == Declare()
    events = m.play(1, Declare())  # R3: declared, even though moves exist
    kinds = [e.type for e in events]
    assert kinds == ["declared", "game_ended"]
    assert m.outcome().scores[1] < 0 and m.outcome().winners == (0,)


def test_physical_board_with_no_move_ends_at_once():
    game = Kissa(physical=True)
    m = Match(game, ["Anne", "Alain"], seed=3)
    for r in range(10):
        m.play(0, EnterRow(r, "5.0.7....." if r == 0 else ".........."))
    events = m.play(0, StartPlay(0))
    stuck = [e for e in events if e.type == "stuck"][0]
    assert stuck.data["penalty"] == 44 and m.over and m.outcome().scores == (-44, 0)


def test_deal_is_ten_of_each_digit_and_seeded():
    game = Kissa()
    a = Match(game, ["A", "B", "C"], seed=11)
    b = Match(game, ["A", "B", "C"], seed=11)
    assert a.state == b.state
    assert sorted(a.state.board) == sorted(d for d in range(10) for _ in range(10))
    assert a.setup_events[0].type == "board_dealt"


def test_state_and_actions_round_trip():
    game = Kissa(expert=True)
    m = Match(game, ["A", "B"], seed=2)
    move = game.legal_actions(m.state, m.current)[0]
    assert game.action_from_json(json.loads(json.dumps(game.action_to_json(move)))) == move
    assert game.state_from_json(json.loads(json.dumps(game.state_to_json(m.state)))) == m.state


@pytest.mark.parametrize(
    ("options", "seed"),
    [({}, 1), ({}, 2), ({"kids": True}, 3), ({"zero_is_number": False}, 4),
     ({"penalty": "last_mover"}, 5), ({"physical": True}, 6), ({"kids": True, "expert": True}, 7)],
)
def test_conformance(options, seed):
    random_playout(Kissa(**options), 2 + seed % 3, seed, check_every=20)


class SparseKissa(Kissa):
    """The expert game dealt on a part-emptied board (a full expert board lists a million
    moves at every step, too many for the conformance checks to walk over and over)."""

    def setup(self, n_players, rng):
        state, events = super().setup(n_players, rng)
        board = list(state.board)
        for i in rng.sample(range(100), 55):
            board[i] = -1
        state = State(tuple(board), state.scores, state.turn, state.phase, state.rows)
        return self._after_turn(state, events, state.turn, None)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_conformance_expert(seed):
    random_playout(SparseKissa(expert=True), 2, seed, check_every=3)


def test_the_whole_order_of_play_is_drawn():
    """RULES T-1: not only the first player; two players keep their game (same draws)."""
    from companion.core import Match
    from companion.games.kissa import Rules as KissaRules

    orders = set()
    for seed in range(12):
        m = Match(KissaRules(), ["A", "B", "C", "D"], seed)
        order = m.state.order
        assert sorted(order) == [0, 1, 2, 3] and order[0] == m.state.turn
        orders.add(order)
        seen = [m.state.turn]
        for _ in range(3):
            seen.append(__import__("companion.games.kissa.rules", fromlist=["next_player"]).next_player(m.state, seen[-1]))
        assert tuple(seen) == order
    assert any(o[1] != (o[0] + 1) % 4 for o in orders)  # not just the seats after the first
    two = Match(KissaRules(), ["A", "B"], 3)
    assert two.state.order is None
    game = KissaRules()
    assert game.state_from_json(game.state_to_json(m.state)) == m.state


def test_times_one_is_allowed_and_doubled():
    # RULES TA-4: only x0 is banned; 1 x 7 = 7 scores (1 + 7 + 7) x 2
    board = board_with(A1=1, C1=7, E1=7, **FILLER)
    _, events = apply(Kissa(), play_state(board), Move("*", cells("A1"), cells("C1"), cells("E1")))
    assert events[0].data["score"] == 30 and events[0].data["product"]
    assert ("*", 30) in {(op, s) for op, *_, s in MoveFinder(board).moves()}


def test_no_pass_while_the_companion_holds_the_board():
    # RULES TA-8: the player must find a move; no pass, and no declaring away from a real table
    game = Kissa()
    state = play_state(board_with(A1=1, C1=2, E1=3, **FILLER))
    legal = list(game.legal_actions(state, 0))
    assert legal and all(isinstance(a, Move) for a in legal)
    assert Declare() not in game.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as exc:
        game.check(state, 0, Declare())
    assert exc.value.code == "declare_physical_only"


def test_equal_totals_share_the_win():
    # RULES T-10, TA-11: the last move (3 + 4 = 7, board cleared: 28) brings seat 0 level
    game = Kissa()
    state = play_state(board_with(A1=3, C1=4, E1=7), scores=(0, 28))
    new, events = apply(game, state, Move("+", cells("A1"), cells("C1"), cells("E1")))
    assert new.scores == (28, 28) and events[-1].data["winners"] == [0, 1]
    assert game.outcome(new).winners == (0, 1)
