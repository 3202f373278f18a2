"""Who is asked « kipirat ? » when a token passes between two other players (#17; RULES KI-11, KIA-9).

`kipirat_window=everyone` (default): every other player, so that a table of several people
never learns who holds it. `kipirat_window=holder`: only the holder, each time they may steal;
for one human among bots, who was asked on every bot-to-bot gift (13 times in one game).
The secrecy of both is checked in tests/test_hidden_info.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.core import Match, Rng, find
from companion.games.kikoi.rules import ASK, PIRATE, Ask, Pirate, Rules, State
from companion.games.kikoi.tokens import KIPIRAT
from companion.games.kikoi.tokens import token_from_id as T
from companion.narration import Verbosity
from companion.session import Seat, Session
from companion.session.transcript import load


def lone_game(window: str, holder: int | None, seed: int, lang: str = "fr") -> tuple[Match[Any, Any], list[Any], int]:
    """Marie (seat 0) alone against three bots, her moves played by « joue pour moi ».
    `holder`: the seat given the KIPIRAT at the start (None: it stays in the bag).
    Returns the match, the phase of each question put to Marie, and the KIPIRAT windows she
    could have stolen in (a gift between two others while she held it)."""
    rules, ui, bots = load(find("kikoi"), kipirat_window=window)
    names = ["Marie", "Paul", "Zoé", "Tom"]
    match: Match[Any, Any] = Match(rules, names, seed)
    if holder is not None:
        data = rules.state_to_json(match.state)
        data["bag"].remove("kipirat")
        data["pirate"] = holder
        match.state = rules.state_from_json(data)
    root = Rng(seed)
    seats = [Seat("Marie")] + [Seat(names[i], bot=bots["memory"](rules, i, root.fork(i + 1))) for i in (1, 2, 3)]
    session = Session("kikoi", ui, match, seats, lang=lang, verbosity=Verbosity.TERSE, out=lambda _: None,
                      private_policy="withhold")
    session.helper = lambda seat: bots["memory"](rules, seat, Rng(seed).fork(100 + seat + len(match.history)))
    asked: list[str] = []
    prompt = ui.turn_prompt

    def counting(m: Match[Any, Any], seat: int) -> Any:
        asked.append(m.state.phase)
        return prompt(m, seat)

    ui.turn_prompt = counting  # type: ignore[method-assign]
    session.start()
    for _ in range(400):
        if match.over:
            break
        session.handle("joue pour moi" if lang == "fr" else "play for me", 0)
    assert match.over
    could = 0
    for step in match.history:
        for ev in step.events:
            if ev.type == "given" and 0 not in (ev.data["giver"], ev.data["receiver"]):
                could += step.before.pirate == 0 and KIPIRAT not in step.before.out
    return match, asked, could


@pytest.mark.parametrize("seed", [1, 2])
def test_a_lone_human_without_the_kipirat_is_never_asked(seed):
    for holder in (1, 2, 3):
        _, asked, could = lone_game("holder", holder, seed)
        assert could == 0 and PIRATE not in asked, (holder, asked.count(PIRATE))
    # in the bag at first: asked only once they drew it, and then every time they may steal
    _, asked, could = lone_game("holder", None, seed)
    assert asked.count(PIRATE) == could


@pytest.mark.parametrize("seed", [1, 2])
def test_a_lone_human_holding_the_kipirat_is_asked_every_time_they_may_steal(seed):
    match, asked, could = lone_game("holder", 0, seed)
    assert could >= 1 and asked.count(PIRATE) == could


def test_everyone_is_asked_by_default():
    """The default (several humans): the lone human is asked on gifts they cannot steal from."""
    _, asked, could = lone_game("everyone", 1, 1)
    assert could == 0 and asked.count(PIRATE) >= 3


def test_the_same_bot_game_in_both_windows():
    """Bots decide the same: only the questions nobody could answer differently are gone."""
    rules = {w: Rules(kipirat_window=w) for w in ("everyone", "holder")}
    for seed in range(3):
        ends = []
        lengths: dict[str, int] = {}
        for window, game in rules.items():
            _, _, bots = load(find("kikoi"))
            match: Match[Any, Any] = Match(game, ["A", "B", "C"], seed)
            players = [bots["memory"](game, i, Rng(seed).fork(i + 1)) for i in range(3)]
            for p in players:
                p.observe([e for e in match.setup_events if e.visible_to(p.seat)])
            while not match.over:
                seat = match.current
                assert seat is not None
                events = match.play(seat, players[seat].choose(match.state))
                for p in players:
                    p.observe([e for e in events if e.visible_to(p.seat)])
            ends.append((game.state_to_json(match.state)["boards"], [e.type for e in match.events() if e.to is None]))
            lengths[window] = len(match.history)
        assert ends[0] == ends[1]
        assert lengths["holder"] < lengths["everyone"]  # fewer moves: the empty windows are gone


def test_holder_window_rules():
    """Only the holder, and only when they are neither the giver nor the receiver."""
    game = Rules(kipirat_window="holder")

    def state(pirate: int | None) -> State:
        boards = ((T("kigliss-eat"),), (T("kigliss-sleep"),), (T("kimouss-eat"),), (T("kiboss-eat"),))
        bag = () if pirate is not None else (KIPIRAT,)
        return State(4, boards, bag, (), pirate, 0, 0, ASK, 0)

    ask = Ask(1, T("kigliss-sleep"))
    for pirate, window in ((2, True), (3, True), (1, False), (0, False), (None, False)):
        after, events = game.apply(state(pirate), 0, ask, Rng(0))
        assert (after.phase == PIRATE) == window, pirate
        if window:
            assert after.actor == pirate and after.queue == (pirate,)
            assert game.legal_actions(after, pirate) == [Pirate(True), Pirate(False)]
            # only the holder knows a window is open: the others see the token received
            for seat in (None, 0, 1, 5 - pirate):
                view = game.view(after, seat)
                assert view["phase"] == ASK and view["to_act"] == 0 and "passing" not in view
            assert game.view(after, pirate)["passing"]["token"] == "kigliss-sleep"
        else:
            assert after.phase == ASK and [e.type for e in events][-1] == "play_again"


def test_table_options_for_one_human_only():
    from companion.games.kikoi import table_options

    assert table_options({}, 1) == {"kipirat_window": "holder"}
    assert table_options({"physical": "true"}, 2) == {"physical": "true"}
    assert table_options({"kipirat_window": "everyone"}, 1) == {"kipirat_window": "everyone"}
    assert Rules(**table_options({}, 1)).config["kipirat_window"] == "holder"
