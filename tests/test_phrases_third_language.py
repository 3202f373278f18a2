"""A third language is data, not code: a folder of phrase tables (here a toy Esperanto in
`tests/phrases_eo/eo/`) is read by the shared readers, the game parsers, `GameUI.phrases` and
`companion phrases`, with no change to any Python file. What it lacks comes from English."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main
from companion.commands import global_command, understand
from companion.core import Match
from companion.games import kikoi
from companion.games.kikoi.rules import Ask, Reply
from companion.games.kikoi.tokens import token_from_id
from companion.phrases import extra_dir, find_players, languages, read_number, yes_no

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
        assert understand(ui, "poentoj", match, seat)[:2] == ("answer", "status")

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
            kind, got, _ = understand(ui.probe(), phrase, match, seat)
            assert got == command and kind in ("shared", "act", "answer", "ask"), (phrase, kind, got)

        assert main(["phrases", "kikoi", "--lang", "eo", "--json"]) == 0
        listed = json.loads(capsys.readouterr().out)
        assert {"phrase": "mia tabulo", "command": "board"} in listed
    assert "eo" not in languages()
    assert global_command("helpo") is None
    assert main(["phrases", "kikoi", "--lang", "eo"]) == 2  # gone with its folder
