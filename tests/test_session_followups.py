"""Follow-ups of the table loop (issue 17): verbosity that changes the narration and survives a
resume, the save's path said only when asked, the order of what a resume says, a `--log`
file on a full disk, and a seat that gets its own channel mid-game hearing what it holds."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import runner
from companion.core import Match, Rng, find
from companion.narration import Priority, Verbosity
from companion.saves import journal as jr
from companion.session import Seat, Session, SessionCore, Table
from companion.session.inbox import Line
from companion.session.outputs import JournalSetting, Say
from companion.session.transcript import load
from tests.toygame import Nim
from tests.toyui import NimUI, TakeOne

BIN = Path(sys.executable).parent / "companion"


def env(tmp_path):
    return {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}


def run(tmp_path, *args, input=None):
    return subprocess.run([str(BIN), *args], input=input, capture_output=True, text=True, env=env(tmp_path), timeout=180)


def kissa_session(seed=4):
    entry = find("kissa")
    game, ui, bots = load(entry)
    kind = next(iter(bots))
    seats = [Seat("Marie"), Seat("Robot", bot=bots[kind](game, 1, Rng(seed).fork(2)))]
    match = Match(game, ["Marie", "Robot"], seed)
    lines: list[str] = []
    s = Session(entry.name, ui, match, seats, lang="fr", out=lines.append)
    s.helper = lambda seat: bots[kind](game, seat, Rng(seed).fork(100 + seat + len(match.history)))
    return s, lines


def words_of_bot_move(lines):
    """Words of the robot's move as printed (its line and the score line after it)."""
    i = next(i for i, line in enumerate(lines) if line.startswith(("Robot :", "Robot joue ")))
    return len(" ".join(lines[i:i + 2]).split())


# ------------------------------------------------------------------ 1. verbosity
def test_unprefixed_terse_sets_the_table_and_shortens_the_narration_of_moves():
    s, lines = kissa_session()
    s.start()
    s.handle("joue pour moi")
    before = words_of_bot_move(lines)
    mark = len(lines)
    s.handle("bref")
    assert s.core.verbosity == Verbosity.TERSE and s.seats[0].verbosity is None
    s.handle("joue pour moi")
    after = words_of_bot_move(lines[mark:])
    assert after < before, (before, after, lines)
    assert " vers " not in " ".join(lines[mark:])  # terse 2kissa10 moves name cells, not directions


def test_prefixed_terse_is_the_players_own_public_narration_keeps_the_table():
    game = Nim(pile=9)
    c = SessionCore("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4),
                    [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))], lang="en")
    c.start()
    out = c.handle(Line("Marie: terse"))
    assert c.seats[0].verbosity == Verbosity.TERSE and c.verbosity == Verbosity.NORMAL
    assert JournalSetting(0, "verbosity", "terse") in out
    out = c.handle(Line("secret"))
    out += c.handle(Line("take 2"))
    say = [o for o in out if isinstance(o, Say)]
    assert {o.verbosity for o in say if o.listener is None} == {Verbosity.NORMAL}
    assert {o.verbosity for o in say if o.listener == 0} == {Verbosity.TERSE}
    out = c.handle(Line("normal"))  # unprefixed: the table's
    assert JournalSetting(None, "verbosity", "normal") in out and c.seats[0].verbosity == Verbosity.TERSE


def test_settings_in_the_journal_are_read_back_and_applied_in_order(tmp_path):
    path = tmp_path / "g.jsonl"
    j = jr.Journal.create(path, {"game": "nim", "options": {}, "players": ["Marie", "Paul"], "seats": [None, "one"],
                                 "seed": 4, "lang": "en"})
    j.setting(None, "verbosity", "terse")
    j.action(0, {"n": 1})
    j.setting(0, "verbosity", "verbose")
    j.setting(None, "verbosity", "normal")
    j.close()
    c = jr.read(path)
    assert c.settings == [(None, "verbosity", "terse"), (0, "verbosity", "verbose"), (None, "verbosity", "normal")]
    assert len(c.actions) == 1
    game = Nim(pile=9)
    core = SessionCore("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4), [Seat("Marie"), Seat("Paul")])
    core.apply_settings(c.settings + [(7, "verbosity", "terse"), (None, "verbosity", "loud")])  # ignored
    assert core.verbosity == Verbosity.NORMAL and core.seats[0].verbosity == Verbosity.VERBOSE


def test_a_bad_setting_record_is_set_aside_like_any_unknown_record(tmp_path):
    path = tmp_path / "g.jsonl"
    j = jr.Journal.create(path, {"game": "nim", "options": {}, "players": ["Marie"], "seats": [None], "seed": 4, "lang": "en"})
    j.write({"kind": "setting", "seat": "Marie", "key": "verbosity", "value": "terse"})
    j.close()
    s = jr.scan(path.read_bytes(), path)
    # set aside alone, what follows still read (issue 25)
    assert s.stop is None and s.problems[0].code == "unknown_record" and s.problems[0].line == 2
    assert [line for line, _ in s.records] == [1] and s.needs_rewrite


def test_resume_keeps_the_verbosity_and_says_resumed_before_the_last_move(tmp_path):
    path = tmp_path / "game.jsonl"
    r = run(tmp_path, "play", "kissa", "--players", "Marie", "--bots", "1", "--seed", "4", "--lang", "en",
            "--journal", str(path), input="terse\nplay for me\nquit\n")
    assert r.returncode == 0, r.stderr
    assert jr.read(path).settings == [(None, "verbosity", "terse")]
    r = run(tmp_path, "resume", str(path), "--lang", "en", input="help\nquit\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    resumed = next(i for i, line in enumerate(out) if line.startswith("Game resumed after"))
    last = out.index("Last move:")
    assert resumed < last  # « Partie reprise » first, then the last move
    assert out[last + 1].startswith("Bot 1 plays ")
    assert any(line.startswith("[Marie] Help, repeat") for line in out), out  # help_global's terse form


# ------------------------------------------------------------------ 3. what a resume says first
def test_a_resumed_core_says_resumed_then_the_unannounced_moves_then_marks_them():
    from companion.narration import Raw, Utterance

    game = Nim(pile=9)
    c = SessionCore("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4),
                    [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))], lang="en")
    c.match.replay([{"seat": 0, "action": {"take": 2}}, {"seat": 1, "action": {"take": 1}}])
    c.resumed = True
    c.resume_news = [Utterance((Raw("2 moves were saved but never announced:"),)), Utterance((Raw("Marie took 2"),))]
    c.news_unannounced = True
    out = c.start()
    said = [Table([], lang="en").render(o) for o in out if isinstance(o, Say)]
    assert said[:3] == ["Game resumed after 2 moves.", "2 moves were saved but never announced:", "Marie took 2"]
    kinds = [type(o).__name__ for o in out]
    assert kinds.index("JournalAnnounced") > max(i for i, k in enumerate(kinds[:4]) if k == "Say")

# ------------------------------------------------------------------ 2. the save's path
class Recorder:
    def __init__(self):
        self.said = []

    def say(self, text, priority=Priority.TEXT, earcon=None, lang=None):
        self.said.append(text)

    def describe(self):
        return []

    def interrupt(self):
        self.interrupted = getattr(self, "interrupted", 0) + 1  # counted: nothing plays here

    def wait(self, timeout=None):
        return True

    def close(self):
        self.closed = True


def play_args(tmp_path, game="nim", **kw):
    base = {"game": game, "lang": "en", "option": [], "players": "Marie", "bots": 1, "bot": None, "seed": 4,
            "speech": None, "out": None, "private": [], "verbosity": None, "log": None,
            "journal": tmp_path / "g.jsonl"}
    return argparse.Namespace(**{**base, **kw})


def test_the_save_path_is_printed_once_and_said_only_when_asked(tmp_path, monkeypatch, capsys):
    spk = Recorder()
    monkeypatch.setattr(runner, "open_speakers", lambda *a, **k: (spk, {}))
    monkeypatch.setattr(sys, "stdin", io.StringIO("take 1\nwhere is the save\nquit\n"))
    assert runner.play(play_args(tmp_path, game="kissa")) == 0
    printed = capsys.readouterr().out.splitlines()
    where = str(tmp_path / "g.jsonl")
    at_start = [line for line in printed if where in line]
    assert at_start[0] == f"The game is saved at every move in {where}."
    spoken = [t for t in spk.said if where in t]
    assert spoken == [f"The game is saved at every move in {where}."]  # once: the answer to the question
    assert spk.said.index(spoken[0]) > 0 and spk.said[0] != spoken[0]


def test_where_is_the_save_without_a_save():
    game = Nim(pile=9)
    c = SessionCore("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4),
                    [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))], lang="en")
    c.start()
    out = c.handle(Line("où est la sauvegarde"))
    assert [Table([], lang="en").render(o) for o in out if isinstance(o, Say)] == ["This game is not saved."]
    c.save_path = "/tmp/x.jsonl"
    out = c.handle(Line("where is the save"))
    assert [Table([], lang="en").render(o) for o in out if isinstance(o, Say)] == ["The game is saved at every move in /tmp/x.jsonl."]


@pytest.mark.parametrize("lang,question", [("fr", "où est la sauvegarde"), ("en", "where is the save")])
def test_help_names_the_question_of_where_the_save_is(lang, question):
    """Said only when asked (#17 item 6), so « aide » must tell that it can be asked."""
    game = Nim(pile=9)
    c = SessionCore("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4),
                    [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))], lang=lang)
    c.start()
    said = [Table([], lang=lang).render(o) for o in c.handle(Line("aide" if lang == "fr" else "help")) if isinstance(o, Say)]
    assert any(question in s for s in said), said


# ------------------------------------------------------------------ 4. the --log file
full_disk = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full (not Linux)")


@full_disk
def test_a_log_on_a_full_disk_is_said_once_and_play_goes_on(tmp_path):
    lines: list[str] = []
    game = Nim(pile=9)
    seats = [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))]
    s = Session("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4), seats, lang="en", out=lines.append,
                log=Path("/dev/full"))
    s.start()
    s.handle("take 2")
    s.handle("take 2")
    assert lines.count("The disk is full: /dev/full could not be written.") == 1
    assert lines.count("The log file is no longer written; the game goes on.") == 1
    assert s.match.state.pile == 3


def test_a_log_that_cannot_be_opened_is_said_and_play_goes_on(tmp_path):
    lines: list[str] = []
    game = Nim(pile=9)
    log = tmp_path / "missing" / "log.jsonl"
    s = Session("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4),
                [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))], lang="en", out=lines.append, log=log)
    s.start()
    s.handle("take 2")
    assert lines[0] == f"{log} could not be written." and lines[1].startswith("The log file is no longer written")
    assert s.match.state.pile == 6


def test_a_log_on_a_read_only_disk_says_so(tmp_path, monkeypatch):
    import errno
    import os

    def refuse(path, *a, **k):
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(os, "open", refuse)  # the log is opened 0600 with os.open (issue 25)
    lines: list[str] = []
    game = Nim(pile=9)
    log = tmp_path / "log.jsonl"
    Session("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4),
            [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))], lang="en", out=lines.append, log=log)
    assert lines == [f"The folder of {log} is read-only: it could not be written.",
                     "The log file is no longer written; the game goes on."]

@full_disk
def test_companion_play_with_a_log_on_a_full_disk_has_no_traceback(tmp_path):
    r = run(tmp_path, "play", "kissa", "--bots", "2", "--seed", "3", "--lang", "en", "--log", "/dev/full")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout.count("The disk is full: /dev/full could not be written.") == 1


# ------------------------------------------------------------------ 5. a channel mid-game
class Page:
    public = True

    def __init__(self):
        self.got = []

    def deliver(self, text, *, private, priority, earcon, lang):
        self.got.append((text, private))

    def interrupt(self):
        self.interrupted = getattr(self, "interrupted", 0) + 1  # counted: nothing plays here


def two_humans(game_name):
    entry = find(game_name)
    game, ui, _ = load(entry)
    names = ["Marie", "Paul", "Zoé"][: max(2, entry.min_players)]
    lines: list[str] = []
    s = Session(entry.name, ui, Match(game, names, 4), [Seat(n) for n in names], lang="fr", out=lines.append,
                private_policy="withhold")
    return s, lines


def test_a_seat_claimed_mid_game_hears_privately_what_it_holds_kikoi():
    s, lines = two_humans("kikoi")
    s.start()
    page = Page()
    s.claim(1, page)
    held = s.match.game.hidden_holdings(s.match.state, 1)
    assert held and page.got and all(private for _, private in page.got)
    assert page.got[0][0].startswith("Ton plateau")
    assert page.got[0][0] == f"Ton plateau : {len(s.match.state.boards[1])} jetons." and len(page.got) > 1
    assert lines[-1] == "[Paul] (dit en privé à Paul)"  # the shared screen shows only that something was said


def test_a_seat_claimed_mid_game_hears_its_hand_kaliko():
    s, lines = two_humans("kaliko")
    s.start()
    page = Page()
    s.claim(0, page)
    assert page.got[0] == ("Ta main, 7 tuiles :", True) and len(page.got) == 8
    assert not any("Ta main" in line for line in lines)  # never on the shared screen


def test_a_seat_claimed_in_a_game_without_secrets_hears_nothing_more():
    s, _ = two_humans("kissa")
    s.start()
    page = Page()
    s.claim(1, page)
    assert page.got == []


def test_log_lines_stay_json(tmp_path):
    log = tmp_path / "log.jsonl"
    game = Nim(pile=9)
    s = Session("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4),
                [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))], lang="en", out=lambda _: None, log=log)
    s.start()
    s.handle("take 2")
    s.table.close()
    assert all(json.loads(line) for line in log.read_text().splitlines())
