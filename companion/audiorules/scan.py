"""`companion rules --scan IMAGE`: read the QR code in a photo or scan of a label.

Decoders nobody here wrote: zxing-cpp (pip `zxing-cpp`) first, then `zbarimg -Sbinary`
(Debian `zbar-tools`, which returns the exact bytes). SVG labels are rendered with
`rsvg-convert` and PDF pages with `pdftoppm` first, when those programs are installed.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from .qrlabel import parse_rules_url


class NoDecoder(RuntimeError):
    """Neither zxing-cpp nor zbarimg is installed."""


class Unreadable(RuntimeError):
    """The image cannot be opened."""


def decoders() -> list[str]:
    out = []
    try:
        import zxingcpp  # noqa: F401

        out.append("zxing-cpp")
    except ImportError:
        pass
    if shutil.which("zbarimg"):
        out.append("zbarimg")
    return out


def _raster(path: Path, tmp: Path) -> Path:
    """A PNG of `path` (rendered when it is an SVG or a PDF)."""
    suffix = path.suffix.lower()
    if suffix == ".svg" and shutil.which("rsvg-convert"):
        out = tmp / "page.png"
        subprocess.run(["rsvg-convert", "-d", "150", "-p", "150", "-b", "white", "-o", str(out), str(path)],
                       check=True, capture_output=True, timeout=60)
        return out
    if suffix == ".pdf" and shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(path), str(tmp / "page")],
                       check=True, capture_output=True, timeout=60)
        return tmp / "page.png"
    return path


def _zxing(path: Path) -> list[str] | None:
    try:
        import zxingcpp
        from PIL import Image, UnidentifiedImageError
    except ImportError:
        return None
    try:
        with Image.open(path) as img:
            results = zxingcpp.read_barcodes(img.convert("L"))
    except (OSError, UnidentifiedImageError):
        return None
    return [r.text for r in results if r.text]


def _zbar(path: Path) -> list[str] | None:
    exe = shutil.which("zbarimg")
    if exe is None:
        return None
    proc = subprocess.run([exe, "--raw", "-q", "-Sbinary", "--", str(path)],
                          capture_output=True, timeout=60)
    if proc.returncode not in (0, 4):  # 4: no symbol found
        return None
    text = proc.stdout.decode("utf-8", errors="replace")
    return [text] if text else []


def decode(path: Path) -> list[str]:
    """The texts of every QR code found in the image (empty when none was found)."""
    if not path.is_file():
        raise Unreadable(f"{path}: no such file")
    if not decoders():
        raise NoDecoder("install zxing-cpp or zbar-tools")
    with tempfile.TemporaryDirectory(prefix="companion-scan-") as tmp:
        try:
            raster = _raster(path, Path(tmp))
        except (OSError, subprocess.SubprocessError) as exc:
            raise Unreadable(f"{path}: {exc}") from exc
        opened = False
        for fn in (_zxing, _zbar):
            found = fn(raster)
            if found is None:
                continue
            opened = True
            if found:
                return found
        if not opened:
            raise Unreadable(f"{path}: not an image the decoders can open")
    return []


def find_rules(texts: list[str]) -> tuple[str, str] | None:
    """The first (game, lang) address among decoded texts."""
    for text in texts:
        hit = parse_rules_url(text)
        if hit:
            return hit
    return None
