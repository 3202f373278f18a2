"""Golden transcripts driven by committed journals.

Each golden game is a journal in the game's `golden/` folder (`<case>.journal.jsonl`): its
seed, options, players and every action. The test replays it (no bot runs) and narrates it;
the text must equal the committed `.txt`. So a change in a bot never rewrites a golden
transcript, and a missing file fails: nothing writes itself.

* `COMPANION_REGEN_GOLDEN=1` writes the transcripts again (after a deliberate change of
  wording; read the diff).
* `COMPANION_REGEN_JOURNALS=1` records a missing journal by letting the bots play the case
  again (a new golden game); an existing journal is never overwritten.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from companion.core import Match, find
from companion.session.transcript import journal_game, write_journal


def regen_golden() -> bool:
    return os.environ.get("COMPANION_REGEN_GOLDEN") == "1"


def check(path: Path, text: str) -> None:
    """`text` equals the committed golden file `path` (written only when asked)."""
    if regen_golden():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"golden transcript {path} is missing; write it with COMPANION_REGEN_GOLDEN=1 and read it")
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs (COMPANION_REGEN_GOLDEN=1 rewrites it)"


@cache
def _replayed(path: Path) -> tuple[Match[Any, Any], Any]:
    return journal_game(path)


def game(path: Path, game_name: str, options: dict[str, Any], kinds: list[str | None],
         play: Callable[[], Match[Any, Any]]) -> tuple[Match[Any, Any], Any]:
    """The golden game recorded at `path`, replayed. `play` makes it anew (bots) only when the
    journal is missing and COMPANION_REGEN_JOURNALS=1."""
    if not path.exists():
        if os.environ.get("COMPANION_REGEN_JOURNALS") != "1":
            pytest.fail(f"golden journal {path} is missing; record it with COMPANION_REGEN_JOURNALS=1")
        write_journal(path, find(game_name), play(), options, kinds)
    return _replayed(path)
