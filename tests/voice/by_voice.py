"""`companion play GAME --voice-input WAV` run as a player runs it, for the tests that replay a
recording made for them: standard input stays open (no end of input) until the game ends by
voice; what was printed and the `--log` records come back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def play_recording(tmp: Path, game: str, wav: Path, seed: int, bots: int = 1,
                   timeout: float = 240, until: Callable[[list[dict[str, Any]]], bool] | None = None,
                   lang: str = "en") -> tuple[str, list[dict[str, Any]], int | None]:
    """What `companion play` printed (never a traceback: asserted), every record of its log,
    and its exit status (None: it had not ended by itself within `timeout`, or `until` the
    log's records were such: a recording need not end the game, nor wait for its timeout)."""
    log = tmp / "log.jsonl"
    env = {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp / "data")}
    printed = tmp / "out.txt"
    with printed.open("w") as fh:
        p = subprocess.Popen([sys.executable, "-m", "companion.cli", "play", game, "--players", "Marie",
                              "--bots", str(bots), "--lang", lang, "--speech", "text", "--voice-input", str(wav),
                              "--seed", str(seed), "--log", str(log)], stdin=subprocess.PIPE, stdout=fh,
                             stderr=subprocess.STDOUT, env=env)
        code = None
        try:
            code = _wait(p, log, timeout, until)
        except subprocess.TimeoutExpired:
            code = None  # not ended by itself: None, for the caller to say so
        finally:
            p.kill()
            p.wait()
            assert p.stdin is not None
            p.stdin.close()
    out = printed.read_text()
    assert "Traceback" not in out, out
    return out, [json.loads(ln) for ln in log.read_text().splitlines()] if log.exists() else [], code


def _wait(p: subprocess.Popen[bytes], log: Path, timeout: float,
          until: Callable[[list[dict[str, Any]]], bool] | None) -> int | None:
    """The exit status, or None once `until` holds of the log's records (read as it grows)."""
    if until is None:
        return p.wait(timeout=timeout)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if p.poll() is not None:
            return p.returncode
        lines = log.read_text().splitlines() if log.exists() else []
        try:
            records = [json.loads(ln) for ln in lines]
        except ValueError:  # a record being written
            records = [json.loads(ln) for ln in lines[:-1]]
        if until(records):
            time.sleep(0.5)  # what it printed last
            return None
        time.sleep(0.25)
    raise subprocess.TimeoutExpired(p.args, timeout)


def voice_inputs(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log's input records that came by voice, in order."""
    return [r for r in records if r.get("type") == "input" and r["source"] == "voice"]
