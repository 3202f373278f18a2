"""A physical 2kissa10 board told by the table, token by token (RULES T-1: the tokens drawn from
the bag fill the cells in draw order, row by row): typed, said or laid on the token reader, each
goes through `GameUI.chance` / `GameUI.told`; rows told whole still work, and mix with tokens."""

from __future__ import annotations

import json
import random

from companion.core import Match
from companion.games.base import Act
from companion.games.kissa import UI, Rules
from companion.games.kissa.notation import board_rows
from companion.games.kissa.rules import EnterRow, PlaceToken, StartPlay
from companion.inputs.reader.events import TokenPlaced
from companion.inputs.reader.play import ReaderPlay
from companion.narration import catalog
from companion.session import Seat, Session
from companion.session.inbox import Device
from tests.kissa.helpers import random_board

WORDS = ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"]


def entry():
    game = Rules(physical=True)
    return game, UI(game), Match(game, ["Anne", "Alain"], 1)


def said(ui, match, events, lang="fr"):
    return [catalog(lang).render(u) for e in events for u in ui.narrate(e, match)]


def test_a_whole_board_told_token_by_token_in_every_form():
    game, ui, m = entry()
    board = random_board(4)
    forms = [lambda d: str(d), lambda d: WORDS[d], lambda d: f"jeton {d}", lambda d: f"token {d}"]
    heard = []
    for k, digit in enumerate(board):
        assert ui.chance(m, 0) == [str(d) for d in range(10)]
        intent = ui.parse(forms[k % len(forms)](digit), m, 0)
        assert intent == Act(PlaceToken(digit)) == ui.told(str(digit), m, 0)
        heard += said(ui, m, m.play(0, intent.action))
    assert board_rows(m.state.board) == board_rows(board) and all(m.state.rows)
    assert heard[0] == f"A1 : {board[0]}." and heard[1] == f"B1 : {board[1]}."
    assert heard[9].startswith("Ligne 1 : ")  # the tenth token reads the row back
    assert ui.chance(m, 0) == [] and ui.told("7", m, 0) is None  # the board is complete
    assert ui.parse("commencer", m, 0) == Act(StartPlay(0))


def test_rows_and_tokens_mixed_a_row_told_whole_replaces_its_tokens_so_far():
    game, ui, m = entry()
    m.play(0, EnterRow(0, "1234567890"))
    for d in (5, 6, 7):
        m.play(0, ui.told(str(d), m, 0).action)
    assert board_rows(m.state.board)[1] == "567......." and m.state.cursor == 3
    m.play(0, EnterRow(3, "0000000000"))  # another row: the tokens go on where they were
    m.play(0, ui.told("8", m, 0).action)
    assert board_rows(m.state.board)[1] == "5678......"
    assert ui.told("9876543210", m, 0) == Act(EnterRow(1, "9876543210"))  # the next row, as RULES §7 writes it
    m.play(0, EnterRow(1, "9876543210"))
    assert m.state.cursor == 0
    m.play(0, PlaceToken(4))
    assert board_rows(m.state.board)[2] == "4........."
    # state and action round trips (saves and replay)
    assert game.state_from_json(json.loads(json.dumps(game.state_to_json(m.state)))) == m.state
    assert game.action_from_json(game.action_to_json(PlaceToken(4))) == PlaceToken(4)
    m.undo()
    assert m.state.cursor == 0 and board_rows(m.state.board)[2] == ".........."


def test_tokens_laid_on_the_reader_fill_the_board():
    game, ui, m = entry()
    out: list[str] = []
    session = Session("kissa", ui, m, [Seat("Anne"), Seat("Alain")], out=out.append)
    session.core.extend(ReaderPlay.bound([("reader:test", None)]))
    board = random_board(7)[:12]
    for k, digit in enumerate(board):
        session.loop.feed(Device(TokenPlaced("reader:test", k % 4, f"{k:08x}", f"kissa:{digit}"), "reader:test"))
    assert board_rows(m.state.board)[0] == "".join(map(str, board[:10]))
    assert board_rows(m.state.board)[1] == "".join(map(str, board[10:12])) + "........"
    assert any(line.startswith("Ligne 1 : ") for line in out) and f"B2 : {board[11]}." in out


def test_the_told_token_is_listed_among_the_sayable_phrases():
    game, ui, m = entry()
    for lang in ("fr", "en"):
        concrete = dict(ui.phrases(m, 0, lang).concrete)
        assert concrete["7"] == 'action:{"digit":7,"type":"token"}'


def test_random_entries_of_tokens_and_rows_always_end_with_a_complete_board():
    rng = random.Random(2)
    for _ in range(5):
        game, ui, m = entry()
        while not all(m.state.rows):
            if rng.random() < 0.1:
                row = rng.randrange(10)
                m.play(0, EnterRow(row, "".join(rng.choice("0123456789.") for _ in range(10))))
            else:
                m.play(0, ui.told(rng.choice(ui.chance(m, 0)), m, 0).action)
        assert m.state.cursor == 0 and ui.chance(m, 0) == []


def test_a_save_with_told_tokens_resumes_where_the_tokens_were(tmp_path):
    """`companion play kissa -o physical=true`: a row and three tokens typed, quit; `resume`
    rebuilds the board from the save alone and the next token goes in the next cell."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from companion.saves import journal as jr

    binary = Path(sys.executable).parent / "companion"
    env = {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}
    path = tmp_path / "game.jsonl"
    r = subprocess.run([str(binary), "play", "kissa", "-o", "physical=true", "--players", "Anne,Alain",
                        "--journal", str(path)], input="ligne 1 : 1 2 3 4 5 6 7 8 9 0\n7\nhuit\njeton 9\nquit\n",
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    saved = jr.read(path)
    assert saved.start["schema"] == 2
    assert [a["action"] for a in saved.actions][1:] == [{"type": "token", "digit": d} for d in (7, 8, 9)]
    r = subprocess.run([str(binary), "resume", str(path)], input="1\nquit\n",
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "C2 : 9." in r.stdout and "D2 : 1." in r.stdout, r.stdout[-1500:]
    game = Rules(physical=True)
    m = Match(game, ["Anne", "Alain"], 1)
    for a in jr.read(path).actions:
        m.play(a["seat"], game.action_from_json(a["action"]))
    assert board_rows(m.state.board)[:2] == ["1234567890", "7891......"]
