"""Issue #16 (1-3, 5) and #11 item 6: one writer per save, crash-safe repair, the game in the
save, unknown moves said, write failures said. Each test failed on the code before the fix."""

import errno
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.core import Match
from companion.saves import journal as jr
from tests.toygame import Nim
from tests.waiting import WAIT

BIN = Path(sys.executable).parent / "companion"
START = {"game": "nim", "options": {}, "players": ["A", "B"], "seats": [None, None], "seed": 1, "lang": "fr"}


def env(tmp_path):
    return {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}


def run(tmp_path, *args, input=None, timeout=120):
    return subprocess.run([str(BIN), *args], capture_output=True, text=True, env=env(tmp_path), input=input,
                          timeout=timeout)


def write_game(path, moves, announce=False):
    with jr.Journal.create(path, START) as j:
        for seat, n in moves:
            j.action(seat, {"take": n})
            if announce:
                j.announced()
    return path


def saved_goodfortune(tmp_path, moves="play for me\nplay for me\nquit\n", seed="9"):
    path = tmp_path / "game.jsonl"
    r = run(tmp_path, "play", "goodfortune", "--players", "Marie", "--bots", "1", "--seed", seed, "--lang", "en",
            "--journal", str(path), input=moves)
    assert r.returncode == 0, r.stderr
    return path


# --------------------------------------------------------------------------- one writer
def test_a_second_writer_is_refused_while_the_first_holds_the_save(tmp_path):
    p = write_game(tmp_path / "g.jsonl", [(0, 1)])
    with jr.Journal.append_to(p) as j:
        before = p.read_bytes()
        with pytest.raises(jr.JournalError) as exc:
            jr.Journal.append_to(p)
        assert exc.value.code == "already_open"
        with pytest.raises(jr.JournalError) as exc:
            jr.open_resume(p)
        assert exc.value.code == "already_open"
        assert p.read_bytes() == before  # the refused one touched nothing
        j.action(1, {"take": 1})
    assert len(jr.read(p).actions) == 2


def test_resume_of_a_game_open_elsewhere_says_so_and_touches_nothing(tmp_path):
    path = saved_goodfortune(tmp_path)

    first = subprocess.Popen([str(BIN), "resume", str(path), "--lang", "fr"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env(tmp_path))
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in first.stdout], daemon=True).start()
    try:
        # « Partie reprise … » is said once the first companion holds the game open (its lock)
        said = ""
        while "Partie reprise" not in said:
            said = lines.get(timeout=WAIT)  # the lines before it are the game's opening
        with pytest.raises(jr.JournalError):
            jr.Journal.append_to(path)
        before = path.read_bytes()
        r = run(tmp_path, "resume", str(path), "--lang", "fr", input="joue pour moi\nquitte\n")
        assert r.returncode == 2
        assert "déjà ouverte" in r.stderr
        assert path.read_bytes() == before
    finally:
        first.stdin.write("quitte\n")
        first.stdin.close()
        first.wait(WAIT)


def test_new_saves_in_the_same_second_never_share_a_file(tmp_path):
    made: list[Path] = []
    lock = threading.Lock()

    def make():
        j = jr.Journal.create_new("nim", START, tmp_path)
        with lock:
            made.append(j.path)
        j.close()

    threads = [threading.Thread(target=make) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(made)) == 20
    assert all(jr.read(p).start["game"] == "nim" for p in made)


def test_play_journal_on_an_existing_file_refuses_and_keeps_it(tmp_path):
    path = saved_goodfortune(tmp_path)
    before = path.read_bytes()
    r = run(tmp_path, "play", "goodfortune", "--players", "Marie", "--bots", "1", "--lang", "en",
            "--journal", str(path), input="quit\n")
    assert r.returncode == 2 and "already exists" in r.stderr
    assert path.read_bytes() == before
    other = tmp_path / "notes.txt"
    other.write_text("my shopping list\n")
    r = run(tmp_path, "play", "kissa", "--players", "Marie", "--bots", "1", "--journal", str(other), input="quit\n")
    assert r.returncode == 2 and other.read_text() == "my shopping list\n"


def test_a_save_that_lost_its_final_newline_loses_nothing_on_the_next_moves(tmp_path):
    p = write_game(tmp_path / "g.jsonl", [(0, 1), (1, 1)])
    p.write_bytes(p.read_bytes().rstrip(b"\n"))  # a power cut took the last newline
    with jr.Journal.append_to(p) as j:
        j.action(0, {"take": 1})
        j.action(1, {"take": 1})
    assert [a["action"]["take"] for a in jr.read(p).actions] == [1, 1, 1, 1]


def test_glued_lines_from_an_older_version_are_split_again(tmp_path):
    p = write_game(tmp_path / "g.jsonl", [(0, 1), (1, 1), (0, 2)])
    lines = p.read_bytes().split(b"\n")
    p.write_bytes(b"\n".join(lines[:2]) + lines[2] + b"\n" + b"\n".join(lines[3:]))  # lines 2 and 3 glued
    opened = jr.open_resume(p)
    journal = opened.settle()
    journal.close()
    assert [p.code for p in opened.scan.problems] == ["glued"]
    assert [a["action"]["take"] for a in jr.read(p).actions] == [1, 1, 2]


# --------------------------------------------------------------------------- repair
def test_a_flipped_byte_mid_file_is_put_right_and_every_move_kept(tmp_path):
    p = write_game(tmp_path / "g.jsonl", [(0, 1), (1, 2), (0, 1), (1, 1)])
    data = bytearray(p.read_bytes())
    second = data.index(b"\n") + 1
    i = data.index(b'"take":2', second) + 7
    data[i] = ord("3")  # one byte changed on disk
    p.write_bytes(bytes(data))
    opened = jr.open_resume(p)
    opened.settle().close()
    assert [x.code for x in opened.scan.problems] == ["fixed"]
    assert [a["action"]["take"] for a in jr.read(p).actions] == [1, 2, 1, 1]
    assert opened.backup is not None and opened.backup.read_bytes() == bytes(data)


def test_an_unmendable_line_keeps_the_moves_before_and_says_how_many_were_set_aside(tmp_path):
    path = saved_goodfortune(tmp_path, "play for me\nplay for me\nplay for me\nquit\n")
    lines = path.read_bytes().split(b"\n")
    action_lines = [i for i, raw in enumerate(lines) if b'"kind":"action"' in raw]
    bad = action_lines[2]
    lines[bad] = b'{"crc":"0000zzzz","r":{"kind":"action",' + b"x" * 40
    path.write_bytes(b"\n".join(lines))
    r = run(tmp_path, "resume", str(path), "--lang", "en", input="quit\n")
    assert r.returncode == 0, r.stderr
    aside = len(action_lines) - 2
    assert f"damaged at line {bad + 1}. I kept the 2 valid moves before it and set aside {aside - 1} moves" in r.stdout
    assert len(jr.read(path).actions) >= 2
    assert Path(str(path) + ".damaged").exists()


def test_repair_interrupted_before_the_rename_leaves_the_save_whole(tmp_path, monkeypatch):
    p = write_game(tmp_path / "g.jsonl", [(0, 1), (1, 1)])
    p.write_bytes(p.read_bytes() + b'{"crc":"00000000","r":{"ki')
    original = p.read_bytes()

    def full_disk(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(jr.os, "replace", full_disk)
    opened = jr.open_resume(p)
    with pytest.raises(OSError):
        opened.settle()
    assert p.read_bytes() == original  # never empty, never shortened
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))
    monkeypatch.undo()
    opened = jr.open_resume(p)
    opened.settle().close()
    assert len(jr.read(p).actions) == 2


def test_every_damaged_copy_is_kept(tmp_path):
    p = write_game(tmp_path / "g.jsonl", [(0, 1)])
    copies = []
    for n in range(3):
        p.write_bytes(p.read_bytes() + b"garbage %d\n" % n)
        opened = jr.open_resume(p)
        opened.settle().close()
        copies.append(opened.backup)
    assert [c.name for c in copies] == ["g.jsonl.damaged", "g.jsonl.damaged-2", "g.jsonl.damaged-3"]
    assert [c.read_bytes().endswith(b"garbage %d\n" % n) for n, c in enumerate(copies)] == [True] * 3


# --------------------------------------------------------------------------- the game in the save
def test_an_edited_deck_file_does_not_change_a_saved_game(tmp_path):
    from companion.games.goodfortune.deck import synthetic

    deck_file = tmp_path / "mine.txt"
    tiles = [str(t) for t in synthetic().tiles]
    deck_file.write_text("name: mine\n" + "\n".join(tiles) + "\n")
    path = tmp_path / "game.jsonl"
    r = run(tmp_path, "play", "goodfortune", "--players", "Marie", "--bots", "1", "--seed", "4", "--lang", "en",
            "-o", f"deck={deck_file}", "--journal", str(path), input="play for me\nquit\n")
    assert r.returncode == 0, r.stderr
    start = jr.read(path).start
    assert start["resolved"]["deck"]["tiles"] == tiles and start["schema"] == 1
    deck_file.unlink()  # the file is gone: the save alone decides the game
    r = run(tmp_path, "resume", str(path), "--lang", "en", input="quit\n")
    assert r.returncode == 0, r.stderr
    assert "Game resumed after" in r.stdout


def test_a_move_that_is_not_of_this_game_is_said_never_a_pass(tmp_path):
    path = tmp_path / "k.jsonl"
    r = run(tmp_path, "play", "kaliko", "--players", "Marie", "--bots", "1", "--seed", "2", "--lang", "en",
            "--journal", str(path), input="play for me\nquit\n")
    assert r.returncode == 0, r.stderr
    n = len(jr.read(path).actions)
    with jr.Journal.append_to(path) as j:  # a hand edit with a valid CRC, or a future version
        j.action(0, {"teleport": [1, 2]})
    r = run(tmp_path, "resume", str(path), "--lang", "en", input="quit\n")
    assert r.returncode == 0, r.stderr
    assert "is not a move of this game" in r.stdout and "Traceback" not in r.stderr
    assert len(jr.read(path).actions) == n  # not turned into a pass
    with jr.Journal.append_to(path) as j:
        j.write({"kind": "chat", "text": "hello from the future"})
    r = run(tmp_path, "resume", str(path), "--lang", "en", input="quit\n")
    assert r.returncode == 0 and "not a record this version knows" in r.stdout


def test_resume_says_the_last_move_and_the_moves_never_announced(tmp_path):
    path = saved_goodfortune(tmp_path)
    r = run(tmp_path, "resume", str(path), "--lang", "en", input="quit\n")
    assert "Last move:" in r.stdout and "never announced" not in r.stdout
    c = jr.read(path)
    recs = jr.records(path)
    # A kill between the write of the last move and its narration: no marker after it.
    while recs[-1]["kind"] != "action":
        recs.pop()
    jr.rewrite(path, recs)
    r = run(tmp_path, "resume", str(path), "--lang", "en", input="quit\n")
    assert r.returncode == 0, r.stderr
    assert "1 move was saved but never announced:" in r.stdout
    assert len(jr.read(path).actions) >= len(c.actions)


# --------------------------------------------------------------------------- write failures
def test_a_full_disk_is_said_and_the_game_goes_on(tmp_path, monkeypatch):
    from companion.cli.runner import GuardedJournal
    from companion.session import Seat, Session
    from tests.toyui import NimUI

    p = write_game(tmp_path / "g.jsonl", [])
    out: list[str] = []
    nim = Nim()
    match = Match(nim, ["A", "B"], 1)
    journal = GuardedJournal(jr.Journal.append_to(p))
    session = Session("nim", NimUI(nim), match, [Seat("A"), Seat("B")], lang="en", journal=journal, out=out.append)
    said = []
    session.loop.on_outputs = said.append  # every batch the core gave
    session.start()
    session.handle("take 1")
    real = jr._write_all

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(jr, "_write_all", full)
    session.handle("take 2")
    session.handle("take 1")
    monkeypatch.setattr(jr, "_write_all", real)
    text = "\n".join(out)
    assert "The disk is full" in text and text.count("Saving has stopped") == 1
    # said by the table after the batch it was delivering, never through the core (issue #23)
    assert not any("io_full" in repr(o) or "saving_stopped" in repr(o) for batch in said for o in batch)
    assert match.state.pile == 3  # the game went on
    assert [a["action"] for a in jr.read(p).actions] == [{"take": 1}]  # a consistent prefix
    journal.close()


def test_no_writable_save_folder_is_said_and_play_goes_on(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    r = run(tmp_path, "play", "kissa", "--players", "Marie", "--bots", "1", "--lang", "en", input="status\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "could not be written" in r.stdout and "Saving has stopped" in r.stdout
    assert "Traceback" not in r.stderr


def test_journal_api_stays_backward_compatible(tmp_path):
    p = tmp_path / "g.jsonl"
    j = jr.Journal.create(p, START)
    j.action(0, {"take": 1})
    j.announced()
    j.undo()
    j.action(0, {"take": 2})
    j.end([1, 0], [0])
    j.close()
    c = jr.read(p)
    assert c.finished and c.actions == [{"seat": 0, "action": {"take": 2}}] and c.announced == 0
    assert json.loads(p.read_text().splitlines()[0])["r"]["version"] == jr.VERSION


def test_resume_of_a_save_without_its_final_newline_appends_on_a_fresh_line(tmp_path):
    p = write_game(tmp_path / "g.jsonl", [(0, 1), (1, 1)])
    p.write_bytes(p.read_bytes().rstrip(b"\n"))
    opened = jr.open_resume(p)
    j = opened.settle()
    j.action(0, {"take": 1})
    j.close()
    assert opened.backup is None and not opened.scan.problems  # nothing to say, nothing copied
    assert [a["action"]["take"] for a in jr.read(p).actions] == [1, 1, 1]
