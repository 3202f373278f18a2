"""A rules build killed mid-write (`companion serve` stopped while it builds: its child is
killed at once) leaves no half-written file behind (issue 25, point 8)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from companion.audiorules import build

CHILD = r"""
import sys
from pathlib import Path
from companion.audiorules.build import _write_whole
folder = Path(sys.argv[1])
data = bytes(range(256)) * (1 << 14)  # 4 MiB: each write takes a while
print("writing", flush=True)
n = 0
while True:
    _write_whole(folder / f"chapter-{n % 3}.ogg", data)
    n += 1
"""


def test_a_build_killed_mid_write_leaves_no_half_written_file(tmp_path: Path) -> None:
    data = bytes(range(256)) * (1 << 14)
    for _ in range(5):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path)], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdout.readline() == "writing\n"  # it is writing now
        child.send_signal(signal.SIGKILL)
        child.wait(30)
        for path in tmp_path.iterdir():
            # every name there is a whole file: the chapters, or (killed between naming it and
            # its rename, a few microseconds) one whole temporary file, swept by the next build
            assert path.read_bytes() == data, path.name
        assert len([p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]) <= 1
    build._sweep(tmp_path)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_whole_file_replaces_the_old_one(tmp_path: Path) -> None:
    target = tmp_path / "one.ogg"
    target.write_bytes(b"old")
    build._write_whole(target, b"new audio")
    assert target.read_bytes() == b"new audio"
    assert [p.name for p in tmp_path.iterdir()] == ["one.ogg"]
