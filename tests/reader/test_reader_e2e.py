"""`companion reader listen` against `companion reader emulate`, two processes on a real
pseudo-terminal, through unplug, replug, reset, noise and bit flips."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time

from companion import protocol as p
from companion.inputs.reader.device import TokenReader
from companion.inputs.reader.emulator import uid_for
from companion.session.inbox import Device, Inbox
from tests.waiting import WAIT, until

from .emulator import Emulator


class Listener:
    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "reader", "listen", path, "--json"],
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[dict] = queue.Queue()
        self.events: list[dict] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))

    def wait_for(self, pred, timeout: float = WAIT) -> dict:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                e = self.lines.get(timeout=0.05)
            except queue.Empty:
                continue
            self.events.append(e)
            if pred(e):
                return e
        raise AssertionError(f"not seen in {timeout} s; events: {self.events}")

    def settle(self, quiet: float = 1.6) -> None:
        """Collect events until none came for `quiet` seconds."""
        while True:
            try:
                self.events.append(self.lines.get(timeout=quiet))
            except queue.Empty:
                return

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=5)


def acked(reader: TokenReader, seq: int) -> int:
    """The result code of the board's ACK of our frame `seq`, once it came."""
    until(lambda: seq in reader.acks, f"the ACK of frame {seq}")
    return reader.acks[seq]


def is_(kind, slot=None):
    return lambda e: e["event"] == kind and (slot is None or e["slot"] == slot)


def test_listen_reports_each_token_once_through_every_mishap():
    emu = Emulator("--seed", "5", "--slots", "6")
    lis = Listener(emu.path)
    try:
        hello = lis.wait_for(is_("hello"))
        assert hello["reader"] == "52440001" and hello["version"] == 1 and hello["slots"] == 6
        emu("place 0 kikoi:kigliss-sleep")
        e = lis.wait_for(is_("placed", 0))
        assert e == {"event": "placed", "reader": "52440001", "slot": 0,
                     "uid": uid_for("kikoi:kigliss-sleep").hex(), "text": "kikoi:kigliss-sleep"}
        emu("place 1 04a1b2c3d4e5f6")
        assert lis.wait_for(is_("placed", 1))["text"] is None
        # damage: noise between frames, then a flipped bit in the PLACED of slot 2
        emu("noise 200")
        emu("flip")
        emu("place 2 kikoi:kiboss-house")
        assert lis.wait_for(is_("placed", 2))["text"] == "kikoi:kiboss-house"
        emu("flip")
        emu("remove 0")
        lis.wait_for(is_("removed", 0))
        # unplugged: changes meanwhile are found after the replug
        emu("unplug")
        lis.wait_for(is_("lost"))
        emu("remove 1")
        emu("place 3 kikoi:kimouss-bike")
        emu("replug")
        lis.wait_for(is_("back"))
        lis.wait_for(is_("placed", 3))
        lis.wait_for(is_("removed", 1))
        # the board restarts: the tokens still there are not reported again
        emu("reset")
        lis.wait_for(lambda e: e["event"] == "hello" and len(lis.events) > 8)
        for _ in range(5):
            emu("noise 40")
            emu("flip")  # the board's next frame goes out damaged (the next placement, or a heartbeat)
        emu("place 4 kikoi:kiboucle-eat")
        emu("remove 2")
        lis.wait_for(is_("placed", 4))
        lis.wait_for(is_("removed", 2))
        emu("button 0 long")
        assert lis.wait_for(is_("button"))["long"] is True
        lis.settle()
    finally:
        emu.close()
        lis.close()
    tokens = [(e["event"], e["slot"], e["uid"]) for e in lis.events if e["event"] in ("placed", "removed")]
    u = uid_for
    assert sorted(tokens) == sorted([
        ("placed", 0, u("kikoi:kigliss-sleep").hex()), ("placed", 1, "04a1b2c3d4e5f6"),
        ("placed", 2, u("kikoi:kiboss-house").hex()), ("removed", 0, u("kikoi:kigliss-sleep").hex()),
        ("placed", 3, u("kikoi:kimouss-bike").hex()), ("removed", 1, "04a1b2c3d4e5f6"),
        ("placed", 4, u("kikoi:kiboucle-eat").hex()), ("removed", 2, u("kikoi:kiboss-house").hex()),
    ])


def test_token_reader_posts_to_the_inbox_and_writes_a_tag():
    emu = Emulator("--seed", "9")
    inbox = Inbox()
    reader = TokenReader.to_inbox(emu.path, inbox, source="reader:test").start()
    try:
        first = inbox.get(timeout=WAIT)
        assert isinstance(first, Device) and first.source == "reader:test"
        assert first.event.to_json()["event"] == "hello"
        emu("place 0 04a1b2c3")
        placed = inbox.get(timeout=WAIT)
        assert isinstance(placed, Device) and placed.event.to_json()["event"] == "placed"
        seq = reader.write_tag(0, "kikoi:kigliss-forest")
        assert acked(reader, seq) == p.ACK_OK
        seq = reader.write_tag(3, "nothing there")
        assert acked(reader, seq) == p.ACK_NO_TAG
        seq = reader.write_tag(0, "z" * 52)
        assert acked(reader, seq) == p.ACK_BAD_PAYLOAD
        emu("mute")  # the board hangs: lost after two silent seconds, back when it speaks
        lost = inbox.get(timeout=WAIT)
        assert isinstance(lost, Device) and lost.event.to_json()["event"] == "lost"
        assert lost.event.to_json()["why"] == "silent"
        emu("unmute")
        back = inbox.get(timeout=WAIT)
        assert isinstance(back, Device) and back.event.to_json()["event"] == "back"
        assert inbox.get(timeout=1.5) is None  # the token is still there: nothing else to say
    finally:
        reader.close()
        emu.close()


def test_reader_write_command_and_emulator_errors():
    emu = Emulator("--seed", "3")
    try:
        emu.proc.stdin.write("place nine x\n")
        emu.proc.stdin.flush()
        assert emu.proc.stdout.readline().startswith("error")
        emu.proc.stdin.write("dance\n")
        emu.proc.stdin.flush()
        assert emu.proc.stdout.readline().startswith("error unknown command")
        emu("place 0 kikoi:kigliss-sleep")
        # The token is on the reader (seen steadily, past the debounce) before it is written:
        # on a loaded machine a write sent at once could find no tag yet.
        r = subprocess.run([sys.executable, "-m", "companion.cli", "reader", "listen", emu.path, "--seconds", "2.5"],
                           capture_output=True, text=True, timeout=30)
        assert "placed slot 0: kikoi:kigliss-sleep [" in r.stdout, r.stdout
        r = subprocess.run([sys.executable, "-m", "companion.cli", "reader", "write", emu.path, "0", "kikoi:kigliss-eat"],
                           capture_output=True, text=True, timeout=30)
        assert (r.returncode, r.stdout.strip()) == (0, "ok")
        r = subprocess.run([sys.executable, "-m", "companion.cli", "reader", "listen", emu.path, "--seconds", "2.5"],
                           capture_output=True, text=True, timeout=30)
        assert "placed slot 0: kikoi:kigliss-eat [" in r.stdout, r.stdout
        assert r.stdout.startswith("reader 52440001: protocol 1, firmware 1.0.0, 4 slot(s)"), r.stdout
    finally:
        emu.close()
