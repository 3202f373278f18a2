"""Running `companion reader emulate` as a separate process, driven line by line."""

from __future__ import annotations

import subprocess
import sys


class Emulator:
    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "reader", "emulate", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdout is not None
        self.path = self.proc.stdout.readline().strip()
        assert self.path, "the emulator printed no path"

    def __call__(self, command: str) -> None:
        """One command, done by the board when this returns (the emulator answers « ok »)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline().strip()
        assert reply == "ok " + command, reply

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
