"""Issue 28: the address a label encodes — the announced name by default (and which), a spare
label at the plain address for phones without mDNS, a warning for a localhost label — and
`companion qr --verify-export DIR` for pages hosted anywhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.audiorules.qrlabel import is_local_only
from companion.audiorules.scan import decode
from companion.cli.rules import qr_main, rules_main


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("COMPANION_LANG", "en")


def test_the_default_label_encodes_the_saved_announced_name(tmp_path: Path) -> None:
    from companion.audiorules.announce import save_name

    save_name("companion-2")  # this machine took companion-2 when a neighbour had companion
    out: list[str] = []
    assert qr_main(["kikoi", "--lang", "fr", "--port", "9000", "--verify"], print_fn=out.append) == 0
    assert decode(tmp_path / "rules-kikoi-fr.svg") == ["http://companion-2.local:9000/kikoi/fr/"]
    assert out[1].startswith("Cette étiquette mène à http://companion-2.local:9000/kikoi/fr/ : le nom que")


def test_a_spare_label_at_the_plain_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_MDNS_INTERFACES", "192.168.1.20")  # read only: qr sends nothing
    out: list[str] = []
    assert qr_main(["kaliko", "--lang", "en", "--verify"], print_fn=out.append) == 0
    assert decode(tmp_path / "rules-kaliko-en.svg") == ["http://companion.local:8765/kaliko/en/"]
    assert decode(tmp_path / "rules-kaliko-en-address.svg") == ["http://192.168.1.20:8765/kaliko/en/"]
    assert out[2] == ("Spare label written: rules-kaliko-en-address.svg. It leads to http://192.168.1.20:8765/kaliko/en/, "
                      "this machine's current address, for phones that cannot open .local names.")
    out.clear()
    assert qr_main(["kaliko", "--lang", "en", "--no-spare", "--out", "b.svg"], print_fn=out.append) == 0
    assert not (tmp_path / "b-address.svg").exists() and len(out) == 2


def test_a_localhost_label_only_with_a_warning(tmp_path: Path) -> None:
    out: list[str] = []
    assert qr_main(["kissa", "--base-url", "http://localhost:8765"], print_fn=out.append) == 0
    assert out[1].startswith("Warning: this label leads to http://localhost:8765/kissa/en/, and to a phone")
    out.clear()
    assert qr_main(["kissa", "--base-url", "http://192.168.1.20:8765"], print_fn=out.append) == 0
    assert len(out) == 1  # a plain address: no warning, no spare
    assert is_local_only("http://127.0.0.1:1") and is_local_only("http://[::1]:8765")
    assert not is_local_only("http://companion.local:8765") and not is_local_only("https://club.example.org/r")


def test_verify_export_checks_the_folder_holds_the_page(tmp_path: Path, built_kikoi) -> None:
    site = tmp_path / "site"
    out: list[str] = []
    assert rules_main(["export", str(site), "--game", "kikoi"], print_fn=out.append) == 0
    out.clear()
    base = "https://club.example.org/regles"
    assert qr_main(["kikoi", "--lang", "fr", "--base-url", base, "--verify-export", str(site)], print_fn=out.append) == 0
    assert out[-1] == (f"Le dossier {site} contient la page que l'étiquette ouvre "
                       "(https://club.example.org/regles/kikoi/fr/) : kikoi/fr/index.html, et ses 16 fichiers audio.")
    # a chapter's audio lost on the way to the host: said, and the command fails
    next(site.glob("kikoi/fr/*.ogg")).unlink()
    out.clear()
    assert qr_main(["kikoi", "--lang", "fr", "--base-url", base, "--verify-export", str(site)], print_fn=out.append) == 1
    assert "ne contient pas tout ce que l'étiquette ouvre" in out[-1] and ".ogg" in out[-1]
    # a folder without that game's page
    out.clear()
    assert qr_main(["kaliko", "--lang", "en", "--base-url", base, "--verify-export", str(site)], print_fn=out.append) == 1
    assert "kaliko/en/index.html is missing" in out[-1]
