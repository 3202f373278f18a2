"""`companion play ... --braille SEAT` and `companion join --seat NAME --braille`, for real: the
commands in their own processes, brltty's virtual display as the player's only screen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from companion.inputs.braille.snapshot import Snapshots
from tests.waiting import until
from tests.web.harness import Table

from .display import Brltty, Display, free_host

PLAY = [sys.executable, "-m", "companion.cli", "play"]


def env_of(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_SPEECH": "text", "XDG_RUNTIME_DIR": str(tmp_path),
            **extra}


def test_companion_play_with_a_braille_seat(brltty: Brltty, display: Display, tmp_path: Path) -> None:
    """Anne against a bot, reading on her display; she types « quitte » there: saved, stopped."""
    save = tmp_path / "game.jsonl"
    proc = subprocess.Popen([*PLAY, "kissa", "--players", "Anne", "--bots", "1", "--seed", "3", "--braille", "Anne",
                             "--journal", str(save), "--log", str(tmp_path / "log.jsonl")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env_of(tmp_path, **brltty.env))
    try:
        display.wait_text("Plage braille connectée pour", timeout=30)
        display.type("état")
        display.type("quitte")
        display.type("oui")  # « Quitter la partie ? » (#29)
        proc.wait(30)  # stopped by the line typed on the display: the keyboard's input is still open
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "Plage braille connectée pour Anne." in out
    import json

    typed = [(e["source"], e["seat"], e["text"], e["outcome"]) for e in map(json.loads, (tmp_path / "log.jsonl").open())
             if e.get("type") == "input"]
    assert [t[:3] for t in typed] == [("braille", 0, "état"), ("braille", 0, "quitte"), ("braille", 0, "oui")], typed
    assert typed[0][3] == "answer"
    assert save.exists() and save.read_text(encoding="utf-8").startswith("{")


def test_no_display_is_one_sentence_and_the_game_goes_on(tmp_path: Path) -> None:
    host, _ = free_host()  # nothing listens there
    proc = subprocess.run([*PLAY, "kissa", "--players", "Anne", "--bots", "1", "--seed", "3", "--braille", "Anne",
                           "--journal", str(tmp_path / "g.jsonl")], input="état\nquitte\n", capture_output=True,
                          text=True, timeout=60, env=env_of(tmp_path, BRLAPI_HOST=host))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    sentence = [ln for ln in lines if "Pas de plage braille pour Anne" in ln]
    assert len(sentence) == 1 and "brltty ne répond pas" in sentence[0]
    assert "Traceback" not in proc.stderr


def test_braille_seat_must_name_a_human(tmp_path: Path) -> None:
    proc = subprocess.run([*PLAY, "kissa", "--players", "Anne", "--bots", "1", "--braille", "Zoé"],
                          capture_output=True, text=True, timeout=60, env=env_of(tmp_path), stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert "Place braille mal écrite : « Zoé »" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


def test_companion_join_braille(brltty: Brltty, display: Display, tmp_path: Path) -> None:
    """A second process takes Anne's seat with her display: her lines there, her typing played."""
    sock = tmp_path / "join.sock"
    table = Table(seed=4, web=False, socket=sock)
    table.join.info = Snapshots(table.session.core)
    table.open()
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "join", "--seat", "Anne", "--braille",
                             "--socket", str(sock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env_of(tmp_path, **brltty.env))
    try:
        until(lambda: table.book.claimed(0) is not None or proc.poll() is not None, "the seat claimed")
        assert table.book.claimed(0) is not None, proc.stderr.read() if proc.stderr else ""
        assert table.book.claimed(0).source == "braille"
        display.wait_text("Plage braille de Anne.", timeout=30)
        table.start()
        channel = table.book.claimed(0).channel
        n = len([h for h in channel.since(0) if h.private])
        display.type("mon plateau")
        until(lambda: len([h for h in channel.since(0) if h.private]) > n,
              "the line typed on the display was not answered")
        assert "Plage braille connectée pour Anne." in table.printed
    finally:
        proc.stdin.close()  # no keyboard: the display plays on until the seat is let go
        table.book.close()
        table.close()
        try:
            assert proc.wait(30) == 0
        finally:
            if proc.poll() is None:
                proc.kill()


def test_companion_resume_with_a_braille_seat(brltty: Brltty, display: Display, tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    first = subprocess.run([*PLAY, "kissa", "--players", "Anne", "--bots", "1", "--seed", "3", "--journal", str(save)],
                           input="quitte\n", capture_output=True, text=True, timeout=60, env=env_of(tmp_path))
    assert first.returncode == 0, first.stderr
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "resume", str(save), "--braille", "Anne"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env_of(tmp_path, **brltty.env))
    try:
        display.wait_text("Plage braille connectée pour", timeout=30)
        display.type("quitte")
        display.type("oui")  # « Quitter la partie ? » (#29)
        proc.wait(30)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "Plage braille connectée pour Anne." in out


def test_companion_join_braille_without_a_display_stays_a_terminal(tmp_path: Path) -> None:
    sock = tmp_path / "join.sock"
    table = Table(seed=4, web=False, socket=sock)
    table.open()
    host, _ = free_host()  # no brltty there
    try:
        proc = subprocess.run([sys.executable, "-m", "companion.cli", "join", "--seat", "Anne", "--braille",
                               "--socket", str(sock)], input="", capture_output=True, text=True, timeout=60,
                              env=env_of(tmp_path, BRLAPI_HOST=host))
    finally:
        table.close()
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("Pas de plage braille pour Anne") == 1 and "Traceback" not in proc.stderr
    assert proc.stdout.startswith("Tu es Anne.")  # the terminal itself works
