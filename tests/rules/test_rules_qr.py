"""The printable label: its QR code decodes, with decoders we did not write, to the page."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.audiorules import DEFAULT_BASE_URL, GAMES, LANGS, qrlabel
from companion.audiorules import braille as braille_mod
from companion.audiorules.qrlabel import (
    label_svg,
    parse_rules_url,
    qr_matrix,
    rules_url,
    write_label,
)
from companion.cli.rules import qr_main

SVG = "{http://www.w3.org/2000/svg}"
needs_zbar = pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg (zbar-tools) not installed")
needs_rsvg = pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="rsvg-convert (librsvg2-bin) not installed")


def zbar(path: Path) -> list[str]:
    """zbarimg -Sbinary: the exact bytes of each code, one code per call here."""
    proc = subprocess.run(["zbarimg", "--raw", "-q", "-Sbinary", str(path)], capture_output=True, timeout=60)
    return [proc.stdout.decode("utf-8")] if proc.returncode == 0 else []


def zxing(path: Path) -> list[str]:
    import zxingcpp
    from PIL import Image

    with Image.open(path) as img:
        return [r.text for r in zxingcpp.read_barcodes(img)]


def test_rules_address_shape_and_its_inverse() -> None:
    assert rules_url("kikoi", "fr") == "http://localhost:8765/kikoi/fr/"
    assert DEFAULT_BASE_URL == "http://localhost:8765"
    for game in GAMES:
        for lang in LANGS:
            for base in (DEFAULT_BASE_URL, "https://jeux.example.org/regles/", "http://192.168.1.20:8765"):
                assert parse_rules_url(rules_url(game, lang, base)) == (game, lang)
    assert parse_rules_url("https://host/kaliko/en") == ("kaliko", "en")
    assert parse_rules_url("https://host/kaliko/en/index.html") == ("kaliko", "en")
    for foreign in ("https://example.org/hello", "http://host/chess/fr/", "http://host/kikoi/de/",
                    "ftp://host/kikoi/fr/", "kikoi/fr", "WIFI:S:home;P:secret;;", "",
                    "http://host/kikoi/fr/goal.ogg", "javascript:alert(1)//kikoi/fr/"):
        assert parse_rules_url(foreign) is None, foreign
    with pytest.raises(ValueError):
        rules_url("chess", "fr")


def _format_ec_level(m: list[list[bool]], quiet: int) -> str:
    """Read the error-correction level from the QR format information (ISO 18004 §7.9)."""
    q = quiet
    bits = [m[q + 8][q + i] for i in (0, 1, 2, 3, 4, 5, 7)] + [m[q + 8][q + 8], m[q + 7][q + 8]]
    bits += [m[q + i][q + 8] for i in (5, 4, 3, 2, 1, 0)]
    value = int("".join("1" if b else "0" for b in bits), 2) ^ 0b101010000010010
    return {0b01: "L", 0b00: "M", 0b11: "Q", 0b10: "H"}[value >> 13]


def test_qr_has_high_error_correction_and_a_quiet_zone() -> None:
    m = qr_matrix(rules_url("goodfortune", "en"))
    q = qrlabel.QUIET_ZONE
    assert q >= 4
    n = len(m)
    assert all(len(row) == n for row in m)
    for i in range(q):
        assert not any(m[i]) and not any(m[n - 1 - i])
        assert not any(row[i] or row[n - 1 - i] for row in m)
    assert _format_ec_level(m, q) == "H"


def test_svg_label_is_accessible() -> None:
    svg = label_svg("kikoi", "fr")
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.get("role") == "img"
    ids = root.get("aria-labelledby", "").split()
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title is not None and desc is not None
    assert ids == [title.get("id"), desc.get("id")]
    assert title.text == "Les 5 KIKOI — règles audio"
    assert "http://localhost:8765/kikoi/fr/" in desc.text
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "Les 5 KIKOI" in texts and "http://localhost:8765/kikoi/fr/" in texts
    sizes = {("".join(t.itertext())): float(t.get("font-size")) for t in root.iter(f"{SVG}text")}
    assert sizes["Les 5 KIKOI"] >= 8  # large print: 8 mm and more
    hidden = [g for g in root.iter(f"{SVG}g") if g.get("aria-hidden") == "true"]
    assert hidden and hidden[0].find(f"{SVG}path") is not None


@pytest.mark.skipif(braille_mod.backend() is None, reason="liblouis not installed (optional)")
def test_braille_line_comes_from_liblouis() -> None:
    b = braille_mod.to_braille("Les 5 KIKOI : règles audio", "fr")
    assert b and all(0x2800 <= ord(c) <= 0x28FF for c in b)
    assert b.startswith("⠨⠇⠑⠎")  # capital sign, l, e, s in French computer braille
    root = ET.fromstring(label_svg("kikoi", "fr").encode("utf-8"))
    lines = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    braille_lines = [t for t in lines if t and all(0x2800 <= ord(c) <= 0x28FF for c in t)]
    assert "⠀".join(braille_lines) == b
    assert any("embosse" in t.lower() for t in lines)
    assert b in root.find(f"{SVG}desc").text
    en = braille_mod.to_braille("Les 5 KIKOI: audio rules", "en")
    assert en and en != b


def test_without_liblouis_the_label_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(qrlabel, "to_braille", lambda text, lang: None)
    root = ET.fromstring(label_svg("kissa", "en").encode("utf-8"))
    lines = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert any("liblouis is not installed" in t for t in lines)
    assert not any(0x2800 <= ord(c) <= 0x28FF for t in lines for c in t)


@needs_zbar
@needs_rsvg
@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf"])
def test_label_decodes_with_zbarimg(tmp_path: Path, suffix: str) -> None:
    url = rules_url("kikoi", "fr")
    out = write_label("kikoi", "fr", tmp_path / f"label{suffix}")
    target = out
    if suffix == ".pdf":
        assert out.read_bytes().startswith(b"%PDF")
        subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(out), str(tmp_path / "page")], check=True)
        target = tmp_path / "page.png"
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
        assert "Les 5 KIKOI" in text and url in text
    assert zbar(target) == [url]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_label_decodes_with_zxing_cpp(tmp_path: Path, game: str, lang: str) -> None:
    base = "http://192.168.1.20:8765" if lang == "en" else DEFAULT_BASE_URL
    out = write_label(game, lang, tmp_path / "label.png", base)
    assert zxing(out) == [rules_url(game, lang, base)]


def test_high_error_correction_survives_a_damaged_label(tmp_path: Path) -> None:
    from PIL import Image, ImageDraw

    url = rules_url("kaliko", "fr")
    out = write_label("kaliko", "fr", tmp_path / "label.png")
    with Image.open(out) as img:
        img = img.convert("L")
    m = len(qr_matrix(url))
    px = img.width / qrlabel.WIDTH_MM
    module = qrlabel.QR_MM / m * px
    x0 = (qrlabel.WIDTH_MM - qrlabel.QR_MM) / 2 * px
    y0 = (qrlabel.MARGIN_MM + 10 + 8 + 3) * px
    # A white stain over 40% x 20% of the code (8% of its area, middle), away from the finders.
    ImageDraw.Draw(img).rectangle([x0 + module * m * 0.3, y0 + module * m * 0.4,
                                   x0 + module * m * 0.7, y0 + module * m * 0.6], fill=255)
    img.save(tmp_path / "stained.png")
    assert zxing(tmp_path / "stained.png") == [url]


def test_pillow_draws_the_label_without_rsvg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_which = shutil.which
    monkeypatch.setattr(qrlabel.shutil, "which", lambda name: None if name == "rsvg-convert" else real_which(name))
    png = write_label("goodfortune", "fr", tmp_path / "label.png")
    pdf = write_label("goodfortune", "fr", tmp_path / "label.pdf")
    assert zxing(png) == [rules_url("goodfortune", "fr")]
    assert pdf.read_bytes().startswith(b"%PDF")


def test_unknown_label_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unsupported"):
        write_label("kikoi", "fr", tmp_path / "label.jpg")


def test_qr_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    out: list[str] = []
    assert qr_main(["kissa", "--lang", "en", "--verify"], print_fn=out.append) == 0
    assert (tmp_path / "rules-kissa-en.svg").exists()
    # issue 28: by default, the name `companion serve --lan` announces (mDNS), and it says so
    assert out == ["Label written: rules-kissa-en.svg. Its QR code leads to http://companion.local:8765/kissa/en/",
                   "This label leads to http://companion.local:8765/kissa/en/: the name that "
                   "“companion serve --lan” announces on the local network."]
    out.clear()
    assert qr_main(["all", "--out", str(tmp_path / "labels"), "--format", "png",
                    "--base-url", "https://example.org/regles"], print_fn=out.append) == 0
    files = sorted(p.name for p in (tmp_path / "labels").iterdir())
    assert files == sorted(f"rules-{g}-{lg}.png" for g in GAMES for lg in LANGS)
    assert zxing(tmp_path / "labels" / "rules-kikoi-fr.png") == ["https://example.org/regles/kikoi/fr/"]
    with pytest.raises(SystemExit):
        qr_main(["chess"], print_fn=out.append)


@pytest.mark.skipif(braille_mod.backend() is None, reason="liblouis not installed (optional)")
def test_braille_file_for_an_embosser(tmp_path: Path) -> None:
    out: list[str] = []
    assert qr_main(["kikoi", "--out", str(tmp_path / "kikoi.pdf"), "--brf"], print_fn=out.append) == 0
    brf = (tmp_path / "kikoi.brf").read_bytes()
    assert out[-1] == f"Braille pour embosseuse écrit : {tmp_path / 'kikoi.brf'}"
    lines = brf.decode("ascii").split("\r\n")
    assert lines[-1] == "" and all(len(line) <= 40 for line in lines)
    # Braille ASCII and Unicode braille are the same cells: map one onto the other.
    ascii_cells = " A1B'K2L@CIF/MSP\"E3H9O6R^DJG>NTQ,*5<-U8V.%[$+X!&;:4\\0Z7(_?W]#Y)="
    as_unicode = "".join(chr(0x2800 + ascii_cells.index(c)) for c in "".join(lines).replace(" ", " "))
    unicode_line = braille_mod.to_braille("Les 5 KIKOI : règles audio", "fr")
    assert as_unicode.replace(chr(0x2800), "") == unicode_line.replace(chr(0x2800), "")


def test_without_liblouis_no_braille_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(braille_mod, "_translate", lambda text, tables: None)
    out: list[str] = []
    assert qr_main(["kissa", "--lang", "en", "--out", str(tmp_path / "k.svg"), "--brf"], print_fn=out.append) == 0
    assert not (tmp_path / "k.brf").exists()
    assert "liblouis is not installed" in out[-1] or "liblouis n'est pas installé" in out[-1]
