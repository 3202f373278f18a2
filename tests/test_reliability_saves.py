"""Issue 25, point 6: every way a save, its folder, the screen or the pairs file can fail is
said in one sentence, with nothing lost. Each test replays one finding of the issue."""

from __future__ import annotations

import argparse
import errno
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import runner
from companion.core import Match, find
from companion.narration import Msg, catalog
from companion.saves import journal as jr
from companion.session.transcript import bot_game, write_journal

BIN = Path(sys.executable).parent / "companion"


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}


def _saved(tmp_path: Path, moves: int, finished: bool = False) -> tuple[Path, Match[Any, Any]]:
    """A Good Fortune game between two humans' seats, `moves` moves in (or to its end)."""
    entry = find("goodfortune")
    match, _ = bot_game(entry, 7, max_steps=10_000 if finished else moves, names=["Anne", "Bruno"])
    path = tmp_path / "game.jsonl"
    write_journal(path, entry, match, {}, [None, None], lang="en")
    return path, match


def _lines(path: Path) -> list[dict[str, Any]]:
    return jr.records(path)


def _said(msg_id: str, **params: Any) -> str:
    return catalog("en").text(Msg(msg_id, **params))


def _refused(path: Path) -> runner.UserError:
    with pytest.raises(runner.UserError) as exc:
        runner.open_saved_game(path, "en")
    return exc.value


def test_a_repair_on_a_full_disk_is_one_sentence_and_changes_nothing(tmp_path: Path, monkeypatch: Any) -> None:
    path, _ = _saved(tmp_path, 4)
    path.write_bytes(path.read_bytes() + b'{"crc":"00000000","r":{"ki')  # a cut last line: a repair is due
    before = path.read_bytes()

    def full(fd: int, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(jr, "_write_all", full)
    exc = _refused(path)
    assert exc.msg.id == "core.error.journal_repair_failed"
    text = catalog("en").text(exc.msg)
    assert text.startswith(f"The save {path} needs a repair") and "The disk is full" in text
    assert path.read_bytes() == before
    assert not list(tmp_path.glob(".*.tmp")) and not list(tmp_path.glob("*.damaged"))
    monkeypatch.undo()
    journal, pieces, _ = runner.open_saved_game(path, "en")  # space freed: the repair is made
    journal.close()
    assert len(pieces[-1].actions) == 4


def test_an_unknown_record_is_set_aside_alone_and_every_move_after_it_replayed(tmp_path: Path) -> None:
    path, match = _saved(tmp_path, 6)
    recs = _lines(path)
    recs.insert(3, {"kind": "chat", "text": "from a newer version"})
    jr.rewrite(path, recs)
    for stale in tmp_path.glob("*.damaged*"):
        stale.unlink()
    journal, pieces, notes = runner.open_saved_game(path, "en")
    journal.close()
    assert len(pieces[-1].actions) == 6  # nothing set aside but the record itself
    (note,) = notes
    assert note[0] == "core.journal_skipped.unknown_record" and note[1]["line"] == 4 and note[1]["n"] == 4
    assert "is not a record this version knows: I set it aside and kept the 4 moves after it" in _said(note[0], **note[1])
    assert all(r["kind"] != "chat" for r in _lines(path))
    assert b"from a newer version" in Path(str(path) + ".damaged").read_bytes()


def test_a_bad_move_whose_followers_cannot_replay_refuses_the_save_and_keeps_it(tmp_path: Path) -> None:
    path, _ = _saved(tmp_path, 6)
    recs = _lines(path)
    recs[1] = {"kind": "action", "seat": recs[1]["seat"], "action": {"teleport": [1, 2]}}  # the first move, line 2
    jr.rewrite(path, recs)
    for stale in tmp_path.glob("*.damaged*"):
        stale.unlink()
    before = path.read_bytes()
    exc = _refused(path)
    assert exc.msg.id == "core.error.journal_unreplayable" and exc.msg.params["line"] == 2
    assert "I do not resume this game and change nothing in it" in catalog("en").text(exc.msg)
    assert path.read_bytes() == before and not list(tmp_path.glob("*.damaged*"))


def test_a_bad_move_whose_followers_replay_is_set_aside_alone(tmp_path: Path) -> None:
    path, _ = _saved(tmp_path, 6)
    recs = _lines(path)
    recs.insert(1, {"kind": "action", "seat": 0, "action": {"teleport": [1, 2]}})  # a stray line 2
    jr.rewrite(path, recs)
    for stale in tmp_path.glob("*.damaged*"):
        stale.unlink()
    journal, pieces, notes = runner.open_saved_game(path, "en")
    journal.close()
    assert len(pieces[-1].actions) == 6
    assert [n[0] for n in notes] == ["core.journal_skipped.unknown_move"]
    assert "is not a move of this game: I set it aside and replayed the 6 moves after it" in _said(notes[0][0], **notes[0][1])
    assert len(jr.read(path).actions) == 6 and Path(str(path) + ".damaged").exists()


def test_moves_after_the_end_are_said_and_the_save_is_not_rewritten(tmp_path: Path) -> None:
    path, match = _saved(tmp_path, 0, finished=True)
    assert match.over
    with jr.Journal.append_to(path) as j:
        j.action(0, jr.read(path).actions[-1]["action"])
    before = path.read_bytes()
    exc = _refused(path)
    assert exc.msg.id == "core.error.journal_finished_moves_after" and exc.msg.params["n"] == 1
    assert "1 move written after its end is ignored and the file is not changed" in catalog("en").text(exc.msg)
    assert path.read_bytes() == before and not list(tmp_path.glob("*.damaged*"))


def test_saving_starts_again_when_the_disk_has_room_and_catches_up(tmp_path: Path, monkeypatch: Any) -> None:
    from companion.session import Seat, Session
    from tests.toygame import Nim
    from tests.toyui import NimUI

    p = tmp_path / "g.jsonl"
    jr.Journal.create(p, {"game": "nim", "options": {}, "players": ["A", "B"], "seats": [None, None], "seed": 1,
                          "lang": "en"}).close()
    out: list[str] = []
    nim = Nim()
    match = Match(nim, ["A", "B"], 1)
    journal = runner.GuardedJournal(jr.Journal.append_to(p))
    session = Session("nim", NimUI(nim), match, [Seat("A"), Seat("B")], lang="en", journal=journal, out=out.append)
    # the table says the journal's notices after each batch (no callback into the core)
    session.start()
    session.handle("take 1")
    real = jr._write_all

    def full(fd: int, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(jr, "_write_all", full)
    session.handle("take 2")
    session.handle("take 1")
    assert [a["action"] for a in jr.read(p).actions] == [{"take": 1}]
    monkeypatch.setattr(jr, "_write_all", real)  # space freed
    session.handle("take 1")
    text = "\n".join(out)
    assert text.count("Saving has stopped") == 1
    assert text.count(f"Saving works again: every move played meanwhile is now saved in {p}.") == 1
    assert [a["action"]["take"] for a in jr.read(p).actions] == [1, 2, 1, 1]  # nothing lost
    journal.close()


def test_resume_in_a_read_only_folder_plays_unsaved_as_play_does(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    path, _ = _saved(tmp_path, 4)
    before = path.read_bytes()
    real_open = os.open

    def read_only(file: Any, flags: int, *a: Any, **k: Any) -> int:
        if str(file) == str(path) and flags & (os.O_RDWR | os.O_WRONLY):
            raise OSError(errno.EROFS, "Read-only file system", str(file))
        return real_open(file, flags, *a, **k)

    monkeypatch.setattr(jr.os, "open", read_only)
    played: list[Any] = []
    monkeypatch.setattr(runner, "_run", lambda session, *a, **k: played.append(session))
    args = argparse.Namespace(file=str(path), lang="en", speech="none", out=None, private=[], verbosity=None,
                              log=None, web=False, join=False)
    assert runner.resume(args) == 0
    (session,) = played
    assert session.journal is None and len(session.match.history) == 4
    printed = capsys.readouterr().out
    assert f"The folder of {path} is read-only: it could not be written." in printed
    assert "Saving has stopped" in printed
    assert path.read_bytes() == before


def test_a_closed_standard_output_does_not_crash_the_game(tmp_path: Path) -> None:
    p = subprocess.Popen([str(BIN), "play", "kikoi", "--players", "Anne", "--bots", "2", "--seed", "3"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(tmp_path))
    assert p.stdout is not None and p.stdin is not None
    p.stdout.read(1)  # it printed; now its reader leaves
    p.stdout.close()
    _, err = p.communicate(b"aide\nmon plateau\nquitte\n", timeout=120)
    assert p.returncode == 0, err
    assert b"Traceback" not in err and b"BrokenPipe" not in err


@pytest.mark.parametrize("content", ["[" * 100_000 + "]" * 100_000, "{not json", '["a list"]', '{"04a1": 7}'],
                         ids=["nested-deep", "not-json", "not-an-object", "not-strings"])
def test_a_damaged_pairs_file_is_said_never_read_as_empty_nor_overwritten(tmp_path: Path, monkeypatch: Any,
                                                                         content: str) -> None:
    from companion.cli import reader_flows as reader_cli
    from companion.inputs.reader.pairs import PairsError, load_pairs
    from companion.inputs.reader.run import start_readers

    pairs = tmp_path / "pairs.json"
    pairs.write_text(content, encoding="utf-8")
    monkeypatch.setenv("COMPANION_READER_PAIRS", str(pairs))
    with pytest.raises(PairsError):
        load_pairs()
    said: list[Any] = []
    assert reader_cli.flow("pair", str(tmp_path / "no-reader"), ["kikoi:kigliss-sleep"], said.append, "kikoi") == 2
    assert pairs.read_text(encoding="utf-8") == content  # never overwritten
    (utt,) = said
    assert catalog("en").render(utt).startswith(f"The file of paired tokens {pairs} is damaged")

    class Core:
        def __init__(self) -> None:
            self.extensions: list[Any] = []

        def extend(self, extension: Any) -> None:
            self.extensions.append(extension)

    core, heard = Core(), []
    readers = start_readers([], core, None, ["Anne"], say=heard.append)  # play --reader: said, and play goes on
    assert readers == [] and len(core.extensions) == 1
    assert [u.parts[0].id for u in heard] == ["core.reader.pairs_damaged"]


def test_missing_pairs_file_is_no_pairs(tmp_path: Path, monkeypatch: Any) -> None:
    from companion.inputs.reader.pairs import load_pairs

    monkeypatch.setenv("COMPANION_READER_PAIRS", str(tmp_path / "none.json"))
    assert load_pairs() == {}
    (tmp_path / "ok.json").write_text(json.dumps({"04A1": "kikoi:kigliss-sleep"}), encoding="utf-8")
    assert load_pairs(tmp_path / "ok.json") == {"04a1": "kikoi:kigliss-sleep"}


def test_a_save_is_its_owners_alone(tmp_path: Path) -> None:
    """The save holds the seed, so every hand dealt: like the log, 0600 (issue 25)."""
    import stat

    path, _ = _saved(tmp_path, 2)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    recs = _lines(path)
    recs.insert(2, {"kind": "chat"})
    jr.rewrite(path, recs)  # a repair keeps it so
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
