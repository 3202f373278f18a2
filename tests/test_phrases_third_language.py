"""A third language is data, not code: a folder of phrase tables (here a toy Esperanto in
`tests/phrases_eo/eo/`) is read by the shared readers, the game parsers, `GameUI.phrases` and
`companion phrases`, with no change to any Python file. What it lacks comes from English."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main
from companion.core import Match
from companion.games import kikoi
from companion.games.kikoi.rules import Ask, Reply
from companion.games.kikoi.tokens import token_from_id
from companion.language import extra_dir, find_players, languages, read_number, yes_no
from companion.session.commands import global_command
from tests.test_phrases_sayable import understood

TOY = Path(__file__).parent / "phrases_eo"


def test_a_third_language_from_a_folder_of_tables(capsys):
    assert "eo" not in languages()
    with extra_dir(TOY):
        assert languages() == ("fr", "en", "eo")
        assert global_command("Helpo") == "help" and global_command("ĉesu") == "quit"
        assert yes_no("jes") == "yes" and yes_no("forgesu") == "cancel"
        assert read_number("tri") == 3 and read_number("dua") == 2
        assert find_players("ludanto du", ["Marie", "Paul", "Zoé"]) == [1]

        game = kikoi.Rules()
        ui = kikoi.UI(game)
        match = Match(game, ["Marie", "Paul", "Zoé"], 6)
        seat = match.current
        intent = ui.parse("mi petas glata dormas de Zoé", match, seat)
        assert getattr(intent, "action", None) == Ask(2, token_from_id("kigliss-sleep"))
        assert understood(ui, "poentoj", match, seat, "eo") == ("answer", "status")

        physical = kikoi.Rules(physical=True)
        answering = Match(physical, ["Marie", "Paul", "Zoé"], 6)
        while answering.state.phase != "answer":
            s = answering.current
            legal = answering.legal(s)
            answering.play(s, next((a for a in legal if isinstance(a, Ask)), legal[0]))
        asked = answering.current
        assert getattr(kikoi.UI(physical).parse("jes", answering, asked), "action", None) == Reply(True)
        assert getattr(kikoi.UI(physical).parse("ne", answering, asked), "action", None) == Reply(False)

        sayable = ui.phrases(match, seat, "eo")
        assert sayable.grammar["lang"] == "eo"
        assert {"template": "mi petas {token} de {player}", "command": "action"} in sayable.grammar["rules"]
        assert ("helpo", "help") in sayable.concrete
        asks = [p for p, c in sayable.concrete if c.startswith("action:")]
        assert asks and all(p.startswith("mi petas ") for p in asks)
        for phrase, command in sayable.concrete:
            kind, got = understood(ui, phrase, match, seat, "eo")
            # a shared word may be refused now (« malfaru » with nothing to undo); a move never
            allowed = ("shared", "act", "answer", "ask") + (() if command.startswith("action:") else ("refuse",))
            assert got == command and kind in allowed, (phrase, kind, got)

        assert main(["phrases", "kikoi", "--lang", "eo", "--json"]) == 0
        listed = json.loads(capsys.readouterr().out)
        assert {"phrase": "mia tabulo", "command": "board"} in listed
    assert "eo" not in languages()
    assert global_command("helpo") is None
    assert main(["phrases", "kikoi", "--lang", "eo"]) == 2  # gone with its folder


def test_2kissa10_in_a_third_language_needs_only_its_tables():
    """Operators, directions, readings, the answers to « which one? » (« la lasta », « iu
    ajn »), the row entry and the start: all from `tests/phrases_eo/eo/{kissa,shared}.json`."""
    from companion.games import kissa
    from companion.games.base import Act, Answer, Ask
    from companion.games.kissa.rules import EnterRow, Move, StartPlay, State
    from tests.kissa.helpers import board_with, cells

    game = kissa.Rules()
    match = Match(game, ["Anne", "Alain"], 1)
    match.state = State(board_with(A1=1, B1=0, C4=2, C5=9, E2=3, F2=9, A7=2, B7=9, C7=0, J10=5),
                        (0, 0), 0, "play", (True,) * 10)
    whole = Move("+", cells("A1", "B1"), cells("C4", "C5"), cells("E2", "F2"))
    line = "10 ĉe A1 plus 29 ĉe C4 malsupren egalas 39 ĉe E2"
    assert kissa.UI(game).parse(line, match, 0) is None  # not a word of it is known yet
    with extra_dir(TOY):
        ui = kissa.UI(game)
        assert getattr(ui.parse(line, match, 0), "action", None) == whole
        assert getattr(ui.parse("A1 dekstren plus C4 malsupren egalas E2 dekstren", match, 0), "action", None) == whole
        row = ui.parse("vico 7", match, 0)
        assert isinstance(row, Answer) and row.command == "row"
        assert ui.parse("kie estas la 9", match, 0).command == "digit"
        assert ui.parse("kie estas la 9oj", match, 0).command == "digit"  # a plural ending of the table
        assert understood(ui, "poentoj", match, 0, "eo") == ("answer", "status")
        question = ui.parse("10 plus 29 egalas 39", match, 0)  # 29 is at C4 and at A7: which one?
        assert isinstance(question, Ask)
        first, second = question.resolve("la unua"), question.resolve("la dua")
        assert isinstance(first, Act) and isinstance(second, Act) and first.action != second.action
        assert question.resolve("la lasta").action == second.action
        assert isinstance(question.resolve("iu ajn"), Act)
        assert isinstance(question.resolve("ne"), Answer)  # the shared "no" drops the move

        physical = kissa.Rules(physical=True)
        entry = Match(physical, ["Anne", "Alain"], 1)
        pui = kissa.UI(physical)
        assert pui.parse("vico 2: kvin tri malplena ses kvin nul du tri nul unu", entry, 0) == Act(EnterRow(1, "53.6502301"))
        for r in range(10):
            entry.play(0, EnterRow(r, "0123456789"))
        assert pui.parse("komencu, Alain", entry, 0) == Act(StartPlay(1))

        sayable = ui.phrases(match, 0, "eo")
        assert {"template": "vico {row}", "command": "row"} in sayable.grammar["rules"]
        assert ("vico 3", "row") in sayable.concrete
        for phrase, command in sayable.concrete:  # moves as the narration says them (French: no eo catalog)
            kind, got = understood(ui, phrase, match, 0, "eo")
            # a shared word may be refused now (« malfaru » with nothing to undo); a move never
            allowed = ("shared", "act", "answer", "ask") + (() if command.startswith("action:") else ("refuse",))
            assert got == command and kind in allowed, (phrase, kind, got)
