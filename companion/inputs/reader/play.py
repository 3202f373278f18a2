"""Tokens read during a game, sans I/O: reader events in, the session core's moves and words out.

The session core (`companion.session.core.SessionCore`) calls `ReaderPlay.device(core, item)` for
each `Device` input from a reader and `ReaderPlay.line(core, text, seat)` for each line first;
both return the outputs they caused. Reader events are recognised by their `EVENT` name
(`companion.inputs.reader.events`), so this module imports no adapter.

What a token is: the text its tag carries (``kikoi:kigliss-sleep``), else the user's pairing of
its UID (`companion.inputs.reader.pairs`); neither: « jeton inconnu », to that player.

Whose token it is follows from the game: the player the game waits for (to deal, draw or give).
A reader bound to a seat (``--reader PORT=Marie``) speaks for that seat only. A token becomes an
action through `GameUI.told` (the chance told by the table: deals and draws) or, for a KIKOI
gift, the asked player's `Reply(give)`; anything the game did not expect is not acted on. The
reader adapter reports a token only once the reader's next PRESENCE confirmed it.

Secrets: a private line goes to the player's own channel, or nowhere (the core's routing). A
player without a channel among several humans hears a neutral « jeton 2 sur 4 noté » during the
deal, the same for every token; a refusal never names the token laid.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from companion.core import IllegalAction, fold
from companion.games.base import action_command
from companion.narration import Msg, Priority, Raw, Utterance, say
from companion.session.outputs import InputTaken


def _clean(text: str) -> str:
    return fold(text).strip(" ?!.")


# The reader's own words (typed or said), any language.
LEARN = frozenset(_clean(w) for w in ("c'est quoi", "c'est quoi ?", "cest quoi", "qu'est-ce que c'est",
                                    "what is this", "what is this?", "what's this"))
CANCEL = frozenset(_clean(w) for w in ("annule la lecture", "annuler la lecture", "undo the reading",
                                     "cancel the reading", "undo reading", "cancel reading"))
STATUS = frozenset(_clean(w) for w in ("lecteur", "état du lecteur", "etat du lecteur", "le lecteur",
                                     "reader", "reader status"))
# The words that end « c'est quoi ? » (#29): taken by the mode alone, so a second one asks
# whether to quit, never quits (« fin » is also a quit word).
DONE = frozenset(_clean(w) for w in ("fin", "fin de c'est quoi", "arrête", "stop", "assez", "c'est bon",
                                   "end", "done", "enough", "stop what is this"))
# Refusals that mean "this token cannot come now": it lies elsewhere, was used, or was read twice.
CHECK_CODES = frozenset({"already_placed", "out_of_game", "not_in_bag", "red_in_deal", "no_such_token"})


@dataclass
class ReaderState:
    name: str          # how it is called aloud: « lecteur 1 »
    seat: int | None   # the seat it speaks for (None: the whole table)
    source: str = "reader"  # the inbox source of its events
    status: str = "waiting"  # waiting (never heard), ready, lost, too_new


@dataclass
class ReaderPlay:
    """The readers of one game. `readers` maps a `Device` source to its reader; a source never
    declared is taken as a shared reader the first time it speaks."""

    readers: dict[str, ReaderState] = field(default_factory=dict)
    uids: dict[str, str] = field(default_factory=dict)  # tag UID (hex) -> token text
    learning: set[int | None] = field(default_factory=set)  # seats in « c'est quoi ? » mode
    last_read: dict[int, int] = field(default_factory=dict)  # seat -> history length after its read

    @classmethod
    def bound(cls, specs: list[tuple[str, int | None]], uids: dict[str, str] | None = None) -> ReaderPlay:
        """One reader per (source, seat); sources as `companion.inputs.reader.run.source_of` names them."""
        readers = {src: ReaderState(str(i + 1), seat, src) for i, (src, seat) in enumerate(specs)}
        return cls(readers, dict(uids or {}))

    # ------------------------------------------------------------------ entry points
    def device(self, core: Any, item: Any) -> list[Any]:
        """Outputs of one reader event (`Device(event, source)`); [] for events of other devices."""
        kind = getattr(item.event, "EVENT", None)
        if not isinstance(kind, str) or not kind:
            return []
        with _Capture(core) as cap:
            self._event(core, item.source, kind, item.event)
        return cap.out

    def line(self, core: Any, text: str, seat: int | None) -> list[Any] | None:
        """Outputs when the line is the reader's own words; None when it is not (the core
        reads it as usual). Any other line of a player ends their « c'est quoi ? » mode."""
        words = _clean(text)
        if not self.readers:
            return None
        if seat in self.learning and words in DONE:
            self.learning.discard(seat)
            with _Capture(core) as cap:
                core._taking("answer", "reader_learn_done")
                core.tell("core.reader.learn_over", seat)
            return cap.out
        if words not in LEARN | CANCEL | STATUS:
            self.learning.discard(seat)
            return None
        with _Capture(core) as cap:
            if words in LEARN:
                core._taking("answer", "reader_learn")
                self.learning.add(seat)
                core.tell("core.reader.learn", seat)
            elif words in CANCEL:
                self._cancel(core, seat)
            else:
                core._taking("answer", "reader_status")
                core.emit([self._status_of(r) for r in self.readers.values()])
        return cap.out

    # ------------------------------------------------------------------ events
    def _reader(self, source: str) -> ReaderState:
        if source not in self.readers:
            self.readers[source] = ReaderState(str(len(self.readers) + 1), None, source)
        return self.readers[source]

    def _event(self, core: Any, source: str, kind: str, ev: Any) -> None:
        r = self._reader(source)
        one = len(self.readers) == 1
        if kind == "hello":
            if r.status == "ready":
                return  # already said (a HELLO after « rebranché »)
            msg = "core.reader.back" if r.status == "lost" else "core.reader.ready"
            r.status = "ready"
            self._tell(core, msg, r, one)
        elif kind == "back":  # the first frames after a loss (or after no port at the start)
            if r.status != "ready":
                msg = "core.reader.back" if r.status == "lost" else "core.reader.ready"
                r.status = "ready"
                self._tell(core, msg, r, one)
        elif kind == "lost":
            if r.status == "waiting" and getattr(ev, "why", "") == "no port":
                r.status = "lost_waiting"
                self._tell(core, "core.reader.absent", r, one, Priority.IMPORTANT)
            elif r.status == "ready":
                r.status = "lost"
                self._tell(core, "core.reader.unplugged", r, one, Priority.IMPORTANT)
        elif kind == "too_new":
            r.status = "too_new"
            self._tell(core, "core.reader.too_new", r, one, Priority.IMPORTANT)
        elif kind == "button":
            seat = r.seat if r.seat is not None else self._speaker_seat(core)
            if not getattr(ev, "long", False):
                core._global("repeat", seat)
        elif kind == "placed":
            if r.status != "ready":  # a token before HELLO: the reader speaks
                r.status = "ready"
            self._placed(core, r, int(ev.slot), str(ev.uid), ev.text)

    def _tell(self, core: Any, msg: str, r: ReaderState, one: bool, priority: Priority = Priority.MESSAGE) -> None:
        core.emit([say(msg, priority, "error" if priority == Priority.IMPORTANT else None, None,
                       reader=Raw("" if one else f" {r.name}"))], remember=False)

    def _status_of(self, r: ReaderState) -> Utterance:
        status = {"ready": "ready", "lost": "unplugged", "too_new": "too_new"}.get(r.status, "absent")
        return say(f"core.reader.status.{status}", Priority.TEXT, None, None, reader=Raw(r.name))

    def _speaker_seat(self, core: Any) -> int | None:
        """Who a shared reader speaks for: the player the game waits for, else the only human."""
        current = core.match.current
        if current is not None and core.seats[current].bot is None:
            return current
        humans = core.humans
        return humans[0] if humans else None

    # ------------------------------------------------------------------ a token laid
    def _placed(self, core: Any, r: ReaderState, slot: int, uid: str, text: str | None) -> None:
        seat = r.seat if r.seat is not None else self._speaker_seat(core)
        text = text or self.uids.get(uid)
        if not text:
            core.emit([say("core.reader.unknown", Priority.IMPORTANT, "error", seat)])
            return
        game, sep, tid = text.partition(":")
        if not sep or game != core.game_name:
            core.emit([say("core.reader.other_game", Priority.IMPORTANT, "error", seat,
                           game=Raw(game if sep else text))])
            return
        if seat in self.learning or (r.seat is None and self.learning):
            learner = seat if seat in self.learning else next(iter(self.learning))
            name = token_name(core.game_name, tid)
            core.emit([say("core.reader.this_is", Priority.TEXT, None, learner, token=name, slot=slot + 1)],
                      private=True, advise=True)
            return
        match = core.match
        actor = match.current
        if match.over or actor is None:
            core.emit([say("core.reader.not_expected", Priority.TEXT, "error", seat)])
            return
        if r.seat is not None and r.seat != actor:
            core.emit([say("core.reader.not_your_turn", Priority.TEXT, "error", r.seat,
                           player=Raw(core.seats[actor].name))])
            return
        if tid in core.ui.chance(match, actor):
            intent = core.ui.told(tid, match, actor)
            action = getattr(intent, "action", None)
            if action is not None:
                self._play(core, actor, action, r.source, text, dealt=_deal_count(match, actor))
                return
        gift = _gift(match, actor, tid)
        if gift is not None:
            action, asked = gift
            if action is not None:
                self._play(core, actor, action, r.source, text)
            elif core.hears_privately(actor):
                core.emit([say("core.reader.wrong_gift", Priority.IMPORTANT, "error", actor,
                               asked=token_name(core.game_name, asked), laid=token_name(core.game_name, tid))],
                          private=True)
            else:
                core.emit([say("core.reader.wrong_gift_neutral", Priority.IMPORTANT, "error", actor,
                               asked=token_name(core.game_name, asked))])
            return
        code = _why_not(match, actor, tid)
        if code in CHECK_CODES:
            core.emit([say("core.reader.check", Priority.IMPORTANT, "error", actor)])
        else:
            core.emit([say("core.reader.not_expected", Priority.TEXT, "error", actor)])

    def _play(self, core: Any, seat: int, action: Any, source: str, text: str,
              dealt: tuple[int, int] | None = None) -> None:
        match = core.match
        if action not in match.legal(seat):
            core.emit([say("core.reader.check", Priority.IMPORTANT, "error", seat)])
            return
        if dealt is not None and not core.hears_privately(seat):
            # the same words and earcon for every token: nobody learns which one it was
            core.emit([say("core.reader.noted_n", Priority.MESSAGE, "private", None,
                           player=Raw(core.seats[seat].name), n=dealt[0], of=dealt[1])])
        at = len(core._out)
        core._act(seat, action)
        self.last_read[seat] = len(match.history)
        # the --log file tells a token read from a typed line (the journal does not: same move)
        core._out.insert(at, InputTaken(source, seat, text, "act", action_command(match.game, action)))

    def _cancel(self, core: Any, seat: int | None) -> None:
        """« annule la lecture »: the seat's last token read, taken back while nothing followed it."""
        if seat is None or self.last_read.get(seat) != len(core.match.history):
            core._taking("refuse", "reader_cancel")
            core.tell("core.reader.nothing_to_cancel", seat, Priority.IMPORTANT)
            return
        del self.last_read[seat]
        core._taking("shared", "reader_cancel")
        core._undo(seat)


class _Capture:
    """Collects what the core appended to its outputs meanwhile, and takes it back out."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.out: list[Any] = []

    def __enter__(self) -> _Capture:
        self.at = len(self.core._out)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.out = self.core._out[self.at:]
        del self.core._out[self.at:]


# ---------------------------------------------------------------------- what games say about tokens
def token_name(game: str, tid: str) -> Any:
    """A token's spoken name (« le Kigliss qui dort »): the game's `narration.tok`, else its id."""
    try:
        narration = importlib.import_module(f"companion.games.{game}.narration")
        tok = getattr(narration, "tok", None)
        if tok is not None:
            name = tok(tid)
            return name if isinstance(name, Msg) else Raw(str(name))
    except (ModuleNotFoundError, KeyError, ValueError):
        pass  # a game without spoken token names, or an id it does not know: said as written
    return Raw(tid)


def _deal_count(match: Any, seat: int) -> tuple[int, int] | None:
    """During a KIKOI deal: (which token this is, of how many) for the neutral confirmation."""
    state = match.state
    if getattr(state, "phase", None) != "deal" or not hasattr(match.game, "deal_size"):
        return None
    size = int(match.game.deal_size(state.n))
    return size - int(state.deal_left) + 1, size


def _gift(match: Any, seat: int, tid: str) -> tuple[Any, str] | None:
    """A KIKOI gift: (the give action, or None for a wrong token; the token asked for), or
    None when `seat` is not being asked for a token."""
    state = match.state
    if getattr(state, "phase", None) != "answer" or state.request is None:
        return None
    game = match.game
    if game.name != "kikoi":
        return None
    from companion.games.kikoi.tokens import token_from_id, token_id  # the one game with gifts

    asked = token_id(state.request[2])
    try:
        laid = token_id(token_from_id(tid))
    except KeyError:
        return None, asked
    if laid != asked:
        return None, asked
    return game.action_from_json({"reply": "give"}), asked


def _why_not(match: Any, seat: int, tid: str) -> str | None:
    """Why a token cannot be the `seat`'s draw now (the rules' refusal code), if it is a token."""
    try:
        action = match.game.action_from_json({"drew": tid})
    except (KeyError, ValueError, TypeError):
        return None
    try:
        match.game.check(match.state, seat, action)
    except IllegalAction as exc:
        return exc.code
    except Exception:  # noqa: BLE001 - a game without this action
        return None
    return None
