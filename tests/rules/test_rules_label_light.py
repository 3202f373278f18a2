"""The rules label's SVG text escaping, and what importing it costs a game: `companion play`
imports the in-game rules (the camera's QR label), so the label's module must not pull in
`urllib.request` and with it `ssl` (libssl and libcrypto: 5-8 MB of every game's resident
memory, issue 30's 150 MB; docs/voice.md)."""

from __future__ import annotations

import subprocess
import sys

from companion.audiorules.qrlabel import escape


def test_svg_text_is_escaped_as_xml_needs_it():
    assert escape("Kaliko & co <règles> \"2\" 'x'") == "Kaliko &amp; co &lt;règles&gt; \"2\" 'x'"


def test_a_game_s_rules_do_not_import_ssl():
    code = ("import sys, companion.audiorules.ingame, companion.session.loop; "
            "print(sorted(m for m in ('ssl', 'urllib.request', 'http.client') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]", out.stdout
