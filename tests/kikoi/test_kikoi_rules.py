"""Les 5 KIKOI rules: docs/rules.md §3.4 worked examples, each rule, and the refusals' reasons."""

from __future__ import annotations

import pytest

from companion.core import IllegalAction, Match
from companion.games.kikoi.rules import (
    ALL,
    ANSWER,
    ASK,
    DRAW,
    PIRATE,
    REDS,
    Ask,
    DrawBlind,
    Drew,
    Pass,
    Pirate,
    RedsIn,
    Reply,
    Rules,
    State,
)
from companion.games.kikoi.tokens import KIKONK, KIPIRAT, KITOURN
from companion.games.kikoi.tokens import token_from_id as T

A, B, C, D = 0, 1, 2, 3
NAMES = ["A", "B", "C", "D"]


def toks(*ids: str) -> tuple[int, ...]:
    return tuple(sorted(T(i) for i in ids))


def row(kikoi: str, *moments: str) -> list[str]:
    return [f"{kikoi}-{m}" for m in (moments or ("house", "eat", "bike", "forest", "sleep"))]


def table(rules: Rules, boards: list[list[str]], bag: list[str], turn: int = A,
          pirate: int | None = None, out: tuple[str, ...] = ()) -> Match:
    """A match set in the middle of a game (4 players unless fewer boards are given)."""
    m = Match(rules, NAMES[: len(boards)], seed=7)
    m.state = State(len(boards), tuple(toks(*b) for b in boards), toks(*bag), toks(*out), pirate,
                    0, turn, ASK, turn)
    return m


def types(events) -> list[str]:
    return [e.type for e in events]


def deal_physical(m: Match, hands: list[list[str]]) -> None:
    for seat, hand in enumerate(hands):
        for tid in hand:
            m.play(seat, Drew(T(tid)))
    if m.game.config["red_tokens"]:
        # RULES KI-1, KI-3: the red tokens were out of the bag for the deal; in they go now.
        assert m.state.phase == REDS and len(m.state.bag) == 13 and m.legal(m.state.first) == [RedsIn()]
        assert types(m.play(m.state.first, RedsIn())) == ["reds_in", "deal_done", "turn_began"]


# --- RULES §3.4, first example (physical table: the players tell the companion) ----------------
def test_worked_example_requests_gift_good_draw_and_refusal():
    m = Match(Rules(physical=True), NAMES, seed=1)
    deal_physical(m, [
        ["kiboss-house", "kigliss-eat", "kigratt-house"],
        ["kiboss-sleep", "kigratt-eat", "kiboucle-house"],
        ["kimouss-sleep", "kigratt-bike", "kiboucle-eat"],
        ["kimouss-house", "kigratt-forest", "kiboucle-bike"],
    ])
    assert m.current == A and m.state.phase == ASK and len(m.state.bag) == 16  # 13 + 3 red
    # A asks B for KIBOSS-sleep: B has it and gives it.
    ev = m.play(A, Ask(B, T("kiboss-sleep")))
    assert types(ev) == ["asked"] and m.current == B and m.state.phase == ANSWER
    with pytest.raises(IllegalAction) as exc:
        m.play(B, Reply(False))  # a refusal of a token the companion knows B holds
    assert exc.value.code == "must_give"
    ev = m.play(B, Reply(True))
    assert types(ev) == ["given"] and m.state.phase == PIRATE
    # the KIPIRAT window: C then D may call it (nobody holds it); both let it pass
    assert m.current == C and m.legal(C) == [Pirate(False)]
    m.play(C, Pirate(False))
    ev = m.play(D, Pirate(False))
    assert types(ev) == ["play_again"] and m.current == A
    assert T("kiboss-sleep") in m.state.boards[A]
    # A asks B again, for KIGLISS-forest: B does not have it.
    m.play(A, Ask(B, T("kigliss-forest")))
    with pytest.raises(IllegalAction) as exc:
        m.play(B, Reply(True))
    assert exc.value.code == "not_held"
    m.play(B, Reply(False))
    assert m.current == A and m.state.phase == DRAW
    with pytest.raises(IllegalAction) as exc:
        m.play(A, Drew(T("kimouss-house")))  # already on D's board
    assert exc.value.code == "already_placed"
    ev = m.play(A, Drew(T("kigliss-forest")))
    assert "good_draw" in types(ev) and m.current == A and m.state.phase == ASK
    # A asks C for KIMOUSS-sleep: illegal, A has no KIMOUSS (KI-5 restriction).
    before = m.state
    with pytest.raises(IllegalAction) as exc:
        m.play(A, Ask(C, T("kimouss-sleep")))
    assert exc.value.code == "kikoi_not_on_board"
    assert m.state == before


def test_worked_example_same_in_companion_mode():
    rules = Rules()
    m = table(rules, [["kiboss-house", "kigliss-eat"], ["kiboss-sleep"], ["kimouss-sleep"], []],
              ["kigliss-forest"], turn=A)
    ev = m.play(A, Ask(B, T("kiboss-sleep")))
    assert types(ev) == ["asked", "given"]
    m.play(C, Pirate(False))
    m.play(D, Pirate(False))
    ev = m.play(A, Ask(B, T("kigliss-forest")))
    # the bag holds only KIGLISS-forest: the draw is good, said publicly; the token privately
    assert types(ev) == ["asked", "refused", "bag_emptied", "token_drawn", "good_draw", "play_again"]
    assert [e.to for e in ev if e.type == "token_drawn"] == [(A,)]
    with pytest.raises(IllegalAction) as exc:
        m.play(A, Ask(C, T("kimouss-sleep")))
    assert exc.value.code == "kikoi_not_on_board"


# --- RULES §3.4, second example: a completed day announced once, then asked for ------------------
def test_worked_example_completed_day_asked_loses_turn():
    rules = Rules(red_tokens=False)
    m = table(rules, [
        row("kigliss") + ["kimouss-bike", "kimouss-forest"],
        row("kiboss"),
        row("kigratt", "house", "eat", "bike", "forest") + ["kimouss-house"],
        ["kigratt-sleep", "kimouss-eat", "kimouss-sleep"] + row("kiboucle"),
    ], [], turn=C, out=("kikonk", "kitourn", "kipirat"))
    ev = m.play(C, Ask(D, T("kigratt-sleep")))
    assert types(ev) == ["asked", "given", "day_completed", "play_again"]
    assert ev[2].data == {"seat": C, "kikoi": "kigratt"} and ev[2].to is None
    ev = m.play(C, Ask(A, T("kimouss-eat")))  # A lacks it and the bag is empty (KIA-6)
    assert types(ev) == ["asked", "refused", "bag_empty_no_draw", "turn_began"] and m.current == D
    m.play(D, Ask(A, T("kimouss-house")))
    m.play(A, Ask(B, T("kimouss-sleep")))
    assert m.current == B
    # B's rows are all empty or full and the bag is empty: B may ask for any KIKOI (KI-5 exception)
    assert Ask(C, T("kigratt-bike")) in m.legal(B)
    ev = m.play(B, Ask(C, T("kigratt-bike")))
    assert types(ev) == ["asked", "refused_completed", "turn_lost", "turn_began"]
    assert m.current == C and T("kigratt-bike") in m.state.boards[C]


def test_completed_ask_variant_draws():
    rules = Rules(red_tokens=False, completed_ask="draw")
    m = table(rules, [[], row("kigratt"), ["kimouss-house"], []], ["kimouss-eat"], turn=A,
              out=("kikonk", "kitourn", "kipirat"))
    # the bag is not empty, so A (no token at all) must draw blind (KIA-5)
    assert m.legal(A) == [DrawBlind()]
    m2 = table(rules, [row("kiboss"), row("kigratt"), ["kimouss-house"], []], [], turn=A,
               out=("kikonk", "kitourn", "kipirat"))
    ev = m2.play(A, Ask(B, T("kigratt-eat")))
    assert types(ev) == ["asked", "refused_completed", "bag_empty_no_draw", "turn_began"]


# --- RULES §3.4, third example: the KIPIRAT -------------------------------------------------------
def test_worked_example_kipirat_steal():
    rules = Rules()
    m = table(rules, [["kiboss-house"], ["kiboss-bike", "kigliss-eat"], ["kimouss-eat"], ["kigratt-eat"]],
              ["kimouss-house", "kikonk"], turn=A, pirate=D)
    ev = m.play(A, Ask(B, T("kiboss-bike")))
    assert types(ev) == ["asked", "given"] and m.state.phase == PIRATE
    # C, who holds nothing secret, may only let it pass; D may steal
    assert m.current == C and m.legal(C) == [Pirate(False)]
    with pytest.raises(IllegalAction) as exc:
        m.play(C, Pirate(True))
    assert exc.value.code == "no_kipirat"
    m.play(C, Pirate(False))
    assert m.legal(D) == [Pirate(True), Pirate(False)]
    ev = m.play(D, Pirate(True))
    assert types(ev) == ["stolen", "turn_lost", "turn_began"]
    assert T("kiboss-bike") in m.state.boards[D] and T("kiboss-bike") not in m.state.boards[A]
    assert m.current == B  # play passes to A's left
    assert KIPIRAT in m.state.out and m.state.pirate is None
    # used once: the next give opens no window
    ev = m.play(B, Ask(C, T("kigliss-bike")))
    assert "given" not in types(ev)


def test_kipirat_secret_is_hidden_from_others():
    rules = Rules()
    m = table(rules, [["kiboss-house"], ["kiboss-bike"], ["kimouss-eat"], ["kigratt-eat"]],
              ["kimouss-house"], turn=A, pirate=D)
    for seat in (A, B, C):
        assert "kipirat" not in str(rules.view(m.state, seat))
    assert rules.view(m.state, D)["secret"] == "kipirat"
    assert rules.hidden_holdings(m.state, D) == ["kigratt-eat", "kipirat"]


def test_kipirat_draw_says_only_bad_draw():
    rules = Rules()
    m = table(rules, [["kiboss-house"], ["kiboss-bike"], ["kimouss-eat"], []], ["kipirat"], turn=A)
    ev = m.play(A, Ask(C, T("kiboss-eat")))
    public = [e.type for e in ev if e.to is None]
    assert public == ["asked", "refused", "bag_emptied", "bad_draw", "turn_began"]
    assert [e.type for e in ev if e.to == (A,)] == ["kipirat_drawn"]
    assert m.state.pirate == A


# --- RULES §3.4, fourth example: the final count, ties shared ------------------------------------
def test_worked_example_final_count_ties_shared():
    rules = Rules(red_tokens=False)
    m = table(rules, [
        row("kimouss") + row("kigratt"),
        row("kigliss"),
        row("kiboss") + row("kiboucle", "house", "eat", "bike", "forest"),
        ["kiboucle-sleep"],
    ], [], turn=C, out=("kikonk", "kitourn", "kipirat"))
    ev = m.play(C, Ask(D, T("kiboucle-sleep")))
    assert ev[-1].type == "game_ended"
    assert ev[-1].data["scores"] == [2, 1, 2, 0] and ev[-1].data["winners"] == [A, C]
    assert sum(ev[-1].data["scores"]) == 5 and m.over and m.current is None
    out = m.outcome()
    assert out.scores == (2, 1, 2, 0) and out.winners == (A, C)


# --- red tokens ---------------------------------------------------------------------------------------
def test_kikonk_asks_everyone_and_plays_again():
    rules = Rules()
    m = table(rules, [["kiboss-house"], ["kigliss-eat"], ["kiboss-eat"], []], ["kikonk"], turn=A)
    ev = m.play(A, Ask(B, T("kiboss-eat")))
    assert types(ev)[-1] == "kikonk_drawn" and m.current == A
    assert all(a.target is ALL for a in m.legal(A))
    with pytest.raises(IllegalAction) as exc:
        m.play(A, Ask(B, T("kiboss-eat")))
    assert exc.value.code == "kikonk_asks_everyone"
    ev = m.play(A, Ask(ALL, T("kiboss-eat")))
    assert types(ev) == ["kikonk_asked", "given"]
    assert ev[1].data["giver"] == C and ev[1].data["kikonk"] is True
    m.play(B, Pirate(False))
    m.play(D, Pirate(False))
    assert m.current == A and T("kiboss-eat") in m.state.boards[A] and KIKONK in m.state.out


def test_kikonk_failed_ends_turn():
    rules = Rules()
    m = table(rules, [["kiboss-house"], ["kigliss-eat"], [], []], ["kikonk", "kiboss-eat"], turn=A)
    m.state = State(4, m.state.boards, m.state.bag, (), None, 0, A, "kikonk", A)
    ev = m.play(A, Ask(ALL, T("kiboss-eat")))
    assert types(ev) == ["kikonk_asked", "kikonk_failed", "turn_began"] and m.current == B


def test_kitourn_rotates_boards_left_and_keeps_secret():
    rules = Rules()
    m = table(rules, [["kiboss-house"], ["kigliss-eat"], row("kimouss"), ["kigratt-eat"]],
              ["kitourn"], turn=A, pirate=B)
    ev = m.play(A, Ask(B, T("kiboss-eat")))
    assert types(ev)[-3:] == ["kitourn_drawn", "boards_rotated", "turn_began"]
    assert all(e.to is None for e in ev if e.type == "boards_rotated")
    assert "tokens" not in ev[-2].data  # the contents are not announced (KIA-8)
    boards = m.state.boards
    assert boards[B] == toks("kiboss-house") and boards[C] == toks("kigliss-eat")
    assert boards[D] == toks(*row("kimouss")) and boards[A] == toks("kigratt-eat")
    assert m.state.pirate == B  # the secret KIPIRAT stays with its holder
    assert m.outcome().scores == (0, 0, 0, 1)  # the completed day counts for its new owner
    assert m.current == B


def test_kitourn_announce_boards_variant_tells_each_privately():
    rules = Rules(announce_boards=True)
    m = table(rules, [["kiboss-house"], ["kigliss-eat"], [], []], ["kitourn"], turn=A)
    ev = m.play(A, Ask(B, T("kiboss-eat")))
    told = [(e.to, e.data["tokens"]) for e in ev if e.type == "board_received"]
    assert told[1] == ((B,), ["kiboss-house"]) and told[0] == ((A,), [])


# --- draws and the variants -------------------------------------------------------------------------
def test_good_draw_same_kikoi_variant():
    for mode, good in (("exact", False), ("same_kikoi", True)):
        m = table(Rules(good_draw=mode), [["kiboss-house"], [], [], []], ["kiboss-eat"], turn=A)
        ev = m.play(A, Ask(B, T("kiboss-sleep")))
        assert ("good_draw" in types(ev)) is good
        assert m.current == (A if good else B)


def test_no_request_draws_blind_or_passes():
    m = table(Rules(), [row("kiboss"), [], [], []], ["kigliss-eat", "kimouss-eat"], turn=A)
    assert m.legal(A) == [DrawBlind()]
    ev = m.play(A, DrawBlind())
    assert "drew_blind" in types(ev) and m.current == B
    m = table(Rules(no_request="pass"), [[], [], [], []], ["kigliss-eat"], turn=A)
    assert m.legal(A) == [Pass()]
    m = table(Rules(physical=True), [[], [], [], []], ["kigliss-eat", "kikonk"], turn=A)
    assert m.legal(A) == [Drew(T("kigliss-eat")), Drew(KIKONK)]


def test_end_when_bag_empties_variant():
    rules = Rules(end="bag_empty", red_tokens=False)
    m = table(rules, [["kiboss-house"], ["kigliss-eat"], ["kimouss-eat"], ["kigratt-eat"]],
              ["kiboucle-eat"], turn=B, out=("kikonk", "kitourn", "kipirat"))
    m.play(B, Ask(C, T("kigliss-sleep")))  # B draws the last token: the bag is empty
    assert m.current == C
    m.play(C, Ask(D, T("kimouss-sleep")))
    ev = m.play(D, Ask(A, T("kigratt-sleep")))
    assert ev[-1].type == "game_ended" and ev[-1].data["reason"] == "bag_empty"


def test_stall_safeguard_ends_the_game():
    rules = Rules(red_tokens=False, stall_rounds=1)
    m = table(rules, [["kiboss-house"], ["kigliss-eat"], ["kimouss-eat"]], [], turn=A,
              out=("kikonk", "kitourn", "kipirat"))
    m.play(A, Ask(B, T("kiboss-eat")))
    m.play(B, Ask(A, T("kigliss-sleep")))
    ev = m.play(C, Ask(A, T("kimouss-bike")))
    assert ev[-1].type == "game_ended" and ev[-1].data["reason"] == "stall"


def test_two_players_is_a_variant_dealing_six():
    with pytest.raises(IllegalAction):
        Match(Rules(), ["A", "B"], seed=1)
    m = Match(Rules(two_players=True), ["A", "B"], seed=1)
    assert [len(b) for b in m.state.boards] == [6, 6] and len(m.state.bag) == 13 + 3


@pytest.mark.parametrize("n,k", [(3, 4), (4, 3)])
def test_deal_sizes(n, k):
    m = Match(Rules(red_tokens=False), NAMES[:n], seed=3)
    assert [len(b) for b in m.state.boards] == [k] * n and len(m.state.bag) == 13
    m = Match(Rules(deal=2), NAMES[:n], seed=3)
    assert [len(b) for b in m.state.boards] == [2] * n and len(m.state.bag) == 25 - 2 * n + 3


def test_physical_deal_refuses_red_and_placed_tokens():
    m = Match(Rules(physical=True), NAMES[:3], seed=1)
    m.play(A, Drew(T("kimouss-eat")))
    with pytest.raises(IllegalAction) as exc:
        m.play(A, Drew(T("kimouss-eat")))
    assert exc.value.code == "already_placed"
    with pytest.raises(IllegalAction) as exc:
        m.play(A, Drew(KITOURN))
    assert exc.value.code == "red_in_deal"


def test_requests_refused_with_reasons():
    m = table(Rules(), [["kiboss-house"], ["kiboss-eat"], [], []], ["kimouss-eat"], turn=A)
    for action, code in [
        (Ask(A, T("kiboss-eat")), "ask_yourself"),
        (Ask(B, T("kiboss-house")), "already_have"),
        (Ask(B, T("kigliss-eat")), "kikoi_not_on_board"),
        (Ask(9, T("kiboss-eat")), "no_such_seat"),
        (Ask(ALL, T("kiboss-eat")), "no_kikonk"),
        (Ask(B, KIKONK), "not_white"),
        (Pirate(True), "wrong_phase"),
        (DrawBlind(), "must_ask"),
    ]:
        with pytest.raises(IllegalAction) as exc:
            m.check(A, action)
        assert exc.value.code == code, action


def test_json_round_trip_of_actions():
    rules = Rules()
    for a in [Ask(1, 3), Ask(ALL, 7), Reply(True), Reply(False), Drew(27), DrawBlind(), Pass(),
              Pirate(True), Pirate(False)]:
        assert rules.action_from_json(rules.action_to_json(a)) == a


# --- the same worked examples scripted at a physical table: the players' answers as actions -------
def test_worked_examples_two_and_three_at_a_physical_table():
    rules = Rules(physical=True, red_tokens=False)
    m = table(rules, [
        row("kigliss") + ["kimouss-bike", "kimouss-forest"],
        row("kiboss"),
        row("kigratt", "house", "eat", "bike", "forest") + ["kimouss-house"],
        ["kigratt-sleep", "kimouss-eat", "kimouss-sleep"] + row("kiboucle"),
    ], [], turn=C, out=("kikonk", "kitourn", "kipirat"))
    m.play(C, Ask(D, T("kigratt-sleep")))
    ev = m.play(D, Reply(True))  # "Denis gave it"
    assert types(ev) == ["given", "day_completed", "play_again"]
    m.play(C, Ask(A, T("kimouss-eat")))
    m.play(A, Reply(False))
    m.play(D, Ask(A, T("kimouss-house")))
    m.play(A, Reply(False))
    m.play(A, Ask(B, T("kimouss-sleep")))
    m.play(B, Reply(False))
    m.play(B, Ask(C, T("kigratt-bike")))
    with pytest.raises(IllegalAction) as exc:
        m.play(C, Reply(True))  # a completed day is never given
    assert exc.value.code == "completed_day_kept"
    ev = m.play(C, Reply(False))
    assert types(ev) == ["refused_completed", "turn_lost", "turn_began"] and m.current == C

    rules = Rules(physical=True)
    m = table(rules, [["kiboss-house"], ["kiboss-bike", "kigliss-eat"], ["kimouss-eat"], ["kigratt-eat"]],
              ["kimouss-house", "kikonk"], turn=A, pirate=D)
    m.play(A, Ask(B, T("kiboss-bike")))
    m.play(B, Reply(True))
    m.play(C, Pirate(False))
    ev = m.play(D, Pirate(True))
    assert types(ev) == ["stolen", "turn_lost", "turn_began"] and m.current == B
    assert T("kiboss-bike") in m.state.boards[D]


def test_physical_draw_of_red_tokens():
    rules = Rules(physical=True)
    m = table(rules, [["kiboss-house"], ["kigliss-eat"], ["kiboss-eat"], []], ["kikonk", "kipirat", "kimouss-eat"], turn=A)
    m.play(A, Ask(B, T("kiboss-eat")))
    m.play(B, Reply(False))
    ev = m.play(A, Drew(KIKONK))
    assert types(ev) == ["kikonk_drawn"] and m.state.phase == "kikonk"
    m.play(A, Ask(ALL, T("kiboss-eat")))
    assert m.current == B  # each other player answers in turn, from the asker's left
    with pytest.raises(IllegalAction):
        m.play(B, Reply(True))
    m.play(B, Reply(False))
    ev = m.play(C, Reply(True))
    assert types(ev) == ["given"] and m.state.phase == PIRATE
    m.play(B, Pirate(False))
    m.play(D, Pirate(False))
    m.play(A, Ask(C, T("kiboss-sleep")))
    m.play(C, Reply(False))
    with pytest.raises(IllegalAction) as exc:
        m.play(A, Drew(KIKONK))
    assert exc.value.code == "out_of_game"
    ev = m.play(A, Drew(KIPIRAT))
    assert [e.type for e in ev if e.to == (A,)] == ["kipirat_drawn"] and m.state.pirate == A


def test_red_tokens_wait_for_the_table_after_a_physical_deal():
    """RULES KI-1, KI-3: out of the bag for the deal, in on the table's word; nothing else meanwhile."""
    m = Match(Rules(physical=True), ["A", "B", "C"], seed=1)
    hands = [["kiboss-house", "kigliss-eat", "kigratt-house", "kimouss-eat"],
             ["kiboss-sleep", "kigratt-eat", "kiboucle-house", "kimouss-bike"],
             ["kimouss-sleep", "kigratt-bike", "kiboucle-eat", "kiboss-bike"]]
    with pytest.raises(IllegalAction) as exc:
        m.play(A, Drew(KIPIRAT))
    assert exc.value.code == "red_in_deal"
    for seat, hand in enumerate(hands):
        for tid in hand:
            m.play(seat, Drew(T(tid)))
    assert m.state.phase == REDS and m.current == A and len(m.state.bag) == 13
    assert set(m.state.out) == {KIKONK, KITOURN, KIPIRAT}
    for action in (Ask(B, T("kiboss-eat")), Drew(T("kigliss-sleep")), Pass()):
        with pytest.raises(IllegalAction) as exc:
            m.play(A, action)
        assert exc.value.code == "wrong_phase" and exc.value.detail["phase"] == REDS
    rules = m.game
    assert rules.action_from_json(rules.action_to_json(RedsIn())) == RedsIn()
    m.play(A, RedsIn())
    assert m.state.phase == ASK and len(m.state.bag) == 16 and not m.state.out
    with pytest.raises(IllegalAction) as exc:
        m.play(A, RedsIn())
    assert exc.value.code == "wrong_phase"
    # without red tokens the game starts as soon as the deal is told
    m2 = Match(Rules(physical=True, red_tokens=False), ["A", "B", "C"], seed=1)
    for seat, hand in enumerate(hands):
        for tid in hand:
            m2.play(seat, Drew(T(tid)))
    assert m2.state.phase == ASK and len(m2.state.bag) == 13


def test_the_table_chooses_who_starts_and_play_passes_left():
    # RULES KI-4: the players choose who starts (option `first`); then the turn goes left,
    # to the next seat, the last seat's left being seat 0.
    m = Match(Rules(first=2, red_tokens=False), NAMES, seed=3)
    assert m.state.first == 2 and m.current == C
    assert [e.data for e in m.events() if e.type == "turn_began"] == [{"seat": C}]
    with pytest.raises(IllegalAction) as exc:
        Match(Rules(first=3), NAMES[:3], seed=3)
    assert exc.value.code == "no_such_seat"
    rules = Rules(red_tokens=False)
    m = table(rules, [["kimouss-house"], ["kigratt-house"], ["kigliss-house"], ["kiboss-house"]],
              ["kiboucle-sleep"], turn=D, out=("kikonk", "kitourn", "kipirat"))
    ev = m.play(D, Ask(A, T("kiboss-eat")))  # A lacks it; D draws a token not asked for
    assert "bad_draw" in types(ev) and ev[-1].type == "turn_began" and m.current == A
