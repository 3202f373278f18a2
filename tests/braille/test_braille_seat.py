"""The braille seat against brltty really started (Virtual driver), BrlAPI really connected:
what the display shows is read back, keys are really sent (tests/braille/display.py)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from companion.inputs.braille.seat import IN_USE, NO_BRLTTY, NO_DISPLAY, NOT_ALLOWED, BrailleSeat
from companion.session.outputs import InputTaken

from .display import BRLTTY, Brltty, Display, free_host, until
from .harness import BrailleTable


def inputs(t: BrailleTable) -> list[InputTaken]:
    taken: list[InputTaken] = []
    t.loop.on_outputs = lambda batch: taken.extend(o for o in batch if isinstance(o, InputTaken))
    return taken


def test_small_display_keys_typed_text_and_chords(brltty: Brltty) -> None:
    """14 cells: no status group (the « état » key says it); typed text is a braille line."""
    t = BrailleTable("kikoi", ["Anne", "Bruno"], 0, Display(brltty, 14), bots=1, seed=4)
    try:
        t.book.claim(1, "terminal")
        taken = inputs(t)
        t.start()
        assert t.status == 0 and len(t.display.shown) == 14
        assert "Plage" in t.read()  # the first line, 14 cells at a time
        t.key("Info")  # brltty's status command: « état »
        t.key("Home")  # brltty's « back to the cursor »: « répète »
        t.type("mon plateau")
        said = [(i.source, i.seat, i.text) for i in taken]
        assert said == [("braille", 0, "état"), ("braille", 0, "répète"), ("braille", 0, "mon plateau")], said
        assert taken[2].outcome == "answer"
        # the answers wait, in order, behind what was not read yet
        assert t.read_all() in ("alert", "done")
        read = " ".join(" ".join(t.reads).split())
        assert "Tes 4 jetons" in read or "Ton plateau" in read
    finally:
        t.close()


def test_english_contracted_seat(brltty: Brltty) -> None:
    t = BrailleTable("kikoi", ["Anne", "Bruno"], 0, Display(brltty, 40), bots=1, seed=4, lang="en", contracted=True)
    try:
        t.book.claim(1, "terminal")
        t.start()
        assert t.read().replace("\u2019", "'") == "Anne's braille display is connected."
        assert t.seat.view.contracted and t.seat.view.lang == "en"
        # grade 2: "braille" and "connected" are shorter than their letters
        assert len(t.text_cells().rstrip(b"\x00")) < len("Anne's braille display is connected.")
    finally:
        t.close()


def test_unplugged_and_back_said_once_and_no_secret_meanwhile(brltty: Brltty) -> None:
    t = BrailleTable("kikoi", ["Anne", "Bruno"], 0, Display(brltty, 40), bots=1, seed=4)
    try:
        t.book.claim(1, "terminal")
        t.start()
        channel = t.book.claimed(0).channel
        brltty.stop()  # brltty gone: the display with it
        until(lambda: (t.pump(), any("débranchée" in p for p in t.printed))[1], 15, "the display's loss said")
        assert sum("Plage braille de Anne débranchée" in p for p in t.printed) == 1
        assert channel not in t.session.table.channels.get(0, [])  # her secrets stay off it
        n = len(channel.since(0))
        t.post(0, "mon plateau")  # typed at the table: her board is not said aloud to two humans
        assert len(channel.since(0)) == n
        brltty.start()  # plugged in again: the same brltty host and key
        t.display = Display(brltty, 40)
        until(lambda: (t.pump(), any("rebranchée" in p for p in t.printed))[1], 20, "the display's return said")
        assert sum("rebranchée" in p for p in t.printed) == 1
        assert sum("débranchée" in p for p in t.printed) == 1
        t.settle()
        assert channel in t.session.table.channels[0]
        assert any(h.private for h in channel.since(n))  # back: what she holds, told to her again
    finally:
        t.close()


def test_no_brltty_no_display_wrong_key_each_one_sentence(brltty: Brltty, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    host, _ = free_host()
    assert BrailleSeat(0, "fr", print, host=host, auth=f"keyfile:{brltty.key}").open() == NO_BRLTTY
    wrong = tmp_path / "wrong.key"
    wrong.write_text("not the key")
    assert BrailleSeat(0, "fr", print, auth=f"keyfile:{wrong}").open() == NOT_ALLOWED
    # brltty running without a display
    folder = tmp_path / "none"
    folder.mkdir()
    nohost, _ = free_host()
    proc = subprocess.Popen([BRLTTY, "-n", "-q", "-e", "-b", "no", "-s", "no", "-x", "no",
                             "-A", f"auth=keyfile:{brltty.key},host={nohost}", "-W", str(folder)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def opened() -> tuple[str | None] | None:  # NO_BRLTTY until brltty's API is up
            problem = BrailleSeat(0, "fr", print, host=nohost, auth=f"keyfile:{brltty.key}").open()
            return None if problem == NO_BRLTTY else (problem,)

        (problem,) = until(opened, 60, "brltty's API up")
        assert problem == NO_DISPLAY
    finally:
        proc.kill()
        proc.wait(10)
    assert IN_USE  # said when BrlAPI reports the TTY or device busy (a screen reader holding it)


def test_a_seat_without_its_display_and_the_game_goes_on(brltty: Brltty, monkeypatch: pytest.MonkeyPatch) -> None:
    """A display that cannot be taken is one sentence at the table; the game starts anyway."""
    host, _ = free_host()
    monkeypatch.setenv("BRLAPI_HOST", host)
    from companion.inputs.braille.play import start_seats
    from companion.inputs.web.seats import SeatBook
    from companion.session.inbox import Inbox

    inbox = Inbox()
    book = SeatBook(["Anne", "Bruno"], inbox, [0, 1])
    told: list[tuple[str, dict[str, object]]] = []
    assert start_seats([(0, False)], book, None, inbox, ["fr", "fr"], lambda m, **p: told.append((m, p))) == []
    assert [m for m, _ in told] == [NO_BRLTTY] and getattr(told[0][1]["player"], "text", None) == "Anne"
    assert book.claimed(0) is None  # the seat stays free for a phone or a terminal
    assert os.environ["BRLAPI_HOST"] == host


def test_a_display_wider_than_80_cells_uses_80(brltty: Brltty) -> None:
    t = BrailleTable("kissa", ["Anne"], 0, Display(brltty, 88), bots=1, seed=3)
    try:
        t.start()
        assert len(t.display.shown) == 88 and t.seat.view.width == 80
        assert not any(t.display.shown[80:])
        assert t.read().startswith("Plage braille connectée pour Anne.")
    finally:
        t.close()
