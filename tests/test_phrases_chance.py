"""Chance told by the table: at a physical table every game lists the chance outcomes a player
may tell now (`GameUI.chance`, written ids) and reads each one back (`GameUI.told`) as the
legal action, whether it comes typed, spoken or from the token reader."""

from __future__ import annotations

import random

import pytest

from companion.core import Match, find
from companion.games.base import Act

CASES = [("kikoi", {"physical": True}, ["Marie", "Paul", "Zoé"]),
         ("goodfortune", {"physical": True}, ["Marie", "Paul"]),
         ("goodfortune", {"physical": True, "match": "domino_half"}, ["Marie", "Paul"]),
         ("kissa", {"physical": True}, ["Marie", "Paul"]),
         ("kaliko", {"physical": True, "hand_size": 3}, ["Marie", "Paul", "Zoé"])]


@pytest.mark.parametrize(("name", "options", "players"), CASES)
def test_every_outcome_listed_is_told_as_the_legal_action(name, options, players):
    pkg = find(name).module()
    game = pkg.Rules(**options)
    ui = pkg.UI(game)
    match = Match(game, players, 3)
    rng = random.Random(3)
    told_some = 0
    for _ in range(60):
        seat = match.current
        if seat is None:
            break
        outcomes = ui.chance(match, seat)
        legal = match.legal(seat)
        for outcome in outcomes:
            intent = ui.told(outcome, match, seat)
            assert isinstance(intent, Act) and intent.action in legal, (outcome, intent)
            told_some += 1
        if outcomes:
            match.play(seat, ui.told(rng.choice(outcomes), match, seat).action)
        else:
            assert ui.told("kigliss-sleep" if name == "kikoi" else "12", match, seat) is None
            match.play(seat, rng.choice(legal))
    assert told_some


def test_outcomes_said_in_words_and_nothing_to_tell_in_the_companion_held_games():
    game = find("kikoi").module().Rules(physical=True)
    ui = find("kikoi").module().UI(game)
    match = Match(game, ["Marie", "Paul", "Zoé"], 1)
    intent = ui.told("le Kigliss qui dort", match, match.current)
    assert isinstance(intent, Act) and game.action_to_json(intent.action) == {"drew": "kigliss-sleep"}
    for name in ("kikoi", "goodfortune", "kissa", "kaliko"):
        pkg = find(name).module()
        game = pkg.Rules()
        m = Match(game, ["Marie", "Paul", "Zoé"][: max(find(name).min_players, 2)], 1)
        assert pkg.UI(game).chance(m, m.current) == []
