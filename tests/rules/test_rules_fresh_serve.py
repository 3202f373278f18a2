"""A fresh set-up, `companion serve`, and the KIKOI page plays chapter 1 in a headless browser
(#17): the real command in its own process, with no rules audio built at all, builds it while
it serves; the page offers each chapter as soon as it is built, and Chromium plays it."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.audiorules.manifest import load
from tests.browser import require_chromium

require_chromium()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _companion() -> list[str]:
    script = Path(sys.executable).with_name("companion")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())"]


@pytest.fixture
def fresh_serve(empty_build: Path):
    """`companion serve` on a set-up where no audio was ever built; yields (url, lines)."""
    port = _free_port()
    proc = subprocess.Popen([*_companion(), "serve", "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, encoding="utf-8",
                            env={**os.environ, "COMPANION_LANG": "fr", "PYTHONUNBUFFERED": "1"})
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))

    threading.Thread(target=pump, daemon=True).start()
    try:
        yield f"http://localhost:{port}", lines
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        assert not list(empty_build.rglob("*.tmp*")), "a half-written file was left behind"


def _wait_for(lines: queue.Queue[str], wanted: str, timeout: float) -> list[str]:
    seen: list[str] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            continue
        seen.append(line)
        if wanted in line:
            return seen
    raise AssertionError(f"{wanted!r} never printed; printed: {seen}")


def test_a_fresh_set_up_serves_and_the_kikoi_page_plays_chapter_one(fresh_serve, browser) -> None:
    url, lines = fresh_serve
    first, second = load("kikoi", "fr").chapters[:2]
    seen = _wait_for(lines, "Page des règles : ", 30)
    seen += _wait_for(lines, f"Audio construit : kikoi fr, {first.id} (1 sur ", 180)
    assert any(s.startswith("Audio des règles manquant : je construis 64 chapitres") for s in seen), seen
    # The server relays each progress line, then offers the files built (its refresh, in the
    # same thread); so once the next line is printed, chapter 1 is offered: the event waited on,
    # not a clock (on a loaded machine the refresh took longer than any fixed wait; issue 25).
    _wait_for(lines, f"Audio construit : kikoi fr, {second.id} (2 sur ", 180)

    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        audio = page.locator(f"section#{first.id} audio")
        assert page.goto(url + "/kikoi/fr/").status == 200
        assert audio.count() == 1, "chapter 1 was built but the page does not offer it"
        assert audio.get_attribute("aria-label") == f"Audio : {first.title}"
        # As a keyboard user would: Tab to the player's own controls is the browser's; a click
        # on it is the user's gesture that lets it play.
        audio.click()
        played = audio.evaluate(
            """async (a) => {
                 if (a.paused) { try { await a.play(); } catch (e) { return {error: String(e)}; } }
                 const t0 = a.currentTime;
                 await new Promise(r => setTimeout(r, 1500));
                 return {src: a.currentSrc, paused: a.paused, error: a.error && a.error.code,
                         advanced: a.currentTime - t0, duration: a.duration};
               }"""
        )
    finally:
        ctx.close()
    assert "error" not in played or played["error"] is None, played
    assert played["src"].endswith(f"/kikoi/fr/{first.id}.ogg"), played
    assert not played["paused"] and played["advanced"] > 0.5, played
    assert played["duration"] > 5, played
