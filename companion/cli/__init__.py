"""The `companion` command. Imports stay inside the commands: `--help` must answer fast."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import Any

EPILOG = """\
examples:
  companion play kissa --players Marie --bots 1      Marie against one bot, in French
  companion play goodfortune --lang en --seed 7       a whole game between two bots, in English
  companion resume                                    continue the last unfinished game
  companion demo                                      a short narrated game with bots
  companion say "C'est au tour de Marie." --out x.wav
  companion kissa moves board.txt --best 3            tools of one game: companion GAME --help

In a game, type "aide" or "help" to hear what you can do; "quitte"/"quit" saves and stops.
"""

# Sub-commands that live in their own packages: name -> (module, function).
EXTERNAL = {
    "say": ("companion.cli.say", "say_main"),
    "earcons": ("companion.cli.say", "earcons_main"),
    "rules": ("companion.cli.rules", "rules_main"),
    "qr": ("companion.cli.rules", "qr_main"),
    "serve": ("companion.cli.rules", "serve_main"),
    "reader": ("companion.cli.reader", "reader_main"),
    "phrases": ("companion.cli.phrases", "phrases_main"),
    "join": ("companion.inputs.terminal", "main"),
    "voice": ("companion.cli.voice", "voice_main"),
}


def build_parser() -> argparse.ArgumentParser:
    from companion.inputs.voice.options import add_voice_args  # argparse only (docs/voice.md)

    p = argparse.ArgumentParser(
        prog="companion",
        description="Referee, narrator and rulebook for Les 5 KIKOI, Kaliko, Good Fortune and 2kissa10.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    games = sub.add_parser("games", help="list the games, their names and aliases")
    games.add_argument("--lang", choices=("fr", "en"), default="fr")

    play = sub.add_parser("play", help="start a game")
    play.add_argument("game", help="game name or alias (kikoi, kissa, goodfortune, kaliko...)")
    _session_args(play)
    add_voice_args(play)
    play.add_argument("--players", default="", help="comma-separated names of the human players")
    play.add_argument("--bots", type=int, default=None, help="number of bots beside the named players")
    play.add_argument("--bot", default=None, help="kind of bot (default: the game's first)")
    play.add_argument("--seed", type=int, default=None, help="seed of the deal (same seed, same game)")
    play.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="a variant of the rules")
    play.add_argument("--journal", type=Path, default=None, help="save file (default: under ~/.local/share/companion)")
    _channel_args(play)

    res = sub.add_parser("resume", help="continue a saved game (the last unfinished one by default)")
    res.add_argument("file", nargs="?", type=Path)
    _session_args(res)
    add_voice_args(res)
    _channel_args(res)

    demo = sub.add_parser("demo", help="a short complete narrated game with bots in every seat")
    demo.add_argument("--lang", choices=("fr", "en"), default="fr")
    demo.add_argument("--speech", default="auto")
    demo.add_argument("--out", default=None, help="WAV file used when there is no sound card")
    demo.add_argument("--seed", type=int, default=None)

    for name, (_mod, _fn) in EXTERNAL.items():
        sub.add_parser(name, help=_EXTERNAL_HELP[name], add_help=False)
    sub.add_parser("GAME", help="tools of one game, e.g. `companion kissa moves BOARD` (see `companion GAME --help`)")
    return p


_EXTERNAL_HELP = {
    "say": "say a sentence, or write it to a WAV file (checks your speech set-up)",
    "earcons": "play each sound and say what it means",
    "rules": "listen to the audio rules of a game (chapters, resume where you stopped)",
    "qr": "make a printable QR label that opens a game's audio rules",
    "serve": "serve the rules pages to phones on this computer or the home network",
    "reader": "the tactile token reader: listen to one, emulate one, write a tag",
    "phrases": "what a player can say now, with its command (--json list, --grammar for voice)",
    "join": "this terminal becomes one player's private channel in the running game",
    "voice": "offline voice commands: recognise a recording, test a microphone or a model",
}


def _channel_args(p: argparse.ArgumentParser) -> None:
    """Private channels for the players: pages on their phones, second terminals."""
    p.add_argument("--web", action="store_true", help="a private page per player, on their phone (docs/private-channels.md)")
    p.add_argument("--lan", action="store_true", help="with --web: pages reachable from the local network (phones)")
    p.add_argument("--port", type=int, default=8766, help="with --web: the pages' port (0: any free port)")
    p.add_argument("--web-urls", type=Path, default=None, metavar="FILE", help="with --web: write each seat's secret address as JSON")
    p.add_argument("--qr", type=Path, default=None, metavar="FILE.png",
                   help="with --web: where the table address's QR code is saved as PNG (default: beside the save)")
    p.add_argument("--qr-text", action="store_true",
                   help="with --web: also print the QR code as block characters (a braille display reads them as noise)")
    p.add_argument("--join", action="store_true", help="accept `companion join --seat NAME` from other terminals (implied by --web)")
    p.add_argument("--braille", action="append", default=[], metavar="SEAT[=contracted]",
                   help="a player's own braille display through brltty, read and played on it alone (docs/braille.md)")
    from companion.cli.rules import add_mdns_options

    add_mdns_options(p)


def _session_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=("fr", "en"), default=None, help="language (default fr)")
    p.add_argument("--speech", default=None, help="auto, espeak-ng, pyttsx3, speech-dispatcher, text or none")
    p.add_argument("--out", default=None, help="audio output: auto, device[:NAME[:left|right]], file:PATH.wav, null")
    p.add_argument("--private", action="append", default=[], metavar="NAME=OUTPUT", help="a player's own channel, e.g. Marie=device:1:left")
    p.add_argument("--verbosity", choices=("terse", "normal", "verbose"), default=None)
    p.add_argument("--log", type=Path, default=None,
                   help="write the public events and the lines typed as JSON lines to this file (yours only: 0600)")
    p.add_argument("--log-private", action="store_true",
                   help="with --log: also every player's secrets and the lines of their pages (docs/private-channels.md)")
    p.add_argument("--reader", action="append", default=[], metavar="PORT[=SEAT]",
                   help="a token reader (repeatable); =SEAT binds it to a player (name or number)")
    p.add_argument("--deadline", type=float, default=None, metavar="SECONDS",
                   help="the longest a hint or a list of plays searches before answering (default 0.4)")
    p.add_argument("--camera", metavar="PATH", default=None,
                   help="« lis le code » reads a rules label through this camera (default /dev/video0) or video file")


# The optional extras of pyproject.toml (./run setup installs them all): a package of one
# that is missing is said in one sentence naming the extra, never a traceback.
EXTRAS = {"aiohttp": "web", "zeroconf": "web", "ifaddr": "web", "pyttsx3": "speech", "vosk": "voice",
          "pocketsphinx": "voice", "webrtcvad": "voice", "onnxruntime": "voice", "webrtc_noise_gain": "voice"}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(argv)
    except ModuleNotFoundError as exc:
        package = (exc.name or "").split(".")[0]
        if package not in EXTRAS:
            raise
        from companion.narration import Msg, catalog

        lang = argv[argv.index("--lang") + 1] if "--lang" in argv[:-1] else os.environ.get("COMPANION_LANG", "fr")
        lang = lang if lang in ("fr", "en") else "fr"
        print(catalog(lang).text(Msg("core.error.extra_missing", package=package, extra=EXTRAS[package])),
              file=sys.stderr)
        return 2


def _main(argv: list[str]) -> int:
    if argv[:1] == ["reader"] and argv[1:2] in (["pair"], ["write"]) and not (len(argv) >= 5 and argv[3].isdigit()):
        # the spoken write and pair flows (#14); `reader write PORT SLOT TEXT` stays the device's
        from companion.cli.reader_flows import main as reader_flows

        return reader_flows(argv[1:])
    if argv and argv[0] in EXTERNAL:
        import importlib

        mod, fn = EXTERNAL[argv[0]]
        return int(getattr(importlib.import_module(mod), fn)(argv[1:]) or 0)
    if argv and not argv[0].startswith("-") and argv[0] not in ("games", "play", "resume", "demo"):
        from companion.core import UnknownGame
        from companion.language.games import find_game

        entry = None
        with contextlib.suppress(UnknownGame):  # not a game: argparse says what is known
            entry = find_game(argv[0])
        if entry is not None:
            import importlib

            cli = importlib.import_module(f"companion.cli.{entry.package.rsplit('.', 1)[1]}")
            return int(cli.main(argv[1:]) or 0)
    args = build_parser().parse_args(argv)
    if args.command is None:
        build_parser().print_help()
        return 0
    from companion.cli import runner

    if getattr(args, "deadline", None) is not None:  # issue 26: what a player waits for
        from companion.games.kaliko import search

        search.DEADLINE = max(0.0, args.deadline)
    try:
        if args.command == "games":
            return runner.list_games(args.lang)
        if args.command == "play":
            return runner.play(args)
        if args.command == "resume":
            return runner.resume(args)
        if args.command == "demo":
            return runner.demo(args)
    except runner.UserError as exc:
        runner.say_error(exc)
        return 2
    except BrokenPipeError:
        # standard output closed before the game began (`companion games | head -1`): no traceback
        from companion.session.table import release_stdout

        release_stdout()
        return 0
    return 0


def env_default(name: str, default: Any) -> Any:
    return os.environ.get(name, default)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
