"""The printable rules label: a large QR code (error correction H, quiet zone of 4 modules)
that encodes the rules page's address, a large-print title, the address in print, and a
braille line, as SVG (with role="img", <title> and <desc>), PNG or PDF.

PNG and PDF are rendered from the SVG with `rsvg-convert` (Debian `librsvg2-bin`) when it is
installed, otherwise drawn with Pillow (same layout; the PDF is then a raster page).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from html import escape as _html_escape
from pathlib import Path
from urllib.parse import urlsplit

from . import DEFAULT_BASE_URL, GAMES, LANGS
from .braille import to_braille


def escape(text: str) -> str:
    """&, < and > as SVG text needs them (what xml.sax.saxutils.escape does; that module
    imports urllib.request and so ssl: 5-8 MB of every game's memory, for three characters)."""
    return _html_escape(text, quote=False)


# Label geometry, in millimetres.
WIDTH_MM = 100.0
HEIGHT_MM = 150.0
MARGIN_MM = 6.0
QR_MM = 76.0  # the QR code with its quiet zone
QUIET_ZONE = 4  # modules
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
PNG_DPI = 300


def rules_url(game: str, lang: str, base_url: str = DEFAULT_BASE_URL) -> str:
    """The address of a game's rules page: `<base-url>/<game>/<lang>/`."""
    if game not in GAMES or lang not in LANGS:
        raise ValueError(f"unknown game or language: {game}/{lang}")
    return f"{base_url.rstrip('/')}/{game}/{lang}/"


def is_local_only(base_url: str) -> bool:
    """Whether an address names the machine that opens it (localhost, 127.x, ::1): a phone
    that scans such a label opens itself, and nothing plays."""
    host = (urlsplit(base_url).hostname or "").lower()
    return host in ("localhost", "::1") or host.endswith(".localhost") or host.startswith("127.")


_URL_PATH = re.compile(r"^(?:/[^/?#]*)*?/(?P<game>[a-z]+)/(?P<lang>[a-z]{2})/?(?:index\.html)?$")


def parse_rules_url(text: str) -> tuple[str, str] | None:
    """(game, lang) when `text` is a rules address of any host, else None."""
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    m = _URL_PATH.match(parts.path)
    if not m or m["game"] not in GAMES or m["lang"] not in LANGS:
        return None
    return m["game"], m["lang"]


def qr_matrix(data: str) -> list[list[bool]]:
    """The QR code of `data`, error correction H, with its quiet zone, as rows of modules."""
    import qrcode
    from qrcode.constants import ERROR_CORRECT_H

    qr = qrcode.QRCode(error_correction=ERROR_CORRECT_H, border=QUIET_ZONE, box_size=1)
    qr.add_data(data)
    qr.make(fit=True)
    return [list(map(bool, row)) for row in qr.get_matrix()]


@dataclass
class LabelText:
    lang: str
    game_title: str
    subtitle: str
    scan: str
    url: str
    braille: str | None
    braille_source: str
    braille_note: str
    title: str
    desc: str


def label_text(game: str, lang: str, base_url: str = DEFAULT_BASE_URL) -> LabelText:
    from companion.narration import Msg, catalog

    from .manifest import load

    cat = catalog(lang)
    game_title = load(game, lang).title
    url = rules_url(game, lang, base_url)
    source = cat.text(Msg("rules.label_braille_text", game=game_title))
    braille = to_braille(source, lang)
    note = cat.text(Msg("rules.label_braille_note" if braille else "rules.label_no_braille"))
    subtitle = cat.text(Msg("rules.label_subtitle"))
    title = cat.text(Msg("rules.label_title", game=game_title))
    desc = cat.text(
        Msg("rules.label_desc", game=game_title, url=url, braille=braille or "—", text=source)
    )
    return LabelText(lang, game_title, subtitle, cat.text(Msg("rules.label_scan")), url,
                     braille, source, note, title, desc)


def _fit(text: str, size: float, width: float, em: float = 0.6) -> float:
    """A font size no larger than `size` at which `text` fits `width` (estimated)."""
    est = max(len(text), 1) * size * em
    return size if est <= width else width / (max(len(text), 1) * em)


BRAILLE_MM = 5.0  # font size of the braille line (a cell is about as wide as the font size)


def braille_lines(braille: str, width_mm: float, size_mm: float = BRAILLE_MM) -> list[str]:
    """The braille text cut at braille blanks (U+2800) into lines that fit `width_mm`."""
    per_line = max(1, int(width_mm / size_mm))
    lines: list[str] = []
    for word in braille.split("\u2800"):
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += "\u2800" + word
        else:
            lines.append(word)
    return lines


def _qr_path(matrix: list[list[bool]]) -> str:
    """One SVG path of dark modules, one horizontal run per subpath."""
    parts = []
    for y, row in enumerate(matrix):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                parts.append(f"M{start} {y}h{x - start}v1h{start - x}z")
            else:
                x += 1
    return "".join(parts)


def label_svg(game: str, lang: str, base_url: str = DEFAULT_BASE_URL) -> str:
    t = label_text(game, lang, base_url)
    matrix = qr_matrix(t.url)
    n = len(matrix)
    module = QR_MM / n
    inner = WIDTH_MM - 2 * MARGIN_MM
    qr_x = (WIDTH_MM - QR_MM) / 2
    y_title = MARGIN_MM + 10
    y_sub = y_title + 8
    qr_y = y_sub + 3
    y_scan = qr_y + QR_MM + 5
    y_url = y_scan + 6
    y_braille = y_url + 9
    blines = braille_lines(t.braille, inner) if t.braille else []
    y_note = y_braille + 6 * max(len(blines), 1)
    title_size = _fit(t.game_title, 10.0, inner, 0.68)
    url_size = _fit(t.url, 4.2, inner)
    note_size = _fit(t.braille_note, 2.8, inner, 0.52) if t.braille else 0
    c = WIDTH_MM / 2
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{WIDTH_MM:g}mm" '
        f'height="{HEIGHT_MM:g}mm" viewBox="0 0 {WIDTH_MM:g} {HEIGHT_MM:g}" role="img" '
        f'aria-labelledby="label-title label-desc" xml:lang="{lang}" lang="{lang}">',
        f'<title id="label-title">{escape(t.title)}</title>',
        f'<desc id="label-desc">{escape(t.desc)}</desc>',
        f'<rect x="0" y="0" width="{WIDTH_MM:g}" height="{HEIGHT_MM:g}" fill="#fff"/>',
        f'<rect x="0.5" y="0.5" width="{WIDTH_MM - 1:g}" height="{HEIGHT_MM - 1:g}" fill="none" '
        'stroke="#000" stroke-width="0.3" stroke-dasharray="2 2" aria-hidden="true"/>',
        f'<g font-family="{FONT}" fill="#000" text-anchor="middle">',
        f'<text x="{c:g}" y="{y_title:.2f}" font-size="{title_size:.2f}" font-weight="bold">'
        f'{escape(t.game_title)}</text>',
        f'<text x="{c:g}" y="{y_sub:.2f}" font-size="6" font-weight="bold">{escape(t.subtitle)}</text>',
        f'<text x="{c:g}" y="{y_scan:.2f}" font-size="{_fit(t.scan, 4.2, inner):.2f}">{escape(t.scan)}</text>',
        f'<text x="{c:g}" y="{y_url:.2f}" font-size="{url_size:.2f}" font-weight="bold">{escape(t.url)}</text>',
    ]
    for i, bl in enumerate(blines):
        out.append(f'<text x="{c:g}" y="{y_braille + 6 * i:.2f}" font-size="{BRAILLE_MM:g}">{escape(bl)}</text>')
    if not t.braille:
        size = _fit(t.braille_note, 3.2, inner, 0.55)
        out.append(f'<text x="{c:g}" y="{y_braille:.2f}" font-size="{size:.2f}">{escape(t.braille_note)}</text>')
    else:
        out.append(f'<text x="{c:g}" y="{y_note:.2f}" font-size="{note_size:.2f}">{escape(t.braille_note)}</text>')
    out += [
        "</g>",
        f'<g aria-hidden="true" transform="translate({qr_x:.3f} {qr_y:.3f}) scale({module:.5f})">',
        f'<rect x="0" y="0" width="{n}" height="{n}" fill="#fff"/>',
        f'<path d="{_qr_path(matrix)}" fill="#000" shape-rendering="crispEdges"/>',
        "</g>",
        "</svg>",
        "",
    ]
    return "\n".join(out)


def quiet_env() -> dict[str, str]:
    """The environment of a renderer subprocess (rsvg-convert, pdftoppm): no session bus and no
    accessibility bridge, whose connection errors reached the table's screen (#29)."""
    env = dict(os.environ)
    env.update(DBUS_SESSION_BUS_ADDRESS="disabled:", NO_AT_BRIDGE="1", GTK_A11Y="none")
    env.pop("DBUS_SYSTEM_BUS_ADDRESS", None)
    return env


def write_label(game: str, lang: str, out: Path, base_url: str = DEFAULT_BASE_URL) -> Path:
    """Write the label to `out` (.svg, .png or .pdf); returns the path written."""
    fmt = out.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png", "pdf"):
        raise ValueError(f"unsupported label format {out.suffix!r} (use .svg, .png or .pdf)")
    out.parent.mkdir(parents=True, exist_ok=True)
    svg = label_svg(game, lang, base_url)
    if fmt == "svg":
        out.write_text(svg, encoding="utf-8")
        return out
    exe = shutil.which("rsvg-convert")
    if exe:
        args = [exe, "-f", fmt, "-o", str(out)]
        if fmt == "png":
            args[3:3] = ["-d", str(PNG_DPI), "-p", str(PNG_DPI), "-b", "white"]
        subprocess.run(args, input=svg.encode("utf-8"), check=True, capture_output=True, timeout=60, env=quiet_env())
        return out
    image = label_image(game, lang, base_url)
    if fmt == "png":
        image.save(out, format="PNG", dpi=(PNG_DPI, PNG_DPI))
    else:
        image.save(out, format="PDF", resolution=PNG_DPI)
    return out


BRF_WIDTH = 40  # cells per line of an embossed page


def write_brf(game: str, lang: str, out: Path) -> Path | None:
    """The label's braille line as a Braille ASCII file (.brf) for an embosser; None without
    liblouis. Lines of at most 40 cells, cut between words, CR LF line ends."""
    from .braille import to_brf

    brf = to_brf(label_text(game, lang).braille_source, lang)
    if brf is None:
        return None
    lines: list[str] = []
    for word in brf.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= BRF_WIDTH:
            lines[-1] += " " + word
        else:
            lines.append(word)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(("\r\n".join(lines) + "\r\n").encode("ascii"))
    return out


def label_image(game: str, lang: str, base_url: str = DEFAULT_BASE_URL):  # -> PIL.Image.Image
    """The label drawn with Pillow (used when rsvg-convert is absent)."""
    from PIL import Image, ImageDraw, ImageFont

    t = label_text(game, lang, base_url)
    px = PNG_DPI / 25.4
    img = Image.new("L", (round(WIDTH_MM * px), round(HEIGHT_MM * px)), 255)
    draw = ImageDraw.Draw(img)

    def font(size_mm: float, bold: bool = False):
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        for path in (name, f"/usr/share/fonts/truetype/dejavu/{name}"):
            try:
                return ImageFont.truetype(path, max(1, round(size_mm * px)))
            except OSError:
                continue
        return ImageFont.load_default()

    inner = (WIDTH_MM - 2 * MARGIN_MM) * px

    def line(text: str, y_mm: float, size_mm: float, bold: bool = False) -> None:
        f = font(size_mm, bold)
        while draw.textlength(text, font=f) > inner and size_mm > 1:
            size_mm *= 0.92
            f = font(size_mm, bold)
        draw.text((WIDTH_MM / 2 * px, y_mm * px), text, fill=0, font=f, anchor="ms")

    matrix = qr_matrix(t.url)
    n = len(matrix)
    y_title = MARGIN_MM + 10
    qr_y = y_title + 11
    line(t.game_title, y_title, 10, True)
    line(t.subtitle, y_title + 8, 6, True)
    size = int(QR_MM * px) // n
    x0 = round((img.width - size * n) / 2)
    y0 = round(qr_y * px)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                draw.rectangle([x0 + x * size, y0 + y * size, x0 + (x + 1) * size - 1, y0 + (y + 1) * size - 1], fill=0)
    y_scan = qr_y + QR_MM + 5
    line(t.scan, y_scan, 4.2)
    line(t.url, y_scan + 6, 4.2, True)
    if t.braille:
        blines = braille_lines(t.braille, WIDTH_MM - 2 * MARGIN_MM)
        for i, bl in enumerate(blines):
            line(bl, y_scan + 15 + 6 * i, BRAILLE_MM)
        line(t.braille_note, y_scan + 15 + 6 * len(blines), 2.8)
    else:
        line(t.braille_note, y_scan + 15, 3.2)
    return img
