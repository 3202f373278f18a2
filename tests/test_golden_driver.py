"""The golden-transcript driver: games come from committed journals, nothing writes itself."""

from pathlib import Path

import pytest

from companion.core import find
from companion.session.transcript import bot_game, journal_game, transcript, write_journal
from tests import golden

KISSA = Path(__file__).parent / "kissa" / "golden"


def test_a_missing_golden_fails_and_is_not_written(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_REGEN_GOLDEN", raising=False)
    path = tmp_path / "none.fr.txt"
    with pytest.raises(pytest.fail.Exception, match="missing"):
        golden.check(path, "a line\n")
    assert not path.exists()
    monkeypatch.setenv("COMPANION_REGEN_GOLDEN", "1")
    golden.check(path, "a line\n")  # asked for: written
    assert path.read_text() == "a line\n"


def test_a_missing_journal_fails_and_no_bot_plays(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_REGEN_JOURNALS", raising=False)

    def bots():
        raise AssertionError("no bot may play for a golden test")

    with pytest.raises(pytest.fail.Exception, match="missing"):
        golden.game(tmp_path / "g.journal.jsonl", "2kissa10", {}, ["greedy", "greedy"], bots)
    match, _ = golden.game(KISSA / "standard.journal.jsonl", "2kissa10", {}, ["greedy", "prudent"], bots)
    assert match.over


def test_a_journal_replays_to_the_same_transcript_as_the_bots_game(tmp_path):
    match, ui = bot_game(find("kissa"), 7, ["greedy", "prudent"], ["Anne", "Alain"])
    path = tmp_path / "g.journal.jsonl"
    write_journal(path, find("kissa"), match, {}, ["greedy", "prudent"])
    again, ui2 = journal_game(path)
    assert [s.action for s in again.history] == [s.action for s in match.history]
    assert transcript(ui2, again, "en") == transcript(ui, match, "en")
