"""A token reader in software, on a pseudo-terminal: `companion reader emulate`.

It speaks protocol version 1 exactly as the firmware does (HELLO at boot, debouncing, PLACED
then PRESENCE at once, a heartbeat PRESENCE, ACKs), and takes commands on standard input:

    place SLOT TEXT|UID [TEXT]   a token on SLOT (a UID of 8, 14 or 20 hex digits, or a text)
    remove SLOT                  takes it away
    button [N] [long]            a press of button N (0)
    noise N                      N random bytes on the line
    flip                         one bit of the next frame flipped
    unplug / replug              the USB cable (the board loses power: replug boots it)
    reset                        the board restarts, the port stays
    mute / unmute                the board hangs (sends nothing, answers nothing) / recovers
    quit

The first line printed is the port's path (a symbolic link that stays the same across
unplug/replug, as /dev/serial/by-id/... does); then "ok COMMAND" after each command.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import selectors
import shutil
import sys
import tempfile
import termios
import time
import tty
from dataclasses import dataclass, field

from companion import protocol as p

MAX_TEXT = 51  # what a PLACED with a 10-byte UID can carry


def uid_for(text: str) -> bytes:
    """A stable 7-byte UID (NXP's 0x04 first) for a token known by its text."""
    return b"\x04" + hashlib.sha256(text.encode()).digest()[:6]


@dataclass
class _Slot:
    uid: bytes = b""
    text: str = ""
    since: float = 0.0


@dataclass
class EmulatedBoard:
    """The board's behaviour, sans I/O: physical tags in, bytes out (see firmware device.c)."""

    reader_id: int = 0x52440001
    slots: int = 4
    debounce: float = 0.15   # seen this long before PLACED
    grace: float = 0.4       # missing this long before REMOVED
    heartbeat: float = 0.5
    tags: dict[int, tuple[bytes, str]] = field(default_factory=dict)  # what lies on the reader
    rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self.flip_next = False
        self.reported: dict[int, _Slot] = {}
        self._cand: dict[int, _Slot] = {}
        self._missing: dict[int, float] = {}
        self.crc_errors = 0
        self.booted_at = 0.0
        self._dec = p.Decoder()
        self._enc = p.Encoder()
        self._last_presence = 0.0

    # --- what happens on the board --------------------------------------------------------

    def boot(self, now: float) -> bytes:
        self.reported.clear()
        self._cand.clear()
        self._missing.clear()
        self._dec = p.Decoder()
        self._enc = p.Encoder()
        self.booted_at = self._last_presence = now
        self.flip_next = False
        return self.boot_hello()

    def place(self, slot: int, uid: bytes, text: str) -> None:
        self.tags[slot] = (uid, text)

    def remove(self, slot: int) -> None:
        self.tags.pop(slot, None)

    def button(self, n: int, long: bool) -> bytes:
        return self._send(p.Button(n, p.PRESS_LONG if long else p.PRESS_SHORT))

    def tick(self, now: float) -> bytes:
        """Debouncing and the heartbeat: what the board sends by itself by `now`."""
        out = b""
        changed = False
        for slot in range(self.slots):
            tag = self.tags.get(slot)
            rep = self.reported.get(slot)
            if tag and rep and rep.uid == tag[0]:
                self._missing.pop(slot, None)
                self._cand.pop(slot, None)
                continue
            if tag:
                cand = self._cand.get(slot)
                if cand is None or cand.uid != tag[0]:
                    self._cand[slot] = _Slot(tag[0], tag[1], now)
                elif now - cand.since >= self.debounce:
                    if rep:
                        out += self._send(p.Removed(slot, rep.uid))
                    self.reported[slot] = _Slot(tag[0], tag[1], now)
                    del self._cand[slot]
                    self._missing.pop(slot, None)
                    out += self._send(p.Placed(slot, tag[0], tag[1]))
                    changed = True
                continue
            self._cand.pop(slot, None)
            if rep:
                since = self._missing.setdefault(slot, now)
                if now - since >= self.grace:
                    out += self._send(p.Removed(slot, rep.uid))
                    del self.reported[slot]
                    del self._missing[slot]
                    changed = True
        if changed or now - self._last_presence >= self.heartbeat:
            out += self._presence(now)
        return out

    def receive(self, data: bytes, now: float) -> bytes:
        """The board's answers to what the host sent."""
        out = b""
        before = self._dec.stats.crc_errors
        for r in self._dec.feed(data):
            out += self._answer(r.seq, r.message, now)
        self.crc_errors += self._dec.stats.crc_errors - before
        return out

    # --- inside ---------------------------------------------------------------------------

    def _send(self, msg: p.Message) -> bytes:
        _seq, wire = self._enc.encode(msg)
        if self.flip_next:
            self.flip_next = False
            b = bytearray(wire)
            at = self.rng.randrange(len(b) - 1)
            b[at] ^= 1 << self.rng.randrange(8)
            wire = bytes(b)
        return wire

    def _presence(self, now: float) -> bytes:
        self._last_presence = now
        entries = [(s, r.uid) for s, r in sorted(self.reported.items())]
        return b"".join(self._send(part) for part in p.presence_parts(entries))

    def _answer(self, seq: int, msg: p.Message, now: float) -> bytes:
        if msg.frame(seq).type < 0x80:
            return b""
        if isinstance(msg, p.HelloReq):
            return self.boot_hello() + self._send(p.Ack(seq))
        if isinstance(msg, (p.Ping, p.Led, p.Beep)):
            return self._send(p.Ack(seq))
        if isinstance(msg, p.StatusReq):
            d = self._dec.stats
            return self._send(p.Status(int(now - self.booted_at), self.crc_errors,
                                       d.dropped, 0)) + self._send(p.Ack(seq))
        if isinstance(msg, p.SlotReq):
            rep = self.reported.get(msg.slot)
            if rep is None:
                return self._send(p.Ack(seq, p.ACK_NO_TAG))
            return self._send(p.Placed(msg.slot, rep.uid, rep.text)) + self._send(p.Ack(seq))
        if isinstance(msg, p.WriteTag):
            if len(msg.text.encode()) > MAX_TEXT:
                return self._send(p.Ack(seq, p.ACK_BAD_PAYLOAD))
            rep = self.reported.get(msg.slot)
            if rep is None:
                return self._send(p.Ack(seq, p.ACK_NO_TAG))
            rep.text = msg.text
            self.tags[msg.slot] = (rep.uid, msg.text)
            return self._send(p.Ack(seq))
        if isinstance(msg, p.Malformed):
            return self._send(p.Ack(seq, p.ACK_BAD_PAYLOAD))
        return self._send(p.Ack(seq, p.ACK_UNKNOWN_TYPE))

    def boot_hello(self) -> bytes:
        return self._send(p.Hello(p.PROTOCOL_VERSION, (1, 0, 0), self.reader_id,
                                  p.CAP_WRITE_TAGS | p.CAP_BUTTONS | p.CAP_LED | p.CAP_BUZZER, self.slots))


def parse_token(args: list[str]) -> tuple[bytes, str]:
    """`TEXT`, `UID` or `UID TEXT` of the place command."""
    first = args[0]
    if len(first) in (8, 14, 20) and all(c in "0123456789abcdefABCDEF" for c in first):
        return bytes.fromhex(first), " ".join(args[1:])
    text = " ".join(args)
    return uid_for(text), text


class PtyLine:
    """The emulator's end of a pseudo-terminal, with a stable symbolic link to the other end."""

    def __init__(self, link: str) -> None:
        self.link = link
        self.master: int | None = None
        self.slave: int | None = None
        self.muted = False

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # raw before anyone opens it: no echo, no line editing
        attrs = termios.tcgetattr(slave)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        os.set_blocking(master, False)
        self.master, self.slave = master, slave
        tmp = f"{self.link}.new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.link)

    def unplug(self) -> None:
        if os.path.lexists(self.link):
            os.unlink(self.link)
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None

    def write(self, data: bytes) -> None:
        if self.master is None or not data or self.muted:
            return
        try:
            os.write(self.master, data)
        except (BlockingIOError, OSError):
            pass  # the other end is not reading: the bytes are lost, as on a real line


def run(argv: list[str] | None = None, stdin=None, stdout=None) -> int:
    ap = argparse.ArgumentParser(prog="companion reader emulate",
                                 description="A token reader on a pseudo-terminal, driven by commands on standard input.")
    ap.add_argument("--link", default=None, help="path of the port's symbolic link (default: in a temporary folder)")
    ap.add_argument("--slots", type=int, default=4)
    ap.add_argument("--id", default="52440001", help="reader id, 8 hex digits")
    ap.add_argument("--debounce", type=float, default=0.15)
    ap.add_argument("--grace", type=float, default=0.4)
    ap.add_argument("--heartbeat", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    made = None if args.link else tempfile.mkdtemp(prefix="reader-")
    link = args.link or os.path.join(str(made), "ttyREADER")
    rng = random.Random(args.seed)
    board = EmulatedBoard(int(args.id, 16), args.slots, args.debounce, args.grace, args.heartbeat, rng=rng)
    line = PtyLine(link)
    line.plug()
    line.write(board.boot(time.monotonic()))
    print(link, file=stdout, flush=True)

    sel = selectors.DefaultSelector()
    sel.register(stdin, selectors.EVENT_READ, "stdin")
    if line.master is not None:
        sel.register(line.master, selectors.EVENT_READ, "line")
    pending = ""
    try:
        while True:
            for key, _ in sel.select(timeout=0.01):
                if key.data == "line":
                    try:
                        data = os.read(line.master, 4096) if line.master is not None else b""
                    except (BlockingIOError, OSError):
                        data = b""
                    line.write(board.receive(data, time.monotonic()))
                    continue
                chunk = os.read(stdin.fileno(), 4096).decode(errors="replace")
                if not chunk:
                    return 0
                pending += chunk
                while "\n" in pending:
                    cmd, pending = pending.split("\n", 1)
                    words = cmd.split()
                    if not words:
                        continue
                    if words[0] == "quit":
                        return 0
                    if words[0] in ("unplug", "replug") and line.master is not None:
                        sel.unregister(line.master)
                    reply = _command(words, board, line, rng)
                    if line.master is not None and words[0] in ("unplug", "replug"):
                        sel.register(line.master, selectors.EVENT_READ, "line")
                    print(reply, file=stdout, flush=True)
            if line.master is not None:
                line.write(board.tick(time.monotonic()))
    finally:
        line.unplug()
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


def _command(words: list[str], board: EmulatedBoard, line: PtyLine, rng: random.Random) -> str:
    now = time.monotonic()
    try:
        cmd = words[0]
        if cmd == "place" and len(words) >= 3:
            uid, text = parse_token(words[2:])
            board.place(int(words[1]), uid, text)
        elif cmd == "remove" and len(words) == 2:
            board.remove(int(words[1]))
        elif cmd == "button":
            line.write(board.button(int(words[1]) if len(words) > 1 else 0, "long" in words))
        elif cmd == "noise" and len(words) == 2:
            line.write(bytes(rng.randrange(256) for _ in range(int(words[1]))))
        elif cmd == "flip":
            board.flip_next = True
        elif cmd == "unplug":
            line.unplug()
        elif cmd == "replug":
            if line.master is None:
                line.plug()
                line.write(board.boot(now))
        elif cmd in ("mute", "unmute"):
            line.muted = cmd == "mute"
        elif cmd == "reset":
            line.write(board.boot(now))
        else:
            return f"error unknown command: {' '.join(words)}"
    except (ValueError, IndexError) as exc:
        return f"error {exc}"
    return "ok " + " ".join(words)
