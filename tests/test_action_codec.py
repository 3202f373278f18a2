"""One action codec per game (issue #23, step 3): `Game.encode_action`/`decode_action` turn an
action into its saved JSON form and back; whatever is not a move of the game is one error,
`ActionDecodeError` (a ValueError), which resume catches — never a KeyError or a TypeError,
never a different move."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.core import GAMES, ActionDecodeError, IllegalAction, Match, find
from companion.saves import journal as jr
from companion.session.transcript import bot_game, journal_game

ROOT = Path(__file__).resolve().parent.parent
JOURNALS = sorted(ROOT.glob("tests/*/golden/*.journal.jsonl"))
JUNK: list[Any] = [None, [], {}, "pass", 7, {"teleport": [1, 2]}, {"type": "warp"}, {"play": "x"},
                   {"ask": "x", "token": "y"}, {"drew": 5}, {"push": "one"}, {"place": None}, {"declare": []}]


@pytest.mark.parametrize("path", JOURNALS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_saved_move_of_the_goldens_decodes_and_encodes_back_to_itself(path):
    match, _ui = journal_game(path)
    game = match.game
    for step in match.history:
        saved = json.loads(json.dumps(game.encode_action(step.action)))
        assert game.decode_action(saved) == step.action
        assert game.encode_action(game.decode_action(saved)) == game.action_to_json(step.action)


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_what_is_no_move_of_the_game_is_one_decode_error(entry, junk):
    game = entry.spec().rules()
    with pytest.raises(ActionDecodeError):
        game.decode_action(junk)
    assert issubclass(ActionDecodeError, ValueError)


def test_a_move_not_in_its_canonical_form_is_refused_not_read_as_another():
    game = find("kikoi").spec().rules()
    assert game.decode_action({"ask": 1, "token": "kigliss-sleep"}) is not None
    with pytest.raises(ActionDecodeError, match="canonical"):
        game.decode_action({"ask": "1", "token": "kigliss-sleep"})
    with pytest.raises(ActionDecodeError):
        find("kaliko").spec().rules().decode_action({"pass": False})  # never silently a pass (#11)


@pytest.mark.parametrize("seat", [None, "0", True, -1, 1.0])
def test_a_saved_move_with_no_seat_is_one_decode_error(seat):
    game = find("goodfortune").spec().rules()
    rec = {"kind": "action", "action": {"push": 1}} if seat is None else {"kind": "action", "seat": seat, "action": {"push": 1}}
    with pytest.raises(ActionDecodeError):
        jr.decode_move(game, rec)
    assert jr.decode_move(game, {"kind": "action", "seat": 1, "action": {"push": 1}})[0] == 1


def _mutations(v: Any) -> Any:
    """Every saved move with one value changed or one key dropped (a hand edit)."""
    bad: list[Any] = [-1, 99, 10**12, "x", None, True, [], {}, 1.5]
    if isinstance(v, dict):
        for k in v:
            yield {key: x for key, x in v.items() if key != k}
            for m in _mutations(v[k]):
                yield {**v, k: m}
    elif isinstance(v, list):
        yield []
        yield v + v[:1]
        for i, x in enumerate(v):
            for m in _mutations(x):
                yield v[:i] + [m] + v[i + 1:]
    yield from bad


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_a_hand_edited_move_is_decoded_and_refused_or_played_never_an_other_error(entry):
    """What resume meets in a save edited by hand: the codec's error or the rules' refusal."""
    match, _ = bot_game(entry, 3, max_steps=12)
    recs = match.actions_json()
    base = Match(match.game, list(match.players), match.seed)
    for rec in recs[:-1]:
        base.play(rec["seat"], match.game.decode_action(rec["action"]))
    for edited in list(_mutations({"seat": recs[-1]["seat"], "action": recs[-1]["action"]}))[:300]:
        try:
            seat, action = jr.decode_move(match.game, copy.deepcopy(edited))
            base.check(seat, action)
        except (ActionDecodeError, IllegalAction):
            pass  # resume sets the line aside, or refuses the save, in one sentence
