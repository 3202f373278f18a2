"""Deck files: reading and writing an owner's tile table (I/O lives here, not in the rules).

A deck file is JSON, `{"name": "...", "tiles": ["1:clover+fatima:2", ...]}` (or a bare JSON
list of tiles), or text: one tile per line in RULES §7 notation, `#` starting a comment and
an optional `name: ...` line. The deck option is `synthetic` or a path to such a file.
"""

from __future__ import annotations

import json
from pathlib import Path

from .deck import SYNTHETIC, Deck, DeckError, make_deck, synthetic
from .notation import NotationError, parse_tile


def parse_text(text: str, default_name: str) -> Deck:
    """A deck from the contents of a deck file (JSON or text)."""
    name = default_name
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise DeckError([("json", str(exc))]) from exc
        if isinstance(data, dict):
            name = str(data.get("name") or name)
            data = data.get("tiles")
        if not isinstance(data, list):
            raise DeckError([("json", "expected a list of tiles")])
        lines = data
    else:
        lines = []
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if line.lower().startswith("name:"):
                name = line[5:].strip() or name
                continue
            lines.append(line)
    tiles, bad = [], []
    for item in lines:
        try:
            tiles.append(parse_tile(item, need_number=True))
        except NotationError as exc:
            bad.append((exc.code, str(exc)))
    if bad:
        raise DeckError(bad)
    if name == SYNTHETIC:
        raise DeckError([("name", f"the name {SYNTHETIC!r} is kept for the shipped synthetic deck")])
    return make_deck(name, tiles)


def load(spec: str) -> Deck:
    """The deck named by a `deck=` option: `synthetic` or a deck file's path."""
    if spec == SYNTHETIC:
        return synthetic()
    path = Path(spec).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DeckError([("file", f"{path}: {exc.strerror or exc}")]) from exc
    return parse_text(text, path.stem)


def dumps(deck: Deck) -> str:
    return json.dumps({"name": deck.name, "tiles": [str(t) for t in deck.tiles]}, ensure_ascii=False, indent=1) + "\n"


def save(deck: Deck, path: str | Path) -> None:
    Path(path).expanduser().write_text(dumps(deck), encoding="utf-8")
