"""Guided entry of an owner's deck: one tile at a time, checked, by keyboard or voice.

`DeckEntry` is the dialogue without I/O (lines in, messages out); `run` drives it from a
plain line prompt (`input()`), so a screen reader, a braille display or a voice adapter
feeding lines can use it. Progress is kept in `FILE.partial` after every tile, so nothing
is lost when the entry stops; running the same command again resumes it.
Checks (RULES §2.1, §6.1): numbers 1-21 once each (asked in order), the 21 distinct pairs
of the 7 charms, dice 1-4.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from companion.core.text import fold
from companion.language import shared_command_of
from companion.language.tables import groups
from companion.narration import Msg, catalog

from .deck import SYNTHETIC, Deck, free_pairs, make_deck
from .notation import NotationError, parse_spoken_tile, parse_tile
from .speech import charm_msg, tile_msg
from .tiles import CHARMS, DIE_VALUES, N_TILES, Tile


def _word(line: str) -> str | None:
    """What a line is besides a tile, in any language: a shared word (« annule », « aide »,
    « répète », « quitte »: `language/<lang>/shared.json`) or the entry's own « liste »
    (`goodfortune.json`, `deck_entry`)."""
    if fold(line) in groups("goodfortune", "deck_entry").get("list", ()):
        return "list"
    return shared_command_of(line)


def pair_msg(pair: frozenset[str] | tuple[str, str]) -> Msg:
    a, b = sorted(pair, key=CHARMS.index)
    return Msg("goodfortune.pair", a=charm_msg(a), b=charm_msg(b))


class DeckEntry:
    def __init__(self, name: str, tiles: list[Tile] | None = None) -> None:
        self.name = name
        self.tiles: list[Tile] = list(tiles or [])
        self.quit = False

    @property
    def number(self) -> int:
        return len(self.tiles) + 1

    @property
    def done(self) -> bool:
        return len(self.tiles) == N_TILES

    def prompt(self) -> Msg:
        free = free_pairs(self.tiles)
        if len(free) == 1:
            return Msg("goodfortune.entry.prompt_last", number=self.number, pair=pair_msg(free[0]))
        return Msg("goodfortune.entry.prompt", number=self.number)

    def intro(self) -> list[Msg]:
        out = [Msg("goodfortune.entry.intro", name=self.name)]
        if self.tiles:
            out.append(Msg("goodfortune.entry.resumed", n=len(self.tiles)))
        return out

    def feed(self, line: str) -> list[Msg]:
        """Answer one line: a tile, or undo / list / help / repeat / quit."""
        if not fold(line):
            return [self.prompt()]
        word = _word(line)
        if word == "undo":
            if not self.tiles:
                return [Msg("goodfortune.entry.nothing_to_undo"), self.prompt()]
            gone = self.tiles.pop()
            return [Msg("goodfortune.entry.undone", tile=tile_msg(gone)), self.prompt()]
        if word == "list":
            return [Msg("goodfortune.entry.free_pairs", n=len(free_pairs(self.tiles)),
                        pairs=[pair_msg(p) for p in free_pairs(self.tiles)]), self.prompt()]
        if word == "help":
            return [Msg("goodfortune.entry.help"), self.prompt()]
        if word == "repeat":
            return [self.prompt()]
        if word == "quit":
            self.quit = True
            return [Msg("goodfortune.entry.stopped", n=len(self.tiles))]
        tile, problem = self._understand(line)
        if problem is not None:
            return [problem, self.prompt()]
        assert tile is not None
        self.tiles.append(tile)
        out = [Msg("goodfortune.entry.noted", tile=tile_msg(tile), n=N_TILES - len(self.tiles))]
        if not self.done:
            out.append(self.prompt())
        return out

    def _understand(self, line: str) -> tuple[Tile | None, Msg | None]:
        n = self.number
        free = free_pairs(self.tiles)
        try:  # the written form: [number:]charm+charm:die
            written = parse_tile(line)
        except NotationError as exc:
            if exc.code in ("bad_die", "same_charm", "bad_number") and "+" in line:
                return None, Msg(f"goodfortune.entry.written_{exc.code}")
            charms, numbers = parse_spoken_tile(line)
        else:
            if written.number is not None and written.number != n:
                return None, Msg("goodfortune.entry.wrong_number", said=written.number, number=n)
            charms, numbers = written.charms, [written.die]
        if len(numbers) >= 2 and numbers[0] == n:
            numbers = numbers[1:]  # "douze, trèfle et scarabée, trois": the tile's own number first
        if not charms and len(free) == 1:
            charms = tuple(sorted(free[0], key=CHARMS.index))
        distinct = list(dict.fromkeys(charms))
        if len(charms) == 2 and len(distinct) == 1:
            return None, Msg("goodfortune.entry.same_charm")
        if not distinct:  # « 1 2 3 … »: numbers only, no charm at all
            return None, Msg("goodfortune.entry.no_charm")
        if len(distinct) != 2:
            return None, Msg("goodfortune.entry.need_two", n=len(distinct), heard=[charm_msg(c) for c in distinct])
        if not numbers:
            return None, Msg("goodfortune.entry.need_die")
        die = numbers[-1]
        if die not in DIE_VALUES:
            return None, Msg("goodfortune.entry.bad_die", die=die)
        pair = frozenset(distinct)
        if pair not in free:
            owner = next(t for t in self.tiles if t.pair == pair)
            return None, Msg("goodfortune.entry.pair_taken", pair=pair_msg(pair), tile=tile_msg(owner))
        return Tile(n, (distinct[0], distinct[1]), die), None

    def deck(self) -> Deck:
        return make_deck(self.name, self.tiles)


def partial_path(path: Path) -> Path:
    return path.with_name(path.name + ".partial")


def load_partial(path: Path) -> list[Tile]:
    p = partial_path(path)
    if not p.exists():
        return []
    tiles = []
    for raw in p.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            tiles.append(parse_tile(line, need_number=True))
    return tiles


def save_partial(path: Path, entry: DeckEntry) -> None:
    text = "# Good Fortune deck being entered (companion goodfortune deck new); do not edit\n"
    from companion.saves.files import write_text_atomic

    write_text_atomic(partial_path(path), text + "".join(f"{t}\n" for t in entry.tiles))


def run(file: str, name: str | None, lang: str, input_fn: Callable[[str], str], out: Callable[[str], None],
        make_default: bool = False) -> int:
    """The whole guided entry; with `make_default`, the deck saved is used from then on."""
    from .deckfile import save, set_default

    cat = catalog(lang)
    path = Path(file).expanduser()
    deck_name = name or path.stem
    if deck_name == SYNTHETIC:
        out(cat.text(Msg("goodfortune.entry.reserved_name", name=SYNTHETIC)))
        return 2
    try:
        entry = DeckEntry(deck_name, load_partial(path))
    except (OSError, NotationError):
        out(cat.text(Msg("goodfortune.entry.bad_partial", file=str(partial_path(path)))))
        return 2
    for m in entry.intro():
        out(cat.text(m))
    out(cat.text(entry.prompt()))
    while not entry.done:
        try:
            line = input_fn("> ")
        except (EOFError, KeyboardInterrupt):
            out(cat.text(Msg("goodfortune.entry.stopped", n=len(entry.tiles))))
            return 1
        before = len(entry.tiles)
        for m in entry.feed(line):
            out(cat.text(m))
        if len(entry.tiles) != before:
            save_partial(path, entry)
        if entry.quit:
            return 1
    try:
        save(entry.deck(), path)
    except OSError as exc:
        out(cat.text(Msg("goodfortune.entry.save_failed", file=str(path), reason=exc.strerror or str(exc))))
        return 2
    partial_path(path).unlink(missing_ok=True)
    out(cat.text(Msg("goodfortune.entry.saved", file=str(path))))
    if make_default:
        try:
            set_default(path)
        except OSError as exc:
            out(cat.text(Msg("goodfortune.entry.save_failed", file="default-deck", reason=exc.strerror or str(exc))))
            return 2
        out(cat.text(Msg("goodfortune.entry.now_default")))
    return 0
