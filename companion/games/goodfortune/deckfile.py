"""Deck files: reading and writing an owner's tile table (I/O lives here, not in the rules).

A deck file is JSON, `{"name": "...", "tiles": ["1:clover+fatima:2", ...]}` (or a bare JSON
list of tiles), or text: one tile per line in RULES §7 notation, `#` starting a comment and
an optional `name: ...` line. The deck option is `default` (the owner's deck chosen with
`companion goodfortune deck new|use`, or else the synthetic deck), `synthetic`, or a path.
The owner's choice is kept in `$XDG_DATA_HOME/companion/goodfortune/default-deck` (the path
of their deck file, one line), so a deck entered once is used from then on.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion import paths

from .deck import DEFAULT, SYNTHETIC, Deck, DeckError, make_deck, synthetic
from .notation import NotationError, parse_tile


class NeedsOwnerDeck(ValueError):
    """A game at a physical table, and no deck of the owner's box to score it with: the
    synthetic deck's charms and dice are not the box's (RULES GFA-8, §6.1). `msg` says, in the
    player's language, how to enter the box's deck once."""

    def __init__(self) -> None:
        from companion.narration import Msg

        super().__init__("at a physical table Good Fortune needs your box's tiles: enter them once with "
                         "`companion goodfortune deck new FILE`, or play with -o deck=synthetic")
        self.msg = Msg("goodfortune.error.physical_needs_deck")


def parse_text(text: str, default_name: str) -> Deck:
    """A deck from the contents of a deck file (JSON or text)."""
    name = default_name
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        from companion.saves.files import InputFileError, load_json_text

        try:
            data = load_json_text(stripped, "the deck file", max_depth=4)
        except InputFileError as exc:
            raise DeckError([("json", str(exc))]) from exc
        if isinstance(data, dict):
            name = str(data.get("name") or name)[:80]
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
    if len(lines) > 100:
        raise DeckError([("count", f"{len(lines)} tiles, a deck has 21")])
    for item in lines:
        if not isinstance(item, str) or len(item) > 80:
            bad.append(("tile", f"{json.dumps(item)[:40]} is not a tile such as \"12:neko+clover:4\""))
            continue
        try:
            tiles.append(parse_tile(item, need_number=True))
        except NotationError as exc:
            bad.append((exc.code, str(exc)))
    if bad:
        raise DeckError(bad)
    if name == SYNTHETIC:
        raise DeckError([("name", f"the name {SYNTHETIC!r} is kept for the shipped synthetic deck")])
    return make_deck(name, tiles)


def default_pointer() -> Path:
    return paths.data_dir() / "goodfortune" / "default-deck"


def default_path() -> Path | None:
    """The owner's deck file chosen as the default, or None (then the synthetic deck)."""
    try:
        text = default_pointer().read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return Path(text) if text else None


def set_default(path: str | Path | None) -> None:
    """Make `path` the deck used from then on (None: back to the synthetic deck)."""
    pointer = default_pointer()
    if path is None:
        pointer.unlink(missing_ok=True)
        return
    from companion.saves.files import write_text_atomic

    write_text_atomic(pointer, str(Path(path).expanduser().resolve()) + "\n")


def load(spec: str) -> Deck:
    """The deck named by a `deck=` option: `default`, `synthetic` or a deck file's path."""
    if spec == DEFAULT:
        path = default_path()
        if path is None:
            return synthetic()
        try:
            return load(str(path))
        except DeckError as exc:
            raise DeckError([("default", f"your default deck {path} cannot be used; "
                              "fix it, or choose another with: companion goodfortune deck use FILE|synthetic"),
                             *exc.problems]) from exc
    if spec == SYNTHETIC:
        return synthetic()
    from companion.saves.files import InputFileError, read_input

    path = Path(spec).expanduser()
    try:
        text = read_input(str(path), limit=64 * 1024)
    except InputFileError as exc:
        raise DeckError([("file", str(exc))]) from exc
    return parse_text(text, path.stem)


def dumps(deck: Deck) -> str:
    return json.dumps({"name": deck.name, "tiles": [str(t) for t in deck.tiles]}, ensure_ascii=False, indent=1) + "\n"


def save(deck: Deck, path: str | Path) -> None:
    from companion.saves.files import write_text_atomic

    write_text_atomic(Path(path).expanduser(), dumps(deck))
