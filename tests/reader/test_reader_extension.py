"""The token reader is an extension of the session core through its public seam alone
(issue #23): nothing private of the core, no knowledge of one game."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.inputs.reader.play as play
from companion.core import Match, find
from companion.games.base import Tokens
from companion.inputs.reader.events import TokenPlaced
from companion.inputs.reader.play import ReaderPlay, token_name
from companion.narration import Raw
from companion.session import Seat, Session
from companion.session.inbox import Device

SOURCE = Path(play.__file__).read_text(encoding="utf-8")


def test_the_reader_uses_no_private_name_but_its_own():
    tree = ast.parse(SOURCE)
    private = [(n.lineno, ast.unparse(n)) for n in ast.walk(tree)
               if isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__")
               and not (isinstance(n.value, ast.Name) and n.value.id == "self")]
    assert private == []
    imported = {a.name if isinstance(n, ast.Import) else f"{n.module}" for n in ast.walk(tree)
                if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    assert not {m for m in imported if m.startswith("companion.games.") and m != "companion.games.base"}
    assert "companion.session.core" not in imported
    code = SOURCE[SOURCE.index('"""', 3) + 3:]  # below the docstring: no game named
    assert not any(game in code.lower() for game in ("kikoi", "kaliko", "kissa", "goodfortune"))


def test_the_core_reaches_it_through_the_seam_only():
    pkg = find("kikoi").module()
    game = pkg.Rules(physical=True)
    out: list[str] = []
    session = Session("kikoi", pkg.UI(game), Match(game, ["Anne", "Paul", "Zoé"], 1),
                      [Seat("Anne"), Seat("Paul"), Seat("Zoé")],
                      out=out.append)
    reader = ReaderPlay.bound([("reader:t", None)])
    session.core.extend(reader)
    assert reader.seam is session.core.seam
    assert not hasattr(session.core, "reader")
    session.start()
    session.loop.feed(Device(TokenPlaced("r", 0, "00", "kikoi:kigliss-sleep"), "reader:t"))
    assert len(session.match.history) == 1 and "tire 3 jetons" in out[-1]  # dealt through Seam.play


def test_what_a_game_knows_of_its_tokens_sits_with_the_game():
    assert Tokens().name("7") == Raw("7") and Tokens().answer(None, 0, "7") is None  # type: ignore[arg-type]
    assert type(find("kikoi").module().UI.tokens).__module__ == "companion.games.kikoi.reader"
    assert type(find("kaliko").module().UI.tokens).__module__ == "companion.games.kaliko.reader"
    assert token_name("kikoi", "kigliss-sleep") != Raw("kigliss-sleep") and token_name("nope", "x") == Raw("x")
