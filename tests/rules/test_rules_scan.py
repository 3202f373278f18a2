"""`companion rules --scan IMAGE`: a photo of a label starts its rules; other codes are refused."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.audiorules.qrlabel import write_label
from companion.audiorules.scan import decode, decoders, find_rules
from companion.cli.rules import rules_main


class QuietSpeaker:
    """Says everything at once (the player's logic is tested elsewhere)."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.rate = 175

    def say(self, text, priority=None):
        import threading

        self.said.append(text)
        ev = threading.Event()
        ev.set()
        return type("Item", (), {"done": ev})()

    def interrupt(self) -> None:
        pass


def scan(image: Path, *extra: str) -> tuple[int, list[str], QuietSpeaker]:
    out: list[str] = []
    spk = QuietSpeaker()
    lines = iter(["quit"])
    rc = rules_main(["--scan", str(image), *extra], input_fn=lambda p: next(lines), print_fn=out.append, speaker=spk)
    return rc, out, spk


@pytest.fixture(autouse=True)
def _config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert decoders(), "a QR decoder (zxing-cpp or zbarimg) is needed"


def photo_of(label: Path, dest: Path, seed: int = 7) -> Path:
    """The label as a phone might see it: on a wooden table, tilted, smaller, blurred, noisy."""
    from PIL import Image, ImageFilter

    rng = random.Random(seed)
    with Image.open(label) as img:
        img = img.convert("RGB")
    img = img.resize((img.width // 3, img.height // 3))
    img = img.rotate(8, expand=True, fillcolor=(150, 110, 70))
    table = Image.new("RGB", (img.width + 240, img.height + 200), (150, 110, 70))
    table.paste(img, (130, 90))
    img = table.filter(ImageFilter.GaussianBlur(1.2))
    px = img.load()
    for _ in range(img.width * img.height // 20):
        x, y = rng.randrange(img.width), rng.randrange(img.height)
        r, g, b = px[x, y]
        d = rng.randint(-40, 40)
        px[x, y] = (max(0, min(255, r + d)), max(0, min(255, g + d)), max(0, min(255, b + d)))
    img.save(dest, quality=80)
    return dest


def test_a_photo_of_a_label_starts_its_rules(tmp_path: Path) -> None:
    label = write_label("goodfortune", "en", tmp_path / "label.png")
    photo = photo_of(label, tmp_path / "photo.jpg")
    assert find_rules(decode(photo)) == ("goodfortune", "en")
    rc, out, spk = scan(photo)
    assert rc == 0
    assert out[0] == "Code read: the rules of Good Fortune, in English."
    assert out[1] == "Rules of Good Fortune, in 8 chapters."
    assert spk.said[0] == out[1]


@pytest.mark.parametrize("suffix", [".svg", ".pdf"])
def test_svg_and_pdf_labels_scan_too(tmp_path: Path, suffix: str) -> None:
    import shutil

    if shutil.which("rsvg-convert") is None:
        pytest.skip("rsvg-convert (librsvg2-bin) not installed")
    label = write_label("kaliko", "fr", tmp_path / f"label{suffix}")
    rc, out, _ = scan(label)
    assert rc == 0 and out[0] == "Code lu : les règles de Kaliko, en français."


def test_the_language_can_be_overridden(tmp_path: Path) -> None:
    label = write_label("kissa", "fr", tmp_path / "label.png")
    rc, out, _ = scan(label, "--lang", "en")
    assert rc == 0 and out[1] == "Rules of 2kissa10, in 8 chapters."


def test_a_foreign_code_gets_a_clear_message(tmp_path: Path) -> None:
    import qrcode

    for i, text in enumerate(["https://example.org/menu", "http://localhost:8765/chess/fr/", "WIFI:S:maison;;"]):
        path = tmp_path / f"foreign{i}.png"
        qrcode.make(text).save(path)
        rc, out, spk = scan(path)
        assert rc == 1
        assert out == [f"Ce code QR ne mène pas aux règles du compagnon. Il contient : {text}"]
        assert spk.said == []


def test_no_code_unreadable_file_missing_file(tmp_path: Path) -> None:
    from PIL import Image

    blank = tmp_path / "blank.png"
    Image.new("L", (400, 400), 255).save(blank)
    rc, out, _ = scan(blank)
    assert rc == 1 and out[0].startswith(f"Aucun code QR lisible dans l'image {blank}")
    text = tmp_path / "notes.png"
    text.write_text("not an image", encoding="utf-8")
    rc, out, _ = scan(text)
    assert rc == 1 and out[0].startswith(f"Impossible d'ouvrir l'image {text}")
    rc, out, _ = scan(tmp_path / "nowhere.png")
    assert rc == 1 and out[0].startswith("Impossible d'ouvrir l'image")


def test_without_a_game_or_scan_the_usage_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    out: list[str] = []
    assert rules_main([], print_fn=out.append) == 2
    assert "usage: companion rules" in capsys.readouterr().err
