"""Building the firmware for the tests (make, once per session) and running it in simavr."""

from __future__ import annotations

import shutil
import subprocess
import time

import serial

from companion import protocol as p

from .conftest import FIRMWARE, missing

BUILD = FIRMWARE / "build"
_built: dict[str, bool] = {}


def make(target: str) -> None:
    if _built.get(target):
        return
    need = {"host": ["gcc", "make"], "all": ["avr-gcc", "avr-objcopy", "avr-size", "make"],
            "sim": ["gcc", "avr-gcc", "make", "pkg-config"]}[target]
    absent = [t for t in need if shutil.which(t) is None]
    if absent:
        missing(f"{', '.join(absent)} not installed")
    if target == "sim" and subprocess.run(["pkg-config", "--exists", "simavr"]).returncode != 0:
        missing("libsimavr-dev not installed")
    r = subprocess.run(["make", "-C", str(FIRMWARE), target], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    _built[target] = True


class SimBoard:
    """The firmware running in readersim, its serial port open with pyserial."""

    def __init__(self, hexfile: str) -> None:
        self.proc = subprocess.Popen([str(BUILD / "readersim"), str(BUILD / hexfile)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().split()
        assert line and line[0] == "PTY", line
        self.path = line[1]
        self.port = serial.serial_for_url(self.path, baudrate=115200, timeout=0.05)
        self.dec = p.Decoder()
        self.enc = p.Encoder()
        self.got: list[p.Received] = []

    def command(self, line: str) -> str:
        """A command to the simulated MFRC522s (tag, untag, retag, text); its answer."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def send(self, msg: p.Message) -> int:
        seq, wire = self.enc.encode(msg)
        self.port.write(wire)
        return seq

    def wait_for(self, pred, timeout: float = 5.0) -> p.Received:
        """The first received message (kept or new) that `pred` accepts; consumes up to it."""
        end = time.monotonic() + timeout
        while True:
            for i, r in enumerate(self.got):
                if pred(r):
                    del self.got[: i + 1]
                    return r
            if time.monotonic() > end:
                raise AssertionError(f"nothing matched in {timeout} s; got {[r.message for r in self.got]}")
            self.got += self.dec.feed(self.port.read(256))

    def close(self) -> None:
        self.port.close()
        self.proc.terminate()
        self.proc.wait(timeout=5)
