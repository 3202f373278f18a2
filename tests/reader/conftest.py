"""Shared helpers of the token reader's tests: the vectors, and skipping only off CI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "firmware-protocol" / "vectors"
FIRMWARE = ROOT / "firmware-protocol" / "firmware"


def load(name: str) -> list[dict]:
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))["vectors"]


FRAME_FILES = ("device_to_host.json", "host_to_device.json", "edge.json", "invalid.json")


def all_frame_vectors() -> list[dict]:
    return [v for f in FRAME_FILES for v in load(f)]


def missing(why: str) -> None:
    """A real part is missing: skip on a user's machine, fail under CI=true."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why} (CI=true: the set-up must provide it; run ./run setup)")
    pytest.skip(why)
