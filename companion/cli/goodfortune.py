"""`companion goodfortune ...`: score a collection, enter or check a deck file.

  companion goodfortune score [FILE|-] [--json] [--tie-order best|fixed]
  companion goodfortune deck new FILE [--name NAME]   guided entry, one tile at a time;
                                                      the deck is then used by default
  companion goodfortune deck use FILE|synthetic       the deck games use from then on
  companion goodfortune deck check FILE               say what is wrong with a deck file
  companion goodfortune deck show [FILE|synthetic]    read a deck's 21 tiles (default: the deck in use)

Exit status: 0 done, 1 stopped by the user or end of input, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.games.goodfortune.notation import NotationError, parse_tile
from companion.narration import Msg, catalog

EXAMPLES = """\
examples:
  echo '["12:neko+clover:4", "neko+scarab:3"]' | companion goodfortune score - --json
  companion goodfortune deck new ~/mon-good-fortune.json     (used by every game from then on)
  companion goodfortune deck show synthetic --lang en
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion goodfortune", description="Good Fortune tools.",
                                epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    sc = sub.add_parser("score", help="score a collection: a JSON list of tiles (number:charm+charm:die)")
    sc.add_argument("file", nargs="?", default="-", help="JSON file, or - for standard input (default)")
    sc.add_argument("--json", action="store_true", help="print the breakdown as JSON")
    sc.add_argument("--tie-order", choices=("best", "fixed"), default="best",
                    help="ties beyond the die sum: try every branch and keep the best (default) or canonical order")
    sc.add_argument("--lang", choices=("fr", "en"), default="fr")
    dk = sub.add_parser("deck", help="enter, check or read a deck file (the tile table of a physical copy)")
    dsub = dk.add_subparsers(dest="deck_command", metavar="ACTION", required=True)
    new = dsub.add_parser("new", help="enter your copy's 21 tiles one at a time, with checks")
    new.add_argument("file")
    new.add_argument("--name", default=None, help="the deck's name (default: the file's name)")
    new.add_argument("--lang", choices=("fr", "en"), default="fr")
    new.add_argument("--speech", default=None,
                     help="speech engine for the prompts: auto (default), espeak, pyttsx3, text or none (printed only)")
    new.add_argument("--no-default", action="store_true", help="do not make it the deck used by default")
    use = dsub.add_parser("use", help="choose the deck every game uses from then on (a file, or synthetic)")
    use.add_argument("file")
    use.add_argument("--lang", choices=("fr", "en"), default="fr")
    chk = dsub.add_parser("check", help="check a deck file")
    chk.add_argument("file")
    chk.add_argument("--lang", choices=("fr", "en"), default="fr")
    show = dsub.add_parser("show", help="read a deck's tiles")
    show.add_argument("file", nargs="?", default="default", help="a deck file, synthetic, or default (the deck in use)")
    show.add_argument("--lang", choices=("fr", "en"), default="fr")
    show.add_argument("--json", action="store_true")
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "score":
        return score_main(args.file, args.json, args.tie_order, args.lang)
    if args.deck_command == "new":
        return deck_new(args)
    return deck_main(args)


def deck_new(args: argparse.Namespace) -> int:
    """The guided entry from the keyboard (or anything that types lines), each line printed
    and, unless --speech text/none, also spoken."""
    import os

    from companion.games.goodfortune.deckentry import run

    engine = args.speech or os.environ.get("COMPANION_SPEECH") or "auto"
    speaker = None
    if engine not in ("text", "none"):
        try:
            from companion.outputs.speaker import open_speaker

            speaker = open_speaker(engine=engine, lang=args.lang)
        except Exception as exc:  # noqa: BLE001 - printed lines still work without speech
            print(f"(speech unavailable: {exc})", file=sys.stderr)

    def out(text: str) -> None:
        _print(text)
        if speaker is not None:
            from companion.narration import Priority

            speaker.say(text, Priority.MESSAGE)

    def read(prompt: str) -> str:
        line = _input(prompt)
        if speaker is not None:
            speaker.interrupt()
        return line

    try:
        return run(args.file, args.name, args.lang, input_fn=read, out=out, make_default=not args.no_default)
    finally:
        if speaker is not None:
            speaker.wait(10)
            speaker.close()


def _print(text: str) -> None:
    print(text, flush=True)


def _input(prompt: str) -> str:
    return input(prompt)


class InputError(ValueError):
    """Bad input to a command-line tool: said with the faulty item, exit status 2."""


def read_collection(text: str) -> list[tuple[str, Any]]:
    """The tiles of a JSON list, each with the string as it was given (InputError if bad)."""
    from companion.saves.files import InputFileError, load_json_text

    try:
        data = load_json_text(text, "the collection", max_depth=4)
    except InputFileError as exc:
        raise InputError(str(exc)) from exc
    if not isinstance(data, list):
        raise InputError("expected a JSON list of tiles such as [\"12:neko+clover:4\", \"neko+scarab:3\"]")
    if len(data) > 21:
        raise InputError(f"{len(data)} tiles: a collection holds at most the 21 tiles of a deck")
    out = []
    numbers: dict[int, int] = {}
    for i, item in enumerate(data):
        if not isinstance(item, str) or len(item) > 80:
            raise InputError(f"item {i + 1}: {json.dumps(item)} is not a string like \"12:neko+clover:4\"")
        try:
            tile = parse_tile(item)
        except NotationError as exc:
            raise InputError(f"item {i + 1}: {item!r}: {exc.detail or exc.code}") from exc
        if tile.number is not None:
            if tile.number in numbers:
                raise InputError(f"item {i + 1}: tile number {tile.number} is already item {numbers[tile.number] + 1}")
            numbers[tile.number] = i
        out.append((item, tile))
    return out


def score_json(text: str, tie_order: str = "best") -> dict[str, Any]:
    """The exact `--json` answer for a collection given as JSON text."""
    from companion.games.goodfortune.scoring import score

    items = read_collection(text)
    b = score([t for _s, t in items], tie_order)
    return {"score": b.total, "groups": [
        {"charm": g.charm, "tiles": [items[i][0] for i in g.tiles], "dice": g.dice, "points": g.points}
        for g in b.groups]}


def score_main(file: str, as_json: bool, tie_order: str, lang: str) -> int:
    if file == "-" and sys.stdin.isatty():
        print(catalog(lang).text(Msg("goodfortune.score_stdin_hint")), file=sys.stderr)
    from companion.saves.files import InputFileError, read_input

    try:
        text = read_input(file, limit=64 * 1024)
    except InputFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        result = score_json(text, tie_order)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    cat = catalog(lang)
    for g in result["groups"]:
        print(cat.text(Msg("goodfortune.group_line", charm=Msg(f"goodfortune.charm.{g['charm']}"),
                           n=len(g["tiles"]), dice=g["dice"], points=Msg("core.points", n=g["points"]),
                           tiles=", ".join(g["tiles"]))))
    print(cat.text(Msg("goodfortune.score_total", n=result["score"])))
    return 0


def deck_main(args: argparse.Namespace) -> int:
    from companion.games.goodfortune.deck import DeckError
    from companion.games.goodfortune.deckfile import load

    cat = catalog(args.lang)
    try:
        deck = load(args.file)
    except DeckError as exc:
        print(cat.text(Msg("goodfortune.deck.invalid", file=args.file)), file=sys.stderr)
        for code, detail in exc.problems:
            print(f"  {code}: {detail}", file=sys.stderr)
        return 2
    if args.deck_command == "use":
        from companion.games.goodfortune.deckfile import set_default

        try:
            set_default(None if deck.synthetic else args.file)
        except OSError as exc:
            print(f"error: {exc.strerror or exc}", file=sys.stderr)
            return 2
        key = "goodfortune.deck.use_synthetic" if deck.synthetic else "goodfortune.deck.use_set"
        print(cat.text(Msg(key, name=deck.name, file=args.file)))
        return 0
    if args.deck_command == "check":
        print(cat.text(Msg("goodfortune.deck.synthetic_valid" if deck.synthetic else "goodfortune.deck.valid", name=deck.name)))
        return 0
    if getattr(args, "json", False):
        print(json.dumps({"name": deck.name, "synthetic": deck.synthetic, "tiles": [str(t) for t in deck.tiles]}))
        return 0
    from companion.games.goodfortune.speech import tile_msg

    print(cat.text(Msg("goodfortune.deck.synthetic_named" if deck.synthetic else "goodfortune.deck.named", name=deck.name)))
    for t in deck.tiles:
        print(cat.text(tile_msg(t)))
    return 0

