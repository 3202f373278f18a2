"""`companion rules --scan camera [--camera PATH]`: the companion reads the box's rules label
through a camera itself, guiding a blind player by sound while it looks.

Frames come from OpenCV (`opencv-python-headless`): a V4L2 device (`/dev/video0` by default)
or a video file (the tests and the benchmark use files). Each frame goes to zxing-cpp, which
decodes QR codes and also reports a code it found but could not decode yet (its position);
measured on 640 x 480 frames it took 0.45 ms a frame against 5.6 ms for zbar (pyzbar), and
read blurred clips a few frames earlier (docs/rules-and-qr.md). Before any code is found,
the density of sharp edges in the picture tells that something code-like comes into view.

`Guide` turns what each frame shows into cues, from the frame's own time (never a clock of
its own, so a video file gives the same cues at any speed): a soft tick whose rate rises as a
code comes into view (once a second), is partly found (twice) and nearly readable (four
times), « plus près » / « plus loin » when the code is too small or too big / cut by the
picture's edge, and, for a rules code, the success earcon and which game and language it is.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .qrlabel import parse_rules_url

DEFAULT_CAMERA = "/dev/video0"
V4L2_MAJOR = 81  # Linux's major device number for video4linux
TIMEOUT = 60.0  # seconds of looking before giving up (video time)


class CameraError(RuntimeError):
    """The camera cannot give pictures; `msg_id` is the sentence that says why."""

    def __init__(self, msg_id: str, path: str, reason: str = "") -> None:
        super().__init__(reason or msg_id)
        self.msg_id, self.path, self.reason = msg_id, path, reason


@dataclass
class Observation:
    """What one frame shows: decoded texts, a code found but not decoded (`partial`), the
    code's box as fractions of the picture (x0, y0, x1, y1), and how code-like it looks."""

    texts: list[str] = field(default_factory=list)
    partial: bool = False
    box: tuple[float, float, float, float] | None = None
    presence: float = 0.0  # 0: a plain table; 1: edges as dense as a code's


# --------------------------------------------------------------------------- looking at a frame
EDGE_DENSITY_CODE = 0.18  # share of edge pixels in a cell of a code seen whole (measured ~0.2-0.3)


def observe(gray) -> Observation:  # gray: numpy uint8 array (height, width)
    """Decode and locate QR codes in one greyscale frame (zxing-cpp)."""
    import zxingcpp

    h, w = gray.shape[:2]
    results = zxingcpp.read_barcodes(gray, formats=zxingcpp.BarcodeFormat.QRCode,  # type: ignore[arg-type]
                                     return_errors=True)
    obs = Observation()
    for r in results:
        p = r.position
        xs = [p.top_left.x, p.top_right.x, p.bottom_right.x, p.bottom_left.x]
        ys = [p.top_left.y, p.top_right.y, p.bottom_right.y, p.bottom_left.y]
        box = (max(0.0, min(xs) / w), max(0.0, min(ys) / h), min(1.0, max(xs) / w), min(1.0, max(ys) / h))
        if r.valid and r.text:
            obs.texts.append(r.text)
            obs.box = box
        elif obs.box is None:
            obs.partial, obs.box = True, box
    if obs.box is None:
        obs.box, obs.presence = _code_like_region(gray)
    else:
        obs.presence = 1.0
    return obs


def _code_like_region(gray) -> tuple[tuple[float, float, float, float] | None, float]:
    """Where the picture is as dense in sharp edges as a QR code is (OpenCV's Canny on a
    quarter-size picture, in a 16 x 12 grid): the box of those cells and how dense they are."""
    import cv2
    import numpy as np

    small = cv2.resize(gray, (160, 120), interpolation=cv2.INTER_AREA)
    edges = cv2.Canny(small, 60, 160)
    cells = edges.reshape(12, 10, 16, 10).mean(axis=(1, 3)) / 255.0  # 12 rows x 16 columns
    dense = cells >= EDGE_DENSITY_CODE
    if not dense.any():
        return None, float(min(1.0, cells.max() / EDGE_DENSITY_CODE))
    ys, xs = np.nonzero(dense)
    box = (xs.min() / 16, ys.min() / 12, (xs.max() + 1) / 16, (ys.max() + 1) / 12)
    return box, float(min(1.0, cells[dense].mean() / EDGE_DENSITY_CODE))


# --------------------------------------------------------------------------- the guidance
# Tick intervals in seconds, from nothing in view to a code nearly readable.
TICK_NONE, TICK_SOME, TICK_PARTIAL, TICK_NEAR = 1.0, 0.5, 0.25, 0.125
CLOSER_BELOW = 0.22     # the code narrower than this share of the picture: « plus près »
FARTHER_ABOVE = 0.85    # taller or wider than this share, or cut by 2 edges: « plus loin »
HINT_FRAMES = 3         # the same hint must hold this many frames in a row
HINT_EVERY = 3.0        # seconds between two spoken hints


@dataclass
class Cue:
    kind: str  # "tick", "say" (msg_id), "foreign" (text), "found" (game, lang)
    msg_id: str = ""
    text: str = ""
    game: str = ""
    lang: str = ""


class Guide:
    """Pure: `step(observation, t)` gives the cues of one frame at video time `t` seconds."""

    def __init__(self) -> None:
        self.next_tick = 0.0
        self.last_hint_at = -HINT_EVERY
        self.hint_run: tuple[str, int] = ("", 0)
        self.foreign: set[str] = set()

    @staticmethod
    def interval(obs: Observation) -> float:
        if obs.partial and obs.box and (obs.box[2] - obs.box[0]) >= CLOSER_BELOW:
            return TICK_NEAR
        if obs.partial:
            return TICK_PARTIAL
        if obs.box is not None:
            return TICK_SOME
        return TICK_NONE

    @staticmethod
    def hint(obs: Observation) -> str:
        if obs.box is None or obs.presence < 0.5:
            return ""
        x0, y0, x1, y1 = obs.box
        cut = sum((x0 <= 0.01, y0 <= 0.01, x1 >= 0.99, y1 >= 0.99))
        if (x1 - x0) > FARTHER_ABOVE or (y1 - y0) > FARTHER_ABOVE or cut >= 2:
            return "rules.camera_farther"
        if (x1 - x0) < CLOSER_BELOW and (y1 - y0) < CLOSER_BELOW * 4 / 3:
            return "rules.camera_closer"
        return ""

    def step(self, obs: Observation, t: float) -> list[Cue]:
        cues: list[Cue] = []
        for text in obs.texts:
            hit = parse_rules_url(text)
            if hit is not None:
                return [Cue("found", game=hit[0], lang=hit[1])]
            if text not in self.foreign:  # said once each, then still looking
                self.foreign.add(text)
                cues.append(Cue("foreign", text=text))
        hint = self.hint(obs)
        name, run = self.hint_run
        self.hint_run = (hint, run + 1 if hint == name else 1)
        if hint and self.hint_run[1] >= HINT_FRAMES and t - self.last_hint_at >= HINT_EVERY:
            self.last_hint_at = t
            cues.append(Cue("say", msg_id=hint))
        if t >= self.next_tick:
            cues.append(Cue("tick"))
            self.next_tick = t + self.interval(obs)
        else:  # a code coming nearer brings the next tick forward at once
            self.next_tick = min(self.next_tick, t + self.interval(obs))
        return cues


# --------------------------------------------------------------------------- frames
def holders(path: str) -> list[int]:
    """The other processes that have `path` open (from /proc: what `fuser` does)."""
    try:
        target = os.stat(path)
    except OSError:
        return []
    out = []
    me = os.getpid()
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == me:
            continue
        fd_dir = f"/proc/{pid}/fd"
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            try:
                st = os.stat(f"{fd_dir}/{fd}")
            except OSError:
                continue
            if (st.st_dev, st.st_ino, st.st_rdev) == (target.st_dev, target.st_ino, target.st_rdev):
                out.append(int(pid))
                break
    return out


@dataclass
class Frames:
    """Greyscale frames with their time in seconds (a file's own timestamps; a device's clock)."""

    capture: Any  # cv2.VideoCapture
    path: str
    live: bool
    fps: float

    def __iter__(self) -> Iterator[tuple[float, object]]:
        import cv2

        start = time.monotonic()
        index = 0
        while True:
            ok, frame = self.capture.read()
            if not ok or frame is None:
                return
            t = time.monotonic() - start if self.live else index / self.fps
            index += 1
            yield t, cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame

    def close(self) -> None:
        self.capture.release()


def open_frames(path: str | None = None) -> Frames:
    """The default camera, a V4L2 device or a video file; CameraError with one sentence each
    for no camera, a camera in use, or something that gives no picture."""
    try:
        import cv2
        import zxingcpp  # noqa: F401 - the decoder, checked before the camera is opened
    except ImportError as exc:
        raise CameraError("rules.camera_no_opencv", path or DEFAULT_CAMERA) from exc
    path = str(path or DEFAULT_CAMERA)
    try:
        st = os.stat(path)
    except OSError as exc:
        raise CameraError("rules.camera_none", path) from exc
    live = stat.S_ISCHR(st.st_mode)
    if live and os.major(st.st_rdev) != V4L2_MAJOR:
        raise CameraError("rules.camera_unreadable", path, "this device is not a camera (video4linux)")
    if not live and not stat.S_ISREG(st.st_mode):
        raise CameraError("rules.camera_unreadable", path, "not a camera nor a video file")
    cv2.setLogLevel(0) if hasattr(cv2, "setLogLevel") else None  # OpenCV's own warnings: we say it
    cap = cv2.VideoCapture(path, cv2.CAP_V4L2 if live else cv2.CAP_ANY)
    ok = cap.isOpened()
    first = cap.read() if ok else (False, None)
    if not ok or not first[0]:
        cap.release()
        if live and holders(path):
            raise CameraError("rules.camera_busy", path)
        reason = "the camera gives no picture" if live else "not a video the companion can read"
        raise CameraError("rules.camera_unreadable", path, reason)
    # give the first frame back: reopen a file (cheap), keep a device's stream going
    if not live:
        cap.release()
        cap = cv2.VideoCapture(path, cv2.CAP_ANY)
    fps = cap.get(cv2.CAP_PROP_FPS) or 15.0
    return Frames(cap, path, live, fps if 1 <= fps <= 240 else 15.0)


# --------------------------------------------------------------------------- the scan
@dataclass
class ScanResult:
    game: str | None = None
    lang: str | None = None
    frames: int = 0
    found_at: float | None = None  # the video time of the frame that was read
    heard: list[str] = field(default_factory=list)  # cues given, in order (ticks, hints, found)


def scan_camera(frames: Frames, *, tell: Callable[[str, dict], None], earcon: Callable[[str], None],
                timeout: float = TIMEOUT, pace: bool = False,
                on_frame: Callable[[int, float], None] | None = None) -> ScanResult:
    """Look at the frames until a companion rules code is read (or the frames end or `timeout`
    seconds of video pass), giving the guidance by `earcon(name)` and `tell(msg_id, params)`.
    `pace`: wait for each file frame's time (so a video is heard at its real speed)."""
    guide = Guide()
    result = ScanResult()
    tell("rules.camera_looking", {})
    start = time.monotonic()
    for t, gray in frames:
        result.frames += 1
        if pace and not frames.live:  # a file's frame is "taken" at its own time
            delay = t - (time.monotonic() - start)
            if delay > 0:
                time.sleep(delay)
        if on_frame is not None:
            on_frame(result.frames - 1, t)
        for cue in guide.step(observe(gray), t):
            if cue.kind == "found":
                result.game, result.lang, result.found_at = cue.game, cue.lang, t
                result.heard.append("found")
                earcon("found")
                return result
            if cue.kind == "tick":
                result.heard.append("tick")
                earcon("seek")
            elif cue.kind == "say":
                result.heard.append(cue.msg_id)
                tell(cue.msg_id, {})
            elif cue.kind == "foreign":
                result.heard.append("foreign")
                tell("rules.camera_foreign", {"text": cue.text[:300]})
        if t >= timeout:
            break
    tell("rules.camera_not_found", {})
    return result


__all__ = ["CameraError", "Cue", "Frames", "Guide", "Observation", "ScanResult", "holders", "observe",
           "open_frames", "scan_camera"]
