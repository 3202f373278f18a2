"""`companion phrases GAME`: what a player can say now, for a voice recogniser or a check.

    companion phrases kikoi --json                       a new game, the player to move
    companion phrases kaliko --lang en --grammar         the slot grammar (templates, slot values)
    companion phrases kissa --journal partie.jsonl --seat Marie --json

`--json` (the default) prints the concrete list `[{"phrase": ..., "command": ...}, ...]`;
`--grammar` prints `{"game", "lang", "rules": [{"template", "command"}], "slots": {...}}`.
Without `--journal`, a new game with default players (Marie, Paul, Zoé...) and seed 1; with
it, the state of the saved game (its actions replayed). The seat defaults to the player to
move (the first seat once the game is over).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

DEFAULT_PLAYERS = ("Marie", "Paul", "Zoé", "Léo", "Chloé", "Hugo")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion phrases", description="What a player can say now, with the command each phrase maps to.")
    p.add_argument("game", help="game name or alias (kikoi, kissa, goodfortune, kaliko...)")
    p.add_argument("--lang", default="fr", help="language of the phrases (fr, en, or any with a phrase table)")
    p.add_argument("--journal", type=Path, default=None, help="a saved game: its state now")
    p.add_argument("--seat", default=None, help="the player speaking (name; default: the player to move)")
    p.add_argument("--players", default=None, help="comma-separated names for a new game")
    p.add_argument("--seed", type=int, default=1, help="seed of a new game")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="a variant of the rules (new game)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="the concrete list (default)")
    out.add_argument("--grammar", action="store_true", help="the slot grammar")
    return p


class PhrasesError(Exception):
    """A bad game, language, seat or save given to `companion phrases`: one line in the user's
    language (a message of the core catalogue), exit 2."""

    def __init__(self, msg_id: str, **params: object) -> None:
        super().__init__(msg_id)
        self.msg_id, self.params = msg_id, params

    def text(self, lang: str) -> str:
        from companion.narration import Msg, catalog

        return catalog(lang).text(Msg(self.msg_id, **self.params))


def ui_lang(asked: str) -> str:
    """The language errors are said in: the phrases' own when it is fr or en, else the user's."""
    import os

    for lang in (asked, (os.environ.get("COMPANION_LANG") or os.environ.get("LANG") or "fr")[:2].lower()):
        if lang in ("fr", "en"):
            return lang
    return "fr"


def state_of(args: argparse.Namespace) -> tuple[Any, Any]:
    """(ui, match) for a new game or the saved one."""
    from companion.core import Match, UnknownGame, find
    from companion.language.games import find_game
    from companion.saves import journal as jr

    try:
        entry = find_game(args.game)
    except UnknownGame:
        raise PhrasesError("core.phrases.unknown_game", game=args.game) from None
    spec = entry.spec()
    actions: list[dict[str, Any]] = []
    if args.journal is not None:
        try:
            c = jr.contents(jr.records(args.journal))
        except jr.JournalError as exc:
            raise PhrasesError(exc.msg_id, path=str(args.journal), line=exc.line) from None
        if find(str(c.start.get("game", ""))).name != entry.name:
            raise PhrasesError("core.phrases.other_game", path=str(args.journal), game=str(c.start.get("game")), wanted=entry.name)
        options = dict(c.start.get("options", {}))
        names = list(c.start["players"])
        seed = int(c.start["seed"])
        actions = c.actions
    else:
        options = {}
        for pair in args.option:
            key, sep, value = pair.partition("=")
            if not sep:
                raise PhrasesError("core.phrases.option_pair", option=pair)
            options[key.strip().replace("-", "_")] = value.strip()
        from companion.cli.runner import option_words

        options = option_words(entry, options)
        names = [n.strip() for n in args.players.split(",")] if args.players else list(DEFAULT_PLAYERS[: entry.min_players])
        seed = args.seed
    try:
        game = spec.rules(**options)
    except ValueError as exc:
        raise PhrasesError("core.phrases.bad_option", detail=str(exc)) from None
    match = Match(game, names, seed)
    match.replay(actions)
    return spec.ui()(game), match


def seat_of(match: Any, name: str | None) -> int:
    from companion.core import fold

    if name is None:
        current = match.current
        return 0 if current is None else int(current)
    for i, player in enumerate(match.players):
        if fold(player) == fold(name):
            return i
    raise PhrasesError("core.phrases.no_player", name=name, names=", ".join(match.players))


def phrases_main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from companion.core import IllegalAction
    from companion.language import languages

    if args.lang not in languages():
        err = PhrasesError("core.phrases.no_table", lang=args.lang, known=", ".join(languages()))
        print(f"companion phrases: {err.text(ui_lang(args.lang))}", file=sys.stderr)
        return 2
    try:
        ui, match = state_of(args)
        sayable = ui.phrases(match, seat_of(match, args.seat), args.lang)
    except PhrasesError as exc:
        print(f"companion phrases: {exc.text(ui_lang(args.lang))}", file=sys.stderr)
        return 2
    except IllegalAction as exc:  # a save whose moves do not replay
        err = PhrasesError("core.phrases.bad_move", path=str(args.journal), detail=str(exc))
        print(f"companion phrases: {err.text(ui_lang(args.lang))}", file=sys.stderr)
        return 2
    data: Any = sayable.grammar if args.grammar else sayable.to_json()
    json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0
