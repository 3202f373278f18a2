"""`companion voice ...`: check a microphone and a model.

    companion voice recognize FILE.wav --game kissa [--lang en] [--journal FILE] [--seat NAME] --json
    companion voice test [--device N] [--game kikoi] [--lang en] [--seconds 30]
    companion voice devices
    companion voice say "help" --out help.wav [--voice en-us]      (a test recording by espeak-ng)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.inputs.voice.grammar import PhraseSet
from companion.inputs.voice.options import ENGINES
from companion.inputs.voice.recognizer import NoModel


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion voice", description="Offline voice commands: check a recording, a microphone, a model.")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND")
    rec = sub.add_parser("recognize", help="one recorded utterance against what is sayable in a game's state")
    rec.add_argument("wav", type=Path)
    _state_args(rec)
    rec.add_argument("--json", action="store_true", help='print {"text", "line", "confidence", "command", "read_back"}')
    test = sub.add_parser("test", help="listen to the microphone and print what is heard")
    _state_args(test)
    test.add_argument("--device", default=None, help="input device (index or name; see `companion voice devices`)")
    test.add_argument("--seconds", type=float, default=30.0)
    test.add_argument("--voice-input", type=Path, default=None, help="a WAV file instead of the microphone")
    sub.add_parser("devices", help="list the microphones")
    say = sub.add_parser("say", help="write a phrase spoken by espeak-ng to a 16 kHz WAV (a test recording)")
    say.add_argument("text")
    say.add_argument("--out", type=Path, required=True)
    say.add_argument("--voice", default="en-us")
    say.add_argument("--rate", type=int, default=160)
    return p


def _state_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default="kissa", help="game name or alias")
    p.add_argument("--lang", choices=("fr", "en"), default="en")
    p.add_argument("--journal", type=Path, default=None, help="the state: a saved game (default: a new game)")
    p.add_argument("--seat", default=None, help="who speaks (default: the player to move)")
    p.add_argument("--players", default="Marie,Paul", help="names for a new game")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--voice-model", type=Path, default=None, help="a vosk model folder (French: vosk-model-small-fr)")
    p.add_argument("--engine", choices=ENGINES,
                   default="auto")
    p.add_argument("--whisper-model", type=Path, default=None, help="a faster-whisper model folder (default: the packaged one)")


def state_of(args: argparse.Namespace) -> tuple[Any, Any, int]:
    """(ui, match, seat) for the game and journal given."""
    from companion.core import Match, find
    from companion.session.transcript import load

    if args.journal is not None:
        from companion.saves import journal as jr

        c = jr.read(args.journal)
        entry = find(c.start["game"])
        game, ui, _bots = load(entry, **dict(c.start.get("options", {})))
        match = Match(game, list(c.start["players"]), int(c.start["seed"]))
        match.replay(c.actions)
    else:
        from companion.language.games import find_game

        entry = find_game(args.game)
        game, ui, _bots = load(entry)
        names = [n.strip() for n in args.players.split(",") if n.strip()]
        while len(names) < game.min_players:
            names.append(f"Joueur {len(names) + 1}")
        match = Match(game, names[: max(game.min_players, min(len(names), game.max_players))], args.seed)
    seat = match.current if match.current is not None else 0
    if args.seat:
        from companion.core import fold

        seat = next((i for i, n in enumerate(match.players) if fold(n) == fold(args.seat)), seat)
    return ui, match, seat


def phrases_of(args: argparse.Namespace) -> tuple[PhraseSet, Any, Any, int]:
    from companion.inputs.voice.sayable import sayable_now

    ui, match, seat = state_of(args)
    return sayable_now(ui, match, seat, args.lang), ui, match, seat


def _recognizer(args: argparse.Namespace) -> Any:
    from companion.inputs.voice.engines import open_engine

    return open_engine(args.lang, args.engine, args.voice_model, args.whisper_model)


def voice_main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.cmd is None:
        build_parser().print_help()
        return 0
    if args.cmd == "devices":
        from companion.inputs.voice.sources import list_inputs

        try:
            for i, name in list_inputs():
                print(f"{i}: {name}")
        except Exception as exc:  # noqa: BLE001 - no PortAudio or no device: say so
            print(f"no microphone found ({exc})", file=sys.stderr)
            return 1
        return 0
    if args.cmd == "say":
        from companion.inputs.voice.sources import write_wav
        from companion.inputs.voice.synth import utterance

        write_wav(args.out, utterance(args.text, args.voice, args.rate))
        return 0
    pcm = None
    if args.cmd == "recognize":  # the recording first: a bad one is said before any model loads
        from companion.inputs.voice.sources import ONE_COMMAND_S, BadRecording, read_wav

        try:
            pcm = read_wav(args.wav, max_seconds=ONE_COMMAND_S)
        except BadRecording as exc:
            return tell_bad_recording(exc, args.lang, as_json=args.json)
    try:
        recognizer = _recognizer(args)
    except NoModel as exc:
        tell_no_model(exc)
        return 3
    if pcm is not None:
        phrases, *_ = phrases_of(args)
        recognizer.set_phrases(phrases)
        result = recognizer.recognize(pcm)
        if args.json:
            print(json.dumps({**result.to_json(), **taken_as(result, phrases, *_)}, ensure_ascii=False, default=str))
        else:
            print(f"{result.line or '-'}\t{result.confidence:.2f}\t({result.text})")
        return 0
    return listen_and_print(args, recognizer)


def command_json(command: Any, ui: Any) -> Any:
    """A typed command as JSON: its kind (the grammar's) and its fields; several for an ambiguity."""
    import dataclasses

    from companion.games.base import Ambiguous

    if command is None:
        return None
    if isinstance(command, Ambiguous):
        return {"kind": "ambiguous", "commands": [command_json(c, ui) for c in command.commands]}
    kind = next((k for k, make in getattr(ui, "COMMANDS", {}).items() if make is type(command)), type(command).__name__)
    fields = dataclasses.asdict(command) if dataclasses.is_dataclass(command) and not isinstance(command, type) else {"value": command}
    return {"kind": kind, **fields}


def taken_as(result: Any, phrases: PhraseSet, ui: Any, match: Any, seat: int) -> dict[str, Any]:
    """`command` (what the line is: the game's typed command, or a shared word) and `read_back`
    (whether the session would read it back before anything changes), asked of a session core
    on a replica of the match: the session's own rules, not a copy of them (issue 24). A line
    heard below the talk floor is what the live listener drops as talk: `talk` true, no command."""
    from companion.inputs.voice.listener import is_talk
    from companion.session import Seat, SessionCore
    from companion.session.commands import global_command
    from companion.session.inbox import Line
    from companion.session.outputs import InputTaken, replica

    if result.line is None:
        return {"command": None, "read_back": False}
    if is_talk(result.confidence, phrases.lang):  # the live listener drops it as talk: no command
        return {"command": None, "read_back": False, "talk": True}
    command = phrases.read(result.line, None) if phrases.read is not None else None
    word = global_command(result.line)
    shown = command_json(command, ui) if command is not None else ({"kind": "shared", "word": word} if word else None)
    core = SessionCore(ui.game.name, ui.probe(), replica(match), [Seat(n) for n in match.players], lang=phrases.lang,
                       private_policy="table")
    core.start()
    out = core.handle(Line(result.line, seat, "voice", result.confidence, heard=result.text, command=command))
    taken = next((o for o in out if isinstance(o, InputTaken)), None)
    return {"command": shown, "read_back": taken is not None and taken.outcome == "confirm"}


def tell_bad_recording(exc: Any, lang: str, *, as_json: bool = False) -> int:
    """A recording that cannot be heard: its one sentence, printed (as JSON with --json) and
    spoken when speech works; exit status 2."""
    from companion.narration import Msg, catalog

    text = catalog(lang).text(Msg(exc.msg_id, **exc.params))
    if as_json:
        print(json.dumps({"error": exc.reason, "message": text}, ensure_ascii=False))
    from companion.outputs.speaker import say_and_print

    say_and_print(text, lang, wait=10)
    return 2


def tell_no_model(exc: NoModel) -> None:
    """Printed, and spoken when speech works: where to put a model and how to get one."""
    from companion.outputs.speaker import say_and_print

    say_and_print(str(exc), exc.lang, wait=30)


def listen_and_print(args: argparse.Namespace, recognizer: Any) -> int:
    import threading

    from companion.inputs.voice.listener import Heard, Listener
    from companion.inputs.voice.sources import BadRecording, MicSource, WavSource
    from companion.session.inbox import Inbox

    phrases, *_ = phrases_of(args)
    if args.voice_input is not None:
        try:
            source: Any = WavSource(args.voice_input, realtime=False)
        except BadRecording as exc:
            return tell_bad_recording(exc, args.lang)
    else:
        try:
            device = int(args.device) if args.device is not None and str(args.device).isdigit() else args.device
            source = MicSource(device)
        except Exception as exc:  # noqa: BLE001 - no PortAudio, no device
            print(f"no microphone ({exc}); try `companion voice devices`", file=sys.stderr)
            return 1

    def show(h: Heard) -> None:
        r = h.result
        lat = f"{h.latency * 1000:.0f} ms" if h.latency is not None else "-"
        print(f"{r.line or '(nothing listed)'}\tconfidence {r.confidence:.2f}\t{lat}\t[{r.text}]", flush=True)

    print(f"Listening ({len(phrases)} phrases, e.g. {', '.join(m.phrase for m in phrases.phrases()[:6])})...", flush=True)
    listener = Listener(source, recognizer, Inbox(), lambda: phrases, on_heard=show).start()
    if args.voice_input is None:
        threading.Event().wait(args.seconds)
        listener.stop()
    else:
        listener.join()
    return 0


def main(argv: list[str] | None = None) -> int:
    return voice_main(argv)
