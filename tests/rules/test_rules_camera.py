"""`companion rules --scan camera --camera VIDEO`: the same scanner and guidance a camera gets,
fed video files made here of a label coming into view (tilted, blurred, partly covered, too
far, too near), a code that is not a rules code, and each way a camera can fail."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.audiorules.camera import (
    TICK_NEAR,
    TICK_NONE,
    TICK_PARTIAL,
    TICK_SOME,
    Guide,
    Observation,
    holders,
    open_frames,
    scan_camera,
)
from companion.audiorules.qrlabel import write_label
from companion.cli.rules import rules_main

from .camera_video import W, make_clip, make_foreign_clip


class RecordingSpeaker:
    """Says everything at once, keeping what was said and which earcon came with it."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, str | None]] = []
        self.rate = 175

    def say(self, text, priority=None, earcon=None):
        self.heard.append((text, earcon))
        ev = threading.Event()
        ev.set()
        return type("Item", (), {"done": ev})()

    def interrupt(self) -> None:
        pass

    @property
    def said(self) -> list[str]:
        return [t for t, _ in self.heard if t]


@pytest.fixture(autouse=True)
def _english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("COMPANION_LANG", "en")


@pytest.fixture(scope="module")
def label(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A default label (the announced address) of Kaliko in English, as PNG."""
    d = tmp_path_factory.mktemp("camera")
    return write_label("kaliko", "en", d / "label.png", "http://companion.local:8765")


def run(clip: Path, *lines: str) -> tuple[int, list[str], RecordingSpeaker]:
    out: list[str] = []
    spk = RecordingSpeaker()
    feed = iter([*lines, "quit"])
    rc = rules_main(["--scan", "camera", "--camera", str(clip)], input_fn=lambda p: next(feed),
                    print_fn=out.append, speaker=spk)
    return rc, out, spk


CLIPS = {
    "tilted": {"tilt": 0.35, "turn": 25.0},
    "blurred": {"blur": 1.6},
    "covered": {"cover": 0.2},
    "slanted, blurred and covered": {"tilt": 0.25, "turn": -12.0, "blur": 1.0, "cover": 0.12},
}


@pytest.mark.parametrize("name", list(CLIPS))
def test_a_label_coming_into_view_starts_its_rules(label: Path, tmp_path: Path, name: str) -> None:
    clip = make_clip(label, tmp_path / "clip.avi", **CLIPS[name])
    rc, out, spk = run(clip.path)
    assert rc == 0
    assert out[0] == ("Looking for the rules code. Turn the label towards the camera: "
                      "the ticking quickens as the code comes near.")
    found = spk.heard.index(("Code read: the rules of Kaliko, in English.", "found"))
    # the guidance was heard before: at least two ticks while the label came into view
    assert [e for t, e in spk.heard[:found] if e == "seek"].__len__() >= 2
    assert out[1] == "Code read: the rules of Kaliko, in English."
    assert out[2] == "Rules of Kaliko, in 8 chapters."  # that chapter menu, started


def test_too_far_says_closer_and_too_near_says_farther(label: Path, tmp_path: Path) -> None:
    far = make_clip(label, tmp_path / "far.avi", start_width=50, start_x=W / 2, final_width=110, approach=45,
                    still=5, empty=2)
    rc, out, spk = run(far.path)
    assert rc == 0 and "Closer." in out and "Farther." not in out
    assert out.index("Closer.") < out.index("Code read: the rules of Kaliko, in English.")
    near = make_clip(label, tmp_path / "near.avi", start_width=1400, start_x=W / 2, final_width=300, approach=45,
                     still=5, empty=2)
    rc, out, spk = run(near.path)
    assert rc == 0 and "Farther." in out and "Closer." not in out
    assert out.index("Farther.") < out.index("Code read: the rules of Kaliko, in English.")


def test_the_ticking_quickens_as_a_code_comes_near() -> None:
    nothing = Observation()
    some = Observation(box=(0.4, 0.4, 0.6, 0.6), presence=0.8)
    partial_small = Observation(partial=True, box=(0.45, 0.45, 0.55, 0.55), presence=1.0)
    partial_near = Observation(partial=True, box=(0.3, 0.2, 0.7, 0.8), presence=1.0)
    assert [Guide.interval(o) for o in (nothing, some, partial_small, partial_near)] == [
        TICK_NONE, TICK_SOME, TICK_PARTIAL, TICK_NEAR]
    assert TICK_NONE > TICK_SOME > TICK_PARTIAL > TICK_NEAR
    g = Guide()
    ticks = [t / 100 for t in range(0, 400, 5) if any(c.kind == "tick" for c in g.step(
        nothing if t < 200 else partial_near, t / 100))]
    before = [t for t in ticks if t < 2.0]
    after = [t for t in ticks if t >= 2.0]
    assert len(before) == 2 and len(after) >= 12  # once a second, then eight times a second


def test_a_code_that_is_not_a_rules_code_is_said_once(tmp_path: Path) -> None:
    clip = make_foreign_clip(tmp_path / "menu.avi")
    rc, out, spk = run(clip.path)
    assert rc == 1
    assert out[1:] == ["This code is not a companion rules code; still looking. It holds: https://example.org/menu",
                       "I found no rules code. Try again with the label facing the camera, about twenty centimetres away."]


def test_no_camera(tmp_path: Path) -> None:
    rc, out, spk = run(tmp_path / "video9")
    assert rc == 1
    assert out == [f"No camera found ({tmp_path / 'video9'}): plug one in, or give its path with --camera."]
    assert spk.said == out


def test_not_a_camera_nor_a_video(tmp_path: Path) -> None:
    rc, out, _ = run(Path("/dev/null"))
    assert (rc, out) == (1, ["No picture comes from /dev/null: this device is not a camera (video4linux)"])
    text = tmp_path / "notes.avi"
    text.write_text("not a video", encoding="utf-8")
    rc, out, _ = run(text)
    assert (rc, out) == (1, [f"No picture comes from {text}: not a video the companion can read"])


def _v4l2_node(tmp_path: Path) -> Path:
    """A video4linux device node with no driver behind it (root only; CI runs as root)."""
    node = tmp_path / "video250"
    try:
        os.mknod(node, 0o600 | 0o020000, os.makedev(81, 250))
    except PermissionError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("making a device node needs root")
    return node


def test_a_camera_in_use_by_another_program(tmp_path: Path) -> None:
    node = _v4l2_node(tmp_path)
    rc, out, _ = run(node)  # nobody holds it, but no driver answers
    assert (rc, out) == (1, [f"No picture comes from {node}: the camera gives no picture"])
    # another program holds the device: the one sentence says so
    holder = subprocess.Popen([sys.executable, "-c", "import os, sys; fd = os.open(sys.argv[1], os.O_PATH); "
                               "print('held', flush=True); sys.stdin.read()", str(node)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert holders(str(node)) == [holder.pid]
        rc, out, _ = run(node)
        assert (rc, out) == (1, [f"The camera {node} is already used by another program: close it, then try again."])
    finally:
        holder.communicate("")


def test_read_the_code_in_the_player_switches_game(label: Path, tmp_path: Path) -> None:
    """« lis le code » / "read the code" in the spoken player: the camera reads another box."""
    clip = make_clip(label, tmp_path / "clip.avi")
    out: list[str] = []
    spk = RecordingSpeaker()
    feed = iter(["help", "read the code", "quit"])
    rc = rules_main(["kissa", "--lang", "en", "--camera", str(clip.path)], input_fn=lambda p: next(feed),
                    print_fn=out.append, speaker=spk)
    assert rc == 0
    assert out[0].startswith("Rules of ") and "Kaliko" not in out[0]
    assert "For another box: say “read the code” and turn its label towards the camera." in out
    assert out.index("Code read: the rules of Kaliko, in English.") < out.index("Rules of Kaliko, in 8 chapters.")


def test_the_scanner_reads_frames_by_their_own_time(label: Path, tmp_path: Path) -> None:
    """A file's frames are timed by the video (15 per second), so the guidance is the same
    whatever the machine's speed."""
    clip = make_clip(label, tmp_path / "clip.avi")
    frames = open_frames(str(clip.path))
    times: list[float] = []
    said: list[str] = []
    try:
        result = scan_camera(frames, tell=lambda m, p: said.append(m), earcon=lambda n: None,
                             on_frame=lambda i, t: times.append(t))
    finally:
        frames.close()
    assert result.game == "kaliko" and result.lang == "en"
    assert times[:3] == [0.0, 1 / 15, 2 / 15]
    assert result.found_at == times[-1] and result.heard[-1] == "found" and result.heard.count("tick") >= 2


def test_in_a_video_the_ticks_quicken_as_the_label_comes_near(label: Path, tmp_path: Path) -> None:
    """A slow approach from far away: ticks once a second over the bare table, then faster as
    the label comes into view and its code is partly found, then the success earcon."""
    clip = make_clip(label, tmp_path / "slow.avi", empty=30, approach=60, still=10, start_width=40,
                     start_x=W / 2, final_width=300, blur=0.8)
    frames = open_frames(str(clip.path))
    now: list[float] = []
    ticks: list[float] = []
    try:
        result = scan_camera(frames, tell=lambda m, p: None,
                             earcon=lambda n: ticks.append(now[-1]) if n == "seek" else None,
                             on_frame=lambda i, t: now.append(t))
    finally:
        frames.close()
    assert result.game == "kaliko"
    bare = [b - a for a, b in zip(ticks, ticks[1:], strict=False) if b <= 2.0]  # the table alone (30 frames)
    near = [b - a for a, b in zip(ticks, ticks[1:], strict=False) if a >= 2.0]
    assert bare and min(bare) >= 0.99
    assert near and max(near[-2:]) < min(bare) and min(near) <= 0.5 + 1 / 15  # (frames are 1/15 s apart)
