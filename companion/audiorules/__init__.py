"""Audio rules: chaptered spoken rules for every game, the QR label that opens them, the
player, the scanner and the local rules page.

Sources live in `audio/rules/<game>/<lang>/` (one text file per chapter and a manifest.json);
`companion rules build` synthesizes them into `audio/rules/build/<game>/<lang>/<chapter>.ogg`.
The rules page of a game is at `<base-url>/<game>/<lang>/` (default base
`http://localhost:8765`, the address of `companion serve`).
"""

from __future__ import annotations

GAMES = ("kikoi", "kaliko", "goodfortune", "kissa")
LANGS = ("fr", "en")
CHAPTERS = ("goal", "components", "setup", "turn", "scoring", "example", "variants", "companion")
DEFAULT_PORT = 8765
DEFAULT_BASE_URL = f"http://localhost:{DEFAULT_PORT}"

__all__ = ["CHAPTERS", "DEFAULT_BASE_URL", "DEFAULT_PORT", "GAMES", "LANGS"]
