"""Command lines: `companion rules ...`, `companion qr ...`, `companion serve ...`.

    companion rules GAME [--lang fr|en] [--chapter N] [--listener NAME]   the spoken player
    companion rules --scan IMAGE                                           scan a label, then play
    companion rules --scan camera [--camera PATH] [--timeout S]            the camera reads the label
    companion rules build [--game G] [--lang L] [--format ogg|flac] [--force]
    companion rules export DIR
    companion qr GAME|all [--lang L] [--base-url URL | --port N] [--out FILE.svg|.png|.pdf] [--verify] [--brf]
                          [--verify-export DIR]
    companion serve [--port 8765] [--lan [--mdns-interfaces ADDR,...] [--no-mdns]]
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path

from companion.audiorules import DEFAULT_PORT, GAMES, LANGS


def _t(ui_lang: str, msg_id: str, **params: object) -> str:
    from companion.narration import Msg, catalog

    return catalog(ui_lang).text(Msg(msg_id, **params))


def _default_lang() -> str:
    env = (os.environ.get("COMPANION_LANG") or os.environ.get("LANG") or "fr")[:2].lower()
    return env if env in LANGS else "fr"


def _listener() -> str:
    try:
        return os.environ.get("COMPANION_PLAYER") or getpass.getuser() or "default"
    except Exception:  # noqa: BLE001 - no user name in some containers
        return "default"


# --- companion rules -----------------------------------------------------------------------------
def rules_main(argv: list[str] | None = None, *, input_fn=input, print_fn=print, speaker=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["build"]:
        return _build_main(argv[1:], print_fn)
    if argv[:1] == ["export"]:
        return _export_main(argv[1:], print_fn)
    p = argparse.ArgumentParser(
        prog="companion rules",
        description="Listen to a game's rules, chapter by chapter (also: companion rules build | export DIR).",
    )
    p.add_argument("game", nargs="?", choices=GAMES, help="the game")
    p.add_argument("--lang", choices=LANGS, default=None, help="language of the rules (default fr)")
    p.add_argument("--scan", metavar="IMAGE", type=Path,
                   help="read the QR code of a label in a photo or scan; `camera`: through the camera")
    p.add_argument("--camera", metavar="PATH", default=None,
                   help="with --scan camera: a V4L2 device (default /dev/video0) or a video file")
    p.add_argument("--timeout", type=float, default=60.0, help="with --scan camera: seconds of looking (default 60)")
    p.add_argument("--chapter", help="start with this chapter (number or name)")
    p.add_argument("--listener", default=None, help="whose place to remember (default: your user name)")
    p.add_argument("--engine", default="auto", help="speech engine (auto, espeak-ng, pyttsx3, speech-dispatcher, text)")
    p.add_argument("--output", default="auto", help="audio output (auto, device:NAME, file:PATH.wav, null)")
    args = p.parse_args(argv)
    lang = args.lang or _default_lang()
    game = args.game
    if str(args.scan) == "camera" or (args.camera is not None and args.scan is None and game is None):
        return _camera_main(args, lang, input_fn=input_fn, print_fn=print_fn, speaker=speaker)
    if args.scan is not None:
        from companion.audiorules.manifest import load
        from companion.audiorules.scan import NoDecoder, Unreadable, decode, find_rules

        try:
            texts = decode(args.scan)
        except NoDecoder:
            print_fn(_t(lang, "rules.scan_no_decoder"))
            return 1
        except Unreadable as exc:
            print_fn(_t(lang, "rules.scan_unreadable", path=str(args.scan), reason=str(exc)))
            return 1
        if not texts:
            print_fn(_t(lang, "rules.scan_none", path=str(args.scan)))
            return 1
        hit = find_rules(texts)
        if hit is None:
            print_fn(_t(lang, "rules.scan_foreign", text=" | ".join(texts)[:300]))
            return 1
        game, lang = hit[0], args.lang or hit[1]
        print_fn(_t(lang, "rules.scan_found", game=load(game, lang).title, language=_t(lang, "rules.lang_name")))
    if game is None:
        p.print_usage(sys.stderr)
        print_fn(_t(lang, "rules.error", detail="GAME or --scan IMAGE"))
        return 2
    return play(game, lang, chapter=args.chapter, listener=args.listener or _listener(),
                engine=args.engine, output=args.output, input_fn=input_fn, print_fn=print_fn, speaker=speaker,
                camera=args.camera)


def _open_speaker(engine: str, output: str, lang: str, listener: str, print_fn):
    """The listener's speaker, or None (said) when the engine or output is refused."""
    from companion.narration import Priority, catalog
    from companion.outputs.profile import Profile
    from companion.outputs.speaker import open_speaker

    try:
        speaker = open_speaker(engine=engine, output=output, lang=lang, profile=Profile.for_player(listener))
    except ValueError as exc:
        print_fn(_t(lang, "rules.error", detail=str(exc)))
        return None
    for note in speaker.describe():  # only what went wrong: a missing engine or sound device
        if note.priority == Priority.IMPORTANT:
            print_fn(catalog(lang).render(note))
    return speaker


def play(game: str, lang: str, *, chapter: str | None = None, listener: str = "default", engine: str = "auto",
         output: str = "auto", input_fn=input, print_fn=print, speaker=None, scan_fn=None, paced=None,
         camera: str | None = None) -> int:
    """The spoken player; `scan_fn()` -> (game, lang) | None reads a label (« lis le code »),
    after which the player goes on with the game read."""
    from companion.audiorules.manifest import ManifestError, load
    from companion.audiorules.player import RulesPlayer

    own = speaker is None
    if own:
        speaker = _open_speaker(engine, output, lang, listener, print_fn)
        if speaker is None:
            return 2
    if scan_fn is None:
        scan_fn = lambda: camera_scan(speaker, lang, print_fn, camera, pace=own)  # noqa: E731
    if paced is None:
        paced = own and not _has_sound(speaker)
    say_paced = paced
    try:
        while True:
            try:
                man = load(game, lang)
            except ManifestError as exc:
                print_fn(_t(lang, "rules.error", detail=str(exc)))
                return 1
            if say_paced:
                print_fn(_t(lang, "rules.player_paced"))
                say_paced = False
            player = RulesPlayer(man, speaker, listener=listener, input_fn=input_fn, print_fn=print_fn, paced=paced,
                                 scan_fn=scan_fn)
            rc = player.run(chapter)
            if player.switch_to is None:
                return rc
            (game, lang), chapter = player.switch_to, None
    finally:
        if own:
            speaker.wait(10)
            speaker.close()


def _camera_main(args, lang: str, *, input_fn, print_fn, speaker) -> int:
    """`companion rules --scan camera [--camera PATH]`: look for a label, then play its rules."""
    listener = args.listener or _listener()
    own = speaker is None
    if own:
        speaker = _open_speaker(args.engine, args.output, lang, listener, print_fn)
        if speaker is None:
            return 2
    try:
        scan = lambda: camera_scan(speaker, lang, print_fn, args.camera, args.timeout, pace=own)  # noqa: E731
        hit = scan()
        if hit is None:
            return 1
        game, rules_lang = hit[0], args.lang or hit[1]
        return play(game, rules_lang, chapter=args.chapter, listener=listener, input_fn=input_fn, print_fn=print_fn,
                    speaker=speaker, scan_fn=scan, paced=own and not _has_sound(speaker), camera=args.camera)
    finally:
        if own:
            speaker.wait(10)
            speaker.close()


def camera_scan(speaker, lang: str, print_fn, camera: str | None = None, timeout: float = 60.0, *,
                pace: bool = False, on_frame=None, on_found=None) -> tuple[str, str] | None:
    """Look through the camera (or a video file) for a rules label, guiding by sound; says
    which game and language it opens and returns them, or says in one sentence why not."""
    from companion.audiorules.camera import CameraError, open_frames, scan_camera
    from companion.audiorules.manifest import load
    from companion.narration import Priority

    def tell(msg_id: str, params: dict) -> None:
        text = _t(lang, msg_id, **params)
        print_fn(text)
        speaker.say(text, Priority.MESSAGE)

    def earcon(name: str) -> None:
        if name == "seek":  # dropped while a sentence is said: the guidance never queues up
            speaker.say("", Priority.NOTIFICATION, "seek")

    try:
        frames = open_frames(camera)
    except CameraError as exc:
        tell(exc.msg_id, {"path": exc.path, "reason": exc.reason})
        return None
    try:
        result = scan_camera(frames, tell=tell, earcon=earcon, timeout=timeout, pace=pace, on_frame=on_frame)
    except KeyboardInterrupt:  # Ctrl+C: the listener stopped looking
        return None
    finally:
        frames.close()
    if result.game is None or result.lang is None:
        return None
    text = _t(result.lang, "rules.scan_found", game=load(result.game, result.lang).title,
              language=_t(result.lang, "rules.lang_name"))
    if on_found is not None:
        on_found(text)
    print_fn(text)
    speaker.say(text, Priority.MESSAGE, "found")  # the success earcon, then the words
    return result.game, result.lang


def _has_sound(speaker: object) -> bool:
    """Whether the speaker really sounds: a speech engine (not text) on a device (not silence or a file)."""
    engine = getattr(getattr(speaker, "engine", None), "name", "")
    sink = getattr(getattr(speaker, "player", None), "sink", None)
    return engine != "text" and getattr(sink, "kind", "device") not in ("null", "file")


def _build_main(argv: list[str], print_fn) -> int:
    from companion.audiorules.build import DEFAULT_ENGINE, DEFAULT_RATE, build_manifest
    from companion.audiorules.manifest import ManifestError, build_dir, load

    p = argparse.ArgumentParser(prog="companion rules build",
                                description="Synthesize every chapter into compressed audio (reproducibly).")
    p.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    p.add_argument("--lang", action="append", choices=LANGS, help="only this language (repeatable)")
    p.add_argument("--engine", default=DEFAULT_ENGINE, help=f"speech engine (default {DEFAULT_ENGINE})")
    p.add_argument("--rate", type=int, default=DEFAULT_RATE, help=f"words per minute (default {DEFAULT_RATE})")
    p.add_argument("--format", choices=("ogg", "flac"), default="ogg", help="audio format (default ogg)")
    p.add_argument("--force", action="store_true", help="synthesize even chapters that are up to date")
    args = p.parse_args(argv)
    lang_ui = _default_lang()
    count = 0
    try:
        for game in args.game or GAMES:
            for lang in args.lang or LANGS:
                def report(r, lang=lang):
                    state = _t(lang_ui, "rules.build_new" if r.synthesized else "rules.build_kept")
                    print_fn(_t(lang_ui, "rules.build_chapter", game=r.game, lang=r.lang, chapter=r.chapter,
                                duration=f"{r.duration:.1f}", state=state))

                count += len(build_manifest(load(game, lang), engine_name=args.engine, rate=args.rate,
                                            fmt=args.format, force=args.force, progress=report))
    except ManifestError as exc:
        print_fn(_t(lang_ui, "rules.error", detail=str(exc)))
        return 1
    except Exception as exc:  # the speech engine is missing or failed
        from companion.outputs.speech import SpeechError, UnavailableEngine

        if isinstance(exc, (UnavailableEngine, SpeechError)):
            print_fn(_t(lang_ui, "rules.error", detail=str(exc)))
            return 1
        raise
    print_fn(_t(lang_ui, "rules.build_done", n=count, path=str(build_dir())))
    return 0


def _export_main(argv: list[str], print_fn) -> int:
    from companion.audiorules.manifest import ManifestError
    from companion.audiorules.site import export

    p = argparse.ArgumentParser(prog="companion rules export",
                                description="Write the rules pages and their audio as static files.")
    p.add_argument("dir", type=Path, help="destination folder")
    p.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    args = p.parse_args(argv)
    try:
        written = export(args.dir, args.game or GAMES)
    except (ManifestError, OSError) as exc:
        print_fn(_t(_default_lang(), "rules.error", detail=str(exc)))
        return 1
    print_fn(_t(_default_lang(), "rules.export_done", n=len(written), path=str(args.dir)))
    return 0


# --- companion qr --------------------------------------------------------------------------------
def qr_main(argv: list[str] | None = None, *, print_fn=print) -> int:
    from companion.audiorules.announce import (
        AnnounceError,
        home_base_url,
        lan_addresses,
        parse_interfaces,
    )
    from companion.audiorules.manifest import ManifestError
    from companion.audiorules.qrlabel import is_local_only, rules_url, write_label

    p = argparse.ArgumentParser(prog="companion qr",
                                description="Make a printable label whose QR code opens a game's audio rules.")
    p.add_argument("game", choices=GAMES + ("all",), help="the game, or all (every game and language)")
    p.add_argument("--lang", choices=LANGS, default=None, help="language of the rules (default fr)")
    p.add_argument("--base-url", default=None,
                   help="where the rules pages are served (default: the name `companion serve --lan` "
                   "announces, http://companion.local:8765)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the port of `companion serve` (default {DEFAULT_PORT})")
    p.add_argument("--out", type=Path, help="FILE.svg, FILE.png or FILE.pdf (default rules-GAME-LANG.svg); "
                   "with all: a folder")
    p.add_argument("--format", choices=("svg", "png", "pdf"), default="svg", help="with all: the file format")
    p.add_argument("--verify", action="store_true", help="decode the written label and check its address")
    p.add_argument("--verify-export", type=Path, metavar="DIR",
                   help="check that DIR (from `companion rules export DIR`) holds the page the label opens")
    p.add_argument("--no-spare", action="store_true", help="with the default address: no spare label at the plain address")
    p.add_argument("--brf", action="store_true", help="also write the braille line as FILE.brf, for an embosser")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    lang_ui = args.lang or _default_lang()
    home = args.base_url is None
    base_url = home_base_url(args.port) if home else args.base_url
    spare_base = None
    if home and not args.no_spare:
        try:
            plain = parse_interfaces(None) or lan_addresses()
        except AnnounceError:
            plain = lan_addresses()
        plain = [a for a in plain if not a.startswith("127.")]
        if plain:
            spare_base = f"http://{plain[0]}:{args.port}"
    if args.game == "all":
        folder = args.out or Path("labels")
        jobs = [(g, lg, folder / f"rules-{g}-{lg}.{args.format}") for g in GAMES for lg in (
            [args.lang] if args.lang else LANGS)]
    else:
        lang = args.lang or _default_lang()
        jobs = [(args.game, lang, args.out or Path(f"rules-{args.game}-{lang}.svg"))]
    status = 0
    for game, lang, out in jobs:
        try:
            path = write_label(game, lang, out, base_url)
        except (ValueError, OSError, ManifestError) as exc:
            print_fn(_t(lang_ui, "rules.error", detail=str(exc)))
            return 1
        url = rules_url(game, lang, base_url)
        print_fn(_t(lang_ui, "rules.label_written", path=str(path), url=url))
        if home:
            print_fn(_t(lang_ui, "rules.label_home", url=url))
        elif is_local_only(base_url):
            print_fn(_t(lang_ui, "rules.label_localhost", url=url))
        written = [(path, url)]
        if spare_base:
            spare = write_label(game, lang, path.with_name(f"{path.stem}-address{path.suffix}"), spare_base)
            spare_url = rules_url(game, lang, spare_base)
            print_fn(_t(lang_ui, "rules.label_plain_written", path=str(spare), url=spare_url))
            written.append((spare, spare_url))
        if args.brf:
            from companion.audiorules.qrlabel import write_brf

            brf = write_brf(game, lang, path.with_suffix(".brf"))
            print_fn(_t(lang_ui, "rules.brf_written", path=str(brf)) if brf else _t(lang_ui, "rules.brf_unavailable"))
        if args.verify:
            from companion.audiorules.scan import NoDecoder, decode

            for file, expected in written:
                try:
                    texts = decode(file)
                except NoDecoder:
                    print_fn(_t(lang_ui, "rules.scan_no_decoder"))
                    return 1
                if texts != [expected]:
                    print_fn(_t(lang_ui, "rules.error", detail=f"{file}: decoded {texts!r}, expected {expected!r}"))
                    status = 1
        if args.verify_export is not None:
            from companion.audiorules.site import verify_export

            missing, audio = verify_export(args.verify_export, game, lang)
            if missing:
                print_fn(_t(lang_ui, "rules.export_missing", dir=str(args.verify_export), url=url, file=missing,
                            base=base_url))
                status = 1
            else:
                print_fn(_t(lang_ui, "rules.export_verified", dir=str(args.verify_export), url=url,
                            file=f"{game}/{lang}/index.html", n=audio))
    return status


# --- companion serve -----------------------------------------------------------------------------
def serve_main(argv: list[str] | None = None, *, print_fn=print) -> int:
    from companion.audiorules.manifest import ManifestError
    from companion.audiorules.server import make_server, port_number, port_problem

    p = argparse.ArgumentParser(prog="companion serve",
                                description="Serve the rules pages (localhost only unless --lan).")
    p.add_argument("--port", type=port_number, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--lan", action="store_true", help="listen on every interface, for phones on the local network")
    p.add_argument("--verbose", action="store_true", help="print every request")
    p.add_argument("--build", action="store_true", help="build any missing rules audio while serving")
    p.add_argument("--no-build", action="store_true", help="do not build the rules audio, even on a fresh set-up")
    add_mdns_options(p)
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    lang = _default_lang()
    from companion.audiorules.announce import AnnounceError, announce_lan, parse_interfaces

    try:
        interfaces = parse_interfaces(args.mdns_interfaces) if args.lan else None
    except AnnounceError as exc:
        print_fn(_t(lang, "rules.error", detail=str(exc)))
        return 2
    try:
        server = make_server(args.port, args.lan, quiet=not args.verbose, hosts=interfaces)
    except ManifestError as exc:
        print_fn(_t(lang, "rules.error", detail=str(exc)))
        return 1
    except OSError as exc:
        print_fn(_t(lang, "rules.error", detail=port_problem(exc, args.port)))
        return 1
    port = server.server_address[1]
    handler_files = server.files
    # A fresh set-up (no audio at all) builds it while serving, so a scanned label plays;
    # `--build` completes a partial build the same way.
    fresh = not any(name.endswith((".ogg", ".flac")) for name in handler_files)
    building = None
    if args.build or (fresh and not args.no_build):
        building = build_missing_in_background(print_fn, lang, on_done=lambda: _refresh(server),
                                              on_progress=lambda: _refresh(server))
    if building is None and fresh:
        print_fn(_t(lang, "rules.page_no_audio"))
    announcing, announced = None, []
    if args.lan:
        import threading

        print_fn(_t(lang, "rules.serve_lan"))
        # in its own thread: the pages are served at once, during the 3 to 5 s the name takes
        announcing = threading.Thread(name="mdns", daemon=True, target=lambda: announced.append(
            announce_lan(port, interfaces, print_fn, lang, enabled=not args.no_mdns)))
        announcing.start()
    else:
        print_fn(_t(lang, "rules.serve_listening", url=f"http://localhost:{port}/"))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print_fn("")  # Ctrl-C ends serving: the shell's prompt on a line of its own, no traceback
    finally:
        if announcing is not None:
            announcing.join(15)
        for announcer in announced:
            if announcer is not None:
                announcer.close()
        if building is not None:
            building.stop()
        server.server_close()
        print_fn(_t(lang, "rules.serve_stopped"))
    return 0


def add_mdns_options(p: argparse.ArgumentParser) -> None:
    """The mDNS options of `serve --lan` and `play --web --lan`."""
    p.add_argument("--mdns-interfaces", metavar="ADDR[,ADDR]", default=None,
                   help="with --lan: announce the name on these interface addresses only "
                   "(default: COMPANION_MDNS_INTERFACES, else every interface but loopback)")
    p.add_argument("--no-mdns", action="store_true", help="with --lan: do not announce companion.local")


def missing_audio() -> list[tuple[str, str, int]]:
    """(game, lang, chapters to build) for every manifest with a chapter not built, stale, or
    without its MP3."""
    from companion.audiorules.manifest import load

    out = []
    for game in GAMES:
        for lang in LANGS:
            man = load(game, lang)
            todo = sum(1 for ch in man.chapters if not ch.built or not ch.audio_file.with_suffix(".mp3").exists())
            if todo:
                out.append((game, lang, todo))
    return out


def _lower_priority() -> None:
    """The build child yields to the server (the pages stay quick while it synthesizes)."""
    import os

    os.nice(10)


class BackgroundBuild:
    """The missing rules audio built by a child process (`stop` ends it at once: each file is
    written whole or not at all), its progress lines relayed to `print_fn`."""

    def __init__(self, todo: list[tuple[str, str, int]], print_fn, lang_ui: str, on_done=None,
                 on_progress=None) -> None:
        import os
        import subprocess
        import threading

        self.proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; from companion.cli.rules import build_missing; "
             "sys.exit(build_missing(sys.argv[1:]))", *(f"{g}:{lg}:{n}" for g, lg, n in todo)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8",
            env={**os.environ, "COMPANION_LANG": lang_ui},
            preexec_fn=_lower_priority if hasattr(os, "nice") else None,  # noqa: PLW1509 - only os.nice
        )
        self.print_fn, self.on_done, self.on_progress = print_fn, on_done, on_progress
        self.thread = threading.Thread(target=self._relay, name="rules-build", daemon=True)
        self.thread.start()

    def _relay(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.print_fn(line.rstrip("\n"))
            if self.on_progress is not None:  # a chapter was built (or the build began): offer it
                self.on_progress()
        if self.proc.wait() == 0 and self.on_done is not None:
            self.on_done()

    def join(self, timeout: float | None = None) -> None:
        self.thread.join(timeout)

    def stop(self) -> None:
        """At once: files are written whole or not at all (a temporary file, then a rename)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(2)


def build_missing_in_background(print_fn, lang_ui: str, on_done=None, on_progress=None) -> BackgroundBuild | None:
    """`companion serve` on a fresh set-up: the missing rules audio is built while the pages are
    already served (a label scanned meanwhile shows its transcript), with progress, chapter by
    chapter; `on_done` then lets the server offer the new files. None when nothing is missing."""
    todo = missing_audio()
    if not todo:
        return None
    return BackgroundBuild(todo, print_fn, lang_ui, on_done, on_progress)


def build_missing(items: list[str]) -> int:
    """The child process of `BackgroundBuild`: build each "game:lang:chapters" given, one line
    per chapter."""
    from companion.audiorules.build import build_manifest
    from companion.audiorules.manifest import load

    lang_ui = _default_lang()
    todo = [(g, lg, int(n)) for g, lg, n in (item.split(":") for item in items)]
    total = sum(n for _, _, n in todo)
    print(_t(lang_ui, "rules.serve_building", n=total), flush=True)
    done = 0
    try:
        for game, lang, _n in todo:
            def report(r, game=game, lang=lang) -> None:
                nonlocal done
                if r.synthesized:
                    done += 1
                    print(_t(lang_ui, "rules.serve_built_chapter", game=game, lang=lang, chapter=r.chapter,
                             k=min(done, total), n=total), flush=True)

            build_manifest(load(game, lang), progress=report)
    except Exception as exc:  # a missing speech engine: the pages still serve their transcripts
        print(_t(lang_ui, "rules.error", detail=str(exc)), flush=True)
        return 1
    print(_t(lang_ui, "rules.serve_built"), flush=True)
    return 0


def _refresh(server) -> None:
    """Let the running server offer the files just built: a label scanned while the build goes
    on plays each chapter as soon as it is built."""
    from companion.audiorules.site import site_files

    server.refresh(site_files())


def main(argv: list[str] | None = None) -> int:
    """`python -m companion.cli.rules rules|qr|serve ...`: the same commands as `companion rules`,
    `qr` and `serve`, run as a module (the tests' and the rules build's child processes)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    tools = {"rules": rules_main, "qr": qr_main, "serve": serve_main}
    if not argv or argv[0] not in tools:
        print("usage: python -m companion.cli.rules {rules,qr,serve} ...", file=sys.stderr)
        return 2
    return tools[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main())
