"""The command line, run as a user runs it: a real process, real files, real signals."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.saves import journal as jr
from tests.waiting import until

BIN = Path(sys.executable).parent / "companion"


def env(tmp_path):
    return {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}


def run(tmp_path, *args, input=None, timeout=120):
    return subprocess.run([str(BIN), *args], capture_output=True, text=True, env=env(tmp_path),
                          input=input, timeout=timeout)


def test_help_and_games(tmp_path):
    r = run(tmp_path, "--help")
    assert r.returncode == 0 and "play" in r.stdout and "resume" in r.stdout
    r = run(tmp_path, "games")
    assert r.returncode == 0
    for name in ("kikoi", "kissa", "goodfortune", "kaliko"):
        assert name in r.stdout


def test_unknown_game_is_said_clearly(tmp_path):
    r = run(tmp_path, "play", "monopoly")
    assert r.returncode == 2
    assert "monopoly" in r.stderr and "kissa" in r.stderr


def test_bad_option_and_bad_player_count(tmp_path):
    r = run(tmp_path, "play", "goodfortune", "-o", "nonsense=1", "--lang", "en")
    assert r.returncode == 2 and "Variant refused" in r.stderr
    r = run(tmp_path, "play", "goodfortune", "--players", "A,B,C", "--lang", "en")
    assert r.returncode == 2 and "3 players" in r.stderr and "for exactly 2" in r.stderr
    r = run(tmp_path, "play", "goodfortune", "--players", "A", "--bots", "0", "--lang", "fr")
    assert r.returncode == 2 and "1 joueur," in r.stderr and "se joue à 2" in r.stderr  # not « de 2 à 2 »


def test_an_option_takes_yes_and_no_in_the_words_of_every_language(tmp_path):
    # « oui » / « non » are words of the tables, not of the rules (issue 24)
    said = {}
    for word in ("oui", "yes", "d'accord", "true", "non", "false"):
        r = run(tmp_path, "phrases", "goodfortune", "-o", f"physical={word}", "--json")
        assert r.returncode == 0, r.stderr
        said[word] = r.stdout
    assert said["oui"] == said["yes"] == said["d'accord"] == said["true"] != said["non"] == said["false"]
    r = run(tmp_path, "phrases", "goodfortune", "-o", "physical=peut-être", "--json")
    assert r.returncode != 0


@pytest.mark.parametrize("game", ["goodfortune", "kissa", "kikoi", "kaliko"])
def test_bots_only_play_prints_the_whole_game_and_logs_game_ended(tmp_path, game):
    log = tmp_path / "events.jsonl"
    r = run(tmp_path, "play", game, "--seed", "3", "--lang", "en", "--log", str(log), timeout=300)
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) > 5
    last = json.loads(log.read_text().splitlines()[-1])
    assert last["type"] == "game_ended" and "scores" in last and "winners" in last


def test_resume_after_sigkill_continues_at_the_same_move(tmp_path):
    path = tmp_path / "game.jsonl"
    p = subprocess.Popen([str(BIN), "play", "goodfortune", "--players", "Marie", "--bots", "1", "--seed", "9",
                          "--lang", "en", "--journal", str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env(tmp_path))
    for _ in range(3):
        p.stdin.write("play for me\n")
        p.stdin.flush()
    def saved() -> int:
        try:
            return len(jr.read(path).actions) if path.exists() else 0
        except jr.JournalError:  # just created, its first line not written yet (seen under load)
            return 0

    until(lambda: saved() >= 5, "five moves saved")
    p.send_signal(signal.SIGKILL)
    p.wait()
    before = jr.read(path)
    assert not before.finished and len(before.actions) >= 5
    r = run(tmp_path, "resume", str(path), "--lang", "en", input="status\nquit\n")
    assert r.returncode == 0, r.stderr
    n = len(before.actions)
    assert f"Game resumed after {n} moves." in r.stdout
    after = jr.read(path).actions
    assert after[:n] == before.actions  # nothing lost; a bot due to move may have moved since


def test_resume_of_a_damaged_journal_names_the_line_and_recovers(tmp_path):
    path = tmp_path / "game.jsonl"
    r = run(tmp_path, "play", "goodfortune", "--players", "Marie", "--bots", "1", "--seed", "9", "--lang", "en",
            "--journal", str(path), input="play for me\nplay for me\nquit\n")
    assert r.returncode == 0, r.stderr
    good = jr.read(path)
    data = path.read_bytes()
    path.write_bytes(data + b'{"crc":"00000000","r":{"kind":"action","se')  # a write cut short
    lines = len(data.splitlines())
    r = run(tmp_path, "resume", str(path), "--lang", "en", input="quit\n")
    assert r.returncode == 0, r.stderr
    assert f"damaged at line {lines + 1}" in r.stdout
    assert Path(str(path) + ".damaged").exists()
    assert jr.read(path).actions == good.actions


def test_resume_refuses_garbage_clearly(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("this is not a saved game\n")
    r = run(tmp_path, "resume", str(bad), "--lang", "en")
    assert r.returncode == 2 and "is not a save file (line 1)" in r.stderr
    r = run(tmp_path, "resume", "--lang", "en")
    assert r.returncode == 2 and "No game to resume" in r.stderr


def test_quit_saves_and_resume_says_where_it_stands(tmp_path):
    r = run(tmp_path, "play", "goodfortune", "--players", "Marie", "--bots", "1", "--seed", "2", "--lang", "en",
            input="play for me\nquit\n")
    assert r.returncode == 0 and "Game saved." in r.stdout
    r = run(tmp_path, "resume", "--lang", "en", input="quit\n")
    assert r.returncode == 0 and "Game resumed after" in r.stdout


# --- what the table decides before the rules are made (runner.table_options) -------------------------
def test_a_physical_good_fortune_without_the_boxs_deck_does_not_start(tmp_path):
    r = run(tmp_path, "play", "goodfortune", "--players", "Anne,Bruno", "-o", "physical=true", input="quitte\n")
    assert r.returncode == 2, r
    assert "companion goodfortune deck new" in r.stderr + r.stdout and "-o deck=synthetic" in r.stderr + r.stdout
    assert not list((tmp_path / "data").rglob("*.jsonl")), "nothing saved for a game that did not start"
    r = run(tmp_path, "play", "goodfortune", "--players", "Anne,Bruno", "-o", "physical=true", "-o", "deck=synthetic",
            input="quitte\n")
    assert r.returncode == 0 and "synthétique" in r.stdout


def test_a_lone_human_among_kikoi_bots_is_asked_kipirat_only_when_holding_it_and_the_save_keeps_it(tmp_path):
    r = run(tmp_path, "play", "kikoi", "--players", "Anne", "--bots", "2", "--seed", "5", input="quitte\n")
    assert r.returncode == 0, r
    (save,) = (tmp_path / "data").rglob("*kikoi*.jsonl")
    start = json.loads(save.read_text(encoding="utf-8").splitlines()[0])["r"]
    assert start["options"] == {"kipirat_window": "holder"}
    r = run(tmp_path, "play", "kikoi", "--players", "Anne,Bruno", "--bots", "1", "--seed", "5",
            "--speech", "espeak-ng", "--out", "null", "--private", "Anne=null", "--private", "Bruno=null",
            input="quitte\n")  # each hears their own hand, on their own (here silent) speaker
    saves = sorted((tmp_path / "data").rglob("*kikoi*.jsonl"), key=lambda p: p.stat().st_mtime)
    assert json.loads(saves[-1].read_text(encoding="utf-8").splitlines()[0])["r"]["options"] == {}
