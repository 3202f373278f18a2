"""Videos of a rules label seen by a camera, made here for the camera-scanning tests and the
benchmark: the label (rendered by `companion qr`) slides into a 640 x 480 picture of a wooden
table, comes closer, tilted in perspective, then holds still; optionally blurred, partly
covered (a thumb), noisy. Written with OpenCV as Motion-JPEG AVI, as a cheap webcam gives.
`Clip.full_from` is the first frame in which the whole code is in the picture."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

W, H = 640, 480
FPS = 15.0
TABLE = (70, 110, 150)  # BGR: a wooden table


@dataclass
class Clip:
    path: Path
    frames: int
    full_from: int  # first frame with the whole QR code inside the picture
    fps: float = FPS


def _label_image(label_png: Path) -> np.ndarray:
    import cv2

    img = cv2.imread(str(label_png), cv2.IMREAD_COLOR)
    assert img is not None, label_png
    return img


def _qr_box(label: np.ndarray) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the QR code's dark modules in the label image."""
    gray = label.mean(axis=2)
    h = gray.shape[0]
    # the code is the big square in the middle band of the label (title above, text below)
    band = gray[int(h * 0.15): int(h * 0.72)] < 128
    ys, xs = np.nonzero(band)
    return int(xs.min()), int(ys.min() + h * 0.15), int(xs.max()), int(ys.max() + h * 0.15)


def _warp(label: np.ndarray, center: tuple[float, float], width: float, tilt: float, turn: float) -> tuple:
    """The label warped into the frame: `width` pixels wide, its centre at `center`, leaning
    back by `tilt` (0..0.4: the top edge shorter, as a label seen at an angle) and turned by
    `turn` degrees. Returns (image, the 3x3 homography)."""
    import cv2

    lh, lw = label.shape[:2]
    height = width * lh / lw
    cx, cy = center
    top = width * (1 - tilt) / 2
    bottom = width / 2
    pts = np.array([[-top, -height / 2], [top, -height / 2], [bottom, height / 2], [-bottom, height / 2]])
    a = np.deg2rad(turn)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    dst = (pts @ rot.T + [cx, cy]).astype(np.float32)
    src = np.array([[0, 0], [lw, 0], [lw, lh], [0, lh]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    frame = np.empty((H, W, 3), np.uint8)
    frame[:] = TABLE
    cv2.warpPerspective(label, m, (W, H), dst=frame, borderMode=cv2.BORDER_TRANSPARENT)
    return frame, m


def make_clip(label_png: Path, out: Path, *, tilt: float = 0.15, turn: float = 8.0, blur: float = 0.0,
              cover: float = 0.0, noise: int = 6, still: int = 20, approach: int = 30, empty: int = 10,
              final_width: float = 300, start_width: float = 90, start_x: float = W * 1.15,
              seed: int = 7) -> Clip:
    """A clip: `empty` frames of table only, `approach` frames in which the label enters from
    `start_x` (from the right, by default) and goes from `start_width` to `final_width` pixels
    wide at the centre (far away first: a small label; or too near: a label bigger than the
    picture), then `still` frames held still.
    `blur`: Gaussian sigma in pixels; `cover`: the fraction of the code's width hidden by a
    skin-coloured thumb from its right edge (error correction H restores up to about 30 %)."""
    import cv2

    rng = random.Random(seed)
    label = _label_image(label_png)
    qx0, qy0, qx1, qy1 = _qr_box(label)
    corners = np.array([[qx0, qy0], [qx1, qy0], [qx1, qy1], [qx0, qy1]], dtype=np.float32).reshape(-1, 1, 2)
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (W, H))
    assert writer.isOpened(), "OpenCV cannot write Motion-JPEG"
    total = empty + approach + still
    full_from = -1
    for i in range(total):
        if i < empty:
            frame = np.empty((H, W, 3), np.uint8)
            frame[:] = TABLE
            inside = False
        else:
            k = min(1.0, (i - empty) / max(1, approach - 1))
            width = start_width + (final_width - start_width) * k
            center = (start_x - (start_x - W / 2) * k, H / 2 + 30 * (1 - k))
            frame, m = _warp(label, center, width, tilt, turn * k)
            q = cv2.perspectiveTransform(corners, m).reshape(-1, 2)
            inside = bool((q[:, 0] >= 2).all() and (q[:, 0] <= W - 3).all() and (q[:, 1] >= 2).all()
                          and (q[:, 1] <= H - 3).all())
            if cover > 0:  # a thumb over the right part of the code
                x1 = q[:, 0].max()
                x0 = x1 - cover * (q[:, 0].max() - q[:, 0].min())
                y0, y1 = q[:, 1].min() + 0.3 * (q[:, 1].max() - q[:, 1].min()), q[:, 1].max()
                cv2.ellipse(frame, (int((x0 + x1) / 2 + 15), int((y0 + y1) / 2)),
                            (int((x1 - x0) / 2 + 15), int((y1 - y0) / 2)), 0, 0, 360, (120, 160, 215), -1)
        if blur > 0:
            frame = cv2.GaussianBlur(frame, (0, 0), blur)
        if noise:
            n = np.random.default_rng(rng.randrange(1 << 30)).integers(-noise, noise + 1, frame.shape)
            frame = np.clip(frame.astype(np.int16) + n, 0, 255).astype(np.uint8)
        if inside and full_from < 0:
            full_from = i
        writer.write(frame)
    writer.release()
    return Clip(out, total, full_from)


def make_foreign_clip(out: Path, text: str = "https://example.org/menu", frames: int = 20) -> Clip:
    """A clip of a QR code that is not a companion rules code."""
    import cv2
    import qrcode

    img = qrcode.make(text, border=4).convert("RGB")
    arr = cv2.cvtColor(np.array(img), cv2.COLOR_RGB2BGR)
    arr = cv2.resize(arr, (260, 260), interpolation=cv2.INTER_NEAREST)
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (W, H))
    for _ in range(frames):
        frame = np.empty((H, W, 3), np.uint8)
        frame[:] = TABLE
        frame[110:370, 190:450] = arr
        writer.write(frame)
    writer.release()
    return Clip(out, frames, 0)
