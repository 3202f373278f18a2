"""What the `play`, `resume`, `demo` and `games` commands do: seats, speech, journal, REPL."""

from __future__ import annotations

import argparse
import errno
import gc
import os
from pathlib import Path
from typing import Any

from companion.core import GAMES, GameEntry, IllegalAction, Match, Rng, UnknownGame, find
from companion.language import yes_no
from companion.language.games import aliases, find_game, title
from companion.narration import Msg, Priority, Raw, Utterance, Verbosity, catalog, say


class UserError(Exception):
    """A mistake in what was asked; said and printed, exit status 2."""

    def __init__(self, msg_id: str, lang: str = "fr", **params: Any) -> None:
        super().__init__(msg_id)
        self.msg = Msg(msg_id, **params)
        self.lang = lang


def say_error(exc: UserError) -> None:
    from companion.outputs.speaker import say_and_print

    say_and_print(catalog(exc.lang).text(exc.msg), exc.lang)


def list_games(lang: str = "fr") -> int:
    cat = catalog(lang)
    for g in GAMES:
        line_id = "core.game_line_fixed" if g.min_players == g.max_players else "core.game_line"
        other = "en" if lang == "fr" else "fr"
        print(cat.text(Msg(line_id, name=g.name, title=title(g.name, lang), en=title(g.name, other),
                           aliases=", ".join(aliases(g.name)), lo=g.min_players, hi=g.max_players)))
    return 0


# --------------------------------------------------------------------------- set-up
def parse_options(entry: GameEntry, pairs: list[str], lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UserError("core.error.option_syntax", lang, option=pair)
        out[key.strip().replace("-", "_")] = value.strip()
    return option_words(entry, out)


def option_words(entry: GameEntry, options: dict[str, Any]) -> dict[str, Any]:
    """« physical=oui », "physical=yes": a yes or a no in any language's words (the tables),
    handed to the rules as the notation they read (true/false)."""
    declared = entry.spec().rules.options
    out = dict(options)
    for key, value in options.items():
        if key in declared and isinstance(declared[key].default, bool) and isinstance(value, str):
            answer = yes_no(value)
            if answer in ("yes", "no"):
                out[key] = "true" if answer == "yes" else "false"
    return out


def table_options(entry: GameEntry, options: dict[str, Any], humans: int, lang: str) -> dict[str, Any]:
    """The options this table plays with, decided by the game before its rules are made (so the
    save keeps them and a resume replays the same): one human among KIKOI bots is asked
    « kipirat ? » only when they hold it; a physical Good Fortune game needs the box's deck.
    A game that decides nothing plays with the options as given (`GameSpec.table_options`)."""
    try:
        return dict(entry.spec().table_options(options, humans))
    except ValueError as exc:
        msg = getattr(exc, "msg", None)
        if isinstance(msg, Msg):
            raise UserError(msg.id, lang, **msg.params) from None
        raise UserError("core.error.bad_option", lang, detail=str(exc), known="-") from None


def load_game(entry: GameEntry, options: dict[str, Any], lang: str) -> tuple[Any, Any, dict[str, Any]]:
    from companion.session.transcript import load

    declared = entry.spec().rules.options
    known = ", ".join(sorted(declared)) or "-"
    # Said in the player's language: an unknown name, or a value the option cannot take.
    unknown = sorted(set(options) - set(declared))
    if unknown:
        raise UserError("core.error.unknown_option", lang, names=", ".join(unknown), known=known)
    for key, raw in options.items():
        try:
            declared[key].coerce(raw)
        except ValueError:
            raise UserError("core.error.bad_option_value", lang, option=key, value=raw,
                            choices=_choices(declared[key], lang)) from None
    try:
        return load(entry, **options)
    except ValueError as exc:
        raise UserError("core.error.bad_option", lang, detail=str(exc), known=known) from exc


def _choices(option: Any, lang: str) -> str:
    if isinstance(option.default, bool):
        return catalog(lang).text(Msg("core.error.option_yes_no"))
    if option.choices is not None:
        return ", ".join(str(c) for c in option.choices if c is not None)
    return catalog(lang).text(Msg("core.error.option_number"))


def open_speakers(args: argparse.Namespace, lang: str, names: list[str], bots_only: bool, fallback: Path | None = None,
                  paced: bool = True, humans: list[str] | None = None, profile: Any = None) -> tuple[Any, dict[str, Any]]:
    """The table's speaker and the private ones. Rate, volume and voice live in profiles:
    the table's is the player's own when one human plays alone, else the table's."""
    engine = args.speech or os.environ.get("COMPANION_SPEECH") or ("text" if bots_only else "auto")
    if engine in ("none", "text"):
        specs = getattr(args, "private", []) or []
        if specs:  # #29: a private channel is a voice; without one it would say nothing, silently
            raise UserError("core.error.private_without_speech", lang, spec=specs[0], engine=engine)
        return None, {}
    from companion.outputs.profile import Profile
    from companion.outputs.speaker import open_speaker

    if profile is None:
        profile = Profile.for_player(humans[0] if humans and len(humans) == 1 else "table")
    try:
        table = open_speaker(engine=engine, output=args.out or "auto", lang=lang, fallback_wav=fallback,
                             paced_fallback=paced, profile=profile)
    except Exception as exc:  # noqa: BLE001 - an unusable engine must not stop the game
        raise UserError("core.error.speech", lang, engine=engine, detail=str(exc)) from exc
    private: dict[str, Any] = {}
    for spec in getattr(args, "private", []) or []:
        name, sep, output = spec.partition("=")
        if not sep or name.strip() not in names:
            raise UserError("core.error.private_syntax", lang, spec=spec, names=", ".join(names))
        try:
            private[name.strip()] = open_speaker(engine=engine, output=output.strip(), lang=lang,
                                                 profile=Profile.for_player(name.strip()))
        except ValueError as exc:
            raise UserError("core.error.private_syntax", lang, spec=spec, names=", ".join(names)) from exc
    return table, private


def unheard_humans(game: Any, names: list[str], kinds: list[str | None], seed: int, args: argparse.Namespace) -> list[str]:
    """The humans who could not hear their own hand: the companion holds the game's secrets
    (not a physical table, where each holds their real tokens or tiles), several humans play
    (one alone hears theirs from the table's speaker), and these have no --private speaker."""
    humans = [n for n, k in zip(names, kinds, strict=True) if k is None]
    if len(humans) < 2 or getattr(game, "config", {}).get("physical"):
        return []
    try:
        state, _ = game.setup(len(names), Rng(seed))
    except IllegalAction:
        return []  # not a table this game can be set up at: said when the match is made
    if not any(game.hidden_holdings(state, s) for s in range(len(names))):
        return []
    engine = getattr(args, "speech", None) or os.environ.get("COMPANION_SPEECH") or "auto"
    specs = (getattr(args, "private", []) or []) if engine not in ("none", "text") else []  # no voice: no private speaker
    given = {spec.partition("=")[0].strip() for spec in specs}
    return [n for n in humans if n not in given]


# Options that only work beside another (#29: none is dropped in silence): (option, attribute,
# the attribute it needs).
NEEDS = (
    ("--lan", "lan", "web"), ("--web-urls", "web_urls", "web"), ("--qr", "qr", "web"), ("--qr-text", "qr_text", "web"),
    ("--voice-realtime", "voice_realtime", "voice_input"), ("--barge-in", "barge_in", "voice"),
    ("--voice-wake", "voice_wake", "voice"), ("--voice-ptt", "voice_ptt", "voice"),
)


def refuse_unusable(args: argparse.Namespace, lang: str) -> None:
    """Every option that cannot be honoured is refused at the start, in one sentence saying
    why and what works instead (#29)."""
    for option, attr, needs in NEEDS:
        given, other = getattr(args, attr, None), getattr(args, needs, None)
        if given is None or given is False or (other is not None and other is not False):
            continue
        if needs == "voice" and getattr(args, "voice_input", None):
            continue  # recordings are a voice too
        raise UserError("core.error.option_needs", lang, option=option, needs="--" + needs.replace("_", "-"))


def _verbosity(args: argparse.Namespace) -> Verbosity:
    return Verbosity[(args.verbosity or "normal").upper()]


def _seats(names: list[str], kinds: list[str | None], bots: dict[str, Any], game: Any, seed: int, private: dict[str, Any]) -> list[Any]:
    from companion.session import Seat

    root = Rng(seed)
    seats = []
    for i, (name, kind) in enumerate(zip(names, kinds, strict=True)):
        bot = bots[kind](game, i, root.fork(i + 1)) if kind else None
        seats.append(Seat(name, bot=bot, speaker=private.get(name)))
    return seats


def _quiet_qr(args: argparse.Namespace, save_path: str | None) -> None:
    """--web: the table address's QR code always goes to a PNG file (#29: 15 lines of block
    characters are noise on a braille display), `--qr FILE.png` or beside the save."""
    if getattr(args, "web", False) and getattr(args, "qr", None) is None:
        from companion.saves.journal import default_dir

        base = Path(save_path) if save_path else default_dir() / "table"
        args.qr = base.with_name(base.stem + "-qr.png")
        args.qr.parent.mkdir(parents=True, exist_ok=True)


def _run(session: Any, speakers: list[Any], args: argparse.Namespace | None = None, title: str = "") -> None:
    """The table loop: the keyboard posts to the inbox in its own thread, bots search in a
    worker, seats' pages and terminals (`--web`, `--join`) post claims and lines, and this
    thread alone applies inputs, until quit or the end of input."""
    import threading

    from companion.inputs.keyboard import pump

    loop = session.loop  # the one loop of this table: the session's, with its bots' worker
    inbox = loop.inbox
    book = hub = join = None
    braille_seats = getattr(args, "braille_seats", None) if args is not None else None
    if args is not None and (getattr(args, "web", False) or getattr(args, "join", False) or braille_seats):
        from companion.inputs.web.play import announce, open_channels
        from companion.inputs.web.seats import release_target

        core = session.core
        names = [s.name for s in core.seats]
        langs = [s.lang or core.lang for s in core.seats]
        notes: list[tuple[str, dict[str, Any]]] = []
        book, hub, join = open_channels(inbox, names, core.humans, langs, core.lang, title, args, notes)
        if join is not None:  # `companion join --braille`: the status and choices of its seat (#27)
            from companion.inputs.braille.snapshot import Snapshots

            join.info = Snapshots(core)
        core.release_target = lambda text: release_target(text, names)
        session.table.on_release = book.release
        for msg_id, params in notes:
            session.tell(msg_id, None, **params)
        _quiet_qr(args, getattr(session.core, "save_path", None))
        # #29: the shared screen prints one line naming the QR file; the block QR on request
        blocks = session.table.out if getattr(args, "qr_text", False) else (lambda _text: None)
        announce(hub, args, lambda msg_id, **p: session.tell(msg_id, None, **p), blocks)
    displays: list[Any] = []
    if braille_seats and book is not None:  # --braille SEAT: a player's own display (#27)
        from companion.inputs.braille.play import start_seats

        displays = start_seats(braille_seats, book, session.core, inbox, langs,
                               lambda msg_id, **p: session.tell(msg_id, None, Priority.IMPORTANT, **p))
    # « lis le code » (issue 28): the camera looks in its own thread while the game goes on
    from companion.audiorules.ingame import GameScanner

    scanner = GameScanner(inbox.post, camera=getattr(args, "camera", None), speaker=session.table.speaker)
    session.table.on_scan = scanner
    listeners = _listen(args, session, inbox)
    ports: list[Any] = []
    readers = getattr(args, "reader", None) if args is not None else None
    if readers:  # --reader PORT[=SEAT]: each reader posts to the inbox from its own thread (#14)
        from companion.inputs.reader.run import start_readers

        ports = start_readers(readers, session.core, inbox, [s.name for s in session.core.seats],
                              say=lambda utt: session.emit([utt], remember=False))
    try:
        loop.start()
        # Start-up is over (modules, catalogs, phrase tables, the game, its opening handed to the
        # speaker): what lives now lives all game, so the collector stops walking it — full
        # collections then pause for well under a millisecond instead of tens (bench/gc_freeze.py).
        # No gc.collect() first: it would hold the interpreter ~0.1 s just as the opening is said.
        gc.freeze()
        if session.running and session.core.humans:
            keys: Any = inbox
            if book is not None:  # « Anne : libère » at the keyboard frees her seat (issue #25)
                from companion.inputs.web.play import TableKeys

                keys = TableKeys(inbox, [s.name for s in session.core.seats])
            if listeners:  # push-to-talk (--voice-ptt): the talk key opens the microphones
                from companion.inputs.voice.table import keyboard_inbox

                keys = keyboard_inbox(keys, listeners)
            threading.Thread(target=pump, args=(keys,), name="keyboard", daemon=True).start()
        loop.run()
    finally:
        scanner.stop()
        for display in displays:
            display.stop()
        for port in ports:
            port.close()
        for listener in listeners:
            listener.stop()
        if book is not None:
            book.close()
        if hub is not None:
            hub.stop()
        if join is not None:
            join.stop()
    session.table.close()
    for spk in speakers:
        spk.wait(120)
        spk.close()


def _listen(args: argparse.Namespace | None, session: Any, inbox: Any) -> list[Any]:
    """Voice input (`--voice`, `--voice-input`): listeners posting what they hear to the inbox.
    Without a model for the language, that is said and printed, and typing goes on."""
    if args is None or not (getattr(args, "voice", None) or getattr(args, "voice_input", None)):
        return []
    from companion.inputs.voice.recognizer import NoModel
    from companion.inputs.voice.sources import BadRecording
    from companion.inputs.voice.suppress import NoSuppressor
    from companion.inputs.voice.table import start_voice

    try:
        return start_voice(args, session, inbox)
    except NoModel as exc:
        session.emit([Utterance((Raw(str(exc)),), Priority.IMPORTANT, "error", None)], remember=False)
        return []
    except NoSuppressor as exc:  # --voice-suppress without its package: why, and typing goes on
        session.emit([Utterance((Msg("core.voice.no_suppressor", name=exc.name), Msg("core.voice.recording.keyboard")),
                                Priority.IMPORTANT, "error", None)], remember=False)
        return []
    except BadRecording as exc:  # a recording that cannot be heard: one sentence, and typing goes on
        session.emit([Utterance((Msg(exc.msg_id, **exc.params), Msg("core.voice.recording.keyboard")),
                                Priority.IMPORTANT, "error", None)], remember=False)
        return []


def play(args: argparse.Namespace) -> int:
    lang = args.lang or "fr"
    try:
        entry = find_game(args.game)
    except UnknownGame:
        raise UserError("core.error.unknown_game", lang, name=args.game, games=", ".join(g.name for g in GAMES)) from None
    refuse_unusable(args, lang)
    options = parse_options(entry, args.option, lang)
    humans = [n.strip() for n in args.players.split(",") if n.strip()]
    options = table_options(entry, options, len(humans), lang)
    game, ui, bots = load_game(entry, options, lang)
    if len(set(humans)) != len(humans):
        raise UserError("core.error.same_name", lang)
    n_bots = args.bots if args.bots is not None else (0 if humans else entry.min_players)
    kind = args.bot or next(iter(bots))
    if kind not in bots:
        raise UserError("core.error.unknown_bot", lang, bot=kind, bots=", ".join(bots))
    no_bots = ui.bots_refused()  # e.g. Kaliko at a physical table
    if n_bots and no_bots:
        raise UserError(no_bots, lang)
    names = humans + [catalog(lang).text(Msg("core.bot_name", n=i + 1)) for i in range(n_bots)]
    if not game.min_players <= len(names) <= game.max_players:
        exact = game.min_players == game.max_players  # « se joue à 2 », not « de 2 à 2 »
        raise UserError("core.error.player_count_exact" if exact else "core.error.player_count", lang,
                        n=len(names), lo=game.min_players, hi=game.max_players)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    kinds: list[str | None] = [None] * len(humans) + [kind] * n_bots
    bots_only = not humans
    if getattr(args, "reader", None):  # --reader PORT=SEAT names a player of this game (#14)
        from companion.inputs.reader.run import ReaderSpecError, parse_specs

        try:
            parse_specs(args.reader, names)
        except ReaderSpecError as exc:
            raise UserError("core.error.reader_spec", lang, spec=str(exc), names=", ".join(names)) from None
    _braille_specs(args, names, list(range(len(humans))), lang)
    unheard = unheard_humans(game, names, kinds, seed, args)
    channels_to_come = bool(getattr(args, "web", False) or getattr(args, "join", False) or getattr(args, "braille", None))
    if unheard and not channels_to_come:
        # A game nobody could play: its hands would be dealt to players who never hear them.
        raise UserError("core.error.secrets_unheard", lang, names=[Raw(n) for n in unheard])
    table, private = open_speakers(args, lang, names, bots_only, humans=humans)
    journal, journal_problem = None, None
    if not bots_only or args.journal:
        journal, journal_problem = create_journal(entry, game, options, names, kinds, seed, lang, args.journal)
        if journal is not None and args.verbosity and hasattr(journal, "setting"):
            # #29: --verbosity given at the start is kept on resume, as « bref » said in the game
            journal.setting(None, "verbosity", args.verbosity)
    session = make_session(entry, game, ui, bots, names, kinds, seed, private, table, journal, args, lang, worker=True)
    session.core.deal_waits = bool(unheard)  # the pages and terminals to come: dealt once each can hear
    if table is not None:
        session.emit(table.describe(), remember=False)
    if journal is not None:
        session.core.save_path = str(journal.path)
        if not bots_only:
            # Printed once (a screen reader or braille display can review it), never spoken:
            # « où est la sauvegarde » says it when asked.
            print(catalog(lang).text(Msg("core.journal_at", path=str(journal.path))), flush=True)
    if journal_problem is not None:
        _warn_io(session)(*journal_problem)
    _run(session, [table, *private.values()] if table else list(private.values()), args, title(entry.name, lang))
    if journal is not None:
        journal.close()
    return 0


def _braille_specs(args: argparse.Namespace, names: list[str], humans: list[int], lang: str) -> None:
    """`--braille SEAT[=contracted]` names a human of this game, once each (#27): kept parsed
    in `args.braille_seats` for `_run`."""
    specs = getattr(args, "braille", None) or []
    if not specs:
        return
    from companion.inputs.braille.play import SpecError, parse_specs

    try:
        args.braille_seats = parse_specs(specs, names, humans)
    except SpecError as exc:
        raise UserError("core.error.braille_spec", lang, spec=str(exc), names=", ".join(names[i] for i in humans)) from None


def make_session(entry: GameEntry, game: Any, ui: Any, bots: dict[str, Any], names: list[str], kinds: list[str | None],
                 seed: int, private: dict[str, Any], table: Any, journal: Any, args: argparse.Namespace, lang: str,
                 worker: bool = False) -> Any:
    """The session of `companion play` and `resume` (`worker=True`): its loop is the table's
    one loop, bots searching in its worker; the demo's bots choose inline (`worker=False`)."""
    from companion.audiorules.ingame import chapter_utterances
    from companion.session import Session

    match: Match[Any, Any] = Match(game, names, seed)
    seats = _seats(names, kinds, bots, game, seed, private)
    # Private lines are never said aloud to a table of several players without channels.
    session = Session(entry.name, ui, match, seats, lang=lang, verbosity=_verbosity(args), speaker=table,
                      journal=journal, log=args.log, log_private=getattr(args, "log_private", False),
                      rule_reader=chapter_utterances, private_policy="withhold", worker=worker)
    default_bot = next(iter(bots.values()))
    session.helper = lambda seat: default_bot(game, seat, Rng(seed).fork(100 + seat + len(match.history)))
    return session


# --------------------------------------------------------------------------- the save (journal)
class GuardedJournal:
    """The session's journal: a failed write (disk full, I/O error, read-only folder) is said
    and printed once, saving stops, and the game goes on (the save keeps a consistent prefix).

    The failure is kept as two sentences that the table says after the batch it was
    delivering (`notices`, read by `Table.notices`): the table never calls back into the core
    in the middle of carrying out its outputs (issue #23)."""

    def __init__(self, journal: Any) -> None:
        self.inner = journal
        self.failed: Any = None
        self._unsaid: list[Utterance] = []
        # What could not be written yet, in order: written as soon as the disk takes it again
        # (space freed), so the save catches up with the game and nothing is lost.
        self.pending: list[tuple[str, tuple[Any, ...]]] = []

    @property
    def path(self) -> Path:
        return Path(self.inner.path)

    def _guard(self, name: str, *args: Any) -> None:
        from companion.saves.journal import JournalWriteError

        self.pending.append((name, args))
        while self.pending:
            what, params = self.pending[0]
            self.inner.stopped = False  # the file holds a consistent prefix: try again from there
            try:
                getattr(self.inner, what)(*params)
            except JournalWriteError as exc:
                if self.failed is None:
                    self.failed = exc
                    self._unsaid = problem_sentences(exc.msg_id, str(exc.path))
                return
            self.pending.pop(0)
        if self.failed is not None:  # saving works again: said once, after the batch
            self.failed = None
            self._unsaid = [say("core.journal_saving_resumed", Priority.IMPORTANT, path=Raw(str(self.path)))]

    def notices(self) -> list[Utterance]:
        """What went wrong (or right again) since last asked (said once)."""
        out, self._unsaid = self._unsaid, []
        return out

    def action(self, seat: int, action: Any) -> None:
        self._guard("action", seat, action)

    def undo(self) -> None:
        self._guard("undo")

    def end(self, scores: list[int], winners: list[int]) -> None:
        self._guard("end", scores, winners)

    def announced(self) -> None:
        self._guard("announced")

    def setting(self, seat: int | None, key: str, value: str) -> None:
        self._guard("setting", seat, key, value)

    def close(self) -> None:
        self.inner.close()


def problem_sentences(msg_id: str, path: str) -> list[Utterance]:
    """A save that cannot be written: what happened, and that saving has stopped."""
    return [say(msg_id, Priority.IMPORTANT, path=Raw(path)), say("core.journal_saving_stopped", Priority.IMPORTANT)]


def _warn_io(session: Any) -> Any:
    """Says a save's problem found before the game starts (the loop is not running yet)."""
    def say_problem(msg_id: str, path: str) -> None:
        session.emit(problem_sentences(msg_id, path))

    return say_problem


def _schema(entry: GameEntry) -> int:
    return entry.spec().schema


def _replay_one(match: Match[Any, Any], seat: int, action: Any, implied: Any) -> None:
    """Replay one recorded move; one the rules refuse here is tried again after the moves an
    older save implies before it (IllegalAction if it still is, or if none are implied).
    Legality is the rules' own check of this move: never the list of every legal move, which
    is long in Kaliko and 2kissa10."""
    try:
        match.play(seat, action)
    except IllegalAction:
        before = implied(match)
        if not before:
            raise
        for s, a in before:
            match.play(s, a)
        match.play(seat, action)


def _implied(entry: GameEntry, schema: int) -> Any:
    """`match -> [(seat, action)]`: the moves a save of an older action schema did not record
    (the game's `implied_actions`); none when the save is of this schema."""
    hook = entry.spec().implied_actions
    if schema >= _schema(entry):
        return lambda match: []
    return lambda match: list(hook(match, schema))


def create_journal(entry: GameEntry, game: Any, options: dict[str, Any], names: list[str], kinds: list[str | None],
                   seed: int, lang: str, path: Path | None) -> tuple[Any, tuple[str, str] | None]:
    """A new save, created exclusively (never over an existing file), locked for the session.
    Returns (journal or None, (message id, path) of the problem when saving is impossible)."""
    from companion.saves import journal as jr
    from companion.saves.files import io_message_id

    start = {"game": entry.name, "options": options, "players": names, "seats": kinds, "seed": seed, "lang": lang,
             "resolved": jr.resolved_of(game)}
    try:
        if path is not None:
            journal = jr.Journal.create(Path(path), start, schema=_schema(entry))
        else:
            journal = jr.Journal.create_new(entry.name, start, schema=_schema(entry))
    except jr.JournalError as exc:
        raise UserError(exc.msg_id, lang, path=str(exc.path), line=exc.line) from None
    except jr.JournalWriteError as exc:
        return None, (exc.msg_id, str(exc.path))
    except OSError as exc:
        return None, (io_message_id(exc), str(exc.filename or path or jr.default_dir()))
    return GuardedJournal(journal), None


def open_saved_game(path: Path, lang: str) -> tuple[Any, Any, list[tuple[str, dict[str, Any]]]]:
    """Lock and read the save, rebuild the game from it alone and replay it. A bad record
    (damaged, unknown, a move that is not one of this game) keeps the moves before it and sets
    the rest aside, crash-safely. Returns (opened save, match pieces, notes to say)."""
    from companion.saves import journal as jr
    from companion.saves.files import io_message_id

    try:
        try:
            opened = jr.open_resume(path)
        except OSError as exc:
            if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise
            # a read-only folder or file: the game is offered unsaved, as `play` does there
            opened = jr.open_resume(path, readonly=True)
    except jr.JournalError as exc:
        raise UserError(exc.msg_id, lang, path=str(path), line=exc.line) from None
    except OSError as exc:
        raise UserError(io_message_id(exc), lang, path=str(path)) from None
    try:
        return _replay_saved(opened, path, lang)
    except BaseException:
        opened.close()
        raise


def _replay_saved(opened: Any, path: Path, lang: str) -> tuple[Any, Any, list[tuple[str, dict[str, Any]]]]:
    from companion.core import ActionDecodeError
    from companion.saves import journal as jr
    from companion.saves.files import io_message_id

    start = opened.start
    lang = lang or str(start.get("lang", "fr"))
    try:
        entry = find(str(start["game"]))
    except (UnknownGame, KeyError):
        raise UserError("core.error.journal_unknown_game", lang, path=str(path), game=str(start.get("game"))[:40]) from None
    if int(start.get("schema", 1)) > _schema(entry):
        raise UserError("core.error.journal_newer_schema", lang, path=str(path))
    try:
        options = jr.options_of(start)
    except ValueError:
        raise UserError("core.error.journal_not_a_journal", lang, path=str(path), line=1) from None
    game, ui, bots = load_game(entry, options, lang)
    names = list(start["players"])
    if not game.min_players <= len(names) <= game.max_players:
        raise UserError("core.error.journal_not_a_journal", lang, path=str(path), line=1)
    kinds = list(start["seats"])
    if any(k is not None and k not in bots for k in kinds):
        raise UserError("core.error.journal_not_a_journal", lang, path=str(path), line=1)
    c = opened.contents()
    if c.finished:
        # A finished game is not resumed; moves written after its end are said, and nothing is rewritten.
        end = next(line for line, r in opened.scan.records if r["kind"] == "end")
        after = sum(1 for line in c.action_lines if line > end)
        raise UserError("core.error.journal_finished_moves_after" if after else "core.error.journal_finished", lang,
                        path=str(path), n=after, line=end)
    match: Match[Any, Any] = Match(game, names, int(start["seed"]))
    implied = _implied(entry, int(start.get("schema", 1)))
    # Lines set aside alone (a record this version does not know, a move that is not one of this
    # game): the moves after them are replayed when they can be; when one cannot, the save is
    # refused with its reason and left as it is (issue 25).
    skipped = [p.line for p in opened.scan.problems if p.code == "unknown_record"]
    bad_moves: list[int] = []
    for i, rec in enumerate(c.actions):
        try:
            seat, action = jr.decode_move(game, rec)
            _replay_one(match, seat, action, implied)
        except (ActionDecodeError, IllegalAction) as exc:  # not a move of this game; a move refused here
            line = c.action_lines[i]
            if skipped or bad_moves:  # the moves after a line set aside do not follow without it
                first = min(skipped + bad_moves)
                raise UserError("core.error.journal_unreplayable", lang, path=str(path), line=first) from None
            bad_moves.append(line)
            opened.scan.problems.append(jr.Problem(line, "unknown_move", str(exc)[:60]))
    try:
        journal = opened.settle(skip=frozenset(bad_moves))
    except OSError as exc:  # the repair could not be written (a full disk): the save is as it was
        raise UserError("core.error.journal_repair_failed", lang, path=str(path),
                        problem=Msg(io_message_id(exc), path=str(path))) from None
    c = jr.contents([r for _, r in opened.kept], [line for line, _ in opened.kept])
    notes: list[tuple[str, dict[str, Any]]] = []
    mended = [p for p in opened.scan.problems if p.code in ("fixed", "glued")]
    backup = Raw(str(opened.backup or path))
    if opened.scan.stop is not None:
        bad = next(p for p in opened.scan.problems if p.line == opened.scan.stop)
        notes.append((f"core.journal_set_aside.{bad.code}", {"path": Raw(str(path)), "line": bad.line,
                      "kept": len(c.actions), "aside": opened.scan.set_aside_moves, "backup": backup}))
    elif mended:
        notes.append(("core.journal_mended", {"path": Raw(str(path)), "n": len(mended), "backup": backup}))
    for p in opened.scan.problems:
        if p.code in ("unknown_record", "unknown_move") and p.line != opened.scan.stop:
            after = sum(1 for line in c.action_lines if line > p.line)
            if after:
                notes.append((f"core.journal_skipped.{p.code}", {"path": Raw(str(path)), "line": p.line, "n": after,
                                                                 "backup": backup}))
            else:  # the last line: the moves before it are kept, it is set aside
                notes.append((f"core.journal_set_aside.{p.code}", {"path": Raw(str(path)), "line": p.line,
                              "kept": len(c.actions), "aside": int(p.code == "unknown_move"), "backup": backup}))
    if journal is None:  # opened read-only: played unsaved, said as `play` says it
        opened.close()
        notes.append(("core.error.io_read_only", {"path": Raw(str(path))}))
        notes.append(("core.journal_saving_stopped", {}))
    return journal, (entry, game, ui, bots, names, kinds, start, c), notes


def resume(args: argparse.Namespace) -> int:
    from companion.saves import journal as jr

    lang = args.lang or "fr"
    refuse_unusable(args, lang)
    path = args.file or jr.latest()
    if path is None:
        raise UserError("core.error.nothing_to_resume", lang, folder=str(jr.default_dir()))
    journal, pieces, notes = open_saved_game(Path(path), args.lang or "")
    try:
        entry, game, ui, bots, names, kinds, start, c = pieces
        lang = args.lang or start.get("lang", "fr")
        if c.finished:
            raise UserError("core.error.journal_finished", lang, path=str(path))
        _braille_specs(args, names, [i for i, k in enumerate(kinds) if not k], lang)
        unheard = unheard_humans(game, names, kinds, int(start["seed"]), args)
        if unheard and not (getattr(args, "web", False) or getattr(args, "join", False) or getattr(args, "braille", None)):
            raise UserError("core.error.secrets_unheard", lang, names=[Raw(n) for n in unheard])
        table, private = open_speakers(args, lang, names, all(kinds), humans=[n for n, k in zip(names, kinds, strict=True) if not k])
    except BaseException:
        if journal is not None:
            journal.close()
        raise
    session = make_session(entry, game, ui, bots, names, kinds, int(start["seed"]), private, table,
                           None, args, lang, worker=True)
    session.core.deal_waits = bool(unheard)  # the pages and terminals to come: play goes on once each can hear
    implied = _implied(entry, int(start.get("schema", 1)))
    for rec in c.actions:  # checked move by move when the save was opened
        _replay_one(session.match, *jr.decode_move(game, rec), implied)
    session.core.apply_settings(c.settings)  # « bref » said before the save was closed
    if args.verbosity:
        session.core.verbosity = _verbosity(args)  # asked for on this resume: it wins for the table
    guarded = GuardedJournal(journal) if journal is not None else None  # None: a read-only folder, played unsaved
    if guarded is not None:
        session.journal = guarded
        session.core.save_path = str(guarded.path)
    session.resumed = True
    if table is not None:
        session.emit(table.describe(), remember=False)
    for msg_id, params in notes:
        session.tell(msg_id, None, priority=Priority.IMPORTANT, **params)
    say_where_it_stands(session, c)
    if session.match.over and guarded is not None:
        guarded.announced()
    _run(session, [table, *private.values()] if table else list(private.values()), args, title(entry.name, lang))
    if guarded is not None:
        guarded.close()
    return 0


def say_where_it_stands(session: Any, c: Any) -> None:
    """The last move played, and every move saved but never announced (a kill between the
    write and the narration), said again from the replayed match — by the core, right after
    « Partie reprise après N coups »."""
    history = session.match.history
    unsaid = len(c.unannounced)
    utts: list[Utterance] = []
    if unsaid:
        utts.append(say("core.journal_unannounced", Priority.IMPORTANT, n=unsaid))
        steps = history[len(history) - unsaid:]
    elif history:
        utts.append(say("core.journal_last_move", Priority.MESSAGE))
        steps = history[-1:]
    else:
        steps = []
    moves: list[Utterance] = []
    for step in steps:
        for ev in step.events:
            if ev.visible_to(None):
                moves.extend(u for u in session.ui.narrate(ev, session.match) if u.to is None)
    session.core.resume_news = utts + moves if moves or unsaid else []
    session.core.news_unannounced = bool(unsaid)


# --------------------------------------------------------------------------- demo
# 2kissa10 between two bots: its terse narration is the shortest whole game (about a minute).
DEMO_GAME = "kissa"
DEMO_SEED = 21
DEMO_RATE = 240  # words per minute, for the demo only (kept in no profile)


def demo(args: argparse.Namespace) -> int:
    """A short whole game between bots, narrated; a WAV file when there is no sound card."""
    lang = args.lang
    entry = find(DEMO_GAME)
    game, ui, bots = load_game(entry, {}, lang)
    seed = args.seed if args.seed is not None else DEMO_SEED
    names = [catalog(lang).text(Msg("core.bot_name", n=i + 1)) for i in range(entry.min_players)]
    fallback = Path(args.out) if args.out else Path("out") / f"demo-{lang}.wav"
    ns = argparse.Namespace(speech=args.speech, out=None, private=[], verbosity="terse", log=None)
    from companion.outputs.profile import Profile

    table, _ = open_speakers(ns, lang, names, bots_only=False, fallback=fallback, paced=False,
                             profile=Profile(name="demo", rate=DEMO_RATE, language=lang))
    kinds: list[str | None] = [next(iter(bots))] * len(names)
    session = make_session(entry, game, ui, bots, names, kinds, seed, {}, table, None, ns, lang)
    session.emit([say("core.demo_intro", Priority.MESSAGE, game=title(entry.name, lang))], remember=False)
    if table is not None:
        session.emit(table.describe(), remember=False)
    session.start_or_resume()
    if table is not None:
        table.wait(300)
        where = getattr(table.sink, "path", None)
        table.close()
        if where:
            print(catalog(lang).text(Msg("core.demo_wav", path=str(where))), flush=True)
    return 0


__all__ = ["UserError", "demo", "list_games", "play", "resume", "say_error"]
_ = Utterance
