"""`companion rules --scan IMAGE`: read the QR code in a photo or scan of a label.

Decoders nobody here wrote: zxing-cpp (pip `zxing-cpp`) first, then `zbarimg -Sbinary`
(Debian `zbar-tools`, which returns the exact bytes). SVG labels are rendered with
`rsvg-convert` and PDF pages with `pdftoppm` first, when those programs are installed.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from .qrlabel import parse_rules_url, quiet_env

MAX_PIXELS = 40_000_000  # a 12-megapixel phone photo fits three times; 12000x12000 does not


class NoDecoder(RuntimeError):
    """Neither zxing-cpp nor zbarimg is installed."""


class Unreadable(RuntimeError):
    """The image cannot be opened."""


class TooLarge(Unreadable):
    """The image has more pixels than the budget: refused before it is decoded."""


def check_size(path: Path, budget: int = MAX_PIXELS) -> None:
    """Refuse an image of more than `budget` pixels from its header alone (PIL reads the size
    without decoding the pixels); an image PIL cannot identify is left to the decoders."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:
        return
    try:
        with Image.open(path) as img:
            width, height = img.size
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError):
        width, height = _header_size(path)
    if width * height > budget:
        raise TooLarge(f"{path}: {width} x {height} pixels, more than {budget // 1_000_000} million: "
                       "take a smaller photo of the label")


def _header_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG header when PIL refused the file (a decompression bomb)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(24)
    except OSError:
        return 0, 0
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
        return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    return 0, 0


def decoders() -> list[str]:
    out = []
    # without zxing-cpp, zbar alone: zxing-cpp only adds the partial-code guidance
    with contextlib.suppress(ImportError):
        import zxingcpp  # noqa: F401

        out.append("zxing-cpp")
    if shutil.which("zbarimg"):
        out.append("zbarimg")
    return out


def _raster(path: Path, tmp: Path) -> Path:
    """A PNG of `path` (rendered when it is an SVG or a PDF)."""
    suffix = path.suffix.lower()
    if suffix == ".svg" and shutil.which("rsvg-convert"):
        out = tmp / "page.png"
        subprocess.run(["rsvg-convert", "-d", "150", "-p", "150", "-b", "white", "-o", str(out), str(path)],
                       check=True, capture_output=True, timeout=60, env=quiet_env())
        return out
    if suffix == ".pdf" and shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(path), str(tmp / "page")],
                       check=True, capture_output=True, timeout=60, env=quiet_env())
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
            if img.width * img.height > MAX_PIXELS:
                return None
            results = zxingcpp.read_barcodes(img.convert("L"))
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError):
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
        check_size(raster)
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
