"""Issue #16 (4, 5): every small file written atomically; a failed write is said, never a
claim that it was kept."""

import errno
import json
from pathlib import Path

import pytest

from companion.outputs.profile import Profile
from companion.saves import files


def fail_rename(*a, **k):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_write_atomic_interrupted_keeps_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    p = tmp_path / "x.json"
    files.write_atomic(p, b"old\n")
    monkeypatch.setattr(files.os, "replace", fail_rename)
    with pytest.raises(OSError):
        files.write_atomic(p, b"new\n")
    assert p.read_bytes() == b"old\n"
    assert [q.name for q in tmp_path.iterdir()] == ["x.json"]


def test_a_profile_save_interrupted_keeps_the_old_profile(tmp_path, monkeypatch):
    p = tmp_path / "marie.json"
    prof = Profile(name="marie", rate=200, path=p)
    prof.save()
    prof.rate = 300
    monkeypatch.setattr(files.os, "replace", fail_rename)
    with pytest.raises(OSError):
        prof.save()
    assert json.loads(p.read_text())["rate"] == 200
    assert sorted(q.name for q in tmp_path.iterdir()) == ["marie.json"]


def test_the_deck_pointer_is_written_atomically(tmp_path, monkeypatch):
    from companion.games.goodfortune import deckfile

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    deckfile.set_default(tmp_path / "a.txt")
    monkeypatch.setattr(files.os, "replace", fail_rename)
    with pytest.raises(OSError):
        deckfile.set_default(tmp_path / "b.txt")
    assert deckfile.default_path() == (tmp_path / "a.txt").resolve()


@pytest.mark.parametrize("err,words", [(errno.ENOSPC, "disk is full"), (errno.EROFS, "read-only"),
                                       (errno.EIO, "reported an error"), (errno.EACCES, "not allowed")])
def test_io_failures_have_one_sentence_each(err, words):
    from companion.narration import Msg, catalog

    msg = files.io_message_id(OSError(err, "x"))
    assert words in catalog("en").text(Msg(msg, path="/p"))
    assert catalog("fr").text(Msg(msg, path="/p")) != catalog("en").text(Msg(msg, path="/p"))


def test_rules_player_on_a_read_only_home_does_not_claim_it_remembers(tmp_path: Path, monkeypatch) -> None:
    from tests.rules.test_rules_player import Session

    store = tmp_path / "config" / "rules-positions.json"
    monkeypatch.setattr(files.os, "replace", lambda *a, **k: (_ for _ in ()).throw(OSError(errno.EROFS, "Read-only")))
    s = Session("kissa", "en", store)
    s.send("1")
    s.close()
    assert not any("I remember where you stopped" in line for line in s.printed)
    assert any("read-only" in line for line in s.printed)
    assert not store.exists()
