"""« lis le code » / "read the code" during a game (issue 28): the core asks (`ScanRules`), the
table's edge (`GameScanner`) watches the camera — here video files made as the camera tests
make them — in its own thread, and the game goes on; what it finds is said at the table."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.audiorules.ingame import GameScanner
from companion.audiorules.qrlabel import write_label
from companion.core import Match
from companion.session import Seat, SessionCore, Table
from companion.session.inbox import Device, Line, Notice
from companion.session.outputs import InputTaken, JournalAction, Say, ScanRules
from tests.toygame import Nim
from tests.toyui import NimUI, TakeOne

from .camera_video import make_clip, make_foreign_clip

BIN = Path(sys.executable).parent / "companion"


@pytest.fixture(scope="module")
def label(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("ingame")
    return write_label("kaliko", "en", d / "label.png", "http://companion.local:8765")


@pytest.fixture(scope="module")
def clip(label: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_clip(label, tmp_path_factory.mktemp("clip") / "clip.avi").path


def nim_core() -> SessionCore:
    game = Nim(pile=7)
    seats = [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))]
    return SessionCore("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4), seats, lang="en")


def test_the_core_asks_for_a_scan_and_changes_nothing() -> None:
    c = nim_core()
    c.start()
    before = len(c.match.history)
    for words in ("read the code", "lis le code", "Marie: scan the code"):
        out = c.handle(Line(words))
        assert [o for o in out if isinstance(o, ScanRules)] == [ScanRules(0, "en")]
        assert [o.outcome for o in out if isinstance(o, InputTaken)] == ["shared"]
        assert not [o for o in out if isinstance(o, (JournalAction, Say))]  # the edge says what it finds
    assert len(c.match.history) == before and c.running


def said(posted: list[object], lang: str = "en") -> list[tuple[str, str | None]]:
    """The Notices posted to the inbox, as the table renders them, with their earcon."""
    table = Table([], lang=lang)
    out = []
    for item in posted:
        assert isinstance(item, Device) and isinstance(item.event, Notice)
        utt = item.event.utterance
        out.append((table.render(Say(utt.to, utt, lang=lang)), utt.earcon))
    return out


def test_a_label_read_during_a_game_says_its_game_language_and_chapters(clip: Path) -> None:
    posted: list[object] = []
    ticks: list[str | None] = []

    class Speaker:
        def say(self, text, priority=None, earcon=None, lang=None):
            ticks.append(earcon)

    scanner = GameScanner(posted.append, camera=str(clip), speaker=Speaker(), pace=False)
    scanner(ScanRules(None, "fr"))
    assert scanner.join(60)
    lines = said(posted, "fr")
    assert lines[0][0].startswith("Je cherche le code des règles.")
    text, earcon = lines[-1]
    assert earcon == "found"
    assert text.startswith("Code lu : les règles de Kaliko, en anglais. Règles de Kaliko, en 8 chapitres. Chapitres : 1, ")
    assert text.endswith("La partie continue. Pour écouter un chapitre : companion rules kaliko --lang en --chapter N.")
    assert ticks.count("seek") >= 2  # the guidance, heard before


def test_no_camera_and_a_scan_already_under_way_are_one_sentence_each(clip: Path, tmp_path: Path) -> None:
    posted: list[object] = []
    scanner = GameScanner(posted.append, camera=str(tmp_path / "video9"))
    scanner(ScanRules(0, "en"))
    assert scanner.join(30)
    assert said(posted) == [(f"No camera found ({tmp_path / 'video9'}): plug one in, or give its path with --camera.",
                             None)]
    posted.clear()
    gate = threading.Event()
    first = threading.Event()

    def held(item: object) -> None:  # the first sentence waits: the scan stays under way
        posted.append(item)
        if not first.is_set():  # only the scanner's own first post: the second request's answer must not wait
            first.set()
            gate.wait(30)

    busy = GameScanner(held, camera=str(clip), pace=False)
    busy(ScanRules(0, "en"))
    assert first.wait(30)
    busy(ScanRules(0, "en"))  # a second « lis le code » while the camera looks
    gate.set()
    assert busy.join(60)
    lines = [t for t, _ in said(posted)]
    assert lines[1] == "Already looking for the rules code: turn the label towards the camera."
    assert lines[-1].startswith("Code read: the rules of Kaliko, in English.")


def test_a_code_that_is_not_a_rules_code_is_said_and_the_search_ends(tmp_path: Path) -> None:
    posted: list[object] = []
    scanner = GameScanner(posted.append, camera=str(make_foreign_clip(tmp_path / "menu.avi").path), pace=False)
    scanner(ScanRules(None, "en"))
    assert scanner.join(30)
    assert [t for t, _ in said(posted)][1:] == [
        "This code is not a companion rules code; still looking. It holds: https://example.org/menu",
        "I found no rules code. Try again with the label facing the camera, about twenty centimetres away."]


def test_read_the_code_in_a_played_game_and_the_game_goes_on(clip: Path, tmp_path: Path) -> None:
    """`companion play … --camera VIDEO`, « read the code » typed: the label is read and the
    game goes on (its status answered after), then quit."""
    env = {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}
    p = subprocess.Popen([str(BIN), "play", "kissa", "--players", "Anne", "--bots", "1", "--seed", "3", "--lang",
                          "en", "--camera", str(clip)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    lines: queue.Queue[str] = queue.Queue()
    assert p.stdout is not None and p.stdin is not None
    threading.Thread(target=lambda: [lines.put(x.rstrip("\n")) for x in p.stdout], daemon=True).start()

    def until(pred, timeout: float = 90.0) -> list[str]:
        seen: list[str] = []
        while True:
            seen.append(lines.get(timeout=timeout))  # queue.Empty: the line never came
            if pred(seen[-1]):
                return seen

    try:
        p.stdin.write("read the code\n")
        p.stdin.flush()
        # said to Anne, who asked: « [Anne] … » at the shared screen
        seen = until(lambda x: x.startswith("[Anne] Code read: the rules of Kaliko, in English."))
        assert any(x.startswith("[Anne] Looking for the rules code.") for x in seen)
        assert "Rules of Kaliko, in 8 chapters." in seen[-1] and "The game goes on." in seen[-1]
        p.stdin.write("where is the save\n")  # the game still answers
        p.stdin.flush()
        until(lambda x: x.startswith("[Anne] The game is saved at every move in "))
        p.stdin.write("quit\nyes\n")
        p.stdin.close()
        assert p.wait(60) == 0
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert "Traceback" not in p.stderr.read()
