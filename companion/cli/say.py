"""`companion say` and `companion earcons`: check the sound set-up, or make sound files.

    companion say "C'est au tour de Marie." --lang fr --out x.wav
    companion say "It is Mary's turn." --lang en --speech pyttsx3
    companion earcons --lang fr            # plays each earcon and says what it means
    companion earcons --out audio/earcons  # writes turn.wav, move.wav, ...

Every line said is also printed; with no sound card the commands still work and print
where the sound went (a file, or nowhere).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from companion.narration import Priority, Raw, Utterance, Verbosity, catalog, say
from companion.outputs.speech import ENGINE_NAMES, SpeechError, UnavailableEngine, get_engine


def _print(out: TextIO, lang: str, utts: list[Utterance], verbosity: Verbosity = Verbosity.NORMAL) -> None:
    cat = catalog(lang)
    for u in utts:
        print(cat.render(u, verbosity), file=out, flush=True)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=("fr", "en"), default="fr", help="language (fr or en)")
    parser.add_argument(
        "--speech", default="auto", metavar="ENGINE",
        help=f"speech engine: {', '.join(ENGINE_NAMES)} (default auto)",
    )
    parser.add_argument(
        "--output", default="auto", metavar="SPEC",
        help="where to play: auto, device, device:NAME[:left|:right], file:PATH.wav, null",
    )
    parser.add_argument("--verbose", action="store_true", help="say more about the set-up")


def say_main(argv: list[str], out: TextIO | None = None) -> int:
    out = out or sys.stdout
    parser = argparse.ArgumentParser(
        prog="companion say",
        description="Say a sentence, or write it to a WAV file (to check the sound set-up).",
    )
    parser.add_argument("text", nargs="+", help="what to say")
    _common(parser)
    parser.add_argument("--out", metavar="FILE.wav", type=Path, help="write the speech to this WAV file")
    parser.add_argument("--rate", type=int, default=None, help="words per minute (80 to 450; default 175)")
    parser.add_argument("--voice", default=None, help="engine voice, e.g. fr-be, en-us, fr+f3")
    args = parser.parse_args(argv)
    text = " ".join(args.text).strip()
    lang = args.lang
    verbosity = Verbosity.VERBOSE if args.verbose else Verbosity.NORMAL

    if args.out is not None:
        return _say_to_file(text, lang, args, out, verbosity)

    from companion.outputs.profile import Profile
    from companion.outputs.speaker import open_speaker, parse_output

    try:
        parse_output(args.output)
    except ValueError as exc:
        parser.error(str(exc))
    profile = Profile(language=lang, rate=args.rate or 175, voice=args.voice)
    speaker = open_speaker(args.speech, args.output, lang, profile=profile)
    try:
        # which voice and where the sound goes: printed and spoken
        for note in speaker.describe():
            _print(out, lang, [note], verbosity)
            speaker.say_utterance(note, verbosity)
        print(text, file=out, flush=True)
        item = speaker.say(text, Priority.MESSAGE, lang=lang)
        speaker.wait(timeout=60)
        _print(out, lang, speaker.notices(), verbosity)
        if speaker.player.errors:
            print("; ".join(speaker.player.errors), file=sys.stderr)
            return 1
        return 0 if item.done.is_set() else 1
    finally:
        speaker.close()


def _say_to_file(text: str, lang: str, args: argparse.Namespace, out: TextIO, verbosity: Verbosity) -> int:
    import soundfile as sf

    notes: list[Utterance] = []
    try:
        engine = get_engine(args.speech)
    except UnavailableEngine as exc:
        notes.append(say("speech.engine_unavailable", Priority.IMPORTANT,
                         engine=Raw(exc.name), reason=Raw(exc.reason)))
        engine = get_engine("auto")
    notes.append(say(f"speech.engine.{engine.name.replace('-', '_')}"))
    if not engine.produces_audio:
        _print(out, lang, notes + [say("speech.say.no_audio", Priority.IMPORTANT, engine=Raw(engine.name))], verbosity)
        return 2
    try:
        samples, sr = engine.synth(text, lang, rate=args.rate or 175, voice=args.voice)
    except SpeechError as exc:
        _print(out, lang, notes, verbosity)
        print(str(exc), file=sys.stderr)
        return 1
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        sf.write(str(args.out), samples, sr, subtype="PCM_16", format="WAV")
    except Exception as exc:  # noqa: BLE001 - an unwritable place is the user's to fix
        _print(out, lang, notes + [say("speech.output.file_failed", Priority.IMPORTANT,
                                       path=Raw(str(args.out)), reason=Raw(str(exc)))], verbosity)
        return 1
    seconds = f"{len(samples) / sr:.1f}" if lang == "en" else f"{len(samples) / sr:.1f}".replace(".", ",")
    _print(out, lang, notes, verbosity)
    print(text, file=out)
    _print(out, lang, [say("speech.say.written", path=Raw(str(args.out)), seconds=seconds)], verbosity)
    return 0


def earcons_main(argv: list[str], out: TextIO | None = None) -> int:
    out = out or sys.stdout
    parser = argparse.ArgumentParser(
        prog="companion earcons",
        description="Play each earcon and say what it means, or write them as WAV files.",
    )
    _common(parser)
    parser.add_argument("--out", metavar="DIR", type=Path, help="write <name>.wav files into DIR")
    args = parser.parse_args(argv)
    lang = args.lang
    verbosity = Verbosity.VERBOSE if args.verbose else Verbosity.NORMAL
    from companion.outputs.earcons import NAMES, earcon

    meanings = [say(f"speech.earcon.{name}", earcon=name) for name in NAMES]
    if args.out is not None:
        import soundfile as sf

        try:
            args.out.mkdir(parents=True, exist_ok=True)
            for name in NAMES:
                samples, sr = earcon(name)
                sf.write(str(args.out / f"{name}.wav"), samples, sr, subtype="PCM_16", format="WAV")
        except Exception as exc:  # noqa: BLE001
            _print(out, lang, [say("speech.output.file_failed", Priority.IMPORTANT,
                                   path=Raw(str(args.out)), reason=Raw(str(exc)))], verbosity)
            return 1
        cat = catalog(lang)
        for name, u in zip(NAMES, meanings, strict=True):
            print(f"{name}.wav: {cat.render(u, verbosity)}", file=out)
        _print(out, lang, [say("speech.earcons.written", path=Raw(str(args.out)), n=len(NAMES))], verbosity)
        return 0

    from companion.outputs.speaker import open_speaker, parse_output

    try:
        parse_output(args.output)
    except ValueError as exc:
        parser.error(str(exc))
    speaker = open_speaker(args.speech, args.output, lang)
    try:
        for note in speaker.describe():
            _print(out, lang, [note], verbosity)
            speaker.say_utterance(note, verbosity)
        intro = say("speech.earcons.intro")
        _print(out, lang, [intro], verbosity)
        speaker.say_utterance(intro, verbosity)
        for u in meanings:
            _print(out, lang, [u], verbosity)
            speaker.say_utterance(u, verbosity)
        speaker.wait(timeout=120)
        _print(out, lang, speaker.notices(), verbosity)
        return 0
    finally:
        speaker.close()


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(say_main(sys.argv[1:]))
