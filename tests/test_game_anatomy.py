"""The same anatomy in every game package (issue #23): the common files, each game's own
modules named here, and one registration record (`SPEC`, a frozen `GameSpec`) that says all
the session and the command line need — nothing probed for."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion.core import GAMES, Bot, Game, GameSpec
from companion.games.base import GameUI, Tokens

# RULES: every game has these (docs/architecture.md, "How to add a game").
COMMON = {"__init__.py", "rules.py", "events.py", "notation.py", "commands.py", "phrases.py", "readings.py",
          "narration.py", "bot.py"}
# Beside them, each game's own modules (a new one is added here on purpose).
OWN = {
    "kikoi": {"tokens.py", "reader.py"},
    "kaliko": {"finder.py", "paths.py", "scoring.py", "tiles.py", "reader.py", "search.py", "draft.py", "native.py", "cbest.py"},
    "kissa": {"finder.py", "moves.py"},
    "goodfortune": {"deck.py", "deckentry.py", "deckfile.py", "scoring.py", "speech.py", "tiles.py"},
}


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_each_game_has_the_common_files_and_its_own(entry):
    folder = Path(entry.module().__file__).parent
    files = {p.name for p in folder.glob("*.py")}
    assert files == COMMON | OWN[entry.name]


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_each_game_has_one_registration_record(entry):
    pkg = entry.module()
    spec = entry.spec()
    assert isinstance(spec, GameSpec) and dataclasses.is_dataclass(spec)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.schema = 99  # type: ignore[misc]
    assert issubclass(spec.rules, Game) and spec.rules is pkg.Rules
    ui = spec.ui()
    assert issubclass(ui, GameUI) and ui is pkg.UI and isinstance(ui.tokens, Tokens)
    bots = dict(spec.bots())
    assert bots and all(issubclass(b, Bot) for b in bots.values()) and bots == dict(pkg.BOTS)
    # the names a package still exports for scripts agree with its record
    assert spec.schema == getattr(pkg, "ACTION_SCHEMA", 1)
    for hook in ("implied_actions", "table_options"):
        if hasattr(pkg, hook):
            assert getattr(spec, hook) is getattr(pkg, hook)
    assert isinstance(spec.table_options({}, 2), dict)  # a table that asked for nothing
