"""Hostile lines into every game through the Session, and damaged saves of every kind into
resume (issue #16 done-when): 0 tracebacks, a refused line changes nothing, the save always
equals the game."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.runner import GuardedJournal, UserError, open_saved_game
from companion.core import Match, Rng, find
from companion.saves import journal as jr
from companion.session import Seat, Session
from companion.session.transcript import load

OPTIONS: dict[str, dict[str, Any]] = {"kaliko": {"hand_size": 2}}
GAMES = ["kikoi", "kissa", "goodfortune", "kaliko"]

WORDS = ["aide", "help", "répète", "repeat", "état", "status", "annule", "undo", "joue pour moi", "play for me",
         "oui", "non", "yes", "no", "historique", "plus lent", "quitte_pas", "Paul:", "Zoé: état", "A: annule"]
HOSTILE = st.one_of(
    st.sampled_from(WORDS),
    st.text(max_size=60),
    st.text(alphabet="0123456789 +-*x=×÷", max_size=40),
    st.integers(min_value=4301, max_value=6000).map(lambda n: "7" * n),
    st.sampled_from(["٣ plus ٤ égale ٧", "３＋４＝７", "² plus 3", "\x00\x1b[2J", "\ud800" if False else "\u202e",
                     "a" * 20000, "𝟙𝟚", "1e999", "-0", "NaN", "{\"take\": 1}", "ligne 1 : 0123456789"]),
)


def canon(x: Any) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False)


class Table:
    """One game at a table of two humans, with a real journal on disk."""

    def __init__(self, game: str, folder: Path) -> None:
        entry = find(game)
        self.game, ui, bots = load(entry, **OPTIONS.get(game, {}))
        names = ["Paul", "Zoé", "Léa"][: max(entry.min_players, 2)]
        self.match: Match[Any, Any] = Match(self.game, names, 5)
        self.path = folder / f"{game}.jsonl"
        self.journal = GuardedJournal(jr.Journal.create(self.path, {
            "game": game, "options": OPTIONS.get(game, {}), "players": names, "seats": [None] * len(names),
            "seed": 5, "lang": "fr", "resolved": jr.resolved_of(self.game)}))
        self.out: list[str] = []
        self.session = Session(game, ui, self.match, [Seat(n) for n in names], lang="fr", journal=self.journal,
                               out=self.out.append)
        default_bot = next(iter(bots.values()))
        self.session.helper = lambda seat: default_bot(self.game, seat, Rng(5).fork(100 + seat + len(self.match.history)))
        self.session.start()

    def feed(self, line: str) -> None:
        before_n = len(self.match.history)
        before = self.match.state
        self.session.handle(line)
        if len(self.match.history) == before_n:
            assert self.match.state == before, line  # a refused line changes nothing
        saved = jr.read(self.path).actions
        assert canon(saved) == canon(self.match.actions_json()), line  # the save is the game
        self.session.running = True  # "quitte" ends the REPL, not the table under test


_tables: dict[tuple[str, str], Table] = {}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz-session")


@pytest.mark.parametrize("game", GAMES)
def test_hostile_lines_never_crash_and_the_save_is_the_game(game, folder):
    table = Table(game, folder)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(HOSTILE, min_size=1, max_size=4))
    def check(lines: list[str]) -> None:
        for line in lines:
            table.feed(line)

    check()
    for _ in range(4):  # and some real moves, then more noise
        table.feed("joue pour moi")
    assert len(table.match.history) >= 1 or table.match.over
    table.journal.close()


# --------------------------------------------------------------------------- damaged saves
def damages(data: bytes, rnd: random.Random) -> bytes:
    lines = data.split(b"\n")
    kind = rnd.randrange(9)
    if kind == 0 and data:  # a flipped byte
        b = bytearray(data)
        b[rnd.randrange(len(b))] ^= 1 << rnd.randrange(8)
        return bytes(b)
    if kind == 1:  # cut short anywhere
        return data[: rnd.randrange(len(data) + 1)]
    if kind == 2 and len(lines) > 2:  # a line lost
        del lines[rnd.randrange(1, len(lines) - 1)]
    elif kind == 3 and len(lines) > 2:  # a line written twice
        i = rnd.randrange(1, len(lines) - 1)
        lines.insert(i, lines[i])
    elif kind == 4:  # garbage inserted
        lines.insert(rnd.randrange(len(lines)), bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 80))))
    elif kind == 5 and len(lines) > 3:  # two lines swapped
        i = rnd.randrange(1, len(lines) - 2)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == 6:  # the final newline lost
        return data.rstrip(b"\n")
    elif kind == 7 and len(lines) > 3:  # two lines glued
        i = rnd.randrange(1, len(lines) - 1)
        lines[i - 1] += lines.pop(i)
    elif kind == 8:  # a record of a future version, with a valid CRC
        lines.insert(rnd.randrange(1, max(2, len(lines))), jr._encode({"kind": rnd.choice(["chat", "action"]),
                                                               "seat": 0, "action": {"warp": 9}}).rstrip(b"\n"))
    return b"\n".join(lines)


@pytest.fixture(scope="module")
def saved_games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("saves")
    out = {}
    for game in ("goodfortune", "kissa", "kikoi"):
        table = Table(game, folder)
        for _ in range(6):
            table.feed("joue pour moi")
        table.journal.close()
        out[game] = table.path.read_bytes()
    return out


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), game=st.sampled_from(["goodfortune", "kissa", "kikoi"]), n=st.integers(1, 3))
def test_damaged_saves_resume_or_are_refused_in_words(saved_games, tmp_path_factory, seed, game, n):
    rnd = random.Random(seed)
    data = saved_games[game]
    for _ in range(n):
        data = damages(data, rnd)
    path = tmp_path_factory.mktemp("d") / "save.jsonl"
    path.write_bytes(data)
    try:
        journal, pieces, notes = open_saved_game(path, "fr")
    except UserError as exc:
        assert exc.msg.id.startswith("core.error.")
        return
    try:
        entry, g, _ui, _bots, names, _kinds, start, c = pieces
        match = Match(g, names, int(start["seed"]))
        match.replay(c.actions)
        # what is on disk now is exactly the game that will be played
        assert canon(jr.read(path).actions) == canon(match.actions_json())
        if data != saved_games[game]:
            assert notes or canon(c.actions) == canon(jr.read(path).actions)
    finally:
        journal.close()


actions_json = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.text(max_size=6)
    | st.sampled_from(["A1", "J10", "+", "*", "move", "row", "left", "all", "kigliss-sleep", "give"]),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.sampled_from(["type", "op", "operands", "result", "push", "place", "outer", "ask",
                                       "token", "reply", "drew", "pass", "pirate", "row", "digits", "declare"]),
                      children, max_size=4),
    max_leaves=10,
)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(["goodfortune", "kissa", "kikoi"]), seat=st.integers(-1, 3), action=actions_json)
def test_hand_edited_moves_with_a_valid_crc_are_said_never_a_crash(saved_games, tmp_path_factory, game, seat, action):
    path = tmp_path_factory.mktemp("h") / "save.jsonl"
    path.write_bytes(saved_games[game] + jr._encode({"kind": "action", "seat": seat, "action": action}))
    n = len(jr.contents(jr.records(path)[:-1]).actions)
    try:
        journal, pieces, notes = open_saved_game(path, "fr")
    except UserError as exc:
        assert exc.msg.id.startswith("core.error.")
        return
    journal.close()
    c = pieces[-1]
    assert len(c.actions) in (n, n + 1)  # the edit was a real move, or it was set aside and said
    if len(c.actions) == n:
        assert any(msg_id.startswith("core.journal_set_aside.") for msg_id, _ in notes)
