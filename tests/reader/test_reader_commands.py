"""`companion play kikoi --reader PORT` and `companion reader pair|write PORT`, as processes,
with the reader emulator on a pseudo-terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from tests.waiting import WAIT, until

from .emulator import Emulator

FAST = ("--debounce", "0.02", "--grace", "0.05", "--heartbeat", "0.1")


class Proc:
    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "companion.cli", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
                                     env={**os.environ, **(env or {})})
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, times: int = 1, timeout: float = WAIT) -> None:
        until(lambda: sum(text in line for line in self.lines) >= times or self.proc.poll() is not None,
              f"no {text!r}", timeout)
        assert sum(text in line for line in self.lines) >= times, f"no {text!r} in {self.lines[-8:]}"

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def close(self) -> int:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def test_play_starts_without_the_reader_and_takes_tokens_once_it_is_plugged(tmp_path: Path):
    link = tmp_path / "ttyREADER"
    journal = tmp_path / "game.jsonl"
    game = Proc("play", "kikoi", "-o", "physical=true", "--players", "Marie,Paul,Zoé", "--seed", "1",
                "--speech", "text", "--journal", str(journal), "--reader", f"{link}=Marie", "--reader", f"{link}.2")
    emu = None
    try:
        game.wait_for("Pas encore de lecteur 1")
        game.type("Marie: le kimouss à la maison")  # typing works before any reader
        emu = Emulator("--link", str(link), *FAST)
        game.wait_for("Lecteur 1 prêt.")
        emu("place 0 kikoi:kigliss-sleep")
        game.wait_for("Marie : jeton 2 sur 4 noté.")
        emu("unplug")
        game.wait_for("Lecteur 1 débranché.")
        emu("replug")
        game.wait_for("Lecteur 1 rebranché.")
        game.type("quitte")
        assert game.close() == 0
    finally:
        game.proc.kill() if game.proc.poll() is None else None
        if emu is not None:
            emu.close()
    records = [json.loads(x)["r"] for x in journal.read_text().splitlines()]
    drew = [r["action"]["drew"] for r in records if r.get("kind") == "action"]
    assert drew == ["kimouss-house", "kigliss-sleep"]


def test_pair_then_write_one_token_at_a_time(tmp_path: Path):
    pairs = tmp_path / "pairs.json"
    emu = Emulator(*FAST)
    try:
        flow = Proc("reader", "pair", emu.path, "--tokens", "kigliss-sleep,kiboss-eat", "--speech", "text",
                    env={"COMPANION_READER_PAIRS": str(pairs)})
        flow.wait_for("Pose le Kigliss qui dort sur le lecteur.")
        emu("place 1 04a1a2a3a4a5a6")
        flow.wait_for("Noté : le Kigliss qui dort.")
        emu("remove 1")
        flow.wait_for("Pose le Kiboss qui mange sur le lecteur.")
        emu("place 1 04a1a2a3a4a5a6")  # the same tag again: it is already the Kigliss
        flow.wait_for("Ce jeton est déjà le Kigliss qui dort.")
        emu("remove 1")
        flow.wait_for("Pose le Kiboss qui mange sur le lecteur.", times=2)
        emu("place 2 04b1b2b3b4b5b6")
        flow.wait_for("Noté : le Kiboss qui mange.")
        emu("remove 2")
        flow.wait_for("Fini : 2 jetons appris.")
        assert flow.close() == 0
        assert json.loads(pairs.read_text()) == {"04a1a2a3a4a5a6": "kikoi:kigliss-sleep",
                                                 "04b1b2b3b4b5b6": "kikoi:kiboss-eat"}
        write = Proc("reader", "write", emu.path, "--tokens", "kimouss-eat", "--speech", "text")
        write.wait_for("Pose le Kimouss qui mange sur le lecteur.")
        emu("place 0 04c1c2c3c4c5c6")
        write.wait_for("Écrit : le Kimouss qui mange.")
        emu("remove 0")
        write.wait_for("Fini : 1 jetons écrits.")
        assert write.close() == 0
    finally:
        emu.close()


def test_a_reader_bound_to_no_player_is_refused_before_the_game():
    r = subprocess.run([sys.executable, "-m", "companion.cli", "play", "kikoi", "-o", "physical=true", "--players",
                        "Marie,Paul,Zoé", "--speech", "text", "--reader", "/dev/null=Nobody"],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "--reader /dev/null=Nobody" in r.stdout + r.stderr
