"""What is sayable now: every phrase `GameUI.phrases` lists, typed into that state, is understood
with the listed command, and the listed commands cover the legal actions.

For every game, in French and English, at the start and after random playouts: each listed
phrase is handed, as a typed line, to a session core on a replica of that state
(`SessionCore.handle`, the path every input takes) and the record it logs (`InputTaken`) must
say it was taken (`act`, `confirm`, `ask`, `answer`, a shared word, or a shared word refused with
its reason, « annule » with nothing to undo), with the listed command. KIKOI and Good Fortune list every legal action; 2kissa10 and
Kaliko (tens of thousands of moves) are checked on a 200-action sample. Every concrete phrase
is also an instance of a template of the grammar with values of its slots.
"""

from __future__ import annotations

import functools
import json
import random
import re
from typing import Any

import pytest

from companion.core import Match, find
from companion.games.base import action_command
from companion.games.kaliko.phrases import play_steps, split_steps
from companion.games.kissa.phrases import move_phrase, spoken_move
from companion.language import LIMIT, pick
from companion.session.core import Seat, SessionCore
from companion.session.inbox import Line
from companion.session.outputs import InputTaken, replica

UNDERSTOOD = ("shared", "act", "confirm", "ask", "answer")
PLAYERS = ["Marie", "Paul", "Zoé", "Chloé"]

# (game, options, players, playout lengths)
CASES = [
    ("kikoi", {}, 3, (0, 6, 25)),
    ("kikoi", {"physical": True, "repeat_public_log": True}, 4, (0, 14, 40)),
    ("goodfortune", {}, 2, (0, 5, 17)),
    ("goodfortune", {"physical": True, "match": "domino_half"}, 2, (0, 10, 13, 30)),
    ("kissa", {}, 2, (0, 9)),
    ("kissa", {"physical": True}, 2, (0,)),
    ("kaliko", {"hand_size": 4}, 3, (0, 7)),
]


def playout(name: str, options: dict[str, Any], n_players: int, steps: int, seed: int) -> tuple[Any, Match[Any, Any]]:
    """A state after `steps` random legal moves (a random bot in every seat)."""
    pkg = find(name).module()
    game = pkg.Rules(**options)
    ui = pkg.UI(game)
    match: Match[Any, Any] = Match(game, PLAYERS[:n_players], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = match.current
        if seat is None:
            break
        legal = match.legal(seat)
        match.play(seat, legal[rng.randrange(len(legal))])
    return ui, match


@functools.cache
def _parts(template: str) -> tuple[str, ...]:
    return tuple(p for p in re.split(r"(\{\w+\})", template) if p)


def _fits(template: str, phrase: str, slots: dict[str, list[str]]) -> bool:
    """Whether `phrase` is `template` with a value of each slot's list in it."""
    parts = _parts(template)

    def rest_fits(k: int, text: str) -> bool:
        if k == len(parts):
            return not text
        part = parts[k]
        if not part.startswith("{"):
            return text.startswith(part) and rest_fits(k + 1, text[len(part):])
        return any(text.startswith(v) and rest_fits(k + 1, text[len(v):]) for v in slots[part[1:-1]])

    first, last = parts[0], parts[-1]
    if not first.startswith("{") and not phrase.startswith(first):
        return False
    if not last.startswith("{") and not phrase.endswith(last):
        return False
    return rest_fits(0, phrase)


def in_grammar(phrase: str, grammar: dict[str, Any]) -> bool:
    slots = grammar["slots"]
    templates = [r["template"] for r in grammar["rules"]]
    steps = split_steps(phrase) if grammar["game"] == "kaliko" else [phrase]
    return all(any(_fits(t, step, slots) for t in templates) for step in steps)


def understood(ui: Any, phrase: str, match: Match[Any, Any], seat: int, lang: str = "en",
               outputs: list[Any] | None = None) -> tuple[str, str | None]:
    """(outcome, command) of the one record a session core logs for `phrase` typed by `seat`,
    on a replica of `match` (the state stays as it was); what it answered added to `outputs`."""
    core = SessionCore(ui.game.name, ui.probe(), replica(match), [Seat(p) for p in match.players], lang=lang)
    core.start()
    out = core.handle(Line(phrase, seat=seat))
    if outputs is not None:
        outputs += out
    taken = [o for o in out if isinstance(o, InputTaken)]
    assert len(taken) == 1, (phrase, taken)  # one record per input
    return taken[0].outcome, taken[0].command


def check_listed(ui: Any, match: Match[Any, Any], seat: int, lang: str) -> list[tuple[str, str]]:
    sayable = ui.phrases(match, seat, lang)
    grammar = sayable.grammar
    assert grammar["game"] == ui.game.name and grammar["lang"] == lang
    concrete = sayable.concrete
    actions = [(p, c) for p, c in concrete if c.startswith("action:")]
    assert len(actions) <= LIMIT + 2  # a sample beyond the limit (plus one of each template)
    checked = concrete
    if ui.game.name in ("kissa", "kaliko"):  # a 200-action sample of the listed moves
        others = [(p, c) for p, c in concrete if not c.startswith("action:")]
        checked = others + pick(actions, 200, lambda pc: pc[1].split(":")[1][:12])
    for phrase, command in checked:
        assert in_grammar(phrase, grammar), (lang, phrase)
        kind, got = understood(ui, phrase, match, seat, lang)
        allowed = UNDERSTOOD if command.startswith("action:") else (*UNDERSTOOD, "refuse")
        assert got == command and kind in allowed, (lang, seat, phrase, kind, got, command)
    return concrete


@pytest.mark.parametrize(("name", "options", "n_players", "lengths"), CASES,
                         ids=[f"{c[0]}-{'-'.join(f'{k}={v}' for k, v in c[1].items()) or 'default'}" for c in CASES])
def test_every_listed_phrase_is_understood_with_its_command(name, options, n_players, lengths):
    full = name in ("kikoi", "goodfortune")
    for steps in lengths:
        ui, match = playout(name, options, n_players, steps, seed=steps + 1)
        seats = [match.current] if match.current is not None else [0]
        seats.append((seats[0] + 1) % n_players)  # someone waiting: shared words and readings
        for lang in ("fr", "en"):
            for seat in seats:
                concrete = check_listed(ui, match, seat, lang)
                listed = {c for _p, c in concrete}
                legal = match.legal(seat)
                if full:
                    assert {action_command(ui.game, a) for a in legal} <= listed
                    continue
                # 2kissa10, Kaliko: a 200-action sample said in its canonical form is understood
                sample = [legal[i] for i in range(0, len(legal), max(1, len(legal) // 200))][:200]
                for action in sample:
                    if name == "kissa" and hasattr(action, "op"):
                        spoken = spoken_move(match.state.board, action)
                        phrase = move_phrase(match.state.board, spoken, lang)
                        command = action_command(ui.game, spoken)
                    elif name == "kaliko" and hasattr(action, "placements"):
                        phrase = " ; ".join(play_steps(ui, match, seat, action, lang))
                        command = action_command(ui.game, action)
                    else:
                        command = action_command(ui.game, action)
                        assert command in listed
                        continue
                    kind, got = understood(ui, phrase, match, seat, lang)
                    # a whole 2kissa10 equation with its cells has one reading: played at once (#17)
                    assert (kind, got) == ("act", command), (lang, phrase)
                    if len(legal) <= LIMIT:
                        assert command in listed


def test_the_shared_words_come_first_and_a_waiting_player_has_no_moves():
    ui, match = playout("kikoi", {}, 3, 0, seed=1)
    waiting = (match.current + 1) % 3
    sayable = ui.phrases(match, waiting, "fr")
    assert sayable.concrete[0] == ("aide", "help")
    assert not [c for _p, c in sayable.concrete if c.startswith("action:")]
    assert ("mon plateau", "board") in sayable.concrete
    playing = ui.phrases(match, match.current, "en")
    assert ("help", "help") in playing.concrete
    rules = playing.grammar["rules"]
    assert {"template": "ask {player} for {token}", "command": "action"} in rules
    assert set(playing.grammar["slots"]["player"]) == {p for i, p in enumerate(match.players) if i != match.current}


def test_yes_and_no_go_to_the_game_when_it_reads_them():
    """A KIKOI answer: « oui » gives the token, so it is listed as that action, not as "yes"."""
    ui, match = playout("kikoi", {"physical": True}, 3, 0, seed=2)
    rng = random.Random(2)
    while match.state.phase != "answer":
        seat = match.current
        legal = match.legal(seat)
        asks = [a for a in legal if type(a).__name__ == "Ask"]
        match.play(seat, rng.choice(asks or legal))
    seat = match.current
    sayable = ui.phrases(match, seat, "fr")
    assert ("oui", "yes") not in sayable.concrete and ("non", "no") not in sayable.concrete
    from companion.games.kikoi.rules import Reply

    for word, give in (("oui", True), ("non", False)):
        # the game's answer, played, or refused with the game's reason (a token not held)
        outcome = "act" if Reply(give) in match.legal(seat) else "refuse"
        assert understood(ui, word, match, seat, "fr") == (outcome, action_command(ui.game, Reply(give)))


def test_yes_and_no_stay_shared_words_where_the_game_waits_for_a_request():
    """A bare « oui » in KIKOI's ask phase is no request: the shared word, listed (the voice
    hears it, to answer a read-back), and « nothing to confirm » with nothing waiting; a
    request's words there are refused with what the table waits for (issue 24 law 2)."""
    ui, match = playout("kikoi", {}, 3, 0, seed=1)
    seat = match.current
    assert match.state.phase == "ask"
    for lang, yes, no in (("fr", "oui", "non"), ("en", "yes", "no")):
        concrete = ui.phrases(match, seat, lang).concrete
        assert (yes, "yes") in concrete and (no, "no") in concrete, lang
    outputs: list[Any] = []
    assert understood(ui, "oui", match, seat, "fr", outputs) == ("refuse", "yes")
    assert "core.nothing_to_confirm" in [p.id for o in outputs if hasattr(o, "utterance") for p in o.utterance.parts
                                         if hasattr(p, "id")]


def test_kaliko_full_hand_lists_a_checked_sample_fast():
    """A 7-tile hand has tens of thousands of plays (half a minute to find them all): the list
    is a sample (pass, exchanges, plays of up to 4 tiles), each legal, each understood."""
    ui, match = playout("kaliko", {}, 2, 2, seed=3)
    seat = match.current
    for lang in ("fr", "en"):
        concrete = check_listed(ui, match, seat, lang)
        actions = [c for _p, c in concrete if c.startswith("action:")]
        assert any('"play"' in c for c in actions) and any('"exchange"' in c for c in actions)
        assert any('"pass"' in c for c in actions)
    for _p, command in concrete:
        if command.startswith("action:"):
            match.check(seat, ui.game.action_from_json(json.loads(command[len("action:"):])))
